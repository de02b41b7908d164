"""The memory feed: watches the store's files, reads what changed, and writes for the app."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from textual.message import Message

from sessiontui.project_memory.records import Record
from sessiontui.tui.feeds.clock import Clock
from sessiontui.tui.messages import (
    AnswerReady,
    HistoryRead,
    MemoryChanged,
    MemoryLoaded,
    Notice,
    one_line,
)

if TYPE_CHECKING:
    from sessiontui.collectors.gpu import GpuSnapshot
    from sessiontui.collectors.trainlog.snapshot import TrainSnapshot
    from sessiontui.tui.config import Config

MEMORY_CHECK_S = 1.0  # how often the memory files are looked at (stat calls) for changes
SHOWN_KINDS = ("target", "benchmark", "run", "lesson", "note")  # every kind, in the memory pane
PAST = {"add": "added", "update": "saved", "delete": "deleted", "restore": "restored"}
WRITTEN = {"add": "Added", "update": "Saved", "delete": "Deleted", "restore": "Restored"}


def file_state(path: Path) -> tuple[int, int] | None:
    """Modification time and size of a file (None when absent): changes on every write."""
    try:
        stat = path.stat()
    except OSError:
        return None
    return stat.st_mtime_ns, stat.st_size


class MemoryFeed:
    """The app's door to the memory folder: `watch` looks at the store's files on every tick
    (the first look at once, so the pane fills in the first second), `read` reads the kinds whose
    records changed (per-kind counters), `write` adds, updates, deletes and restores, `answer`
    answers a question; the session files (ask history, who has the project open) too."""

    def __init__(self, post: Callable[[Message], object], clock: Clock, store_path: Path,
                 project_dir: Path, metric: str) -> None:
        self._post, self._clock = post, clock
        self.store_path, self._project_dir, self._metric = store_path, project_dir, metric
        self.counts: dict[str, int] = {}  # per-kind write counters of the last read
        self._kinds: dict[str, list[Record]] = {}
        self._reference: Record | None = None
        self._sync_version: object = None
        self._reading = threading.Lock()
        self.deleted: list[str] = []  # ids deleted in this session, the newest last (u undoes)
        self.restored = 0  # how many of them were restored

    def watch(self) -> None:
        """The worker: stat the memory's files on each tick of MEMORY_CHECK_S; post a change.
        A thread rather than a UI timer: the UI loop wakes only for a change, and a re-read on
        the tick is drawn in the tick's frame."""
        from sessiontui.project_memory.sync_state import STATE_NAME

        folder, name = self.store_path.parent, self.store_path.name
        names = (name, name + "-wal", STATE_NAME)
        seen: tuple[tuple[int, int] | None, ...] = ()
        while True:
            files = tuple(file_state(folder / name) for name in names)
            if files != seen:
                seen = files
                self._post(MemoryChanged())
            if not self._clock.tick(MEMORY_CHECK_S):
                return

    def read(self) -> None:
        """Read the kinds whose records changed, and post the whole memory (nothing when
        neither the records nor the sync state changed)."""
        from sessiontui.project_memory.reference import reference_for
        from sessiontui.project_memory.store import Store
        from sessiontui.project_memory.sync_state import state_version, sync_pending

        # Read-only only where it must be (a read-only folder): a file the training feed is
        # creating at this moment needs its schema, which a read-only connection cannot write.
        readonly = self.store_path.exists() and not os.access(self.store_path.parent, os.W_OK)
        with self._reading, Store(self.store_path, readonly=readonly) as store:
            counts = dict(zip(SHOWN_KINDS, store.fingerprint(SHOWN_KINDS), strict=True))
            changed = [kind for kind in SHOWN_KINDS if counts[kind] != self.counts.get(kind)]
            version = state_version(self.store_path.parent)  # a sync finished
            if not changed and version == self._sync_version:
                return
            for kind in changed:
                self._kinds[kind] = store.list(kind)
            if "benchmark" in changed:
                self._reference = reference_for(store, self._metric)
            unsynced = sync_pending(store, self._project_dir)
            self.counts, self._sync_version = counts, version
            records = [r for kind in SHOWN_KINDS for r in self._kinds[kind]]
        self._post(MemoryLoaded(records, self._reference, unsynced))

    def write(self, operation: str, target: Record | str, gpus: Sequence[str] = ()) -> str:
        """Add (stamped as every record typed by hand), update, delete or restore (by id) in one
        short transaction; what happened, in one line. Raises UserError with what to do when
        the store refuses (read-only folder, full disk, a value the rules refuse)."""
        from sessiontui.collectors.recording import add_by_hand
        from sessiontui.project_memory.records import RecordError
        from sessiontui.project_memory.store import Conflict, Store, StoreError
        from sessiontui.tui.user_errors import UserError, store_problem

        try:
            with Store(self.store_path) as store:
                if operation == "add":
                    assert isinstance(target, Record)
                    record = add_by_hand(store, target, gpus=gpus, path=self._project_dir)
                elif operation == "update":
                    assert isinstance(target, Record)
                    # compare-and-set: an edit made elsewhere since the form opened is not reverted
                    record = store.update(target, expected_revision=target.revision)
                else:
                    assert isinstance(target, str)
                    record = (store.delete if operation == "delete" else store.restore)(target)
        except RecordError as exc:  # a value the store's rules refuse
            raise UserError(str(exc)) from None
        except Conflict:
            raise UserError("this record changed since the form opened (another window, the CLI "
                            "or sync); ctrl+r reloads it (what you typed here is replaced)") from None
        except (StoreError, OSError) as exc:
            raise UserError(store_problem(exc, self.store_path)) from None
        undo = " (u undoes)" if operation == "delete" else ""
        return one_line(f"{WRITTEN[operation]} {record.kind} {record.id}{undo}: {record.label}")

    def stored(self, record_id: str) -> Record:
        """The stored version of a record (the form reloads it when it changed under the form)."""
        from sessiontui.project_memory.store import Store

        with Store(self.store_path, readonly=True) as store:
            return store.get(record_id, include_deleted=True)

    def change(self, operation: str, record_id: str) -> None:
        """Delete or restore by id (in a worker); the outcome as a notice. A delete that
        failed leaves nothing to undo."""
        from sessiontui.tui.user_errors import UserError

        try:
            text = self.write(operation, record_id)
        except UserError as exc:
            if operation == "delete" and self.deleted and self.deleted[-1] == record_id:
                self.deleted.pop()
            self._post(Notice(f"Not {PAST[operation]}: {exc}", "error"))
            return
        self._post(Notice(text, reload=True))

    def export(self, path: Path) -> None:
        """Write the memory as TOML to `path`; the outcome as a notice."""
        from sessiontui.project_memory.exchange import export_toml
        from sessiontui.project_memory.store import Store, StoreError

        try:
            with Store(self.store_path) as store:
                export_toml(store, path)
        except (StoreError, OSError) as exc:
            self._post(Notice(f"Export failed: {exc}", "error"))
            return
        self._post(Notice(f"Exported the memory to {path}"))

    def answer(self, question: str, snapshots: tuple[TrainSnapshot, ...],
               gpu: GpuSnapshot | None, config: Config | None) -> None:
        """Answer a question from the memory and the live figures; post it, or why not."""
        from sessiontui.project_memory.ask import ask
        from sessiontui.project_memory.store import Store, StoreError
        from sessiontui.tui.config import Config, trust_rules

        config = config or Config()
        try:
            with Store(self.store_path) as store:
                answer = ask(store, question, snapshots=snapshots, gpu=gpu, metric=self._metric,
                             draft_overhead=config.draft_overhead, rules=trust_rules(config))
        except StoreError as exc:
            self._post(AnswerReady(question, None, error=str(exc)))
            return
        self._post(AnswerReady(question, answer))

    def open_session(self) -> None:
        """Restore the ask history; say when another app has this project open too."""
        from sessiontui.tui.session_files import enter, read_history

        self._post(HistoryRead(read_history(self.store_path.parent)))
        others = enter(self.store_path.parent)
        if others:
            pids = ", ".join(str(pid) for pid in others)
            self._post(Notice(
                f"sessiontui is also open on this project (pid {pids}); both keep working.",
                "warning"))

    def keep_history(self, questions: list[str]) -> None:
        from sessiontui.tui.session_files import write_history

        write_history(self.store_path.parent, questions)

    def close_session(self) -> None:
        from sessiontui.tui.session_files import leave

        leave(self.store_path.parent)
