"""An in-memory ``GameStore`` (domino.service.ports) for fast tests of the use cases.

It keeps what DynamoDB keeps, the way the real store writes it: every record goes through the
same item mapping (``to_item`` / ``from_item``), so a loaded record is a fresh copy, and a save is
atomic under one lock: the conditional write on ``version`` and the membership condition.
``before_save`` lets a test act just before a save is decided (a rival's write, a deletion).
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Callable
from typing import Any

from domino.store.accounts import NoticeSettings, Profile, ProfileDeleted
from domino.store.cursors import MINE_CURSOR, decode_cursor, encode_cursor
from domino.store.devices import Device, Owner
from domino.store.errors import AlreadyMember, VersionConflict
from domino.store.inbox import Note
from domino.store.listings import player_page
from domino.store.records import GameRecord, from_item, iso, premoves_json, to_item


class MemoryGameStore:
    def __init__(self) -> None:
        self.items: dict[str, dict[str, Any]] = {}
        self.members: dict[str, set[str]] = {}
        self.archives: dict[str, dict[int, list[dict[str, Any]]]] = {}
        self.lock = threading.Lock()
        self.before_save: Callable[[GameRecord, int], None] | None = None
        self.saves = 0
        #: every write of a game item as (old, new) items: what the table's stream would hold
        self.stream: list[tuple[dict[str, Any] | None, dict[str, Any]]] = []

    def _record(self, game_id: str) -> GameRecord | None:
        item = self.items.get(game_id)
        return from_item(item) if item else None

    # ------------------------------------------------------------------ games

    def load(self, game_id: str) -> GameRecord | None:
        with self.lock:
            return self._record(game_id)

    def create(self, record: GameRecord, *, token_issued: int | None = None) -> None:
        with self.lock:
            assert record.id not in self.items
            self.items[record.id] = to_item(record)
            self.stream.append((None, self.items[record.id]))
            creator = record.host
            assert creator is not None
            for player in [creator] + [p.player for p in record.seats if p.player and p.invited]:
                self.members.setdefault(player, set()).add(record.id)

    def create_rematch(
        self,
        record: GameRecord,
        finished: GameRecord,
        expected: int,
        *,
        token_issued: int | None = None,
    ) -> None:
        if self.before_save is not None:
            self.before_save(finished, expected)
        with self.lock:
            current = self._record(finished.id)
            if current is None or current.version != expected or current.rematch is not None:
                raise VersionConflict(current)
            self.stream.append((self.items[finished.id], to_item(finished)))
            self.items[finished.id] = self.stream[-1][1]
        self.create(record, token_issued=token_issued)

    def save(
        self,
        record: GameRecord,
        expected: int,
        *,
        join: str | None = None,
        unjoin: str | None = None,
        token_issued: int | None = None,
        invited: bool = False,
    ) -> None:
        if self.before_save is not None:
            self.before_save(record, expected)
        with self.lock:
            current = self._record(record.id)
            if current is None or current.version != expected:
                raise VersionConflict(current)
            if record.writer is not None and current.writer != record.writer:
                raise VersionConflict(current)  # pre-moves were stored since it was loaded
            member = record.id in self.members.get(join or "", set())
            if join is not None and member and not invited:
                raise AlreadyMember()
            record.writer = secrets.token_hex(6)
            item = {**to_item(record), "writer": record.writer}
            self.stream.append((self.items[record.id], item))
            self.items[record.id] = item
            self.saves += 1
            if join is not None:
                self.members.setdefault(join, set()).add(record.id)
            if unjoin is not None:
                self.members.get(unjoin, set()).discard(record.id)

    def force(self, record: GameRecord) -> None:
        """Write ``record`` unconditionally (a rival change, in a test)."""
        with self.lock:
            self.stream.append((self.items.get(record.id), to_item(record)))
            self.items[record.id] = self.stream[-1][1]

    def lose_races(self, times: int | None = None) -> list[int]:
        """Before each of the next ``times`` saves (None: every one) a rival change lands first
        (a rewrite one version up that changes nothing else); returns the rivals' versions."""
        rivals: list[int] = []

        def rival(record: GameRecord, _expected: int) -> None:
            if times is not None and len(rivals) >= times:
                return
            current = self.load(record.id)
            assert current is not None
            current.version += 1
            self.force(current)
            rivals.append(current.version)

        self.before_save = rival
        return rivals

    def delete(self, game_id: str) -> None:
        with self.lock:
            del self.items[game_id]

    # ------------------------------------------------------------------ hand archives

    def archive_moves(self, game_id: str, hand_number: int, moves: list[dict[str, Any]]) -> None:
        with self.lock:
            self.archives.setdefault(game_id, {})[hand_number] = [dict(m) for m in moves]

    def archived_moves(self, game_id: str) -> list[dict[str, Any]]:
        with self.lock:
            hands = self.archives.get(game_id, {})
            return [dict(m) for number in sorted(hands) for m in hands[number]]

    def file_finished(self, game_id: str, players: list[str], finished_at: int) -> None:
        """Nothing to move: this store lists every membership, filed or not."""

    def delete_satellites(
        self, game_id: str, players: list[str], finished_at: int | None = None
    ) -> int:
        with self.lock:
            gone = len(self.archives.pop(game_id, {}))
            for player in players:
                if game_id in self.members.get(player, set()):
                    self.members[player].discard(game_id)
                    gone += 1
            return gone

    def games_on_turn(self, player: str) -> list[str]:
        with self.lock:
            items = list(self.items.values())
        return [
            i["pk"].removeprefix("GAME#")
            for i in items
            if i.get("turn_player") == player and i["status"] == "playing"
        ]

    # ------------------------------------------------------------------ deadlines

    def load_many(self, game_ids: list[str]) -> list[GameRecord]:
        return [r for r in (self.load(g) for g in game_ids) if r is not None]

    def due_keys(self, now: int, limit: int) -> list[tuple[str, str]]:
        with self.lock:
            due = sorted(
                (i["due"], i["pk"]) for i in self.items.values() if i.get("due", now + 1) <= now
            )
        return [(pk, "GAME") for _, pk in due[:limit]]

    def mark_reminded(self, record: GameRecord, at: int) -> bool:
        with self.lock:
            item = self.items.get(record.id)
            if item is None or item["version"] != record.version or item["status"] != "playing":
                return False
            new = {**item, "reminded": record.version, "reminded_at": at, "due": record.deadline}
            self.stream.append((item, new))
            self.items[record.id] = new
            return True

    def set_premoves(self, record: GameRecord) -> None:
        with self.lock:
            current = self._record(record.id)
            if (
                current is None
                or current.version != record.version
                or current.writer != record.writer
                or current.status != "playing"
            ):
                raise VersionConflict(current)
            record.writer = secrets.token_hex(6)
            item = {**self.items[record.id], "writer": record.writer}
            item.pop("pm", None)
            if record.premoves:
                item["pm"] = premoves_json(record.premoves)
            self.stream.append((self.items[record.id], item))
            self.items[record.id] = item

    def mark_nudged(self, record: GameRecord, seat: int, at: int) -> GameRecord | None:
        with self.lock:
            item = self.items.get(record.id)
            if item is None:
                return None
            if (
                item["version"] != record.version
                or item["status"] != "playing"
                or item.get("nudged") == record.version
            ):
                return from_item(item)
            new = {**item, "nudged": record.version, "nudged_at": at, "nudger": seat}
            self.stream.append((item, new))
            self.items[record.id] = new
            return None

    # ------------------------------------------------------------------ listings

    def open_games(self, limit: int, cursor: str | None) -> tuple[list[GameRecord], str | None]:
        """The open_games index (all its partitions): public waiting games, newest first."""
        after = decode_cursor(cursor, MINE_CURSOR) if cursor else None
        with self.lock:
            listed = [
                i for i in self.items.values() if str(i.get("open_list", "")).startswith("OPEN#")
            ]
        rows = sorted(((i["updated_at"], i["pk"].removeprefix("GAME#")), i) for i in listed)[::-1]
        if after is not None:
            rows = [(k, i) for k, i in rows if k < (after["u"], after["i"])]
        page = rows[:limit]
        following = None
        if len(rows) > limit:
            (updated, game_id), _ = page[-1]
            following = encode_cursor({"u": updated, "i": game_id})
        return [from_item(i) for _, i in page], following

    def player_games(
        self,
        player: str,
        *,
        status: str | None,
        turn_mine: bool,
        limit: int,
        cursor: str | None,
        updated_after: str | None = None,
    ) -> tuple[list[GameRecord], str | None]:
        with self.lock:
            records = [self._record(g) for g in self.members.get(player, set())]
        found = [r for r in records if r is not None]
        return player_page(found, player, status, turn_mine, limit, cursor, updated_after)


class MemoryOpponents:
    """An in-memory ``OpponentStore``: rows by (player, opponent), games counted by player."""

    def __init__(self) -> None:
        self.rows: dict[tuple[str, str], dict[str, Any]] = {}
        self.counted: set[tuple[str, str]] = set()
        self.lock = threading.Lock()

    def record_match(self, game_id: str, people: list[tuple[str, str]], finished_at: int) -> int:
        written = 0
        with self.lock:
            for player, _ in people:
                if (game_id, player) in self.counted:
                    continue
                self.counted.add((game_id, player))
                written += 1
                for opponent, name in people:
                    if opponent == player:
                        continue
                    row = self.rows.get((player, opponent))
                    matches = row["matches"] + 1 if row else 1
                    if row and row["at"] > finished_at:
                        self.rows[(player, opponent)] = {**row, "matches": matches}
                    else:
                        self.rows[(player, opponent)] = {
                            "name": name,
                            "matches": matches,
                            "at": finished_at,
                        }
        return written

    def page(
        self, player: str, limit: int, cursor: str | None
    ) -> tuple[list[dict[str, Any]], str | None]:
        with self.lock:
            rows = sorted(
                ((r["at"], o, r) for (p, o), r in self.rows.items() if p == player), reverse=True
            )
        start = int(cursor) if cursor else 0
        page = rows[start : start + limit]
        following = str(start + limit) if len(rows) > start + limit else None
        return [
            {"player": o, "name": r["name"], "matches": r["matches"], "last_played": iso(r["at"])}
            for _, o, r in page
        ], following


class MemoryInbox:
    """An in-memory ``InboxStore``: notes by (player, id), read markers by player."""

    def __init__(self) -> None:
        self.notes: dict[tuple[str, str], Note] = {}
        self.read: dict[str, str] = {}
        self.lock = threading.Lock()

    def add(self, note: Note) -> bool:
        with self.lock:
            if (note.player, note.id) in self.notes:
                return False
            self.notes[note.player, note.id] = note
            return True

    def get(self, player: str, note_id: str) -> Note | None:
        return self.notes.get((player, note_id))

    def page(self, player: str, limit: int, cursor: str | None) -> tuple[list[Note], str | None]:
        ids = sorted((i for p, i in self.notes if p == player), reverse=True)
        if cursor:
            ids = [i for i in ids if i < cursor]
        page = ids[:limit]
        following = page[-1] if len(ids) > limit else None
        return [self.notes[player, i] for i in page], following

    def read_until(self, player: str) -> str | None:
        return self.read.get(player)

    def unread(self, player: str, read_until: str | None) -> int:
        return sum(1 for p, i in self.notes if p == player and (not read_until or i > read_until))

    def mark_read(self, player: str, until: str) -> None:
        with self.lock:
            if until > self.read.get(player, ""):
                self.read[player] = until

    def mark_pushed(self, note: Note) -> None:
        with self.lock:
            self.notes[note.player, note.id] = note._replace(pushed=True)


class MemoryAccounts:
    """An in-memory ``AccountStore`` over a ``MemoryGameStore``'s memberships (the player's
    games) and a ``MemoryDevices``: profiles by player, and ``erase`` of what the player owns."""

    def __init__(self, games: MemoryGameStore, devices: MemoryDevices | None = None) -> None:
        self.games = games
        self.devices = devices
        self.profiles: dict[str, Profile] = {}
        self.mutes: dict[str, tuple[str, ...]] = {}
        self.locales: dict[str, str] = {}
        self.auto_forced: set[str] = set()
        self.quiet: dict[str, str] = {}
        self.lock = threading.Lock()

    def notice_settings(self, player: str) -> NoticeSettings:
        return NoticeSettings(
            self.mutes.get(player, ()),
            self.locales.get(player),
            player in self.auto_forced,
            self.quiet.get(player),
        )

    def set_quiet_hours(self, player: str, quiet: str | None, at: int) -> None:
        if quiet is None:
            self.quiet.pop(player, None)
        else:
            self.quiet[player] = quiet

    def set_auto_forced(self, player: str, on: bool, at: int) -> None:
        if on:
            self.auto_forced.add(player)
        else:
            self.auto_forced.discard(player)

    def set_muted(self, player: str, types: tuple[str, ...], at: int) -> None:
        self.mutes[player] = types

    def set_locale(self, player: str, locale: str | None, at: int) -> None:
        if locale is None:
            self.locales.pop(player, None)
        else:
            self.locales[player] = locale

    def profile(self, player: str) -> Profile | None:
        return self.profiles.get(player)

    def set_name(self, player: str, name: str, at: int, issued_at: int | None) -> None:
        with self.lock:
            current = self.profiles.get(player)
            if current is not None and (current.refuses(issued_at) or current.banned_at):
                raise ProfileDeleted()
            self.profiles[player] = Profile(player, name)

    def ban(self, player: str, at: int, reason: str) -> None:
        with self.lock:
            current = self.profiles.get(player) or Profile(player)
            self.profiles[player] = current._replace(banned_at=at)

    def unban(self, player: str) -> bool:
        with self.lock:
            current = self.profiles.get(player)
            if current is None or current.banned_at is None:
                return False
            self.profiles[player] = current._replace(banned_at=None)
            return True

    def rename(self, player: str, name: str, at: int) -> None:
        with self.lock:
            current = self.profiles.get(player) or Profile(player)
            if current.deleted_at is not None:
                raise ProfileDeleted()
            self.profiles[player] = current._replace(name=name)

    def mark_deleted(self, player: str, at: int) -> None:
        with self.lock:
            current = self.profiles.get(player)
            if current is not None and current.banned_at is not None:
                raise ProfileDeleted()
            self.profiles[player] = Profile(player, None, at)

    def game_ids(self, player: str) -> list[str]:
        with self.games.lock:
            return sorted(self.games.members.get(player, set()))

    def erase(self, player: str) -> int:
        with self.games.lock:
            gone = len(self.games.members.pop(player, set()))
        if self.devices is not None:
            gone += len(self.devices.devices.pop(player, {}))
        return gone


class MemoryDevices:
    """An in-memory ``DeviceStore``."""

    def __init__(self) -> None:
        self.devices: dict[str, dict[str, Device]] = {}

    def put(self, device: Device) -> None:
        self.devices.setdefault(device.player, {})[device.device_id] = device

    def get(self, player: str, device_id: str) -> Device | None:
        return self.devices.get(player, {}).get(device_id)

    def delete(self, player: str, device_id: str) -> None:
        self.devices.get(player, {}).pop(device_id, None)

    def of_player(self, player: str) -> list[Device]:
        found = list(self.devices.get(player, {}).values())
        return sorted(found, key=lambda d: d.updated_at, reverse=True)

    def owner(self, platform: str, token: str) -> Owner | None:
        for devices in self.devices.values():
            for d in devices.values():
                if (d.platform, d.token) == (platform, token):
                    return Owner(d.player, d.device_id, d.endpoint)
        return None

    def claim(self, device: Device, previous: Owner | None, replaced: Device | None) -> None:
        if previous is not None and previous[:2] != (device.player, device.device_id):
            self.delete(previous.player, previous.device_id)
        self.put(device)

    def release(self, device: Device) -> bool:
        self.delete(device.player, device.device_id)
        return True


class MemoryRatings:
    """An in-memory ``RatingStore``: ratings with versions, stats, tally markers and the
    histogram, under one lock, as store/ratings.py keeps them (the leaderboard is the
    established ratings sorted, the histogram their buckets)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.ratings: dict[tuple[str, str], tuple[Any, int, str | None, int]] = {}
        self.stats: dict[str, dict[str, Any]] = {}
        self.tallies: set[str] = set()
        self.deleted: dict[str, int] = {}
        self.chosen: dict[str, str] = {}  # names set with PATCH /me (profiles)

    def get(self, player: str, pool: str) -> Any:
        from domino.store.ratings import Rating

        found = self.ratings.get((player, pool))
        return found[0] if found else Rating(player, pool)

    def read(self, player: str, pool: str) -> tuple[Any, int | None, str | None]:
        found = self.ratings.get((player, pool))
        return (found[0], found[1], found[2]) if found else (None, None, None)

    def put(self, rating: Any, at: int) -> None:
        with self.lock:
            _old, version, name, _at = self.ratings.get(
                (rating.player, rating.pool), (None, 0, None, at)
            )
            self.ratings[(rating.player, rating.pool)] = (rating, version + 1, name, at)

    def tallied(self, game_id: str) -> bool:
        return game_id in self.tallies

    def gone(self, players: Any, since: int) -> set[str]:
        return {p for p in players if self.deleted.get(p, -1) >= since}

    def standing(self, players: Any, since: int) -> tuple[set[str], dict[str, str]]:
        gone = self.gone(players, since)
        return gone, {p: self.chosen[p] for p in players if p in self.chosen and p not in gone}

    def rename(self, player: str, name: str) -> int:
        with self.lock:
            self.chosen[player] = name
            mine = [key for key in self.ratings if key[0] == player]
            for key in mine:
                rating, version, _name, at = self.ratings[key]
                self.ratings[key] = (rating, version + 1, name, at)
            return len(mine)

    def tally(
        self, game_id: str, pool: str, at: int, ratings: Any, stats: Any, alive_since: int
    ) -> bool:
        from domino.store.ratings import PlayerGone, TallyConflict

        with self.lock:
            if game_id in self.tallies:
                return False
            people = {c.after.player for c in ratings} | {c.player for c in stats}
            if self.gone(people, alive_since):
                raise PlayerGone()
            for change in ratings:
                stored = self.ratings.get((change.after.player, pool))
                if (stored[1] if stored else None) != change.version:
                    raise TallyConflict()
            self.tallies.add(game_id)
            for change in ratings:
                version = (change.version or 0) + 1
                self.ratings[(change.after.player, pool)] = (change.after, version, change.name, at)
            for change in stats:
                row = self.stats.setdefault(
                    change.player, {"matches": 0, "wins": 0, "forfeits": 0, "since": at}
                )
                row["matches"] += 1
                row["wins"] += int(change.won)
                row["forfeits"] += int(change.forfeited)
                row["name"] = change.name or row.get("name")
            return True

    def player_items(self, player: str) -> Any:
        from domino.store.ratings import PlayerItems, Stats

        mine = [
            (r, at, name) for (p, _pool), (r, _v, name, at) in self.ratings.items() if p == player
        ]
        row = self.stats.get(player)
        stats = Stats(row["matches"], row["wins"], row["forfeits"]) if row else Stats()
        times = [at for _r, at, _n in mine] + ([row["since"]] if row else [])
        name = (row or {}).get("name") or next((n for _r, _a, n in mine if n), None)
        known = bool(mine or row) and player not in self.deleted
        return PlayerItems(
            name,
            self.deleted.get(player),
            min(times, default=None),
            [r for r, _a, _n in mine],
            stats,
            known,
        )

    def _board(self, pool: str) -> list[Any]:
        rows = [
            (r, name)
            for (p, q), (r, _v, name, _at) in self.ratings.items()
            if q == pool and not r.provisional
        ]
        return sorted(rows, key=lambda row: (-row[0].shown, row[0].player))

    def top(self, pool: str, limit: int, after: Any) -> tuple[list[Any], Any]:
        from domino.store.ratings import Ranked

        board = self._board(pool)
        start = 0
        if after is not None:
            start = next(
                (i + 1 for i, (r, _n) in enumerate(board) if r.player == after["player"]), 0
            )
        page = board[start : start + limit]
        rows = [Ranked(r.player, name, r.shown, r.games) for r, name in page]
        more = start + limit < len(board)
        return rows, ({"player": rows[-1].player, "rating": rows[-1].rating} if more else None)

    def count_rated(self, pool: str, low: int, high: int | None, cap: int) -> int:
        found = [
            r for r, _n in self._board(pool) if r.shown >= low and (high is None or r.shown <= high)
        ]
        return min(len(found), cap)

    def histogram(self, pool: str) -> dict[int, int]:
        from domino.store.ratings import bucket_of

        counts: dict[int, int] = {}
        for r, _n in self._board(pool):
            counts[bucket_of(r.shown)] = counts.get(bucket_of(r.shown), 0) + 1
        return counts

    def forget(self, player: str) -> int:
        with self.lock:
            mine = [key for key in self.ratings if key[0] == player]
            for key in mine:
                del self.ratings[key]
            return len(mine)
