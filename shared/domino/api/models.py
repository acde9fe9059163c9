"""Request bodies, validated at the edge and bounded so that bad input is a clear 400.

Each body is a pydantic-core schema: the validator that pydantic's ``BaseModel`` compiles to,
written out. Validation, error types and messages are pydantic's; what a function does not load
is pydantic's model machinery (``BaseModel``, field introspection, schema generation), 30-60 ms of
every cold start (docs/decisions.md, "Request bodies"). A validated body is an instance of its
class, fields as attributes, as a model would be.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, ClassVar, Self

from pydantic_core import CoreConfig, SchemaValidator, ValidationError
from pydantic_core import core_schema as cs

from domino.api.errors import ApiError

if TYPE_CHECKING:
    from domino.api.identity import Caller

MAX_NAME = 40
TILE_TEXT = re.compile(r"[0-9]{1,2} *- *[0-9]{1,2}")
_CONFIG = CoreConfig(str_strip_whitespace=True)
_REQUIRED = object()


def invalid_request(err: ValidationError) -> ApiError:
    """One 400 ``invalid_request`` naming the failing fields."""
    fields, parts = [], []
    for e in err.errors()[:5]:
        where = ".".join(str(p) for p in e.get("loc", ()))
        if e.get("type") == "json_invalid":
            parts.append("The body is not valid JSON.")
            continue
        fields.append(where)
        parts.append(f"{where or 'body'}: {e.get('msg', 'invalid')}")
    return ApiError(
        "invalid_request", "; ".join(parts) or "The request is not valid.", fields=fields
    )


def text(min_length: int, max_length: int) -> cs.CoreSchema:
    return cs.str_schema(min_length=min_length, max_length=max_length)


def optional(schema: cs.CoreSchema) -> cs.CoreSchema:
    return cs.nullable_schema(schema)


def one_of(*values: str) -> cs.CoreSchema:
    return cs.literal_schema(list(values))


def whole(ge: int, le: int) -> cs.CoreSchema:
    """An integer; strict, so that ``true``, ``2.0`` and ``"2"`` are refused, not coerced."""
    return cs.int_schema(ge=ge, le=le, strict=True)


class Request:
    """A validated request body; subclasses declare ``FIELDS``: name -> (schema, default)."""

    # what pydantic-core's model schema sets on an instance
    __slots__ = (
        "__dict__",
        "__pydantic_extra__",
        "__pydantic_fields_set__",
        "__pydantic_private__",
    )
    FIELDS: ClassVar[dict[str, tuple[cs.CoreSchema, Any]]]
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
    def parse(cls, raw: str | None) -> Self:
        """Validate a raw JSON body (an empty body counts as ``{}``)."""
        try:
            body: Self = cls._validator.validate_json(raw if raw and raw.strip() else "{}")
        except ValidationError as err:
            raise invalid_request(err) from None
        return body

    def fields(self, *, exclude_none: bool = False) -> dict[str, Any]:
        """The fields as a dict (nested bodies too)."""
        out = {}
        for name in self.FIELDS:
            value = getattr(self, name)
            if isinstance(value, Request):
                value = value.fields(exclude_none=exclude_none)
            if value is not None or not exclude_none:
                out[name] = value
        return out

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in vars(self).items())})"


def _tile_text(value: str) -> str:
    # checked here so that the message gives no example tile (API.md: a message never names a
    # hidden tile); whether the tile is in the game's set is the engine's check
    if not TILE_TEXT.fullmatch(value):
        raise ValueError("a tile is two numbers joined by '-'")
    return value


class Deal(Request):
    hands: list[list[str]]
    boneyard: list[str] | None
    FIELDS = {
        "hands": (cs.list_schema(cs.list_schema(cs.str_schema()), max_length=10), _REQUIRED),
        "boneyard": (optional(cs.list_schema(cs.str_schema(), max_length=136)), None),
    }


class CreateGame(Request):
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
    FIELDS = {
        "preset": (text(1, 40), _REQUIRED),
        "players": (whole(2, 10), _REQUIRED),
        "rules": (optional(cs.dict_schema(cs.str_schema(), cs.any_schema(), max_length=30)), None),
        "bots": (whole(0, 9), 0),
        "bot_level": (one_of("random", "greedy", "strategist"), "strategist"),
        "name": (optional(text(1, MAX_NAME)), None),
        "turn_timeout_hours": (optional(cs.float_schema(gt=0, le=24 * 30)), None),
        "on_timeout": (one_of("auto", "forfeit"), "auto"),
        "private": (cs.bool_schema(), False),
        "deal": (optional(Deal.schema()), None),
        "seed": (optional(cs.int_schema(ge=0, le=2**63 - 1)), None),
    }

    def name_for(self, caller: Caller) -> str:
        """``name`` is the creator's display name at the table, as in a join."""
        return self.name or caller.name

    def deal_dict(self) -> dict[str, Any] | None:
        return self.deal.fields(exclude_none=True) if self.deal else None


class JoinGame(Request):
    seat: int | None
    name: str | None
    FIELDS = {
        "seat": (optional(whole(0, 9)), None),
        "name": (optional(text(1, MAX_NAME)), None),
    }


class PlayTile(Request):
    tile: str
    end: str | None
    FIELDS = {
        "tile": (cs.no_info_after_validator_function(_tile_text, text(3, 7)), _REQUIRED),
        "end": (optional(text(1, 12)), None),
    }
