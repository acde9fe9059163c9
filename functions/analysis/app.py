"""SQS (the analysis queue): a finished match analysed once, apart from any request: the expert
from each decision's information set, a fixed budget of worlds (engine/analysis.py), the result
kept for ``GET /games/{id}/analysis``. A job delivered again finds it kept and does nothing."""

import json

from aws_lambda_powertools.utilities.data_classes.sqs_event import SQSRecord
from domino.api.entry import count, queue_consumer
from domino.api.wiring import analyses


def on_message(record: SQSRecord) -> None:
    game = json.loads(record.body).get("game")
    if isinstance(game, str) and analyses().run(game):
        count("matches_analysed")


handler = queue_consumer(on_message)
