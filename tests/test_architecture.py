"""The layers (docs/architecture.md): imports run one way, functions → api → service →
(engine, store), and each layer uses only the libraries its job needs."""

from __future__ import annotations

import ast
import functools
import sys
from collections.abc import Iterable
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
    # the store's errors, and its one boto3 session (store/clients.py)
    "notify": {"domino.notify", "domino.store.errors", "domino.store.clients"},
    "idp": {"domino.idp", "domino.store.errors", "domino.store.clients"},
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
    # openskill rates finished matches: service/tally.py alone (test_openskill_stays_off_...)
    "service": {"openskill"},
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
        ("api/wiring.py", "import local.server", "api uses local"),
    ],
)
def test_a_crossing_is_caught(where: str, source: str, crossing: str) -> None:
    found = crossings(PACKAGE / where, source)
    assert found and found[0].startswith(crossing), found


def test_a_function_imports_only_the_edge() -> None:
    found = crossings(REPO / "functions" / "play" / "app.py", "from domino.service import x")
    assert found == ["functions imports domino.service"]


#: beside the layer and the handlers, the folders whose files the line guard holds too
GUARDED_FOLDERS = {"local": "*.py", "cli": "*.py", "bench": "*.py", "web": "*.js"}


def guarded_files() -> list[Path]:
    found = list(modules())
    for folder, pattern in GUARDED_FOLDERS.items():
        found += sorted(
            path for path in (REPO / folder).rglob(pattern) if ".venv" not in path.parts
        )
    return found


def test_the_line_guard_covers_every_folder_it_names() -> None:
    for folder, pattern in GUARDED_FOLDERS.items():
        assert any(p.is_relative_to(REPO / folder) for p in guarded_files()), (folder, pattern)


@pytest.mark.parametrize("path", guarded_files(), ids=lambda p: str(p.relative_to(REPO)))
def test_no_module_is_over_800_lines(path: Path) -> None:
    assert len(path.read_text().splitlines()) <= MAX_MODULE_LINES


# ------------------------------------------------------------------ no import cycles in the layer


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _runtime_imports(
    tree: ast.AST, type_checking: bool = False
) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement that runs: at module level, in a class or function body (a lazy
    import inside a function runs too, so it counts), but not under ``if TYPE_CHECKING:`` (type
    checkers read those; the interpreter never runs them, so they make no cycle at import), unless
    ``type_checking``."""
    found: list[ast.Import | ast.ImportFrom] = []

    def visit(nodes: Iterable[ast.AST]) -> None:
        for node in nodes:
            if not type_checking and isinstance(node, ast.If) and _is_type_checking(node.test):
                visit(node.orelse)  # the ``else:`` of ``if TYPE_CHECKING:`` does run
                continue
            if isinstance(node, ast.Import | ast.ImportFrom):
                found.append(node)
            visit(ast.iter_child_nodes(node))

    visit([tree])
    return found


def import_graph(root: Path, type_checking: bool = False) -> dict[str, set[str]]:
    """The package at ``root`` as module -> the modules of the package it imports when it runs.

    ``from a import b`` is an edge to ``a.b`` when that is a module, else to ``a``; the package
    ``__init__`` a submodule's import runs first is not counted (every module of a package would
    then close a loop through its ``__init__``)."""
    base = root.parent
    paths = {
        ".".join(p.relative_to(base).with_suffix("").parts).removesuffix(".__init__"): p
        for p in sorted(root.rglob("*.py"))
    }
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        edges: set[str] = set()
        for node in _runtime_imports(ast.parse(path.read_text(), str(path)), type_checking):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                if node.level:
                    start = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                    module = f"{start}.{node.module}" if node.module else start
                else:
                    module = node.module or ""
                targets = [
                    f"{module}.{alias.name}" if f"{module}.{alias.name}" in paths else module
                    for alias in node.names
                ]
            edges.update(t for t in targets if t in paths and t != name)
        graph[name] = edges
    return graph


def import_cycles(root: Path, type_checking: bool = False) -> list[list[str]]:
    """The import cycles of the package at ``root``: each strongly connected set of modules
    (Tarjan), sorted, shown as the shortest loop from its first module back to it (the set may
    hold more modules than that loop)."""
    graph = import_graph(root, type_checking)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            connect(v)
    return [_one_cycle(graph, group) for group in sorted(groups)]


def _one_cycle(graph: dict[str, set[str]], group: list[str]) -> list[str]:
    """A shortest import loop from the first module of ``group`` back to it (breadth first)."""
    first = group[0]
    frontier = [[first]]
    while True:
        step = []
        for path in frontier:
            for w in sorted(graph[path[-1]]):
                if w == first:
                    return [*path, w]
                if w in group and w not in path:
                    step.append([*path, w])
        frontier = step


def test_no_import_cycles_inside_the_layer() -> None:
    """Imports inside the Lambda layer (shared/domino: engine, store, service, api, ...) form no
    loop, a lazy import inside a function included; an import under ``if TYPE_CHECKING:`` is
    not counted (it never runs)."""
    assert import_cycles(PACKAGE) == []


def test_the_engine_has_no_cycle_even_through_type_checking_imports() -> None:
    """Stricter inside the engine: its modules form no loop even counting the imports under
    ``if TYPE_CHECKING:`` (the layouts' names are ``layouts``'; views and the move log read a
    match through a Protocol of its public surface, so they never import ``match``)."""
    assert import_cycles(PACKAGE / "engine", type_checking=True) == []


def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "pkg"
    root.mkdir()
    (root / "__init__.py").write_text("")
    for name, source in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(source)
    return root


def test_a_planted_cycle_is_caught(tmp_path: Path) -> None:
    root = _package(tmp_path, {"a.py": "from .b import x\n", "b.py": "import pkg.a\nx = 1\n"})
    assert import_cycles(root) == [["pkg.a", "pkg.b", "pkg.a"]]


def test_a_longer_cycle_is_caught_through_from_package_import(tmp_path: Path) -> None:
    root = _package(
        tmp_path,
        {
            "a.py": "from . import b\n",
            "b.py": "from .sub import c\n",
            "sub/__init__.py": "",
            "sub/c.py": "from .. import a\n",
            "d.py": "from . import a\n",  # into the loop, not part of it
        },
    )
    assert import_cycles(root) == [["pkg.a", "pkg.b", "pkg.sub.c", "pkg.a"]]


def test_a_lazy_import_inside_a_function_counts(tmp_path: Path) -> None:
    root = _package(
        tmp_path,
        {"a.py": "from .b import f\n", "b.py": "def f():\n    from .a import g\n    return g\n"},
    )
    assert import_cycles(root) == [["pkg.a", "pkg.b", "pkg.a"]]


def test_an_import_under_type_checking_does_not_count(tmp_path: Path) -> None:
    root = _package(
        tmp_path,
        {
            "a.py": "from .b import x\n",
            "b.py": "from typing import TYPE_CHECKING\n"
            "if TYPE_CHECKING:\n    from .a import A\nelse:\n    pass\nx = 1\n",
            "c.py": "import typing\nif typing.TYPE_CHECKING:\n    from . import a\n",
        },
    )
    assert import_cycles(root) == []
    assert import_cycles(root, type_checking=True) == [["pkg.a", "pkg.b", "pkg.a"]]
    (root / "c.py").write_text(
        "import typing\nif typing.TYPE_CHECKING:\n    pass\nelse:\n    from . import a\n"
    )
    (root / "a.py").write_text("from . import c\n")
    assert import_cycles(root) == [["pkg.a", "pkg.c", "pkg.a"]]  # the else branch runs


# ------------------------------------------------------------------ Match's private state


MATCH_PY = PACKAGE / "engine" / "match.py"
#: the public part of the NamedTuple API (its methods start with an underscore)
NAMEDTUPLE_API = {"_replace", "_asdict", "_make", "_fields", "_field_defaults"}


@functools.cache
def match_privates(path: Path = MATCH_PY) -> frozenset[str]:
    """The underscore names of ``Match``: its private slots, attributes and methods."""
    tree = ast.parse(path.read_text(), str(path))
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Match")
    names: set[str] = set()
    for node in ast.walk(cls):
        if isinstance(node, ast.FunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            names.add(node.value)  # the __slots__ entries (docstrings never start with "_")
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in ("self", "m", "cls")
        ):
            names.add(node.attr)
    return frozenset(
        n for n in names if n.startswith("_") and not n.startswith("__") and n.isidentifier()
    )


def private_reaches(path: Path, source: str | None = None) -> list[str]:
    """Where the module at ``path`` reads or writes an underscore attribute it does not own:
    ``x._name`` on anything but ``self``/``cls`` (so ``match._x``, ``Match._blank``), a ``Match``
    private name on ``self`` in a class derived from ``Match`` (or defined there, overriding
    one), ``getattr``/``setattr``/``hasattr``/``delattr`` of a Match private name, and
    ``Match.__slots__`` (copying the slots copies the private ones)."""
    tree = ast.parse(path.read_text() if source is None else source, str(path))
    privates = match_privates()
    found: list[str] = []

    def where(node: ast.AST) -> str:
        return f"{path.name}:{getattr(node, 'lineno', 0)}"

    def visit(node: ast.AST, in_match_class: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inside = in_match_class
            if isinstance(child, ast.ClassDef):
                inside = any(ast.unparse(b).split(".")[-1] == "Match" for b in child.bases)
            if isinstance(child, ast.Attribute):
                name = child.attr
                owner = child.value.id if isinstance(child.value, ast.Name) else None
                private = name.startswith("_") and not name.startswith("__")
                if private and name not in NAMEDTUPLE_API and owner not in ("self", "cls"):
                    found.append(f"{where(child)} {ast.unparse(child)}")
                elif private and inside and name in privates:
                    found.append(f"{where(child)} {ast.unparse(child)} (a Match subclass)")
                elif name == "__slots__" and owner == "Match":
                    found.append(f"{where(child)} Match.__slots__")
            elif (
                inside
                and isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
                and child.name in privates
            ):
                found.append(f"{where(child)} def {child.name} (overrides a Match private)")
            elif (
                isinstance(child, ast.Call)
                and isinstance(child.func, ast.Name)
                and child.func.id in ("getattr", "setattr", "hasattr", "delattr")
                and len(child.args) > 1
                and isinstance(child.args[1], ast.Constant)
                and child.args[1].value in privates
            ):
                found.append(f"{where(child)} {child.func.id}(..., {child.args[1].value!r})")
            visit(child, inside)

    visit(tree, False)
    return found


def test_the_match_private_names_are_found() -> None:
    privates = match_privates()
    assert {"_ended", "_blank", "_place", "_plain", "_info", "_keep", "_end_hand"} <= privates
    assert not {"rules", "log", "__slots__", "apply"} & privates


@pytest.mark.parametrize(
    "path",
    [p for p in sorted(PACKAGE.rglob("*.py")) if p != MATCH_PY],
    ids=lambda p: str(p.relative_to(REPO)),
)
def test_nothing_but_match_py_touches_match_private_state(path: Path) -> None:
    assert private_reaches(path) == []


def match_private_uses(path: Path, source: str | None = None) -> list[str]:
    """Outside the layer (bench, local, cli, functions, tests): ``x._name`` with a Match
    private name on anything but ``self``/``cls`` (those trees use other libraries' privates,
    so only Match's names are checked there)."""
    tree = ast.parse(path.read_text() if source is None else source, str(path))
    privates = match_privates()
    return [
        f"{path.name}:{node.lineno} {ast.unparse(node)}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and node.attr in privates
        and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
    ]


@pytest.mark.parametrize(
    "path",
    [
        p
        for top in ("bench", "local", "cli", "functions", "tests")
        for p in sorted((REPO / top).rglob("*.py"))
    ],
    ids=lambda p: str(p.relative_to(REPO)),
)
def test_nothing_outside_the_layer_touches_match_private_state(path: Path) -> None:
    assert match_private_uses(path) == []


def test_a_private_use_outside_the_layer_is_caught(tmp_path: Path) -> None:
    planted = tmp_path / "bench.py"
    source = "def f(found, e):\n    return found[0]._simple, e._x, e.Match._blank(r)\n"
    assert match_private_uses(planted, source) == [
        "bench.py:2 found[0]._simple",
        "bench.py:2 e.Match._blank",
    ]


@pytest.mark.parametrize(
    ("source", "reach"),
    [
        ("def f(match):\n    return match._x\n", "match._x"),
        ("def f(match):\n    match._ended = None\n", "match._ended"),
        ("from .match import Match\nm = Match._blank(rules)\n", "Match._blank"),
        ("def f(g):\n    return g.match._plain\n", "g.match._plain"),
        ("class W(Match):\n    def f(self):\n        return self._keep\n", "self._keep"),
        ("class W(m.Match):\n    def _end_hand(self, *a):\n        pass\n", "def _end_hand"),
        ("def f(m):\n    return getattr(m, '_info')\n", "getattr(..., '_info')"),
        ("names = [a for a in Match.__slots__]\n", "Match.__slots__"),
    ],
)
def test_a_planted_private_access_is_caught(tmp_path: Path, source: str, reach: str) -> None:
    planted = tmp_path / "expert.py"
    planted.write_text(source)
    found = private_reaches(planted)
    assert len(found) == 1 and reach in found[0], found


def test_own_privates_and_the_namedtuple_api_are_not_reaches(tmp_path: Path) -> None:
    planted = tmp_path / "service.py"
    planted.write_text(
        "class Reader:\n    def get(self):\n        return self._place, self._ended\n"
        "def f(row):\n    return row._replace(a=1)\n"
    )
    assert private_reaches(planted) == []


# ------------------------------------------------------------------ openskill off the play path


def test_openskill_stays_off_the_play_path_and_cold_starts() -> None:
    """openskill (~40 ms to import) is imported by service/tally.py alone, and there only inside
    a function (it loads when a rated match is rated, not when the stream consumer starts)."""
    importers = [p for p in modules() if "openskill" in {n.split(".")[0] for n in imported(p)}]
    assert importers == [PACKAGE / "service" / "tally.py"]
    tree = ast.parse(importers[0].read_text())
    top_level = [
        node
        for node in tree.body
        if isinstance(node, ast.Import | ast.ImportFrom)
        and any(
            (alias.name if isinstance(node, ast.Import) else node.module or "").startswith(
                "openskill"
            )
            for alias in node.names
        )
    ]
    assert top_level == []


def test_no_request_handler_loads_openskill() -> None:
    """Loading any function's module (its cold start) leaves openskill unloaded."""
    import subprocess

    code = (
        "import sys, importlib.util, pathlib\n"
        "for path in sorted(pathlib.Path('functions').glob('*/app.py')):\n"
        "    spec = importlib.util.spec_from_file_location(path.parent.name, path)\n"
        "    module = importlib.util.module_from_spec(spec)\n"
        "    spec.loader.exec_module(module)\n"
        "print('openskill' in sys.modules)\n"
    )
    env = {"TABLE_NAME": "t", "IDEMPOTENCY_TABLE": "i", "AWS_DEFAULT_REGION": "us-east-1"}
    import os

    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.stdout.strip().splitlines()[-1:] == ["False"], done.stderr[-2000:]
