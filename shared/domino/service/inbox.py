"""Notifications: what the table's stream turns into inbox items (and, through the channels,
pushes and socket messages), and the player's reads of their inbox.

Exactly once per (player, game, version, type), with no state but the table's: the inbox item's
key is the dedupe (``InboxStore.add`` writes it once), and it is also the outbox: ``pushed``
stays false until every channel has been sent it. A change delivered again (the stream retries a
batch, or the function died after writing the inbox) finds the item: sent already, nothing
happens; not sent yet, it is sent now. docs/decisions.md says how the window in which a push
can repeat is bounded.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from domino.engine.errors import InvalidInput
from domino.service.clock import Clock, system_clock
from domino.service.notices import Notice, notices, seated, ticket_notices
from domino.service.ports import Channel, InboxStore, LiveChanges, ReachStore
from domino.service.reach import ChangeReach, player_locale
from domino.service.texts import language_of, text
from domino.service.values import Caller, Page
from domino.store.errors import Unavailable
from domino.store.inbox import NOTE_ID, Note
from domino.store.records import Item, iso, record_from_image
from domino.store.tickets import ticket_from_image

#: tries of marking a sent notification sent, and the pause before the second (then doubled)
MARK_ATTEMPTS = 4
MARK_PAUSE_SECONDS = 0.05


class Notifier:
    """The stream's use case: a game item changed; tell the players it concerns."""

    def __init__(
        self,
        inbox: InboxStore,
        channels: Sequence[Channel] = (),
        live: LiveChanges | None = None,
        reach: ChangeReach | None = None,
    ) -> None:
        self.inbox = inbox
        self.channels = channels
        self.live = live  # tells the players a change notified of nothing that it happened
        self.reach = reach  # the channels' reads of a player, once per change

    def on_change(self, old_image: Item | None, new_image: Item | None) -> int:
        """Write (and send) what the change from ``old_image`` to ``new_image`` notifies;
        returns how many notifications were new."""
        new = record_from_image(new_image) if new_image else None
        if new is None:
            ticket = ticket_from_image(new_image) if new_image else None
            if ticket is None:
                return 0
            before = ticket_from_image(old_image) if old_image else None
            return self._tell(ticket_notices(before, ticket))
        old = record_from_image(old_image) if old_image else None
        if self.live is not None:
            self.live.begin(old, new)
        found = notices(old, new)
        written = self._tell(found)
        if self.live is not None and old is not None and new.version > old.version:
            told = {notice.player for notice in found}
            for player in seated(new):
                if player not in told:
                    self.live.changed(player, new.id, new.version)
        return written

    def _tell(self, found: list[Notice]) -> int:
        """Write and send each notice once; how many were new."""
        if self.reach is not None:
            self.reach.reset()
        written = 0
        for notice in found:
            note = Note(
                notice.player,
                notice.type,
                notice.game,
                notice.version,
                notice.at,
                notice.preset,
                notice.detail,
                urgent=notice.urgent,
                by=notice.by,
                move=notice.move,
            )
            if self.inbox.add(note):
                written += 1
            elif not self.channels or self._sent(note):
                continue  # delivered before: this is a redelivery
            self.deliver(note)
        return written

    def _sent(self, note: Note) -> bool:
        stored = self.inbox.get(note.player, note.id)
        return stored is None or stored.pushed  # gone (expired): nothing to send either

    def deliver(self, note: Note) -> None:
        """Send ``note`` on every channel, then mark it sent (the outbox). A note no channel
        had anywhere to send stays unmarked: that saves a write per notification of a player
        without devices or sockets, and a redelivery asks the channels again (still nowhere,
        or a device registered since, which then gets it)."""
        sent = [channel.send(note) for channel in self.channels]
        if not any(sent):
            return
        for attempt in range(MARK_ATTEMPTS):
            # sent already: failing here would send it again on the stream's retry, so the
            # (idempotent) mark gets a few more tries than the SDK's, whose retry quota runs
            # dry while DynamoDB keeps failing
            try:
                self.inbox.mark_pushed(note)
                return
            except Unavailable:
                if attempt == MARK_ATTEMPTS - 1:
                    raise
                time.sleep(MARK_PAUSE_SECONDS * 2**attempt)


class InboxQueries:
    """The player's side: their notifications and what they have read."""

    def __init__(
        self, inbox: InboxStore, reach: ReachStore | None = None, clock: Clock = system_clock
    ) -> None:
        self.inbox = inbox
        self.reach = reach  # what the player chose and their devices, in one query
        self.clock = clock

    def language(self, caller: Caller) -> str:
        """The player's one language (service/reach.py ``player_locale``), as their sockets."""
        if self.reach is None:
            return language_of(caller.locale)
        reach = self.reach.of_player(caller.player, int(self.clock()))
        return language_of(player_locale(reach, caller.locale))

    def page(self, caller: Caller, limit: int, cursor: str | None) -> tuple[Page, int]:
        """A page of the caller's notifications, newest first, and how many are unread."""
        notes, following = self.inbox.page(caller.player, limit, cursor)
        until = self.inbox.read_until(caller.player)
        language = self.language(caller)
        items = [note_view(n, until is not None and n.id <= until, language) for n in notes]
        return Page(items, following), self.inbox.unread(caller.player, until)

    def mark_read(self, caller: Caller, until: str) -> None:
        """``until`` and every older notification are read."""
        if not NOTE_ID.fullmatch(until) or self.inbox.get(caller.player, until) is None:
            raise InvalidInput("until is not one of your notifications.")
        self.inbox.mark_read(caller.player, until)


def note_view(note: Note, read: bool, language: str) -> dict[str, Any]:
    """A notification as docs/api.md#notifications lists it."""
    title, body = text(note.type, language, note.preset, note.detail, note.by, note.move)
    return {
        "id": note.id,
        "type": note.type,
        "game": note.game,
        "version": note.version,
        "created_at": iso(note.at),
        "title": title,
        "body": body,
        "read": read,
    }
