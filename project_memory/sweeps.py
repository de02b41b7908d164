"""Concurrency sweeps: one configuration measured at several concurrencies, and where it stops paying.

A sweep is either recorded as one (`record --sweep`, which tags every result `sweep:<id>`) or found:
results of the same configuration, engine, model and metric at two or more concurrencies. Each
point is compared with the number to beat at its own concurrency (`reference.number_to_beat`), so
a crossover is never read off a baseline measured under other conditions.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sessiontui.project_memory.records import DEFAULT_METRIC, Record
from sessiontui.project_memory.reference import compare

SWEEP_TAG = "sweep:"
# A concurrency written into a configuration name ("… c=8", "conc16"): not part of what is swept.
_CONCURRENCY_WORD = re.compile(r"(?:^|\s)(?:c|conc|concurrency)\s*[=:]?\s*\d+(?=\s|$)", re.I)


@dataclass(frozen=True)
class Sweep:
    """Results of one configuration at several concurrencies, lowest concurrency first."""

    label: str
    metric: str
    points: tuple[Record, ...]
    sweep_id: str | None = None

    @property
    def concurrencies(self) -> list[int]:
        """The concurrencies measured, ascending."""
        return [r.concurrency for r in self.points if r.concurrency is not None]


@dataclass(frozen=True)
class SweepPoint:
    """One concurrency of a sweep beside the number to beat there."""

    concurrency: int
    value: float
    record_id: str
    reference_value: float | None
    reference_id: str | None
    ratio: float | None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready, with the ratio rounded as it is printed."""
        data = {"concurrency": self.concurrency, "value": self.value, "record": self.record_id,
                "reference_value": self.reference_value, "reference": self.reference_id,
                "ratio": None if self.ratio is None else round(self.ratio, 3)}
        return {name: value for name, value in data.items() if value is not None}


@dataclass(frozen=True)
class SweepComparison:
    """A sweep against the number to beat at each concurrency, and the crossover in words."""

    sweep: Sweep
    points: tuple[SweepPoint, ...]
    faster_up_to: int | None  # the highest concurrency still faster, below the first slower one
    slower_from: int | None  # the first concurrency that is slower than the number to beat
    summary: str

    def to_dict(self) -> dict[str, Any]:
        """The `--json` object of a sweep: its points and its crossover."""
        return {
            "label": self.sweep.label, "metric": self.sweep.metric, "sweep_id": self.sweep.sweep_id,
            "points": [p.to_dict() for p in self.points],
            "crossover": {"faster_up_to": self.faster_up_to, "slower_from": self.slower_from},
            "summary": self.summary,
        }


def sweep_id_of(record: Record) -> str | None:
    """The id `record --sweep` tagged a result with, if any."""
    return next((tag[len(SWEEP_TAG):] for tag in record.tags if tag.startswith(SWEEP_TAG)), None)


def _config_key(record: Record) -> str:
    """The configuration name without its concurrency word: the same for every point of a sweep."""
    name = _CONCURRENCY_WORD.sub(" ", record.config or "")
    return " ".join(name.split()).lower()


def _group_key(record: Record) -> tuple[Any, ...]:
    """What the points of a found sweep share: recorded sweep id, else configuration and setup."""
    if (sweep_id := sweep_id_of(record)) is not None:
        return ("sweep", sweep_id)
    return ("found", record.metric or DEFAULT_METRIC, _config_key(record),
            (record.engine or "").lower(), (record.model or "").lower(), record.batch_size,
            (record.spec_algorithm or "").lower())


def find_sweeps(benchmarks: Iterable[Record]) -> list[Sweep]:
    """Every sweep among benchmark results (newest first in, newest sweep first out).

    Baselines are what a sweep is compared with, not sweeps themselves; at each concurrency the
    newest result stands for the point; failed results never count."""
    groups: dict[tuple[Any, ...], dict[int, Record]] = {}
    for record in benchmarks:
        if record.kind != "benchmark" or record.baseline or record.status == "failed" \
                or record.value is None or record.concurrency is None:
            continue
        points = groups.setdefault(_group_key(record), {})
        points.setdefault(record.concurrency, record)  # newest first: the first seen stays
    sweeps = []
    for key, points in groups.items():
        if len(points) < 2:
            continue
        ordered = tuple(points[c] for c in sorted(points))
        label = _CONCURRENCY_WORD.sub(" ", ordered[-1].config or ordered[-1].label).strip()
        sweeps.append(Sweep(" ".join(label.split()) or ordered[-1].id,
                            ordered[0].metric or DEFAULT_METRIC, ordered,
                            key[1] if key[0] == "sweep" else None))
    sweeps.sort(key=lambda s: max(r.created_at for r in s.points), reverse=True)
    return sweeps


def _point(record: Record, baselines: Sequence[Record]) -> SweepPoint:
    """A sweep point with the number to beat at its own conditions (the engine is not one)."""
    assert record.value is not None and record.concurrency is not None  # find_sweeps keeps these
    comparison = compare(record, baselines)  # the one reference rule
    beat = comparison.beat
    if beat is None or comparison.speedup is None:
        return SweepPoint(record.concurrency, record.value, record.id, None, None, None)
    return SweepPoint(record.concurrency, record.value, record.id, beat.value, beat.id,
                      comparison.speedup)


def _summary(label: str, points: Sequence[SweepPoint]) -> str:
    """The crossover in one sentence, with the ratios that decide it."""
    compared = [(p.concurrency, r) for p in points if (r := p.ratio) is not None]
    if not compared:
        return f"{label}: no baseline at any of its concurrencies, so no ratio to draw"
    (first_c, first_r), (last_c, last_r) = compared[0], compared[-1]
    change = next((i for i, (_, r) in enumerate(compared) if (r >= 1) != (first_r >= 1)), None)
    first_word, then_word = ("faster", "slower") if first_r >= 1 else ("slower", "faster")
    if change is None:
        return (f"{label} is {first_word} at every concurrency measured "
                f"({first_r:.2f}x at c={first_c}, {last_r:.2f}x at c={last_c})")
    (before_c, _), (change_c, change_r) = compared[change - 1], compared[change]
    return (f"{label} is {first_word} up to c={before_c} ({first_r:.2f}x at c={first_c}), "
            f"{then_word} from c={change_c} ({change_r:.2f}x)")


def compare_sweep(sweep: Sweep, baselines: Sequence[Record]) -> SweepComparison:
    """Each point against the number to beat at its concurrency, and where the gain ends.

    The crossover is the first compared concurrency whose ratio is below 1 after one at or above
    1; points with no baseline at their concurrency are shown but decide nothing."""
    points = tuple(_point(record, baselines) for record in sweep.points)
    faster_up_to = slower_from = None
    for point in points:
        if point.ratio is None:
            continue
        if point.ratio < 1:
            slower_from = point.concurrency
            break
        faster_up_to = point.concurrency
    return SweepComparison(sweep, points, faster_up_to, slower_from, _summary(sweep.label, points))
