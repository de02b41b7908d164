"""Merging team memories by record id: the pure part of `sessiontui sync` (no git, no files).

Each side is a list of records (the local store, the shared file, each side of a git conflict).
For every id the versions are compared with the version both sides last agreed on (the base,
kept as a hash per id): a side that did not change since takes the other's version; when both
changed, the later update wins and the other version is kept in the winner's `history`.
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
from typing import Any

from sessiontui.project_memory.records import Record

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


def _order(record: Record) -> tuple[str, str]:
    """Which of two concurrent edits wins: the later update, then (same second) a fixed rule."""
    return record.updated_at, _key(snapshot(record))


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


def changed(merged: Sequence[Record], local: Iterable[Record]) -> list[Record]:
    """The merged records the local store does not hold in that version."""
    have = {record.id: version_hash(record) for record in local}
    return [record for record in merged if have.get(record.id) != version_hash(record)]


def has_conflict_markers(text: str) -> bool:
    """Whether a text holds git conflict markers (git's own record of the sides is then needed:
    the text between markers mixes both sides' lines and cannot be split into records safely)."""
    return bool(_MARKER.search(text))
