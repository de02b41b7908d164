"""The ask bar (an input that remembers earlier questions) and the panel that shows answers."""

from __future__ import annotations

import re
import time
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.message import Message
from textual.widgets import Static

from sessiontui.project_memory.humanize import duration
from sessiontui.tui.session_files import HISTORY_SIZE
from sessiontui.tui.widgets.literal import literal
from sessiontui.tui.widgets.nav import SCROLL_KEYS, LeavingInput
from sessiontui.tui.widgets.styling import part_style


class AskBar(LeavingInput):
    """Where questions are typed; up/down walk through the questions asked before."""

    LEAVE = "app.leave_ask"
    BINDINGS = [
        Binding("up", "recall(-1)", "Earlier question", show=False),
        Binding("down", "recall(1)", "Later question", show=False),
    ]

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(placeholder="/ ask: what's the baseline? current speedup? …", **kwargs)
        self.history: list[str] = []
        self._position = 0

    def remember(self, question: str) -> None:
        """Add a question to the history (once, newest last) and reset the recall position."""
        if question in self.history:
            self.history.remove(question)
        self.history.append(question)
        del self.history[:-HISTORY_SIZE]
        self._position = len(self.history)

    def load_history(self, questions: list[str]) -> None:
        """Questions asked in earlier sessions, oldest first, before this session's; a recall
        under way stays on its question (the file is read a moment after start-up)."""
        shown = self.history[self._position] if self._position < len(self.history) else None
        self.history = [*questions, *(q for q in self.history if q not in questions)]
        del self.history[:-HISTORY_SIZE]
        self._position = self.history.index(shown) if shown in self.history else len(self.history)

    def action_recall(self, step: int) -> None:
        """Show the previous (-1) or next (+1) question; past the newest, an empty bar."""
        if not self.history:
            return
        self._position = max(0, min(len(self.history), self._position + step))
        self.value = self.history[self._position] if self._position < len(self.history) else ""
        self.cursor_position = len(self.value)


def figure_lines(figures: dict[str, Any]) -> list[str]:
    """`name: value` lines for an answer's scalar figures (lists joined, nested data skipped)."""
    lines = []
    for name, value in figures.items():
        if isinstance(value, float):
            lines.append(f"{name}: {value:.4g}")
        elif isinstance(value, (int, str)) or value is None:
            lines.append(f"{name}: {value}")
        elif isinstance(value, (list, tuple)) and all(isinstance(v, (int, float)) for v in value):
            lines.append(f"{name}: {', '.join(f'{v:.4g}' for v in value)}")
    return lines


def understood_lines(answer: Any) -> list[str]:
    """How the question was read: intent, confidence, what was assumed, what else was considered."""
    lines = [f"{answer.intent}, confidence {answer.confidence:.2f}"]
    if answer.conditions:
        lines.append("assumed: " + ", ".join(f"{k} {v}" for k, v in answer.conditions.items()))
    if answer.alternatives:
        lines.append("also considered: " + ", ".join(
            f"{a['intent']} (confidence {a['confidence']:.2f})" for a in answer.alternatives))
    return lines


def source_lines(records: list[Any]) -> list[str]:
    """One line per record the answer rests on: id, kind, name and date."""
    return [f"{r.id}  {r.kind}  {r.label}  {r.created_at[:10]}" for r in records]


APP_KEYS = (  # a CLI hint in an answer, as the app's key for the same thing
    (re.compile(r"`sessiontui bench add[^`]*`"), "b (the benchmark form)"),
    (re.compile(r"`sessiontui lesson add --from-run[^`]*`"), "L (a lesson from the failure)"),
    (re.compile(r"`sessiontui lesson add[^`]*`"), "l (the lesson form)"),
    (re.compile(r"`sessiontui note add[^`]*`"), "n (the note form)"),
    (re.compile(r"`sessiontui watch --log[^`]*`(?: \(or in the app\))?"), "f (follow a log)"),
)


def in_app_words(text: str) -> str:
    """An answer's CLI hints replaced by the app's keys (`record -- CMD` has none: it stays)."""
    for pattern, keys in APP_KEYS:
        text = pattern.sub(keys, text)
    return text


LIVE_INTENTS = frozenset({"speedup", "run", "gpu"})
"""Answers read from what moves (the followed run, the GPUs): re-asked while they are shown."""
REFRESH_S = 5.0
"""How old a live answer may get before it is asked again; twice that without a fresh one and it
is greyed: its source moved on."""


def age_line(computed_at: float, now: float, live: bool, stale: bool) -> str:
    """When the answer was computed, how long ago, and whether it is kept fresh or out of date."""
    when = time.strftime("%H:%M:%S", time.localtime(computed_at))
    ago = duration(max(0.0, now - computed_at))
    if stale:
        return f"computed {when}, {ago} ago — out of date: its source moved on (ask again)"
    return f"computed {when}, {ago} ago" + (f" (live: refreshed every {REFRESH_S:g} s)" if live else "")


class AnswerPanel(VerticalScroll):
    """The latest answer: when it was computed, its text, then the figures and the records it
    came from; a live answer is asked again on the tick, and greyed when no fresh one comes."""

    BORDER_TITLE = "Answer"
    COMPONENT_CLASSES = {"answer-panel--heading"}
    BINDINGS = SCROLL_KEYS

    class Outdated(Message):
        """A live answer is older than REFRESH_S: the app asks its question again."""

        def __init__(self, question: str) -> None:
            super().__init__()
            self.question = question

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._text = Static("Press / and ask a question.", id="answer-text")
        self._question = ""
        self._answer: Any = None
        self._computed_at = 0.0
        self._asked_again = False
        self._ticking = False

    def compose(self) -> ComposeResult:
        yield self._text

    @property
    def live(self) -> bool:
        """Whether the answer shown reads from what moves (run, speedup, GPUs)."""
        return self._answer is not None and self._answer.intent in LIVE_INTENTS

    @property
    def stale(self) -> bool:
        """Whether a live answer went without a fresh one for two refresh periods."""
        return self._text.has_class("-stale")

    def tick(self, now: float | None = None) -> None:
        """Age the answer: ask a live one again once it is REFRESH_S old, grey it at twice that."""
        if self._answer is None:
            return
        now = time.time() if now is None else now
        age = now - self._computed_at
        if self.live and age >= REFRESH_S and not self._asked_again:
            self._asked_again = True
            self.post_message(self.Outdated(self._question))
        self._text.set_class(self.live and age >= 2 * REFRESH_S, "-stale")
        if self.display:
            self._paint(now)

    def show(self, question: str, answer: Any, *, now: float | None = None) -> None:
        """Render an answer object (the same one `sessiontui ask` prints); the same question
        answered again (a refresh) keeps the scroll position."""
        again = question == self._question and self._answer is not None
        self._question, self._answer = question, answer
        self._computed_at = time.time() if now is None else now
        self._asked_again = False
        if not self._ticking:  # no answer, no age: the UI loop is not woken every second for none
            self._ticking = True
            self.set_interval(1.0, self.tick)
        self._text.remove_class("-stale")
        self._paint(self._computed_at)
        if not again:
            self.scroll_home(animate=False)

    def _paint(self, now: float) -> None:
        answer = self._answer
        heading = part_style(self, "answer-panel--heading")
        text = Text()
        text.append_text(literal(f"? {self._question}", heading))
        text.append("\n")
        text.append_text(literal(age_line(self._computed_at, now, self.live, self.stale)))
        text.append("\n")
        text.append_text(literal(in_app_words(answer.text)))
        for title, lines in (
            ("figures", figure_lines(answer.figures)),
            ("sources", source_lines(answer.records)),
            ("understood as", understood_lines(answer)),
        ):
            if lines:
                text.append(f"\n\n{title}\n", style=heading)
                text.append_text(literal("\n".join(lines)))
        self._text.update(text)

    def show_error(self, question: str, message: str) -> None:
        """Say why a question could not be answered."""
        self._question, self._answer = question, None
        self._text.remove_class("-stale")
        self._text.update(literal(f"? {question}\n{message}"))
