"""TOML export is stable and readable; import merges by id and is idempotent."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from sessiontui.project_memory.exchange import export_toml, import_toml
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
