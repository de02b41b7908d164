"""Reading every record that can still be read out of a damaged memory file.

SQLite's own recovery reads the b-tree page by page and keeps what parses; this does the same
through SQL, which is enough for the store's one table: walk the table by rowid and step over
rows that fail to read, then count as lost the ids that the primary-key index or the search
index still name but that no readable row holds. The damaged file is opened read-only."""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from sessiontui.project_memory.records import Record, is_invalid
from sessiontui.project_memory.store import StoreError, read_only_connection, row_record

MAX_GAP = 100_000  # rowids probed past the last readable row before the walk gives up


@dataclass
class Salvage:
    """What could be read: the records, and the ids known to exist whose rows could not be."""

    records: list[Record] = field(default_factory=list)
    lost_ids: set[str] = field(default_factory=set)
    unreadable_rows: int = 0  # rows read whose body is not a record (no id to name them by)

    @property
    def lost(self) -> int:
        return len(self.lost_ids) + self.unreadable_rows


def _rows(db: sqlite3.Connection, sql: str, start: int) -> Iterator[tuple]:
    """Rows of `sql` (which takes a start rowid) until the first read error."""
    try:
        yield from db.execute(sql, (start,))
    except sqlite3.DatabaseError:
        return


def _next_readable(db: sqlite3.Connection, after: int, limit: int) -> int | None:
    """The first rowid past `after` whose row can be reached, probing one rowid at a time."""
    for start in range(after + 1, limit + 1):
        try:
            row = db.execute(
                "SELECT rowid FROM records WHERE rowid > ? ORDER BY rowid LIMIT 1", (start,)
            ).fetchone()
        except sqlite3.DatabaseError:
            continue
        return None if row is None else start
    return None


def _table_rows(db: sqlite3.Connection, max_rowid: int) -> Iterator[tuple[int, str]]:
    """(rowid, body) of every readable row, stepping over damaged stretches of the table."""
    last = 0
    while True:
        for rowid, body in _rows(
            db, "SELECT rowid, body FROM records WHERE rowid > ? ORDER BY rowid", last
        ):
            last = rowid
            yield rowid, body
        start = _next_readable(db, last, max(max_rowid, last + 1) + MAX_GAP)
        if start is None:
            return
        last = start


def _known_ids(db: sqlite3.Connection) -> dict[str, int]:
    """Ids the indexes still name, with their rowid where the primary-key index gives it (0
    otherwise): what the file is known to hold."""
    known: dict[str, int] = {}
    for sql in (
        "SELECT id, 0 FROM records_fts WHERE rowid > ?",
        "SELECT id, rowid FROM records INDEXED BY sqlite_autoindex_records_1 WHERE rowid > ?",
    ):
        for record_id, rowid in _rows(db, sql, 0):
            if isinstance(record_id, str):
                known[record_id] = rowid
    return known


def _body_at(db: sqlite3.Connection, rowid: int) -> str | None:
    """One row's body by rowid (a point lookup reads only the pages on its way), or None."""
    try:
        row = db.execute("SELECT body FROM records WHERE rowid = ?", (rowid,)).fetchone()
    except sqlite3.DatabaseError:
        return None
    return row[0] if row else None


def _bodies(db: sqlite3.Connection, known: dict[str, int]) -> Iterator[str]:
    """Every readable body: the table walk, then point lookups for rows the walk stepped over."""
    walked: set[int] = set()
    for rowid, body in _table_rows(db, max(known.values(), default=0)):
        walked.add(rowid)
        yield body
    for rowid in sorted(set(known.values()) - walked - {0}):
        if (found := _body_at(db, rowid)) is not None:
            yield found


def salvage(path: Path) -> Salvage:
    """Every readable record of the memory file at `path` (opened read-only, never changed)."""
    db, snapshot = read_only_connection(path)
    try:
        try:
            db.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except sqlite3.DatabaseError as exc:  # the first page itself: nothing leads to the rows
            raise StoreError(f"{path}: nothing can be read ({exc})") from None
        known = _known_ids(db)
        result = Salvage()
        seen: set[str] = set()
        for body in _bodies(db, known):
            record = row_record(body)
            if is_invalid(record) and not record.id:
                result.unreadable_rows += 1
            elif record.id not in seen:
                seen.add(record.id)
                result.records.append(record)
        result.lost_ids = set(known) - seen
        return result
    finally:
        db.close()
        if snapshot is not None:
            shutil.rmtree(snapshot, ignore_errors=True)
