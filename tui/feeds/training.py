"""The training feed: follows every log through a RunWatcher and posts what it reads."""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from textual.message import Message

from sessiontui.project_memory.events import SEVERITY
from sessiontui.project_memory.records import Record
from sessiontui.tui.feeds.clock import Clock, until_tick
from sessiontui.tui.messages import CatchUpProgress, Notice, TrainAlert, TrainSampled, one_line
from sessiontui.tui.widgets.training_pane import ALERT_KINDS

if TYPE_CHECKING:
    from sessiontui.collectors.run_watcher import RunWatcher
    from sessiontui.collectors.trainlog.follower import LogFollower
    from sessiontui.collectors.trainlog.snapshot import TrainSnapshot
    from sessiontui.project_memory.events import TrainEvent
    from sessiontui.project_memory.store import Store

FIRST_DRAW_WAIT_S = 0.5  # the longest a log's first record waits for its card's first frame
ALERT_CHARS = 120  # a run's alert: the event, then the lesson that fixed it before


def alert_text(path: Path, event: TrainEvent, lesson: Record | None) -> str:
    """The notification for an event, with the best matching lesson's fix inline."""
    text = one_line(f"{path.name}: {event.label}: {event.message or event.line or ''}", ALERT_CHARS)
    if lesson is not None:
        fix = lesson.fix or "(no fix recorded)"
        return f"{text}\n" + one_line(f"Seen before: {lesson.label} — fix: {fix}", ALERT_CHARS)
    if event.label in ALERT_KINDS:
        return f"{text}\nNo matching lesson: press L to record one."
    return text


class TrainingFeed:
    """Follows the logs (catching up first), posts each changed snapshot, keeps the run records
    and posts alerts. A log's first record waits for the frame that draws its card (it reads
    the run records and stamps the git state, which would hold that frame back): the UI says
    `card_drawn`, and the worker keeps polling the other logs meanwhile."""

    def __init__(self, post: Callable[[Message], object], clock: Clock, store_path: Path, *,
                 refresh_s: float, stall_after_s: float | None = None,
                 follower_factory: Callable[[Path], LogFollower] | None = None) -> None:
        self._post, self._clock, self._store_path = post, clock, store_path
        self._refresh_s, self._stall_after_s = refresh_s, stall_after_s
        self._follower_factory = follower_factory
        self._new: queue.Queue[Path] = queue.Queue()
        self._dropped: queue.Queue[Path] = queue.Queue()
        self._drawn: set[Path] = set()  # logs whose card has drawn its first snapshot
        self._drawn_lock = threading.Lock()
        self._wake = clock.waker()
        self._first: dict[Path, tuple[TrainSnapshot, float]] = {}  # waiting for the card
        self.latest: dict[Path, TrainSnapshot] = {}  # each log's newest snapshot (replaced whole)
        self.done = threading.Event()  # set while no worker holds unsaved progress
        self.done.set()

    # -- called on the UI thread --------------------------------------------------------------
    def follow(self, path: Path) -> None:
        self._new.put(path)

    def drop(self, path: Path) -> None:
        """Stop following (its progress saved first); followed again, its first record waits
        for the new card as the first time."""
        with self._drawn_lock:
            self._drawn.discard(path)
        self.latest = {p: s for p, s in self.latest.items() if p != path}
        self._dropped.put(path)

    def card_drawn(self, path: Path) -> None:
        """The log's card has drawn its first snapshot: its first record may be kept now."""
        with self._drawn_lock:
            self._drawn.add(path)
        self._wake.set()

    # -- the worker ---------------------------------------------------------------------------
    def run(self) -> None:
        """Follow until the clock stops; closing loses no progress."""
        from sessiontui.project_memory.store import Store

        watchers: dict[Path, RunWatcher] = {}
        self.done.clear()
        try:
            with Store(self._store_path) as store:
                while not self._clock.stopped:
                    self._take_news(store, watchers)
                    for path, watcher in watchers.items():
                        self._poll(path, watcher)
                    self._until_tick(watchers)
                for path, watcher in watchers.items():
                    if path in self._first:
                        self._record(path, watcher, self._first.pop(path)[0])
                    watcher.flush()
        finally:
            self.done.set()

    def _take_news(self, store: Store, watchers: dict[Path, RunWatcher]) -> None:
        """Logs unfollowed (their progress saved) and logs followed since the last tick."""
        while not self._dropped.empty():
            path = self._dropped.get()
            self._first.pop(path, None)
            dropped = watchers.pop(path, None)
            if dropped is not None:
                dropped.flush()
        while not self._new.empty():
            path = self._new.get()
            if path not in watchers:
                watchers[path] = self._start(store, path)

    def _start(self, store: Store, path: Path) -> RunWatcher:
        from sessiontui.collectors.run_watcher import RunWatcher

        factory = self._follower_factory
        watcher = RunWatcher(store, path, follower=factory(path) if factory else None,
                             stall_after_s=self._stall_after_s)

        def progress(fraction: float) -> None:
            self._post(CatchUpProgress(path, fraction))

        watcher.catch_up(progress)
        return watcher

    def _poll(self, path: Path, watcher: RunWatcher) -> None:
        """Post a changed snapshot (the screen first), then record it; a log's first record is
        kept until its card has drawn, and the log is not read again before (the other logs are)."""
        if path in self._first:
            return
        snapshot = watcher.read()
        if snapshot is None:
            return
        self.latest = {**self.latest, path: snapshot}
        self._post(TrainSampled(path, snapshot))
        if watcher.tracker is None and not self._is_drawn(path):
            self._first[path] = (snapshot, time.monotonic())
            return
        self._record(path, watcher, snapshot)

    def _is_drawn(self, path: Path) -> bool:
        with self._drawn_lock:
            return path in self._drawn

    def _until_tick(self, watchers: dict[Path, RunWatcher]) -> None:
        """Wait for the next tick, keeping each first record as soon as its card has drawn
        (or FIRST_DRAW_WAIT_S has passed)."""
        end = time.monotonic() + until_tick(self._refresh_s)
        while not self._clock.stopped:
            now = time.monotonic()
            for path, (snapshot, since) in list(self._first.items()):
                if self._is_drawn(path) or now - since >= FIRST_DRAW_WAIT_S:
                    del self._first[path]
                    self._record(path, watchers[path], snapshot)
            deadlines = [since + FIRST_DRAW_WAIT_S for _, since in self._first.values()]
            wake_at = min([end, *deadlines])
            if now >= end:
                return
            self._wake.wait(max(0.0, wake_at - now))
            self._wake.clear()

    def _record(self, path: Path, watcher: RunWatcher, snapshot: TrainSnapshot) -> None:
        for news in watcher.record(snapshot):  # each event once, even across app restarts
            if news.event.kind in SEVERITY:
                best = news.lessons[0] if news.lessons else None
                self._post(TrainAlert(path, news.event, best))

    def save_followed(self, config_path: Path, log: str, follow: bool) -> None:
        """Add the log to (or remove it from) `logs` in sessiontui.toml, keeping comments."""
        from sessiontui.tui.config import add_followed_log, remove_followed_log

        shown = one_line(log, 40)
        verb = "Following" if follow else "Stopped following"
        try:
            changed = (add_followed_log if follow else remove_followed_log)(config_path, log)
        except (OSError, ValueError) as exc:
            self._post(Notice(one_line(f"{verb} {shown} for this session only: {exc}"),
                              "warning"))
            return
        where = f" ({'added to' if follow else 'removed from'} {config_path.name})"
        self._post(Notice(f"{verb} {shown}" + (where if changed else "")))
