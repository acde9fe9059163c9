"""Delivery channels beyond the inbox: SNS mobile push (``sns``). Like the store, the only
code that calls these AWS services; the use cases reach them through ``service.ports``."""
