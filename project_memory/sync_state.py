"""What this clone remembers between two `sessiontui sync`s: the versions it last agreed on with
the shared file (the merge's base) and the store's write counters then (for "unsynced")."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from sessiontui.project_memory.paths import memory_dir
from sessiontui.project_memory.records import Record
from sessiontui.project_memory.store import Store
from sessiontui.project_memory.sync import SYNC_FILE, SYNCED_KINDS, version_hash

STATE_NAME = "sync-state.json"


@dataclass
class SyncState:
    """The base of the next merge (a version hash per id) and the synced kinds' write counters."""

    versions: dict[str, str] = field(default_factory=dict)
    fingerprint: list[int] | None = None
    push_failed: str | None = None  # why the last `sync --push` did not reach the remote

    @classmethod
    def after(cls, store: Store, records: Sequence[Record], *, push_failed: str | None = None) -> SyncState:
        """The state once `records` are both in the store and in the shared file."""
        versions = {record.id: version_hash(record) for record in records}
        return cls(versions, list(store.fingerprint(SYNCED_KINDS)), push_failed)


def state_path(folder: Path | None = None) -> Path:
    return (folder or memory_dir()) / STATE_NAME


def load_state(folder: Path | None = None) -> SyncState:
    """The state of the last sync; empty when this clone never synced (or the file is unreadable:
    the next merge then keeps both versions of every record that differs)."""
    try:
        data = json.loads(state_path(folder).read_text(encoding="utf-8"))
        failed = data.get("push_failed")
        return SyncState(dict(data["versions"]), list(data["fingerprint"]),
                         failed if isinstance(failed, str) else None)
    except (OSError, ValueError, KeyError, TypeError):
        return SyncState()


def save_state(state: SyncState, folder: Path | None = None) -> None:
    path = state_path(folder)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps({"versions": state.versions, "fingerprint": state.fingerprint,
                               "push_failed": state.push_failed}),
                   encoding="utf-8")
    tmp.replace(path)


def unsynced(store: Store, state: SyncState) -> bool:
    """Whether records were added, edited or deleted here since the last sync (or, never
    synced, whether there is anything to share)."""
    counters = list(store.fingerprint(SYNCED_KINDS))
    return any(counters) if state.fingerprint is None else counters != state.fingerprint


def state_version(folder: Path) -> int:
    """Changes whenever a sync finishes (the state file's modification time; 0 before any)."""
    try:
        return state_path(folder).stat().st_mtime_ns
    except OSError:
        return 0


def sync_pending(store: Store, project_dir: Path) -> bool:
    """Unsynced changes, in a project that shares its memory (it has the shared file, or this
    clone synced before); always False for one that does not."""
    state = load_state(store.path.parent)
    if state.fingerprint is None and not (project_dir / SYNC_FILE).exists():
        return False
    return unsynced(store, state)
