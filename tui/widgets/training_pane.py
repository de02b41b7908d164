"""The training pane: one card per followed log with progress, figures, charts and latest events."""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.message import Message
from textual.widgets import Static

from sessiontui.project_memory.events import ALERT_KINDS, EVENT_KINDS
from sessiontui.project_memory.humanize import finish_time
from sessiontui.project_memory.specdec import accept_length
from sessiontui.tui.widgets.fmt import DASH, compact, num
from sessiontui.tui.widgets.literal import literal
from sessiontui.tui.widgets.spark import bar, spark
from sessiontui.tui.widgets.text_lines import TextLines

__all__ = ["ALERT_KINDS", "RunCard", "TrainingPane"]

EVENT_LINES = 3
CARD_LEGEND = (
    "acc: per-position acceptance now · τ accept length (tokens per drafting step) · "
    "↑↓→ trend · charts: lowest–highest value on the right"
)
TREND_LOOKBACK = 10  # chart points between "now" and the value a trend arrow compares against
CHART_LABEL = 5  # cells before a chart: its name
RANGE_LABEL = 16  # cells after a chart: the lowest and highest value drawn
MIN_SPAN = 0.02  # a chart's scale spans at least this fraction of its values: noise stays flat


def trend_arrow(series: Sequence[tuple[float, float]]) -> str:
    """↑, ↓ or → comparing the latest value with one a few points earlier."""
    if len(series) < 2:
        return ""
    before = series[max(0, len(series) - 1 - TREND_LOOKBACK)][1]
    now = series[-1][1]
    if abs(now - before) < 1e-3 * max(abs(before), 1e-9):
        return "→"
    return "↑" if now > before else "↓"


def accept_length_points(history: Mapping[str, Sequence[tuple[float, float]]]
                         ) -> list[tuple[float, float]]:
    """(step, expected accept length) at each step where every position's accuracy is known and
    valid: the whole run, as the loss chart has it."""
    positions = sorted(
        (key for key in history if key.startswith("acc_") and key[4:].isdigit()),
        key=lambda key: int(key[4:]),
    )
    if not positions:
        return []
    series = [history[key] for key in positions]
    rows: Iterable[tuple[float, tuple[float, ...]]]
    steps = [step for step, _ in series[0]]
    if all([step for step, _ in points] == steps for points in series[1:]):
        rates = zip(*([value for _, value in points] for points in series), strict=True)
        rows = zip(steps, rates, strict=True)
    else:  # positions logged at different steps: their steps in common
        by_step = [dict(points) for points in series]
        common = sorted(set.intersection(*(set(values) for values in by_step)))
        rows = ((step, tuple(values[step] for values in by_step)) for step in common)
    taus = ((step, _accept_length(tuple(rates))) for step, rates in rows)
    return [(step, tau) for step, tau in taus if tau is not None]


@lru_cache(maxsize=4096)
def _accept_length(rates: tuple[float, ...]) -> float | None:
    """`accept_length`, remembered: the chart is drawn again each step with one new point."""
    return accept_length(rates)


def stats_line(snapshot: Any, now: float | None = None) -> str:
    """Step, speed, ETA, epoch and status of a run, and how long ago its last step was once that
    is news; a stalled run says how long, not a rate; only a running run has an ETA, counting
    down from now (gone, not frozen, once it has passed)."""
    from sessiontui.project_memory.humanize import duration, stall_text

    now = getattr(snapshot, "seen_at", None) if now is None else now
    now = time.time() if now is None else now
    total = f"/{snapshot.total_steps}" if snapshot.total_steps else ""
    step = DASH if snapshot.step is None else f"{snapshot.step}{total}"
    epoch = "" if snapshot.epoch is None else f"  epoch {num(snapshot.epoch, 2)}"
    if snapshot.status == "stalled":
        return f"step {step}{epoch}  {stall_text(snapshot.step, snapshot.last_update, now)}"
    parts = [f"step {step}"]
    if snapshot.steps_per_s:
        parts.append(f"{num(snapshot.steps_per_s)} step/s")
    if snapshot.status == "running" and snapshot.eta_s is not None:
        eta = finish_time(snapshot.eta_s, snapshot.last_update, now)
        parts.append(f"ETA {eta}" if " ago" not in eta else f"ETA {DASH}")
    parts.append(f"{epoch.strip()}  {snapshot.status}" if epoch else snapshot.status)
    quiet = snapshot.quiet_s(now) if hasattr(snapshot, "quiet_s") else None
    if quiet is not None:
        parts.append(f"last step {duration(_coarse(quiet))} ago")
    return "  ".join(parts)


def _coarse(seconds: float) -> float:
    """An age as the card says it: 10 s steps under a minute, whole minutes after."""
    return seconds // 10 * 10 if seconds < 60 else seconds // 60 * 60


def figures_line(snapshot: Any) -> str:
    """Loss (with its trend), learning rate and grad norm."""
    loss_trend = trend_arrow(snapshot.history.get("loss", ()))
    return (
        f"loss {compact(snapshot.loss)}{loss_trend}  lr {compact(snapshot.lr)}  "
        f"grad {compact(snapshot.grad_norm)}"
    )


def acc_line(snapshot: Any) -> str:
    """Per-position conditional accuracy now, each with its trend, and the accept length."""
    if not snapshot.acc:
        return f"acc {DASH}"
    cells = [
        f"{value:.2f}{trend_arrow(snapshot.history.get(f'acc_{i}', ()))}"
        for i, value in enumerate(snapshot.acc)
    ]
    tau = accept_length(snapshot.acc)
    return f"acc {' '.join(cells)}  τ {DASH if tau is None else f'{tau:.2f}'}"


class RunCard(TextLines):
    """Everything about one followed log; a new snapshot repaints only the lines it changed."""

    WRAP = True
    can_focus = True  # ↑/↓ in the Training pane move between runs, Enter opens one
    COMPONENT_CLASSES = {
        "run-card--bar", "run-card--bar-back", "run-card--chart",
        *(f"run-card--{kind}" for kind in EVENT_KINDS),
    }

    def __init__(self, path: Path, title: str | None = None) -> None:
        super().__init__(classes="run-card")
        self.path = path
        self.title = title
        self.border_title = literal(title or path.name)
        self.tooltip = CARD_LEGEND
        self.snapshot: Any = None
        self.catch_up: float | None = 0.0

    def show_progress(self, fraction: float) -> None:
        """Progress of the catch-up read of an existing log."""
        self.catch_up = fraction
        self.repaint()

    def show(self, snapshot: Any) -> None:
        """Show a new snapshot of the log (titled with its attempt from the second one on)."""
        attempt = getattr(snapshot, "attempt", None)
        if attempt and attempt > 1 and self.title is None:
            self.border_title = literal(f"{self.path.name} #{attempt}")
        self.snapshot = snapshot
        self.catch_up = None if snapshot.caught_up else snapshot.progress
        self.repaint()

    def text_lines(self, width: int) -> list[Text]:
        style = self.part
        width = max(10, width)
        snapshot = self.snapshot
        if self.catch_up is not None or snapshot is None:
            fraction = self.catch_up or 0.0
            return [bar(fraction, width, style("run-card--bar"), style("run-card--bar-back")),
                    Text(f"catching up: {100 * fraction:.0f}% of the log read")]
        problem = getattr(snapshot, "problem", None)
        if problem:  # a FIFO, a device, a folder: nothing is read, and the card says why
            return [literal(problem)]
        fraction = (snapshot.step or 0) / snapshot.total_steps if snapshot.total_steps else 0.0
        lines = [bar(fraction, width, style("run-card--bar"), style("run-card--bar-back"))]
        lines += [literal(line) for line in (stats_line(snapshot), figures_line(snapshot),
                                             acc_line(snapshot))]
        from sessiontui.collectors.trainlog.unread import unread_notes  # "no loss read (...)"

        lines += [literal(note) for note in unread_notes(
            getattr(snapshot, "metrics", {}), snapshot.loss, snapshot.acc,
            getattr(snapshot, "format", None))]
        from sessiontui.collectors.trainlog.history import history_for_chart  # keeps start-up light

        charts = max(1, width - CHART_LABEL - RANGE_LABEL)
        loss = history_for_chart(snapshot.history.get("loss", ()), charts)
        taus = history_for_chart(accept_length_points(snapshot.history), charts)
        for label, values in (("loss", loss), ("τ", taus)):
            lines.append(chart_line(label, values, charts, style("run-card--chart")))
        events = events_text(snapshot.events, {
            kind: style(f"run-card--{kind}") for kind in EVENT_KINDS
        })
        earlier = [literal(line) for line in getattr(snapshot, "earlier", ())]
        return [*lines, *events.split("\n"), *earlier]


def chart_line(label: str, values: Sequence[float], width: int, style: Any) -> Text:
    """`label chart low–high`: the chart scaled to at least MIN_SPAN of its values' size."""
    text = Text(f"{label:<{CHART_LABEL}}")
    finite = [v for v in values if math.isfinite(v)]
    if not finite:
        return text
    min_span = MIN_SPAN * max(abs(v) for v in finite)
    text.append(spark(finite, width, min_span=min_span).ljust(width), style=style)
    text.append(f" {compact(min(finite))}–{compact(max(finite))}")
    return text


def events_text(events: Sequence[Any], styles: Mapping[str, Any]) -> Text:
    """The latest events, newest last, each kind in its own style; log text shown literally."""
    if not events:
        return Text("no events")
    lines = Text()
    for event in events[-EVENT_LINES:]:
        if lines:
            lines.append("\n")
        lines.append(f"{event.label:8} ", style=styles.get(event.label, ""))
        lines.append_text(literal(event.message or event.line or ""))
    return lines


class TrainingPane(VerticalScroll):
    """Cards for every followed log, in the order they were followed: ↑/↓ move between them,
    Enter opens the run under the cursor."""

    BORDER_TITLE = "Training"
    BINDINGS = [
        Binding("down", "move(1)", "Next run", show=False),
        Binding("up", "move(-1)", "Previous run", show=False),
        Binding("enter", "open_run", "Open run"),
    ]

    def action_move(self, by: int) -> None:
        """Focus the next (or previous) card; from the pane itself, the first (or last)."""
        cards = list(self.cards.values())
        if not cards:
            return
        focused = self.screen.focused
        at = cards.index(focused) if focused in cards else (-1 if by > 0 else len(cards))
        card = cards[max(0, min(len(cards) - 1, at + by))]
        card.focus()
        card.scroll_visible(animate=False)

    class OpenRun(Message):
        """Open a run in the run view: a card's (its log and latest snapshot) or a run record."""

        def __init__(self, path: Path | None = None, snapshot: Any = None,
                     record: Any = None) -> None:
            super().__init__()
            self.path, self.snapshot, self.record = path, snapshot, record

    def action_open_run(self) -> None:
        """Open the focused card's run (the first card's when none has focus) in the run view."""
        focused = self.screen.focused
        card = focused if isinstance(focused, RunCard) else next(iter(self.cards.values()), None)
        if card is not None:
            self.post_message(self.OpenRun(card.path, card.snapshot))

    def __init__(self, paths: Sequence[Path] = (), **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.cards: dict[Path, RunCard] = {path: RunCard(path) for path in paths}
        self._empty = Static(
            "No log followed yet: add one with f (or `logs = [...]` in sessiontui.toml).",
            id="no-logs",
        )
        self._empty.display = not self.cards

    def compose(self) -> ComposeResult:
        """The configured logs' cards are in the first frame, before their logs are read."""
        yield self._empty
        yield from self.cards.values()

    async def card(self, path: Path, title: str | None = None) -> RunCard:
        """The card of a log (or of a remote run, titled), created on first use."""
        if path not in self.cards:
            self._empty.display = False
            self.cards[path] = RunCard(path, title)
            if self.is_attached:
                await self.mount(self.cards[path])
        return self.cards[path]

    def drop_card(self, path: Path) -> None:
        """Remove the card of a log no longer followed."""
        card = self.cards.pop(path, None)
        if card is not None:
            card.remove()
        self._empty.display = not self.cards
