"""Errors an app can translate and show: every message template raised anywhere has its Spanish
translation with the same fields, none is a validator library's phrase, and Accept-Language
picks the language as RFC 9110 says."""

from __future__ import annotations

import ast
import string
from pathlib import Path

import pytest
from domino.api.errors import InvalidRequest, error_parts
from domino.api.messages import SPANISH, VALIDATION, negotiate, translator
from domino.api.models import CreateGame, PlayTile
from domino.engine.errors import DominoError

ROOT = Path(__file__).resolve().parents[2]
#: the calls whose first argument is a message template
RAISERS = {"fail", "refuse", "TokenRequestError", "__init__"}


def error_names() -> set[str]:
    import domino.api.errors
    import domino.service.errors
    import domino.store.cursors  # noqa: F401

    names, todo = {"DominoError"}, [DominoError]
    while todo:
        for sub in todo.pop().__subclasses__():
            names.add(sub.__name__)
            todo.append(sub)
    return names


def templates() -> dict[str, str]:
    """Every message template in the code that can reach a client, with where it is."""
    raisers = error_names() | RAISERS
    found: dict[str, str] = {}
    files = [*(ROOT / "shared" / "domino").rglob("*.py"), *(ROOT / "local").rglob("*.py")]
    for path in files:
        if path.name == "encoding.py":  # a corrupt stored state: never a client's doing
            continue
        tree = ast.parse(path.read_text())
        inits = [  # an error type's own message: a default argument or its super().__init__
            node
            for cls in ast.walk(tree)
            if isinstance(cls, ast.ClassDef) and cls.name in raisers
            for node in ast.walk(cls)
        ]
        for node in inits:
            if isinstance(node, ast.FunctionDef) and node.name == "__init__":
                for default in node.args.defaults:
                    if isinstance(default, ast.Constant) and isinstance(default.value, str):
                        found.setdefault(default.value, f"{path.relative_to(ROOT)}:{node.lineno}")
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            if name == "__init__" and node not in inits:
                continue
            first = node.args[0] if name in raisers else None
            if name in ("fail", "refuse") and len(node.args) >= 3:
                first = node.args[2]
            if isinstance(first, ast.JoinedStr):
                raise AssertionError(f"{path}:{node.lineno}: an f-string message: use params")
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                found.setdefault(first.value, f"{path.relative_to(ROOT)}:{node.lineno}")
    from local.handler import HTTP_ERRORS

    for _, _, text in HTTP_ERRORS.values():
        found.setdefault(text, "local/handler.py HTTP_ERRORS")
    for text in VALIDATION.values():
        found.setdefault(text, "api/messages.py VALIDATION")
    return {t: w for t, w in found.items() if " " in t}  # a sentence, not a code or a name


def fields_of(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_the_scan_finds_the_messages() -> None:
    found = templates()
    assert "It is seat {seat}'s turn." in found and "The chunked body is malformed." in found
    assert len(found) > 100


def test_every_message_has_its_spanish_translation_with_the_same_fields() -> None:
    missing = {t: where for t, where in templates().items() if t not in SPANISH}
    assert not missing
    for english, spanish in SPANISH.items():
        assert fields_of(english) == fields_of(spanish), english


def test_every_translation_is_used() -> None:
    unused = set(SPANISH) - set(templates()) - {"The request is not valid."}
    assert not unused


def test_one_tone_for_all_messages() -> None:
    for template in templates():
        assert template[-1] in ".-", template  # a sentence (the key rules end in a character list)
        for phrase in ("Input should", "Field required", "Extra inputs", "Value error", "!r"):
            assert phrase not in template


@pytest.mark.parametrize(
    ("body", "english", "spanish"),
    [
        ('{"players": 2}', "preset is required.", "Falta preset."),
        ('{"preset": "x", "players": 11}', "players must be at most 10.", "players debe ser"),
        ('{"preset": "x", "players": 2, "on_timeout": "no"}', "auto, forfeit.", "auto, forfeit."),
        ('{"preset": "x", "players": 2, "colour": 1}', "colour is not a field", "colour no es"),
        ('{"preset": "x", "players": "2"}', "players must be a whole number.", "número entero"),
        ("[1,", "The body is not valid JSON.", "El cuerpo no es JSON válido."),
    ],
)
def test_validation_speaks_the_apis_words(body: str, english: str, spanish: str) -> None:
    with pytest.raises(InvalidRequest) as caught:
        CreateGame.validate(body)
    err = caught.value
    assert english in err.message and "Input should" not in err.message
    _, answer, headers = error_parts(err, "es")
    assert spanish in answer["error"]["message"] and headers["Content-Language"] == "es"
    assert answer["error"]["params"]["fields"] == answer["error"]["fields"] == err.fields


def test_a_bad_tile_text_says_how_a_tile_is_written_in_both_languages() -> None:
    with pytest.raises(InvalidRequest) as caught:
        PlayTile.validate('{"tile": "9x9"}')
    assert caught.value.message == "tile must be two numbers joined by a hyphen."
    spanish = caught.value.say(translator("es"))
    assert spanish == "tile debe ser dos números unidos por un guion."


@pytest.mark.parametrize(
    ("header", "language"),
    [
        (None, "en"),
        ("", "en"),
        ("es", "es"),
        ("es-MX", "es"),
        ("ES-es", "es"),
        ("fr, es;q=0.5", "es"),
        ("en;q=0.4, es;q=0.8", "es"),
        ("es;q=0.4, en;q=0.8", "en"),
        ("es;q=0", "en"),
        ("de, fr", "en"),
        ("*", "en"),
        ("es;q=abc", "en"),
        ("es;q=2", "en"),
        ("es," * 10_000, "es"),
    ],
)
def test_accept_language_picks_english_or_spanish(header: str | None, language: str) -> None:
    assert negotiate(header) == language


def test_every_param_an_error_can_carry_is_in_the_documents_error_params() -> None:
    import yaml

    document = yaml.safe_load((ROOT / "docs" / "openapi.yaml").read_text())
    documented = set(document["components"]["schemas"]["ErrorParams"]["properties"])
    validation = set(VALIDATION.values())  # their fields are said in the message, not sent
    sent = {name for t in templates() if t not in validation for name in fields_of(t)}
    sent |= {"fields", "retry_after", "reason", "function"}  # given by name, not in a template
    assert sent <= documented, sent - documented
