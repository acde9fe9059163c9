"""Lambda's event filtering: whether a stream record passes a function's FilterCriteria.

The rules are AWS's, as "Control which events Lambda sends to your function" documents them
(https://docs.aws.amazon.com/lambda/latest/dg/invocation-eventfiltering.html, "Filter rule
syntax"; Lambda "supports the same set of syntax and rules as Amazon EventBridge"):

============================  ===========================================================
rule                          pattern (a leaf of the pattern is always a list)
============================  ===========================================================
Null                          ``"UserID": [null]``: the value is JSON null (not missing)
Empty                         ``"LastName": [""]``: the value is the empty string
Equals                        ``"Name": ["Alice"]``: character by character, no case folding;
                              numbers by their JSON form (``300`` is not ``300.0``)
Equals (ignore case)          ``"Name": [{"equals-ignore-case": "alice"}]``
Or                            ``"PaymentType": ["Credit", "Debit"]``: any matcher of the list
And                           ``"Location": [...], "Day": [...]``: every key of the pattern
Not                           ``"Weather": [{"anything-but": ["Raining"]}]`` (or one value)
Numeric (equals, range)       ``"Price": [{"numeric": [">", 10, "<=", 20]}]``: JSON numbers
Exists / Does not exist       ``"ProductName": [{"exists": true}]`` / ``false``
Begins with / Ends with       ``"Region": [{"prefix": "us-"}]`` / ``[{"suffix": ".png"}]``
============================  ===========================================================

An object in the pattern descends into the same key of the record (a DynamoDB filter names the
attribute type: ``{"dynamodb": {"NewImage": {"status": {"S": ["playing"]}}}}``). A value that
is a list in the record (``SS``, ``NS``) matches when any of its items does. Only leaves exist:
``exists`` is false for an object (Lambda's DynamoDB page: the operator "only works on leaf
nodes"). A key missing from the record fails every matcher but ``{"exists": false}``.
Several filters of one function are ORed (``StreamSource.passes``).

Not implemented, and refused by ``check_pattern`` when the template loads (so that a filter
the runtime cannot apply stops ``make run`` instead of letting records through or dropping
them silently): ``$or`` (use several filters, which Lambda ORs), ``wildcard``, ``cidr``,
``anything-but`` with a nested operator, and ``numeric`` under a DynamoDB ``N``: the stream
record carries a number attribute as a string (``{"N": "3"}``) and numeric matching applies
to JSON numbers only, so such a filter would never match when deployed.
"""

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
_STRING_OPS = ("prefix", "suffix", "equals-ignore-case")
OPERATORS = ("exists", "anything-but", "numeric", *_STRING_OPS)


def matches(pattern: dict[str, Any], record: dict[str, Any]) -> bool:
    """Whether ``record`` (a Lambda stream record) matches one event-filter ``pattern``.

    Unsupported operators raise ValueError (``check_pattern`` finds them up front).
    """
    for key, want in pattern.items():
        present = key in record
        value = record.get(key)
        if isinstance(want, dict):
            if not matches(want, value if isinstance(value, dict) else {}):
                return False
        elif isinstance(want, list):
            if not any(_matcher(m, present, value) for m in want):
                return False
        else:
            raise ValueError(f"pattern value of {key!r} must be an object or a list")
    return True


def _matcher(matcher: Any, present: bool, value: Any) -> bool:
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
    if op == "suffix":
        return any(isinstance(v, str) and v.endswith(arg) for v in leaves)
    if op == "equals-ignore-case":
        return any(isinstance(v, str) and v.casefold() == arg.casefold() for v in leaves)
    if op == "anything-but":
        excluded = arg if isinstance(arg, list) else [arg]
        return any(not any(_equal(v, e) for e in excluded) for v in leaves)
    if op == "numeric":
        return any(_numeric(arg, v) for v in leaves)
    raise ValueError(f"unsupported filter operator {op!r}")


def _leaves(value: Any) -> list[Any]:
    items = value if isinstance(value, list) else [value]
    return [v for v in items if not isinstance(v, dict)]  # objects are never leaves


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _equal(value: Any, literal: Any) -> bool:
    """JSON equality by form: a string never equals a number, nor ``1`` the bool ``true``, nor
    ``300`` the number ``300.0`` (Lambda compares numbers by their string representation)."""
    return type(value) is type(literal) and value == literal


def _numeric(conditions: list[Any], value: Any) -> bool:
    if not _is_number(value):
        return False  # numeric matching is for JSON numbers, never for strings of digits
    pairs = zip(conditions[::2], conditions[1::2], strict=True)
    return all(_NUMERIC_OPS[op](float(value), float(bound)) for op, bound in pairs)


def check_pattern(pattern: Any, where: str = "filter") -> None:
    """Raise ValueError if ``pattern`` uses what ``matches`` does not implement, or what could
    never match a DynamoDB stream record when deployed."""
    if not isinstance(pattern, dict):
        raise ValueError(f"{where}: a pattern is a JSON object")
    for key, want in pattern.items():
        if key.startswith("$"):
            raise ValueError(
                f"{where}.{key}: not implemented locally (for an OR across fields, give the "
                "function several filters: Lambda ORs them)"
            )
        if isinstance(want, dict):
            check_pattern(want, f"{where}.{key}")
            continue
        if not isinstance(want, list):
            raise ValueError(f"{where}.{key}: expected an object or a list")
        for matcher in want:
            if isinstance(matcher, list):
                raise ValueError(f"{where}.{key}: nested lists are not matchers")
            if not isinstance(matcher, dict):
                continue
            if len(matcher) != 1:
                raise ValueError(f"{where}.{key}: one operator per matcher: {matcher!r}")
            ((op, arg),) = matcher.items()
            if op not in OPERATORS:
                raise ValueError(f"{where}.{key}: unsupported filter operator {op!r}")
            if not _valid_argument(op, arg):
                raise ValueError(f"{where}.{key}: bad argument for {op!r}: {arg!r}")
            if op == "numeric" and key == "N":
                raise ValueError(
                    f"{where}.{key}: a DynamoDB number is a string in the stream record "
                    f'({{"N": "3"}}) and numeric matching is for JSON numbers: deployed, this '
                    "filter would never match"
                )


def _valid_argument(op: str, arg: Any) -> bool:
    if op == "exists":
        return isinstance(arg, bool)
    if op in _STRING_OPS:
        return isinstance(arg, str)
    if op == "anything-but":
        values = arg if isinstance(arg, list) else [arg]
        return bool(values) and not any(isinstance(v, dict | list) for v in values)
    return (
        isinstance(arg, list)
        and len(arg) > 0
        and len(arg) % 2 == 0
        and all(o in _NUMERIC_OPS for o in arg[::2])
        and all(_is_number(n) for n in arg[1::2])
    )
