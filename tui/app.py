"""The sessiontui Textual app: GPU, training, memory and answer panes with an ask bar.

Collectors run in thread workers that post messages; handlers on the UI thread hand the snapshots
to the panes. Workers never touch widgets, and every store access opens its own short-lived
connection in the worker's thread (SQLite connections are bound to the thread that made them).
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import on, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Container
from textual.screen import Screen
from textual.worker import Worker, WorkerState, get_current_worker

from sessiontui.project_memory.paths import database_path
from sessiontui.project_memory.records import DEFAULT_METRIC, Record
from sessiontui.tui.messages import (
    AnswerReady,
    CatchUpProgress,
    GpuSampled,
    HostSampled,
    MemoryLoaded,
    Notice,
    TrainAlert,
    TrainSampled,
)
from sessiontui.tui.palette import SessionCommands
from sessiontui.tui.widgets.ask_panel import AnswerPanel, AskBar
from sessiontui.tui.widgets.gpu_pane import GpuPane
from sessiontui.tui.widgets.key_bar import KeyBar
from sessiontui.tui.widgets.memory_pane import MemoryPane
from sessiontui.tui.widgets.training_pane import ALERT_KINDS, TrainingPane
from sessiontui.tui.widgets.view_bar import ViewBar

if TYPE_CHECKING:
    from sessiontui.collectors.run_watcher import RunWatcher
    from sessiontui.project_memory.store import Store
    from sessiontui.tui.config import Config

WIDE_COLUMNS = 140  # from this width the panes sit side by side in a grid; below, they are tabs
STAGGER_S = 0.3  # GPU sampling and the memory read start this long after the log follower
MEMORY_REFRESH_S = 15.0  # re-read the memory for records written by other processes
FLUSH_TIMEOUT_S = 5.0  # how long closing the app waits for the run records' last save
SHOWN_KINDS = ("benchmark", "lesson", "note")  # the memory pane's; runs live in the training pane
VIEWS = {"gpu": "GPUs", "training": "Training", "memory": "Memory", "answer": "Answer"}
_WORKER_WORDS = {  # what each background task does, for a user-facing failure notice
    "_telemetry": "Sampling the GPUs and host",
    "_follow_logs": "Following the training logs",
    "_save_followed_log": "Saving the followed log",
    "_load_memory": "Reading the memory",
    "_write": "Saving to the memory",
    "_export_to": "Exporting the memory",
    "_ask": "Answering",
}
_SEVERITY = {"crashed": "error", "diverged": "error", "stalled": "warning", "finished": "information"}


def pane_classes(view: str, active: str) -> str:
    """A pane's CSS classes; the active one shows in the narrow (tabbed) layout."""
    return "pane -active" if view == active else "pane"


def alert_text(path: Path, event: Any, lesson: Record | None) -> str:
    """The notification for an event, with the best matching lesson's fix inline."""
    text = f"{path.name}: {event.kind}: {event.message or event.line or ''}"
    if lesson is not None:
        return f"{text}\nSeen before: {lesson.label} — fix: {lesson.fix or '(no fix recorded)'}"
    if event.kind in ALERT_KINDS:
        return f"{text}\nNo matching lesson: press L to record one."
    return text


class SessionApp(App[None]):
    """The terminal companion of one ML project: watches, remembers and answers."""

    CSS_PATH = "app.tcss"
    TITLE = "sessiontui"
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (WIDE_COLUMNS, "-wide")]
    AUTO_FOCUS = None  # keys start as app bindings; no blinking cursor costs CPU while idle
    COMMANDS = App.COMMANDS | {SessionCommands}
    BINDINGS = [
        Binding("slash", "focus_ask", "Ask"),
        Binding("question_mark", "help", "Help"),
        Binding("b", "add('benchmark')", "Benchmark"),
        Binding("l", "add('lesson')", "Lesson"),
        Binding("n", "add('note')", "Note"),
        Binding("f", "follow_log", "Follow log"),
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
    ) -> None:
        super().__init__()
        self.project_dir = Path(project_dir)
        self.store_path = store_path or database_path(self.project_dir)
        self.config_path = config_path or self.project_dir / "sessiontui.toml"
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
        self._memory_signature: tuple = ()
        self._train_snapshots: dict[Path, Any] = {}
        self._gpu_names: list[str] = []
        self._lost_gpus: set[int] = set()
        self._gpu_available: bool | None = None
        self._host_events: set[str] = set()
        self._deleted: list[str] = []
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
        (Textual adds it on the first resize, which would style every widget a second time)."""
        width = self.size.width
        widest = max(edge for edge, _ in self.HORIZONTAL_BREAKPOINTS if width >= edge)
        return Screen(id="_default", classes=dict(self.HORIZONTAL_BREAKPOINTS)[widest])

    def on_mount(self) -> None:
        for problem in self.config.problems if self.config else ():
            self.notify(problem, severity="warning", markup=False)
        self._follow_logs()  # at once: the log read overlaps the first frame's drawing
        self.set_timer(STAGGER_S, self._telemetry)  # the rest later: threads share the GIL
        self.set_timer(STAGGER_S, self._load_memory)
        self.set_interval(MEMORY_REFRESH_S, self._load_memory)

    def on_unmount(self) -> None:
        self.stop_collectors()

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
            target.focus()

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

    def on_gpu_sampled(self, message: GpuSampled) -> None:
        snapshot = message.snapshot
        self.gpu_pane.snapshot = snapshot
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
        """Post a changed snapshot (the screen first), then record it and alert on news."""
        snapshot = watcher.read()
        if snapshot is None:
            return
        self.post_message(TrainSampled(path, snapshot))
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
        card.show(message.snapshot)

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
            self._follow,
        )

    def _follow(self, log: str | None) -> None:
        if log:
            path = self._resolve(Path(log))
            self.log_paths.append(path)
            self._new_logs.put(path)
            self._save_followed_log(log)

    @work(thread=True, group="config", exit_on_error=False)
    def _save_followed_log(self, log: str) -> None:
        from sessiontui.tui.config import add_followed_log

        try:
            added = add_followed_log(self.config_path, log)
        except (OSError, ValueError) as exc:
            self.post_message(Notice(f"Following {log} for this session only: {exc}", "warning"))
            return
        where = self.config_path.name
        self.post_message(Notice(f"Following {log}" + (f" (added to {where})" if added else "")))

    # -- memory -------------------------------------------------------------------------------
    @work(thread=True, exclusive=True, group="memory-read", exit_on_error=False)
    def _load_memory(self) -> None:
        """Read benchmarks, lessons and notes when something changed, and post them."""
        from sessiontui.project_memory.reference import reference_for
        from sessiontui.project_memory.store import Store
        from sessiontui.project_memory.sync_state import state_version, sync_pending

        with Store(self.store_path, readonly=self.store_path.exists()) as store:
            # Re-read a large memory only when it changed (or a sync finished).
            signature = (store.fingerprint(SHOWN_KINDS), state_version(self.store_path.parent))
            if signature == self._memory_signature:
                return
            records = [r for kind in SHOWN_KINDS for r in store.list(kind)]
            reference = reference_for(store, self.metric)
            unsynced = sync_pending(store, self.project_dir)
        self._memory_signature = signature
        self.post_message(MemoryLoaded(records, reference, unsynced))

    def on_memory_loaded(self, message: MemoryLoaded) -> None:
        self.memory_pane.show(message.records, message.reference)
        self.memory_pane.border_subtitle = "unsynced: sessiontui sync --push" if message.unsynced else ""

    def action_add(self, kind: str) -> None:
        self._edit(Record(kind=kind))

    def _edit(self, record: Record, error: str = "") -> None:
        """Open the record form (imported on first use: start-up does not pay for it); `error`
        reopens it after a failed save, with what was typed."""
        from sessiontui.tui.screens.record_form import RecordForm

        self.push_screen(RecordForm(record, error), self._save)

    def on_memory_pane_edit_record(self, message: MemoryPane.EditRecord) -> None:
        self._edit(message.record)

    def on_memory_pane_delete_record(self, message: MemoryPane.DeleteRecord) -> None:
        self._deleted.append(message.record.id)
        self._write("delete", message.record.id)

    def action_undelete(self) -> None:
        if self._deleted:
            self._write("restore", self._deleted.pop())
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

    def _save(self, record: Record | None) -> None:
        if record is not None:
            self._write("update" if record.id else "add", record)

    @work(thread=True, group="memory-write", exit_on_error=False)
    def _write(self, operation: str, target: Any) -> None:
        """Add, update, delete or restore in one short transaction, then say what happened."""
        from sessiontui.project_memory.stamp import stamp
        from sessiontui.project_memory.store import Store, StoreError

        try:
            with Store(self.store_path) as store:
                if operation == "add":
                    fresh = replace(target)  # `target` stays as typed, for a retry
                    record = store.add(stamp(fresh, gpus=self._gpu_names, path=self.project_dir))
                    text = f"Added {record.kind} {record.id}: {record.label}"
                elif operation == "update":
                    record = store.update(target)
                    text = f"Saved {record.kind} {record.id}"
                elif operation == "delete":
                    record = store.delete(target)
                    text = f"Deleted {record.kind} {record.id} (u to undo)"
                else:
                    record = store.restore(target)
                    text = f"Restored {record.kind} {record.id}"
        except (StoreError, ValueError) as exc:  # ValueError: RecordError, a record not stored
            if operation in ("add", "update"):  # nothing typed is lost: the form comes back
                self.call_from_thread(self._edit, target, f"Not saved: {exc}")
            else:
                self.post_message(Notice(str(exc), "error"))
            return
        self.post_message(Notice(text, reload=True))

    def on_notice(self, message: Notice) -> None:
        self.notify(message.text, severity=message.severity, markup=False)
        if message.reload:
            self._load_memory()

    def action_export(self) -> None:
        from sessiontui.tui.screens.prompt import PromptScreen

        default = str(self.project_dir / "sessiontui-memory.toml")
        self.push_screen(PromptScreen("Export the memory to TOML", value=default), self._export)

    def _export(self, target: str | None) -> None:
        if target:
            self._export_to(self._resolve(Path(target)))

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
        bar.value = ""
        self.action_view("answer")
        bar.focus()
        self._ask(question, tuple(self._train_snapshots.values()), self.gpu_pane.snapshot)

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

    def key_help(self) -> list[tuple[str, str]]:
        """Every binding of the app, the GPU and memory panes and the ask bar, for the help screen."""
        rows = []
        for owner in (self, GpuPane, MemoryPane, AskBar):
            for binding in owner.BINDINGS:
                if isinstance(binding, Binding):
                    rows.append((binding.key.replace("slash", "/").replace("question_mark", "?"),
                                 binding.description))
        rows.append(("ctrl+p", "Command palette"))
        return rows

    def palette_commands(self) -> list[tuple[str, str, str]]:
        """(name, help, action) for every action, shown in the command palette."""
        commands = [
            ("Add benchmark", "Record a benchmark result", "add('benchmark')"),
            ("Add lesson", "Record a failure and its fix", "add('lesson')"),
            ("Add note", "Write a note into the memory", "add('note')"),
            ("Follow a log", "Follow a training log (saved to sessiontui.toml)", "follow_log"),
            ("Export memory to TOML", "Write the whole memory to a TOML file", "export"),
            ("Ask a question", "Focus the ask bar", "focus_ask"),
            ("Undo delete", "Restore the last record deleted in this session", "undelete"),
            ("Help", "Keys and what the panes show", "help"),
            ("Quit", "Leave sessiontui", "quit"),
        ]
        if self._last_failure is not None:
            commands.append(("Record lesson from last failure",
                             "A lesson pre-filled with the failure's signature",
                             "lesson_from_failure"))
        commands.extend((f"Show {view}", f"Switch to the {view} pane", f"view('{view}')")
                        for view in VIEWS)
        return commands

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A worker that failed says so instead of taking the app down."""
        if event.state == WorkerState.ERROR:
            doing = _WORKER_WORDS.get(event.worker.name, "A background task")
            self.notify(f"{doing} failed: {event.worker.error}",
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
