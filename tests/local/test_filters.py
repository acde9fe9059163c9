"""The local runtime's event filter against AWS's documented rules, one rule per test.

Each test names the row of the "Filter rule syntax" table of AWS's page "Control which events
Lambda sends to your function" (LAMBDA_RULES) it checks, with the page's example pattern, or
the page the rule comes from when it is not that table.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from local.streams import check_pattern, matches, stream_sources
from local.template import Template

LAMBDA_RULES = "https://docs.aws.amazon.com/lambda/latest/dg/invocation-eventfiltering.html"
DDB_FILTERING = "https://docs.aws.amazon.com/lambda/latest/dg/with-ddb-filtering.html"
EVENTBRIDGE = (
    "https://docs.aws.amazon.com/eventbridge/latest/userguide/"
    "eb-event-patterns-content-based-filtering.html"
)


def test_null_matches_json_null_only() -> None:
    """LAMBDA_RULES, Null: "UserID": [ null ] (UserID is null)."""
    pattern = {"UserID": [None]}
    assert matches(pattern, {"UserID": None})
    assert not matches(pattern, {})  # missing is not null
    assert not matches(pattern, {"UserID": ""})
    assert not matches(pattern, {"UserID": "null"})


def test_empty_matches_the_empty_string_only() -> None:
    """LAMBDA_RULES, Empty: "LastName": [""] (LastName is empty)."""
    pattern = {"LastName": [""]}
    assert matches(pattern, {"LastName": ""})
    assert not matches(pattern, {"LastName": " "})
    assert not matches(pattern, {"LastName": None})
    assert not matches(pattern, {})


def test_equals_is_exact_character_by_character() -> None:
    """LAMBDA_RULES, Equals: "Name": [ "Alice" ]; and the page's note: "for strings, Lambda uses
    exact character-by-character matching without case-folding or any other string
    normalization"."""
    pattern = {"Name": ["Alice"]}
    assert matches(pattern, {"Name": "Alice"})
    assert not matches(pattern, {"Name": "alice"})
    assert not matches(pattern, {"Name": "Alice "})
    assert not matches(pattern, {"Name": "A\u0301lice"})  # no normalisation either


def test_equals_compares_json_values_by_type() -> None:
    """LAMBDA_RULES, Equals, with the note "For numbers, Lambda also uses string representation.
    For example, 300, 300.0, and 3.0e2 are not considered equal": a number is not its string,
    1 is not true, and 300 is not 300.0."""
    assert matches({"n": [300]}, {"n": 300})
    assert not matches({"n": [300]}, {"n": 300.0})
    assert not matches({"n": [300]}, {"n": "300"})
    assert not matches({"b": [True]}, {"b": 1})
    assert matches({"b": [True]}, {"b": True})


def test_equals_ignore_case() -> None:
    """LAMBDA_RULES, Equals (ignore case): "Name": [ { "equals-ignore-case": "alice" } ]."""
    pattern = {"Name": [{"equals-ignore-case": "alice"}]}
    assert matches(pattern, {"Name": "Alice"})
    assert matches(pattern, {"Name": "ALICE"})
    assert not matches(pattern, {"Name": "Alicia"})
    assert not matches(pattern, {"Name": 1})
    assert not matches(pattern, {})


def test_or_within_a_field() -> None:
    """LAMBDA_RULES, Or: "PaymentType": [ "Credit", "Debit"] (any value of the list); matchers
    of different kinds OR too."""
    pattern = {"PaymentType": ["Credit", "Debit"]}
    assert matches(pattern, {"PaymentType": "Credit"})
    assert matches(pattern, {"PaymentType": "Debit"})
    assert not matches(pattern, {"PaymentType": "Cash"})
    mixed = {"v": [{"numeric": ["<", 2]}, {"prefix": "x"}, None]}
    assert matches(mixed, {"v": 1})
    assert matches(mixed, {"v": "xy"})
    assert matches(mixed, {"v": None})
    assert not matches(mixed, {"v": 5})


def test_and_across_fields() -> None:
    """LAMBDA_RULES, And: "Location": [ "New York" ], "Day": ["Monday"]; and "For Lambda to
    consider the event a match, the event must contain all the field names included in a
    filter" (Lambda ignores the fields the filter does not name)."""
    pattern = {"Location": ["New York"], "Day": ["Monday"]}
    assert matches(pattern, {"Location": "New York", "Day": "Monday", "Other": 1})
    assert not matches(pattern, {"Location": "New York", "Day": "Tuesday"})
    assert not matches(pattern, {"Location": "New York"})


def test_not_anything_but() -> None:
    """LAMBDA_RULES, Not: "Weather": [ { "anything-but": [ "Raining" ] } ]; EVENTBRIDGE also
    allows a single value; a missing field is not "anything but"."""
    pattern = {"Weather": [{"anything-but": ["Raining"]}]}
    assert matches(pattern, {"Weather": "Sunny"})
    assert not matches(pattern, {"Weather": "Raining"})
    assert not matches(pattern, {})
    several = {"status": [{"anything-but": ["done", "abandoned"]}]}
    assert matches(several, {"status": "waiting"})
    assert not matches(several, {"status": "abandoned"})
    assert matches({"status": [{"anything-but": "done"}]}, {"status": "playing"})


def test_numeric_equals() -> None:
    """LAMBDA_RULES, Numeric (equals): "Price": [ { "numeric": [ "=", 100 ] } ] (numerically,
    so 100.0 is 100 here, unlike Equals)."""
    pattern = {"Price": [{"numeric": ["=", 100]}]}
    assert matches(pattern, {"Price": 100})
    assert matches(pattern, {"Price": 100.0})
    assert not matches(pattern, {"Price": 101})


def test_numeric_range_on_json_numbers_only() -> None:
    """LAMBDA_RULES, Numeric (range): "Price": [ { "numeric": [ ">", 10, "<=", 20 ] } ];
    EVENTBRIDGE: numeric matching is for JSON numbers, so digits in a string or a bool never
    match."""
    pattern = {"Price": [{"numeric": [">", 10, "<=", 20]}]}
    assert matches(pattern, {"Price": 15})
    assert matches(pattern, {"Price": 20})
    assert not matches(pattern, {"Price": 10})
    assert not matches(pattern, {"Price": 21})
    assert not matches(pattern, {"Price": "15"})
    assert not matches(pattern, {"Price": True})
    assert not matches(pattern, {})


def test_exists_and_does_not_exist() -> None:
    """LAMBDA_RULES, Exists: "ProductName": [ { "exists": true } ]; Does not exist:
    "ProductName": [ { "exists": false } ]."""
    present = {"ProductName": [{"exists": True}]}
    assert matches(present, {"ProductName": "x"})
    assert matches(present, {"ProductName": 0})
    assert not matches(present, {})
    absent = {"ProductName": [{"exists": False}]}
    assert matches(absent, {})
    assert not matches(absent, {"ProductName": "x"})
    # a missing parent leaves nothing below it to exist
    assert matches({"x": {"y": [{"exists": False}]}}, {})
    assert not matches({"x": {"y": [{"exists": True}]}}, {})


def test_exists_only_on_leaves_as_for_dynamodb() -> None:
    """DDB_FILTERING, "Using the Exists operator": exists works on leaf nodes, so a DynamoDB
    filter names the attribute's type (as template.yaml's archive filter does)."""
    image = {"dynamodb": {"NewImage": {"archive": {"N": "3"}}}}
    assert matches({"dynamodb": {"NewImage": {"archive": {"N": [{"exists": True}]}}}}, image)
    assert not matches({"dynamodb": {"NewImage": {"archive": [{"exists": True}]}}}, image)


def test_begins_with() -> None:
    """LAMBDA_RULES, Begins with: "Region": [ {"prefix": "us-" } ]."""
    pattern = {"Region": [{"prefix": "us-"}]}
    assert matches(pattern, {"Region": "us-east-1"})
    assert not matches(pattern, {"Region": "eu-west-1"})
    assert not matches(pattern, {"Region": "US-east-1"})
    assert not matches(pattern, {"Region": 5})
    assert not matches(pattern, {})


def test_ends_with() -> None:
    """LAMBDA_RULES, Ends with: "FileName": [ { "suffix": ".png" } ]."""
    pattern = {"FileName": [{"suffix": ".png"}]}
    assert matches(pattern, {"FileName": "board.png"})
    assert not matches(pattern, {"FileName": "board.png.txt"})
    assert not matches(pattern, {})


def test_multi_level_patterns_descend_into_the_record() -> None:
    """LAMBDA_RULES, "Multi-level filtering" / DDB_FILTERING: { "dynamodb": { "Keys": { "Id":
    { "N": [ "101" ] } } } }, equality on the attribute's typed value."""
    pattern = {"dynamodb": {"Keys": {"Id": {"N": ["101"]}}}}
    assert matches(pattern, {"dynamodb": {"Keys": {"Id": {"N": "101"}}}})
    assert not matches(pattern, {"dynamodb": {"Keys": {"Id": {"N": "102"}}}})
    assert not matches(pattern, {"dynamodb": {"Keys": {"Id": {"S": "101"}}}})
    assert not matches(pattern, {"dynamodb": {}})
    assert not matches(pattern, {"dynamodb": "not an object"})


def test_a_list_value_matches_when_any_item_does() -> None:
    """EVENTBRIDGE, arrays: a value that is an array matches when the pattern matches one of its
    items (a DynamoDB string set, ``SS``)."""
    assert matches({"SS": ["b"]}, {"SS": ["a", "b"]})
    assert not matches({"SS": ["c"]}, {"SS": ["a", "b"]})
    assert matches({"SS": [{"prefix": "b"}]}, {"SS": ["a", "bc"]})


def test_filters_of_a_function_are_ored() -> None:
    """LAMBDA_RULES: "Your filters are logically ORed together"; no filter lets all through."""
    source = stream_sources(Template())[0]  # any stream function of the template
    source = replace(source, filters=[{"eventName": ["INSERT"]}, {"eventName": ["REMOVE"]}])
    assert source.passes({"eventName": "INSERT"})
    assert source.passes({"eventName": "REMOVE"})
    assert not source.passes({"eventName": "MODIFY"})
    assert replace(source, filters=[]).passes({"eventName": "MODIFY"})


@pytest.mark.parametrize(
    "bad",
    [
        {"a": [{"wildcard": "x*"}]},  # EventBridge has it; not implemented here
        {"$or": [{"a": ["x"]}, {"b": ["y"]}]},
        {"a": [{"anything-but": {"prefix": "x"}}]},
        {"a": [{"anything-but": []}]},
        {"a": [{"numeric": [">", "1"]}]},
        {"a": [{"numeric": ["!=", 1]}]},
        {"a": [{"numeric": [">"]}]},
        {"a": [{"exists": "yes"}]},
        {"a": [{"prefix": 1}]},
        {"a": [{"prefix": "x", "exists": True}]},
        {"a": "not a list"},
        {"a": [["nested"]]},
        {"dynamodb": {"NewImage": {"v": {"N": [{"numeric": [">", 1]}]}}}},
    ],
)
def test_what_the_runtime_cannot_apply_is_refused(bad: dict[str, Any]) -> None:
    """A filter the runtime would apply differently from Lambda stops the start instead; the
    last one (numeric on a DynamoDB ``N``, a string in the record) would never match deployed."""
    with pytest.raises(ValueError):
        check_pattern(bad)


def test_supported_patterns_pass_the_check() -> None:
    check_pattern(
        {
            "eventName": ["INSERT", "MODIFY"],
            "dynamodb": {
                "NewImage": {
                    "a": {"S": ["x", "", None, {"exists": True}, {"prefix": "G"}]},
                    "b": {"S": [{"suffix": "x"}, {"equals-ignore-case": "X"}]},
                    "c": {"S": [{"anything-but": ["x", "y"]}, {"anything-but": "z"}]},
                },
                "SizeBytes": [{"numeric": [">", 1, "<=", 400_000]}],
            },
        }
    )
    with pytest.raises(ValueError, match="wildcard"):
        matches({"a": [{"wildcard": "x"}]}, {"a": "x"})
