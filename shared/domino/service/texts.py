"""What a notification says, in Spanish (the default) and English.

A text names the game by its preset's name and, for ``player_joined`` and ``nudge``, the joiner's
or the nudger's display name (the host's for ``invited`` and ``rematch``, the invitee's for
``invite_declined``);
never a tile (docs/api.md: nothing hidden leaves the server, and no text needs a tile).
"""

from __future__ import annotations

from domino.engine import PRESETS

Language = str  # "es" | "en"
LANGUAGES = ("es", "en")
DEFAULT_LANGUAGE = "es"

#: type -> language -> (title, body); {game}, {name} and {hand} are filled in
TEXTS: dict[str, dict[str, tuple[str, str]]] = {
    "player_joined": {
        "es": ("Nuevo jugador", "{name} se ha sentado en tu partida de {game}."),
        "en": ("New player", "{name} has joined your {game} game."),
    },
    "game_started": {
        "es": ("Empieza la partida", "Tu partida de {game} ha empezado."),
        "en": ("Game on", "Your {game} game has started."),
    },
    "your_turn": {
        "es": ("Te toca", "Es tu turno en la partida de {game}."),
        "en": ("Your turn", "It is your turn in your {game} game."),
    },
    "hand_over": {
        "es": ("Mano terminada", "Ha terminado la mano {hand} de tu partida de {game}."),
        "en": ("Hand over", "Hand {hand} of your {game} game is over."),
    },
    "game_over": {
        "es": ("Partida terminada", "Tu partida de {game} ha terminado."),
        "en": ("Game over", "Your {game} game is over."),
    },
    "reminder": {
        "es": ("Se acaba tu tiempo", "Te queda poco tiempo para jugar en tu partida de {game}."),
        "en": ("Time is running out", "Your turn in your {game} game is about to time out."),
    },
    "nudge": {
        "es": ("Te están esperando", "{name} espera tu jugada en la partida de {game}."),
        "en": ("Your move", "{name} is waiting for your move in your {game} game."),
    },
    "timeout": {
        "es": ("Se acabó tu tiempo", "Se jugó por ti en tu partida de {game}."),
        "en": ("Time is up", "Your turn in your {game} game timed out and was played for you."),
    },
    "match_found": {
        "es": ("Partida encontrada", "Tienes rivales para una partida de {game}."),
        "en": ("Match found", "You have been matched for a {game} game."),
    },
    "match_expired": {
        "es": ("Búsqueda terminada", "No encontramos rivales para {game} en 24 horas."),
        "en": ("Search ended", "No match for {game} was found in 24 hours."),
    },
    "invited": {
        "es": ("Te han invitado", "{name} te invita a una partida de {game}."),
        "en": ("You are invited", "{name} invites you to a {game} game."),
    },
    "invite_declined": {
        "es": ("Invitación rechazada", "{name} no jugará tu partida de {game}."),
        "en": ("Invitation declined", "{name} declined your {game} game."),
    },
    "rematch": {
        "es": ("Revancha", "{name} quiere la revancha de vuestra partida de {game}."),
        "en": ("Rematch", "{name} wants a rematch of your {game} game."),
    },
}


def language_of(locale: str | None) -> Language:
    """``es-MX`` → ``es``, ``en_GB`` → ``en``; anything else is the default, Spanish."""
    if locale:
        primary = locale.replace("_", "-").split("-")[0].strip().lower()
        if primary in LANGUAGES:
            return primary
    return DEFAULT_LANGUAGE


def preset_name(preset: str) -> str:
    """The name a text gives the game (its preset's; the id of one no longer offered)."""
    found = PRESETS.get(preset)
    return found.name if found else preset


def text(kind: str, language: Language, preset: str, detail: str | None) -> tuple[str, str]:
    """The title and body of a notification of ``kind``."""
    title, body = TEXTS[kind][language if language in LANGUAGES else DEFAULT_LANGUAGE]
    return title, body.format(game=preset_name(preset), name=detail or "", hand=detail or "")
