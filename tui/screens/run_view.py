"""One training run opened from its card or its Memory row: where it stands, its failure as a
traceback with the lesson that matched it, its events with times, milestones as a table, the
earlier attempts of its log and the log's last lines (search with /, n for the next match)."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import ScrollableContainer, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Input, Label, Static

from sessiontui.project_memory.events import FAILURES, TrainEvent
from sessiontui.project_memory.records import Record
from sessiontui.tui.widgets.literal import literal
from sessiontui.tui.widgets.styling import part_style

TAIL_LINES = 200
KEYS = "/ search log  n next  r record  tab details/log  esc close"


@dataclass
class RunDetails:
    """What the view shows, read in a worker: the run record, its lessons, its log's tail."""

    record: Record | None = None
    lessons: dict[str, Record] = field(default_factory=dict)
    earlier: tuple[str, ...] = ()
    tail: list[str] = field(default_factory=list)


def load_details(store_path: Path | None, log_path: Path | None, record: Record | None,
                 ) -> RunDetails:
    """The run's record (given, or the latest of its log), the lessons its events name, lines on
    its log's earlier attempts and the log's last lines; what cannot be read stays empty."""
    from sessiontui.collectors.trainlog.follower import tail_lines
    from sessiontui.project_memory.lessons import stored_lessons
    from sessiontui.project_memory.runs import earlier_attempts
    from sessiontui.project_memory.store import Store, StoreError

    details = RunDetails(record=record)
    path = log_path or (Path(record.log_path) if record and record.log_path else None)
    if store_path is not None and store_path.exists():
        try:
            with Store(store_path, readonly=True) as store:
                if details.record is None and path is not None:
                    details.record = store.run_for_log(str(path.absolute()))
                if details.record is not None:
                    details.earlier = earlier_attempts(store, details.record)
                    named = (i for event in details.record.events for i in event.get("lessons") or ())
                    details.lessons = {lesson.id: lesson
                                       for lesson in stored_lessons(store, dict.fromkeys(named))}
        except StoreError:
            pass
    if path is not None:
        details.tail = tail_lines(path, TAIL_LINES)
    return details


def clock_time(at: float | None) -> str:
    """An event's time as the local clock read it, with the day when not today."""
    if at is None:
        return "--:--:--"
    moment = time.localtime(at)
    today = time.localtime()
    same_day = moment[:3] == today[:3]
    return time.strftime("%H:%M:%S" if same_day else "%b %d %H:%M:%S", moment)


def events_of(record: Record | None, snapshot: Any) -> list[TrainEvent]:
    """The run's events: its record's (they carry the matched lessons), else the live snapshot's."""
    if record is not None and record.events:
        return [TrainEvent.from_dict(event) for event in record.events]
    return list(getattr(snapshot, "events", ()) or ())


def traceback_text(events: Sequence[TrainEvent]) -> Text:
    """The latest failure's excerpt, line by line as the log printed it."""
    failures = [event for event in events if event.kind in FAILURES and event.context]
    if not failures:
        return Text("no traceback")
    return literal("\n".join(failures[-1].context))


def lesson_text(events: Sequence[TrainEvent], lessons: Mapping[str, Record]) -> Text:
    """The lesson that matched the latest failure: its title and its fix."""
    for event in reversed(events):
        for lesson_id in event.lessons:
            lesson = lessons.get(lesson_id)
            if lesson is not None:
                return literal(f"seen before: {lesson.title}\nfix: {lesson.fix or 'n/a'}")
    failed = any(event.kind in FAILURES for event in events)
    return Text("no lesson matches this failure yet" if failed else "no failure")


def events_table(events: Sequence[TrainEvent]) -> Text:
    """One event per line: time, kind, step and message."""
    if not events:
        return Text("no events")
    rows = [f"{clock_time(e.at)}  {e.kind:<9} {'' if e.step is None else e.step:>8}  "
            f"{e.message or e.line}" for e in events]
    return literal("\n".join(rows))


def milestones_table(milestones: Sequence[Mapping[str, Any]]) -> Text:
    """Milestones as a table: what was reached, at which step, loss and accept length there."""
    if not milestones:
        return Text("no milestones yet")
    rows = [f"{'reached':<10}{'step':>8}  {'loss':>8}  {'τ':>6}"]
    for m in milestones:
        what = f"{m['pct']}%" if m.get("kind") == "progress" else str(m.get("kind", ""))
        loss, tau = m.get("loss"), m.get("accept_length")
        rows.append(f"{what:<10}{m.get('step') if m.get('step') is not None else '':>8}  "
                    f"{'' if loss is None else f'{loss:.4g}':>8}  "
                    f"{'' if tau is None else f'{tau:.2f}':>6}")
    return Text("\n".join(rows))


class RunView(Screen[None]):
    """A run in full; Escape goes back to the pane it was opened from."""

    AUTO_FOCUS = "#run-details"
    COMPONENT_CLASSES = {"run-view--heading", "run-view--match"}
    BINDINGS = [
        Binding("escape,q", "close", "Close"),
        Binding("slash", "search", "Search log"),
        Binding("n", "next_match", "Next match"),
        Binding("r", "record", "Record"),
    ]

    def __init__(self, *, log_path: Path | None = None, snapshot: Any = None,
                 record: Record | None = None, store_path: Path | None = None) -> None:
        super().__init__()
        self.log_path, self.snapshot, self.record, self.store_path = (
            log_path, snapshot, record, store_path)
        self.details: RunDetails | None = None
        self.matches: list[int] = []
        self._match = -1

    def compose(self) -> ComposeResult:
        name = self.record.label if self.record else (self.log_path.name if self.log_path else "run")
        with Vertical(id="run-view"):
            yield Label(literal(f"run {name}"), id="run-title")
            with VerticalScroll(id="run-details"):
                yield Static(id="run-summary")
                for section, title in (("traceback", "Traceback"), ("lesson", "Lesson"),
                                       ("events", "Events"), ("milestones", "Milestones"),
                                       ("earlier", "Earlier attempts")):
                    yield Static(title, classes="run-view-heading")
                    yield Static(id=f"run-{section}")
            yield Static("Log (last 200 lines)", classes="run-view-heading")
            with ScrollableContainer(id="run-log"):
                yield Static(id="run-log-text")
            yield Input(placeholder="search the log", id="run-search")
            yield Label(KEYS, id="run-keys")

    def on_mount(self) -> None:
        self.query_one("#run-search", Input).display = False
        self._show(RunDetails(record=self.record))
        self._load()

    @work(thread=True, exclusive=True, group="run-view", exit_on_error=False)
    def _load(self) -> None:
        details = load_details(self.store_path, self.log_path, self.record)
        self.app.call_from_thread(self._show, details)

    def _show(self, details: RunDetails) -> None:
        """Fill every section from what was read."""
        from sessiontui.tui.widgets.training_pane import stats_line

        self.details = details
        record, snapshot = details.record, self.snapshot
        if snapshot is not None:
            summary = stats_line(snapshot)
        elif record is not None:
            total = f"/{record.total_steps}" if record.total_steps else ""
            summary = f"{record.status or 'running'} at step {record.step}{total}"
        else:
            summary = "nothing read yet"
        where = record.log_path if record and record.log_path else self.log_path
        self.query_one("#run-summary", Static).update(literal(f"{summary}\nlog {where}"))
        events = events_of(record, snapshot)
        self.query_one("#run-traceback", Static).update(traceback_text(events))
        self.query_one("#run-lesson", Static).update(lesson_text(events, details.lessons))
        self.query_one("#run-events", Static).update(events_table(events))
        self.query_one("#run-milestones", Static).update(
            milestones_table(record.milestones if record else ()))
        earlier = details.earlier or getattr(snapshot, "earlier", ())
        self.query_one("#run-earlier", Static).update(
            literal("\n".join(earlier)) if earlier else Text("none"))
        self._show_tail()

    def _show_tail(self, term: str = "") -> None:
        """The log's last lines, the lines holding `term` highlighted."""
        tail = self.details.tail if self.details else []
        text = Text()
        match_style = part_style(self, "run-view--match")
        self.matches = []
        for index, line in enumerate(tail):
            if index:
                text.append("\n")
            shown = literal(line)
            if term and term.lower() in line.lower():
                self.matches.append(index)
                shown.stylize(match_style)
            text.append_text(shown)
        self.query_one("#run-log-text", Static).update(text if tail else Text("log not readable"))
        if not term:  # the newest lines first in sight, as a terminal shows them
            log = self.query_one("#run-log", ScrollableContainer)
            self.call_after_refresh(log.scroll_end, animate=False)

    def action_close(self) -> None:
        search = self.query_one("#run-search", Input)
        if search.display:
            search.display = False
            self.query_one("#run-log").focus()
            return
        self.dismiss(None)

    def action_record(self) -> None:
        """The run's record in full, where it can be edited or deleted."""
        from sessiontui.tui.widgets.memory_pane import MemoryPane

        record = self.details.record if self.details else None
        if record is None or not record.id:
            self.notify("This run has no record in the memory yet.", markup=False)
            return
        self.dismiss(None)
        self.app.post_message(MemoryPane.OpenRecord(record))

    def action_search(self) -> None:
        search = self.query_one("#run-search", Input)
        search.display = True
        search.focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._show_tail(event.value.strip())
        self.query_one("#run-search", Input).display = False
        self._match = -1
        self.query_one("#run-log").focus()
        self.action_next_match()

    def action_next_match(self) -> None:
        """Scroll the log to the next line holding the searched text (wrapping around)."""
        if not self.matches:
            if self.query_one("#run-search", Input).value:
                self.notify("No line of the log tail matches.", markup=False)
            return
        self._match = (self._match + 1) % len(self.matches)
        log = self.query_one("#run-log", ScrollableContainer)
        log.scroll_to(y=self.matches[self._match], animate=False)
