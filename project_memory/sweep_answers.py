"""Answers to "where does eagle3 stop paying?": a concurrency sweep's crossover, point by point.

The sweep and its ratios come from `sweeps.find_sweeps` and `sweeps.compare_sweep` (each point
divided by the number to beat at its own concurrency); this module only picks the sweep the
question names and writes the answer.
"""

from __future__ import annotations

from collections.abc import Sequence

from sessiontui.project_memory.answer import Answer
from sessiontui.project_memory.store import Store
from sessiontui.project_memory.sweeps import Sweep, SweepComparison, compare_sweep, find_sweeps
from sessiontui.project_memory.understanding import Understanding

RECORD_SWEEP = "sessiontui record --sweep concurrency=1,2,4,8 -- CMD"
NO_SWEEP = (f"No concurrency sweep is recorded, so where the feature stops paying is not known: "
            f"record one with `{RECORD_SWEEP}` (each concurrency is compared with the number to "
            "beat there).")


def _named(sweep: Sweep, words: set[str], engine: str | None) -> int:
    """How much of the question names this sweep: its engine, feature and configuration words."""
    point = sweep.points[-1]
    named = " ".join([sweep.label, point.engine or "", point.spec_algorithm or ""]).lower()
    score = sum(1 for word in words if len(word) >= 3 and word in named)
    return score + (3 if engine and engine == (point.engine or "").lower() else 0)


def pick_sweep(sweeps: Sequence[Sweep], understanding: Understanding) -> Sweep:
    """The sweep the question names best; the newest when it names none (sweeps come newest
    first)."""
    words = set(understanding.words)
    engine = understanding.conditions.comparison.engine
    return max(sweeps, key=lambda s: _named(s, words, engine))  # max keeps the first on ties


def _point_lines(comparison: SweepComparison, asked: int | None) -> list[str]:
    """One line per concurrency: the feature, the number to beat there and the ratio."""
    lines = []
    for p in comparison.points:
        beat = ("no baseline at this concurrency" if p.reference_value is None
                else f"number to beat {p.reference_value:,.1f} [{p.reference_id}]")
        ratio = "" if p.ratio is None else f" → {p.ratio:.2f}x"
        mark = "  ← asked" if p.concurrency == asked else ""
        lines.append(f"  c={p.concurrency}: {p.value:,.1f} [{p.record_id}] vs {beat}{ratio}{mark}")
    return lines


def _asked_line(comparison: SweepComparison, asked: int) -> str:
    """The concurrency the question names, measured or not."""
    point = next((p for p in comparison.points if p.concurrency == asked), None)
    if point is None:
        measured = ", ".join(str(c) for c in comparison.sweep.concurrencies)
        return f"c={asked} is not in this sweep (measured at c={measured})."
    if point.ratio is None:
        return f"At c={asked}: {point.value:,.1f}, with no baseline at c={asked} to compare."
    word = "faster" if point.ratio >= 1 else "slower"
    return f"At c={asked}: {point.ratio:.2f}x the number to beat ({word})."


def answer_crossover(store: Store, understanding: Understanding, metric: str) -> Answer | None:
    """The crossover of the sweep asked about, with every point and its ratio; None when no
    sweep is recorded (the caller then says how to record one)."""
    sweeps = find_sweeps(store.benchmarks(metric, baseline=False))
    if not sweeps:
        return None
    sweep = pick_sweep(sweeps, understanding)
    baselines = store.baselines(metric)  # each point's numbers to beat are among these bests
    comparison = compare_sweep(sweep, baselines)
    asked = understanding.conditions.comparison.concurrency
    asked = asked if asked is not None and asked > 1 else None  # c=1 is where every sweep starts
    lines = [f"{comparison.summary}."]
    if asked is not None:
        lines.append(_asked_line(comparison, asked))
    lines += [f"{metric} per concurrency, each against the number to beat there:",
              *_point_lines(comparison, asked)]
    others = [s for s in sweeps if s is not sweep]
    if others:
        lines.append("Other sweeps: " + "; ".join(s.label for s in others[:3]))
    by_id = {r.id: r for r in baselines}
    referenced = dict.fromkeys(p.reference_id for p in comparison.points if p.reference_id in by_id)
    records = [*sweep.points, *(by_id[i] for i in referenced if i is not None)]
    sweep_figures = comparison.to_dict()
    figures = {"crossover": sweep_figures["crossover"], "points": sweep_figures["points"],
               "sweep": sweep.label, "sweep_id": sweep.sweep_id, "summary": comparison.summary}
    return Answer("speedup", "\n".join(lines), records, figures)
