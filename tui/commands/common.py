"""Helpers every command shares: opening the store, printing JSON and records, parsing values,
and keeping control characters from stored text off the user's terminal."""

from __future__ import annotations

import contextlib
import math
import sys
from collections.abc import Iterable, Iterator
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, overload

from sessiontui.project_memory.paths import database_path
from sessiontui.project_memory.records import TIMESTAMPS, Record, closest, is_invalid
from sessiontui.project_memory.store import Store

if TYPE_CHECKING:
    import argparse

# C0 controls but newline and tab, DEL, and C1 controls (a lone \x9b starts an escape sequence).
_CONTROLS = [*(c for c in range(0x20) if chr(c) not in "\n\t"), 0x7F, *range(0x80, 0xA0)]
# Bidi overrides, embeddings and isolates, zero-width characters, line/paragraph separators and
# the BOM: invisible, yet they reorder or hide what a line shows ("Trojan Source").
_INVISIBLE = [0x061C, 0x115F, 0x1160, 0x180E, *range(0x200B, 0x2010), 0x2028, 0x2029,
              *range(0x202A, 0x202F), *range(0x2060, 0x2065), *range(0x2066, 0x206A),
              0x3164, 0xFEFF]
_VISIBLE = {c: f"\\x{c:02x}" for c in _CONTROLS} | {c: f"\\u{c:04x}" for c in _INVISIBLE}


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
    """Text with control characters shown as `\\x1b`-style escapes (bidi and zero-width ones as
    `\\u202e`), safe to print on a terminal."""
    return text.translate(_VISIBLE)


class OutputError(Exception):
    """Standard output could not take what a command printed (a full disk, a dead terminal)."""


class EscapedOutput:
    """A text stream that shows control characters as escapes (installed on stdout and stderr:
    a note holding a clear-screen or clipboard sequence is printed, never obeyed)."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(printable(text))
        except BrokenPipeError:
            raise
        except OSError as exc:  # told apart from the command's own file errors
            raise OutputError(exc.strerror or str(exc)) from exc

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


@contextlib.contextmanager
def input_path(text: str) -> Iterator[Path]:
    """A FILE argument as a path to read; `-` is standard input, kept in a private temporary
    file while the command reads it (the readers want a file: logs are read by offset)."""
    if text != "-":
        yield Path(text)
        return
    import tempfile

    from sessiontui.project_memory.exchange import read_bounded

    with tempfile.TemporaryDirectory(prefix="sessiontui-stdin-") as folder:
        path = Path(folder) / "stdin"
        path.write_bytes(read_bounded(sys.stdin.buffer, "standard input"))
        yield path


def stamped(*records: Record) -> Record:
    """Stamp new records as `recording.stamp_by_hand` does (NVML and git looked up once, and
    imported only here); returns the first."""
    from sessiontui.collectors.recording import stamp_by_hand

    stamp_by_hand(records)
    return records[0]


def add_stamped(record: Record) -> Record:
    """Add a record typed on the command line or by an agent (`recording.add_by_hand`)."""
    from sessiontui.project_memory.stamp import start_git_state

    start_git_state()  # git runs while the rest of the stamp and the store are imported and opened
    from sessiontui.collectors.recording import add_by_hand

    with open_store() as store:
        return add_by_hand(store, record)


SCHEMA_VERSION = 1  # of the JSON contract in docs/json.md; raised when a documented key changes meaning
_EMPTY: tuple[object, ...] = (None, "", [], {})


def json_text(obj: Any) -> str:
    """The JSON every `--json` prints (and the mcp tools return): one document, indented by 2
    (json and the escaper imported here: an answer in words needs neither)."""
    import json

    from sessiontui.project_memory.exchange import unicode_escaped

    text = json.dumps(obj, indent=2, ensure_ascii=False, default=str)
    return unicode_escaped(text)  # no raw control character, value exact


def envelope(data: dict[str, Any]) -> dict[str, Any]:
    """A top-level JSON object of the contract: `schema_version` first, then the command's keys."""
    return {"schema_version": SCHEMA_VERSION, **data}


def print_json(data: dict[str, Any]) -> None:
    """One contract object on stdout, the form scripts read."""
    sys.stdout.write(json_text(envelope(data)) + "\n")


def json_line(record: Record) -> str:
    """One streamed change (JSON Lines, `watch --json`): the contract object on one line."""
    import json

    from sessiontui.project_memory.exchange import unicode_escaped

    return unicode_escaped(json.dumps(envelope({"records": [record_json(record)]}), ensure_ascii=False,
                                      default=str, separators=(",", ":")))


def compact(data: Any) -> Any:
    """A JSON value without null or empty fields at any depth (a record's default JSON form)."""
    if isinstance(data, dict):
        return {k: compact(v) for k, v in data.items() if v not in _EMPTY}
    if isinstance(data, list):
        return [compact(v) for v in data]
    return data


def record_json(record: Record, *, full: bool = False) -> dict[str, Any]:
    """One record as the contract shows it: compact, or every field with `full`."""
    data = record.to_dict()
    return data if full else compact(data)


def print_records(records: list[Record], args: argparse.Namespace, **extra: Any) -> None:
    """`{"schema_version": 1, "records": [...]}` on stdout (the shape of every list)."""
    full = bool(getattr(args, "full", False))
    print_json({"records": [record_json(r, full=full) for r in records], **extra})


def add_json_options(parser: argparse.ArgumentParser, *, records: bool = True) -> None:
    """`--json` (and, for commands printing records, `--full`) with their help text."""
    parser.add_argument("--json", action="store_true",
                        help="print the result as JSON (the contract of docs/json.md)")
    if records:
        parser.add_argument("--full", action="store_true",
                            help="with --json: keep null and empty fields in records")


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """' (did you mean X?)' for the closest of `choices` to a mistyped `word`, else ''."""
    best = closest(word, choices)
    return f" (did you mean {best}?)" if best else ""


def with_examples(*lines: str) -> str:
    """An EXAMPLES section for a command's help (shown after the options)."""
    return "EXAMPLES\n" + "\n".join(f"  {line}" for line in lines)


def add_command(sub: argparse._SubParsersAction, name: str, help: str, *examples: str,
                **kwargs: Any) -> argparse.ArgumentParser:
    """A subcommand whose help ends with its EXAMPLES, kept as written."""
    import argparse  # imported only where a parser is built: a plain question builds none (cli.py)

    return sub.add_parser(name, help=help, description=kwargs.pop("description", help[:1].upper() + help[1:] + "."),
                          epilog=with_examples(*examples),
                          formatter_class=argparse.RawDescriptionHelpFormatter, **kwargs)


def invalid_value(message: str) -> argparse.ArgumentTypeError:
    """The error an argparse type raises for a value it refuses (`message` is shown as is)."""
    import argparse  # the parser that calls a type has imported it already

    return argparse.ArgumentTypeError(message)


def finite_float(text: str) -> float:
    """An argparse type: a finite number, with a clear message otherwise."""
    try:
        value = float(text)
    except ValueError:
        raise invalid_value(f"not a number: {text!r}") from None
    if not math.isfinite(value):
        raise invalid_value(f"not a finite number: {text!r}")
    return value


def positive_float(text: str) -> float:
    """An argparse type: a finite number > 0 (a rate, a period)."""
    value = finite_float(text)
    if value <= 0:
        raise invalid_value(f"must be > 0: {text!r}")
    return value


def positive_int(text: str) -> int:
    """An argparse type: a whole number >= 0."""
    try:
        value = int(text)
    except ValueError:
        raise invalid_value(f"not a whole number: {text!r}") from None
    if value < 0:
        raise invalid_value(f"must not be negative: {text!r}")
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
        print(f"{name:16} {to_the_second(value) if name in TIMESTAMPS else value}")


def to_the_second(stamp: str) -> str:
    """A stored time as people read it: to the second (stored to the microsecond for sync)."""
    try:
        moment = datetime.fromisoformat(stamp)
    except ValueError:
        return stamp  # shown as stored: not a time
    return moment.isoformat(timespec="seconds") if moment.microsecond else stamp
