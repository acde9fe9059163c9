"""The local runtime: DynamoDB Local, the template's routes over HTTP, dev tokens.

Dev tooling, run as ``python -m local`` from the repository root. It lives outside ``shared/``
(the Lambda layer), so nothing of it ships, and nothing in the deployed stack imports it.
"""
