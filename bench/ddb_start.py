"""What one DynamoDB Local start costs, with and without its class-data archive
(local/classdata.py), in turn: the JVM's CPU and the wall time until it answers, then the
tables made (what every `make run` and every test runtime does before its first request).

A `make test` starts about 40 of them (one a runtime, one a worker), so a second of CPU here
is about 40 s of the suite's. The archive is prepared first if it is missing.

    .venv/bin/python bench/ddb_start.py [--rounds 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path

import _tree  # noqa: F401  (the checkout on sys.path)

from local import classdata, ddb
from local.tables import ensure_tables

HZ = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / HZ  # utime + stime


def one_start(archived: bool) -> tuple[float, float, float]:
    """(seconds until it answers, its CPU then, its CPU once the tables are made)."""
    plain = None if archived else ["-jar", str(ddb.ensure_installed())]
    began = time.monotonic()
    server = ddb.start_dynamodb_local(ddb.free_port(), launch=plain)
    try:
        answered = time.monotonic() - began
        up = cpu_seconds(server.process.pid)
        ensure_tables(f"http://127.0.0.1:{server.port}")
        return answered, up, cpu_seconds(server.process.pid)
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    ddb.prepare_class_data()
    java, jar = ddb.check_java(), ddb.ensure_installed()
    if classdata.launch(ddb.install_dir(), jar, java)[0] == "-jar":
        raise SystemExit("this Java made no class-data archive: nothing to compare")
    results: dict[bool, list[tuple[float, float, float]]] = {False: [], True: []}
    for _ in range(args.rounds):
        for archived in (False, True):
            results[archived].append(one_start(archived))
    print(f"DynamoDB Local starts on {java}, {args.rounds} of each in turn (medians):")
    for archived, runs in results.items():
        wall, up, tables = (statistics.median(column) for column in zip(*runs, strict=True))
        name = "with the archive" if archived else "as installed"
        print(
            f"  {name:17s} answers after {wall:.2f} s, {up:.2f} s of CPU; "
            f"{tables:.2f} s of CPU with the tables made"
        )


if __name__ == "__main__":
    main()
