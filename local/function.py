"""``sam local invoke`` without Docker: one function of the template, in-process, on one event.

    python -m local.function FUNCTION EVENT [--endpoint URL] [--no-setup]
    make invoke FUNCTION=PlayFunction EVENT=events/play.json

FUNCTION is the template's logical id (``PlayFunction``) or its folder under functions/
(``play``); EVENT a JSON file (``-``: standard input): an HTTP API or WebSocket event, a stream
batch, a schedule's event, an authorizer's request. The function runs with the template's
environment (dev mode on, as ``make run``) against DynamoDB Local: by default a fresh one in
memory with the template's tables, in which the game an events/ file is about is made first
(local/scenarios.py); ``--endpoint`` uses a running one instead (``make run``'s is
http://127.0.0.1:8000), where ``--no-setup`` leaves its data as it is. As ``sam local invoke``
does, the response is printed on standard output and the function's logs on standard error;
a function that raises prints Lambda's error shape and exits 1.
"""

from __future__ import annotations

import argparse
import contextlib
import http.server
import json
import os
import sys
import threading
import time
import traceback
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from local import ddb
from local.environment import local_environment
from local.harness import Harness, local_database
from local.invoke import LambdaContext, load_handler
from local.scenarios import prepare
from local.sns import LocalSns
from local.tables import ensure_tables
from local.template import Template


class Refused(Exception):
    """The command cannot run as asked (the message says why and what to do)."""


def find_function(template: Template, wanted: str) -> tuple[str, Path, str]:
    """The function's logical id, code folder and handler, by logical id or folder name."""
    functions = template.of_type("AWS::Serverless::Function")
    defaults = template.doc.get("Globals", {}).get("Function", {})
    for name, resource in functions.items():
        props = resource.get("Properties", {})
        code_uri = template.root / props["CodeUri"]
        if wanted in (name, code_uri.name):
            return name, code_uri, props.get("Handler", defaults.get("Handler", "app.handler"))
    names = ", ".join(sorted(functions))
    raise Refused(f"no function {wanted!r} in template.yaml; one of: {names}")


def read_event(source: str) -> dict[str, Any]:
    try:
        text = sys.stdin.read() if source == "-" else Path(source).read_text()
    except OSError as err:
        raise Refused(f"cannot read the event {source}: {err.strerror}") from err
    try:
        event = json.loads(text)
    except json.JSONDecodeError as err:
        raise Refused(f"the event {source} is not JSON: {err}") from err
    if not isinstance(event, dict):
        raise Refused(f"the event {source} is not a JSON object")
    return event


#: the example issuer that signs events/wsauth.json's token (a throwaway key, tests/keys)
EXAMPLE_ISSUER = "https://issuer.example/test"
EXAMPLE_AUDIENCE = "example-client"
EXAMPLE_KEY = Path(__file__).resolve().parents[1] / "tests" / "keys" / "issuer-test-key.pem"


@contextlib.contextmanager
def example_issuer() -> Iterator[dict[str, str]]:
    """The example issuer's JWKS served on a free port of 127.0.0.1, and the variables that
    make the WebSocket authorizer trust it (for events/wsauth.json, when none are given)."""
    from cryptography.hazmat.primitives import serialization
    from jwt.algorithms import RSAAlgorithm

    private = serialization.load_pem_private_key(EXAMPLE_KEY.read_bytes(), None)
    jwk = json.loads(RSAAlgorithm.to_jwk(private.public_key()))  # type: ignore[arg-type]
    body = json.dumps({"keys": [{**jwk, "kid": "test-key", "use": "sig", "alg": "RS256"}]}).encode()

    class Keys(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *_args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Keys)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield {
            "JWT_ISSUER": EXAMPLE_ISSUER,
            "JWT_AUDIENCE": EXAMPLE_AUDIENCE,
            "JWT_JWKS_URL": f"http://127.0.0.1:{server.server_port}/.well-known/jwks.json",
        }
    finally:
        server.shutdown()


def read_env_vars(path: str | None, function: str) -> dict[str, str]:
    """``sam local invoke --env-vars``' file: ``{"Parameters": {...}}`` for every function,
    ``{"<LogicalId>": {...}}`` for one."""
    if path is None:
        return {}
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, json.JSONDecodeError) as err:
        raise Refused(f"cannot read --env-vars {path}: {err}") from err
    merged = {**data.get("Parameters", {}), **data.get(function, {})}
    return {str(key): str(value) for key, value in merged.items()}


@contextlib.contextmanager
def database(template: Template, endpoint: str | None) -> Iterator[str]:
    """A running DynamoDB (its tables made if missing) or a fresh one in memory, with the
    handlers' environment set."""
    if endpoint is None:
        print("DynamoDB Local: a fresh one in memory", file=sys.stderr)
        with local_database(template) as fresh:
            yield fresh
        return
    if not ddb.answers(endpoint):
        raise Refused(f"no DynamoDB answers at {endpoint} (is `make run` running?)")
    ensure_tables(endpoint, template)
    os.environ.update(local_environment(template, endpoint))
    yield endpoint


def invoke(name: str, code_uri: Path, handler_name: str, event: dict[str, Any]) -> int:
    """Run the handler as Lambda would; print its response (stdout) and a report (stderr)."""
    handler = load_handler(code_uri, handler_name)
    context = LambdaContext(function_name=name)
    request_id = str(uuid.uuid4())
    print(f"START RequestId: {request_id}", file=sys.stderr)
    started = time.perf_counter()
    failed = False
    try:
        with contextlib.redirect_stdout(sys.stderr):  # the function's logs: not the response
            result: Any = handler(event, context)
    except Exception as err:
        failed = True
        result = {
            "errorMessage": str(err),
            "errorType": type(err).__name__,
            "requestId": request_id,
            "stackTrace": traceback.format_exception(err)[1:],
        }
    elapsed = (time.perf_counter() - started) * 1000
    print(f"END RequestId: {request_id}", file=sys.stderr)
    print(f"REPORT RequestId: {request_id}\tDuration: {elapsed:.2f} ms", file=sys.stderr)
    print(json.dumps(result))
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m local.function", description=(__doc__ or "").split("\n\n")[0]
    )
    parser.add_argument("function", help="logical id (PlayFunction) or folder (play)")
    parser.add_argument("event", help="a JSON event file, or - for standard input")
    parser.add_argument("--endpoint", help="a running DynamoDB (make run's: :8000)")
    parser.add_argument(
        "--no-setup", action="store_true", help="do not make the game the event is about"
    )
    parser.add_argument(
        "--env-vars", help='variables, as sam local invoke\'s file: {"Parameters": {...}}'
    )
    args = parser.parse_args(argv)
    template = Template()
    try:
        name, code_uri, handler_name = find_function(template, args.function)
        event = read_event(args.event)
        given = read_env_vars(args.env_vars, name)
        with contextlib.ExitStack() as stack:
            endpoint = stack.enter_context(database(template, args.endpoint))
            sns = LocalSns()  # mobile push as make run has it: moto's server
            stack.callback(sns.stop)
            os.environ.update(sns.environment())
            variables = template.resources[name]["Properties"].get("Environment", {})
            if "JWT_ISSUER" in variables.get("Variables", {}) and "JWT_ISSUER" not in given:
                os.environ.update(stack.enter_context(example_issuer()))
            os.environ.update(given)
            if not args.no_setup and args.event != "-":
                harness = Harness(template, endpoint=endpoint, quiet=True)
                try:
                    made = prepare(harness, Path(args.event), event)
                except AssertionError as err:
                    raise Refused(
                        f"could not make the event's game first ({err}); on a database that "
                        "has it already, add --no-setup"
                    ) from err
                if made:
                    print(f"setup: {made}", file=sys.stderr)
            return invoke(name, code_uri, handler_name, event)
    except (Refused, ddb.DynamoUnavailable) as err:
        print(f"make invoke: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
