"""The local runtime: DynamoDB Local, the template's routes over HTTP, dev tokens.

Dev-only by construction: nothing in the deployed stack imports this package.
"""
