"""TOML export and import of the whole memory: stable, diff-friendly, idempotent to merge.

Import is all or nothing: every record is checked against the record schema first, and one
message lists every problem (record number and field) when any is found."""

from __future__ import annotations

import contextlib
import glob
import os
import stat
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, BinaryIO

from sessiontui.project_memory.limits import MAX_DEPTH, count_problem, field_problems
from sessiontui.project_memory.records import FIELD_NAMES, Record, RecordError, record_from_data
from sessiontui.project_memory.store import Store, StoreError

FORMAT_VERSION = 1
EXPORT_NAME = "sessiontui-memory.toml"  # the file written when the target is a folder
PRIVATE_MODE = 0o600  # exports and the sync file, like the memory itself
STALE_TEMPORARY_S = 3600  # a temporary file of an older version (no writer pid) is left this long
MAX_LISTED = 20  # problems named in the one-line import error; the rest are counted
_TOP_KEYS = frozenset({"format_version", "record"})
_EMPTY: tuple[object, ...] = (None, "", [], {})
# DEL and the C1 controls, which JSON and TOML writers leave raw, as \u escapes both formats read.
_UNICODE_ESCAPES = {c: f"\\u{c:04x}" for c in (0x7F, *range(0x80, 0xA0))}


def unicode_escaped(text: str) -> str:
    """JSON or TOML text with no raw control character left (its values unchanged)."""
    return text.translate(_UNICODE_ESCAPES)


def _without_none(value: Any) -> Any:
    """TOML has no null: drop None from tables and lists inside a record (milestones, events)."""
    if isinstance(value, dict):
        return {k: _without_none(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_without_none(v) for v in value if v is not None]
    return value


def _compact(record: Record) -> dict[str, Any]:
    """The record's set fields in declaration order, so diffs stay small and stable (read from
    the record itself: `to_dict`'s deep copy costs more than the rest of an export)."""
    data = vars(record)
    return {
        name: _without_none(data[name]) for name in FIELD_NAMES
        if data[name] not in _EMPTY and not (name == "revision" and data[name] == 0)
    }


def export_target(path: Path) -> Path:
    """Where an export to `path` goes: a folder means a file named EXPORT_NAME inside it."""
    return path / EXPORT_NAME if path.is_dir() else path


def write_atomic(path: Path, text: str) -> None:
    """Write `text` to `path` through a temporary file in the same folder, removed on any failure,
    so a reader never sees half a file; a one-line StoreError says what went wrong. A new file is
    private (0600: the memory may hold private notes); a replaced one keeps its mode."""
    import tempfile  # not at the top: `ask` imports this module for its output helper

    if path.exists() and not path.is_file():  # /dev/stdout, /dev/null, a pipe: never replaced
        _write_through(path, text)
        return
    if path.is_symlink():  # a link to the export is kept: its target is what gets replaced
        path = Path(os.path.realpath(path))
    folder = path.parent
    if not folder.is_dir():
        raise StoreError(f"cannot write {path}: the folder {folder} does not exist")
    _remove_stale_temporaries(path)
    try:
        mode = stat.S_IMODE(path.stat().st_mode) if path.exists() else PRIVATE_MODE
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.{os.getpid()}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise StoreError(f"cannot write {path}: {exc.strerror}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise StoreError(f"cannot write {path}: {exc.strerror or exc}") from None
        raise


def _remove_stale_temporaries(path: Path) -> None:
    """Temporary files of earlier writes of `path` whose writer is gone (killed mid-write)."""
    for tmp in path.parent.glob(f".{glob.escape(path.name)}.*.tmp"):
        pid = tmp.name[len(path.name) + 2:].partition(".")[0]
        with contextlib.suppress(OSError):
            if pid.isdigit():
                stale = not pid_alive(int(pid))
            else:  # written before temporaries carried their writer's pid
                stale = time.time() - tmp.stat().st_mtime > STALE_TEMPORARY_S
            if stale:
                tmp.unlink()


def pid_alive(pid: int) -> bool:
    """Whether a process of this host still runs (a temporary's writer, an open app)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


def _write_through(path: Path, text: str) -> None:
    """Write into an existing file that is not a regular one (a device or a pipe), in place."""
    try:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
    except OSError as exc:
        raise StoreError(f"cannot write {path}: {exc.strerror or exc}") from None


def records_toml(records: list[Record]) -> str:
    """Records as the export's TOML text, oldest first (tomli-w: ~40x faster than tomlkit on a
    large memory, which export and every sync write whole)."""
    import tomli_w

    records = sorted(records, key=lambda r: (r.created_at, r.id))
    doc = {"format_version": FORMAT_VERSION, "record": [_compact(record) for record in records]}
    header = "# sessiontui project memory; `sessiontui import` merges it by id\n"
    return unicode_escaped(header + tomli_w.dumps(doc))


def export_records(store: Store, *, include_deleted: bool = True) -> list[Record]:
    """What an export holds: every record, the trash included unless told otherwise."""
    return store.list() + (store.list(deleted=True) if include_deleted else [])


def export_toml(store: Store, path: Path | None = None, *, include_deleted: bool = True) -> str:
    """All records as TOML, oldest first; written to `path` when given, returned either way."""
    text = records_toml(export_records(store, include_deleted=include_deleted))
    if path is not None:
        write_atomic(export_target(path), text)
    return text


def _problem_line(where: str, problems: list[str]) -> str:
    listed = "; ".join(problems[:MAX_LISTED])
    more = f"; and {len(problems) - MAX_LISTED} more" if len(problems) > MAX_LISTED else ""
    return f"{where}: nothing imported, {len(problems)} problem(s): {listed}{more}"


def _document(text: str, where: str) -> dict[str, Any]:
    """The parsed TOML text (the standard library's parser: several times faster than tomlkit's,
    and nothing is written back), or a one-line StoreError."""
    import tomllib

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise StoreError(f"{where}: not valid TOML: {exc}") from None
    except RecursionError:  # the parser recurses into nested arrays and tables
        raise StoreError(f"{where}: nothing imported: nested deeper than {MAX_DEPTH} levels") from None


MAX_INPUT_BYTES = 256 * 2**20  # an export or a benchmark's output; /dev/zero must not fill RAM


def read_bounded(stream: BinaryIO, where: str) -> bytes:
    """All of a file or stream up to MAX_INPUT_BYTES; a longer one is a one-line StoreError."""
    data = stream.read(MAX_INPUT_BYTES + 1)
    if len(data) > MAX_INPUT_BYTES:
        raise StoreError(f"{where}: larger than {MAX_INPUT_BYTES // 2**20} MiB; not read")
    return data


def read_toml(path: Path, where: str = "") -> list[Record]:
    """Records from an export file, every one checked; any problem is a one-line StoreError
    naming the file (or `where` it came from: standard input)."""
    where = where or str(path)
    try:
        with open(path, "rb") as stream:
            text = read_bounded(stream, where).decode("utf-8")
    except OSError as exc:
        raise StoreError(f"{where}: cannot read: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise StoreError(f"{where}: not a TOML export (not UTF-8 text)") from None
    return parse_toml(text, where)


def parse_toml(text: str, where: str) -> list[Record]:
    """Records from an export's text (`where` names it in the one-line StoreError), every one
    checked (the shared file of `sessiontui sync` is read the same way)."""
    doc = _document(text, where)
    version = doc.get("format_version", FORMAT_VERSION)
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise StoreError(f"{where}: format_version must be a whole number >= 1, not {version!r}")
    if version > FORMAT_VERSION:
        raise StoreError(
            f"{where}: written by a newer sessiontui (format_version {version}, this one reads "
            f"{FORMAT_VERSION}); upgrade sessiontui to import it"
        )
    problems = [f"{key}: not a key of a sessiontui export" for key in doc if key not in _TOP_KEYS]
    items = doc.get("record", [])
    if not isinstance(items, list):
        raise StoreError(f"{where}: nothing imported: `record` must be an array of tables")
    if too_many := count_problem(len(items)):
        raise StoreError(f"{where}: nothing imported: {too_many}")
    now = datetime.now(UTC)
    records: list[Record] = []
    first_of: dict[str, tuple[int, Record]] = {}
    for number, item in enumerate(items, 1):
        if over := field_problems(item) if isinstance(item, dict) else []:
            problems.extend(f"record {number} {name}: {why}" for name, why in over)
            continue
        try:
            record = record_from_data(item, now=now)
        except RecordError as exc:
            problems.extend(f"record {number} {problem}" for problem in exc.problems)
            continue
        missing = [name for name in ("id", "created_at") if not getattr(record, name)]
        problems.extend(f"record {number} {name}: must be set" for name in missing)
        if missing:
            continue
        record.updated_at = record.updated_at or record.created_at
        if record.id in first_of:
            earlier, kept = first_of[record.id]
            if kept != record:
                problems.append(
                    f"record {number} id: {record.id} is also record {earlier}, with other content"
                )
            continue
        first_of[record.id] = (number, record)
        records.append(record)
    if problems:
        raise StoreError(_problem_line(where, problems))
    return records


def import_toml(store: Store, path: Path, where: str = "") -> tuple[int, int]:
    """Merge an export into the store by id; importing the same file twice adds nothing."""
    return store.merge(read_toml(path, where))
