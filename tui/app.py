"""The sessiontui Textual app: GPU, training, memory and answer panes with an ask bar.

The feeds (`tui/feeds/`) run in thread workers and post messages; the app composes the panes,
routes the messages to them, and owns the bindings, screens, ask and palette. Workers never
touch widgets, and every store access opens its own short-lived connection in the worker's
thread (SQLite connections are bound to the thread that made them).
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import on
from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding
from textual.containers import Container
from textual.screen import Screen
from textual.worker import Worker, WorkerState

from sessiontui.project_memory.paths import database_path
from sessiontui.project_memory.records import DEFAULT_METRIC, Record
from sessiontui.tui import dialogs, paste
from sessiontui.tui import messages as msg
from sessiontui.tui.compositor import PartialCompositor
from sessiontui.tui.feeds.clock import Clock, Frames
from sessiontui.tui.feeds.memory import MEMORY_CHECK_S, MemoryFeed
from sessiontui.tui.feeds.telemetry import GpuSource, HostsFeed, HostSource, TelemetryFeed
from sessiontui.tui.feeds.training import TrainingFeed, alert_text
from sessiontui.tui.messages import TOAST_CHARS, Notice, one_line
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
    from sessiontui.collectors.trainlog.follower import LogFollower
    from sessiontui.collectors.trainlog.snapshot import TrainSnapshot
    from sessiontui.project_memory.events import TrainEvent
    from sessiontui.tui.config import Config
    from sessiontui.tui.screens.help import Row

WIDE_COLUMNS = 140  # from this width the panes sit side by side in a grid; below, they are tabs
FLUSH_TIMEOUT_S = 5.0  # how long closing the app waits for the run records' last save
COLLECT_AFTER_S = 3.0  # the garbage collector resumes once start-up has filled the panes
VIEWS = {"gpu": "GPUs", "training": "Training", "memory": "Memory", "answer": "Answer"}


def resume_collection() -> None:
    """Start-up's objects (modules, styles, widgets) live as long as the app: frozen, never walked
    again, and the collector resumes for what the app makes from now on (`sessiontui` turns it
    off while they are built, a tenth of the start-up's time; see cli.main)."""
    if not gc.isenabled():
        gc.freeze()
        gc.enable()


def pane_classes(view: str, active: str) -> str:
    """A pane's CSS classes; the active one shows in the narrow (tabbed) layout."""
    return "pane -active" if view == active else "pane"


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
        gpu_collector: GpuSource | None = None,
        host_collector: HostSource | None = None,
        log_paths: Sequence[Path] = (),
        config_path: Path | None = None,
        refresh_s: float = 1.0,
        config: Config | None = None,
        follower_factory: Callable[[Path], LogFollower] | None = None,
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
        self.metric = config.default_metric if config else DEFAULT_METRIC
        logs = [*log_paths, *(config.log_paths(self.config_path.parent) if config else [])]
        self.log_paths: list[Path] = list(dict.fromkeys(self._resolve(p) for p in logs))
        self.clock = Clock()
        self._frames = Frames(self.post_message)
        self.training = TrainingFeed(
            self.post_message, self.clock, self.store_path, refresh_s=self.refresh_s,
            stall_after_s=config.stall_after_s if config else None,
            follower_factory=follower_factory)
        for path in self.log_paths:
            self.training.follow(path)
        self.telemetry = TelemetryFeed(
            self.post_message, self.clock, refresh_s=self.refresh_s,
            gpu_refresh_s=config.gpu_refresh_s if config else refresh_s,
            watched=self._watched_dirs, logs=lambda: tuple(self.log_paths),
            interconnect=bool(config and config.gpu_interconnect), gpu=gpu_collector,
            host=host_collector)
        self.memory = MemoryFeed(self.post_message, self.clock, self.store_path, self.project_dir,
                                 self.metric)
        self._memory_shown = False  # the first read shows at once, later ones in a tick's frame
        self._remote_runs: dict[str, dict[str, TrainSnapshot]] = {}
        self._last_failure: tuple[Path, TrainEvent] | None = None

        first = self._first_view()  # styled as active from the start: no restyle after mount
        self.view_bar = ViewBar(list(VIEWS.items()), id="views")
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
        screen: Screen[None] = Screen(id="_default",
                                      classes=dict(self.HORIZONTAL_BREAKPOINTS)[widest])
        screen._compositor = PartialCompositor()  # a change in one pane re-renders that pane only
        return screen

    def on_mount(self) -> None:
        for problem in self.config.problems if self.config else ():
            self.notify(problem, severity="warning", markup=False)
        if self.config and self.config.theme in self.available_themes:
            self.theme = self.config.theme  # from sessiontui.toml or the user-level config.toml
        self._thread("training", self.training.run)  # at once: the log read overlaps the first frame
        # the memory, GPUs and hosts right after the first frame (their threads share its GIL)
        self.call_after_refresh(self._thread, "memory-watch", self.memory.watch)
        self.call_after_refresh(self._thread, "telemetry", self.telemetry.run)
        if self.config and self.config.hosts:
            hosts = HostsFeed(self.post_message, self.clock, self.config.hosts,
                              self.config.hosts_refresh_s)
            self.call_after_refresh(self._thread, "hosts", hosts.run)
        self.set_timer(MEMORY_CHECK_S, partial(self._thread, "session", self.memory.open_session))
        self.set_timer(COLLECT_AFTER_S, resume_collection)

    def _thread(self, group: str, run: Callable[..., object], *args: Any) -> None:
        """Run a feed's loop or one of its jobs in a thread worker; a newer read or question
        replaces an older one (a failure is said in words, see on_worker_state_changed)."""
        self.run_worker(partial(run, *args), thread=True, group=group, exit_on_error=False,
                        exclusive=group in ("memory-read", "ask"))

    def on_unmount(self) -> None:
        self.stop_collectors()
        self.memory.close_session()

    def on_history_read(self, message: msg.HistoryRead) -> None:
        self.ask_bar.load_history(message.questions)

    def stop_collectors(self) -> None:
        """Stop the feeds; wait (briefly) for the run records' last save. Safe from any thread."""
        self.clock.stop()
        self.training.done.wait(FLUSH_TIMEOUT_S)

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
    def _watched_dirs(self) -> list[Path]:
        return list(dict.fromkeys([self.project_dir, *(p.parent for p in self.log_paths)]))

    def on_frame_due(self) -> None:
        with self.batch_update():
            self._frames.draw()

    def on_gpu_sampled(self, message: msg.GpuSampled) -> None:
        self._frames.add(partial(setattr, self.gpu_pane, "snapshot", message.snapshot),
                         first=self.gpu_pane.snapshot is None)

    def on_host_sampled(self, message: msg.HostSampled) -> None:
        self.gpu_pane.host = message.snapshot

    async def on_hosts_sampled(self, message: msg.HostsSampled) -> None:
        self.gpu_pane.remote = message.snapshots
        await show_remote_runs(self.training_pane, message.snapshots, self._remote_runs)

    def on_gpu_pane_signal_requested(self, message: GpuPane.SignalRequested) -> None:
        dialogs.signal_process(self, message.signal_name, message.row)

    # -- training logs ------------------------------------------------------------------------
    async def on_catch_up_progress(self, message: msg.CatchUpProgress) -> None:
        card = await self.training_pane.card(message.path)
        card.show_progress(message.fraction)

    async def on_train_sampled(self, message: msg.TrainSampled) -> None:
        card = await self.training_pane.card(message.path)
        first = card.snapshot is None
        if first:  # the log's first record waits for this frame (see TrainingFeed)
            self.call_after_refresh(self.training.card_drawn, message.path)
        self._frames.add(partial(card.show, message.snapshot), first=first)

    def on_train_alert(self, message: msg.TrainAlert) -> None:
        if message.lesson is None and message.event.label in ALERT_KINDS:
            self._last_failure = (message.path, message.event)
        severity = message.event.severity
        self.notify(
            alert_text(message.path, message.event, message.lesson), severity=severity,
            timeout=60 if severity == "error" else 10, markup=False,
        )

    def action_follow_log(self) -> None:
        dialogs.follow_log(self, self.log_paths, self._resolve, self._follow)

    def _follow(self, log: str) -> None:
        path = self._resolve(Path(log))
        self.log_paths.append(path)
        self.training.follow(path)
        self._thread("config", self.training.save_followed, self.config_path, log, True)

    def action_unfollow_log(self) -> None:
        """Choose a followed log to stop following (removed from sessiontui.toml too)."""
        dialogs.unfollow_log(self, self.log_paths, self._unfollow)

    def _unfollow(self, path: Path) -> None:
        self.log_paths.remove(path)
        self.training.drop(path)
        self.training_pane.drop_card(path)
        self._thread("config", self.training.save_followed, self.config_path, str(path), False)

    # -- memory -------------------------------------------------------------------------------
    def on_memory_changed(self) -> None:
        self._load_memory()

    def _load_memory(self) -> None:
        """Read the memory again in a worker (what changed only); it posts MemoryLoaded."""
        self._thread("memory-read", self.memory.read)

    def on_memory_loaded(self, message: msg.MemoryLoaded) -> None:
        self._frames.add(partial(self._show_memory, message), first=not self._memory_shown)
        self._memory_shown = True

    def _show_memory(self, message: msg.MemoryLoaded) -> None:
        self.memory_pane.show(message.records, message.reference)
        self.memory_pane.border_subtitle = "unsynced: sessiontui sync --push" if message.unsynced else ""

    def action_add(self, kind: str) -> None:
        self._edit(Record(kind=kind))

    def _edit(self, record: Record) -> None:
        """Open the record form (imported on first use: start-up does not pay for it)."""
        from sessiontui.tui.screens.record_form import RecordForm

        operation = "update" if record.id else "add"
        self.push_screen(RecordForm(
            record, lambda typed: self.memory.write(operation, typed, self.telemetry.gpu_names),
            reload=self.memory.stored), lambda saved: self.on_notice(Notice(saved, reload=True))
            if saved else None)

    def action_memory(self, operation: str) -> None:
        """Open, edit or delete the record under the Memory pane's cursor (from the palette)."""
        self._show_view("memory")
        if self.memory_pane.selected() is None:
            self.notify("Select a record in the Memory pane first (3, then arrows).", markup=False)
            return
        getattr(self.memory_pane, f"action_{operation}")()

    def action_compare(self, what: str) -> None:
        """Open a sweep against the number to beat (`sweep`, `sweep-of-row`) or runs side by side
        (`runs`: the Memory pane's marked runs, else the selected and the newest other)."""
        dialogs.open_comparison(self, what, self.memory_pane, self.metric, self.keep_dir / "charts")

    def action_filter_memory(self) -> None:
        """Bring the Memory pane forward with its filter box focused."""
        self._show_view("memory")
        self.set_focus(self.memory_pane.filter)

    def on_training_pane_open_run(self, message: TrainingPane.OpenRun) -> None:
        from sessiontui.tui.screens.run_view import RunView

        self.push_screen(RunView(log_path=message.path, snapshot=message.snapshot,
                                 record=message.record, store_path=self.store_path))

    def on_memory_pane_open_record(self, message: MemoryPane.OpenRecord) -> None:
        dialogs.open_record(self, message.record, self._edit, self._delete)

    def on_memory_pane_edit_record(self, message: MemoryPane.EditRecord) -> None:
        self._edit(message.record)

    def on_memory_pane_delete_record(self, message: MemoryPane.DeleteRecord) -> None:
        from sessiontui.tui.screens.confirm import ConfirmScreen, delete_question

        record = message.record
        self.push_screen(ConfirmScreen(delete_question(record)),
                         lambda yes: self._delete(record) if yes else None)

    def _delete(self, record: Record) -> None:
        self.memory.deleted.append(record.id)
        self._thread("memory-write", self.memory.change, "delete", record.id)

    def action_undelete(self) -> None:
        if self.memory.deleted:
            self.memory.restored += 1
            self._thread("memory-write", self.memory.change, "restore", self.memory.deleted.pop())
        elif self.memory.restored:
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

    def on_notice(self, message: Notice) -> None:
        self.notify(one_line(message.text, 2 * TOAST_CHARS), severity=message.severity,
                    markup=False, timeout=message.timeout)
        if message.reload:
            self._load_memory()

    def action_export(self) -> None:
        dialogs.export_memory(self, self.keep_dir, self._resolve,
                              partial(self._thread, "export", self.memory.export))

    def action_screenshot(self) -> None:  # type: ignore[override]  # ours takes no file name
        """Save an SVG of the screen into the project (after the palette has closed)."""
        self.set_timer(0.1, partial(dialogs.save_screenshot, self, self.keep_dir))

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
        self._thread("session", self.memory.keep_history, list(bar.history))
        bar.value = ""
        self.action_view("answer")
        bar.focus()
        self._ask(question)

    def on_answer_panel_outdated(self, message: AnswerPanel.Outdated) -> None:
        """A live answer (speedup, run, GPUs) grew old while shown: ask it again."""
        self._ask(message.question)

    def _ask(self, question: str) -> None:
        self._thread("ask", self.memory.answer, question, tuple(self.training.latest.values()),
                     self.gpu_pane.snapshot, self.config)

    def on_answer_ready(self, message: msg.AnswerReady) -> None:
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
        for action in COMMANDS:
            yield SystemCommand(action.name, action.help, partial(self.run_action, action.action))

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A worker that failed says so, in words, instead of taking the app down."""
        if event.state == WorkerState.ERROR:
            from sessiontui.tui.user_errors import worker_problem

            self.notify(one_line(worker_problem(event.worker.group, event.worker.error,
                                                self.store_path), 2 * TOAST_CHARS),
                        severity="error", timeout=30, markup=False)
