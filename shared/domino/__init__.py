"""Serverless dominoes: the rules engine, the API layer, the store and the local runtime.

This package is the Lambda layer (``shared/`` in the repo). Sub-packages:
``engine`` (pure rules), ``api`` (HTTP models, resolver factory, error mapping, identity),
``store`` (the only DynamoDB user), ``local`` (the local runtime behind ``make run``).
"""
