"""docs/openapi.yaml is valid OpenAPI 3.1, in step with the code, and clean for generators.

Its routes are the template's (plus the local runtime's dev-only ``POST /dev/token``), its error
codes are ``STATUS_BY_CODE``, its request schemas state the request validators' fields and
bounds, its ruleset enums are the engine's, and the views, summaries, moves and presets the code
builds validate against its schemas. Mobile teams generate clients from it, so it also keeps to
what generators handle (openapi-python-client here, with zero warnings; openapi-generator's
typescript-fetch, kotlin and swift6 in ``.ci/generators``): references to whole components only,
nullability without ``null`` in an ``enum``, no ``const``, typed maps, unions a generator can
tell apart, no schema named like a platform's own type, and an example on every response.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml
from domino.api.errors import STATUS_BY_CODE, DominoError, InvalidRequest, error_parts
from domino.api.models import (
    CreateGame,
    Deal,
    EmoteBody,
    JoinGame,
    OpenTicket,
    PlayTile,
    ReadNotifications,
    RegisterDeviceBody,
    ReportBody,
    UpdateMeBody,
)
from domino.api.responses import preset_list
from domino.engine import LEVELS, Draw, Match, choose_move, resolve_rules
from domino.engine.rules import CHOICES, UNIT
from domino.engine.tiles import SETS
from domino.service.errors import VersionMismatch
from domino.service.values import GameSeen
from domino.service.views import game_view, move_list, summary
from domino.store.records import GameRecord, Seat
from pydantic.json_schema import GenerateJsonSchema

from local.template import Template

REPO = Path(__file__).resolve().parents[1]
SPEC_PATH = REPO / "docs" / "openapi.yaml"
METHODS = {"get", "put", "post", "delete", "patch", "head", "options", "trace"}
DEV_ROUTES = {
    ("POST", "/dev/token"),
    ("GET", "/dev/clock"),
    ("POST", "/dev/clock"),
    ("POST", "/dev/sweep"),
    ("GET", "/dev/pushes"),
    ("POST", "/dev/rating"),
}
AT = 1_767_225_600  # 2026-01-01T00:00:00Z


class UniqueKeyLoader(yaml.SafeLoader):
    """PyYAML keeps the last of two equal keys; Java's parsers warn and generators differ."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        keys = [self.construct_object(key, deep=deep) for key, _ in node.value]
        duplicates = {k for k in keys if keys.count(k) > 1}
        assert not duplicates, f"duplicate keys {duplicates} at line {node.start_mark.line + 1}"
        return super().construct_mapping(node, deep=deep)


@cache
def spec() -> dict[str, Any]:
    with SPEC_PATH.open(encoding="utf-8") as handle:
        doc = yaml.load(handle, Loader=UniqueKeyLoader)
    assert isinstance(doc, dict)
    return doc


def operations() -> dict[tuple[str, str], dict[str, Any]]:
    return {
        (method.upper(), path): op
        for path, item in spec()["paths"].items()
        for method, op in item.items()
        if method in METHODS
    }


def resolve(ref: str) -> Any:
    assert ref.startswith("#/"), f"only local refs are used: {ref}"
    node: Any = spec()
    for part in ref[2:].split("/"):
        part = part.replace("~1", "/").replace("~0", "~")
        assert isinstance(node, dict) and part in node, f"unresolved $ref {ref}"
        node = node[part]
    return node


def walk(node: Any) -> list[Any]:
    """Every dict and list in ``node``, depth first."""
    found = [node]
    values = node.values() if isinstance(node, dict) else node if isinstance(node, list) else []
    for value in values:
        found += walk(value)
    return found


# ---------------------------------------------------------------------- the document itself


def test_is_openapi_3_1() -> None:
    doc = spec()
    assert re.fullmatch(r"3\.1\.\d+", str(doc["openapi"]))
    assert doc["info"]["title"] and doc["info"]["version"]
    assert doc["paths"] and doc["components"]["schemas"]


def test_every_ref_resolves() -> None:
    refs = [n["$ref"] for n in walk(spec()) if isinstance(n, dict) and "$ref" in n]
    assert refs
    for ref in refs:
        resolve(ref)


def test_every_operation_answers_and_declares_its_path_parameters() -> None:
    ids = []
    for (method, path), op in operations().items():
        responses = op.get("responses")
        assert responses, f"{method} {path} has no responses"
        assert any(str(code).startswith("2") for code in responses), f"{method} {path}"
        ids.append(op["operationId"])
        params = spec()["paths"][path].get("parameters", []) + op.get("parameters", [])
        params = [resolve(p["$ref"]) if "$ref" in p else p for p in params]
        in_path = {p["name"] for p in params if p["in"] == "path"}
        assert in_path == set(re.findall(r"\{([^}]+)\}", path)), f"{method} {path}"
    assert len(ids) == len(set(ids)), "operationIds are unique"


def test_passes_openapi_spec_validator() -> None:
    validator = pytest.importorskip("openapi_spec_validator")
    validator.validate(spec(), cls=validator.OpenAPIV31SpecValidator)


# ---------------------------------------------------------------------- clean for generators

#: names a model must not take: the standard types of Swift, Kotlin, TypeScript (and the DOM) and
#: Python that a generated model would shadow, or that a generator renames with a warning
STANDARD_TYPES = {
    "Any", "Array", "Bool", "Boolean", "Character", "Codable", "Data", "Date", "Decimal",
    "Dict", "Dictionary", "Double", "Element", "Enum", "Error", "Event", "Exception", "Float",
    "Function", "Headers", "Int", "Integer", "List", "Long", "Map", "Node", "Nothing",
    "Notification", "Number", "Object", "Optional", "Pair", "Promise", "Protocol", "Range",
    "Record", "Request", "Response", "Result", "Self", "Set", "String", "Symbol", "Text", "Tuple",
    "Type", "URL", "UUID", "Unit", "Void",
}  # fmt: skip
#: operationIds are the generated clients' method names: a verb, then what it acts on
VERBS = ("get", "list", "create", "join", "play", "draw", "pass", "leave", "register",
         "remove", "mark", "advance", "run", "update", "delete", "cancel", "block", "unblock",
         "report", "send", "nudge", "decline", "rematch", "cede")  # fmt: skip


def schemas_in(node: Any, where: str = "#") -> list[tuple[str, dict[str, Any]]]:
    """Every schema object under ``node`` (components, parameters, bodies, responses)."""
    found: list[tuple[str, dict[str, Any]]] = []
    if isinstance(node, dict):
        for key, value in node.items():
            here = f"{where}/{key}"
            if key == "schema" or (where == "#/components/schemas"):
                found += [(here, value), *nested_schemas(value, here)]
            elif key not in ("examples", "example"):
                found += schemas_in(value, here)
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found += schemas_in(value, f"{where}/{i}")
    return found


def nested_schemas(schema: Any, where: str) -> list[tuple[str, dict[str, Any]]]:
    found: list[tuple[str, dict[str, Any]]] = []
    if not isinstance(schema, dict):
        return found
    subs = [(f"{where}/properties/{k}", v) for k, v in schema.get("properties", {}).items()]
    subs += [(f"{where}/{k}", schema[k]) for k in ("items", "additionalProperties")
             if isinstance(schema.get(k), dict)]  # fmt: skip
    for key in ("anyOf", "oneOf", "allOf"):
        subs += [(f"{where}/{key}/{i}", v) for i, v in enumerate(schema.get(key, []))]
    for here, sub in subs:
        found += [(here, sub), *nested_schemas(sub, here)]
    return found


def all_schemas() -> list[tuple[str, dict[str, Any]]]:
    return schemas_in(spec())


def test_document_has_no_duplicate_keys() -> None:
    assert spec()  # UniqueKeyLoader refuses a mapping with a key twice


def test_refs_name_whole_components() -> None:
    """`#/components/schemas/Ruleset/properties/set` is a reference generators cannot follow."""
    for node in walk(spec()):
        if isinstance(node, dict) and "$ref" in node:
            assert re.fullmatch(r"#/components/\w+/[A-Za-z0-9_.-]+", node["$ref"]), node["$ref"]


def test_nullability_is_a_type_not_an_enum_value() -> None:
    """`enum: [..., null]` gives generators three enums each; `const` gives `enum Draw: Bool`."""
    for where, schema in all_schemas():
        assert None not in schema.get("enum", []), where
        assert "const" not in schema, where
        assert "nullable" not in schema, f"{where}: 3.0's nullable, not 3.1"


def test_unions_are_nullable_refs_or_titled_and_distinct() -> None:
    """A union is `X or null` (anyOf with `{type: null}`), or a union with a `title` (the
    generated type's name) of branches of different JSON types whose object branches are
    named objects with properties: the only kind every generator keeps the value of."""
    for where, schema in all_schemas():
        for key in ("anyOf", "oneOf"):
            branches = schema.get(key)
            if not branches:
                continue
            others = [b for b in branches if b != {"type": "null"}]
            if len(others) == 1 and len(branches) == 2:
                continue  # X or null
            assert key == "oneOf" and "title" in schema, f"{where}: an untitled {key}"
            kinds = []
            for branch in others:
                if "$ref" in branch:
                    target = resolve(branch["$ref"])
                    assert target.get("type") == "object" and target.get("properties"), where
                    kinds.append("object")
                else:
                    assert branch.get("type") in ("integer", "number", "string", "boolean"), where
                    kinds.append(branch["type"])
            assert len(kinds) == len(set(kinds)), f"{where}: branches of one type"


def test_maps_are_typed() -> None:
    """Every object says what else it may hold: nothing (false), values of one schema (a typed
    map), or, stated, anything. A map is never a component of its own: openapi-generator cannot
    name one ("Failed to get the schema name")."""
    for where, schema in all_schemas():
        kinds = schema.get("type")
        if "object" not in (kinds if isinstance(kinds, list) else [kinds]):
            continue
        extra = schema.get("additionalProperties")
        if where.startswith("#/components/schemas/") and where.count("/") == 3:
            assert extra is False or schema.get("properties"), f"{where}: a bare map component"
        if where in ("#/components/schemas/ApiError", "#/components/schemas/VersionMismatch",
                     "#/components/schemas/DevPushList", "#/components/schemas/DevPush",
                     "#/components/schemas/DevTokenRequest"):  # fmt: skip
            continue  # open to additions, the fields typed
        if where == "#/components/schemas/DevPush/properties/payload":
            # a platform's payload, any object: `additionalProperties: true` would make
            # kotlinx's model a Map<String, Any>, which its compiler plugin refuses
            assert extra is None, where
            continue
        assert extra is not None, f"{where}: say what else the object holds"
        if isinstance(extra, dict):
            assert extra, f"{where}: an untyped map"
            assert extra.get("type") or "$ref" in extra, f"{where}: an untyped map"


def test_schema_names_shadow_no_standard_type() -> None:
    names = set(spec()["components"]["schemas"])
    names |= {s["title"] for _, s in all_schemas() if "title" in s}
    assert not names & STANDARD_TYPES


def test_operation_ids_read_as_method_names() -> None:
    for (method, path), op in operations().items():
        name = op["operationId"]
        assert re.fullmatch(r"[a-z]+(?:[A-Z][a-z]+)+", name), f"{method} {path}: {name}"
        assert name.startswith(VERBS), f"{method} {path}: {name}"


def media_examples(media: dict[str, Any]) -> dict[str, Any]:
    """A media type's examples by name, their ``$ref``s resolved, as their values."""
    named = {
        key: resolve(ex["$ref"]) if "$ref" in ex else ex
        for key, ex in media.get("examples", {}).items()
    }
    values = {key: ex["value"] for key, ex in named.items()}
    if "example" in media:
        values["example"] = media["example"]
    return values


def test_every_response_has_examples_that_fit_it() -> None:
    """Each response with a body shows one, fitting its schema; an error response shows one
    for every code it lists (the default response: `not_found` and `internal`)."""
    for (method, path), op in operations().items():
        for status, response in op["responses"].items():
            where = f"{method} {path} {status}"
            if "$ref" in response:
                response = resolve(response["$ref"])
            for media in response.get("content", {}).values():
                examples = media_examples(media)
                assert examples, f"{where}: no example"
                for name, value in examples.items():
                    check(value, media["schema"], f"{where} example {name}")
                codes = {v["error"]["code"] for v in examples.values() if "error" in v}
                if "x-error-codes" in response:
                    assert codes == set(response["x-error-codes"]), where
                elif status == "default":
                    assert codes == {"not_found", "internal"}, where
                for code in codes:
                    assert status == "default" or STATUS_BY_CODE[code] == int(status), where


def test_every_example_is_used_and_fits() -> None:
    used = {
        node["$ref"].rsplit("/", 1)[1]
        for node in walk(spec()["paths"]) + walk(spec()["components"]["responses"])
        if isinstance(node, dict) and str(node.get("$ref", "")).startswith("#/components/examples/")
    }
    assert used == set(spec()["components"]["examples"])
    codes = {
        ex["value"]["error"]["code"]
        for ex in spec()["components"]["examples"].values()
        if "error" in ex["value"]
    }
    assert codes == set(STATUS_BY_CODE), "one example for every error code"


def test_python_client_generates_without_warnings(python_client: Any) -> None:
    """openapi-python-client leaves out what it cannot parse, with a warning: a route that
    answers nothing, a model dropped. Every route and every schema is in the client."""
    assert "warning" not in python_client.output.lower(), python_client.output
    from domino_client import api, models

    routes = {f.stem for f in Path(api.__file__).parent.glob("*/*.py") if f.stem != "__init__"}
    assert routes == {re.sub(r"(?<!^)(?=[A-Z])", "_", op["operationId"]).lower()
                      for op in operations().values()}  # fmt: skip
    assert set(spec()["components"]["schemas"]) - set(dir(models)) <= {"Tile", "TileInput",
        "SeatIndex", "Timestamp"}  # fmt: skip


# ---------------------------------------------------------------------- in step with the code


def test_routes_are_the_templates_plus_the_dev_token_route() -> None:
    template = {(r.method, r.path) for r in Template().routes}
    assert set(operations()) == template | DEV_ROUTES
    assert not template & DEV_ROUTES


def test_public_routes_are_the_templates_unauthenticated_ones() -> None:
    assert spec()["security"] == [{"bearerAuth": []}]
    assert spec()["components"]["securitySchemes"]["bearerAuth"]["scheme"] == "bearer"
    public = {key for key, op in operations().items() if op.get("security") == []}
    template_public = {(r.method, r.path) for r in Template().routes if not r.auth}
    assert public == template_public | DEV_ROUTES


def test_dev_route_is_marked_dev_only() -> None:
    for key, op in operations().items():
        assert bool(op.get("x-dev-only")) == (key in DEV_ROUTES), key


def test_planned_routes_are_not_paths() -> None:
    planned = spec()["info"]["x-planned"]
    assert planned == []
    assert not {p["path"] for p in planned} & set(spec()["paths"])


def test_ruleset_fields_are_the_engines() -> None:
    """Each choice field's named enum is the engine's list, `teams` nullable; the per-count
    object of `RulesOverrides` has a property for every player count a game may have."""
    schemas = spec()["components"]["schemas"]
    for name in ("Ruleset", "PresetRules", "RulesOverrides"):
        props = schemas[name]["properties"]
        for field, choices in CHOICES.items():
            prop = props[field]
            values = [c for c in choices if c is not None]
            if "oneOf" in prop:  # a preset's value per player count too (PresetRules.teams)
                assert {"type": "null"} in prop["oneOf"], f"{name}.{field}"
                # an inline enum would be a model named String to swift6: a pattern instead
                pattern = {"type": "string", "pattern": f"^({'|'.join(values)})$"}
                assert pattern in prop["oneOf"], f"{name}.{field}"
                continue
            if None in choices:
                assert {"type": "null"} in prop["anyOf"], f"{name}.{field}"
                prop = next(b for b in prop["anyOf"] if "$ref" in b)
            assert resolve(prop["$ref"])["enum"] == values, f"{name}.{field}"
        assert resolve(props["set"]["$ref"])["enum"] == sorted(SETS), name
        assert resolve(props["unit"]["$ref"])["enum"] == list(UNIT), name
    counts = GenerateJsonSchema().generate(CreateGame.schema())["properties"]["players"]
    every_count = {str(n) for n in range(counts["minimum"], counts["maximum"] + 1)}
    for name in ("PerPlayerCount", "TargetPerCount", "TeamsPerCount"):
        assert set(schemas[name]["properties"]) == every_count, name


def test_error_codes_are_status_by_code() -> None:
    code = spec()["components"]["schemas"]["ErrorCode"]
    assert set(code["enum"]) == set(STATUS_BY_CODE)
    assert code["x-status-by-code"] == STATUS_BY_CODE


def test_error_codes_of_each_response_belong_to_its_status() -> None:
    for (method, path), op in operations().items():
        for status, response in op["responses"].items():
            if "$ref" in response:
                response = resolve(response["$ref"])
            for code in response.get("x-error-codes", []):
                assert STATUS_BY_CODE[code] == int(status), f"{method} {path} {status} {code}"


def test_mutating_routes_take_if_match_and_idempotency_key() -> None:
    for (method, path), op in operations().items():
        if method != "POST" or (method, path) in DEV_ROUTES or path in REPEAT_HARMLESSLY:
            continue  # no key to take, no game version to match
        names = {resolve(p["$ref"])["name"] if "$ref" in p else p["name"] for p in op["parameters"]}
        assert "Idempotency-Key" in names, path
        assert ("If-Match" in names) == path.startswith("/games/{id}/"), path


def deref(node: dict[str, Any]) -> Any:
    return resolve(node["$ref"]) if "$ref" in node else node


def test_every_answer_to_a_change_of_a_game_holds_what_if_match_needs() -> None:
    """A client sends its next change with If-Match and no GET in between: every successful
    answer with a body to a change on a game (POST /games, and every POST, PUT, PATCH and DELETE
    under /games/{id}/) requires the game's `version`, and a game view its ETag header too; an
    answer without a body is a change that leaves the version alone (emotes, nudges)."""
    checked = 0
    for (method, path), op in operations().items():
        on_a_game = path == "/games" or path.startswith("/games/{id}/")
        if method not in ("POST", "PUT", "PATCH", "DELETE") or not on_a_game:
            continue
        for status, answer in op["responses"].items():
            if not status.startswith("2"):
                continue
            answer = deref(answer)
            if "content" not in answer:  # 204: emotes and nudges, no change of the version
                assert path in REPEAT_HARMLESSLY, f"{method} {path} {status}"
                continue
            body = answer["content"]["application/json"]["schema"]
            where = f"{method} {path} {status}"
            assert "version" in resolve(body["$ref"])["required"], where
            if body["$ref"] == "#/components/schemas/GameView":
                assert deref(answer["headers"]["ETag"]).get("required") is True, where
                checked += 1
    assert checked >= 9  # create, join, play, draw, pass, leave, decline, rematch (200, 201)
    mismatch = deref(spec()["components"]["responses"]["VersionMismatch"])
    assert deref(mismatch["headers"]["ETag"]).get("required") is True
    body = resolve(mismatch["content"]["application/json"]["schema"]["$ref"])
    assert "game" in body["required"]
    assert body["properties"]["game"]["$ref"] == "#/components/schemas/GameView"


#: POSTs whose repetition is harmless by design, none of them a change of a game: marking read,
#: a report (the same one within 24 hours is stored once), an emote (a retry is throttled) and a
#: nudge (a retry is already_nudged)
REPEAT_HARMLESSLY = {
    "/me/notifications/read",
    "/players/{id}/reports",
    "/games/{id}/emotes",
    "/games/{id}/nudge",
    "/games/{id}/premoves",
}


BOUNDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength",
          "maxItems", "maxProperties", "enum", "default")  # fmt: skip


def bounds(schema: dict[str, Any]) -> dict[str, Any]:
    """The bounds a property states, through ``$ref`` and ``anyOf`` with null."""
    if "$ref" in schema:
        schema = {**resolve(schema["$ref"]), **{k: v for k, v in schema.items() if k != "$ref"}}
    out = {key: schema[key] for key in BOUNDS if key in schema}
    for branch in schema.get("anyOf", []):
        if branch.get("type") != "null":
            out.update({k: v for k, v in bounds(branch).items() if k not in out})
    return out


@pytest.mark.parametrize(
    "model",
    [
        CreateGame,
        Deal,
        JoinGame,
        OpenTicket,
        PlayTile,
        ReadNotifications,
        RegisterDeviceBody,
        UpdateMeBody,
        EmoteBody,
        ReportBody,
    ],
    ids=lambda m: m.__name__,
)
def test_request_schemas_match_the_validators(model: Any) -> None:
    """Field names, required fields and every bound the code checks are in the document."""
    body = spec()["components"]["schemas"][model.__name__]
    code = GenerateJsonSchema().generate(model.schema())
    assert set(body["properties"]) == set(code["properties"]) == set(model.FIELDS)
    assert set(body.get("required", [])) == set(code.get("required", [])) == model.required()
    assert body["additionalProperties"] is False  # the validators forbid extra fields
    for name, prop in code["properties"].items():
        stated = bounds(body["properties"][name])
        for key, value in bounds(prop).items():
            where = f"{model.__name__}.{name}: {key}"
            if key in ("minLength", "maxLength") and "enum" in stated:  # a closed list of names
                assert all(value <= len(v) if key == "minLength" else len(v) <= value
                           for v in stated["enum"]), where  # fmt: skip
            else:
                assert stated.get(key) == value, where


# ---------------------------------------------------------------------- what the code sends


def check(value: Any, schema: dict[str, Any], where: str = "$") -> None:
    """Validate ``value`` against the subset of JSON Schema the document uses."""
    if "$ref" in schema:
        check(value, resolve(schema["$ref"]), where)
    for key in ("anyOf", "oneOf"):
        if key in schema:
            errors = []
            for branch in schema[key]:
                try:
                    check(value, branch, where)
                    break
                except AssertionError as err:
                    errors.append(str(err))
            else:
                raise AssertionError(f"{where}: no branch of {key} fits: {errors}")
    if "type" in schema:
        kinds = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        assert any(is_a(value, kind) for kind in kinds), f"{where}: {value!r} is not {kinds}"
    if "enum" in schema:
        assert value in schema["enum"], f"{where}: {value!r} not in {schema['enum']}"
    if "const" in schema:
        assert value == schema["const"], f"{where}: {value!r} != {schema['const']!r}"
    if isinstance(value, str) and "pattern" in schema:
        assert re.search(schema["pattern"], value), f"{where}: {value!r} !~ {schema['pattern']}"
    if is_a(value, "number"):
        assert value >= schema.get("minimum", value), f"{where}: {value} below the minimum"
        assert value <= schema.get("maximum", value), f"{where}: {value} above the maximum"
    if isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            check(item, schema["items"], f"{where}[{i}]")
    if isinstance(value, dict):
        missing = set(schema.get("required", [])) - set(value)
        assert not missing, f"{where}: missing {sorted(missing)}"
        properties = schema.get("properties", {})
        extra = schema.get("additionalProperties", True)
        for key, item in value.items():
            if key in properties:
                check(item, properties[key], f"{where}.{key}")
            elif extra is False:
                raise AssertionError(f"{where}: {key!r} is not in the schema")
            elif isinstance(extra, dict):
                check(item, extra, f"{where}.{key}")


def is_a(value: Any, kind: str) -> bool:
    if isinstance(value, bool):
        return kind == "boolean"
    return {
        "null": value is None,
        "boolean": False,
        "integer": isinstance(value, int),
        "number": isinstance(value, int | float),
        "string": isinstance(value, str),
        "array": isinstance(value, list),
        "object": isinstance(value, dict),
    }[kind]


def schema(name: str) -> dict[str, Any]:
    return {"$ref": f"#/components/schemas/{name}"}


def record_for(preset: str, players: int, overrides: dict[str, Any] | None) -> GameRecord:
    seats = [Seat(f"p{i}", f"Player {i}") for i in range(players - 1)]
    seats.append(Seat(None, "Bot 1", "greedy"))
    config = {
        "rules": overrides,
        "private": False,
        "turn_timeout_hours": 24.0,
        "on_timeout": "auto",
        "bot_level": "greedy",
    }
    return GameRecord(
        id="g" * 22,
        version=1,
        status="playing",
        preset=preset,
        config=config,
        seats=seats,
        created_at=AT,
        updated_at=AT,
        deadline=AT + 86400,
    )


def check_views(record: GameRecord, rules: Any, match: Match | None, drawn: str | None) -> None:
    viewers = [None, *(s.player for s in record.seats if s.player)]
    for viewer in viewers:
        view = game_view(record, rules, match, viewer, drawn if viewer == "p0" else None)
        check(view, schema("GameView"), f"view({viewer})")
        assert ("you" in view) == (viewer is not None)
    turn = match.turn if match and match.status == "playing" else None
    check(summary(record, turn, "p0"), schema("Summary"), "summary")
    if match is not None:
        for seat in (None, 0):
            check(
                {"moves": move_list(match.moves(seat), seat), "next": None},
                schema("MoveList"),
                "moves",
            )


@pytest.mark.parametrize(
    ("preset", "players", "overrides"),
    [
        ("ida-y-vuelta", 2, None),  # two hands: last_hand, hand_over, a possible draw
        ("pool", 3, None),  # stake: chips and pot
        ("parejas-111", 4, None),  # pairs: teams
        ("multicolor-plus", 2, None),  # one_then_pass draws
        ("cruzado", 3, {"match": "single", "target": None}),  # cross ends
        ("chipre", 4, {"match": "single", "target": None}),  # star ends, double-nine
        ("buho21", 2, {"match": "single", "target": None}),  # penalty scoring
    ],
)
def test_views_the_code_builds_fit_the_schemas(
    preset: str, players: int, overrides: dict[str, Any] | None
) -> None:
    rules = resolve_rules(preset, players, overrides)
    record = record_for(preset, players, overrides)
    match = Match.start(rules, seed=7, at=AT)
    check_views(record, rules, match, None)
    for ply in range(2000):
        if match.status != "playing":
            break
        seat = match.turn
        assert seat is not None
        drawn = None
        if ply == 3:
            match.timeout(seat, "auto", AT + ply)  # a timeout move
        elif ply == 5 and players > 2:
            match.timeout(seat, "forfeit", AT + ply)  # a forfeit by timeout
        elif ply == 9 and players > 2:
            match.forfeit(players - 1, AT + ply)  # a leave during play
        else:
            move = choose_move(match, seat, "greedy", seed=ply)
            result = match.apply(seat, move, AT + ply)
            if isinstance(move, Draw) and seat == 0:
                drawn = str(result.drawn)
        record.version += 1
        if ply % 7 == 0 or drawn or match.status != "playing":
            record.status = match.status
            check_views(record, rules, match, drawn)
    assert match.status == "finished"
    result = game_view(record, rules, match, "p0")["result"]
    assert result is not None and result["match_over"]


def test_waiting_and_abandoned_games_fit_the_schemas() -> None:
    rules = resolve_rules("clasico", 3)
    record = GameRecord(
        id="w" * 22,
        version=1,
        status="waiting",
        preset="clasico",
        config={"rules": None, "private": True, "on_timeout": "auto"},
        seats=[Seat("p0", "Alice"), Seat(None, None), Seat(None, "Bot 1", "random")],
        created_at=AT,
        updated_at=AT,
    )
    check_views(record, rules, None, None)
    record.seats[0] = Seat(None, None)
    record.status = "finished"
    view = game_view(record, rules, None, None)
    check(view, schema("GameView"))
    assert view["result"]["reason"] == "abandoned"
    stale = error_parts(VersionMismatch(GameSeen(record.id, record.version, view), 0))[1]
    check(stale, schema("VersionMismatch"))
    check(stale, schema("ApiError"))


def test_presets_fit_the_schema() -> None:
    check(preset_list(), schema("PresetList"))
    levels = spec()["components"]["schemas"]["BotLevel"]["enum"]
    assert levels == list(LEVELS) == preset_list()["bot_levels"]


def test_error_bodies_fit_the_schema() -> None:
    for code in STATUS_BY_CODE:
        error = type("Refusal", (DominoError,), {"code": code})("message")
        check(error_parts(error)[1], schema("ApiError"))
    check(error_parts(InvalidRequest("m", ["players"]))[1], schema("ApiError"))


def test_tickets_and_their_409s_fit_the_schema() -> None:
    from domino.service.errors import AlreadyMatched, AlreadySearching
    from domino.store.tickets import Ticket

    searching = Ticket(
        "t" * 22, "alice", "Alice", "searching", "clasico", 4, True, 24.0, "auto", 60, 1000,
        AT * 1000,
    )  # fmt: skip
    unranked = Ticket(**{**searching.__dict__, "ranked": False, "turn_timeout_hours": None})
    matched = Ticket(**{**searching.__dict__, "status": "matched", "game": "g" * 22})
    matched.ended_at = AT + 12
    for ticket in (searching, unranked, matched):
        check(ticket.view(AT + 30), schema("Ticket"))
    assert matched.view(AT + 99)["window"] == 100 + 10 * 12
    check(error_parts(AlreadySearching(searching.view(AT)))[1], schema("TicketConflict"))
    check(error_parts(AlreadyMatched("g" * 22))[1], schema("TicketMatched"))


def test_notifications_fit_the_schema() -> None:
    from domino.service.inbox import note_view
    from domino.service.notices import NOTICE_TYPES
    from domino.store.inbox import NOTE_ID, Note

    notes = [
        Note("alice", kind, "g" * 22, 7, AT, "clasico", "Bob" if kind == "player_joined" else "2")
        for kind in NOTICE_TYPES
    ]
    views = [note_view(n, i % 2 == 0, lang) for i, n in enumerate(notes) for lang in ("es", "en")]
    check({"notifications": views, "unread": 3, "next": None}, schema("NotificationList"))
    assert all(NOTE_ID.fullmatch(v["id"]) for v in views)
    kind = spec()["components"]["schemas"]["InboxNotification"]["properties"]["type"]
    assert resolve(kind["$ref"])["enum"] == list(NOTICE_TYPES)


def test_ratings_answers_fit_the_schemas() -> None:
    """GET /players/{id}, GET /leaderboards/{pool} (two pages) and /me, as the service builds
    them (on the in-memory store), fit their schemas."""
    from domino.service.ratings import RatingQueries
    from domino.store.ratings import Rating, StatsChange

    from tests.unit.memory_store import MemoryRatings

    store = MemoryRatings()
    queries = RatingQueries(store)
    pool = "dos-jugadores:2"
    for i, (mu, games) in enumerate([(30.0, 12), (28.0, 40), (28.0, 11), (26.0, 3)]):
        store.put(Rating(f"p{i}", pool, mu, 2.0, games), AT)
    store.tally("g1", pool, AT, [], [StatsChange("p0", True, False, "Ana")], 0)
    check(queries.player("p0"), schema("PlayerProfile"))
    first = queries.leaderboard(pool, 2, None)
    check(first, schema("Leaderboard"))
    assert first["next"] is not None
    check(queries.leaderboard(pool, 2, first["next"]), schema("Leaderboard"))
    for player in ("p1", "p3", "nobody"):
        check(queries.mine(player, pool), schema("MyRank"))
