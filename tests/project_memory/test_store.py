"""The SQLite store: ids, ordering, soft delete, search, migrations and damaged files."""

from __future__ import annotations

import sqlite3

import pytest

from sessiontui.project_memory.records import Record
from sessiontui.project_memory.store import MIGRATIONS, Conflict, Store, StoreError


def bench(config: str, value: float, **kw) -> Record:
    return Record(kind="benchmark", config=config, value=value, status="ok", **kw)


def test_add_assigns_id_and_round_trips_every_field(store: Store) -> None:
    record = bench("SGLang baseline", 50.0, baseline=True, concurrency=1, tags=["tp1"],
                   figures={"ttft_ms_median": 31.5}, accept_length=None)
    stored = store.add(record)
    assert stored.id.startswith("b-") and stored.created_at
    again = store.get(stored.id)
    assert again.to_dict() == stored.to_dict()


def test_add_all_stores_every_record_or_none(store: Store) -> None:
    added = store.add_all([bench("a", 1.0), Record(kind="note", text="two")])
    assert [r.id[:2] for r in added] == ["b-", "n-"]
    assert {r.id for r in store.list()} == {r.id for r in added}
    with pytest.raises(ValueError):
        store.add_all([bench("kept out", 2.0), bench("bad", float("nan"))])
    assert {r.id for r in store.list()} == {r.id for r in added}


def test_get_by_unique_prefix_and_ambiguity(store: Store) -> None:
    a = store.add(Record(kind="note", text="one", id="n-aaa111"))
    store.add(Record(kind="note", text="two", id="n-aaa222"))
    assert store.get("n-aaa1").id == a.id
    with pytest.raises(StoreError, match="ambiguous"):
        store.get("n-aaa")
    with pytest.raises(StoreError, match="no record"):
        store.get("zzz")


def test_list_is_newest_first_even_within_one_second(store: Store) -> None:
    ids = [store.add(Record(kind="note", text=str(i))).id for i in range(5)]
    assert [r.id for r in store.list("note")] == ids[::-1]


def test_delete_is_recoverable(store: Store) -> None:
    record = store.add(bench("x", 1.0))
    store.delete(record.id)
    assert store.list() == []
    assert [r.id for r in store.list(deleted=True)] == [record.id]
    with pytest.raises(StoreError):
        store.get(record.id)
    store.restore(record.id)
    assert store.get(record.id).deleted_at is None


def test_benchmarks_skip_failed_attempts_and_filter_baseline(store: Store) -> None:
    store.add(bench("base", 50.0, baseline=True))
    store.add(Record(kind="benchmark", config="crashed run", status="failed", value=None))
    store.add(bench("spec", 60.0))
    assert [r.config for r in store.benchmarks("output_tok_s")] == ["spec", "base"]
    assert [r.config for r in store.benchmarks("output_tok_s", baseline=True)] == ["base"]


def test_search_ranks_by_relevance_and_survives_fts_syntax(store: Store) -> None:
    store.add(Record(kind="lesson", title="Packing bug", symptom="loss flat, packing disabled",
                     cause="collator ignored packing flag", fix="pass --packing"))
    store.add(Record(kind="lesson", title="NCCL timeout", symptom="watchdog", cause="slow rank", fix="x"))
    found = store.search("what went wrong with packed sequences?", kind="lesson")
    assert found and found[0].title == "Packing bug"
    assert store.search('"unbalanced AND ( quotes*') == []


def test_update_replaces_search_text(store: Store) -> None:
    record = store.add(Record(kind="note", text="alpha"))
    record.text = "beta"
    store.update(record)
    assert store.search("alpha") == []
    assert [r.id for r in store.search("beta")] == [record.id]


def test_schema_version_and_wal(store: Store) -> None:
    db = sqlite3.connect(store.path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_newer_schema_is_refused_not_touched(tmp_path) -> None:
    path = tmp_path / "memory.db"
    Store(path).close()
    sqlite3.connect(path).execute("PRAGMA user_version = 99")
    with pytest.raises(StoreError, match="newer sessiontui"):
        Store(path)


def test_damaged_file_is_reported_and_left_untouched(tmp_path) -> None:
    path = tmp_path / "memory.db"
    garbage = b"this is not sqlite\x00" * 300
    path.write_bytes(garbage)
    with pytest.raises(StoreError) as err:
        Store(path)
    assert str(path) in str(err.value) and "\n" not in str(err.value)
    assert path.read_bytes() == garbage


def test_merge_is_idempotent_and_takes_newer_versions(store: Store) -> None:
    original = store.add(Record(kind="note", text="v1"))
    newer = Record.from_dict(original.to_dict() | {"text": "v2", "updated_at": "2999-01-01T00:00:00+00:00"})
    fresh = Record(kind="note", text="other", id="n-fresh", created_at="2026-01-01T00:00:00+00:00",
                   updated_at="2026-01-01T00:00:00+00:00")
    assert store.merge([newer, fresh]) == (1, 1)
    assert store.merge([newer, fresh]) == (0, 0)
    assert store.get(original.id).text == "v2"


def test_fingerprint_changes_with_each_write_of_its_kinds(store: Store) -> None:
    shown = ("benchmark", "note")
    seen = [store.fingerprint(shown)]
    note = store.add(Record(kind="note", text="a"))
    seen.append(store.fingerprint(shown))
    store.add(Record(kind="run", name="not shown"))
    assert store.fingerprint(shown) == seen[-1]
    note.text = "b"
    store.update(note)
    seen.append(store.fingerprint(shown))
    store.delete(note.id)
    seen.append(store.fingerprint(shown))
    assert len(set(seen)) == len(seen)


def test_version_1_database_is_migrated_in_place(tmp_path) -> None:
    path = tmp_path / "memory.db"
    db = sqlite3.connect(path)
    MIGRATIONS[0](db)
    body = Record(kind="note", text="kept", id="n-old", created_at="2026-01-01T00:00:00+00:00",
                  updated_at="2026-01-01T00:00:00+00:00")
    db.execute("INSERT INTO records VALUES (?,?,?,?,?,?,?,?,?,?,?)", Store._row(body))
    db.execute("PRAGMA user_version = 1")
    db.commit()
    db.close()
    with Store(path) as store:
        assert store.get("n-old").text == "kept"
        assert store.fingerprint(("note",)) == (1,)
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)


def test_an_edit_finds_its_search_row_by_rowid_not_by_a_scan(store: Store) -> None:
    note = store.add(Record(kind="note", text="warmup schedule"))
    def plan(where: str) -> str:  # FTS5 names the constraints it uses after the colon
        steps = store._db.execute(f"EXPLAIN QUERY PLAN DELETE FROM records_fts WHERE {where}",
                                  ("x",)).fetchall()
        return " ".join(str(step[-1]) for step in steps).rpartition(":")[2]

    assert plan("id = ?") == ""  # what edits used: every row visited
    assert plan("rowid = ?") == "="  # what they use: a rowid lookup
    note.text = "cosine schedule"
    store.update(note)
    assert [r.id for r in store.search("cosine")] == [note.id]
    assert store.search("warmup") == []
    fts_rows = store._db.execute("SELECT count(*) FROM records_fts").fetchone()[0]
    assert fts_rows == store.count() == 1


def test_version_2_database_is_searchable_after_migration(tmp_path) -> None:
    path = tmp_path / "memory.db"
    db = sqlite3.connect(path)
    MIGRATIONS[0](db)
    MIGRATIONS[1](db)
    good = Record(kind="note", text="fp8 kv cache", id="n-old", created_at="2026-01-01T00:00:00+00:00",
                  updated_at="2026-01-01T00:00:00+00:00")
    bad = bench("odd", 5.0, id="b-bad", created_at="2026-01-01T00:00:00+00:00",
                updated_at="2026-01-01T00:00:00+00:00", concurrency=-3)
    for record in (good, bad):
        db.execute("INSERT INTO records VALUES (?,?,?,?,?,?,?,?,?,?,?)", Store._row(record))
        db.execute("INSERT INTO records_fts(id, text) VALUES (?, ?)", (record.id, record.search_text()))
    db.execute("PRAGMA user_version = 2")
    db.commit()
    db.close()
    with Store(path) as store:
        assert [r.id for r in store.search("kv cache")] == ["n-old"]
        assert store.get("b-bad").status.startswith("invalid")  # checked when read, not trusted
        note = store.get("n-old")
        note.text = "bf16 kv cache"
        store.update(note)
        assert [r.text for r in store.search("bf16")] == ["bf16 kv cache"]


def test_a_stale_edit_is_refused_and_edit_reapplies_on_the_latest(store: Store) -> None:
    stored = store.add(bench("base", 50.0))
    first, second = store.get(stored.id), store.get(stored.id)
    first.concurrency = 8
    store.update(first, expected_revision=stored.revision)
    second.batch_size = 4
    with pytest.raises(Conflict, match="changed since it was read"):
        store.update(second, expected_revision=stored.revision)
    assert store.get(stored.id).batch_size is None
    store.edit(stored.id, {"batch_size": 4})
    latest = store.get(stored.id)
    assert (latest.concurrency, latest.batch_size, latest.revision) == (8, 4, 2)
