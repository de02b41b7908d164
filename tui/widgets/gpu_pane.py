"""The GPU pane: every GPU in the richest form that fits, the GPU processes, the host.

The pane is one widget drawn from lines of Text: a sample repaints only the lines it changed,
however many GPUs. The host sample arrives just before the GPU sample of the same tick and
repaints nothing itself.
A process is selected with up/down or j/k, Home/End or g/G (its full command line shows under it) and can be sent
SIGINT, SIGTERM or SIGKILL (I, T, K) after a confirmation that names it; `z` zooms the pane.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from itertools import islice
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.binding import Binding
from textual.message import Message
from textual.reactive import var

from sessiontui.collectors.gpu_replay import DEMO_PROCESS
from sessiontui.tui.widgets.gpu_view import (
    ProcessRow,
    Series,
    chart_width,
    choose_form,
    gpu_block,
    gpu_charts,
    host_lines,
    process_header,
    process_line,
    process_rows,
    wrapped,
)
from sessiontui.tui.widgets.literal import literal
from sessiontui.tui.widgets.remote_hosts import hosts_lines
from sessiontui.tui.widgets.text_lines import TextLines

if TYPE_CHECKING:
    from sessiontui.collectors.gpu import GpuSample, GpuSnapshot
    from sessiontui.collectors.host import HostSnapshot
    from sessiontui.tui.widgets.gpu_view import Form

HISTORY = 600  # samples kept per GPU: ten minutes at 1 Hz, enough for a maximised pane's charts
CHART_SAMPLES = 120  # a chart covers at least this many samples: two minutes at 1 Hz, as nvitop's
MIN_PROCESS_ROWS = 3  # process rows the layout keeps room for before giving GPUs more lines


class GpuHistory:
    """Bounded utilisation, memory and power histories of one GPU."""

    def __init__(self) -> None:
        self.util: deque[float | None] = deque(maxlen=HISTORY)
        self.mem: deque[float | None] = deque(maxlen=HISTORY)
        self.power: deque[float | None] = deque(maxlen=HISTORY)

    def add(self, sample: GpuSample) -> None:
        self.util.append(sample.util_pct)
        self.mem.append(sample.mem_used_mib)
        self.power.append(sample.power_w)

    def columns(self, count: int, per: int, skip: int, tops: Sequence[float | None] = (),
                rows: int = 1) -> Series:
        """At most `count` chart columns, each the mean of `per` samples; the newest `skip`
        samples (a group still filling) make the last column, so the chart at "now" agrees
        with the figures beside it (a GPU reading 0% does not chart full). With the charts'
        `tops` and `rows`, that column is drawn as the one before it while the two are less than
        a cell apart: under a steady load no chart row repaints every second (that cost 0.18% of
        a core on an H200, +20%), while a change shows at once."""
        means = [_means(values, count, per, skip) for values in (self.util, self.mem, self.power)]
        if skip and tops:
            means = [_settled(column, top, rows) for column, top in zip(means, tops, strict=True)]
        return Series(*means)


def _settled(means: list[float | None], top: float | None, rows: int) -> list[float | None]:
    """The still-filling last column replaced by the one before it when within a cell of it."""
    if len(means) < 2 or not top:
        return means
    *done, filling = means
    last = done[-1]
    if filling is not None and last is not None and abs(filling - last) < top / rows:
        return [*done, last]
    return means


def _means(values: deque, count: int, per: int, skip: int) -> list[float | None]:
    end = len(values) - skip
    used = min(end, (count - (1 if skip else 0)) * per) // per * per
    window = list(islice(values, end - used, end))
    groups = [window[start : start + per] for start in range(0, used, per)]
    if skip:
        groups.append(list(islice(values, end, len(values))))
    means: list[float | None] = []
    for group in groups:
        known = [value for value in group if value is not None]
        means.append(sum(known) / len(known) if known else None)
    return means


class GpuPane(TextLines, can_focus=True):
    """Live GPU telemetry; says plainly when NVML is not available."""

    COMPONENT_CLASSES = {
        "gpu-pane--util", "gpu-pane--mem", "gpu-pane--power", "gpu-pane--empty",
        "gpu-pane--throttle", "gpu-pane--lost", "gpu-pane--muted", "gpu-pane--header",
        "gpu-pane--job", "gpu-pane--selected", "gpu-pane--warning",
    }
    BORDER_TITLE = "GPUs"
    BINDINGS = [
        Binding("up,k", "select(-1)", "Previous process", show=False),
        Binding("down,j", "select(1)", "Next process", show=False),
        Binding("home,g", "select_edge(0)", "First process", show=False),
        Binding("end,G", "select_edge(-1)", "Last process", show=False),
        Binding("escape", "deselect", "Unselect", show=False),
        Binding("I", "signal('SIGINT')", "SIGINT"),
        Binding("T", "signal('SIGTERM')", "SIGTERM"),
        Binding("K", "signal('SIGKILL')", "SIGKILL"),
        Binding("z", "zoom", "Zoom"),
    ]

    snapshot: var[GpuSnapshot | None] = var(None, always_update=True)
    host: var[HostSnapshot | None] = var(None, always_update=True)
    remote: var[tuple] = var((), always_update=True)  # other hosts' snapshots ([[hosts]])

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.history: dict[int, GpuHistory] = {}
        self.times: deque[float] = deque(maxlen=HISTORY)
        self.samples = 0  # snapshots seen: chart groups are aligned on this count
        self.selected: tuple[int, int] | None = None  # (GPU index, PID)
        self._drawn_charts: dict[int, tuple[tuple, list[Text]]] = {}  # GPU index: (key, lines)

    def watch_snapshot(self, snapshot: GpuSnapshot | None) -> None:
        if snapshot is None:
            return
        self.times.append(snapshot.at)
        self.samples += 1
        for sample in snapshot.gpus:
            self.history.setdefault(sample.index, GpuHistory()).add(sample)
        self.repaint()

    def notify_style_update(self) -> None:
        self._drawn_charts.clear()  # drawn in the old colours
        super().notify_style_update()

    def watch_remote(self, remote: tuple) -> None:
        self.repaint()  # other hosts arrive on their own cadence

    # -- processes ------------------------------------------------------------------------------
    def rows(self) -> list[ProcessRow]:
        snapshot = self.snapshot
        if snapshot is None or not snapshot.available:
            return []
        return process_rows(snapshot, self.host)

    def selected_row(self) -> ProcessRow | None:
        return next((row for row in self.rows() if row.key == self.selected), None)

    def action_select(self, step: int) -> None:
        """Move the selection through the process table (wrapping), showing the full command."""
        keys = [row.key for row in self.rows()]
        if not keys:
            self.selected = None
        elif self.selected not in keys:
            self.selected = keys[0 if step > 0 else -1]
        else:
            self.selected = keys[(keys.index(self.selected) + step) % len(keys)]
        self.repaint()

    def action_select_edge(self, index: int) -> None:
        """Select the first (0) or last (-1) process."""
        keys = [row.key for row in self.rows()]
        self.selected = keys[index] if keys else None
        self.repaint()

    def action_zoom(self) -> None:
        """Give the pane the whole screen (room for charts of every GPU), or hand it back."""
        if self.screen.maximized is self:
            self.screen.minimize()
        else:
            self.screen.maximize(self)

    def action_deselect(self) -> None:
        self.selected = None
        self.repaint()

    class SignalRequested(Message):
        """The user asked to signal a process; the app confirms before anything is sent."""

        def __init__(self, signal_name: str, row: ProcessRow) -> None:
            super().__init__()
            self.signal_name = signal_name
            self.row = row

    def action_signal(self, name: str) -> None:
        """Ask the app to confirm sending `name` to the selected process."""
        row = self.selected_row()
        if row is None:
            self.notify("Select a process first (up/down in the GPU pane).", severity="warning")
        elif row.process.name.startswith(DEMO_PROCESS):
            self.notify("demo process: signals are disabled in the demo", markup=False)
        elif row.info is None:
            self.notify(f"Process {row.process.pid} is not visible from here (another PID "
                        "namespace?): it cannot be signalled.", severity="warning", markup=False)
        else:
            self.post_message(self.SignalRequested(name, row))

    # -- drawing --------------------------------------------------------------------------------
    def text_lines(self, width: int) -> list[Text]:
        """Everything the pane shows, laid out for its current size."""
        height = self.size.height or 24
        host = self._host_text(width) + hosts_lines(self.remote, width, self.part)
        snapshot = self.snapshot
        if snapshot is None:
            lines = [Text("waiting for the first GPU sample…")]
        elif not snapshot.available:
            lines = [literal(f"NVML not available: {snapshot.reason}")]
        else:
            rows = self.rows()
            table = self._process_text(rows, width, snapshot.at)
            other = 1 + min(len(table), 1 + MIN_PROCESS_ROWS) + (1 + len(host) if host else 0)
            form = choose_form(len(snapshot.gpus), width, height, other)
            lines = self._gpus_text(snapshot, form, width)
            room = height - len(lines) - 1 - (1 + len(host) if host else 0)
            lines.append(Text())
            lines.extend(self._fit(table, room))
        if host:
            lines.append(Text())
            lines.extend(host)
        return lines

    def _gpus_text(self, snapshot: GpuSnapshot, form: Form, width: int) -> list[Text]:
        cell = chart_width(width)
        per = max(1, -(-CHART_SAMPLES // max(cell, 1)))  # samples per column, rounded up
        skip = self.samples % per
        used = min(len(self.times) - skip, cell * per) // per * per
        # the whole chart width in seconds, from the mean time between the samples drawn
        interval = (self.times[-1 - skip] - self.times[-skip - used]) / (used - 1) if used > 1 else 0
        span = round(interval * cell * per / 10) * 10  # to 10 s: 1 Hz reads "-2 min", not "-1 min"
        lines: list[Text] = []
        for sample in snapshot.gpus:
            charts = (self._charts(sample, form.chart_rows, width, per, skip, span)
                      if form.kind == "chart" and not sample.lost else ())
            lines.extend(gpu_block(sample, form, width, self.part, charts))
        return lines

    def _charts(self, sample: GpuSample, rows: int, width: int, per: int, skip: int,
                span: float) -> list[Text]:
        """A GPU's chart lines, drawn again only when a column or the layout or scales change
        (under a steady load the still-filling column stays as it was: nothing is redrawn)."""
        tops = (100.0, sample.mem_total_mib, sample.power_limit_w)  # the charts' scales
        series = self.history[sample.index].columns(chart_width(width), per, skip, tops, rows)
        key = (series, rows, width, span, sample.mem_total_mib, sample.power_limit_w)
        drawn = self._drawn_charts.get(sample.index)
        if drawn is None or drawn[0] != key:
            lines = gpu_charts(sample, series, span or None, width, rows, self.part)
            drawn = self._drawn_charts[sample.index] = (key, lines)
        return drawn[1]

    def _process_text(self, rows: list[ProcessRow], width: int, now: float) -> list[Text]:
        """The process table at sample time `now`; the selected row's full command under it."""
        if not rows:
            return [Text("no GPU processes", self.part("gpu-pane--muted"))]
        lines = [Text(process_header(width), self.part("gpu-pane--header"), no_wrap=True)]
        for row in rows:
            line = Text(process_line(row, width, now), no_wrap=True)
            if row.info is not None and row.info.follows_log:
                line.stylize(self.part("gpu-pane--job"), 0, 1)
            if row.key == self.selected:
                line.stylize(self.part("gpu-pane--selected"))
                lines.append(line)
                command = row.info.command if row.info is not None else row.process.name
                lines.extend(literal(part, self.part("gpu-pane--muted"))
                             for part in wrapped(command, width))
                continue
            lines.append(line)
        return lines

    @staticmethod
    def _fit(table: list[Text], room: int) -> list[Text]:
        """The table cut to `room` lines, saying how many rows did not fit."""
        if len(table) <= room or room < 2:
            return table[: max(room, 1)]
        return [*table[: room - 1], Text(f"… {len(table) - room + 1} more lines")]

    def _host_text(self, width: int) -> list[Text]:
        return host_lines(self.host, width, self.part) if self.host is not None else []
