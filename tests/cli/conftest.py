"""The terminal client driven as a person would, against the local runtime (`python -m local`).

``Player.run(*args)`` invokes ``domino`` in-process with typer's CliRunner, with the player's
token in ``DOMINO_TOKEN``, the runtime in ``DOMINO_URL`` and a config dir of the test's own, so
nothing reads or writes the real user's settings.
"""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

# the client's rich consoles read their width when domino_cli.app is imported: the width the
# tests expect, whatever terminal (or none, under a pytest-xdist worker) the run has
os.environ["COLUMNS"] = "120"

from click.testing import Result
from domino_cli.app import app
from typer.testing import CliRunner

from local.process import Runtime


@dataclass
class Player:
    id: str
    token: str
    env: dict[str, str]

    def run(self, *args: str, expect: int | None = 0) -> Result:
        """``domino *args``; asserts the exit code unless ``expect`` is None."""
        result = CliRunner().invoke(app, list(args), env=self.env, catch_exceptions=False)
        if expect is not None:
            assert result.exit_code == expect, (args, result.output)
        return result

    def view(self, game: str) -> dict[str, Any]:
        parsed: dict[str, Any] = json.loads(self.run("show", game, "--json").stdout)
        return parsed


def cli_env(runtime: Runtime, config_home: Path, token: str | None) -> dict[str, str]:
    env = {
        "DOMINO_URL": runtime.base,
        "XDG_CONFIG_HOME": str(config_home),
        "LANG": "en_US.UTF-8",
        "LC_ALL": "",
        "LC_MESSAGES": "",
        "COLUMNS": "120",
    }
    if token is not None:
        env["DOMINO_TOKEN"] = token
    return env


@pytest.fixture
def player(runtime: Runtime, tmp_path: Path) -> Callable[[str], Player]:
    """``player("Alice")``: a fresh player (a new id per test) with their own dev token."""

    def make(name: str) -> Player:
        player_id = f"{name.lower()}{uuid.uuid4().hex[:8]}"
        token = runtime.token(player_id, name)
        return Player(player_id, token, cli_env(runtime, tmp_path / player_id, token))

    return make


def take_turn(player: Player, game: str) -> dict[str, Any]:
    """One action of ``player``, chosen from their view: the first legal play, else a draw,
    else a pass. Returns the view the command printed (``--json``)."""
    you = player.view(game)["you"]
    if you["legal"]:
        choice = you["legal"][0]
        args = ["play", game, choice["tile"]]
        args += ["--end", choice["end"]] if choice["end"] else []
    elif you["can_draw"]:
        args = ["draw", game]
    else:
        assert you["can_pass"], you
        args = ["pass", game]
    parsed: dict[str, Any] = json.loads(player.run(*args, "--json").stdout)
    return parsed
