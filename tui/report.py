"""The shareable report: Markdown for a PR or the team chat, with SVG charts written beside it.

Everything in it is read from the memory through the same rules the app and `ask` use: each
result is divided by the number to beat for its conditions (`reference.py`), sweeps by the number
to beat at each concurrency (`sweeps.py`), runs compared at equal steps (`run_compare.py`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sessiontui.project_memory.records import DEFAULT_METRIC, Record
from sessiontui.project_memory.reference import (
    Benchmarks,
    Conditions,
    baseline_name,
    compare,
    number_to_beat,
)
from sessiontui.project_memory.run_compare import RunComparison, compare_runs
from sessiontui.project_memory.sweeps import SweepComparison, compare_sweep, find_sweeps
from sessiontui.tui.axes import Series
from sessiontui.tui.svg_chart import Chart, render_svg

MAX_SWEEP_CHARTS = 6  # a report is read, not scrolled: the newest sweeps get a chart each
_SINCE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([mhdw])\s*$")
_UNIT_S = {"m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}


def parse_since(text: str, now: datetime | None = None) -> datetime:
    """`7d`, `24h`, `30m`, `2w` before now, or an ISO date/time; ValueError with the reason."""
    now = now or datetime.now(UTC)
    if match := _SINCE.match(text):
        return now - timedelta(seconds=float(match[1]) * _UNIT_S[match[2]])
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        raise ValueError(f"--since takes 7d, 24h, 30m, 2w or a date (2026-11-30): {text!r}") from None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


@dataclass
class Report:
    """The report's Markdown text and the charts it links to (file name → SVG text)."""

    markdown: str
    charts: dict[str, str] = field(default_factory=dict)

    def write(self, path: Path) -> list[Path]:
        """Write the Markdown to `path` and each chart into `charts/` beside it."""
        written = []
        if self.charts:
            folder = path.parent / "charts"
            folder.mkdir(parents=True, exist_ok=True)
            for name, svg in self.charts.items():
                (folder / name).write_text(svg, encoding="utf-8")
                written.append(folder / name)
        path.write_text(self.markdown, encoding="utf-8")
        return [path, *written]


def _cell(text: object) -> str:
    """A Markdown table cell: pipes and line breaks would break the table."""
    return str(text).replace("|", "\\|").replace("\n", " ")


def _table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
    return lines


def figure(value: float | None, digits: int = 1) -> str:
    """A figure for a table: fixed decimals with thousands separators, a dash when unknown."""
    return "—" if value is None or not math.isfinite(value) else f"{value:,.{digits}f}"


def _when(stamp: str | None) -> str:
    return (stamp or "")[:16].replace("T", " ")


def _baselines_section(baselines: Sequence[Record]) -> list[str]:
    """Each set of conditions once, with its number to beat (the best baseline measured there)."""
    seen: dict[Conditions, Record] = {}
    for baseline in baselines:
        conditions = Conditions.of(baseline, engine=False)
        if conditions not in seen and (best := number_to_beat(baselines, conditions)) is not None:
            seen[conditions] = best
    rows = [(c.text(), f"**{figure(b.value)}** {b.unit or ''}", b.engine or "", b.config or b.id,
             _when(b.created_at)) for c, b in seen.items()]
    if not rows:
        return ["## Baselines", "", "No baseline recorded yet (`sessiontui record --baseline`).", ""]
    return ["## Baselines: the number to beat", "",
            *_table(("conditions", "number to beat", "engine", "configuration", "measured"), rows), ""]


def _results_section(results: Sequence[Record], baselines: Sequence[Record]) -> list[str]:
    """Results newest first, each divided by the number to beat for its own conditions."""
    rows = []
    for result in results:
        comparison = compare(result, baselines)  # the one reference rule; own engine's second
        rows.append((result.config or result.id, f"{figure(result.value)} {result.unit or ''}",
                     Conditions.of(result, engine=False).text(), comparison.short() or "—",
                     baseline_name(comparison.beat) if comparison.beat is not None
                     else "none at these conditions",
                     figure(result.accept_length, 2), _when(result.created_at)))
    if not rows:
        return ["## Results", "", "No results in this period.", ""]
    return ["## Results against the number to beat", "",
            *_table(("result", "value", "conditions", "vs beat", "number to beat", "accept length",
                     "measured"), rows), ""]


def sweep_chart(comparison: SweepComparison) -> Chart:
    """The sweep's metric against concurrency (log scale) beside the number to beat at each."""
    sweep = comparison.sweep
    feature = Series(sweep.label, tuple((p.concurrency, p.value) for p in comparison.points),
                     tuple("" if p.ratio is None else f"{p.ratio:.2f}x" for p in comparison.points))
    beat = Series("number to beat", tuple((p.concurrency, p.reference_value)
                                          for p in comparison.points
                                          if p.reference_value is not None))
    unit = sweep.points[0].unit or ""
    return Chart(f"{sweep.label}: {sweep.metric} by concurrency", "concurrency",
                 f"{sweep.metric} ({unit})" if unit else sweep.metric,
                 (feature, beat) if beat.points else (feature,), log_x=True, y_from_zero=True)


def _sweeps_section(comparisons: Sequence[SweepComparison], charts: dict[str, str]) -> list[str]:
    if not comparisons:
        return []
    lines = ["## Sweeps", ""]
    for index, comparison in enumerate(comparisons, 1):
        lines += [f"### {comparison.sweep.label}", "", comparison.summary + ".", ""]
        if index <= MAX_SWEEP_CHARTS:
            name = f"sweep-{index}.svg"
            charts[name] = render_svg(sweep_chart(comparison))
            lines += [f"![{comparison.sweep.label}](charts/{name})", ""]
        lines += _table(("concurrency", "value", "number to beat", "ratio"), [
            (p.concurrency, figure(p.value), figure(p.reference_value),
             "—" if p.ratio is None else f"{p.ratio:.2f}x") for p in comparison.points])
        lines.append("")
    return lines


def run_chart(comparison: RunComparison, curve: str) -> Chart:
    """One curve (loss or accept length) of every compared run against step."""
    label = {"loss": "loss", "accept_length": "accept length τ"}[curve]
    series = tuple(Series(run.name or run.id, points) for run, points
                   in zip(comparison.runs, comparison.curves[curve], strict=True) if points)
    return Chart(f"{label} by step", "step", label, series)


def _runs_section(runs: Sequence[Record], charts: dict[str, str]) -> list[str]:
    if not runs:
        return []
    rows = [(run.name or run.id, run.status or "", f"{run.step or 0:,}/{run.total_steps or '?'}",
             figure(run.loss, 3), figure(run.accept_length, 2), _when(run.last_update))
            for run in runs]
    lines = ["## Runs", "", *_table(("run", "status", "step", "loss", "τ", "last update"), rows), ""]
    compared = compare_runs(runs[:2] if len(runs) > 1 else runs[:1])
    names = [run.name or run.id for run in runs[:2]]
    title = "Latest run" if len(runs) == 1 else f"{names[0]} against {names[1]}"
    for curve in ("loss", "accept_length"):
        if any(compared.curves[curve]):
            name = f"runs-{curve.replace('_', '-')}.svg"
            charts[name] = render_svg(run_chart(compared, curve))
            label = "loss" if curve == "loss" else "accept length τ"
            lines += [f"![{title}: {label}](charts/{name})", ""]
    if len(runs) > 1 and compared.at_equal_step:
        lines += [f"- {line}" for line in equal_step_lines(compared)]
    return [*lines, ""]


def sweep_table(comparison: SweepComparison) -> list[str]:
    """Each point of a sweep beside the number to beat at its concurrency, and the ratio."""
    rows = [f"{'c':>6}  {'value':>10}  {'number to beat':>14}  {'ratio':>6}"]
    for p in comparison.points:
        ratio = "—" if p.ratio is None else f"{p.ratio:.2f}x"
        rows.append(f"{p.concurrency:>6}  {figure(p.value):>10}  {figure(p.reference_value):>14}  "
                    f"{ratio:>6}")
    return rows


def equal_step_lines(comparison: RunComparison) -> list[str]:
    """`at step 4,000: τ 2.72 vs 2.43`, per curve, at the furthest step every run reached."""
    lines = []
    for curve, difference in comparison.at_equal_step.items():
        label, digits = ("loss", 3) if curve == "loss" else ("τ", 2)
        values = " vs ".join(f"{v:.{digits}f}" for v in difference.values)
        lines.append(f"at step {difference.step:,}: {label} {values}")
    return lines or ["no step that every run reached with a figure: nothing to compare at equal steps"]


def run_table(comparison: RunComparison) -> list[str]:
    """Each run's step, final and best loss and τ, then the figures at equal steps."""
    rows = [f"{'run':24}  {'step':>8}  {'loss':>7}  {'best':>7}  {'τ':>5}  {'best':>5}"]
    for run, loss, tau in zip(comparison.runs, comparison.figures["loss"],
                              comparison.figures["accept_length"], strict=True):
        rows.append(f"{(run.name or run.id)[:24]:24}  {run.step or 0:>8,}  {figure(loss.final, 3):>7}  "
                    f"{figure(loss.best, 3):>7}  {figure(tau.final, 2):>5}  {figure(tau.best, 2):>5}")
    return [*rows, *equal_step_lines(comparison)]


def _lessons_section(lessons: Sequence[Record]) -> list[str]:
    if not lessons:
        return []
    lines = ["## Lessons added", ""]
    lines += [f"- **{_cell(lesson.title or lesson.id)}**" + (f" — fix: {_cell(lesson.fix)}"
                                                             if lesson.fix else "")
              for lesson in lessons]
    return [*lines, ""]


def build_report(records: Sequence[Record], since: datetime | None = None,
                 metric: str = DEFAULT_METRIC, now: datetime | None = None) -> Report:
    """The report over `records` (newest first); results, runs and lessons since `since`."""
    now = now or datetime.now(UTC)
    cutoff = since.isoformat(timespec="seconds") if since else ""
    recent = [r for r in records if (r.created_at or "") >= cutoff or (r.last_update or "") >= cutoff]
    ok = [r for r in records if r.kind == "benchmark" and r.status != "failed"
          and r.value is not None and (r.metric or DEFAULT_METRIC) == metric]
    # indexed by conditions: every section asks each result's number to beat (O(n²) as a list)
    baselines = Benchmarks(r for r in ok if r.baseline)
    recent_ids = {r.id for r in recent}
    results = [r for r in ok if not r.baseline and r.id in recent_ids]
    charts: dict[str, str] = {}
    period = f"since {_when(cutoff)}" if since else "everything remembered"
    lines = [f"# sessiontui report: {metric}", "",
             f"Generated {_when(now.isoformat())} UTC, {period}. Ratios divide by the number to "
             "beat for each result's conditions (metric, concurrency, batch size, model).", ""]
    lines += _baselines_section(baselines)
    lines += _results_section(results, baselines)
    lines += _sweeps_section([compare_sweep(s, baselines) for s in find_sweeps(results)], charts)
    lines += _runs_section([r for r in recent if r.kind == "run"], charts)
    lines += _lessons_section([r for r in recent if r.kind == "lesson"])
    return Report("\n".join(lines).rstrip() + "\n", charts)
