"""DynamoDB stream: every change of a game item tells the players it concerns (docs/api.md,
"Notifications"): an inbox item each, written once per (player, game, version, type); and sets
the turn's timer when the change gave the game a new reminder or deadline (the timer queue);
and when the change finished a match, counts its ratings and stats once (service/tally.py).

The event source's filter delivers game items' creations and modifications (a creation
notifies when quick match made the game, or when it reserves seats for invitees, and may have a
turn to time) and quick match tickets' modifications (an expiry). Records are handled in order,
one by one; a failed record
is reported (partial batch failure) and the stream retries from it, so a game's notifications
keep their version order.
"""

from aws_lambda_powertools.utilities.data_classes.dynamo_db_stream_event import DynamoDBRecord
from domino.api.entry import count, stream_consumer
from domino.api.wiring import match_tally, notifier, turn_timers


def on_change(record: DynamoDBRecord) -> None:
    change = record.raw_event.get("dynamodb") or {}
    old, new = change.get("OldImage"), change.get("NewImage")
    timers = turn_timers()
    if timers is not None and timers.on_change(old, new):
        count("turn_timers_set")
    count("notifications", notifier().on_change(old, new))
    if match_tally().on_change(old, new):
        count("matches_tallied")


handler = stream_consumer(on_change)
