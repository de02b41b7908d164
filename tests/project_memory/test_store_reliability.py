"""The store under damage and pressure (issue 16, points 7, 8, 10, 13): a damaged file is never
written into and can be salvaged, a full disk says so, local edits win over older imports."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from sessiontui.project_memory.exchange import export_toml, import_toml, read_toml
from sessiontui.project_memory.records import MAX_REVISION, Record
from sessiontui.project_memory.salvage import salvage
from sessiontui.project_memory.store import GITIGNORE, MIGRATIONS, Store, StoreError

PAGE = 4096


def damaged_memory(path: Path, count: int = 2000, pages: range = range(100, 103)) -> None:
    """A memory of `count` notes whose file has random bytes over `pages` (the table's middle)."""
    with Store(path) as store:
        store.add_all([Record(kind="note", text=f"note {i} " + "x" * 300) for i in range(count)])
    db = sqlite3.connect(path)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    with path.open("r+b") as handle:
        handle.seek(PAGE * pages.start)
        handle.write(os.urandom(PAGE * len(pages)))


def test_the_memory_folder_is_created_with_a_gitignore(tmp_path: Path) -> None:
    with Store(tmp_path / "proj" / ".sessiontui" / "memory.db"):
        pass
    assert (tmp_path / "proj" / ".sessiontui" / ".gitignore").read_text() == GITIGNORE
    assert "*" in GITIGNORE.splitlines()


def test_a_damaged_file_is_never_written_into(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    damaged_memory(path)
    before = path.read_bytes()
    with Store(path) as store, pytest.raises(StoreError, match="is damaged .*nothing was written.*salvage"):
        store.add(Record(kind="note", text="must not land"))
    with Store(path) as store, pytest.raises(StoreError, match="is damaged"):
        import_toml(store, _export_of(tmp_path, 50))
    assert path.read_bytes() == before


def _export_of(tmp_path: Path, count: int) -> Path:
    with Store(tmp_path / "source.db") as source:
        source.add_all([Record(kind="note", text=f"imported {i}") for i in range(count)])
        out = tmp_path / "export.toml"
        export_toml(source, out)
    return out


def test_salvage_recovers_every_readable_record_and_counts_the_lost(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    damaged_memory(path, count=2000)
    result = salvage(path)
    assert 1900 <= len(result.records) < 2000
    assert len(result.records) + result.lost == 2000
    assert all(r.text.startswith("note ") for r in result.records)


def test_salvage_of_an_intact_file_loses_nothing(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    with Store(path) as store:
        store.add_all([Record(kind="note", text=f"n{i}") for i in range(300)])
        store.delete(store.list()[0].id)
    result = salvage(path)
    assert (len(result.records), result.lost) == (300, 0)
    assert sum(1 for r in result.records if r.deleted_at) == 1


def test_a_full_disk_during_import_names_the_cause_and_imports_nothing(tmp_path: Path) -> None:
    export = _export_of(tmp_path, 1000)
    with Store(tmp_path / "memory.db") as store:
        store.add(Record(kind="note", text="already here"))
        pages = store._db.execute("PRAGMA page_count").fetchone()[0]
        store._db.execute(f"PRAGMA max_page_count = {pages + 4}")  # the disk fills up now
        with pytest.raises(StoreError, match="is full; nothing was written") as err:
            import_toml(store, export)
        assert "rollback" not in str(err.value)
        assert store.count() == 1


def test_a_local_edit_is_never_reverted_by_re_importing_an_older_export(tmp_path: Path) -> None:
    with Store(tmp_path / "memory.db") as store:
        record = store.add(Record(kind="benchmark", config="base", value=50.0, baseline=True))
        export = tmp_path / "memory.toml"
        export_toml(store, export)
        record.value = 77.0
        store.update(record)
        assert import_toml(store, export) == (0, 0)
        assert store.get(record.id).value == 77.0 and store.get(record.id).revision == 1
        # the other way round: an export carrying the edit updates a copy that lacks it
        newer = tmp_path / "newer.toml"
        export_toml(store, newer)
    with Store(tmp_path / "copy.db") as copy:
        copy.merge(read_toml(export))
        assert import_toml(copy, newer) == (0, 1) and copy.get(record.id).value == 77.0


def test_a_record_imported_at_the_highest_revision_stays_editable(tmp_path: Path) -> None:
    with Store(tmp_path / "memory.db") as store:
        store.merge([Record(kind="note", id="n-1", text="t", revision=MAX_REVISION,
                            created_at="2026-01-01T00:00:00+00:00")])
        record = store.get("n-1")
        record.text = "edited"
        store.update(record)
        store.update(record)
        assert store.get("n-1").text == "edited"


def test_read_only_store_reads_and_refuses_writes(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    with Store(path) as store:
        store.add(Record(kind="note", text="hello"))
    with Store(path, readonly=True) as reader:
        assert [r.text for r in reader.list()] == ["hello"]
        with pytest.raises(StoreError, match="reading only"):
            reader.add(Record(kind="note", text="no"))
    with pytest.raises(StoreError, match="no project memory here yet"):
        Store(tmp_path / "absent.db", readonly=True)


def test_salvage_of_a_file_with_no_readable_page_says_so(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    path.write_bytes(b"\x00garbage" * 1000)
    with pytest.raises(StoreError, match="nothing can be read"):
        salvage(path)


def _traced_add(path: Path, text: str) -> list[str]:
    """Add a note through a fresh Store; the SQL its connection ran."""
    with Store(path) as store:
        statements: list[str] = []
        store._db.set_trace_callback(statements.append)
        store.add(Record(kind="note", text=text))
    return statements


def test_quick_check_runs_only_when_the_file_changed_outside_sessiontui(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    damaged_memory(path)  # written by sessiontui, then damaged by another program
    with pytest.raises(StoreError, match="is damaged"):
        _traced_add(path, "refused")
    clean = tmp_path / "clean.db"
    _traced_add(clean, "first")  # created, and checked, by sessiontui
    assert not any("quick_check" in sql for sql in _traced_add(clean, "second"))  # as left
    other = sqlite3.connect(clean)  # another program writes (checkpointed as it closes)
    other.execute(f"PRAGMA user_version = {len(MIGRATIONS)}")  # changes nothing but the file
    other.close()
    assert any("quick_check" in sql for sql in _traced_add(clean, "third"))
    with Store(clean) as store:
        assert len(store.list()) == 3
