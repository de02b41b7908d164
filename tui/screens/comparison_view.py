"""The comparisons as screens: a sweep against the number to beat, and runs against each other.

Both draw with `line_plot` (markers per series, round ticks, a legend) and save the same chart as
SVG with `s` ("saved charts/sweep-1.svg"), the file `sessiontui report` would link to.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Sequence
from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.events import Resize
from textual.screen import ModalScreen
from textual.widgets import Label, Static

from sessiontui.project_memory.records import Record
from sessiontui.project_memory.run_compare import RunComparison
from sessiontui.project_memory.sweeps import SweepComparison
from sessiontui.tui.report import run_chart, run_table, sweep_chart, sweep_table
from sessiontui.tui.svg_chart import Chart, render_svg
from sessiontui.tui.widgets.line_plot import MARKERS, plot_lines
from sessiontui.tui.widgets.literal import literal
from sessiontui.tui.widgets.styling import part_style

SERIES_CLASSES = tuple(f"comparison-view--series-{i}" for i in range(len(MARKERS)))
PLOT_ROWS = 12  # a chart's height in lines; the screen scrolls when two do not fit


class _Body(Static):
    """The screen's text, drawn again for the width it is given (charts fill the width)."""

    def __init__(self, lines: Callable[[int], list[Text]], id: str) -> None:
        super().__init__(id=id)
        self._lines = lines
        self._width = 0

    def on_resize(self, event: Resize) -> None:
        if event.size.width != self._width:
            self._width = event.size.width
            self.update(Text("\n").join(self._lines(max(event.size.width, 20))))


class ComparisonView(ModalScreen[None]):
    """A titled chart screen: Esc closes, s saves its charts as SVG under `charts_dir`."""

    AUTO_FOCUS = "#comparison-scroll"
    COMPONENT_CLASSES = set(SERIES_CLASSES)
    BINDINGS = [Binding("escape,q", "dismiss(None)", "Close"), Binding("s", "save", "Save SVG")]

    def __init__(self, title: str, charts_dir: Path) -> None:
        super().__init__()
        self.view_title = title
        self.charts_dir = charts_dir

    def compose(self) -> ComposeResult:
        with Vertical(id="comparison-dialog"):
            yield Label(literal(self.view_title), id="comparison-title")
            with VerticalScroll(id="comparison-scroll"):
                yield _Body(self.lines, id="comparison-body")
            yield Label("s save SVG   esc close", id="comparison-keys")

    def series_styles(self) -> list:
        return [part_style(self, name) for name in SERIES_CLASSES]

    def plot(self, chart: Chart, width: int) -> list[Text]:
        """The SVG chart's series on the terminal, with a legend line under it."""
        series = chart.series
        styles = self.series_styles()
        lines = plot_lines(series, width, PLOT_ROWS, styles, log_x=chart.log_x,
                           y_from_zero=chart.y_from_zero)
        legend = Text("  ")
        for index, item in enumerate(series):
            legend.append(f"{MARKERS[index % len(MARKERS)]} ", styles[index % len(styles)])
            legend.append(f"{item.name}   ")
        axis = f"  x: {chart.x_label}{' (log scale)' if chart.log_x else ''}   y: {chart.y_label}"
        return [Text(chart.title, style="bold"), *lines, legend, Text(axis)]

    def lines(self, width: int) -> list[Text]:
        """What the screen shows at this width (each view's own)."""
        raise NotImplementedError

    def charts(self) -> dict[str, Chart]:
        """File name → chart, what `s` saves."""
        raise NotImplementedError

    def action_save(self) -> None:
        try:
            self.charts_dir.mkdir(parents=True, exist_ok=True)
            saved = []
            for name, chart in self.charts().items():
                (self.charts_dir / name).write_text(render_svg(chart), encoding="utf-8")
                saved.append(str(self.charts_dir / name))
        except OSError as exc:
            self.notify(f"Chart not saved: {exc.strerror}", severity="error", markup=False)
            return
        self.notify("saved " + ", ".join(saved), markup=False)


class SweepView(ComparisonView):
    """A sweep's metric against concurrency beside the number to beat, the ratios and crossover."""

    def __init__(self, comparison: SweepComparison, charts_dir: Path, number: int = 1) -> None:
        super().__init__(f"Sweep: {comparison.sweep.label}", charts_dir)
        self.comparison = comparison
        self.number = number

    def lines(self, width: int) -> list[Text]:
        summary = [Text(line) for line in textwrap.wrap(self.comparison.summary, width)]
        return [*summary, Text(""), *self.plot(sweep_chart(self.comparison), width), Text(""),
                *map(Text, sweep_table(self.comparison))]

    def charts(self) -> dict[str, Chart]:
        return {f"sweep-{self.number}.svg": sweep_chart(self.comparison)}


class RunCompareView(ComparisonView):
    """Loss and accept length of two or more runs against step, their figures and differences."""

    def __init__(self, comparison: RunComparison, charts_dir: Path) -> None:
        names = " vs ".join(run.name or run.id for run in comparison.runs)
        super().__init__(f"Runs: {names}", charts_dir)
        self.comparison = comparison

    def lines(self, width: int) -> list[Text]:
        rows: list[Text] = []
        for curve in ("loss", "accept_length"):
            if any(self.comparison.curves[curve]):
                rows += [*self.plot(run_chart(self.comparison, curve), width), Text("")]
        return [*rows, *map(Text, run_table(self.comparison))]

    def charts(self) -> dict[str, Chart]:
        stem = "runs-" + "-".join(run.id for run in self.comparison.runs)
        return {f"{stem}-loss.svg": run_chart(self.comparison, "loss"),
                f"{stem}-tau.svg": run_chart(self.comparison, "accept_length")}


def runs_to_compare(records: Sequence[Record], selected: Record | None,
                    marked: Sequence[Record] = ()) -> list[Record]:
    """The marked runs when there are two or more; else the run under the cursor and the newest
    other run, else the two newest runs."""
    marked_runs = [r for r in marked if r.kind == "run"]
    if len(marked_runs) >= 2:
        return marked_runs
    runs = sorted((r for r in records if r.kind == "run"),
                  key=lambda r: r.last_update or r.created_at, reverse=True)
    if selected is not None and selected.kind == "run":
        return [selected, *[r for r in runs if r.id != selected.id][:1]]
    return runs[:2]


def comparison_screen(what: str, records: Sequence[Record], selected: Record | None,
                      metric: str, charts_dir: Path,
                      marked: Sequence[Record] = ()) -> ComparisonView | str:
    """The sweep (`sweep`: the one the selected result belongs to, else the newest;
    `sweep-of-row`: the selected result's only) or the runs (`runs`: the marked ones, else the
    selected and the newest other) to show, or why there is nothing to show, in one line."""
    from sessiontui.project_memory.run_compare import compare_runs
    from sessiontui.project_memory.sweeps import compare_sweep, find_sweeps

    if what == "runs":
        runs = runs_to_compare(records, selected, marked)
        if len(runs) < 2:
            return "Comparing needs two runs in the memory (a followed log records one)."
        return RunCompareView(compare_runs(runs), charts_dir)
    results = [r for r in records if r.kind == "benchmark" and (r.metric or metric) == metric]
    sweeps = find_sweeps([r for r in results if not r.baseline])
    if not sweeps:
        return ("No sweep yet: one configuration at two or more concurrencies "
                "(sessiontui record --sweep concurrency=1,2,4,8 -- CMD).")
    number = next((i for i, s in enumerate(sweeps) if selected in s.points), None)
    if number is None and what == "sweep-of-row":
        return ("This row is not part of a sweep (one configuration at two or more "
                "concurrencies); w works on a sweep's result.")
    number = number or 0
    baselines = [r for r in results if r.baseline]
    return SweepView(compare_sweep(sweeps[number], baselines), charts_dir, number + 1)
