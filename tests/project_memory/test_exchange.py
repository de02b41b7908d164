"""TOML export is stable and readable; import merges by id and is idempotent."""

from __future__ import annotations

import os
import stat
import subprocess
import tomllib
from pathlib import Path

import pytest

from sessiontui.project_memory.exchange import export_toml, import_toml, write_atomic
from sessiontui.project_memory.records import Record
from sessiontui.project_memory.store import Store, StoreError


def test_round_trip_into_an_empty_store(store: Store, tmp_path: Path) -> None:
    store.add(Record(kind="benchmark", config="base", value=50.0, baseline=True, figures={"itl_ms": 20.1}))
    store.add(Record(kind="lesson", title="t", symptom="s", cause="c", fix="f", tags=["oom"]))
    gone = store.add(Record(kind="note", text="deleted but kept in the export"))
    store.delete(gone.id)
    path = tmp_path / "memory.toml"
    text = export_toml(store, path)
    assert tomllib.loads(text)["format_version"] == 1
    assert export_toml(store) == text  # stable order and formatting

    with Store(tmp_path / "other.db") as other:
        assert import_toml(other, path) == (3, 0)
        assert import_toml(other, path) == (0, 0)
        assert {r.id for r in other.list()} | {r.id for r in other.list(deleted=True)} == {
            r.id for r in store.list() + store.list(deleted=True)
        }
        assert other.list("benchmark")[0].figures == {"itl_ms": 20.1}


def test_bad_toml_is_one_line_error(store: Store, tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text("[[record]\nkind = ", encoding="utf-8")
    with pytest.raises(StoreError) as err:
        import_toml(store, path)
    assert "\n" not in str(err.value) and str(path) in str(err.value)


def test_an_export_through_a_link_keeps_the_link(tmp_path: Path) -> None:
    target, link = tmp_path / "shared" / "memory.toml", tmp_path / "memory.toml"
    target.parent.mkdir()
    link.symlink_to(target)
    write_atomic(link, "format_version = 1\n")
    assert link.is_symlink() and target.read_text() == "format_version = 1\n"


def test_an_export_into_a_pipe_writes_through_it_never_replaces_it(tmp_path: Path) -> None:
    """As /dev/stdout or /dev/null would be: replacing them (as root) broke the machine."""
    import stat
    import threading

    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    received: list[str] = []
    reader = threading.Thread(target=lambda: received.append(pipe.read_text()))
    reader.start()
    write_atomic(pipe, "format_version = 1\n")
    reader.join(timeout=10)
    assert received == ["format_version = 1\n"] and stat.S_ISFIFO(os.stat(pipe).st_mode)
    assert [p.name for p in tmp_path.iterdir()] == ["pipe"]  # no temporary file left


def test_an_endless_input_is_refused_not_read_into_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from sessiontui.project_memory import exchange

    monkeypatch.setattr(exchange, "MAX_INPUT_BYTES", 1000)
    assert exchange.read_bounded(io.BytesIO(b"x" * 1000), "f") == b"x" * 1000
    with pytest.raises(StoreError, match="larger than"):
        exchange.read_bounded(io.BytesIO(b"x" * 1001), "f")


def test_files_are_created_private_and_replaced_with_their_mode(store: Store, tmp_path: Path) -> None:
    store.add(Record(kind="note", text="private plan"))
    assert stat.S_IMODE(store.path.stat().st_mode) == 0o600
    out = tmp_path / "memory.toml"
    export_toml(store, out)
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    out.chmod(0o640)  # chosen by its owner: kept by the next export
    export_toml(store, out)
    assert stat.S_IMODE(out.stat().st_mode) == 0o640


def test_a_temporary_file_of_a_killed_export_is_removed_by_the_next(store: Store, tmp_path: Path) -> None:
    gone = subprocess.Popen(["true"])  # a pid that is gone once it has been waited for
    gone.wait()
    stale = tmp_path / f".memory.toml.{gone.pid}.abc123.tmp"
    stale.write_text("half an export")
    mine = tmp_path / f".memory.toml.{os.getpid()}.def456.tmp"  # a writer still running
    mine.write_text("in progress")
    export_toml(store, tmp_path / "memory.toml")
    assert not stale.exists() and mine.exists()
