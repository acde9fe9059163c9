"""What a notification says, in Spanish (the default) and English.

A text names the game by its preset's name in the reader's language and, for ``player_joined``
and ``nudge``, the joiner's or the nudger's display name (the host's for ``invited`` and
``rematch``, the invitee's for ``invite_declined``). ``your_turn``, ``hand_over`` and
``game_over`` begin with the public move that led to them ("Ana played 6-4."): a tile laid on
the table, never a drawn one (docs/api.md: nothing hidden leaves the server).
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


#: the push that sums up what a player's quiet hours held (service/quiet.py): {count} games
#: await their move, else {count} games had news; (title, body, body when one game)
SUMMARY_TEXTS: dict[str, dict[str, tuple[str, str, str]]] = {
    "await": {
        "es": (
            "Mientras descansabas",
            "{count} partidas esperan tu jugada.",
            "Una partida espera tu jugada.",
        ),
        "en": ("While you were away", "{count} games await your move.", "A game awaits your move."),
    },
    "news": {
        "es": (
            "Mientras descansabas",
            "Hay novedades en {count} de tus partidas.",
            "Hay novedades en una de tus partidas.",
        ),
        "en": (
            "While you were away",
            "{count} of your games have news.",
            "One of your games has news.",
        ),
    },
}


def summary_text(language: Language, awaiting: int, games: int) -> tuple[str, str]:
    """The title and body of the summary of a quiet window: the games awaiting the player's
    move now, else the games whose notifications waited."""
    kind, count = ("await", awaiting) if awaiting else ("news", games)
    title, many, one = SUMMARY_TEXTS[kind][language if language in LANGUAGES else DEFAULT_LANGUAGE]
    return title, one if count == 1 else many.format(count=count)


#: how a move is told, before the type's own text: {by} is the player's name, {tile} the tile
MOVE_TEXTS: dict[str, dict[str, str]] = {
    "play": {"es": "{by} jugó el {tile}.", "en": "{by} played {tile}."},
    "draw": {"es": "{by} robó.", "en": "{by} drew."},
    "pass": {"es": "{by} pasó.", "en": "{by} passed."},
}

#: the presets' names in English (each preset's own ``name`` is its Spanish one); a test keeps
#: every preset here
PRESET_NAMES_EN: dict[str, str] = {
    "clasico": "Classic dominoes",
    "dos-jugadores": "Two-player dominoes",
    "ida-y-vuelta": "There-and-back dominoes",
    "parejas-111": "The 111 (partners)",
    "infantil": "Children's dominoes",
    "multicolor-plus": "Multicolor Plus dominoes",
    "buho21": "Buho21 dominoes",
    "pool": "Pool dominoes",
    "cruzado": "Cross dominoes",
    "chipre": "Cyprus dominoes",
    "cubano": "Cuban dominoes",
    "all-fives": "All Fives",
    "muggins": "Muggins",
    "tren-mexicano": "Mexican Train",
}


def language_of(locale: str | None) -> Language:
    """``es-MX`` → ``es``, ``en_GB`` → ``en``; anything else is the default, Spanish."""
    if locale:
        primary = locale.replace("_", "-").split("-")[0].strip().lower()
        if primary in LANGUAGES:
            return primary
    return DEFAULT_LANGUAGE


def preset_name(preset: str, language: Language = DEFAULT_LANGUAGE) -> str:
    """The name a text gives the game: its preset's, in ``language`` (the id of one no longer
    offered)."""
    if language == "en" and preset in PRESET_NAMES_EN:
        return PRESET_NAMES_EN[preset]
    found = PRESETS.get(preset)
    return found.name if found else preset


def move_text(language: Language, by: str | None, move: str | None) -> str | None:
    """How the move ``move`` (``6-4``, ``draw``, ``pass``) of ``by`` is told (None: no move)."""
    if by is None or move is None:
        return None
    kind = move if move in MOVE_TEXTS else "play"
    return MOVE_TEXTS[kind][language].format(by=by, tile=move)


def text(
    kind: str,
    language: Language,
    preset: str,
    detail: str | None,
    by: str | None = None,
    move: str | None = None,
) -> tuple[str, str]:
    """The title and body of a notification of ``kind`` (after the move that led to it)."""
    language = language if language in LANGUAGES else DEFAULT_LANGUAGE
    title, body = TEXTS[kind][language]
    game = preset_name(preset, language)
    body = body.format(game=game, name=detail or "", hand=detail or "")
    told = move_text(language, by, move)
    return title, f"{told} {body}" if told else body
