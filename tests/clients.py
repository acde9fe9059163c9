"""The Python client openapi-python-client generates from docs/openapi.yaml, as a mobile or
terminal team would generate theirs: the e2e tests play through it and nothing else, and
tests/test_openapi.py asserts that the generator warned of nothing (a warning means a route, a
model or a field left out of the client)."""

from __future__ import annotations

import importlib
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

REPO = Path(__file__).resolve().parents[1]
SPEC = REPO / "docs" / "openapi.yaml"
PACKAGE = "domino_client"


@dataclass(frozen=True)
class GeneratedClient:
    package: ModuleType  # domino_client: Client, AuthenticatedClient, api.*, models.*
    output: str  # everything the generator printed


def generate_python_client(dest: Path) -> GeneratedClient:
    """Generate the client into ``dest/domino_client`` and import it from there."""
    config = dest / "openapi-python-client.yaml"
    # No post hooks: by default the generator runs ruff over its output, which needs ruff on
    # PATH and changes nothing the tests use.
    config.write_text("post_hooks: []\n", encoding="utf-8")
    command = [sys.executable, "-m", "openapi_python_client", "generate", "--path", str(SPEC),
               "--output-path", str(dest / PACKAGE), "--meta", "none", "--config", str(config),
               "--fail-on-warning"]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=180, check=False)
    output = done.stdout + done.stderr
    assert done.returncode == 0, f"openapi-python-client failed:\n{output}"
    sys.path.insert(0, str(dest))
    importlib.invalidate_caches()
    return GeneratedClient(importlib.import_module(PACKAGE), output)
