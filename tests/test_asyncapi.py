"""docs/asyncapi.yaml is a valid AsyncAPI 3.0 document for the AsyncAPI initiative's own parser
(@asyncapi/parser, from npm: ``.ci/asyncapi`` installs it pinned under the ignored .local/ on
first use, and fails, never skips, without Node). That the messages the code sends fit the
document's schemas is tests/unit/test_asyncapi_messages.py."""

from __future__ import annotations

import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SCRIPT = REPO / ".ci" / "asyncapi"
DOCUMENT = REPO / "docs" / "asyncapi.yaml"


def parse(document: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(SCRIPT), str(document)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=240,  # the first run installs the parser (about 10 s)
        check=False,
    )


def test_the_parser_finds_no_error_in_the_document() -> None:
    result = parse(DOCUMENT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "AsyncAPI 3.0.0, no errors" in result.stdout, result.stdout


def test_the_parser_would_fail_a_broken_document(tmp_path: Path) -> None:
    """The check is not vacuous: a reply naming a message its channel lacks is an error."""
    broken = tmp_path / "asyncapi.yaml"
    text, pong = DOCUMENT.read_text(), "#/channels/socket/messages/pong"
    assert f'- $ref: "{pong}"' in text
    broken.write_text(text.replace(pong, "#/channels/socket/messages/nope"))
    result = parse(broken)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "invalid-ref" in result.stdout and "1 errors" in result.stdout, result.stdout
