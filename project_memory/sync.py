"""Merging team memories by record id: the pure part of `sessiontui sync` (no git, no files).

Each side is a list of records (the local store, the shared file, each side of a git conflict).
For every id the versions are compared with the version both sides last agreed on (the base,
kept as a hash per id): a side that did not change since takes the other's version. When both
changed (concurrent changes), one wins by this order and the other is kept in the winner's
`history`:

1. a delete wins against any concurrent edit (a tie included): a sync never resurrects a
   record; `sessiontui restore` after the sync brings it back, and that restore then wins;
2. then the higher `revision` (every local edit advances it);
3. then the later `updated_at`, to the microsecond;
4. then, a true tie, a fixed rule on the content (the larger canonical JSON), the same on
   every clone.

Deletions are ordinary versions with `deleted_at` set (tombstones), so a deleted record never
comes back from a teammate who still had it. The result depends only on the versions seen, not
on the order of the sides, so clones that sync in any order end identical.
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from sessiontui.project_memory.records import Record, parse_time

SYNC_FILE = "sessiontui-memory.toml"  # at the repository root, tracked by git
SYNCED_KINDS = ("benchmark", "lesson", "note")  # runs are this host's live state: not shared
_EMPTY: tuple[object, ...] = (None, "", [], {})
_MARKER = re.compile(r"^(<{7}|={7}|>{7})( |$)", re.MULTILINE)


@dataclass(frozen=True)
class ConflictSides:
    """The full texts of both sides of a file git left conflicted (its index stages 2 and 3),
    and of their common ancestor (stage 1; None when both sides added the file)."""

    ours: str
    theirs: str
    base: str | None


def snapshot(record: Record) -> dict[str, Any]:
    """The record's set fields without its history: what a version is compared and kept as
    (values shared with the record: copy before changing them)."""
    return {name: value for name, value in vars(record).items()
            if name != "history" and value not in _EMPTY}


def version_hash(record: Record) -> str:
    """A short stable hash of one version, history included (the base remembers these)."""
    canonical = json.dumps([snapshot(record), record.history], sort_keys=True, separators=(",", ":"))
    return hashlib.sha1(canonical.encode()).hexdigest()[:16]


def _order(record: Record) -> tuple[bool, int, datetime, str]:
    """Which of two concurrent versions wins (the module's order: delete, revision, time, content)."""
    return record.deleted_at is not None, record.revision, _moment(record.updated_at), _key(snapshot(record))


def _moment(text: str) -> datetime:
    """An ISO timestamp as a comparable time (whole seconds and microseconds alike); the
    earliest time for one that is not a date."""
    return parse_time(text) or datetime.min.replace(tzinfo=UTC)


def _key(version: dict[str, Any]) -> str:
    return json.dumps(version, sort_keys=True)


def resolve(a: Record, b: Record, base: str | None) -> Record:
    """One record from two versions of it: the changed one, or the later edit with the other
    kept in its history."""
    hash_a, hash_b = version_hash(a), version_hash(b)
    if hash_a == hash_b or hash_b == base:
        return a
    if hash_a == base:
        return b
    winner, loser = (a, b) if _order(a) >= _order(b) else (b, a)
    kept = {_key(v): v for v in [*a.history, *b.history, copy.deepcopy(snapshot(loser))]}
    kept.pop(_key(snapshot(winner)), None)
    history = sorted(kept.values(), key=lambda v: (v.get("updated_at", ""), _key(v)))
    return replace(winner, history=history)


def merge(sides: Iterable[Iterable[Record]], base: Mapping[str, str]) -> list[Record]:
    """Every record of every side, one version per id, oldest first."""
    merged: dict[str, Record] = {}
    for side in sides:
        for record in side:
            if record.kind not in SYNCED_KINDS:
                continue
            known = merged.get(record.id)
            merged[record.id] = record if known is None else resolve(known, record, base.get(record.id))
    return sorted(merged.values(), key=lambda r: (r.created_at, r.id))


@dataclass(frozen=True)
class Superseded:
    """A change made here that a sync replaced by a concurrent one (kept in the record's history)."""

    id: str
    field: str
    yours: Any
    by: str  # "edit" or "delete": the change that won
    at: str  # when the winning change was made

    def line(self) -> str:
        """'b-12ab: your value 51.0 replaced by a teammate's edit of 10:42:03; kept in history'."""
        when = _moment(self.at).strftime("%Y-%m-%d %H:%M:%S")
        yours = "your edit" if self.field == "deleted_at" else f"your {self.field} {self.yours!r}"
        return f"{self.id}: {yours} replaced by a teammate's {self.by} of {when} UTC; kept in history"


_BOOKKEEPING = frozenset({"updated_at", "revision", "history"})


def superseded(local: Iterable[Record], merged: Sequence[Record]) -> list[Superseded]:
    """The local versions that lost to a concurrent change (now or in a teammate's sync since
    the last one here), one per field: they are in the winner's history, the winner is not them."""
    result = {record.id: record for record in merged}
    lost = []
    for mine in local:
        won = result.get(mine.id)
        if won is None or version_hash(mine) == version_hash(won):
            continue
        if _key(snapshot(mine)) not in {_key(v) for v in won.history}:
            continue  # replaced by a later change made after seeing it: nothing was lost
        by = "delete" if won.deleted_at and not mine.deleted_at else "edit"
        mine_fields, won_fields = snapshot(mine), snapshot(won)
        fields = sorted(name for name in mine_fields.keys() | won_fields.keys()
                        if name not in _BOOKKEEPING and mine_fields.get(name) != won_fields.get(name))
        if by == "delete":
            fields = ["deleted_at"]
        lost += [Superseded(mine.id, name, mine_fields.get(name), by, won.updated_at) for name in fields]
    return lost


def changed(merged: Sequence[Record], local: Iterable[Record]) -> list[Record]:
    """The merged records the local store does not hold in that version."""
    have = {record.id: version_hash(record) for record in local}
    return [record for record in merged if have.get(record.id) != version_hash(record)]


def has_conflict_markers(text: str) -> bool:
    """Whether a text holds git conflict markers (git's own record of the sides is then needed:
    the text between markers mixes both sides' lines and cannot be split into records safely)."""
    return bool(_MARKER.search(text))
