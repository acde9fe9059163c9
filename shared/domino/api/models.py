"""Request models: pydantic at the edge, bounded so that bad input is a clear 400."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from domino.api.errors import ApiError

if TYPE_CHECKING:
    from domino.api.identity import Caller

MAX_NAME = 40
TILE_TEXT = re.compile(r"[0-9]{1,2} *- *[0-9]{1,2}")


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


class Request(BaseModel):
    # defer_build: a function builds only the models it uses, on first use (cold starts)
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True, defer_build=True)

    @classmethod
    def parse(cls, raw: str | None) -> Self:
        """Validate a raw JSON body (an empty body counts as ``{}``)."""
        try:
            return cls.model_validate_json(raw if raw and raw.strip() else "{}")
        except ValidationError as err:
            raise invalid_request(err) from None


class Deal(Request):
    hands: list[list[str]] = Field(max_length=10)
    boneyard: list[str] | None = Field(default=None, max_length=136)


class CreateGame(Request):
    preset: str = Field(min_length=1, max_length=40)
    players: int = Field(ge=2, le=10)
    rules: dict[str, Any] | None = Field(default=None, max_length=30)
    bots: int = Field(default=0, ge=0, le=9)
    bot_level: Literal["random", "greedy", "strategist"] = "strategist"
    name: str | None = Field(default=None, min_length=1, max_length=MAX_NAME)
    turn_timeout_hours: float | None = Field(default=None, gt=0, le=24 * 30)
    on_timeout: Literal["auto", "forfeit"] = "auto"
    private: bool = False
    deal: Deal | None = None
    seed: int | None = Field(default=None, ge=0, lt=2**63)

    @field_validator("players", "bots", mode="before")
    @classmethod
    def whole_number(cls, value: Any) -> Any:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError("must be a whole number")
        return value

    def name_for(self, caller: Caller) -> str:
        """``name`` is the creator's display name at the table, as in a join."""
        return self.name or caller.name

    def deal_dict(self) -> dict[str, Any] | None:
        return self.deal.model_dump(exclude_none=True) if self.deal else None


class JoinGame(Request):
    seat: int | None = Field(default=None, ge=0, le=9, strict=True)
    name: str | None = Field(default=None, min_length=1, max_length=MAX_NAME)


class PlayTile(Request):
    tile: str = Field(min_length=3, max_length=7)
    end: str | None = Field(default=None, min_length=1, max_length=12)

    @field_validator("tile")
    @classmethod
    def tile_text(cls, value: str) -> str:
        # checked here so that the message gives no example tile (API.md: a message never
        # names a hidden tile); whether the tile is in the game's set is the engine's check
        if not TILE_TEXT.fullmatch(value):
            raise ValueError("a tile is two numbers joined by '-'")
        return value
