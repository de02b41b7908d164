"""Run against run: loss and accept length at equal steps, and each run's final and best figures.

A run record keeps a bounded, downsampled history of itself: its milestones (every 10% of its
steps and every evaluation, each with the loss and accept length there) and its latest figures.
That is what survives a restart of the app, so it is what two runs are compared on.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sessiontui.project_memory.records import Record

CURVES = ("loss", "accept_length")  # what a run comparison draws, each against step
_LOWER_IS_BETTER = {"loss": True, "accept_length": False}

Curve = tuple[tuple[int, float], ...]


def _finite(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and math.isfinite(value) else None


def run_curve(run: Record, name: str) -> Curve:
    """A run's (step, value) points for `loss` or `accept_length`, by step, from its record."""
    points: dict[int, float] = {}
    for milestone in run.milestones:
        step, value = milestone.get("step"), _finite(milestone.get(name))
        if isinstance(step, int) and value is not None and milestone.get("kind") != "eval":
            points[step] = value
    latest = _finite(getattr(run, name))
    if run.step is not None and latest is not None:
        points[run.step] = latest
    return tuple(sorted(points.items()))


def value_at(curve: Curve, step: int) -> float | None:
    """The curve at `step`, linear between its points; None outside the steps it covers."""
    if not curve or not curve[0][0] <= step <= curve[-1][0]:
        return None
    index = bisect_left(curve, (step, -math.inf))
    right_step, right = curve[index]
    if right_step == step or index == 0:
        return right
    left_step, left = curve[index - 1]
    return left + (right - left) * (step - left_step) / (right_step - left_step)


@dataclass(frozen=True)
class RunFigures:
    """One run's final and best figure of one curve."""

    run_id: str
    name: str
    final: float | None
    best: float | None
    best_step: int | None


@dataclass(frozen=True)
class StepDifference:
    """Two runs' values of one curve at the same step."""

    curve: str
    step: int
    values: tuple[float, ...]


@dataclass(frozen=True)
class RunComparison:
    """Runs side by side: their curves, figures per curve, and the difference at equal steps."""

    runs: tuple[Record, ...]
    curves: dict[str, tuple[Curve, ...]]
    figures: dict[str, tuple[RunFigures, ...]]
    at_equal_step: dict[str, StepDifference]

    def to_dict(self) -> dict[str, Any]:
        """The `compare --json` object."""
        return {
            "runs": [{"id": r.id, "name": r.name, "log_path": r.log_path, "status": r.status,
                      "step": r.step} for r in self.runs],
            "curves": {name: [[list(p) for p in curve] for curve in curves]
                       for name, curves in self.curves.items()},
            "figures": {name: [{"run": f.run_id, "final": f.final, "best": f.best,
                                "best_step": f.best_step} for f in figures]
                        for name, figures in self.figures.items()},
            "at_equal_step": {name: {"step": d.step, "values": list(d.values)}
                              for name, d in self.at_equal_step.items()},
        }


def _figures(run: Record, name: str, curve: Curve) -> RunFigures:
    """Final and best of one curve (best: lowest loss, highest accept length)."""
    if not curve:
        return RunFigures(run.id, name, None, None, None)
    pick = min if _LOWER_IS_BETTER[name] else max
    best_step, best = pick(curve, key=lambda point: point[1])
    return RunFigures(run.id, name, curve[-1][1], best, best_step)


def equal_step(curves: Sequence[Curve]) -> int | None:
    """The furthest step every curve reaches (where comparing them says the most), or None."""
    if not curves or any(not curve for curve in curves):
        return None
    start, end = max(c[0][0] for c in curves), min(c[-1][0] for c in curves)
    if start > end:
        return None
    steps = {step for curve in curves for step, _ in curve if start <= step <= end}
    return max(steps) if steps else None


def compare_runs(runs: Sequence[Record]) -> RunComparison:
    """Compare two or more run records on loss and accept length, aligned by step."""
    curves = {name: tuple(run_curve(run, name) for run in runs) for name in CURVES}
    figures = {name: tuple(_figures(run, name, curve) for run, curve in zip(runs, curves[name],
                                                                               strict=True))
               for name in CURVES}
    differences = {}
    for name, per_run in curves.items():
        step = equal_step(per_run)
        if step is None:
            continue
        values = tuple(value_at(curve, step) for curve in per_run)
        differences[name] = StepDifference(name, step, tuple(v for v in values if v is not None))
    return RunComparison(tuple(runs), curves, figures, differences)
