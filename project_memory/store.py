"""The SQLite store of the project memory: WAL, short write transactions, soft delete, FTS5."""

from __future__ import annotations

import builtins
import contextlib
import json
import os
import re
import sqlite3
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import MISSING, fields
from pathlib import Path
from typing import NamedTuple

from sessiontui.project_memory.limits import field_problems
from sessiontui.project_memory.paths import database_path
from sessiontui.project_memory.records import (
    FIELD_NAMES,
    INVALID,
    KINDS,
    MAX_REVISION,
    Problem,
    Record,
    RecordError,
    is_invalid,
    new_id,
    now_iso,
    record_from_row,
    validate,
)
from sessiontui.project_memory.reference import Benchmarks, condition_key, lower_is_better

_FIELD_KEYS = frozenset(FIELD_NAMES)
_DEFAULTS = {f.name: f.default for f in fields(Record) if f.default is not MISSING}
_FACTORIES = {f.name: f.default_factory for f in fields(Record) if f.default_factory is not MISSING}
_DEFAULTS |= {name: make() for name, make in _FACTORIES.items()}  # compared with, never shared
BUSY_TIMEOUT_S = 30.0
CHECK_EVERY_S = 24 * 3600  # a file seen unchanged since its last integrity check is checked again after this
GITIGNORE = "# sessiontui's memory: shared with `sessiontui export`, not by committing it\n*\n"
SALVAGE_HINT = "recover what is readable with `sessiontui salvage OUT.toml`"
_STOPWORDS = frozenset(
    "a an and are as at be did do does for from get got had has have how i in is it last me my "
    "of on or remind show tell that the then there this time to was we went were what when where "
    "which who why with you our us".split()
)


_FTS_COLUMNS = "id UNINDEXED, text, tokenize='porter unicode61'"
_COLUMNS = "id, kind, created_at, updated_at, deleted_at, metric, baseline, status, value, log_path, body"


class StoreError(Exception):
    """A store problem worth one line to the user (damaged file, unwritable folder, unknown id)."""


class _Prepared(NamedTuple):
    """A checked record with its row and search text, ready to write."""

    record: Record
    row: tuple
    text: str
    conditions: tuple[str | None, str | None]


def _schema_v1(db: sqlite3.Connection) -> None:
    db.execute(
        """CREATE TABLE records (
            id TEXT PRIMARY KEY,
            kind TEXT NOT NULL,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            deleted_at TEXT,
            metric TEXT,
            baseline INTEGER NOT NULL DEFAULT 0,
            status TEXT,
            value REAL,
            log_path TEXT,
            body TEXT NOT NULL
        )"""
    )
    db.execute("CREATE INDEX records_kind_time ON records(kind, deleted_at, created_at)")
    db.execute("CREATE INDEX records_metric ON records(metric, baseline, deleted_at, created_at)")
    db.execute("CREATE INDEX records_log ON records(log_path)")
    db.execute(f"CREATE VIRTUAL TABLE records_fts USING fts5({_FTS_COLUMNS})")


def _schema_v2(db: sqlite3.Connection) -> None:
    """A write counter per kind, so readers can tell cheaply whether anything changed."""
    db.execute("CREATE TABLE revisions (kind TEXT PRIMARY KEY, n INTEGER NOT NULL)")
    db.execute("INSERT INTO revisions SELECT kind, count(*) FROM records GROUP BY kind")


def _schema_v3(db: sqlite3.Connection) -> None:
    """Search rows keyed by the record's rowid (an edit is a lookup, not a scan of the index),
    and a `valid` flag so reads trust rows the store checked when writing them."""
    db.execute("DROP TABLE records_fts")
    db.execute(f"CREATE VIRTUAL TABLE records_fts USING fts5({_FTS_COLUMNS})")
    db.execute("ALTER TABLE records ADD COLUMN valid INTEGER NOT NULL DEFAULT 0")
    rows = db.execute("SELECT rowid, body, id FROM records").fetchall()
    for rowid, body, record_id in rows:
        record = row_record(body, record_id, valid=False)
        db.execute("INSERT INTO records_fts(rowid, id, text) VALUES (?, ?, ?)",
                   (rowid, record_id, record.search_text()))
        if not is_invalid(record):
            db.execute("UPDATE records SET valid = 1 WHERE rowid = ?", (rowid,))
    # Terms derived from a record by code above the store (lesson matching's), dropped with the
    # row they were derived from whenever the store replaces it.
    db.execute("CREATE TABLE record_terms (record INTEGER NOT NULL, term TEXT NOT NULL, "
               "factor REAL NOT NULL)")
    db.execute("CREATE INDEX record_terms_term ON record_terms(term, record)")
    db.execute("CREATE INDEX record_terms_record ON record_terms(record)")
    # A body changed by anything but the store (a hand edit, an older version) is checked again
    # when read: the store itself only ever replaces rows, which fires no UPDATE trigger.
    db.execute(
        "CREATE TRIGGER records_unchecked AFTER UPDATE OF body ON records "
        "BEGIN UPDATE records SET valid = 0 WHERE rowid = NEW.rowid; END"
    )


_BASELINES = ("kind = 'benchmark' AND baseline = 1 AND deleted_at IS NULL "
              "AND (status IS NULL OR status = 'ok') AND value IS NOT NULL")


def _schema_v4(db: sqlite3.Connection) -> None:
    """A benchmark's conditions as columns, and an index of the baselines by them, so a question
    reads the few baselines it shows (the best per conditions, the newest per group), not all."""
    db.execute("ALTER TABLE records ADD COLUMN bench_group TEXT")
    db.execute("ALTER TABLE records ADD COLUMN bench_conditions TEXT")
    rows = db.execute("SELECT rowid, body, id, valid FROM records WHERE kind = 'benchmark'").fetchall()
    db.executemany("UPDATE records SET bench_group = ?, bench_conditions = ? WHERE rowid = ?",
                   [(*_conditions(row_record(*row)), rowid) for rowid, *row in rows])
    # Each holds the columns of its own WHERE too: SQLite reads the table for them otherwise.
    db.execute("CREATE INDEX records_baselines ON records(metric, bench_group, bench_conditions, value, "
               f"created_at, valid, kind, baseline, deleted_at, status) WHERE {_BASELINES}")
    db.execute("CREATE INDEX records_baselines_time ON records(metric, bench_group, created_at, valid, "
               f"kind, baseline, deleted_at, status, value) WHERE {_BASELINES}")


MIGRATIONS = [_schema_v1, _schema_v2, _schema_v3, _schema_v4]  # index i upgrades user_version i -> i + 1


def file_uri(path: Path) -> str:
    """An SQLite `file:` URI for `path` (the three characters URIs reserve, escaped by hand:
    urllib.parse costs `ask` a few milliseconds to import)."""
    escaped = str(path.resolve()).replace("%", "%25").replace("?", "%3f").replace("#", "%23")
    return f"file:{escaped}"


class Conflict(StoreError):
    """An edit made against a revision of the record that is no longer the stored one."""


def _trusted(data: dict) -> Record:
    """A record from a body the store validated when writing it: no checks, no copies (a read
    of every baseline must not pay for validation again); fields left out are their defaults."""
    record = Record.__new__(Record)
    record.__dict__.update(_DEFAULTS)
    record.__dict__.update({name: make() for name, make in _FACTORIES.items()})
    record.__dict__.update(data)
    return record


def _copy(record: Record) -> Record:
    """A shallow copy of a record (copy.copy takes three times as long)."""
    copied = Record.__new__(Record)
    copied.__dict__.update(vars(record))
    return copied


def _body(record: Record) -> str:
    """A record's row body: its fields that differ from their defaults (a body with every field
    took three times as long to decode, and `ask` decodes every baseline)."""
    values = {name: value for name, value in vars(record).items()
              if name not in _DEFAULTS or value != _DEFAULTS[name]}
    return json.dumps(values, separators=(",", ":"), allow_nan=False)


def _conditions(record: Record) -> tuple[str | None, str | None]:
    """A benchmark's group (concurrency, batch size, model) and its other conditions (engine,
    GPU), each as the reference rule compares them; None for other kinds."""
    if record.kind != "benchmark":
        return None, None
    key = condition_key(record)
    return json.dumps(key[1:4]), json.dumps(key[4:])


def row_record(body: object, record_id: str = "", valid: object = False) -> Record:
    """A stored row as a record: trusted when the store wrote it valid and it holds exactly this
    version's fields; else checked, and a body that is not one is shown as an invalid record
    (a field over the structural limits is left out of it, so nothing downstream walks it)."""
    try:
        data = json.loads(body)  # type: ignore[arg-type]
    except (TypeError, ValueError, RecursionError):
        data = None
    if valid and isinstance(data, dict) and data.keys() <= _FIELD_KEYS:
        return _trusted(data)
    over = field_problems(data) if isinstance(data, dict) else []
    if over and isinstance(data, dict):
        data = {name: value for name, value in data.items() if name not in dict(over)}
    record = record_from_row(data)
    record.id = record.id or record_id
    if over:
        said = [f"{name}: {why}" for name, why in over]
        if is_invalid(record):
            said.append((record.status or "").removeprefix(f"{INVALID}: "))
        record.status = f"{INVALID}: " + "; ".join(said)
    return record


def read_only_connection(path: Path) -> tuple[sqlite3.Connection, Path | None]:
    """A connection that reads `path` and never writes beside it, with the private folder it
    reads a copy in (None when it reads the file itself).

    WAL needs a -shm file beside the database. In a read-only folder without one, a file with no
    -wal is read as it stands (immutable); one whose -wal holds the last commits (its writer was
    killed, the folder is a read-only copy) is copied with its -wal to a private folder, where
    SQLite reads both as a writer would have left them."""
    uri = f"{file_uri(path)}?mode=ro"
    db = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_S, isolation_level=None)
    try:
        db.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return db, None
    except sqlite3.OperationalError:
        db.close()
    except sqlite3.DatabaseError:  # a damaged file: the caller's reads say so
        return db, None
    wal = Path(f"{path}-wal")
    if not wal.exists() or wal.stat().st_size == 0:
        return sqlite3.connect(f"{uri}&immutable=1", uri=True, isolation_level=None), None
    import shutil  # not at the top: it pulls in three compression modules, and `ask` copies nothing
    import tempfile

    snapshot = Path(tempfile.mkdtemp(prefix="sessiontui-read-"))
    try:
        shutil.copyfile(path, snapshot / path.name)
        shutil.copyfile(wal, snapshot / wal.name)
        return sqlite3.connect(snapshot / path.name, isolation_level=None), snapshot
    except OSError:
        shutil.rmtree(snapshot, ignore_errors=True)
        raise


def _fts_query(text: str) -> str:
    """Turn free text into an FTS5 OR-query of its meaningful words (quoted, so never a syntax error)."""
    words = [w for w in re.findall(r"\w+", text.lower()) if w not in _STOPWORDS]
    return " OR ".join(f'"{w}"' for w in dict.fromkeys(words))


class Store:
    """One project's memory; safe to use from several processes at once.

    `readonly=True` opens for reading only (a read-only folder still answers); the first write of
    a connection checks the file's integrity first and refuses to write into a damaged file."""

    def __init__(
        self, path: Path | str | None = None, *, create: bool = True, readonly: bool = False
    ) -> None:
        self.path = Path(path) if path else database_path()
        self.readonly = readonly
        self._checked = False  # this connection may write: checked, or known unchanged since
        self._checked_at = 0.0
        self._snapshot: Path | None = None  # a private copy read in place of a read-only folder
        self._benchmarks: dict[tuple, tuple[tuple, Benchmarks]] = {}  # see benchmarks()
        self._db = self._connect(create)

    # -- connection and schema ------------------------------------------------------------
    def _connect(self, create: bool) -> sqlite3.Connection:
        if not self.path.exists():
            if not create or self.readonly:
                raise StoreError(f"{self.path}: no project memory here yet")
            self._make_folder()
            self._make_private_file()
        with self._guard("cannot open project memory: "):
            if self.readonly:
                db = self._open_readonly()
                if db is not None:
                    return db
            db = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None)
            db.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
            self._check_version(db)
            db.execute("PRAGMA synchronous = FULL")
        return db

    def _make_folder(self) -> None:
        """Create the memory folder, with a .gitignore: the memory is shared by export, not git."""
        folder = self.path.parent
        try:
            if not folder.exists():
                folder.mkdir(parents=True, exist_ok=True)
                (folder / ".gitignore").write_text(GITIGNORE, encoding="utf-8")
        except OSError as exc:
            raise StoreError(f"{folder}: cannot create folder: {exc.strerror}") from None

    def _make_private_file(self) -> None:
        """Create the database file 0600 (SQLite gives its -wal and -shm files the same mode):
        the memory may hold private notes."""
        with contextlib.suppress(FileExistsError):  # another process created it first
            try:
                os.close(os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
            except OSError as exc:
                if isinstance(exc, FileExistsError):
                    raise
                raise StoreError(f"{self.path}: cannot create: {exc.strerror}") from None

    def _open_readonly(self) -> sqlite3.Connection | None:
        """A read-only connection, or None when the file needs a migration (opened for writing)."""
        db, self._snapshot = read_only_connection(self.path)
        db.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version >= len(MIGRATIONS):
            self._check_version(db)
            return db
        db.close()
        self._drop_snapshot()
        return None

    def _drop_snapshot(self) -> None:
        if self._snapshot is not None:
            import shutil

            shutil.rmtree(self._snapshot, ignore_errors=True)
            self._snapshot = None

    def _check_version(self, db: sqlite3.Connection) -> None:
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version < len(MIGRATIONS):
            self._migrate(db)
        elif version > len(MIGRATIONS):
            raise StoreError(
                f"{self.path}: written by a newer sessiontui (schema {version}); upgrade to read it"
            )

    def _migrate(self, db: sqlite3.Connection) -> None:
        for _ in range(100):  # the first write may race with another process creating the file
            try:
                if db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                    db.execute("PRAGMA journal_mode = WAL")
                break
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc):
                    raise
                time.sleep(0.05)
        with self._write(db):
            version = db.execute("PRAGMA user_version").fetchone()[0]
            for step in MIGRATIONS[version:]:
                step(db)
            db.execute(f"PRAGMA user_version = {len(MIGRATIONS)}")

    def _check_integrity(self, db: sqlite3.Connection) -> None:
        """Refuse to write into a damaged file. `quick_check` reads every page, so it runs before
        a connection's first write only when the file is not as the last sessiontui process
        left it (an unclean shutdown, another program wrote it) or the last check is old."""
        if self._checked:
            return
        if not self._unchanged_since_checked():
            try:
                result = [row[0] for row in db.execute("PRAGMA quick_check(3)").fetchall()]
            except sqlite3.DatabaseError as exc:
                result = [str(exc)]
            if result != ["ok"]:
                found = " ".join(" ".join(result).split())  # one line, however SQLite words it
                raise StoreError(
                    f"{self.path} is damaged ({found}); nothing was written: {SALVAGE_HINT}")
            self._checked_at = time.time()
        self._checked = True

    @property
    def _marker(self) -> Path:
        """Where the file's state at the last check (and at each close since) is remembered."""
        return Path(f"{self.path}-checked")

    def _file_state(self) -> str:
        stat = self.path.stat()
        return f"{stat.st_size} {stat.st_mtime_ns}"

    def _unchanged_since_checked(self) -> bool:
        """Whether the file is as a sessiontui connection left it after a check, within CHECK_EVERY_S."""
        try:
            state, _, checked_at = self._marker.read_text(encoding="ascii").rpartition(" ")
            fresh = time.time() - float(checked_at) < CHECK_EVERY_S
            if fresh and state == self._file_state():
                self._checked_at = float(checked_at)
                return True
        except (OSError, ValueError):
            pass
        return False

    def _remember_checked(self) -> None:
        """After a checked connection closes: the file as it leaves it (a best effort)."""
        with contextlib.suppress(OSError):
            self._marker.write_text(f"{self._file_state()} {self._checked_at}", encoding="ascii")

    @contextlib.contextmanager
    def _write(self, db: sqlite3.Connection | None = None) -> Iterator[sqlite3.Connection]:
        """A short IMMEDIATE transaction: takes the write lock up front, commits or rolls back."""
        db = db or self._db
        if self.readonly:
            raise StoreError(f"{self.path}: opened for reading only")
        self._check_integrity(db)
        db.execute("BEGIN IMMEDIATE")
        try:
            yield db
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:  # SQLite rolls back by itself on some errors (a full disk)
                with contextlib.suppress(sqlite3.Error):
                    db.execute("ROLLBACK")
            raise

    @contextlib.contextmanager
    def _guard(self, prefix: str = "") -> Iterator[None]:
        """Turn SQLite errors into one-line StoreErrors in words a user can act on."""
        try:
            yield
        except sqlite3.DatabaseError as exc:
            raise StoreError(self._explain(exc, prefix)) from None

    def _explain(self, exc: sqlite3.DatabaseError, prefix: str) -> str:
        """`prefix` and the error in words a user acts on (read-only folder, full disk, damage)."""
        folder = self.path.parent
        name = getattr(exc, "sqlite_errorname", "")
        if name.startswith("SQLITE_READONLY") or (
            name.startswith("SQLITE_CANTOPEN") and not os.access(folder, os.W_OK)
        ):
            said = f"the memory folder {folder} is read-only; nothing was written"
        elif name.startswith("SQLITE_FULL"):
            said = f"the disk holding {folder} is full; nothing was written"
        elif name.startswith("SQLITE_IOERR"):
            said = f"cannot write {self.path} ({exc}: is the disk full or failing?); nothing was written"
        elif name.startswith(("SQLITE_CORRUPT", "SQLITE_NOTADB")):
            said = f"{self.path} is damaged ({exc}): {SALVAGE_HINT}"
        elif name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
            said = f"{self.path} stayed locked by another process for {BUSY_TIMEOUT_S:g} s; try again"
        else:
            said = f"{self.path}: {exc}"
        return f"{prefix}{said}"

    def close(self) -> None:
        self._db.close()
        self._drop_snapshot()
        if self._checked:
            self._remember_checked()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing ----------------------------------------------------------------------------
    @staticmethod
    def _row(record: Record) -> tuple:
        body = _body(record)  # vars, not to_dict: asdict's deep copy was half a write's CPU
        return (
            record.id, record.kind, record.created_at, record.updated_at, record.deleted_at,
            record.metric, int(record.baseline), record.status, record.value, record.log_path, body,
        )

    @classmethod
    def _prepared(cls, record: Record) -> _Prepared:
        """Everything a write of `record` needs, worked out before the write lock is taken."""
        over = field_problems(vars(record))  # first: what follows walks the values recursively
        if over:
            raise RecordError([Problem(name, why) for name, why in over])
        validate(record)  # nothing implausible is stored, whichever front end wrote it
        return _Prepared(record, cls._row(record), record.search_text(), _conditions(record))

    @staticmethod
    def _put(db: sqlite3.Connection, prepared: Sequence[_Prepared]) -> None:
        """Add or replace these rows and their search rows (each found by rowid: a lookup)."""
        kinds: dict[str, int] = {}
        for item in prepared:
            old = db.execute("SELECT rowid FROM records WHERE id = ?", (item.record.id,)).fetchone()
            if old:
                db.execute("DELETE FROM records_fts WHERE rowid = ?", old)
                db.execute("DELETE FROM record_terms WHERE record = ?", old)
            rowid = db.execute(
                f"INSERT OR REPLACE INTO records({_COLUMNS}, valid, bench_group, bench_conditions) "
                "VALUES (?,?,?,?,?,?,?,?,?,?,?,1,?,?)",
                item.row + item.conditions,
            ).lastrowid
            db.execute("INSERT INTO records_fts(rowid, id, text) VALUES (?, ?, ?)",
                       (rowid, item.record.id, item.text))
            kinds[item.record.kind] = kinds.get(item.record.kind, 0) + 1
        db.executemany(
            "INSERT INTO revisions VALUES (?, ?) ON CONFLICT(kind) DO UPDATE SET n = n + excluded.n",
            kinds.items(),
        )

    def add(self, record: Record) -> Record:
        """Store a new record, giving it an id and timestamps when it has none."""
        return self.add_all([record])[0]

    def add_all(self, records: Sequence[Record]) -> list[Record]:
        """Store new records in one transaction (one sync to disk), all or none; a record that
        fails validation raises RecordError and none is stored."""
        for record in records:
            record.id = record.id or new_id(record.kind)
            record.created_at = record.created_at or now_iso()
            record.updated_at = record.updated_at or record.created_at
        prepared = [self._prepared(record) for record in records]
        with self._guard(), self._write() as db:
            self._put(db, prepared)
        return list(records)

    def update(self, record: Record, *, expected_revision: int | None = None) -> Record:
        """Replace a stored record with this version, advancing its revision and updated_at.

        With `expected_revision` (the revision the edit started from) the write is a
        compare-and-set: when the stored record has moved on, nothing is written and Conflict
        says so, so an edit never reverts a change it did not see."""
        with self._guard(), self._write() as db:
            row = db.execute("SELECT body, id, valid FROM records WHERE id = ?", (record.id,)).fetchone()
            if not row:
                raise StoreError(f"no record with id {record.id}")
            stored = row_record(*row)
            if expected_revision is not None and stored.revision != expected_revision:
                raise Conflict(
                    f"{record.id} changed since it was read (revision {expected_revision}, now "
                    f"{stored.revision}); nothing was written: read it again and redo the edit"
                )
            if is_invalid(record):  # an edit of a row shown as invalid is its repair
                record.status = None
            # capped: a revision imported at the limit must not make the record uneditable
            record.revision = min(max(record.revision, stored.revision) + 1, MAX_REVISION)
            record.updated_at = max(now_iso(), stored.updated_at)
            self._put(db, [self._prepared(record)])
        return record

    def edit(self, record_id: str, changes: Mapping[str, object], *, tries: int = 20) -> Record:
        """Set these fields on the latest stored version of a record, compare-and-set, reading
        it again when another writer got in first: concurrent edits of other fields all land."""
        for _ in range(tries - 1):
            with contextlib.suppress(Conflict):
                return self._edit_once(record_id, changes)
        return self._edit_once(record_id, changes)

    def _edit_once(self, record_id: str, changes: Mapping[str, object]) -> Record:
        record = self.get(record_id, include_deleted=True)
        for name, value in changes.items():
            setattr(record, name, value)
        return self.update(record, expected_revision=record.revision)

    def delete(self, record_id: str) -> Record:
        """Move a record to the trash (recoverable with restore)."""
        return self.edit(self.get(record_id).id, {"deleted_at": now_iso()})

    def restore(self, record_id: str) -> Record:
        """Bring a record back from the trash."""
        return self.edit(self.get(record_id, include_deleted=True).id, {"deleted_at": None})

    def put_all(self, records: Sequence[Record]) -> None:
        """Store these exact versions, added or replaced by id, in one transaction; their
        timestamps are kept (the result of `sessiontui sync`'s merge)."""
        prepared = [self._prepared(record) for record in records]
        with self._guard(), self._write() as db:
            self._put(db, prepared)

    def merge(self, records: builtins.list[Record]) -> tuple[int, int]:
        """Import records by id: add unknown ones, take newer versions (a higher revision, then a
        later update time), all in one transaction; returns (added, updated)."""
        prepared = [self._prepared(record) for record in records]
        added = updated = 0
        taken: builtins.list[_Prepared] = []
        with self._guard(), self._write() as db:
            for item in prepared:
                row = db.execute(
                    "SELECT coalesce(json_extract(body, '$.revision'), 0), updated_at FROM records "
                    "WHERE id = ?", (item.record.id,)
                ).fetchone()
                if row is None:
                    added += 1
                elif (item.record.revision, item.record.updated_at) > tuple(row):
                    updated += 1
                else:
                    continue
                taken.append(item)
            self._put(db, taken)
        return added, updated

    # -- reading ----------------------------------------------------------------------------
    def _records(self, sql: str, params: tuple = ()) -> list[Record]:
        with self._guard():
            rows = self._db.execute(sql, params).fetchall()
        return [row_record(*row) for row in rows]

    def get(self, record_id: str, *, include_deleted: bool = False) -> Record:
        """A record by id or by an unambiguous id prefix."""
        alive = "" if include_deleted else " AND deleted_at IS NULL"
        found = self._records(
            f"SELECT body, id, valid FROM records WHERE (id = ? OR id LIKE ? ESCAPE '\\'){alive} LIMIT 2",
            (record_id, record_id.replace("_", "\\_").replace("%", "\\%") + "%"),
        )
        exact = [r for r in found if r.id == record_id]
        if exact:
            return exact[0]
        if not found:
            raise StoreError(f"no record with id {record_id}")
        if len(found) > 1:
            raise StoreError(f"id {record_id} is ambiguous; give more characters")
        return found[0]

    def list(
        self, kind: str | None = None, *, deleted: bool = False, limit: int | None = None
    ) -> list[Record]:
        """Records newest first; `deleted=True` lists the trash instead."""
        where = ["deleted_at IS NOT NULL" if deleted else "deleted_at IS NULL"]
        params: list = []
        if kind:
            where.append("kind = ?")
            params.append(kind)
        sql = f"SELECT body, id, valid FROM records WHERE {' AND '.join(where)} ORDER BY created_at DESC, rowid DESC"
        if limit:
            sql += f" LIMIT {int(limit)}"
        return self._records(sql, tuple(params))

    def benchmarks(
        self, metric: str, *, baseline: bool | None = None, limit: int | None = None
    ) -> builtins.list[Record]:
        """Successful benchmark records for a metric, newest first (index-backed): a `Benchmarks`
        list, which finds the number to beat without scanning them."""
        return self._cached((metric, baseline, limit),
                            lambda: self._read_benchmarks(metric, baseline, limit))

    def baselines(self, metric: str, *, newest: int = 0) -> Benchmarks:
        """The baselines a question needs, from their indexes, newest first: the best under each
        set of conditions (all the number to beat needs; ties all read, the newest wins) and the
        `newest` of each group of concurrency, batch size and model; rows written unchecked all
        (checked as they are read); `total` says how many there are in all."""
        return self._cached(("baselines", metric, newest), lambda: self._read_baselines(metric, newest))

    def _cached(self, key: tuple, read: Callable[[], Benchmarks]) -> Benchmarks:
        """A question asks for the same benchmarks several times: they are read once while no
        benchmark changes, and each call gets its own copies."""
        version = self.fingerprint(("benchmark",))
        cached = self._benchmarks.get(key)
        if cached is None or cached[0] != version:
            cached = self._benchmarks[key] = (version, read())
        return cached[1].copies(_copy)

    def _read_baselines(self, metric: str, newest: int) -> Benchmarks:
        best = "min" if lower_is_better(metric) else "max"
        sql = f"""SELECT body, id, valid, (SELECT count(*) FROM records WHERE metric = :m AND {_BASELINES})
            FROM records WHERE rowid IN (
                SELECT rowid FROM records WHERE metric = :m AND valid AND {_BASELINES}
                    AND (bench_group, bench_conditions, value) IN (
                        SELECT bench_group, bench_conditions, {best}(value) FROM records
                        WHERE metric = :m AND valid AND {_BASELINES} GROUP BY bench_group, bench_conditions)
                UNION ALL
                SELECT recent.rowid FROM (SELECT DISTINCT bench_group FROM records
                                          WHERE metric = :m AND {_BASELINES}) AS groups
                    JOIN records AS recent ON recent.rowid IN (
                        SELECT rowid FROM records INDEXED BY records_baselines_time
                        WHERE metric = :m AND bench_group = groups.bench_group AND valid AND {_BASELINES}
                        ORDER BY created_at DESC, rowid DESC LIMIT :newest)
                UNION ALL
                SELECT rowid FROM records WHERE metric = :m AND NOT valid AND {_BASELINES})
            ORDER BY created_at DESC, rowid DESC"""
        with self._guard():  # rows written unchecked come whole: they are checked as they are read
            rows = self._db.execute(sql, {"m": metric, "newest": newest}).fetchall()
        records = [row_record(body, record_id, valid) for body, record_id, valid, _ in rows]
        found = Benchmarks(r for r in records if not is_invalid(r))
        found.total = (rows[0][3] if rows else 0) - (len(records) - len(found))
        return found

    def _read_benchmarks(self, metric: str, baseline: bool | None, limit: int | None
                         ) -> Benchmarks:
        sql = (
            "SELECT body, id, valid FROM records WHERE metric = ? AND kind = 'benchmark' "
            "AND deleted_at IS NULL AND (status IS NULL OR status = 'ok') AND value IS NOT NULL"
        )
        params: list = [metric]
        if baseline is not None:
            sql += " AND baseline = ?"
            params.append(int(baseline))
        sql += " ORDER BY created_at DESC, rowid DESC"
        if limit:
            sql += f" LIMIT {int(limit)}"
        return Benchmarks(r for r in self._records(sql, tuple(params)) if not is_invalid(r))

    def run_for_log(self, log_path: str, log_run: int | None = None) -> Record | None:
        """The run record following this log file (the latest, or its `log_run`-th run), if any."""
        run = "" if log_run is None else " AND coalesce(json_extract(body, '$.log_run'), 0) = ?"
        found = self._records(
            "SELECT body, id, valid FROM records WHERE kind = 'run' AND log_path = ? AND deleted_at IS NULL"
            f"{run} ORDER BY created_at DESC, rowid DESC LIMIT 1",
            (log_path,) if log_run is None else (log_path, log_run),
        )
        return found[0] if found else None

    def add_run(self, record: Record) -> Record:
        """Store a new run record unless its log's run of that number is stored already (another
        follower, another process); decided in one write transaction. Returns the stored one."""
        record.id = record.id or new_id("run")
        record.created_at = record.created_at or now_iso()
        record.updated_at = record.updated_at or record.created_at
        prepared = self._prepared(record)
        with self._guard(), self._write() as db:
            row = db.execute(
                "SELECT body, id, valid FROM records WHERE kind = 'run' AND log_path = ?"
                " AND deleted_at IS NULL AND coalesce(json_extract(body, '$.log_run'), 0) = ? LIMIT 1",
                (record.log_path, record.log_run or 0),
            ).fetchone()
            if row:
                return row_record(*row)
            self._put(db, [prepared])
        return record

    def search(self, text: str, *, kind: str | None = None, limit: int = 20) -> builtins.list[Record]:
        """Records ranked by BM25 relevance to the words of `text`."""
        query = _fts_query(text)
        if not query:
            return []
        sql = (
            "SELECT r.body, r.id, r.valid FROM records_fts f JOIN records r ON r.rowid = f.rowid "
            "WHERE records_fts MATCH ? AND r.deleted_at IS NULL"
        )
        params: list = [query]
        if kind:
            sql += " AND r.kind = ?"
            params.append(kind)
        sql += f" ORDER BY bm25(records_fts) LIMIT {int(limit)}"
        return self._records(sql, tuple(params))

    # -- terms derived from records (lesson matching's index) ---------------------------------
    def unindexed(self, kind: str, marker: str) -> builtins.list[tuple[int, Record]]:
        """(rowid, record) of live records of a kind whose derived terms lack `marker` (never
        derived, or by another version of the code deriving them)."""
        with self._guard():
            rows = self._db.execute(
                "SELECT rowid, body, id, valid FROM records r WHERE kind = ? AND deleted_at IS NULL "
                "AND NOT EXISTS (SELECT 1 FROM record_terms t WHERE t.term = ? AND t.record = r.rowid)",
                (kind, marker),
            ).fetchall()
        return [(rowid, row_record(*row)) for rowid, *row in rows]

    def index_terms(self, terms: Mapping[int, Sequence[tuple[str, float]]]) -> None:
        """Replace the derived (term, factor) pairs of these rows, in one transaction."""
        with self._guard(), self._write() as db:
            for rowid, pairs in terms.items():
                db.execute("DELETE FROM record_terms WHERE record = ?", (rowid,))
                db.executemany("INSERT INTO record_terms VALUES (?, ?, ?)",
                               [(rowid, term, factor) for term, factor in pairs])

    def term_rows(self, terms: Sequence[str]) -> dict[str, builtins.list[int]]:
        """The rows holding each of `terms` (live records only: a row replaced by an edit or a
        delete loses its terms); a term no row holds maps to an empty list."""
        found: dict[str, builtins.list[int]] = {term: [] for term in terms}
        with self._guard():
            for term, rowid in self._db.execute(
                "SELECT term, record FROM record_terms WHERE term IN (SELECT value FROM json_each(?))",
                (json.dumps(list(terms)),),
            ):
                found[term].append(rowid)
        return found

    def rows_with_term_prefix(self, prefix: str) -> set[int]:
        """The rows holding any term that starts with `prefix` (a range of the term index)."""
        with self._guard():
            return {rowid for (rowid,) in self._db.execute(
                "SELECT record FROM record_terms WHERE term >= ? AND term < ?",
                (prefix, prefix[:-1] + chr(ord(prefix[-1]) + 1)))}

    def terms_of(self, rowids: Sequence[int]) -> dict[int, builtins.list[tuple[str, float]]]:
        """Every derived (term, factor) pair of these rows."""
        found: dict[int, builtins.list[tuple[str, float]]] = {rowid: [] for rowid in rowids}
        with self._guard():
            for rowid, term, factor in self._db.execute(
                "SELECT record, term, factor FROM record_terms WHERE record IN "
                "(SELECT value FROM json_each(?))", (json.dumps(list(rowids)),),
            ):
                found[rowid].append((term, factor))
        return found

    def term_counts(self, terms: Sequence[str]) -> dict[str, int]:
        """How many rows hold each of `terms` (the word weights of lesson matching)."""
        with self._guard():
            return dict(self._db.execute(
                "SELECT term, count(*) FROM record_terms WHERE term IN "
                "(SELECT value FROM json_each(?)) GROUP BY term", (json.dumps(list(terms)),),
            ).fetchall())

    def live_count(self, kind: str) -> int:
        with self._guard():
            return self._db.execute("SELECT count(*) FROM records WHERE kind = ? AND deleted_at "
                                    "IS NULL", (kind,)).fetchone()[0]

    def created_at(self, rowids: Sequence[int]) -> dict[int, str]:
        """When the records with these rowids were created (lesson matching's tie-break)."""
        with self._guard():
            return dict(self._db.execute(
                "SELECT rowid, created_at FROM records WHERE rowid IN "
                "(SELECT value FROM json_each(?))", (json.dumps(list(rowids)),),
            ).fetchall())

    def by_rowid(self, rowids: Sequence[int]) -> dict[int, Record]:
        """Records by rowid (as the derived terms name them)."""
        with self._guard():
            rows = self._db.execute(
                "SELECT rowid, body, id, valid FROM records WHERE rowid IN "
                "(SELECT value FROM json_each(?))", (json.dumps(list(rowids)),),
            ).fetchall()
        return {rowid: row_record(*row) for rowid, *row in rows}

    def fingerprint(self, kinds: tuple[str, ...] = KINDS) -> tuple:
        """Changes whenever a record of these kinds is added, edited, deleted or restored."""
        with self._guard():
            counts = dict(self._db.execute("SELECT kind, n FROM revisions").fetchall())
        return tuple(counts.get(kind, 0) for kind in kinds)

    def count(self) -> int:
        with self._guard():
            return self._db.execute("SELECT count(*) FROM records").fetchone()[0]

    def integrity_check(self) -> str:
        """SQLite's full check: "ok", or its first finding."""
        with self._guard():
            return self._db.execute("PRAGMA integrity_check").fetchone()[0]
