"""Read template.yaml the way the local runtime needs it: routes, tables, environment.

Only what ``make run`` and the tests use is interpreted: HttpApi events of functions, their
auth, the DynamoDB tables and the Globals environment. CloudFormation tags are kept as
``Intrinsic`` values and resolved against local names where it matters (``!Ref Table``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import yaml

from local.paths import template_path


@dataclass(frozen=True)
class Intrinsic:
    """A CloudFormation tag such as ``!Ref GameTable`` or ``!GetAtt X.Arn``."""

    name: str
    value: Any


class _CfnLoader(yaml.SafeLoader):  # type: ignore[misc]  # PyYAML ships no type hints
    pass


def _construct_tag(loader: yaml.SafeLoader, suffix: str, node: yaml.Node) -> Intrinsic:
    value: Any
    if isinstance(node, yaml.ScalarNode):
        value = loader.construct_scalar(node)
    elif isinstance(node, yaml.SequenceNode):
        value = loader.construct_sequence(node, deep=True)
    else:
        value = loader.construct_mapping(node, deep=True)
    return Intrinsic(suffix, value)


_CfnLoader.add_multi_constructor("!", _construct_tag)


@dataclass(frozen=True)
class Route:
    method: str  # upper case, or "ANY"
    path: str  # template path, e.g. /games/{id}/play
    function: str  # logical id
    code_uri: Path
    handler: str  # module.function, e.g. app.handler
    auth: bool  # behind the JWT authorizer
    pattern: re.Pattern[str] = field(compare=False, repr=False)

    @property
    def route_key(self) -> str:
        return f"{self.method} {self.path}"

    def match(self, method: str, path: str) -> dict[str, str] | None:
        if self.method not in ("ANY", method):
            return None
        found = self.pattern.fullmatch(path)
        return None if found is None else found.groupdict()


def _path_pattern(path: str) -> re.Pattern[str]:
    regex = ""
    for part in re.split(r"(\{[^}]+\})", path):
        if part.startswith("{") and part.endswith("+}"):
            regex += f"(?P<{part[1:-2]}>.+)"
        elif part.startswith("{"):
            regex += f"(?P<{part[1:-1]}>[^/]+)"
        else:
            regex += re.escape(part)
    return re.compile(regex)


class Template:
    def __init__(self, path: Path | None = None) -> None:
        self.path = path or template_path()
        self.root = self.path.parent
        with self.path.open(encoding="utf-8") as handle:
            self.doc: dict[str, Any] = yaml.load(handle, Loader=_CfnLoader)
        self.resources: dict[str, dict[str, Any]] = self.doc.get("Resources", {})

    def of_type(self, kind: str) -> dict[str, dict[str, Any]]:
        return {name: res for name, res in self.resources.items() if res.get("Type") == kind}

    def function_events(self, kind: str) -> Iterator[tuple[str, Path, str, dict[str, Any]]]:
        """(function, code folder, handler, event properties) of every event of type ``kind``
        (``HttpApi``, ``DynamoDB``), Globals applied."""
        globals_fn = self.doc.get("Globals", {}).get("Function", {})
        for name, res in self.of_type("AWS::Serverless::Function").items():
            props = res.get("Properties", {})
            code_uri = self.root / props.get("CodeUri", globals_fn.get("CodeUri", "."))
            handler = props.get("Handler", globals_fn.get("Handler", "app.handler"))
            for event in props.get("Events", {}).values():
                if event.get("Type") == kind:
                    yield name, code_uri, handler, event.get("Properties", {})

    @cached_property
    def routes(self) -> list[Route]:
        """Every HttpApi route, literal paths before parameterised ones (as API Gateway does)."""
        apis = self.of_type("AWS::Serverless::HttpApi")
        routes: list[Route] = []
        for name, code_uri, handler, ev in self.function_events("HttpApi"):
            api_id = ev.get("ApiId")
            api_name = api_id.value if isinstance(api_id, Intrinsic) else None
            api_auth = apis.get(api_name or "", {}).get("Properties", {}).get("Auth", {})
            authorizer = ev.get("Auth", {}).get("Authorizer", api_auth.get("DefaultAuthorizer"))
            path = ev.get("Path", "/{proxy+}")
            routes.append(
                Route(
                    method=str(ev.get("Method", "ANY"))
                    .upper()
                    .replace("X-AMAZON-APIGATEWAY-ANY-METHOD", "ANY"),
                    path=path,
                    function=name,
                    code_uri=code_uri,
                    handler=handler,
                    auth=bool(authorizer) and authorizer != "NONE",
                    pattern=_path_pattern(path),
                )
            )
        routes.sort(key=lambda r: (r.path.count("{"), -len(r.path), r.method == "ANY"))
        return routes

    def find_route(self, method: str, path: str) -> tuple[Route, dict[str, str]] | None:
        for route in self.routes:
            params = route.match(method, path)
            if params is not None:
                return route, params
        return None

    def allowed_methods(self, path: str) -> set[str]:
        return {r.method for r in self.routes if r.pattern.fullmatch(path)}

    def table_names(self) -> dict[str, str]:
        """Local table name per logical id: the logical id itself."""
        return {name: name for name in self.of_type("AWS::DynamoDB::Table")}

    def table_definitions(self) -> dict[str, dict[str, Any]]:
        """``create_table`` arguments (and the TTL attribute) per local table name."""
        tables: dict[str, dict[str, Any]] = {}
        for name, res in self.of_type("AWS::DynamoDB::Table").items():
            props = res["Properties"]
            spec: dict[str, Any] = {
                "TableName": name,
                "AttributeDefinitions": props["AttributeDefinitions"],
                "KeySchema": props["KeySchema"],
                "BillingMode": props.get("BillingMode", "PAY_PER_REQUEST"),
            }
            if props.get("GlobalSecondaryIndexes"):
                spec["GlobalSecondaryIndexes"] = props["GlobalSecondaryIndexes"]
            if props.get("StreamSpecification"):
                spec["StreamSpecification"] = {
                    "StreamEnabled": True,
                    **props["StreamSpecification"],
                }
            ttl = props.get("TimeToLiveSpecification", {})
            tables[name] = {
                "spec": spec,
                "ttl": ttl.get("AttributeName") if ttl.get("Enabled") else None,
            }
        return tables

    def environment(self, overrides: dict[str, str] | None = None) -> dict[str, str]:
        """Globals + every function's variables, ``!Ref`` of a table resolved to its local name."""
        names = self.table_names()
        merged: dict[str, Any] = dict(
            self.doc.get("Globals", {})
            .get("Function", {})
            .get("Environment", {})
            .get("Variables", {})
        )
        for res in self.of_type("AWS::Serverless::Function").values():
            merged.update(res.get("Properties", {}).get("Environment", {}).get("Variables", {}))
        env: dict[str, str] = {}
        for key, value in merged.items():
            if isinstance(value, Intrinsic):
                if value.name == "Ref" and value.value in names:
                    env[key] = names[value.value]
                continue  # ARNs and other deployed-only values have no local meaning
            env[key] = str(value)
        env.update(overrides or {})
        return env
