"""TOML export and import of the whole memory: stable, diff-friendly, idempotent to merge."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sessiontui.project_memory.records import FIELD_NAMES, Record
from sessiontui.project_memory.store import Store, StoreError

FORMAT_VERSION = 1
_EMPTY: tuple[object, ...] = (None, "", [], {})


def _compact(record: Record) -> dict[str, Any]:
    """The record's set fields in declaration order, so diffs stay small and stable."""
    data = record.to_dict()
    return {name: data[name] for name in FIELD_NAMES if data[name] not in _EMPTY}


def export_toml(store: Store, path: Path | None = None, *, include_deleted: bool = True) -> str:
    """All records as TOML, oldest first; written to `path` when given, returned either way."""
    import tomlkit  # only the export and import pay for it

    records = store.list() + (store.list(deleted=True) if include_deleted else [])
    records.sort(key=lambda r: (r.created_at, r.id))
    doc = tomlkit.document()
    doc.add(tomlkit.comment("sessiontui project memory; `sessiontui import` merges it by id"))
    doc["format_version"] = FORMAT_VERSION
    table = tomlkit.aot()
    for record in records:
        table.append(tomlkit.item(_compact(record)))
    doc["record"] = table
    text = tomlkit.dumps(doc)
    if path is not None:
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)
    return text


def read_toml(path: Path) -> list[Record]:
    """Records from an export file, with a one-line StoreError on anything unreadable."""
    import tomlkit

    try:
        doc = tomlkit.parse(path.read_text(encoding="utf-8")).unwrap()
    except OSError as exc:
        raise StoreError(f"{path}: cannot read: {exc.strerror}") from None
    except Exception as exc:  # tomlkit raises several parse error types
        raise StoreError(f"{path}: not valid TOML: {exc}") from None
    records = []
    for i, item in enumerate(doc.get("record", []), 1):
        try:
            record = Record.from_dict(item)
        except (TypeError, ValueError) as exc:
            raise StoreError(f"{path}: record {i} is invalid: {exc}") from None
        if not record.id or not record.created_at:
            raise StoreError(f"{path}: record {i} has no id or created_at")
        record.updated_at = record.updated_at or record.created_at
        records.append(record)
    return records


def import_toml(store: Store, path: Path) -> tuple[int, int]:
    """Merge an export into the store by id; importing the same file twice adds nothing."""
    return store.merge(read_toml(path))
