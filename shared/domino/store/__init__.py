"""The only code that talks to DynamoDB (``dynamo``): versioned game items, memberships,
listings; the stored shapes (``records``), page cursors (``cursors``) and its errors."""
