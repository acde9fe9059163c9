"""Lambda's event filtering: whether a stream record passes a function's FilterCriteria."""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

_NUMERIC_OPS: dict[str, Callable[[float, float], bool]] = {
    "<": operator.lt,
    "<=": operator.le,
    "=": operator.eq,
    ">": operator.gt,
    ">=": operator.ge,
}


def matches(pattern: dict[str, Any], record: dict[str, Any]) -> bool:
    """Whether ``record`` (a Lambda stream record) matches one Lambda event-filter pattern.

    The subset of Lambda's (EventBridge's) pattern language the template needs:

    - an object in the pattern descends into the same key of the record; every key must match;
    - a leaf is a list of matchers, any of which may match (OR):
      a literal string, number, bool or null (JSON equality: ``3`` does not match ``"3"``);
      ``{"exists": true|false}`` (present as a non-object value, or not);
      ``{"prefix": "..."}``; ``{"anything-but": value or [values]}``;
      ``{"numeric": [op, number, ...]}`` with op in ``< <= = > >=``, all of them holding;
    - a record value that is a list matches when any of its items does;
    - a key missing from the record fails every matcher but ``{"exists": false}``.

    Numeric matchers also accept the number strings of typed ``"N"`` values (``{"N": "3"}``):
    Lambda compares JSON numbers only, so such a filter may match less when deployed.
    Unsupported operators raise ValueError (``check_pattern`` finds them up front).
    """
    for key, want in pattern.items():
        present = key in record
        value = record.get(key)
        if isinstance(want, dict):
            if not matches(want, value if isinstance(value, dict) else {}):
                return False
        elif isinstance(want, list):
            if not any(_matcher(m, present, value, key == "N") for m in want):
                return False
        else:
            raise ValueError(f"pattern value of {key!r} must be an object or a list")
    return True


def _matcher(matcher: Any, present: bool, value: Any, typed_number: bool) -> bool:
    if not isinstance(matcher, dict):
        return present and any(_equal(v, matcher) for v in _leaves(value))
    if len(matcher) != 1:
        raise ValueError(f"a matcher has exactly one operator: {matcher!r}")
    ((op, arg),) = matcher.items()
    if op == "exists":
        return (present and not isinstance(value, dict)) == bool(arg)
    if not present:
        return False
    leaves = _leaves(value)
    if op == "prefix":
        return any(isinstance(v, str) and v.startswith(arg) for v in leaves)
    if op == "anything-but":
        excluded = arg if isinstance(arg, list) else [arg]
        return any(not any(_equal(v, e) for e in excluded) for v in leaves)
    if op == "numeric":
        return any(_numeric(arg, v, typed_number) for v in leaves)
    raise ValueError(f"unsupported filter operator {op!r}")


def _leaves(value: Any) -> list[Any]:
    items = value if isinstance(value, list) else [value]
    return [v for v in items if not isinstance(v, dict)]  # objects are never leaves


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _equal(value: Any, literal: Any) -> bool:
    if _is_number(value) and _is_number(literal):
        return float(value) == float(literal)
    return type(value) is type(literal) and value == literal


def _numeric(conditions: list[Any], value: Any, typed_number: bool) -> bool:
    if _is_number(value):
        number = float(value)
    elif typed_number and isinstance(value, str):
        try:
            number = float(value)
        except ValueError:
            return False
    else:
        return False
    pairs = zip(conditions[::2], conditions[1::2], strict=True)
    return all(_NUMERIC_OPS[op](number, float(bound)) for op, bound in pairs)


def check_pattern(pattern: Any, where: str = "filter") -> None:
    """Raise ValueError if ``pattern`` uses what ``matches`` does not implement."""
    if not isinstance(pattern, dict):
        raise ValueError(f"{where}: a pattern is a JSON object")
    for key, want in pattern.items():
        if isinstance(want, dict):
            check_pattern(want, f"{where}.{key}")
            continue
        if not isinstance(want, list):
            raise ValueError(f"{where}.{key}: expected an object or a list")
        for matcher in want:
            if not isinstance(matcher, dict):
                if isinstance(matcher, list):
                    raise ValueError(f"{where}.{key}: nested lists are not matchers")
                continue
            if len(matcher) != 1:
                raise ValueError(f"{where}.{key}: one operator per matcher: {matcher!r}")
            ((op, arg),) = matcher.items()
            if op not in ("exists", "prefix", "anything-but", "numeric"):
                raise ValueError(f"{where}.{key}: unsupported filter operator {op!r}")
            if not _valid_argument(op, arg):
                raise ValueError(f"{where}.{key}: bad argument for {op!r}: {arg!r}")


def _valid_argument(op: str, arg: Any) -> bool:
    if op == "exists":
        return isinstance(arg, bool)
    if op == "prefix":
        return isinstance(arg, str)
    if op == "anything-but":
        return not isinstance(arg, dict)
    return (
        isinstance(arg, list)
        and len(arg) > 0
        and len(arg) % 2 == 0
        and all(o in _NUMERIC_OPS for o in arg[::2])
        and all(_is_number(n) for n in arg[1::2])
    )
