"""Structural limits on what enters the memory: nesting, text length, list length, records a file.

Every way in (import, sync, the MCP server, edit, add) reaches `Store` or `exchange`, which check
these before anything else walks the value, so no input makes export, sync or salvage recurse
without bound or grow their work past what a real memory holds. The walk is iterative: checking
a hostile value never recurses itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

MAX_DEPTH = 16  # containers inside a record: a run's milestones with their metrics use 4
MAX_TEXT_CHARS = 200_000  # one text value (a note, a command, an event's line)
MAX_LIST_ITEMS = 10_000  # one list or table (tags, milestones, events, history, figures)
MAX_RECORDS_PER_FILE = 500_000  # records in one export, import or sync file
MAX_DRAFT_DEPTH = 64  # `speedup --depth`: draft tokens per step (EAGLE serves 1-16); work grows with it


def value_problem(value: Any) -> str | None:
    """Why a field's value exceeds a limit (one short phrase), or None when it fits."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            if len(item) > MAX_TEXT_CHARS:
                return f"text longer than {MAX_TEXT_CHARS:,} characters ({len(item):,})"
            continue
        if not isinstance(item, list | tuple | dict):
            continue
        if depth > MAX_DEPTH:
            return f"nested deeper than {MAX_DEPTH} levels"
        if len(item) > MAX_LIST_ITEMS:
            return f"more than {MAX_LIST_ITEMS:,} items ({len(item):,})"
        children: Iterable[Any] = (
            [*item.keys(), *item.values()] if isinstance(item, dict) else item
        )
        stack.extend((child, depth + 1) for child in children)
    return None


def field_problems(fields: Mapping[str, Any]) -> list[tuple[str, str]]:
    """(field, why) for each field of a record (or record data) that exceeds a limit."""
    return [(str(name), problem) for name, value in fields.items()
            if (value if isinstance(value, list | tuple | dict) else
                isinstance(value, str) and len(value) > MAX_TEXT_CHARS)  # most fields: no walk
            and (problem := value_problem(value))]


def count_problem(count: int) -> str | None:
    """Why a file's number of records is refused, or None."""
    if count > MAX_RECORDS_PER_FILE:
        return f"{count:,} records, more than the {MAX_RECORDS_PER_FILE:,} one file may hold"
    return None
