"""The local runtime as a process of its own, driven over HTTP: what the e2e tests and the
benchmarks start (``python -m local``, as ``make run`` does) and talk to.

    runtime = Runtime(free_port(), free_port())  # in memory; data_dir=PATH keeps the data
    runtime.start()  # waits for GET /health
    try:
        status, headers, body = runtime.request("GET", "/me", token=runtime.token("ana"))
    finally:
        runtime.stop()
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import IO, Any

from local.paths import REPO_ROOT

#: seconds a request may take before ``request`` gives up (a load benchmark queues them)
REQUEST_TIMEOUT = 60.0
#: seconds ``stop`` waits after SIGTERM before it kills
STOP_TIMEOUT = 30.0
#: characters of the runtime's output a failed start shows
OUTPUT_TAIL = 2000


class Runtime:
    """A ``python -m local`` process on ``port`` (HTTP, WebSocket at ``/ws``) and ``ddb_port``
    (DynamoDB Local), in memory, or on ``data_dir`` (then ``stop`` and ``start`` restart it on
    the same data and ports).

    ``workers``: its handler processes (``--workers``; None: ``LOCAL_WORKERS``, else 4).
    ``tree``: another checkout whose template.yaml, functions/ and shared/ it serves
    (``DOMINO_TEMPLATE``, and ``PYTHONPATH`` with that shared/ first), driven by this
    checkout's runtime, or by its own with ``tree_runtime`` (a benchmark of the runtime itself,
    bench/stop.py). ``quiet``: no access log. ``log``: a file for its stdout and stderr
    (None: stderr goes to a temporary file, never a pipe nobody reads, which would fill and
    stall it; a failed start shows the file's end)."""

    def __init__(
        self,
        port: int,
        ddb_port: int,
        data_dir: Path | None = None,
        *,
        workers: int | None = None,
        tree: Path | None = None,
        tree_runtime: bool = False,
        quiet: bool = True,
        log: Path | None = None,
    ) -> None:
        self.port, self.ddb_port, self.data_dir = port, ddb_port, data_dir
        self.workers, self.tree, self.quiet, self.log = workers, tree, quiet, log
        self.tree_runtime = tree_runtime
        self.base = f"http://127.0.0.1:{port}"
        self.process: subprocess.Popen[bytes] | None = None
        self._output: IO[bytes] | None = None

    def arguments(self) -> list[str]:
        args = [sys.executable, "-m", "local", "--port", str(self.port)]
        args += ["--ddb-port", str(self.ddb_port)]
        args += ["--quiet"] if self.quiet else []
        args += [] if self.workers is None else ["--workers", str(self.workers)]
        args += ["--data-dir", str(self.data_dir)] if self.data_dir else ["--in-memory"]
        return args

    def environment(self) -> dict[str, str]:
        """This process's environment, as it is when ``start`` runs, pointed at ``tree``."""
        env = dict(os.environ)
        if self.tree is not None:
            env["DOMINO_TEMPLATE"] = str(self.tree / "template.yaml")
            env["PYTHONPATH"] = os.pathsep.join([str(self.tree / "shared"), str(REPO_ROOT)])
        return env

    def start(self, timeout: float = 90) -> float:
        """Start it and wait until ``GET /health`` answers 200: the seconds that took. When it
        exits first, or is not ready within ``timeout``, it is stopped and RuntimeError says
        why (with the end of its output)."""
        self._close_output()
        # kept open for the process's life (closed by stop), so no with-block
        self._output = self.log.open("w+b") if self.log else tempfile.TemporaryFile()  # noqa: SIM115
        started = time.monotonic()
        self.process = subprocess.Popen(
            self.arguments(),
            cwd=self.tree if self.tree is not None and self.tree_runtime else REPO_ROOT,
            env=self.environment(),
            stdout=self._output if self.log else None,
            stderr=self._output,
        )
        try:
            while time.monotonic() - started < timeout:
                if self.process.poll() is not None:
                    raise RuntimeError(
                        f"the local runtime exited ({self.process.returncode}): {self.output()}"
                    )
                try:
                    if self.request("GET", "/health")[0] == 200:
                        return time.monotonic() - started
                except OSError:
                    pass
                time.sleep(0.2)
            raise RuntimeError(
                f"the local runtime was not ready in {timeout:.0f} s: {self.output()}"
            )
        except BaseException:
            self.stop()
            raise

    def stop(self, timeout: float = STOP_TIMEOUT) -> None:
        """SIGTERM (the runtime ends DynamoDB Local and its workers), then SIGKILL if it is
        still there after ``timeout`` seconds."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._close_output()

    def output(self) -> str:
        """The end of what the runtime wrote (its stderr; with ``log``, its stdout too)."""
        if self._output is None or self._output.closed:
            return ""
        # pread: the runtime shares the file's offset, which a seek here would move
        fd = self._output.fileno()
        size = os.fstat(fd).st_size
        start = max(0, size - OUTPUT_TAIL)
        return os.pread(fd, size - start, start).decode(errors="replace")

    def _close_output(self) -> None:
        if self._output is not None:
            self._output.close()
            self._output = None

    # ------------------------------------------------------------------------- over HTTP

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        token: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, dict[str, str], Any]:
        """Status, headers and parsed body (None for an empty one). ``body``: JSON, or bytes
        sent as they are; every request says ``Content-Type: application/json`` unless
        ``headers`` says otherwise."""
        data = (
            body
            if isinstance(body, bytes)
            else (None if body is None else json.dumps(body).encode())
        )
        req = urllib.request.Request(self.base + path, data=data, method=method)
        req.add_header("Content-Type", "application/json")
        if token:
            req.add_header("Authorization", f"Bearer {token}")
        for key, value in (headers or {}).items():
            req.add_header(key, value)
        try:
            with urllib.request.urlopen(req, timeout=REQUEST_TIMEOUT) as resp:
                raw = resp.read()
                return resp.status, dict(resp.headers), json.loads(raw) if raw else None
        except urllib.error.HTTPError as err:
            raw = err.read()
            return err.code, dict(err.headers), json.loads(raw) if raw else None

    def get_retrying(
        self, path: str, token: str | None = None, within: float = 10
    ) -> tuple[int, dict[str, str], Any]:
        """GET, retrying a 503 as clients do after Retry-After (here sooner, to keep tests
        quick): /moves answers 503 while the stream consumer has not yet archived a hand that
        just left the game item."""
        deadline = time.monotonic() + within
        while True:
            status, headers, body = self.request("GET", path, token=token)
            if status != 503 or time.monotonic() > deadline:
                return status, headers, body
            time.sleep(min(float(headers.get("Retry-After", 1)), 0.2))

    def token(self, player: str, name: str | None = None, locale: str | None = None) -> str:
        """A dev token for ``player`` (``name``: their display name; None: the player id;
        ``locale``: the token's locale claim)."""
        ask: dict[str, str | None] = {"player": player, "name": name}
        if locale is not None:
            ask["locale"] = locale
        status, _, body = self.request("POST", "/dev/token", ask)
        if status != 200:
            raise RuntimeError(f"POST /dev/token answered {status}: {body}")
        return str(body["token"])

    def database(self) -> Any:
        """A boto3 client of the runtime's DynamoDB Local."""
        import boto3

        return boto3.client(
            "dynamodb",
            endpoint_url=f"http://127.0.0.1:{self.ddb_port}",
            region_name="us-east-1",
            aws_access_key_id="local",
            aws_secret_access_key="local",
        )

    # ------------------------------------------------------------------------- its CPU

    def cpu_seconds(self) -> dict[str, float]:
        """CPU time so far of the runtime's processes, by role: ``database`` (DynamoDB Local's
        JVM), ``workers`` (the function containers) and ``front`` (the HTTP and WebSocket
        server, the stream pump, the sweeper). Read from /proc: empty where there is none."""
        if self.process is None:
            return {}
        roles: dict[str, float] = {}
        ticks = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
        for pid in process_tree(self.process.pid):
            try:
                with open(f"/proc/{pid}/stat") as stat:
                    fields = stat.read().rsplit(")", 1)[1].split()
                with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
                    command = cmdline.read()
            except OSError:
                continue
            role = (
                "database"
                if b"java" in command
                else "workers"
                if b"multiprocessing" in command
                else "front"
            )
            roles[role] = roles.get(role, 0.0) + (int(fields[11]) + int(fields[12])) / ticks
        return roles


def process_tree(root: int) -> list[int]:
    """``root`` and its descendants (Linux /proc; just ``root`` elsewhere)."""
    children: dict[int, list[int]] = {}
    proc = Path("/proc")
    for entry in proc.glob("[0-9]*/stat") if proc.is_dir() else []:
        try:
            fields = entry.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(entry.parent.name))
    found, queue = [], [root]
    while queue:
        pid = queue.pop()
        found.append(pid)
        queue += children.get(pid, [])
    return found
