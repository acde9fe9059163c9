"""Notifications: what the table's stream turns into inbox items (and, through the channels,
pushes and socket messages), and the player's reads of their inbox.

Exactly once per (player, game, version, type), with no state but the table's: the inbox item's
key is the dedupe (``InboxStore.add`` writes it once), and it is also the outbox. A note that
will be pushed (the player has a device) is read first, pushed, written already marked
``pushed``, then sent to the sockets: one read and one write, where writing, sending and
marking took two writes; a socket's message always finds the note in the inbox. A
change delivered again (the stream retries a batch, or the function died after sending) finds
the item marked: nothing happens; finds none: it is sent and written now. A note nobody pushes is
written, then sent to the sockets, unmarked (their repeat is the same message).
docs/decisions.md says how the window in which a push can repeat is bounded.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, wait
from functools import partial
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
#: the players one change is sent to at once (a table seats at most 10)
_PLAYERS = ThreadPoolExecutor(10, thread_name_prefix="notify")


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
        untold: list[str] = []
        if self.live is not None and old is not None and new.version > old.version:
            told = {notice.player for notice in found}
            untold = [player for player in seated(new) if player not in told]
        written = self._tell(found, untold, new.id, new.version)
        if self.live is not None:
            self.live.watched()
        return written

    def _tell(
        self, found: list[Notice], untold: Sequence[str] = (), game: str = "", version: int = 0
    ) -> int:
        """Write and send each notice once, and tell the ``untold`` players' sockets that
        ``game`` changed to ``version``; how many notices were new. Each player's part runs
        beside the others' (their items and sockets are their own, and a Lambda is billed
        for the time it waits on them), a player's notices in their order."""
        if self.reach is not None:
            self.reach.reset()
        by_player: dict[str, list[Notice]] = {}
        for notice in found:
            by_player.setdefault(notice.player, []).append(notice)
        jobs: list[Callable[[], int]] = [
            partial(self._tell_one, mine) for mine in by_player.values()
        ]
        if self.live is not None:
            jobs += [partial(self._changed, self.live, player, game, version) for player in untold]
        if len(jobs) <= 1:
            return sum(job() for job in jobs)
        futures = [_PLAYERS.submit(job) for job in jobs]
        wait(futures)
        for future in futures:  # every player was tried; the first failure fails the batch
            if (error := future.exception()) is not None:
                raise error
        return sum(future.result() for future in futures)

    @staticmethod
    def _changed(live: LiveChanges, player: str, game: str, version: int) -> int:
        live.changed(player, game, version)
        return 0

    def _tell_one(self, found: list[Notice]) -> int:
        """One player's notices, written and sent in order; how many were new."""
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
            if any(c.marks_sent and c.reaches(note) for c in self.channels):
                written += self._push_first(note)
                continue
            if self.inbox.add(note):
                written += 1
            elif not self.channels or self._sent(note):
                continue  # delivered before: this is a redelivery
            self.deliver(note)
        return written

    def _push_first(self, note: Note) -> int:
        """A note a channel will push: read, push, write it marked (1 read and 1 write
        instead of 2 writes), then the sockets: a client told on a socket finds the note in
        its inbox. Found marked: delivered before; found unmarked (written by a runtime before
        this order, or before the player's first device): sent, then marked. 1 when it was
        new."""
        stored = self.inbox.get(note.player, note.id)
        if stored is not None:
            if not stored.pushed:
                self.deliver(note)
            return 0
        for channel in self.channels:
            if channel.marks_sent:
                channel.send(note)
        # sent already: failing here would send it again on the stream's retry, so the write
        # gets the mark's few more tries (a concurrent delivery's write makes this one False,
        # and that delivery tells the sockets)
        if not self._retried(lambda: self.inbox.add(note._replace(pushed=True))):
            return 0
        for channel in self.channels:
            if not channel.marks_sent:
                channel.send(note)
        return 1

    @staticmethod
    def _retried(write: Callable[[], Any]) -> Any:
        for attempt in range(MARK_ATTEMPTS):
            try:
                return write()
            except Unavailable:
                if attempt == MARK_ATTEMPTS - 1:
                    raise
                time.sleep(MARK_PAUSE_SECONDS * 2**attempt)
        return None

    def _sent(self, note: Note) -> bool:
        stored = self.inbox.get(note.player, note.id)
        return stored is None or stored.pushed  # gone (expired): nothing to send either

    def deliver(self, note: Note) -> None:
        """Send ``note`` on every channel, then mark it sent (the outbox) if a channel that
        marks (pushes) sent it. A note only sockets were sent, or that no channel had anywhere
        to send, stays unmarked: that saves a write per notification, and a redelivery asks
        the channels again (sockets get the same message, which the client has seen; a device
        registered since gets the push)."""
        sent = [channel.send(note) and channel.marks_sent for channel in self.channels]
        if any(sent):
            # sent already: failing here would send it again on the stream's retry, so the
            # (idempotent) mark gets a few more tries than the SDK's, whose retry quota runs
            # dry while DynamoDB keeps failing
            self._retried(lambda: self.inbox.mark_pushed(note))


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
        # the mark first: a GetItem, which the caller's ban read rides with (api/request.py)
        until = self.inbox.read_until(caller.player)
        notes, following = self.inbox.page(caller.player, limit, cursor)
        # an empty page needs no language: a poll of an empty inbox reads less
        language = self.language(caller) if notes else ""
        items = [note_view(n, until is not None and n.id <= until, language) for n in notes]
        unread = unread_on_page(notes, cursor, following, until)
        if unread is None:
            unread = self.inbox.unread(caller.player, until)
        return Page(items, following), unread

    def mark_read(self, caller: Caller, until: str) -> None:
        """``until`` and every older notification are read."""
        if not NOTE_ID.fullmatch(until) or self.inbox.get(caller.player, until) is None:
            raise InvalidInput("until is not one of your notifications.")
        self.inbox.mark_read(caller.player, until)


def unread_on_page(
    notes: list[Note], cursor: str | None, following: str | None, until: str | None
) -> int | None:
    """The unread count read off a first page when it holds every unread notification (None
    when it may not): the page runs newest first, so once it ends the inbox or reaches a read
    one, none newer is left out. A phone's poll then costs one query fewer."""
    if cursor is not None:
        return None
    if following is not None and (until is None or not notes or notes[-1].id > until):
        return None
    return sum(1 for n in notes if until is None or n.id > until)


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
