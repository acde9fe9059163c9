"""A socket's caller is read from its authorizer context as an HTTP caller is from its claims:
a locale that is not a BCP 47-shaped tag is ignored, a name that shows nothing gives way to the
player id, and a name's controls are left out."""

from __future__ import annotations

import pytest
from domino.api.websocket import caller_of


@pytest.mark.parametrize("locale", ["en\n", "es\x00", "\u202ees", "e" * 40, "es-ES\u2066"])
def test_a_locale_that_is_no_tag_is_ignored(locale: str) -> None:
    caller = caller_of({"authorizer": {"sub": "ana", "name": "Ana", "locale": locale}})
    assert caller.locale is None


def test_a_tag_is_kept() -> None:
    caller = caller_of({"authorizer": {"sub": "ana", "locale": "es-ES"}})
    assert caller.locale == "es-ES"


@pytest.mark.parametrize("name", ["\u200b", "\u3164\u2800", "\ufeff", "\U000e0041"])
def test_a_name_that_shows_nothing_is_the_player_id(name: str) -> None:
    assert caller_of({"authorizer": {"sub": "ana", "name": name}}).name == "ana"


def test_a_names_controls_are_left_out() -> None:
    assert caller_of({"authorizer": {"sub": "ana", "name": "A\u202ena"}}).name == "Ana"
