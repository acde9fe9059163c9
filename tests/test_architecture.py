"""The layers (docs/architecture.md): imports run one way, functions → api → service →
(engine, store), and each layer uses only the libraries its job needs."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "shared" / "domino"
MAX_MODULE_LINES = 800

#: layer -> the product's packages it may import (itself included)
MAY_IMPORT: dict[str, set[str]] = {
    "domino": set(),  # domino/limits.py: the bounds every layer reads
    "engine": {"domino.engine"},
    "store": {"domino.store", "domino.engine.errors", "domino.limits"},
    "service": {"domino.service", "domino.engine", "domino.store", "domino.limits"},
    "notify": {"domino.notify", "domino.store.errors"},
    "idp": {"domino.idp", "domino.store.errors"},
    "api": {
        "domino.api",
        "domino.service",
        "domino.engine",
        "domino.store",
        "domino.notify",
        "domino.idp",
        "domino.limits",
    },
    "functions": {"domino.api"},
}
#: libraries outside the standard library each layer may use
LIBRARIES: dict[str, set[str]] = {
    "domino": set(),
    "engine": set(),
    "store": {"boto3", "botocore"},
    "notify": {"boto3", "botocore"},
    "idp": {"boto3", "botocore"},
    "service": set(),
    "api": {"aws_lambda_powertools", "pydantic_core", "jwt"},
    "functions": {"aws_lambda_powertools"},
}


def layer_of(path: Path) -> str:
    if path.is_relative_to(REPO / "functions"):
        return "functions"
    parts = path.relative_to(PACKAGE).parts
    return parts[0] if len(parts) > 1 else "domino"


def modules() -> list[Path]:
    found = sorted(PACKAGE.rglob("*.py"))
    return found + sorted((REPO / "functions").glob("*/app.py"))


def imported(path: Path, source: str | None = None) -> set[str]:
    """Every module ``path`` imports, relative imports made absolute."""
    tree = ast.parse(path.read_text() if source is None else source, str(path))
    package = ""
    if path.is_relative_to(PACKAGE):
        package = ".".join(path.relative_to(REPO / "shared").with_suffix("").parts[:-1])
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                names.add(f"{base}.{node.module}" if node.module else base)
            else:
                names.add(node.module or "")
    return names


def allowed(name: str, prefixes: set[str]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def crossings(path: Path, source: str | None = None) -> list[str]:
    """The imports of ``path`` its layer may not make."""
    layer = layer_of(path)
    found = []
    for name in sorted(imported(path, source)):
        top = name.split(".")[0]
        if top == "domino":
            if not allowed(name, MAY_IMPORT[layer]):
                found.append(f"{layer} imports {name}")
        elif top not in (*sys.stdlib_module_names, "__future__", *LIBRARIES[layer]):
            found.append(f"{layer} uses {top}")
    return found


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(REPO)))
def test_imports_run_one_way(path: Path) -> None:
    assert crossings(path) == []


@pytest.mark.parametrize(
    ("where", "source", "crossing"),
    [
        ("engine/match.py", "from domino.service.values import Caller", "engine imports"),
        ("engine/match.py", "from ..api import errors", "engine imports domino.api"),
        ("engine/match.py", "import boto3", "engine uses boto3"),
        ("service/writes.py", "from domino.api.errors import etag", "service imports"),
        ("service/writes.py", "from botocore.exceptions import ClientError", "service uses"),
        ("store/dynamo.py", "from domino.service.values import Caller", "store imports"),
        ("idp/cognito.py", "from domino.service.values import Caller", "idp imports"),
        ("service/accounts.py", "from domino.idp.cognito import CognitoUsers", "service imports"),
        ("api/http.py", "import local.server", "api uses local"),
    ],
)
def test_a_crossing_is_caught(where: str, source: str, crossing: str) -> None:
    found = crossings(PACKAGE / where, source)
    assert found and found[0].startswith(crossing), found


def test_a_function_imports_only_the_edge() -> None:
    found = crossings(REPO / "functions" / "play" / "app.py", "from domino.service import x")
    assert found == ["functions imports domino.service"]


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(REPO)))
def test_no_module_is_over_800_lines(path: Path) -> None:
    assert len(path.read_text().splitlines()) <= MAX_MODULE_LINES
