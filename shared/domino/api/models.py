"""Request bodies, validated at the edge and bounded so that bad input is a clear 400.

Each body is a pydantic-core schema: the validator that pydantic's ``BaseModel`` compiles to,
written out. Validation, error types and messages are pydantic's; what a function does not load
is pydantic's model machinery (``BaseModel``, field introspection, schema generation), 30-60 ms of
every cold start (docs/decisions.md, "Request bodies"). A validated body is an instance of its
class, fields as attributes, as a model would be.
"""

from __future__ import annotations

import json
import re
import string
from collections.abc import Callable, Iterable
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import Any, ClassVar, Generic, TypeVar

from pydantic_core import (
    CoreConfig,
    ErrorDetails,
    PydanticCustomError,
    SchemaValidator,
    ValidationError,
)
from pydantic_core import core_schema as cs

from domino.api.errors import InvalidRequest, Part
from domino.api.messages import VALIDATION
from domino.engine import DEFAULT_LEVEL, LEVELS
from domino.engine.premoves import ACTIONS as PREMOVE_ACTIONS
from domino.engine.premoves import MAX_IF, MAX_LINES
from domino.limits import (
    DEVICE_ID,
    LOCALE_TAG,
    MAX_LOCALE,
    MAX_NAME,
    MAX_NOTE,
    MAX_PLAYER_ID,
    display_name,
    hidden,
)
from domino.service.names import offensive
from domino.service.notices import NOTIFICATION_TYPES
from domino.service.quiet import CLOCK_TIME, MAX_ZONE, QuietHours, zone
from domino.service.values import (
    CEDE_LEAD,
    DRAW_TILE,
    EMOTES,
    LEAVE,
    PASS_TURN,
    REASONS,
    ChangeName,
    MakeMove,
    MarkRead,
    NewGame,
    NewTicket,
    RegisterDevice,
    ReportPlayer,
    SendEmote,
    TakeSeat,
)

__all__ = [
    "CEDE_LEAD",
    "DRAW_TILE",
    "LEAVE",
    "PASS_TURN",
    "CreateGame",
    "Deal",
    "EmoteBody",
    "JoinGame",
    "OpenTicket",
    "PlayTile",
    "ReadNotifications",
    "RegisterDeviceBody",
    "ReportBody",
    "Request",
    "UpdateMeBody",
    "check_device_id",
    "check_empty",
    "empty_body",
    "invalid_request",
    "parse_if_match",
    "utc_second",
]

Command = TypeVar("Command")
#: a tile as the API writes it: two numbers without leading zeros or spaces ("3-5", "12-0")
TILE_TEXT = re.compile(r"(?:0|[1-9][0-9]?)-(?:0|[1-9][0-9]?)")
#: strings are taken as sent ("preset": " clasico" is no preset); names strip their own spaces
#: a push token as APNs (hex) and FCM (letters, digits, ``_ : -``) write them: visible ASCII.
#: A control character would reach SNS's XML and break it (schemathesis found it: a 500)
PUSH_TOKEN = r"^[!-~]{1,4096}$"
_CONFIG = CoreConfig(str_strip_whitespace=False)
_REQUIRED = object()


def invalid_request(errors: Iterable[ErrorDetails]) -> InvalidRequest:
    """One 400 ``invalid_request`` naming the failing fields (of a body, or of the query as
    ``query.<name>``), one sentence each in the API's words (api/messages.py), from pydantic's
    error list: the one formatter of validation messages."""
    fields: list[str] = []
    parts: list[Part] = []
    for e in list(errors)[:5]:
        if e.get("type") == "json_invalid":
            parts.append(("The body is not valid JSON.", {}))
            continue
        where = ".".join(str(p) for p in e.get("loc", ()) if p != "body")
        fields.append(where)
        parts.append(_sentence(e, where.removeprefix("query.") or "body"))
    return InvalidRequest.of(parts or [("The request is not valid.", {})], fields)


def _sentence(error: ErrorDetails, field: str) -> Part:
    kind = error.get("type", "")
    context = error.get("ctx") or {}
    params: dict[str, Any] = {"field": field}
    for name in ("ge", "gt", "le", "lt", "min_length", "max_length"):
        if name in context:
            params[name] = context[name]
    if "expected" in context:  # "'auto' or 'forfeit'": the choices, in no language
        params["expected"] = re.findall(r"'([^']*)'", str(context["expected"]))
    template = VALIDATION.get(kind, VALIDATION["invalid"])
    missing = {name for _, name, _, _ in string.Formatter().parse(template) if name} - set(params)
    return (VALIDATION["invalid"], {"field": field}) if missing else (template, params)


def name_text() -> cs.CoreSchema:
    """A display name: its surrounding spaces dropped, then 1 to MAX_NAME characters."""
    return cs.str_schema(min_length=1, max_length=MAX_NAME, strip_whitespace=True)


def text(min_length: int, max_length: int) -> cs.CoreSchema:
    return cs.str_schema(min_length=min_length, max_length=max_length)


def optional(schema: cs.CoreSchema) -> cs.CoreSchema:
    return cs.nullable_schema(schema)


def one_of(*values: str) -> cs.CoreSchema:
    return cs.literal_schema(list(values))


def whole(ge: int, le: int) -> cs.CoreSchema:
    """An integer; strict, so that ``true``, ``2.0`` and ``"2"`` are refused, not coerced."""
    return cs.int_schema(ge=ge, le=le, strict=True)


class Request(Generic[Command]):
    """A validated request body; subclasses declare ``FIELDS``: name -> (schema, default), and
    ``COMMAND``, the service's command that ``parse`` returns (its fields are ``FIELDS``)."""

    # what pydantic-core's model schema sets on an instance
    __slots__ = (
        "__dict__",
        "__pydantic_extra__",
        "__pydantic_fields_set__",
        "__pydantic_private__",
    )
    FIELDS: ClassVar[dict[str, tuple[cs.CoreSchema, Any]]]
    COMMAND: ClassVar[Callable[..., Any] | None] = None
    #: read by pydantic's JSON Schema generator (tests/test_openapi.py checks docs/openapi.yaml)
    model_config: ClassVar[dict[str, Any]] = {}
    _validator: ClassVar[SchemaValidator]

    def __init_subclass__(cls) -> None:
        cls._validator = SchemaValidator(cls.schema())

    @classmethod
    def schema(cls) -> cs.CoreSchema:
        fields = {
            name: cs.model_field(
                schema if default is _REQUIRED else cs.with_default_schema(schema, default=default)
            )
            for name, (schema, default) in cls.FIELDS.items()
        }
        return cs.model_schema(
            cls,
            cs.model_fields_schema(fields, model_name=cls.__name__, extra_behavior="forbid"),
            config=_CONFIG,
        )

    @classmethod
    def required(cls) -> set[str]:
        return {name for name, (_, default) in cls.FIELDS.items() if default is _REQUIRED}

    @classmethod
    def validate(cls, raw: str | None) -> Request[Command]:
        """Validate a raw JSON body (an empty body counts as ``{}``)."""
        try:
            body: Request[Command] = cls._validator.validate_json(
                raw if raw and raw.strip() else "{}"
            )
        except ValidationError as err:
            raise invalid_request(err.errors()) from None
        return body

    @classmethod
    def parse(cls, raw: str | None) -> Command:
        """The service's command from a raw JSON body."""
        assert cls.COMMAND is not None
        command: Command = cls.COMMAND(**cls.validate(raw).fields(exclude_none=False))
        return command

    def fields(self, *, exclude_none: bool = False) -> dict[str, Any]:
        """The fields as a dict (nested bodies too)."""
        out = {}
        for name in self.FIELDS:
            value = getattr(self, name)
            if isinstance(value, Request):  # a nested body: only the fields it was given
                value = value.fields(exclude_none=True)
            if value is not None or not exclude_none:
                out[name] = value
        return out

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in vars(self).items())})"


def _tile_text(value: str) -> str:
    # whether the tile is in the game's set is the engine's check
    if not TILE_TEXT.fullmatch(value):
        raise PydanticCustomError("tile_text", "a tile is two numbers joined by a hyphen")
    return value


def _display_text(value: str) -> str:
    shown = display_name(value)
    if shown is None and any(hidden(char) for char in value):
        raise PydanticCustomError(
            "display_text", "a name holds no control characters or direction overrides"
        )
    if shown is None:
        raise PydanticCustomError("blank_name", "a name shows at least one visible character")
    if offensive(shown):  # loads the word lists at the first name checked (~3 ms)
        raise PydanticCustomError("offensive_name", "a name holds no offensive word")
    return shown


def name_schema() -> cs.CoreSchema:
    """A name shown to other players: 1 to MAX_NAME characters once trimmed, as
    ``domino.limits.display_name`` takes them (no control characters or direction overrides,
    something visible), the rule of every name."""
    return cs.no_info_after_validator_function(_display_text, name_text())


class Deal(Request[dict[str, Any]]):
    hands: list[list[str]] | None
    by_seat: dict[str, list[str]] | None
    boneyard: list[str] | None
    lot: int | None
    FIELDS = {
        # the hands, or only ``lot`` (what the lot draws, for rules that draw one)
        "hands": (optional(cs.list_schema(cs.list_schema(cs.str_schema()), max_length=10)), None),
        # or a record's deal: the tiles by seat ("0", "1", ...)
        "by_seat": (
            optional(
                cs.dict_schema(
                    cs.str_schema(pattern="^[0-9]$"),
                    cs.list_schema(cs.str_schema(), max_length=28),
                    max_length=10,
                )
            ),
            None,
        ),
        "boneyard": (optional(cs.list_schema(cs.str_schema(), max_length=136)), None),
        "lot": (optional(whole(0, 9)), None),
    }


class CreateGame(Request[NewGame]):
    COMMAND = NewGame
    preset: str
    players: int
    rules: dict[str, Any] | None
    bots: int
    bot_level: str
    name: str | None
    turn_timeout_hours: float | None
    on_timeout: str
    private: bool
    deal: Deal | None
    seed: int | None
    invite: list[str] | None
    FIELDS = {
        "preset": (text(1, 40), _REQUIRED),
        "players": (whole(2, 10), _REQUIRED),
        "rules": (optional(cs.dict_schema(cs.str_schema(), cs.any_schema(), max_length=30)), None),
        "bots": (whole(0, 9), 0),
        "bot_level": (one_of(*LEVELS), DEFAULT_LEVEL),
        "name": (optional(name_schema()), None),
        "turn_timeout_hours": (optional(cs.float_schema(ge=0.01, le=24 * 30, strict=True)), None),
        "on_timeout": (one_of("auto", "forfeit"), "auto"),
        "private": (cs.bool_schema(strict=True), False),
        "deal": (optional(Deal.schema()), None),
        "seed": (optional(whole(0, 2**63 - 1)), None),
        # the people whose seats are reserved (the service checks the count, the creator and
        # repeats against the game)
        "invite": (
            optional(cs.list_schema(text(1, MAX_PLAYER_ID), max_length=9)),
            None,
        ),
    }


class OpenTicket(Request[NewTicket]):
    COMMAND = NewTicket
    preset: str
    players: int
    ranked: bool
    wait_s: int | None
    turn_timeout_hours: float | None
    on_timeout: str
    FIELDS = {
        "preset": (text(1, 40), _REQUIRED),
        "players": (whole(2, 10), _REQUIRED),
        "ranked": (cs.bool_schema(strict=True), True),
        "wait_s": (optional(whole(0, 86_400)), 60),  # null: people only
        "turn_timeout_hours": (optional(cs.float_schema(ge=0.01, le=24 * 30, strict=True)), None),
        "on_timeout": (one_of("auto", "forfeit"), "auto"),
    }


class JoinGame(Request[TakeSeat]):
    COMMAND = TakeSeat
    seat: int | None
    name: str | None
    FIELDS = {
        "seat": (optional(whole(0, 9)), None),
        "name": (optional(name_schema()), None),
    }


class PlayTile(Request[MakeMove]):
    tile: str
    end: str | None
    FIELDS = {
        "tile": (cs.no_info_after_validator_function(_tile_text, text(3, 7)), _REQUIRED),
        "end": (optional(text(1, 12)), None),
    }

    COMMAND = partial(MakeMove, "play")


class RegisterDeviceBody(Request[RegisterDevice]):
    COMMAND = RegisterDevice
    platform: str
    token: str
    locale: str | None
    FIELDS = {
        "platform": (one_of("apns", "apns_sandbox", "fcm"), _REQUIRED),
        "token": (cs.str_schema(pattern=PUSH_TOKEN, max_length=4096), _REQUIRED),
        # a BCP 47-shaped tag: no control characters, newlines or direction controls stored
        "locale": (optional(cs.str_schema(pattern=f"^{LOCALE_TAG}$", max_length=MAX_LOCALE)), None),
    }


def _clock_time(value: str) -> str:
    if not CLOCK_TIME.fullmatch(value):
        raise PydanticCustomError("clock_time", "a time of day is HH:MM")
    return value


def _zone_name(value: str) -> str:
    if zone(value) is None:
        raise PydanticCustomError("time_zone", "an IANA time zone, like Europe/Madrid")
    return value


def _window(value: dict[str, str]) -> QuietHours:
    window = QuietHours.parse(value)
    if window is None:  # each field passed: only an empty window is left
        raise PydanticCustomError("empty_window", "a window ends at another time")
    return window


def quiet_hours_schema() -> cs.CoreSchema:
    """``{"from": "22:00", "to": "08:00", "tz": "Europe/Madrid"}``: a daily window."""
    clock = cs.no_info_after_validator_function(_clock_time, text(5, 5))
    return cs.no_info_after_validator_function(
        _window,
        cs.typed_dict_schema(
            {
                "from": cs.typed_dict_field(clock),
                "to": cs.typed_dict_field(clock),
                "tz": cs.typed_dict_field(
                    cs.no_info_after_validator_function(_zone_name, text(1, MAX_ZONE))
                ),
            },
            extra_behavior="forbid",
        ),
    )


class UpdateMeBody(Request[ChangeName]):
    COMMAND = ChangeName
    name: str | None
    mute: list[str] | None
    locale: str | None
    auto_forced: bool | None
    quiet_hours: QuietHours | None
    FIELDS = {
        "name": (optional(name_schema()), None),
        # pushes held in a daily window of the player's time zone; null: none
        "quiet_hours": (optional(quiet_hours_schema()), None),
        # forced moves made at once for the player (docs/api.md "Correspondence comfort")
        "auto_forced": (optional(cs.bool_schema(strict=True)), None),
        # the player's one language (inbox, sockets, pushes); null forgets it
        "locale": (
            optional(cs.str_schema(pattern=f"^{LOCALE_TAG}$", max_length=MAX_LOCALE)),
            None,
        ),
        # the notification types not pushed to the player's devices (inbox and sockets still
        # get them); [] pushes every type again
        "mute": (
            optional(
                cs.list_schema(one_of(*NOTIFICATION_TYPES), max_length=len(NOTIFICATION_TYPES))
            ),
            None,
        ),
    }

    @classmethod
    def parse(cls, raw: str | None) -> ChangeName:
        body = cls.validate(raw)
        sent: set[str] = getattr(body, "__pydantic_fields_set__", set())
        locale = getattr(body, "locale", None)
        if locale is None and "locale" in sent:
            locale = ""  # null: forget the chosen language
        auto_forced = getattr(body, "auto_forced", None)
        quiet: QuietHours | None = getattr(body, "quiet_hours", None)
        quiet_sent = "quiet_hours" in sent  # null: no quiet hours any more
        if (
            getattr(body, "name", None) is None
            and getattr(body, "mute", None) is None
            and locale is None
            and auto_forced is None
            and not quiet_sent
        ):
            raise InvalidRequest(
                "Nothing to change: send name, mute, locale, auto_forced or quiet_hours.",
                ["name", "mute", "locale", "auto_forced", "quiet_hours"],
            )
        mute = getattr(body, "mute", None)
        # the order of NOTIFICATION_TYPES, each once
        muted = None if mute is None else tuple(t for t in NOTIFICATION_TYPES if t in mute)
        quiet_hours = (quiet.encoded() if quiet else "") if quiet_sent else None
        return ChangeName(getattr(body, "name", None), muted, locale, auto_forced, quiet_hours)


def _premove_move() -> cs.CoreSchema:
    """One move of a pre-move line's ``if``: another seat's play (tile, end), draw or pass."""
    return cs.typed_dict_schema(
        {
            "seat": cs.typed_dict_field(whole(0, 9)),
            "action": cs.typed_dict_field(one_of(*PREMOVE_ACTIONS)),
            "tile": cs.typed_dict_field(text(3, 7), required=False),
            "end": cs.typed_dict_field(optional(text(1, 12)), required=False),
        },
        extra_behavior="forbid",
    )


def _premove_line() -> cs.CoreSchema:
    reply = cs.typed_dict_schema(
        {
            "tile": cs.typed_dict_field(text(3, 7)),
            "end": cs.typed_dict_field(optional(text(1, 12)), required=False),
        },
        extra_behavior="forbid",
    )
    return cs.typed_dict_schema(
        {
            "if": cs.typed_dict_field(cs.list_schema(_premove_move(), max_length=MAX_IF)),
            "then": cs.typed_dict_field(reply),
        },
        extra_behavior="forbid",
    )


class PremovesBody(Request[list[dict[str, Any]]]):
    """``PUT /games/{id}/premoves``: at most 20 lines of at most 12 moves each."""

    lines: list[dict[str, Any]]
    FIELDS = {"lines": (cs.list_schema(_premove_line(), max_length=MAX_LINES), _REQUIRED)}

    @classmethod
    def parse(cls, raw: str | None) -> list[dict[str, Any]]:
        lines: list[dict[str, Any]] = getattr(cls.validate(raw), "lines")  # noqa: B009
        return lines


class EmoteBody(Request[SendEmote]):
    COMMAND = SendEmote
    emote: str
    FIELDS = {"emote": (one_of(*EMOTES), _REQUIRED)}


#: a game id as ``POST /players/{id}/reports`` takes it (the service's ids, bounded)
GAME_ID_PATTERN = r"^[A-Za-z0-9_-]{8,64}$"


class ReportBody(Request[ReportPlayer]):
    COMMAND = ReportPlayer
    reason: str
    game: str | None
    note: str | None
    FIELDS = {
        "reason": (one_of(*REASONS), _REQUIRED),
        "game": (optional(cs.str_schema(pattern=GAME_ID_PATTERN, max_length=64)), None),
        "note": (optional(text(0, MAX_NOTE)), None),
    }


class ReadNotifications(Request[MarkRead]):
    COMMAND = MarkRead
    until: str
    FIELDS = {"until": (text(1, 120), _REQUIRED)}


def empty_body(command: Command) -> Callable[[str | None], Command]:
    """A parser for commands without a body (draw, pass, leave): no body or ``{}`` is
    ``command``."""

    def parse(raw: str | None) -> Command:
        check_empty(raw)
        return command

    return parse


def check_device_id(device_id: str) -> str:
    """A ``{device_id}`` path parameter as ``domino.limits.DEVICE_ID`` takes them: ``.`` and
    ``..`` are refused with the rest (400 naming ``device_id``)."""
    if not DEVICE_ID.fullmatch(device_id):
        raise InvalidRequest(
            "device_id is 1-128 letters, digits or _ . : -, and neither . nor ..", ["device_id"]
        )
    return device_id


def check_empty(raw: str | None) -> None:
    if raw is None or not raw.strip():
        return
    try:
        parsed = json.loads(raw)
    except ValueError:
        raise InvalidRequest("The body is not valid JSON.") from None
    except RecursionError:  # nested deeper than the parser goes: certainly not {}
        parsed = None
    if parsed != {}:
        raise InvalidRequest("This request takes an empty JSON object: {}.")


#: an If-Match: a view's ETag (``"4-1"``, ``"4-p"``) or the bare version (``"4"``, ``4``),
#: weak or not; the viewer part is not checked (If-Match guards the version, docs/decisions.md)
IF_MATCH = re.compile(r'(?:W/)?("?)([0-9]{1,12})(?:-(?:[0-9]{1,3}|p))?\1', re.ASCII)


def parse_if_match(value: str) -> int:
    """The version an ``If-Match`` names (``"4-1"``, ``"4"``, ``W/"4"`` or ``4``)."""
    found = IF_MATCH.fullmatch(value.strip())
    if found is None:
        raise InvalidRequest('If-Match must be a game version like "4".')
    return int(found[2])


#: an RFC 3339 date-time (``2026-11-30T12:00:00Z``, ``2026-11-30T13:00:00.250+01:00``), ASCII
#: digits only: ``\d`` would take any script's digits (mathematical, fullwidth, Arabic-Indic)
RFC_3339 = re.compile(
    r"([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt]([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.[0-9]{1,9})?"
    r"(?:[Zz]|([+-])([0-9]{2}):([0-9]{2}))"
)


def rfc_3339(value: str) -> datetime:
    """An RFC 3339 time, in UTC, to the second below (times are kept in whole seconds, so
    "after 12:00:00.5" is "after 12:00:00"); a leap second reads as the second before it.
    ``ValueError`` for anything else."""
    found = RFC_3339.fullmatch(value)
    try:
        if found is None:
            raise ValueError(value)
        year, month, day, hour, minute, second = (int(found[n]) for n in range(1, 7))
        offset = timedelta(hours=int(found[8] or 0), minutes=int(found[9] or 0))
        if offset >= timedelta(hours=24) or int(found[9] or 0) > 59:
            raise ValueError(value)
        local = datetime(year, month, day, hour, minute, min(second, 59), tzinfo=UTC)
        return local - offset if found[7] == "+" else local + offset
    except OverflowError:
        raise ValueError(value) from None


def utc_second(value: str, field: str) -> str:
    """An RFC 3339 time as ``updated_at``'s form (``2026-11-30T12:00:00Z``); anything else is
    400 naming ``field``."""
    try:
        moment = rfc_3339(value)
    except ValueError:
        template = VALIDATION["datetime_from_date_parsing"]  # "... a time like 2026-..."
        raise InvalidRequest.of([(template, {"field": field})], [f"query.{field}"]) from None
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def _epoch(value: str) -> int:
    try:
        return int(rfc_3339(value).timestamp())
    except ValueError:
        raise PydanticCustomError(
            "datetime_from_date_parsing", "a time like 2026-11-30T12:00:00Z"
        ) from None


class VacationBody(Request[int]):
    """``PUT /me/vacation``: ``until``, an RFC 3339 time (whether it lies ahead, and within
    the budget, is the service's check)."""

    until: int
    FIELDS = {"until": (cs.no_info_after_validator_function(_epoch, text(20, 40)), _REQUIRED)}

    @classmethod
    def parse(cls, raw: str | None) -> int:
        until: int = getattr(cls.validate(raw), "until")  # noqa: B009
        return until
