"""The HTTP edge: pydantic models, the resolver factory, error mapping and identity."""
