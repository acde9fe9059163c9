"""``domino-admin``: the operator's tool (AWS credentials, never the HTTP API)."""
