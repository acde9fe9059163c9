"""The repository explains itself: docs/rules.md is the engine's, links resolve, nothing points out.

- docs/rules.md is exactly what docs/gen_rules.py writes from the engine's preset table and
  ruleset fields (as tests/test_openapi.py keeps docs/openapi.yaml in step with the code);
- every relative link in docs/*.md and README.md names a file of the repository, and a heading
  of it when the link has an anchor;
- no tracked file points at the team's handbook, which a clone does not contain (its pages and
  the folder beside the checkout): the rules are docs/rules.md, the API docs/api.md and
  docs/openapi.yaml. ``OUTSIDE_POINTERS_ALLOWED`` lists the few files still waiting to be
  repointed, each with its reason; a file that no longer needs its entry fails the test too.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import get_args

import pytest
from domino.engine import PRESETS
from domino.engine.rules import FIELD_NAMES
from domino.service.notices import NoticeType

REPO = Path(__file__).resolve().parents[1]
DOCS = REPO / "docs"
RULES_PAGE = DOCS / "rules.md"
REGENERATE = ".venv/bin/python docs/gen_rules.py --write"

# the handbook's page names and its folder beside the checkout, spelled so that this file does
# not match them itself
HANDBOOK = re.compile(r"\b(?:RULES|API|ARCHITECTURE)[.]md\b|[.][.]/shared\b")

#: files that may still name the handbook, and why (keep this short: repoint, then remove)
OUTSIDE_POINTERS_ALLOWED: dict[str, str] = {}

LINK = re.compile(r"(?<!!)\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
IMAGE = re.compile(r"!\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+\"[^\"]*\")?\s*$", re.M)
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
HTML_ANCHOR = re.compile(r"<a\s+(?:id|name)=\"([^\"]+)\"")
FENCE = re.compile(r"^\s{0,3}(```|~~~)")


def load_generator(name: str = "gen_rules") -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, DOCS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def without_code(text: str) -> str:
    """``text`` with fenced code blocks blanked and inline code spans removed (no links there)."""
    out = []
    fenced = False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
            out.append("")
            continue
        out.append("" if fenced else re.sub(r"`+[^`]*`+", "", line))
    return "\n".join(out)


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: link text kept, markup and punctuation dropped, lower case,
    spaces to hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    text = re.sub(r"<[^>]+>", "", text).lower()
    kept = "".join(c for c in text if c.isalnum() or c in " -_")
    return kept.replace(" ", "-")


@cache
def anchors(path: Path) -> frozenset[str]:
    """The anchors a Markdown file offers: its headings (GitHub numbers repeats -1, -2, ...)
    and explicit ``<a id>`` / ``<a name>`` tags."""
    found: set[str] = set()
    seen: dict[str, int] = {}
    fenced = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:
            continue
        found.update(HTML_ANCHOR.findall(line))
        match = HEADING.match(line)
        if match:
            base = slug(match.group(2))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
    return frozenset(found)


def link_targets(path: Path) -> list[str]:
    text = without_code(path.read_text(encoding="utf-8"))
    return LINK.findall(text) + IMAGE.findall(text) + REFERENCE.findall(text)


def pages() -> list[Path]:
    return [*sorted(DOCS.glob("*.md")), REPO / "README.md"]


def broken_links(path: Path) -> list[str]:
    """What is wrong with each relative link of ``path`` (none: all resolve)."""
    problems = []
    for target in link_targets(path):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):  # https:, mailto:, ...
            continue
        file_part, _, anchor = target.partition("#")
        resolved = (path.parent / file_part).resolve() if file_part else path
        if not resolved.is_relative_to(REPO):
            problems.append(f"{target}: outside the repository")
            continue
        if not resolved.exists():
            problems.append(f"{target}: no such file")
            continue
        if anchor and resolved.suffix == ".md" and anchor not in anchors(resolved):
            problems.append(f"{target}: no heading #{anchor} in {resolved.relative_to(REPO)}")
    return problems


def tracked_files() -> list[str]:
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    return [name for name in listed.decode().split("\0") if name]


def pointers(names: list[str]) -> dict[str, list[str]]:
    """Tracked files naming the handbook: path -> 'line: text' of each mention."""
    found: dict[str, list[str]] = {}
    for name in names:
        path = REPO / name
        if not path.is_file():  # deleted in the work tree
            continue
        data = path.read_bytes()
        if b"\0" in data[:8000]:  # binary
            continue
        for number, line in enumerate(data.decode("utf-8", "replace").splitlines(), 1):
            if HANDBOOK.search(line):
                found.setdefault(name, []).append(f"{number}: {line.strip()}")
    return found


# ---------------------------------------------------------------------- docs/rules.md


def test_rules_page_is_what_the_engine_generates() -> None:
    expected = load_generator().render()
    current = RULES_PAGE.read_text(encoding="utf-8") if RULES_PAGE.exists() else ""
    assert current == expected, (
        f"docs/rules.md differs from the engine's presets and fields: run `{REGENERATE}` "
        "(and read the diff: it is what players are told)"
    )


def test_push_payloads_page_is_what_the_pushing_code_builds() -> None:
    generator = load_generator("gen_pushes")
    current = generator.PAGE.read_text(encoding="utf-8") if generator.PAGE.exists() else ""
    assert current == generator.render(), (
        f"docs/pushes.md differs from what the notifier pushes: run `{generator.COMMAND}`"
    )
    for kind in get_args(NoticeType):  # one of each type, on both platforms
        assert current.count(f'"type": "{kind}"') >= 3, kind  # APNs, FCM data, its apns block


def test_rules_page_has_every_preset_and_field() -> None:
    page = RULES_PAGE.read_text(encoding="utf-8")
    for pid in PRESETS:
        assert pid in anchors(RULES_PAGE), f"no section for preset {pid}"
        assert f"(#{pid})" in page
    for name in FIELD_NAMES:
        assert f"| `{name}` |" in page, f"field {name} is not in the tables"


def test_generator_refuses_an_undescribed_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    """A value added to a choice field without a sentence for players stops the generator."""
    generator = load_generator()
    choices = dict(generator.CHOICES, draw=(*generator.CHOICES["draw"], "draw_two"))
    monkeypatch.setattr(generator, "CHOICES", choices)
    with pytest.raises((KeyError, AssertionError)):
        generator.render()


def test_generator_check_flag(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    generator = load_generator()
    page = tmp_path / "rules.md"
    monkeypatch.setattr(generator, "PAGE", page)
    assert generator.main(["--check"]) == 1
    assert generator.main(["--write"]) == 0
    assert generator.main(["--check"]) == 0
    assert page.read_text(encoding="utf-8") == generator.render()


# ---------------------------------------------------------------------- links


@pytest.mark.parametrize("path", pages(), ids=lambda p: str(p.relative_to(REPO)))
def test_relative_links_resolve(path: Path) -> None:
    assert broken_links(path) == []


def test_link_check_catches_a_broken_link(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tests.test_docs.REPO", tmp_path)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "rules.md").write_text("# Rules\n## A turn\n", encoding="utf-8")
    page = tmp_path / "docs" / "page.md"
    page.write_text(
        "# Page\n[fine](rules.md#a-turn) [self](#page) [web](https://example.com/x.md)\n"
        "[a](rules.md#no-such-heading) [b](missing.md) [c](../../outside.md)\n"
        "`[in code](missing.md)`\n```\n[in a block](missing.md)\n```\n",
        encoding="utf-8",
    )
    problems = broken_links(page)
    assert len(problems) == 3, problems
    assert "no heading #no-such-heading" in problems[0]
    assert "no such file" in problems[1]
    assert "outside the repository" in problems[2]


def test_slugs_are_githubs() -> None:
    assert slug("Every preset's fields") == "every-presets-fields"
    assert slug("`clasico`: Dominó clásico") == "clasico-dominó-clásico"
    assert slug("Versions and retries (v1)") == "versions-and-retries-v1"


def test_doc_anchors_named_in_code_exist() -> None:
    """``docs/api.md#errors`` in a comment or docstring names a heading that exists."""
    named = re.compile(r"\bdocs/([a-z]+[.]md)#([a-z0-9_-]+)")
    missing = []
    for name in tracked_files():
        path = REPO / name
        if not path.is_file() or path.suffix not in {".py", ".md", ".yaml", ".js", ".toml", ""}:
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        for page, anchor in named.findall(text):
            target = DOCS / page
            if not target.is_file() or anchor not in anchors(target):
                missing.append(f"{name}: docs/{page}#{anchor}")
    assert not missing, f"no such heading: {missing}"


# ---------------------------------------------------------------------- nothing points outside


def test_no_file_points_outside_the_repository() -> None:
    found = pointers(tracked_files())
    unexpected = {n: lines for n, lines in found.items() if n not in OUTSIDE_POINTERS_ALLOWED}
    assert not unexpected, (
        "these files point at the team's handbook, which a clone does not have; point them at "
        "docs/rules.md, docs/api.md or docs/openapi.yaml instead: "
        + "; ".join(f"{name} line {lines[0]}" for name, lines in sorted(unexpected.items()))
    )
    stale = sorted(set(OUTSIDE_POINTERS_ALLOWED) - set(found))
    assert not stale, f"remove from OUTSIDE_POINTERS_ALLOWED (nothing left to repoint): {stale}"


def test_pointer_check_catches_a_mention(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tests.test_docs.REPO", tmp_path)
    (tmp_path / "a.py").write_text('"""See ' + "RULES" + '.md."""\n', encoding="utf-8")
    (tmp_path / "b.md").write_text("The " + "API" + ".md page\n", encoding="utf-8")
    (tmp_path / "c.md").write_text("in .." + "/shared/seeds\n", encoding="utf-8")
    (tmp_path / "d.md").write_text("docs/api.md and docs/rules.md are ours\n", encoding="utf-8")
    found = pointers(["a.py", "b.md", "c.md", "d.md"])
    assert sorted(found) == ["a.py", "b.md", "c.md"]
