"""What the handlers see locally: the template's variables, dev mode on, fake credentials."""

from __future__ import annotations

from local.template import Template


def local_environment(template: Template, endpoint: str) -> dict[str, str]:
    """The template's Globals and function variables (tables resolved to their local names),
    with dev mode on, DynamoDB at ``endpoint``, fake credentials and Powertools' tracing and
    metrics off."""
    return template.environment(
        {
            "DEV_MODE": "true",
            "AWS_ENDPOINT_URL_DYNAMODB": endpoint,
            "AWS_DEFAULT_REGION": "us-east-1",
            "AWS_REGION": "us-east-1",
            "AWS_ACCESS_KEY_ID": "local",
            "AWS_SECRET_ACCESS_KEY": "local",
            "POWERTOOLS_TRACE_DISABLED": "true",
            "POWERTOOLS_METRICS_DISABLED": "true",
            "POWERTOOLS_DEV": "false",
        }
    )
