"""Domain errors: every type has a code of the contract, and one place answers them."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from domino.api import errors, idempotency  # noqa: F401 (every module that defines errors is loaded)
from domino.api.errors import STATUS_BY_CODE, error_parts
from domino.engine.errors import DominoError, IllegalMove
from domino.service import errors as service_errors
from domino.service.values import GameSeen
from domino.store.errors import Unavailable

DOCUMENT = Path(__file__).resolve().parents[2] / "docs" / "openapi.yaml"


def every_error_type() -> list[type[DominoError]]:
    found, pending = [], [DominoError]
    while pending:
        cls = pending.pop()
        found.append(cls)
        pending += cls.__subclasses__()
    return found


def test_the_status_table_is_the_documents() -> None:
    document = yaml.safe_load(DOCUMENT.read_text())
    assert document["components"]["schemas"]["ErrorCode"]["x-status-by-code"] == STATUS_BY_CODE


@pytest.mark.parametrize("error_type", every_error_type(), ids=lambda cls: cls.__name__)
def test_every_error_type_has_a_contract_code(error_type: type[DominoError]) -> None:
    """A type whose code is not in the table only groups others (EngineError, IllegalMove)."""
    if error_type.code not in STATUS_BY_CODE:
        assert error_type.__subclasses__(), f"{error_type.__name__}: {error_type.code}"


def test_the_engine_refusals_are_422() -> None:
    refusals = [c for c in every_error_type() if issubclass(c, IllegalMove)]
    assert {STATUS_BY_CODE[c.code] for c in refusals if c.code in STATUS_BY_CODE} == {422}


def test_a_stale_version_answers_the_callers_view_and_its_etag() -> None:
    current = GameSeen("g" * 22, 7, {"id": "g" * 22, "version": 7, "you": {"seat": 1}})
    status, body, headers = error_parts(service_errors.VersionMismatch(current, 5))
    assert status == 412
    assert body == {
        "error": {
            "code": "version_mismatch",
            "message": "The game is at version 7, not 5.",
            "params": {"version": 7, "expected": 5},
        },
        "game": current.view,
    }
    assert headers == {
        "ETag": '"7-1"',
        "Vary": "Authorization",
        "Cache-Control": "private, no-cache",
        "Content-Language": "en",
    }
    _, spanish, headers = error_parts(service_errors.VersionMismatch(current, 5), "es")
    assert spanish["error"]["message"] == "La partida está en la versión 7, no en la 5."
    assert headers["Content-Language"] == "es"


def test_a_lost_race_answers_the_view_without_an_etag() -> None:
    current = GameSeen("g" * 22, 7, {"id": "g" * 22})
    status, body, headers = error_parts(service_errors.Conflict("lost", current))
    assert (status, body["game"], headers) == (409, current.view, {"Content-Language": "en"})


def test_busy_answers_when_to_come_back() -> None:
    status, body, headers = error_parts(Unavailable())
    assert (status, headers["Retry-After"]) == (503, "1")
    assert body == {
        "error": {
            "code": "unavailable",
            "message": "The service is busy; try again in a moment.",
            "params": {"retry_after": 1},
        }
    }
    status, body, headers = error_parts(errors.RequestInProgress())
    assert (status, headers["Retry-After"], body["error"]["params"]) == (
        409,
        "1",
        {"retry_after": 1},
    )
