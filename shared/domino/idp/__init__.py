"""The identity provider's AWS code: the stack's Cognito user pool (account deletion)."""
