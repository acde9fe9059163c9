"""``domino``: a terminal client of the dominoes HTTP API (docs/api.md), for people and for scripts.

It talks to the public API only (the same routes a phone uses) and is no part of the Lambda
layer: ``shared/`` never imports it and the template never ships it.
"""
