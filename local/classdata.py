"""A class-data archive of DynamoDB Local's classes, so that each of its starts maps them in
instead of loading, parsing and verifying them again (about a third less CPU a start:
docs/benchmarks.md, "DynamoDB Local's classes archived").

The JVM archives only classes from jars whose class path names no folder, and the jar's own
manifest names its folder (``Class-Path: .``). So ``prepare`` writes a copy of the jar beside
the archive whose manifest lists the library jars alone, runs DynamoDB Local once on it with
``-XX:ArchiveClassesAtExit`` (the tables made, a few requests served), and records which jar
and which Java the archive belongs to. ``launch`` then starts that copy with the archive, or
the jar as installed when there is none for this jar and this Java: a start never builds one
and never waits for one, and a JVM that finds the archive unusable ignores it.

    python -c 'from local import ddb; ddb.prepare_class_data()'   # what make runs
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import re
import shutil
import zipfile
from collections.abc import Callable
from pathlib import Path

#: manifest lines are at most 72 bytes; a longer value goes on continuation lines of 71
_LINE = 72
_MAIN_CLASS = "Main-Class"
#: DynamoDB Local run once on the given JVM arguments (local/ddb.py ``run_once``)
Run = Callable[[list[str]], None]


def _folder(root: Path, java: str) -> Path:
    """Where the archive for ``java`` lives under ``root``: one folder a Java (a test runs
    DynamoDB Local on another)."""
    key = hashlib.sha256(os.path.realpath(shutil.which(java) or java).encode()).hexdigest()[:12]
    return root / "cds" / key


def _identity(jar: Path, java: str) -> dict[str, object]:
    """What the archive is valid for: this jar and this Java, as they are on disk now."""
    real = Path(os.path.realpath(shutil.which(java) or java))
    jar_stat, java_stat = jar.stat(), real.stat()
    return {
        "jar": str(jar.resolve()),
        "jar_size": jar_stat.st_size,
        "jar_mtime": jar_stat.st_mtime_ns,
        "java": str(real),
        "java_mtime": java_stat.st_mtime_ns,
    }


def launch(root: Path, jar: Path, java: str) -> list[str]:
    """The JVM arguments that run DynamoDB Local: the archived copy with its archive when one
    was prepared under ``root`` for this jar and this Java, else ``-jar`` the jar as installed."""
    folder = _folder(root, java)
    with contextlib.suppress(OSError, ValueError):
        stamp = json.loads((folder / "stamp.json").read_text())
        archive, copy = folder / "ddb.jsa", folder / "DynamoDBLocal.jar"
        if stamp == _identity(jar, java) and archive.is_file() and copy.is_file():
            return [f"-XX:SharedArchiveFile={archive}", "-Xlog:cds=off", "-jar", str(copy)]
    return ["-jar", str(jar)]


def _manifest(original: str, jar_dir: Path, copy_dir: Path) -> str:
    """The jar's manifest with a class path of its library jars alone, relative to the copy."""
    unfolded = re.sub(r"\r?\n ", "", original)
    lines = [line for line in unfolded.splitlines() if line.strip()]
    kept, class_path = [], []
    for line in lines:
        name, _, value = line.partition(":")
        if name == "Class-Path":
            class_path = value.split()
        else:
            kept.append(line)
    if not any(line.startswith(f"{_MAIN_CLASS}:") for line in kept):
        raise ValueError("the jar names no Main-Class")
    jars = [
        Path(os.path.relpath(jar_dir / entry, copy_dir)).as_posix()
        for entry in class_path
        if entry.endswith(".jar") and (jar_dir / entry).is_file()
    ]
    kept.append("Class-Path: " + " ".join(jars))
    return "".join(_wrapped(line) for line in kept) + "\r\n"


def _wrapped(line: str) -> str:
    raw = line.encode()
    parts = [raw[:_LINE]]
    parts += [b" " + raw[i : i + _LINE - 1] for i in range(_LINE, len(raw), _LINE - 1)]
    return "".join(part.decode() + "\r\n" for part in parts)


def _copy_jar(jar: Path, target: Path) -> None:
    with zipfile.ZipFile(jar) as source, zipfile.ZipFile(target, "w") as copy:
        manifest = source.read("META-INF/MANIFEST.MF").decode()
        for info in source.infolist():
            if info.filename == "META-INF/MANIFEST.MF":
                copy.writestr(info, _manifest(manifest, jar.parent, target.parent))
            else:
                copy.writestr(info, source.read(info), compress_type=info.compress_type)


def exercise(endpoint: str) -> None:
    """The tables made and the requests every run makes, on DynamoDB Local at ``endpoint``,
    so that their classes are archived too."""
    # boto3 only here: every start imports this module, and most never train
    from local.tables import dynamodb_client, ensure_tables

    client = dynamodb_client(endpoint)
    for table in ensure_tables(endpoint):
        description = client.describe_table(TableName=table)["Table"]
        keys = [k["AttributeName"] for k in description["KeySchema"]]
        item = {name: {"S": "classdata"} for name in keys}
        client.put_item(TableName=table, Item=item)
        client.get_item(TableName=table, Key=item, ConsistentRead=True)
        client.query(
            TableName=table,
            KeyConditionExpression="#k = :v",
            ExpressionAttributeNames={"#k": keys[0]},
            ExpressionAttributeValues={":v": {"S": "classdata"}},
        )
        client.delete_item(TableName=table, Key=item)


def prepare(root: Path, jar: Path, java: str, run: Run) -> Path | None:
    """Build the archive for ``jar`` on ``java`` under ``root`` unless it was built, or tried,
    already (``run(launch)``: DynamoDB Local run once on those JVM arguments, ``exercise``d,
    and ended with SIGTERM, as the JVM writes the archive while it exits); its path, or None
    when this Java makes none (then DynamoDB Local starts as installed, and no later call tries
    again)."""
    folder = _folder(root, java)
    identity = _identity(jar, java)
    stamp, archive = folder / "stamp.json", folder / "ddb.jsa"
    folder.parent.mkdir(parents=True, exist_ok=True)
    with (folder.parent / "lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # two makes at once: the second finds it built
        with contextlib.suppress(OSError, ValueError):
            if json.loads(stamp.read_text()) == identity:
                return archive if archive.is_file() else None
        # built where it is used (the archive records the copy's path); the stamp is written
        # last, so a build cut short leaves nothing that ``launch`` takes
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir()
        copy = folder / "DynamoDBLocal.jar"
        _copy_jar(jar, copy)
        run([f"-XX:ArchiveClassesAtExit={archive}", "-Xlog:cds=off", "-jar", str(copy)])
        # tried (a failed start raised): a Java that makes no archive is not asked again
        stamp.write_text(json.dumps(identity))
        return archive if archive.is_file() else None
