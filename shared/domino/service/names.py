"""Display names pass a filter of offensive words in Spanish and English (docs/api.md, "Safety
among strangers"): a name chosen with ``PATCH /me``, ``POST /games`` or a join is refused (400),
a token's name that fails shows as ``Player 1234`` instead (``shown_name``).

The words come from a maintained list on PyPI, glin-profanity's dictionaries (``english.json``,
``spanish.json``; docs/decisions.md, "Display-name filter", says why this package). Only its
data files are read, found through the import system without running the package: its filter
engine costs ~150 ms of import on every cold start, the two lists ~1 ms, once per container.

A name is offensive when one of its words, or a run of its words, is an entry of the lists, or
the whole name with its separators taken out is one ("f u c k", "hijo-de-puta"), after folding
case and accents ("Cabrón" is "cabron") and, as a second reading, common leetspeak ("b1tch").
Only whole words count, never a part of one: "Scunthorpe", "Analía", "Cassandra" and "Sussex"
are names. ``ORDINARY`` holds the few entries that are also ordinary given names, surnames or
everyday Spanish words (the tests hold a list of ordinary names that must pass).
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from functools import lru_cache
from importlib.util import find_spec
from pathlib import Path
from typing import NamedTuple

#: the package whose word lists are read, and the lists
PACKAGE = "glin_profanity"
LISTS = ("english", "spanish")
#: entries of the lists that are ordinary names or words here: "Concha" (Concepción), "Dick"
#: (Richard), "Butt" and "Hooker" (surnames), "Negro" (Spanish for black: "el gato negro"),
#: the Spanish words for a hammer, hell, a heroine and a donkey, and "XX" (twenty)
ORDINARY = frozenset(
    {"concha", "dick", "butt", "hooker", "negro", "martillo", "infierno", "heroina", "asno", "xx"}
)
#: leetspeak read as letters (the second reading of a name)
LEET = str.maketrans(
    {"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s", "!": "i"}
)
_WORD = re.compile(r"[a-z]+|[0-9]+")
_LETTERS = re.compile(r"[a-z]+")
#: the longest run of words an entry has ("rosy palm and her 5 sisters")
MAX_RUN = 6


class WordList(NamedTuple):
    phrases: frozenset[str]  # entries as folded words joined by one space
    compact: frozenset[str]  # entries with every separator taken out (3 letters or more)
    symbols: tuple[str, ...]  # entries without letters (an emoji), matched as written


def fold(text: str) -> str:
    """Lower case without accents: "Cabrón" -> "cabron", "PEÑA" -> "pena"."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _list_dir() -> Path:
    spec = find_spec(PACKAGE)  # finds the package without importing it
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError(f"{PACKAGE} is not installed (pyproject.toml's dependencies)")
    return Path(next(iter(spec.submodule_search_locations))) / "data" / "dictionaries"


@lru_cache(maxsize=1)
def word_list() -> WordList:
    """The lists, read once per container."""
    phrases: set[str] = set()
    compact: set[str] = set()
    symbols: list[str] = []
    for name in LISTS:
        for entry in json.loads((_list_dir() / f"{name}.json").read_text("utf-8"))["words"]:
            words = _LETTERS.findall(fold(entry).translate(LEET))
            if not words:
                symbols.append(entry)
                continue
            phrase = " ".join(words)
            if phrase in ORDINARY:
                continue
            phrases.add(phrase)
            if len("".join(words)) >= 3:
                compact.add("".join(words))
    return WordList(frozenset(phrases), frozenset(compact), tuple(symbols))


def _runs(words: list[str]) -> set[str]:
    return {
        " ".join(words[start : start + size])
        for size in range(1, MAX_RUN + 1)
        for start in range(len(words) - size + 1)
    }


def offensive(name: str) -> bool:
    """Whether ``name`` holds an entry of the lists as whole words (the module says how)."""
    found = word_list()
    if any(symbol in name for symbol in found.symbols):
        return True
    folded = fold(name)
    for words in (_WORD.findall(folded), _LETTERS.findall(folded.translate(LEET))):
        if not words:
            continue
        if _runs(words) & found.phrases or "".join(words) in found.compact:
            return True
    return False


def placeholder(player: str) -> str:
    """``Player 1234``: four digits that stay the same for the same player id."""
    digest = hashlib.sha256(player.encode("utf-8", "surrogatepass")).digest()
    return f"Player {int.from_bytes(digest[:4], 'big') % 9000 + 1000}"


def shown_name(player: str, name: str) -> str:
    """A token's name as the tables show it: itself, or ``placeholder`` when it is offensive."""
    return placeholder(player) if offensive(name) else name
