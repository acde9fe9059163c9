"""Quiet hours: the window in the player's zone (daylight saving, zones east of UTC, a window
end in a spring-forward gap), what PATCH /me accepts, and the push channel holding pushes
while the window is open and sending one summary when it ends."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from domino.api.errors import InvalidRequest
from domino.api.models import UpdateMeBody
from domino.service.devices import Devices, PushChannel
from domino.service.quiet import QuietHold, QuietHours, QuietSummary
from domino.service.values import Caller, RegisterDevice
from domino.store.inbox import Note
from domino.store.quiet import Held

from tests.unit.test_push import Devices_, Gateway

MADRID = QuietHours("22:00", "08:00", "Europe/Madrid")


def at(text: str) -> int:
    """Epoch seconds of an ISO time in UTC."""
    return int(datetime.fromisoformat(text).replace(tzinfo=UTC).timestamp())


def test_a_window_across_midnight_ends_at_its_local_time_in_winter_and_summer() -> None:
    # winter (CET, UTC+1): 08:00 local is 07:00 UTC; summer (CEST, UTC+2): 06:00 UTC
    assert MADRID.ends_after(at("2026-01-15T22:30:00")) == at("2026-01-16T07:00:00")
    assert MADRID.ends_after(at("2026-07-15T21:30:00")) == at("2026-07-16T06:00:00")
    # after midnight, the same morning's end
    assert MADRID.ends_after(at("2026-01-16T03:00:00")) == at("2026-01-16T07:00:00")
    # outside the window: not held
    assert MADRID.ends_after(at("2026-01-15T12:00:00")) is None
    assert MADRID.ends_after(at("2026-01-16T07:00:00")) is None  # 08:00 local: just over
    assert MADRID.ends_after(at("2026-01-15T20:59:59")) is None  # 21:59:59 local


def test_the_night_the_clocks_change_the_window_still_ends_at_8_local() -> None:
    # 2026-03-29: Madrid skips 02:00 -> 03:00. Held at 23:00 CET, it ends at 08:00 CEST
    assert MADRID.ends_after(at("2026-03-28T22:00:00")) == at("2026-03-29T06:00:00")
    # 2026-10-25: 03:00 -> 02:00. Held at 23:00 CEST, it ends at 08:00 CET
    assert MADRID.ends_after(at("2026-10-24T21:00:00")) == at("2026-10-25T07:00:00")
    # the repeated hour (02:30 twice) is inside the window both times
    assert MADRID.ends_after(at("2026-10-25T00:30:00")) == at("2026-10-25T07:00:00")
    assert MADRID.ends_after(at("2026-10-25T01:30:00")) == at("2026-10-25T07:00:00")


def test_an_end_in_a_spring_forward_gap_reads_in_the_offset_before_it() -> None:
    small_hours = QuietHours("01:00", "02:30", "Europe/Madrid")  # 02:30 never happens that night
    end = small_hours.ends_after(at("2026-03-29T00:15:00"))  # 01:15 CET
    assert end == at("2026-03-29T01:30:00")  # 03:30 CEST: the instant 02:30 CET would be
    assert small_hours.ends_after(end) is None


def test_zones_east_of_utc_hold_by_their_own_clock() -> None:
    tokyo = QuietHours("23:00", "07:00", "Asia/Tokyo")  # UTC+9, no daylight saving
    assert tokyo.ends_after(at("2026-06-01T15:00:00")) == at("2026-06-01T22:00:00")  # 00:00 JST
    assert tokyo.ends_after(at("2026-06-01T22:30:00")) is None  # 07:30 JST: over
    kolkata = QuietHours("13:30", "15:00", "Asia/Kolkata")  # UTC+5:30, within one day
    assert kolkata.ends_after(at("2026-06-01T08:00:00")) == at("2026-06-01T09:30:00")
    assert kolkata.ends_after(at("2026-06-01T07:59:00")) is None  # 13:29 IST


def test_the_settings_item_keeps_a_window_as_text() -> None:
    assert QuietHours.decoded(MADRID.encoded()) == MADRID
    assert QuietHours.decoded("22:00 08:00 Mars/Olympus") is None  # a zone no longer known
    assert QuietHours.decoded(None) is None


@pytest.mark.parametrize(
    ("quiet", "field"),
    [
        ({"from": "24:00", "to": "08:00", "tz": "UTC"}, "quiet_hours.from"),
        ({"from": "22:00", "to": "8:00", "tz": "UTC"}, "quiet_hours.to"),
        ({"from": "22:00", "to": "08:00", "tz": "Europe/Atlantis"}, "quiet_hours.tz"),
        ({"from": "22:00", "to": "08:00", "tz": "../../etc/passwd"}, "quiet_hours.tz"),
        ({"from": "22:00", "to": "08:00", "tz": "x" * 65}, "quiet_hours.tz"),
        ({"from": "22:00", "to": "22:00", "tz": "UTC"}, "quiet_hours"),
        ({"from": "22:00", "to": "08:00"}, "quiet_hours.tz"),
        ({"from": "22:00", "to": "08:00", "tz": "UTC", "days": [1]}, "quiet_hours.days"),
        ("22:00-08:00", "quiet_hours"),
    ],
)
def test_a_window_patch_me_cannot_keep_is_400_naming_its_field(quiet: object, field: str) -> None:
    with pytest.raises(InvalidRequest) as refused:
        UpdateMeBody.parse(json.dumps({"quiet_hours": quiet}))
    assert refused.value.params["fields"] == [field]


def test_patch_me_sets_or_ends_quiet_hours() -> None:
    body = {"quiet_hours": {"from": "22:00", "to": "08:00", "tz": "Europe/Madrid"}}
    assert UpdateMeBody.parse(json.dumps(body)).quiet_hours == MADRID.encoded()
    assert UpdateMeBody.parse('{"quiet_hours": null}').quiet_hours == ""  # none any more
    assert UpdateMeBody.parse('{"name": "Ana"}').quiet_hours is None  # left as it is


class MemoryHeld:
    def __init__(self) -> None:
        self.items: dict[str, tuple[set[str], int]] = {}

    def hold(self, player: str, game: str, until: int) -> bool:
        games, due = self.items.get(player, (set(), None))
        self.items[player] = (games | {game}, until)
        return due != until

    def release(self, player: str, now: int) -> Held | None:
        games, due = self.items.get(player, (set(), now + 1))
        if due > now:
            return None
        del self.items[player]
        return Held(player, frozenset(games))


def test_pushes_in_the_window_are_held_and_one_summary_follows_once() -> None:
    store, gateway, held = Devices_(), Gateway(), MemoryHeld()
    Devices(store, gateway).register(Caller("ana", "Ana"), "phone", RegisterDevice("apns", "t"))
    now = [float(at("2026-01-15T23:00:00"))]  # 00:00 in Madrid
    timers: list[tuple[str, int]] = []
    hold = QuietHold(
        lambda p: MADRID, held, lambda: now[0], set_timer=lambda p, d: timers.append((p, d))
    )
    channel = PushChannel(store, gateway, lambda p: 2, hold=hold.holds)
    turns = [Note("ana", "your_turn", g * 22, 3, int(now[0]), "clasico") for g in "ab"]
    assert all(channel.send(note) for note in turns + turns)  # settled, a redelivery too
    assert gateway.sent == []
    end = at("2026-01-16T07:00:00")
    assert timers == [("ana", end)]  # one timer for the window's end
    summary = QuietSummary(held, lambda: now[0], channel.summary)
    assert summary.fire("ana") is False  # a timer early: still holding
    now[0] = end
    assert summary.fire("ana") is True
    assert summary.fire("ana") is False  # the timer delivered again: nothing more
    ((_, sent),) = gateway.sent
    aps = sent["APNS"]["aps"]
    assert aps["alert"]["body"] == "2 partidas esperan tu jugada."
    assert aps["badge"] == 2 and aps["alert"]["loc-key"] == "QUIET_SUMMARY_AWAIT_BODY"
    assert sent["APNS"]["type"] == "quiet_summary" and "game" not in sent["APNS"]
    # after the window, pushes go out at once again
    assert channel.send(turns[0]._replace(version=4)) is True
    assert len(gateway.sent) == 2 and gateway.sent[1][1]["APNS"]["type"] == "your_turn"
