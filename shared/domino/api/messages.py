"""Error messages in the caller's language: English (the templates themselves) or Spanish.

Every domain error is raised with an English template and its ``params``
(``NotYourTurn("It is seat {seat}'s turn.", seat=2)``); the API sends the params, so that an app
translates by code, and the message in the language ``Accept-Language`` prefers of the two it
speaks (English without the header). One tone for all: a short sentence to the player, "you"
in English, "tú" in Spanish, no validator jargon. tests/unit/test_messages.py checks that every
template raised anywhere has its translation here, with the same fields.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["LANGUAGES", "SPANISH", "negotiate", "translator"]

#: the languages messages are written in; the first is the default
LANGUAGES = ("en", "es")

#: what a validation failure says, by pydantic-core's error type ({field} is the field's name)
VALIDATION: dict[str, str] = {
    "missing": "{field} is required.",
    "extra_forbidden": "{field} is not a field of this request.",
    "int_type": "{field} must be a whole number.",
    "int_parsing": "{field} must be a whole number.",
    "int_from_float": "{field} must be a whole number.",
    "float_type": "{field} must be a number.",
    "float_parsing": "{field} must be a number.",
    "bool_type": "{field} must be true or false.",
    "bool_parsing": "{field} must be true or false.",
    "string_type": "{field} must be text.",
    "string_too_short": "{field} must be at least {min_length} characters long.",
    "string_too_long": "{field} must be at most {max_length} characters long.",
    "string_pattern_mismatch": "{field} is not written as this API expects.",
    "literal_error": "{field} must be one of: {expected}.",
    "enum": "{field} must be one of: {expected}.",
    "greater_than_equal": "{field} must be at least {ge}.",
    "greater_than": "{field} must be more than {gt}.",
    "less_than_equal": "{field} must be at most {le}.",
    "less_than": "{field} must be less than {lt}.",
    "dict_type": "{field} must be an object.",
    "model_type": "{field} must be an object.",
    "model_attributes_type": "{field} must be an object.",
    "list_type": "{field} must be a list.",
    "too_short": "{field} must hold at least {min_length} items.",
    "too_long": "{field} must hold at most {max_length} items.",
    "finite_number": "{field} must be a finite number.",
    "datetime_from_date_parsing": "{field} must be a time like 2026-11-30T12:00:00Z.",
    "tile_text": "{field} must be two numbers joined by a hyphen.",
    "display_text": "{field} must not hold control characters or direction overrides.",
    "blank_name": "{field} must show at least one visible character.",
    "offensive_name": "{field} holds a word that is not allowed in names.",
    "clock_time": "{field} must be a time of day, HH:MM.",
    "time_zone": "{field} must be an IANA time zone, like Europe/Madrid.",
    "empty_window": "{field} must end at another time than it starts.",
    "invalid": "{field} is not valid.",
}

SPANISH: dict[str, str] = {
    # validation (api/models.py)
    "{field} is required.": "Falta {field}.",
    "{field} is not a field of this request.": "{field} no es un campo de esta petición.",
    "{field} must be a whole number.": "{field} debe ser un número entero.",
    "{field} must be a number.": "{field} debe ser un número.",
    "{field} must be true or false.": "{field} debe ser true o false.",
    "{field} must be text.": "{field} debe ser un texto.",
    "{field} must be at least {min_length} characters long.": (
        "{field} debe tener al menos {min_length} caracteres."
    ),
    "{field} must be at most {max_length} characters long.": (
        "{field} debe tener como mucho {max_length} caracteres."
    ),
    "{field} is not written as this API expects.": "{field} no tiene la forma que espera la API.",
    "{field} must be one of: {expected}.": "{field} debe ser uno de: {expected}.",
    "{field} must be at least {ge}.": "{field} debe ser como mínimo {ge}.",
    "{field} must be more than {gt}.": "{field} debe ser mayor que {gt}.",
    "{field} must be at most {le}.": "{field} debe ser como mucho {le}.",
    "{field} must be less than {lt}.": "{field} debe ser menor que {lt}.",
    "{field} must be an object.": "{field} debe ser un objeto.",
    "{field} must be a list.": "{field} debe ser una lista.",
    "{field} must hold at least {min_length} items.": (
        "{field} debe tener al menos {min_length} elementos."
    ),
    "{field} must hold at most {max_length} items.": (
        "{field} debe tener como mucho {max_length} elementos."
    ),
    "{field} must be a finite number.": "{field} debe ser un número finito.",
    "{field} must be a time like 2026-11-30T12:00:00Z.": (
        "{field} debe ser una hora como 2026-11-30T12:00:00Z."
    ),
    "{field} must be a time of day, HH:MM.": "{field} debe ser una hora del día, HH:MM.",
    "{field} must be an IANA time zone, like Europe/Madrid.": (
        "{field} debe ser una zona horaria IANA, como Europe/Madrid."
    ),
    "{field} must end at another time than it starts.": (
        "{field} debe terminar a otra hora que la de su comienzo."
    ),
    "{field} must be two numbers joined by a hyphen.": (
        "{field} debe ser dos números unidos por un guion."
    ),
    "{field} must not hold control characters or direction overrides.": (
        "{field} no debe tener caracteres de control ni cambios de dirección."
    ),
    "{field} must show at least one visible character.": (
        "{field} debe mostrar al menos un carácter visible."
    ),
    "{field} holds a word that is not allowed in names.": (
        "{field} tiene una palabra que no se admite en los nombres."
    ),
    "{field} is not valid.": "{field} no es válido.",
    "The request is not valid.": "La petición no es válida.",
    # the edge (api/)
    "A valid bearer token is required.": "Hace falta un token bearer válido.",
    "This Idempotency-Key was used with another request.": (
        "Esta Idempotency-Key ya se usó con otra petición."
    ),
    "A request with this Idempotency-Key is in progress.": (
        "Una petición con esta Idempotency-Key está en curso."
    ),
    "Idempotency-Key must be 1-128 letters, digits or _ . : -": (
        "La Idempotency-Key debe tener de 1 a 128 letras, cifras o _ . : -"
    ),
    "The body is not valid JSON.": "El cuerpo no es JSON válido.",
    "This request takes an empty JSON object: {}.": "Esta petición lleva un objeto JSON vacío: {}.",
    'If-Match must be a game version like "4".': (
        'If-Match debe ser una versión de partida como "4".'
    ),
    "Bodies are limited to {max} bytes.": "El cuerpo puede tener como mucho {max} bytes.",
    "No route for {method} {path}.": "No hay ruta para {method} {path}.",
    "Internal server error.": "Error interno del servidor.",
    # the local runtime (local/): what API Gateway and the dev routes answer there
    "The request is malformed.": "La petición está mal formada.",
    "The request line is too long.": "La línea de la petición es demasiado larga.",
    "The request headers are too large.": "Las cabeceras de la petición son demasiado grandes.",
    "The HTTP version is not supported.": "Esa versión de HTTP no se admite.",
    "Content-Length is not a number.": "Content-Length no es un número.",
    "The body is shorter than its Content-Length.": "El cuerpo es más corto que su Content-Length.",
    "The chunked body is malformed.": "El cuerpo por trozos está mal formado.",
    "The request must name one Host.": "La petición debe nombrar un solo Host.",
    "This runtime does not answer for that Host.": "Este entorno no responde para ese Host.",
    "Dev routes answer only this runtime's pages.": (
        "Las rutas de desarrollo solo responden a las páginas de este entorno."
    ),
    "Dev routes take only Content-Type application/json.": (
        "Las rutas de desarrollo solo aceptan Content-Type application/json."
    ),
    "The request did not arrive in time.": "La petición no llegó a tiempo.",
    "The body must be a JSON object.": "El cuerpo debe ser un objeto JSON.",
    "advance must be a number of seconds from 0 to {max}.": (
        "advance debe ser un número de segundos de 0 a {max}."
    ),
    "player must be 1-64 letters, digits or _ . @ : -": (
        "player debe tener de 1 a 64 letras, cifras o _ . @ : -"
    ),
    "name must be 1 to {max} characters.": "name debe tener de 1 a {max} caracteres.",
    "name must not hold control characters or direction overrides.": (
        "name no debe tener caracteres de control ni cambios de dirección."
    ),
    "locale must be a language tag (es, en-GB) of at most {max} characters.": (
        "locale debe ser una etiqueta de idioma (es, en-GB) de como mucho {max} caracteres."
    ),
    # the service and the store
    "No such game.": "Esa partida no existe.",
    "No such player.": "Ese jugador no existe.",
    "You cannot do this with this player.": "No puedes hacer esto con este jugador.",
    "You cannot block yourself.": "No puedes bloquearte a ti mismo.",
    "You cannot report yourself.": "No puedes denunciarte a ti mismo.",
    "You block at most {max} players.": "Puedes bloquear como mucho a {max} jugadores.",
    "player is not a player id.": "player no es un id de jugador.",
    "You cannot nudge yourself: it is your turn.": ("No puedes dar un toque a nadie: es tu turno."),
    "That vacation is longer than the {days_left} days you have left.": (
        "Esas vacaciones son más largas que los {days_left} días que te quedan."
    ),
    "until must be a time in the future.": "until debe ser un momento futuro.",
    "This match was played before records were kept.": (
        "Esta partida se jugó antes de que se guardaran sus registros."
    ),
    "This match's record cannot be played again.": (
        "El registro de esta partida no se puede volver a jugar."
    ),
    "This turn's player has been nudged already.": (
        "Ya se ha dado un toque al jugador de este turno."
    ),
    "Too early to nudge: try again in {seconds} seconds.": (
        "Aún es pronto para dar un toque: prueba dentro de {seconds} segundos."
    ),
    "One emote every {seconds} seconds.": "Un emote cada {seconds} segundos.",
    "games is an object of at most {max} game ids and the versions held.": (
        "games es un objeto de como mucho {max} ids de partida y las versiones que tienes."
    ),
    "Nothing to change: send name, mute, locale, auto_forced or quiet_hours.": (
        "Nada que cambiar: envía name, mute, locale, auto_forced o quiet_hours."
    ),
    "mu must be from {min} to {max}.": "mu debe estar entre {min} y {max}.",
    "sigma must be from {min} to {max}.": "sigma debe estar entre {min} y {max}.",
    "player and pool are text, mu and sigma numbers, games a whole number.": (
        "player y pool son texto, mu y sigma números, games un número entero."
    ),
    "This account has been suspended.": "Esta cuenta está suspendida.",
    "name is not a name that can be shown.": "name no es un nombre que se pueda mostrar.",
    "reason is at most {max} characters.": "reason tiene como mucho {max} caracteres.",
    "This account has been deleted; sign in again.": (
        "Esta cuenta se ha borrado; vuelve a iniciar sesión."
    ),
    "You already have a seat in this game.": "Ya tienes un asiento en esta partida.",
    "You have left this game.": "Has dejado esta partida.",
    "You have no seat in this game.": "No tienes asiento en esta partida.",
    "Seat {seat} is taken.": "El asiento {seat} está ocupado.",
    "Every seat is taken.": "Todos los asientos están ocupados.",
    "Every free seat is reserved for an invited player.": (
        "Todos los asientos libres están reservados para invitados."
    ),
    "You have no invitation to this game.": "No tienes invitación a esta partida.",
    "The match is not over yet.": "La partida aún no ha terminado.",
    "You cannot invite yourself.": "No puedes invitarte a ti mismo.",
    "Each player can be invited once.": "Cada jugador solo puede invitarse una vez.",
    "This game has seats for at most {max} invited players.": (
        "Esta partida tiene asientos para {max} invitados como mucho."
    ),
    "The game has already been dealt.": "La partida ya se ha repartido.",
    "The game has not started yet.": "La partida aún no ha empezado.",
    "The game is over.": "La partida ha terminado.",
    "The game is at version {version}, not {expected}.": (
        "La partida está en la versión {version}, no en la {expected}."
    ),
    "The game changed while your request was applied; try again.": (
        "La partida cambió mientras se aplicaba tu petición; inténtalo de nuevo."
    ),
    "The service is busy; try again in a moment.": (
        "El servicio está ocupado; inténtalo en un momento."
    ),
    "deal and seed exist only in dev mode.": "deal y seed solo existen en modo de desarrollo.",
    "bots must leave at least one seat for a person.": (
        "bots debe dejar al menos un asiento para una persona."
    ),
    "seat must be 0 to {max}.": "seat debe estar entre 0 y {max}.",
    "No such ticket.": "No existe ese ticket.",
    "You are already searching for a match.": "Ya estás buscando partida.",
    "This ticket has been matched into a game.": "Este ticket ya tiene partida.",
    "A pool is <preset>:<players>, such as dos-jugadores:2.": (
        "Un grupo se escribe <preset>:<jugadores>, como dos-jugadores:2."
    ),
    "device_id is 1-128 letters, digits or _ . : -": (
        "device_id tiene de 1 a 128 letras, cifras o _ . : -"
    ),
    "device_id is 1-128 letters, digits or _ . : -, and neither . nor ..": (
        "device_id tiene de 1 a 128 letras, cifras o _ . : -, y no es . ni .."
    ),
    "name must show at least one visible character.": (
        "name debe mostrar al menos un carácter visible."
    ),
    "Push to {platform} is not offered by this server.": (
        "Este servidor no ofrece avisos por {platform}."
    ),
    "until is not one of your notifications.": "until no es una de tus notificaciones.",
    "cursor is not one this API returned.": "cursor no es uno que haya devuelto esta API.",
    "A game id is 1 to {max} characters.": "Un id de partida tiene de 1 a {max} caracteres.",
    "A player id is 1 to {max} characters.": "Un id de jugador tiene de 1 a {max} caracteres.",
    # the rules (engine/)
    "It is seat {seat}'s turn.": "Es el turno del asiento {seat}.",
    "Your turn timed out; it is being finished for you.": (
        "Se acabó el tiempo de tu turno; se está terminando por ti."
    ),
    "The game is not in progress.": "La partida no está en juego.",
    "The seat on turn has a choice to make.": "El asiento en turno tiene una elección que hacer.",
    "A pre-move line names the moves of the other seats: seat {seat} is not one.": (
        "Una línea de jugadas previas nombra jugadas de los otros asientos: el {seat} no es uno."
    ),
    "A play in a pre-move line names its tile; a draw or a pass none.": (
        "Una jugada en una línea de jugadas previas nombra su ficha; robar o pasar, ninguna."
    ),
    "That tile is not in your hand.": "Esa ficha no está en tu mano.",
    "You must lead with the tile that made you the opener.": (
        "Debes salir con la ficha que te dio la salida."
    ),
    "You hold a tile you can play: you must play it.": (
        "Tienes una ficha que puedes jugar: debes jugarla."
    ),
    "There is nothing you can draw.": "No hay nada que puedas robar.",
    "You can play or draw, so you cannot pass.": "Puedes jugar o robar, así que no puedes pasar.",
    "That tile does not fit that end.": "Esa ficha no encaja en ese extremo.",
    "That tile fits no open end.": "Esa ficha no encaja en ningún extremo abierto.",
    "That tile fits more than one end: say which end.": (
        "Esa ficha encaja en más de un extremo: di en cuál."
    ),
    "A play needs a tile.": "Una jugada necesita una ficha.",
    "That tile is not in the double-{set} set.": "Esa ficha no está en el juego del doble {set}.",
    "A {layout} layout has no such end; its ends are: {ends}.": (
        "La mesa {layout} no tiene ese extremo; sus extremos son: {ends}."
    ),
    "A move is a play, a draw, a pass or a cede.": (
        "Un movimiento es jugar, robar, pasar o ceder la salida."
    ),
    "Only the seat offered the lead may cede it, before any tile.": (
        "Solo el asiento al que se ofrece la salida puede cederla, antes de la primera ficha."
    ),
    "deal.lot needs rules that draw a lot (opening lot or pair_lot).": (
        "deal.lot necesita reglas que sorteen la salida (opening lot o pair_lot)."
    ),
    "deal.lot must be a seat, 0 to {max}.": "deal.lot debe ser un asiento, de 0 a {max}.",
    "The seed must be a whole number.": "La semilla debe ser un número entero.",
    "No deal satisfies the opening rule: change the rules.": (
        "Ningún reparto cumple la regla de salida: cambia las reglas."
    ),
    "There is no such seat.": "Ese asiento no existe.",
    "on_timeout must be auto or forfeit.": "on_timeout debe ser auto o forfeit.",
    "bot_level must be one of: {allowed}.": "bot_level debe ser uno de: {allowed}.",
    "There is no double-{set} set.": "No existe el juego del doble {set}.",
    "A tile is written as text: two numbers joined by a hyphen.": (
        "Una ficha se escribe como texto: dos números unidos por un guion."
    ),
    "A tile is written as two numbers joined by a hyphen.": (
        "Una ficha se escribe como dos números unidos por un guion."
    ),
    "rules.{field} must be one of: {allowed}.": "rules.{field} debe ser uno de: {allowed}.",
    "rules.set must be 6, 9, 12 or 15.": "rules.set debe ser 6, 9, 12 o 15.",
    "rules.{field} gives no value for {players} players.": (
        "rules.{field} no da valor para {players} jugadores."
    ),
    "rules.{field} must be a whole number from {min} to 136.": (
        "rules.{field} debe ser un número entero de {min} a 136."
    ),
    "rules.unit must be 1 or 10.": "rules.unit debe ser 1 o 10.",
    "rules.{field} must be null or a whole number from 1 to 1000000.": (
        "rules.{field} debe ser null o un número entero de 1 a 1000000."
    ),
    "rules.{field} is not a rules field.": "rules.{field} no es un campo de las reglas.",
    "There is no such preset: GET /rules lists them.": (
        "Esa modalidad no existe: GET /rules las enumera."
    ),
    "{preset} is played by {min} to {max} players.": (
        "{preset} se juega de {min} a {max} jugadores."
    ),
    "rules must be an object of field overrides.": (
        "rules debe ser un objeto con los campos que cambian."
    ),
    "rules.players must equal the game's player count.": (
        "rules.players debe ser igual al número de jugadores de la partida."
    ),
    "A game has 2 to 15 players.": "Una partida tiene de 2 a 15 jugadores.",
    "{players} hands of {hand_size} need {needed} tiles; double-{set} has {total}.": (
        "{players} manos de {hand_size} necesitan {needed} fichas; el doble {set} tiene {total}."
    ),
    "The reserve ({reserve}) is larger than the {left} tiles left.": (
        "La reserva ({reserve}) es mayor que las {left} fichas que quedan."
    ),
    "Pairs are played by exactly 4 players.": "Por parejas se juega con 4 jugadores exactamente.",
    "opening pair_lot and next_round winning_pair are played in pairs.": (
        "opening pair_lot y next_round winning_pair se juegan por parejas."
    ),
    "Every deal hands out {count} doubles: redeal_doubles {max} would deal for ever.": (
        "Todo reparto da {count} dobles: con redeal_doubles {max} se repartiría sin fin."
    ),
    "rules.redeal_doubles must be null or a whole number from 2 to 16.": (
        "rules.redeal_doubles debe ser null o un número entero de 2 a 16."
    ),
    "rules.round_to must be null or 5.": "rules.round_to debe ser null o 5.",
    "Trains are played without teams and open with the engine.": (
        "Los trenes se juegan sin parejas y se abren con la máquina."
    ),
    "opening engine sets the station of a trains layout.": (
        "opening engine coloca la máquina en la estación de una mesa de trenes."
    ),
    "A double waits to be satisfied: play on it first.": (
        "Hay un doble sin cubrir: juega primero sobre él."
    ),
    "That train is not open to you.": "Ese tren no está abierto para ti.",
    "That tile does not fit that train.": "Esa ficha no encaja en ese tren.",
    "That tile fits no train open to you.": "Esa ficha no encaja en ningún tren abierto para ti.",
    "That tile fits more than one train: say which.": (
        "Esa ficha encaja en más de un tren: di en cuál."
    ),
    "in_play {in_play} counts the ends of a line or a spinner, not a {layout}.": (
        "in_play {in_play} cuenta los extremos de una línea o de un spinner, no de {layout}."
    ),
    "A {layout} opens with a double: opening lot is not possible.": (
        "La mesa {layout} se abre con un doble: opening lot no es posible."
    ),
    "A {layout} opens with a double: next_round {next_round} is not possible.": (
        "La mesa {layout} se abre con un doble: next_round {next_round} no es posible."
    ),
    "A {layout} opens with a double: no_double must be reshuffle.": (
        "La mesa {layout} se abre con un doble: no_double debe ser reshuffle."
    ),
    "Penalty scoring applies to both out_scoring and block_scoring.": (
        "La puntuación penalty se aplica a out_scoring y a block_scoring a la vez."
    ),
    "match target needs a target.": "match target necesita un target.",
    "match rounds needs a number of rounds.": "match rounds necesita un número de rondas.",
    "block_winner is not valid for these rules.": "block_winner no es válido con estas reglas.",
    "deal must be an object with hands (a list of tiles per seat) and boneyard.": (
        "deal debe ser un objeto con hands (una lista de fichas por asiento) y boneyard."
    ),
    "deal.hands must hold {count} hands.": "deal.hands debe tener {count} manos.",
    "Each hand of the deal must hold {count} tiles.": (
        "Cada mano del reparto debe tener {count} fichas."
    ),
    "The deal holds a tile twice.": "El reparto tiene una ficha dos veces.",
    "deal.boneyard must be a list of tiles.": "deal.boneyard debe ser una lista de fichas.",
    "The deal must hold every tile of the double-{set} set once.": (
        "El reparto debe tener cada ficha del doble {set} una vez."
    ),
}

_CATALOGUES: dict[str, dict[str, str]] = {"en": {}, "es": SPANISH}


def negotiate(accept_language: str | None) -> str:
    """The language of ``LANGUAGES`` that ``Accept-Language`` prefers (RFC 9110 12.5.4: the
    highest weight wins, ties in the header's order; ``es-MX`` counts as ``es``); English when
    the header is absent or names neither."""
    best, best_weight = LANGUAGES[0], 0.0
    for item in (accept_language or "")[:500].split(",")[:20]:
        tag, _, rest = item.strip().partition(";")
        primary = tag.strip().lower().split("-")[0]
        weight = 1.0
        for param in rest.split(";"):
            name, _, value = param.strip().partition("=")
            if name.strip().lower() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        if primary in LANGUAGES and 0 < weight <= 1 and weight > best_weight:
            best, best_weight = primary, weight
    return best


def translator(language: str) -> Callable[[str], str]:
    """A template's translation into ``language`` (the template itself when there is none)."""
    catalogue = _CATALOGUES.get(language, {})
    return lambda template: catalogue.get(template, template)
