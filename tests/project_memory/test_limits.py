"""Structural limits at every way in, and reads that survive a row written before them (issue 29)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sessiontui.project_memory import limits
from sessiontui.project_memory.exchange import export_toml, import_toml
from sessiontui.project_memory.records import Record, RecordError, is_invalid
from sessiontui.project_memory.salvage import salvage
from sessiontui.project_memory.store import Store, StoreError

NOTE = 'kind = "note"\ntext = "t"\ncreated_at = 2026-01-01T00:00:00Z\n'


def nested(levels: int) -> list:
    value: list = []
    for _ in range(levels - 1):
        value = [{"v": value}]
    return value


def test_a_300_level_history_is_refused_at_import_in_one_line(store: Store, tmp_path: Path) -> None:
    deep = "history = [" + "[" * 300 + "]" * 300 + "]\n"
    path = tmp_path / "deep.toml"
    path.write_text(f'[[record]]\nid = "n-ok"\n{NOTE}\n[[record]]\nid = "n-deep"\n{NOTE}{deep}')
    with pytest.raises(StoreError) as refused:
        import_toml(store, path)
    said = str(refused.value)
    assert "\n" not in said and "record 2 history: nested deeper than 16 levels" in said
    assert store.count() == 0  # all or nothing


def test_nesting_past_the_toml_parser_is_one_line_too(store: Store, tmp_path: Path) -> None:
    path = tmp_path / "deeper.toml"
    path.write_text(f'[[record]]\nid = "n-x"\n{NOTE}history = ' + "[" * 5000 + "]" * 5000 + "\n")
    with pytest.raises(StoreError, match="nested deeper than 16 levels"):
        import_toml(store, path)


def test_long_texts_long_lists_and_too_many_records_are_refused(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    with pytest.raises(RecordError, match="text: text longer than 200,000 characters"):
        store.add(Record(kind="note", text="x" * 200_001))
    with pytest.raises(RecordError, match="tags: more than 10,000 items"):
        store.add(Record(kind="note", text="t", tags=["a"] * 10_001))
    note = store.add(Record(kind="note", text="kept"))
    with pytest.raises(RecordError, match="history: nested deeper"):
        store.edit(note.id, {"history": nested(40)})
    assert store.get(note.id).history == []
    monkeypatch.setattr(limits, "MAX_RECORDS_PER_FILE", 2)
    path = tmp_path / "three.toml"
    path.write_text("".join(f'[[record]]\nid = "n-{i}"\n{NOTE}' for i in range(3)))
    with pytest.raises(StoreError, match="3 records, more than the 2 one file may hold"):
        import_toml(store, path)


def test_a_deep_row_from_before_the_limits_is_shown_invalid_and_export_salvage_work(
    store: Store, tmp_path: Path,
) -> None:
    note = store.add(Record(kind="note", text="poisoned"))
    body = json.dumps({**note.to_dict(), "history": nested(300)})
    store._db.execute("UPDATE records SET body = ? WHERE id = ?", (body, note.id))
    [shown] = store.list()
    assert is_invalid(shown) and "history: nested deeper" in shown.status
    assert shown.history == [] and shown.text == "poisoned"
    assert "poisoned" in export_toml(store, tmp_path / "out.toml")
    assert [r.text for r in salvage(store.path).records] == ["poisoned"]
