"""The engine's exceptions. A message never names a hidden tile (it names no tile at all)."""

from __future__ import annotations


class DominoError(Exception):
    """Base of every domain error of the product: ``code`` is the API error code, ``message``
    a sentence for people. The HTTP edge maps codes to statuses in one place."""

    code = "internal"
    message: str

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class EngineError(DominoError):
    """Base class of the engine's errors."""

    code = "engine_error"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r})"


class InvalidInput(EngineError):
    """Malformed or impossible input (HTTP 400 ``invalid_request``)."""

    code = "invalid_request"


class IllegalMove(EngineError):
    """A well-formed move the rules refuse now (HTTP 422); ``code`` is one of ``CODES``."""

    CODES = (
        "not_your_turn",
        "game_not_in_progress",
        "tile_not_in_hand",
        "must_lead_opening_tile",
        "tile_does_not_match",
        "end_required",
        "must_play",
        "cannot_draw",
        "cannot_pass",
    )

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message, code)


class _Refusal(IllegalMove):
    def __init__(self, message: str) -> None:
        EngineError.__init__(self, message)


class GameNotInProgress(_Refusal):
    code = "game_not_in_progress"
