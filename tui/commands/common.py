"""Helpers every command shares: opening the store, printing JSON and records, parsing values,
and keeping control characters from stored text off the user's terminal."""

from __future__ import annotations

import argparse
import math
import sys
from typing import Any, Literal, overload

from sessiontui.project_memory.exchange import unicode_escaped
from sessiontui.project_memory.paths import database_path
from sessiontui.project_memory.records import Record, is_invalid
from sessiontui.project_memory.store import Store

# C0 controls but newline and tab, DEL, and C1 controls (a lone \x9b starts an escape sequence).
_CONTROLS = [*(c for c in range(0x20) if chr(c) not in "\n\t"), 0x7F, *range(0x80, 0xA0)]
_VISIBLE = {c: f"\\x{c:02x}" for c in _CONTROLS}


@overload
def open_store(*, create: Literal[True] = True) -> Store: ...
@overload
def open_store(*, create: Literal[False]) -> Store | None: ...
def open_store(*, create: bool = True) -> Store | None:
    """The project's store for writing; with `create=False`, for reading only (see open_reader)."""
    return Store(database_path()) if create else open_reader()


def open_reader() -> Store | None:
    """The project's store opened read-only (works in a read-only folder); None when empty."""
    path = database_path()
    return Store(path, readonly=True) if path.exists() else None


def printable(text: str) -> str:
    """Text with control characters shown as `\\x1b`-style escapes, safe to print on a terminal."""
    return text.translate(_VISIBLE)


class EscapedOutput:
    """A text stream that shows control characters as escapes (installed on stdout and stderr:
    a note holding a clear-screen or clipboard sequence is printed, never obeyed)."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        return self._stream.write(printable(text))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def stamped(*records: Record) -> Record:
    """Stamp new records as `recording.stamp_by_hand` does (NVML and git looked up once, and
    imported only here); returns the first."""
    from sessiontui.collectors.recording import stamp_by_hand

    stamp_by_hand(records)
    return records[0]


def add_stamped(record: Record) -> Record:
    """Add a record typed on the command line or by an agent (`recording.add_by_hand`)."""
    from sessiontui.collectors.recording import add_by_hand

    with open_store() as store:
        return add_by_hand(store, record)


def json_text(obj: Any) -> str:
    """The JSON every `--json` prints (and the mcp tools return)."""
    import json

    text = json.dumps(obj, indent=2, ensure_ascii=False, default=str)
    return unicode_escaped(text)  # no raw control character, value exact


def print_json(obj: Any) -> None:
    """JSON on stdout, the form scripts read."""
    sys.stdout.write(json_text(obj) + "\n")


def finite_float(text: str) -> float:
    """An argparse type: a finite number, with a clear message otherwise."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"not a finite number: {text!r}")
    return value


def positive_float(text: str) -> float:
    """An argparse type: a finite number > 0 (a rate, a period)."""
    value = finite_float(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be > 0: {text!r}")
    return value


def positive_int(text: str) -> int:
    """An argparse type: a whole number >= 0."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must not be negative: {text!r}")
    return value


def record_line(record: Record) -> str:
    """One line of the human list: id, kind, date, label and value."""
    value = ""
    if is_invalid(record):
        value = "INVALID (see `show`)"
    elif record.kind == "benchmark":
        value = "FAILED" if record.status == "failed" or record.value is None else (
            f"{record.value:g} {record.unit or ''}")
        value += "  baseline" if record.baseline else ""
    elif record.kind == "run":
        value = f"{record.status or ''} step {record.step or 0}/{record.total_steps or '?'}"
    label = record.label.replace("\n", "\\n").replace("\t", "\\t")[:48]  # one line per record
    return f"{record.id:14} {record.kind:9} {record.created_at[:16]:16}  {label:48} {value}"


def print_record(record: Record) -> None:
    """Every set field of a record, one per line."""
    for name, value in record.to_dict().items():
        if value in (None, "", [], {}) or (name == "baseline" and record.kind != "benchmark") or (
            name == "revision" and value == 0
        ):
            continue
        print(f"{name:16} {value}")
