"""Read template.yaml the way the local runtime needs it: routes, tables, environment.

Only what ``make run`` and the tests use is interpreted: HttpApi events of functions, their
auth, the WebSocket API (its routes, their integration's function, their route responses, its
authorizer's identity source), the DynamoDB tables and the Globals environment. CloudFormation
tags are kept as ``Intrinsic`` values and resolved against local names where it matters
(``!Ref Table``, ``!Sub "integrations/${Integration}"``, ``${Function.Arn}``).
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


#: libyaml's loader where PyYAML was built with it (its wheels are): it reads template.yaml in
#: 35 ms of CPU against the pure-Python loader's 216, and every runtime start and many tests read it
_SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _CfnLoader(_SafeLoader):  # type: ignore[misc,valid-type]  # PyYAML ships no type hints
    pass


def _construct_tag(loader: Any, suffix: str, node: yaml.Node) -> Intrinsic:
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


@dataclass(frozen=True)
class WebSocketRoute:
    """A route of the WebSocket API and the function its integration invokes."""

    route_key: str  # $connect, $disconnect, $default or a selection value ("ping")
    function: str  # logical id
    code_uri: Path
    handler: str
    two_way: bool  # has a RouteResponse: the function's returned body goes back to the client
    auth: bool  # behind the API's authorizer (API Gateway allows one on $connect only)


@dataclass(frozen=True)
class WebSocketApi:
    """An ``AWS::ApiGatewayV2::Api`` of ``ProtocolType: WEBSOCKET``."""

    name: str  # logical id
    #: ``$request.body.action`` -> ("action",): the JSON path in a message's body naming its route
    selection_path: tuple[str, ...]
    stage: str
    routes: dict[str, WebSocketRoute]
    #: where the authorizer's identity comes from: ("querystring" | "header", name), or None
    identity_source: tuple[str, str] | None


_SELECTION = re.compile(r"\$\{?request\.body\.([A-Za-z0-9_.-]+?)\}?")
_IDENTITY = re.compile(r"route\.request\.(querystring|header)\.(.+)")
_SUB_REF = re.compile(r"\$\{([A-Za-z0-9]+)\}")
_SUB_ARN = re.compile(r"\$\{([A-Za-z0-9]+)\.Arn\}")


def selection_path(expression: str) -> tuple[str, ...]:
    """``$request.body.action`` (or ``${request.body.action}``) -> ``("action",)``: a WebSocket
    API selects routes by a value of the message's JSON body, nothing else."""
    found = _SELECTION.fullmatch(expression.strip())
    if found is None:
        raise ValueError(f"unsupported RouteSelectionExpression {expression!r}")
    return tuple(found[1].split("."))


def _sub_text(value: Any) -> str:
    """The string of ``!Sub "..."`` (or ``!Sub ["...", {...}]``), else of a plain value."""
    if isinstance(value, Intrinsic) and value.name == "Sub":
        inner = value.value
        return str(inner[0] if isinstance(inner, list) else inner)
    if isinstance(value, Intrinsic) and value.name == "GetAtt":
        return "${" + (value.value if isinstance(value.value, str) else ".".join(value.value)) + "}"
    return str(value)


def _ref(value: Any) -> str | None:
    return str(value.value) if isinstance(value, Intrinsic) and value.name == "Ref" else None


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

    def function_code(self, name: str) -> tuple[Path, str]:
        """A function's code folder and handler, Globals applied."""
        globals_fn = self.doc.get("Globals", {}).get("Function", {})
        props = self.resources[name].get("Properties", {})
        code_uri = self.root / props.get("CodeUri", globals_fn.get("CodeUri", "."))
        return code_uri, props.get("Handler", globals_fn.get("Handler", "app.handler"))

    def function_events(self, kind: str) -> Iterator[tuple[str, Path, str, dict[str, Any]]]:
        """(function, code folder, handler, event properties) of every event of type ``kind``
        (``HttpApi``, ``DynamoDB``), Globals applied."""
        for name, res in self.of_type("AWS::Serverless::Function").items():
            props = res.get("Properties", {})
            code_uri, handler = self.function_code(name)
            for event in props.get("Events", {}).values():
                if event.get("Type") == kind:
                    yield name, code_uri, handler, event.get("Properties", {})

    @cached_property
    def routes(self) -> list[Route]:
        """Every HttpApi route, literal paths before parameterised ones (as API Gateway does)."""
        apis = self.of_type("AWS::Serverless::HttpApi")
        routes: list[Route] = []
        for name, code_uri, handler, ev in self.function_events("HttpApi"):
            if "Path" not in ev and "Method" not in ev:
                # SAM's $default route (deployed, unknown routes reach it): the runtime answers
                # what no route matches itself, in the same 404 not_found body
                continue
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

    @cached_property
    def websocket_api(self) -> WebSocketApi | None:
        """The template's WebSocket API (the first by logical id, should there be several), with
        the routes whose integration invokes a function of the template."""
        apis = sorted(
            name
            for name, res in self.of_type("AWS::ApiGatewayV2::Api").items()
            if res.get("Properties", {}).get("ProtocolType") == "WEBSOCKET"
        )
        if not apis:
            return None
        api = apis[0]
        props = self.resources[api]["Properties"]

        def of_api(kind: str) -> dict[str, dict[str, Any]]:
            return {
                name: res.get("Properties", {})
                for name, res in self.of_type(kind).items()
                if _ref(res.get("Properties", {}).get("ApiId")) == api
            }

        stages = sorted(
            str(p.get("StageName", "")) for p in of_api("AWS::ApiGatewayV2::Stage").values()
        )
        answered = {
            _ref(p.get("RouteId")) for p in of_api("AWS::ApiGatewayV2::RouteResponse").values()
        }
        integrations = of_api("AWS::ApiGatewayV2::Integration")
        functions = self.of_type("AWS::Serverless::Function")
        routes: dict[str, WebSocketRoute] = {}
        for name, route in of_api("AWS::ApiGatewayV2::Route").items():
            target = _SUB_REF.fullmatch(
                _sub_text(route.get("Target", "")).removeprefix("integrations/")
            )
            integration = integrations.get(target[1] if target else "")
            if integration is None:
                continue  # a mock or HTTP integration: nothing to run locally
            arn = _SUB_ARN.search(_sub_text(integration.get("IntegrationUri", "")))
            if arn is None or arn[1] not in functions:
                continue
            code_uri, handler = self.function_code(arn[1])
            key = str(route["RouteKey"])
            routes[key] = WebSocketRoute(
                route_key=key,
                function=arn[1],
                code_uri=code_uri,
                handler=handler,
                two_way=name in answered,
                auth=str(route.get("AuthorizationType", "NONE")).upper() != "NONE",
            )
        identity: tuple[str, str] | None = None
        for authorizer in of_api("AWS::ApiGatewayV2::Authorizer").values():
            for source in authorizer.get("IdentitySource") or []:
                found = _IDENTITY.fullmatch(str(source))
                if found and identity is None:
                    identity = (found[1], found[2])
        return WebSocketApi(
            name=api,
            selection_path=selection_path(str(props.get("RouteSelectionExpression", ""))),
            stage=stages[0] if stages else "$default",
            routes=routes,
            identity_source=identity,
        )

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

    def environment(
        self, overrides: dict[str, str] | None = None, refs: dict[str, str] | None = None
    ) -> dict[str, str]:
        """Globals + every function's variables, ``!Ref`` of a table resolved to its local name
        (and of any resource in ``refs``, such as a queue, to its value there)."""
        names = {**self.table_names(), **(refs or {})}
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
