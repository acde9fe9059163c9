"""The only code that talks to DynamoDB: versioned game items, memberships, listings."""
