"""The table stream's use cases: keep finished hands, file finished games among their players'
finished ones, count who met whom, and clean up after an expired game."""

from __future__ import annotations

from typing import Any

from domino.engine import decode
from domino.service.ports import GameStore, LiveGameStore, OpponentStore
from domino.store.records import Item, game_id_of, record_from_image


class HandArchive:
    def __init__(
        self,
        store: GameStore,
        opponents: OpponentStore | None = None,
        live_games: LiveGameStore | None = None,
    ) -> None:
        self.store = store
        self.opponents = opponents
        self.live_games = live_games  # the list of public games in play (None: not kept)

    def list_in_play(self, old_image: Item | None, image: Item) -> bool:
        """A public game just dealt joins the list of games in play; one just finished leaves
        it (keyed by when its match began, which both images' states hold). Idempotent."""
        new = record_from_image(image)
        if self.live_games is None or new is None or new.state is None:
            return False
        if new.config.get("private"):
            return False
        old = record_from_image(old_image) if old_image else None
        was = old.status if old is not None else None
        started_at = decode(new.state).start_at
        if new.status == "playing" and was in (None, "waiting"):
            self.live_games.add(new.id, started_at)
            return True
        if new.status == "finished" and was == "playing":
            self.live_games.remove(new.id, started_at)
            return True
        return False

    def archive_hand(self, image: Item) -> bool:
        """Copy the hand a write marked (``archive``) from the item's image to its own item.
        Idempotent: a redelivered record writes the same item again."""
        record = record_from_image(image)
        if record is None or record.archive_hand is None or record.state is None:
            return False
        match = decode(record.state)
        if not match.prev_log or match.hand_number - 1 != record.archive_hand:
            return False  # written by hand, or by an older version: nothing to copy
        self.store.archive_moves(record.id, record.archive_hand, match.previous_hand_moves)
        return True

    def forget_game(self, keys: Item, old_image: dict[str, Any] | None) -> bool:
        """A game item was deleted (its TTL expired). Its archived hands and its players'
        membership items go too, so that nothing outlives it and "my games" does not fill up
        with games that no longer exist."""
        game_id = game_id_of(keys)
        if game_id is None:
            return False
        record = record_from_image(old_image) if old_image else None
        # without the old image (another stream view type) only the archives can be found
        players = sorted({s.player for s in record.seats if s.player}) if record else []
        finished_at = record.updated_at if record and record.status == "finished" else None
        self.store.delete_satellites(game_id, players, finished_at)
        return True

    def file_finished(self, image: Item) -> bool:
        """A game finished: its players' memberships move among their finished games, where
        "my games" reads one page of them instead of every game a player ever played.
        Idempotent: a redelivered record files them again."""
        record = record_from_image(image)
        if record is None or record.status != "finished":
            return False
        players = sorted({s.player for s in record.seats if s.player})
        self.store.file_finished(record.id, players, record.updated_at)
        return True

    def record_opponents(self, old_image: Item | None, image: Item) -> bool:
        """A match finished: each of its people met each other one more time
        (``GET /me/opponents``). Counted once per game however often the stream delivers it
        (``OpponentStore.record_match`` keys the count by the game); a later write of the
        finished game (naming its rematch) counts nothing."""
        record = record_from_image(image)
        if self.opponents is None or record is None or record.status != "finished":
            return False
        if record.state is None:
            return False  # abandoned before the deal: nobody played anybody
        old = record_from_image(old_image) if old_image else None
        if old is not None and old.status == "finished":
            return False
        people: dict[str, str] = {}
        for seat in record.seats:
            if seat.player and not seat.invited:
                people.setdefault(seat.player, seat.name or seat.player)
        if len(people) < 2:
            return False
        return self.opponents.record_match(record.id, list(people.items()), record.updated_at) > 0
