"""DynamoDB Local's class-data archive (local/classdata.py): built once for a jar and a Java,
mapped in by every start while both are the same, and never in the way of a start: a changed
jar or Java, or no archive, starts the jar as installed."""

from __future__ import annotations

import json
import subprocess
import zipfile
from pathlib import Path

import pytest

from local import classdata, ddb


def test_the_copy_names_library_jars_alone_in_lines_a_manifest_allows(tmp_path: Path) -> None:
    jar_dir = tmp_path / "lib" / "v1"
    (jar_dir / "libs").mkdir(parents=True)
    names = [
        f"libs/a-very-long-library-name-that-wraps-the-manifest-line-{i}.jar" for i in range(3)
    ]
    for name in names:
        (jar_dir / name).write_bytes(b"")
    original = (
        "Manifest-Version: 1.0\r\nMain-Class: some.Main\r\nClass-Path: . log4j2.xml "
        + " ".join(names[:2])
        + " \r\n "  # a continuation line: the value goes on after its leading space
        + names[2]
        + " libs/missing.jar\r\n\r\n"
    )
    copy_dir = tmp_path / "cds" / "key"
    written = classdata._manifest(original, jar_dir, copy_dir)
    lines = written.split("\r\n")
    assert all(len(line.encode()) <= 72 for line in lines)
    unfolded = written.replace("\r\n ", "")
    class_path = next(line for line in unfolded.split("\r\n") if line.startswith("Class-Path:"))
    # no folder (".") and no file that is not a jar, nor one that is not there
    assert class_path.split()[1:] == [f"../../lib/v1/{name}" for name in names]
    assert "Main-Class: some.Main" in unfolded
    with pytest.raises(ValueError):
        classdata._manifest("Manifest-Version: 1.0\r\n", jar_dir, copy_dir)


def test_a_start_takes_the_archive_only_for_the_jar_and_java_it_was_made_for(
    tmp_path: Path,
) -> None:
    java, jar = ddb.check_java(), ddb.ensure_installed()
    root = tmp_path / "ddb"
    as_installed = ["-jar", str(jar)]
    assert classdata.launch(root, jar, java) == as_installed  # nothing prepared
    folder = classdata._folder(root, java)
    folder.mkdir(parents=True)
    (folder / "ddb.jsa").write_bytes(b"archive")
    (folder / "DynamoDBLocal.jar").write_bytes(b"copy")
    assert classdata.launch(root, jar, java) == as_installed  # no stamp: a build cut short
    identity = classdata._identity(jar, java)
    (folder / "stamp.json").write_text(json.dumps({**identity, "jar_size": 1}))
    assert classdata.launch(root, jar, java) == as_installed  # another jar
    (folder / "stamp.json").write_text("{not json")
    assert classdata.launch(root, jar, java) == as_installed
    (folder / "stamp.json").write_text(json.dumps(identity))
    archived = classdata.launch(root, jar, java)
    assert archived[0] == f"-XX:SharedArchiveFile={folder / 'ddb.jsa'}"
    assert archived[-2:] == ["-jar", str(folder / "DynamoDBLocal.jar")]
    (folder / "ddb.jsa").unlink()
    assert classdata.launch(root, jar, java) == as_installed


def test_the_archive_make_prepared_is_mapped_in_and_dynamodb_local_answers_on_it() -> None:
    """``make test`` prepares it (the DynamoDB Local install step); ``-Xshare:on`` makes a JVM
    that cannot map the archive fail instead of going on without it."""
    java, jar = ddb.check_java(), ddb.ensure_installed()
    assert classdata.prepare(ddb.install_dir(), jar, java, ddb.run_once) is not None  # no rebuild
    arguments = classdata.launch(ddb.install_dir(), jar, java)
    copy = Path(arguments[-1])
    assert arguments[0].startswith("-XX:SharedArchiveFile=") and copy.name == "DynamoDBLocal.jar"
    with zipfile.ZipFile(copy) as archive:
        manifest = archive.read("META-INF/MANIFEST.MF").decode().replace("\r\n ", "")
    class_path = next(line for line in manifest.split("\r\n") if line.startswith("Class-Path:"))
    assert all(entry.endswith(".jar") for entry in class_path.split()[1:])
    mapped = subprocess.run(
        [java, "-Xshare:on", *arguments, "-help"], capture_output=True, text=True, timeout=60
    )
    assert mapped.returncode == 0, mapped.stdout + mapped.stderr
    server = ddb.start_dynamodb_local(ddb.free_port())
    try:
        assert str(copy) in Path(f"/proc/{server.process.pid}/cmdline").read_text()
        assert ddb.is_ours(server.process.pid, port=server.port)
        assert ddb.answers(f"http://127.0.0.1:{server.port}")
    finally:
        server.stop()


def test_a_java_that_makes_no_archive_is_tried_once_and_a_failed_try_again(
    tmp_path: Path,
) -> None:
    java, jar = ddb.check_java(), ddb.ensure_installed()
    root = tmp_path / "ddb"
    tries: list[list[str]] = []

    def fails(_launch: list[str]) -> None:
        raise RuntimeError("DynamoDB Local did not start on the copied jar")

    def makes_nothing(launch: list[str]) -> None:
        tries.append(launch)

    with pytest.raises(RuntimeError):
        classdata.prepare(root, jar, java, fails)
    assert not (classdata._folder(root, java) / "stamp.json").exists()  # not stamped: tried again
    assert classdata.prepare(root, jar, java, makes_nothing) is None
    assert classdata.prepare(root, jar, java, makes_nothing) is None
    assert len(tries) == 1  # the second call found the stamp
    assert classdata.launch(root, jar, java) == ["-jar", str(jar)]
