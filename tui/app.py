"""The sessiontui Textual app: GPU, training, memory and answer panes with an ask bar.

Collectors run in thread workers that post messages; handlers on the UI thread hand the snapshots
to the panes. Workers never touch widgets, and every store access opens its own short-lived
connection in the worker's thread (SQLite connections are bound to the thread that made them).
"""

from __future__ import annotations

import asyncio
import queue
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import on, work
from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding
from textual.containers import Container
from textual.screen import Screen
from textual.worker import Worker, WorkerState, get_current_worker

from sessiontui.project_memory.paths import database_path
from sessiontui.project_memory.records import DEFAULT_METRIC, Record
from sessiontui.tui import paste
from sessiontui.tui.compositor import PartialCompositor
from sessiontui.tui.messages import (
    AnswerReady,
    CatchUpProgress,
    FrameDue,
    GpuSampled,
    HostSampled,
    HostsSampled,
    MemoryChanged,
    MemoryLoaded,
    Notice,
    TrainAlert,
    TrainSampled,
)
from sessiontui.tui.palette import COMMANDS
from sessiontui.tui.widgets import nav
from sessiontui.tui.widgets.ask_panel import AnswerPanel, AskBar
from sessiontui.tui.widgets.gpu_pane import GpuPane
from sessiontui.tui.widgets.key_bar import KeyBar
from sessiontui.tui.widgets.memory_pane import MemoryPane
from sessiontui.tui.widgets.remote_hosts import show_remote_runs
from sessiontui.tui.widgets.training_pane import ALERT_KINDS, TrainingPane
from sessiontui.tui.widgets.view_bar import ViewBar

if TYPE_CHECKING:
    from sessiontui.collectors.run_watcher import RunWatcher
    from sessiontui.project_memory.store import Store
    from sessiontui.tui.config import Config
    from sessiontui.tui.screens.help import Row

WIDE_COLUMNS = 140  # from this width the panes sit side by side in a grid; below, they are tabs
STAGGER_S = 0.3  # GPU sampling and the memory read start this long after the log follower
COALESCE_S = 0.05  # updates arriving this close together are drawn in one frame
FIRST_DRAW_WAIT_S = 0.5  # the longest a log's first record waits for its card's first frame
MEMORY_CHECK_S = 1.0  # how often the memory files are looked at (two stat calls) for changes
FLUSH_TIMEOUT_S = 5.0  # how long closing the app waits for the run records' last save
SHOWN_KINDS = ("target", "benchmark", "run", "lesson", "note")  # every kind, in the memory pane
TOAST_CHARS = 70  # a notification is one short line
ALERT_CHARS = 120  # a run's alert: the event, then the lesson that fixed it before
PAST = {"add": "added", "update": "saved", "delete": "deleted", "restore": "restored"}
VIEWS = {"gpu": "GPUs", "training": "Training", "memory": "Memory", "answer": "Answer"}
_SEVERITY = {"crashed": "error", "diverged": "error", "stalled": "warning", "finished": "information"}


def one_line(text: str, limit: int = TOAST_CHARS) -> str:
    """Text as one line of at most `limit` characters, an ellipsis where it was cut."""
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def file_state(path: Path) -> tuple[int, int] | None:
    """Modification time and size of a file (None when absent): changes on every write."""
    try:
        stat = path.stat()
    except OSError:
        return None
    return stat.st_mtime_ns, stat.st_size


def pane_classes(view: str, active: str) -> str:
    """A pane's CSS classes; the active one shows in the narrow (tabbed) layout."""
    return "pane -active" if view == active else "pane"


def alert_text(path: Path, event: Any, lesson: Record | None) -> str:
    """The notification for an event, with the best matching lesson's fix inline."""
    text = one_line(f"{path.name}: {event.kind}: {event.message or event.line or ''}", ALERT_CHARS)
    if lesson is not None:
        fix = lesson.fix or "(no fix recorded)"
        return f"{text}\n" + one_line(f"Seen before: {lesson.label} — fix: {fix}", ALERT_CHARS)
    if event.kind in ALERT_KINDS:
        return f"{text}\nNo matching lesson: press L to record one."
    return text


class SessionApp(App[None]):
    """The terminal companion of one ML project: watches, remembers and answers."""

    CSS_PATH = "app.tcss"
    TITLE = "sessiontui"
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (WIDE_COLUMNS, "-wide")]
    AUTO_FOCUS = None  # keys start as app bindings; no blinking cursor costs CPU while idle
    BINDINGS = [
        Binding("slash", "focus_ask", "Ask"),
        Binding("question_mark", "help", "Help"),
        Binding("b", "add('benchmark')", "Benchmark"),
        Binding("l", "add('lesson')", "Lesson"),
        Binding("n", "add('note')", "Note"),
        Binding("f", "follow_log", "Follow log"),
        Binding("F", "unfollow_log", "Unfollow log", show=False),
        Binding("x", "export", "Export", show=False),
        Binding("u", "undelete", "Undo delete", show=False),
        Binding("L", "lesson_from_failure", "Lesson from failure", show=False),
        Binding("1", "view('gpu')", "GPUs", show=False),
        Binding("2", "view('training')", "Training", show=False),
        Binding("3", "view('memory')", "Memory", show=False),
        Binding("4", "view('answer')", "Answer", show=False),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(
        self,
        project_dir: Path,
        *,
        store_path: Path | None = None,
        gpu_collector: Any = None,
        host_collector: Any = None,
        log_paths: Sequence[Path] = (),
        config_path: Path | None = None,
        refresh_s: float = 1.0,
        config: Config | None = None,
        follower_factory: Callable[[Path], Any] | None = None,
        keep_dir: Path | None = None,
    ) -> None:
        super().__init__()
        paste.install()  # pasted text keeps its order; escape codes in it are dropped
        nav.install()  # Esc then a key typed fast is Esc, then the key
        self.project_dir = Path(project_dir)
        self.store_path = store_path or database_path(self.project_dir)
        self.config_path = config_path or self.project_dir / "sessiontui.toml"
        self.keep_dir = keep_dir or self.project_dir  # where exports and screenshots go
        self.config = config
        self.refresh_s = config.refresh_s if config else refresh_s
        self.gpu_refresh_s = config.gpu_refresh_s if config else refresh_s
        self.metric = config.default_metric if config else DEFAULT_METRIC
        self._gpu_collector = gpu_collector
        self._host_collector = host_collector
        self._follower_factory = follower_factory
        logs = [*log_paths, *(config.log_paths(self.config_path.parent) if config else [])]
        self.log_paths: list[Path] = list(dict.fromkeys(self._resolve(p) for p in logs))
        self._new_logs: queue.Queue[Path] = queue.Queue()
        for path in self.log_paths:
            self._new_logs.put(path)
        self._stopping = threading.Event()
        self._training_done = threading.Event()
        self._training_done.set()  # clear only while the training worker runs
        self._memory_shown = False  # the first read shows at once, later ones in a tick's frame
        self._memory_counts: dict[str, int] = {}
        self._memory_kinds: dict[str, list[Record]] = {}
        self._reference: Record | None = None
        self._sync_version: object = None
        self._train_snapshots: dict[Path, Any] = {}
        self._frame_updates: list[Callable[[], object]] = []
        self._drawn_cards: dict[Path, threading.Event] = {}
        self._gpu_names: list[str] = []
        self._lost_gpus: set[int] = set()
        self._gpu_available: bool | None = None
        self._host_events: set[str] = set()
        self._remote_runs: dict[str, dict[str, Any]] = {}
        self._hosts_down: set[str] = set()
        self._deleted: list[str] = []
        self._restored = 0
        self._dropped_logs: queue.Queue[Path] = queue.Queue()
        self._last_failure: tuple[Path, Any] | None = None

        first = self._first_view()  # styled as active from the start: no restyle after mount
        self.view_bar = ViewBar(VIEWS.items(), id="views")
        self.view_bar.active = first
        self.gpu_pane = GpuPane(id="gpu", classes=pane_classes("gpu", first))
        self.training_pane = TrainingPane(
            self.log_paths, id="training", classes=pane_classes("training", first)
        )
        self.memory_pane = MemoryPane(id="memory", classes=pane_classes("memory", first))
        self.answer_panel = AnswerPanel(id="answer", classes=pane_classes("answer", first))
        self.ask_bar = AskBar(id="ask", compact=True)

    def _resolve(self, path: Path) -> Path:
        path = Path(path).expanduser()
        return path if path.is_absolute() else self.project_dir / path

    # -- layout -------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield self.view_bar
        with Container(id="panes"):
            yield self.gpu_pane  # grid order: GPUs | memory over training | answer
            yield self.memory_pane
            yield self.training_pane
            yield self.answer_panel
        yield self.ask_bar
        yield KeyBar(id="keys")

    def _first_view(self) -> str:
        return "training" if self.log_paths else "gpu"

    def get_default_screen(self) -> Screen:
        """The main screen, with its width breakpoint class set before the first styling pass
        (Textual adds it on the first resize, which would style every widget a second time) and
        a compositor that renders only the panes an update touches."""
        width = self.size.width
        widest = max(edge for edge, _ in self.HORIZONTAL_BREAKPOINTS if width >= edge)
        screen = Screen(id="_default", classes=dict(self.HORIZONTAL_BREAKPOINTS)[widest])
        screen._compositor = PartialCompositor()  # a change in one pane re-renders that pane only
        return screen

    def on_mount(self) -> None:
        for problem in self.config.problems if self.config else ():
            self.notify(problem, severity="warning", markup=False)
        self._follow_logs()  # at once: the log read overlaps the first frame's drawing
        self.set_timer(STAGGER_S, self._telemetry)  # the rest later: threads share the GIL
        # The memory (runs' records are large) and the session files are read after the first
        # frames: their threads would share the GIL with the drawing.
        self._watch_memory()
        self.set_timer(MEMORY_CHECK_S, self._open_session)
        if self.config and self.config.hosts:
            self.set_timer(STAGGER_S, self._watch_hosts)

    def on_unmount(self) -> None:
        self.stop_collectors()
        from sessiontui.tui.session_files import leave

        leave(self.memory_dir)

    @property
    def memory_dir(self) -> Path:
        """The project's `.sessiontui` folder: the memory, the ask history, who has the app open."""
        return self.store_path.parent

    @work(thread=True, group="session", exit_on_error=False)
    def _open_session(self) -> None:
        """Restore the ask history; say when another app has this project open too."""
        from sessiontui.tui.session_files import enter, read_history

        history = read_history(self.memory_dir)
        self.call_from_thread(self.ask_bar.load_history, history)
        others = enter(self.memory_dir)
        if others:
            pids = ", ".join(str(pid) for pid in others)
            self.post_message(Notice(
                f"sessiontui is also open on this project (pid {pids}); both keep working.",
                "warning",
            ))

    def stop_collectors(self) -> None:
        """Stop the workers; wait (briefly) for the run records' last save. Safe from any thread."""
        self._stopping.set()
        self._training_done.wait(FLUSH_TIMEOUT_S)

    def _show_view(self, name: str) -> None:
        """In the narrow layout only the active pane shows; the wide layout shows all of them."""
        self.view_bar.active = name
        for view in VIEWS:
            self.query_one(f"#{view}").set_class(view == name, "-active")

    def action_view(self, name: str) -> None:
        """Bring a pane forward (a tab in the narrow layout) and focus it (the memory's table)."""
        self._show_view(name)
        target = self.memory_pane.table if name == "memory" else self.query_one(f"#{name}")
        if target.can_focus:
            self.set_focus(target)  # at once: the next key of a burst goes to the new pane

    # -- telemetry ----------------------------------------------------------------------------
    @work(thread=True, exclusive=True, group="telemetry", exit_on_error=False)
    def _telemetry(self) -> None:
        """Sample the GPUs every gpu_refresh_s and the host (with the GPU processes) every
        refresh_s until the app exits. The host goes first: the GPU pane repaints once a tick."""
        worker = get_current_worker()
        gpu = self._gpu_collector or default_gpu_collector(
            bool(self.config and self.config.gpu_interconnect)
        )
        host = self._host_collector or default_host_collector(
            self._watched_dirs(), lambda: tuple(self.log_paths)
        )
        next_host = 0.0
        while not (worker.is_cancelled or self._stopping.is_set()):
            snapshot = gpu.sample()
            if time.monotonic() >= next_host:
                next_host = time.monotonic() + self.refresh_s
                pids = {p.pid for sample in snapshot.gpus for p in sample.processes}
                self.post_message(HostSampled(host.sample(pids)))
            self.post_message(GpuSampled(snapshot))
            self._stopping.wait(until_tick(self.gpu_refresh_s))

    def _watched_dirs(self) -> list[Path]:
        return list(dict.fromkeys([self.project_dir, *(p.parent for p in self.log_paths)]))

    def _in_one_frame(self, update: Callable[[], object], *, first: bool = False) -> None:
        """Run `update` together with the other updates of this tick, in one frame: the log poll
        and the GPU sample land ~10 ms apart, and each frame is a whole compositor pass. A pane's
        `first` data shows at once (start-up does not wait for the tick's other news)."""
        if first:
            update()
            return
        self._frame_updates.append(update)
        if len(self._frame_updates) == 1:  # a plain loop timer: Textual's set_timer starts a task
            # and inspects two signatures, every tick
            asyncio.get_running_loop().call_later(COALESCE_S, self.post_message, FrameDue())

    def on_frame_due(self) -> None:
        updates, self._frame_updates = self._frame_updates, []
        with self.batch_update():
            for update in updates:
                update()

    def on_gpu_sampled(self, message: GpuSampled) -> None:
        snapshot = message.snapshot
        self._in_one_frame(partial(setattr, self.gpu_pane, "snapshot", snapshot),
                           first=self.gpu_pane.snapshot is None)
        if snapshot.available:
            self._gpu_names = [gpu.name for gpu in snapshot.gpus]
            lost = {gpu.index for gpu in snapshot.gpus if gpu.lost}
            for index in sorted(lost - self._lost_gpus):
                self.notify(f"GPU {index} lost", severity="error", timeout=30, markup=False)
            self._lost_gpus = lost
        elif self._gpu_available:
            self.notify(f"NVML not available: {snapshot.reason}", severity="warning", markup=False)
        self._gpu_available = snapshot.available

    def on_host_sampled(self, message: HostSampled) -> None:
        self.gpu_pane.host = message.snapshot
        for event in set(message.snapshot.events) - self._host_events:
            self.notify(event, severity="warning", timeout=30, markup=False)
        self._host_events = set(message.snapshot.events)

    @work(thread=True, exclusive=True, group="hosts", exit_on_error=False)
    def _watch_hosts(self) -> None:
        """Scrape the other hosts every hosts_refresh_s (each with its own timeout)."""
        from sessiontui.collectors.remote import RemoteCollector

        assert self.config is not None  # started only when the config lists hosts
        worker = get_current_worker()
        collector = RemoteCollector(self.config.hosts)
        try:
            while not (worker.is_cancelled or self._stopping.is_set()):
                self.post_message(HostsSampled(collector.sample()))
                self._stopping.wait(self.config.hosts_refresh_s)
        finally:
            collector.close()

    async def on_hosts_sampled(self, message: HostsSampled) -> None:
        self.gpu_pane.remote = message.snapshots
        await show_remote_runs(self.training_pane, message.snapshots, self._remote_runs)
        for snapshot in message.snapshots:  # say so once when a host goes wrong or recovers
            name, problem = snapshot.host.name, snapshot.problem()
            if problem and name not in self._hosts_down:
                self._hosts_down.add(name)
                text = problem if problem.startswith(name) else f"{name}: {problem}"
                self.notify(text, severity="warning", markup=False)
            elif not problem and name in self._hosts_down:
                self._hosts_down.discard(name)
                self.notify(f"{name} answers again", markup=False)

    def on_gpu_pane_signal_requested(self, message: GpuPane.SignalRequested) -> None:
        """Send a signal to a GPU process only after a confirmation that names it."""
        from sessiontui.tui.screens.signal_confirm import SignalConfirm

        name, row = message.signal_name, message.row
        self.push_screen(SignalConfirm(name, row), lambda yes: self._signal(yes, name, row))

    def _signal(self, confirmed: bool | None, name: str, row: Any) -> None:
        from sessiontui.collectors.processes import signal_process

        if not confirmed:
            return
        why_not = signal_process(row.process.pid, row.info.started_at, name)
        if why_not is None:
            self.notify(f"Sent {name} to process {row.process.pid}", markup=False)
        else:
            self.notify(f"{name} not sent: {why_not}", severity="error", markup=False)

    # -- training logs ------------------------------------------------------------------------
    @work(thread=True, exclusive=True, group="training", exit_on_error=False)
    def _follow_logs(self) -> None:
        """Follow every log through a RunWatcher (catching up first) and post what it reports."""
        from sessiontui.project_memory.store import Store

        worker = get_current_worker()
        watchers: dict[Path, RunWatcher] = {}
        self._training_done.clear()
        try:
            with Store(self.store_path) as store:
                while not (worker.is_cancelled or self._stopping.is_set()):
                    while not self._new_logs.empty():
                        path = self._new_logs.get()
                        if path not in watchers:
                            watchers[path] = self._start_following(store, path)
                    while not self._dropped_logs.empty():  # unfollowed: its progress saved first
                        dropped = watchers.pop(self._dropped_logs.get(), None)
                        if dropped is not None:
                            dropped.flush()
                    for path, watcher in watchers.items():
                        self._poll(path, watcher)
                    self._stopping.wait(until_tick(self.refresh_s))
                for watcher in watchers.values():  # closing the app loses no progress
                    watcher.flush()
        finally:
            self._training_done.set()

    def _start_following(self, store: Store, path: Path) -> RunWatcher:
        from sessiontui.collectors.run_watcher import RunWatcher

        factory = self._follower_factory
        watcher = RunWatcher(
            store, path, follower=factory(path) if factory else None,
            stall_after_s=self.config.stall_after_s if self.config else None,
        )
        watcher.catch_up(lambda fraction: self.post_message(CatchUpProgress(path, fraction)))
        return watcher

    def _poll(self, path: Path, watcher: RunWatcher) -> None:
        """Post a changed snapshot (the screen first), then record it and alert on news. A log's
        first record waits for the frame that shows its card: it reads the run records and stamps
        the git state (~80 ms of imports), which would hold that frame back."""
        snapshot = watcher.read()
        if snapshot is None:
            return
        self.post_message(TrainSampled(path, snapshot))
        if watcher.tracker is None:
            self._card_drawn(path).wait(FIRST_DRAW_WAIT_S)
        for news in watcher.record(snapshot):  # each event once, even across app restarts
            if news.event.kind in _SEVERITY:
                best = news.lessons[0] if news.lessons else None
                self.post_message(TrainAlert(path, news.event, best))

    async def on_catch_up_progress(self, message: CatchUpProgress) -> None:
        card = await self.training_pane.card(message.path)
        card.show_progress(message.fraction)

    async def on_train_sampled(self, message: TrainSampled) -> None:
        self._train_snapshots[message.path] = message.snapshot
        card = await self.training_pane.card(message.path)
        first = card.snapshot is None
        if first:
            self.call_after_refresh(self._card_drawn(message.path).set)
        self._in_one_frame(partial(card.show, message.snapshot), first=first)

    def _card_drawn(self, path: Path) -> threading.Event:
        """Set once the log's card has drawn its first snapshot (the worker's first record waits)."""
        return self._drawn_cards.setdefault(path, threading.Event())

    def on_train_alert(self, message: TrainAlert) -> None:
        if message.lesson is None and message.event.kind in ALERT_KINDS:
            self._last_failure = (message.path, message.event)
        severity = _SEVERITY[message.event.kind]
        self.notify(
            alert_text(message.path, message.event, message.lesson), severity=severity,
            timeout=60 if severity == "error" else 10, markup=False,
        )

    def action_follow_log(self) -> None:
        from sessiontui.tui.screens.prompt import PromptScreen

        self.push_screen(
            PromptScreen("Follow a training log (saved to sessiontui.toml)",
                         placeholder="path/to/train.log"),
            self._ask_to_follow,
        )

    def _ask_to_follow(self, log: str | None) -> None:
        """Follow the log; a path that does not exist yet is followed only if the user says so."""
        if not log:
            return
        path = self._resolve(Path(log))
        if path in self.log_paths:
            self.notify(f"Already following {one_line(log)}.", markup=False)
        elif path.is_dir():
            self.notify(f"{one_line(log)} is a folder: give the log file in it.",
                        severity="warning", markup=False)
        elif path.exists():
            self._follow(log)
        else:
            from sessiontui.tui.screens.confirm import ConfirmScreen

            question = f"{path} does not exist yet. Follow it anyway and wait for the job to create it?"
            self.push_screen(ConfirmScreen(question), lambda yes: self._follow(log) if yes else None)

    def _follow(self, log: str) -> None:
        path = self._resolve(Path(log))
        self.log_paths.append(path)
        self._new_logs.put(path)
        self._save_followed_log(log, True)

    def action_unfollow_log(self) -> None:
        """Choose a followed log to stop following (removed from sessiontui.toml too)."""
        if not self.log_paths:
            self.notify("No log is followed.", markup=False)
            return
        from sessiontui.tui.screens.choose import ChooseScreen

        choices = [str(path) for path in self.log_paths]
        self.push_screen(ChooseScreen("Stop following which log?", choices), self._unfollow)

    def _unfollow(self, choice: str | None) -> None:
        if choice is None:
            return
        path = Path(choice)
        self.log_paths.remove(path)
        self._dropped_logs.put(path)
        self.training_pane.drop_card(path)
        self._drawn_cards.pop(path, None)  # followed again: its first record waits for the card again
        self._train_snapshots.pop(path, None)
        self._save_followed_log(str(path), False)

    @work(thread=True, group="config", exit_on_error=False)
    def _save_followed_log(self, log: str, follow: bool) -> None:
        """Add the log to (or remove it from) `logs` in sessiontui.toml, keeping comments."""
        from sessiontui.tui.config import add_followed_log, remove_followed_log

        shown = one_line(log, 40)
        try:
            changed = (add_followed_log if follow else remove_followed_log)(self.config_path, log)
        except (OSError, ValueError) as exc:
            self.post_message(Notice(
                one_line(f"{'Following' if follow else 'Stopped following'} {shown} for this "
                         f"session only: {exc}"), "warning"))
            return
        where = f" ({'added to' if follow else 'removed from'} {self.config_path.name})"
        verb = "Following" if follow else "Stopped following"
        self.post_message(Notice(f"{verb} {shown}" + (where if changed else "")))

    # -- memory -------------------------------------------------------------------------------
    @work(thread=True, group="memory-watch", exit_on_error=False)
    def _watch_memory(self) -> None:
        """Look at the memory's files (stat calls) on every tick of MEMORY_CHECK_S and have the
        memory re-read when they changed. A thread rather than a UI timer: the UI loop wakes
        only for a change, and a re-read on the tick is drawn in the tick's frame."""
        from sessiontui.project_memory.sync_state import STATE_NAME

        worker = get_current_worker()
        names = (self.store_path.name, self.store_path.name + "-wal", STATE_NAME)
        seen: tuple = ()
        wait = MEMORY_CHECK_S  # the first look comes after the first frames
        while not (worker.is_cancelled or self._stopping.wait(wait)):
            files = tuple(file_state(self.memory_dir / name) for name in names)
            if files != seen:
                seen = files
                self.post_message(MemoryChanged())
            wait = until_tick(MEMORY_CHECK_S)

    def on_memory_changed(self) -> None:
        self._load_memory()

    @work(thread=True, exclusive=True, group="memory-read", exit_on_error=False)
    def _load_memory(self) -> None:
        """Read the kinds whose records changed (per-kind counters), and post the whole memory."""
        from sessiontui.project_memory.reference import reference_for
        from sessiontui.project_memory.store import Store
        from sessiontui.project_memory.sync_state import state_version, sync_pending

        with Store(self.store_path, readonly=self.store_path.exists()) as store:
            counts = dict(zip(SHOWN_KINDS, store.fingerprint(SHOWN_KINDS), strict=True))
            changed = [kind for kind in SHOWN_KINDS if counts[kind] != self._memory_counts.get(kind)]
            version = state_version(self.store_path.parent)  # a sync finished
            if not changed and version == self._sync_version:
                return
            for kind in changed:
                self._memory_kinds[kind] = store.list(kind)
            if "benchmark" in changed:
                self._reference = reference_for(store, self.metric)
            unsynced = sync_pending(store, self.project_dir)
        self._memory_counts, self._sync_version = counts, version
        records = [r for kind in SHOWN_KINDS for r in self._memory_kinds[kind]]
        self.post_message(MemoryLoaded(records, self._reference, unsynced))

    def on_memory_loaded(self, message: MemoryLoaded) -> None:
        self._in_one_frame(partial(self._show_memory, message), first=not self._memory_shown)
        self._memory_shown = True

    def _show_memory(self, message: MemoryLoaded) -> None:
        self.memory_pane.show(message.records, message.reference)
        self.memory_pane.border_subtitle = "unsynced: sessiontui sync --push" if message.unsynced else ""

    def action_add(self, kind: str) -> None:
        self._edit(Record(kind=kind))

    def _edit(self, record: Record, error: str = "") -> None:
        """Open the record form (imported on first use: start-up does not pay for it); `error`
        reopens it after a failed save, with what was typed."""
        from sessiontui.tui.screens.record_form import RecordForm

        operation = "update" if record.id else "add"
        self.push_screen(RecordForm(record, lambda r: self._store_write(operation, r)),
                         self._saved)

    def _saved(self, text: str | None) -> None:
        if text:
            self.on_notice(Notice(text, reload=True))

    def action_memory(self, operation: str) -> None:
        """Open, edit or delete the record under the Memory pane's cursor (from the palette)."""
        self._show_view("memory")
        if self.memory_pane.selected() is None:
            self.notify("Select a record in the Memory pane first (3, then arrows).", markup=False)
            return
        getattr(self.memory_pane, f"action_{operation}")()

    def action_filter_memory(self) -> None:
        """Bring the Memory pane forward with its filter box focused."""
        self._show_view("memory")
        self.set_focus(self.memory_pane.filter)

    def on_memory_pane_open_record(self, message: MemoryPane.OpenRecord) -> None:
        from sessiontui.tui.screens.record_view import RecordView

        record = message.record

        def then(choice: str | None) -> None:
            if choice == "edit":
                self._edit(record)
            elif choice == "delete":
                self._delete(record)

        self.push_screen(RecordView(record), then)

    def on_memory_pane_edit_record(self, message: MemoryPane.EditRecord) -> None:
        self._edit(message.record)

    def on_memory_pane_delete_record(self, message: MemoryPane.DeleteRecord) -> None:
        from sessiontui.tui.screens.confirm import ConfirmScreen, delete_question

        record = message.record
        self.push_screen(ConfirmScreen(delete_question(record)),
                         lambda yes: self._delete(record) if yes else None)

    def _delete(self, record: Record) -> None:
        self._deleted.append(record.id)
        self._write("delete", record.id)

    def action_undelete(self) -> None:
        if self._deleted:
            self._restored += 1
            self._write("restore", self._deleted.pop())
        elif self._restored:
            self.notify("Nothing left to undo: every record deleted here was restored.")
        else:
            self.notify("Nothing deleted in this session.")

    def action_lesson_from_failure(self) -> None:
        """Open a lesson form pre-filled with the last unmatched failure's signature and lines."""
        if self._last_failure is None:
            self.notify("No unmatched failure seen in this session.")
            return
        from sessiontui.project_memory.run_answers import lesson_draft

        path, event = self._last_failure
        lesson = lesson_draft(event, path.name)
        lesson.notes = f"log: {path}"
        self._edit(lesson)

    def _store_write(self, operation: str, target: Any) -> str:
        """Add, update, delete or restore in one short transaction; what happened, in one line.

        Raises UserError with what to do when the store refuses (read-only folder, full disk).
        """
        from sessiontui.project_memory.records import RecordError
        from sessiontui.project_memory.stamp import stamp
        from sessiontui.project_memory.store import Store, StoreError
        from sessiontui.tui.user_errors import UserError, store_problem

        try:
            with Store(self.store_path) as store:
                if operation == "add":
                    record = store.add(stamp(target, gpus=self._gpu_names, path=self.project_dir))
                    done = "Added"
                elif operation == "update":
                    record, done = store.update(target), "Saved"
                elif operation == "delete":
                    record, done = store.delete(target), "Deleted"
                else:
                    record, done = store.restore(target), "Restored"
        except RecordError as exc:  # a value the store's rules refuse
            raise UserError(str(exc)) from None
        except (StoreError, OSError) as exc:
            raise UserError(store_problem(exc, self.store_path)) from None
        undo = " (u undoes)" if operation == "delete" else ""
        return one_line(f"{done} {record.kind} {record.id}{undo}: {record.label}")

    @work(thread=True, group="memory-write", exit_on_error=False)
    def _write(self, operation: str, target: Any) -> None:
        """`_store_write` in a thread, its outcome as a notification."""
        from sessiontui.tui.user_errors import UserError

        try:
            text = self._store_write(operation, target)
        except UserError as exc:
            if operation == "delete" and self._deleted and self._deleted[-1] == target:
                self._deleted.pop()
            self.post_message(Notice(f"Not {PAST[operation]}: {exc}", "error"))
            return
        self.post_message(Notice(text, reload=True))

    def on_notice(self, message: Notice) -> None:
        self.notify(one_line(message.text, 2 * TOAST_CHARS), severity=message.severity,
                    markup=False)
        if message.reload:
            self._load_memory()

    def action_export(self) -> None:
        from sessiontui.tui.screens.prompt import PromptScreen

        default = str(self.keep_dir / "sessiontui-memory.toml")
        self.push_screen(PromptScreen("Export the memory to TOML", value=default), self._export)

    def _export(self, target: str | None) -> None:
        """Export; an existing file is replaced only after the user says yes."""
        if not target:
            return
        path = self._resolve(Path(target))
        if path.is_dir():
            path = path / "sessiontui-memory.toml"
        if not path.exists():
            self._export_to(path)
            return
        from sessiontui.tui.screens.confirm import ConfirmScreen

        self.push_screen(ConfirmScreen(f"{path} exists. Replace it?"),
                         lambda yes: self._export_to(path) if yes else None)

    @work(thread=True, group="export", exit_on_error=False)
    def _export_to(self, path: Path) -> None:
        from sessiontui.project_memory.exchange import export_toml
        from sessiontui.project_memory.store import Store, StoreError

        try:
            with Store(self.store_path) as store:
                export_toml(store, path)
        except (StoreError, OSError) as exc:
            self.post_message(Notice(f"Export failed: {exc}", "error"))
            return
        self.post_message(Notice(f"Exported the memory to {path}"))

    def action_screenshot(self) -> None:
        """Save an SVG of the screen into the project (after the palette has closed)."""
        self.set_timer(0.1, self._save_screenshot)

    def _save_screenshot(self) -> None:
        name = time.strftime("sessiontui-screenshot-%Y%m%d-%H%M%S.svg")
        try:
            saved = self.save_screenshot(name, str(self.keep_dir))
        except OSError as exc:
            self.notify(f"Screenshot not saved: {exc.strerror}", severity="error", markup=False)
            return
        self.notify(f"Screenshot saved: {saved}", markup=False)

    # -- asking -------------------------------------------------------------------------------
    def action_focus_ask(self) -> None:
        """Focus at once (not after the next refresh), so keys typed right after `/` are text."""
        self.set_focus(self.ask_bar)

    def action_leave_ask(self) -> None:
        """Hand the keys back to the pane in front (its letters and digits are bindings again)."""
        self.action_view(self.view_bar.active)

    @on(AskBar.Submitted, "#ask")
    def _asked(self, event: AskBar.Submitted) -> None:
        question = event.value.strip()
        if not question:
            return
        bar = self.ask_bar
        bar.remember(question)
        self._keep_history(list(bar.history))
        bar.value = ""
        self.action_view("answer")
        bar.focus()
        self._ask(question, tuple(self._train_snapshots.values()), self.gpu_pane.snapshot)

    @work(thread=True, group="session", exit_on_error=False)
    def _keep_history(self, questions: list[str]) -> None:
        from sessiontui.tui.session_files import write_history

        write_history(self.memory_dir, questions)

    @work(thread=True, exclusive=True, group="ask", exit_on_error=False)
    def _ask(self, question: str, snapshots: tuple, gpu: Any) -> None:
        from sessiontui.project_memory.answers import ask
        from sessiontui.project_memory.store import Store, StoreError
        from sessiontui.tui.config import Config, trust_rules

        config = self.config or Config()
        try:
            with Store(self.store_path) as store:
                answer = ask(store, question, snapshots=snapshots, gpu=gpu, metric=self.metric,
                             draft_overhead=config.draft_overhead, rules=trust_rules(config))
        except StoreError as exc:
            self.post_message(AnswerReady(question, None, error=str(exc)))
            return
        self.post_message(AnswerReady(question, answer))

    def on_answer_ready(self, message: AnswerReady) -> None:
        if message.answer is None:
            self.answer_panel.show_error(message.question, message.error)
        else:
            self.answer_panel.show(message.question, message.answer)

    # -- help, palette, errors ----------------------------------------------------------------
    def action_help(self) -> None:
        from sessiontui.tui.screens.help import HelpScreen

        self.push_screen(HelpScreen(self.key_help()))

    def key_help(self) -> list[tuple[str, list[Row]]]:
        """Every binding, grouped by pane, for the help screen (read from the bindings)."""
        from sessiontui.tui.screens.help import key_groups

        return key_groups(self)

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        """The palette: Textual's own commands (theme, keys, quit), then each app action once."""
        for command in super().get_system_commands(screen):
            if command.title != "Screenshot":  # ours saves into the project and says where
                yield command
        for command in COMMANDS:
            yield SystemCommand(command.name, command.help, partial(self.run_action, command.action))

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A worker that failed says so, in words, instead of taking the app down."""
        if event.state == WorkerState.ERROR:
            from sessiontui.tui.user_errors import worker_problem

            self.notify(one_line(worker_problem(event.worker.group, event.worker.error,
                                                self.store_path), 2 * TOAST_CHARS),
                        severity="error", timeout=30, markup=False)


def default_gpu_collector(interconnect: bool = False) -> Any:
    """The NVML collector (imported in the worker: pynvml loads a shared library), reading
    PCIe and NVLink throughput only when asked (slow calls)."""
    from sessiontui.collectors.gpu import GpuCollector

    return GpuCollector(pcie=interconnect, nvlink=interconnect)


def default_host_collector(paths: Sequence[Path], logs: Callable[[], Sequence[Path]]) -> Any:
    """The psutil host collector watching the disks that hold the project and the logs, and
    marking the processes that write the followed `logs`."""
    from sessiontui.collectors.host import HostCollector

    return HostCollector(list(paths), logs=logs)


def until_tick(period_s: float) -> float:
    """Seconds to the next multiple of `period_s` on the monotonic clock: workers that wait
    this way wake together, so their updates are drawn in one frame instead of several."""
    return period_s - time.monotonic() % period_s
