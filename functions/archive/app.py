"""DynamoDB stream: finished hands into their own items; a deleted game's leftovers away.

A write that ends a hand marks the item with ``archive`` (the hand number); the event source's
filter delivers those records, the write that finishes a game (its players' memberships are
filed among their finished games, which "my games" pages through, and each pair of its people
met once more: ``GET /me/opponents``) and the removal of game
items, nothing else. The item keeps the
marked hand as its previous one until the next hand ends, so the copy is in place long before
the item lets the hand go, and the play that ended it stayed one write. When a game item is
deleted (its TTL expired), its archived hands and its players' membership items are deleted.
A match that has just finished gets its analysis queued (functions/analysis).
Failed records are reported one by one and retried.
"""

from aws_lambda_powertools.utilities.data_classes.dynamo_db_stream_event import DynamoDBRecord
from domino.api.entry import count, stream_consumer
from domino.api.wiring import analyses, service


def on_change(record: DynamoDBRecord) -> None:
    change = record.raw_event.get("dynamodb") or {}
    if record.raw_event.get("eventName") == "REMOVE":
        if service().archive.forget_game(change.get("Keys") or {}, change.get("OldImage")):
            count("games_expired")
        return
    image = change.get("NewImage") or {}
    if service().archive.archive_hand(image):
        count("hands_archived")
    if service().archive.file_finished(image):
        count("games_filed")
    if analyses().on_change(change.get("OldImage"), image):
        count("analyses_queued")
    if service().archive.list_in_play(change.get("OldImage"), image):
        count("games_in_play_listed")
    if service().archive.record_opponents(change.get("OldImage"), image):
        count("opponents_recorded")


handler = stream_consumer(on_change)
