"""The client stays a client: it reaches the game through the public API only, and the Lambda
layer never carries it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.test_architecture import imported

CLIENT = REPO / "cli" / "domino_cli"
#: what the client may use outside the standard library
CLIENT_LIBRARIES = {"domino_cli", "typer", "rich", "websockets"}


@pytest.mark.parametrize("path", sorted(CLIENT.rglob("*.py")), ids=lambda p: p.name)
def test_the_client_imports_no_server_code(path: Path) -> None:
    outside = {
        name
        for name in imported(path)
        if name.split(".")[0] not in (*sys.stdlib_module_names, "__future__", *CLIENT_LIBRARIES)
    }
    assert outside == set()


def test_the_layer_never_imports_the_client() -> None:
    layer = [*(REPO / "shared").rglob("*.py"), *(REPO / "functions").rglob("*.py")]
    assert layer
    assert not [p for p in layer if any(n.startswith("domino_cli") for n in imported(p))]
