"""The number to beat: which stored baseline a new result is compared against."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sessiontui.project_memory.records import Record

if TYPE_CHECKING:  # only annotations: the app's memory pane imports this module at start-up
    from sessiontui.project_memory.store import Store


def lower_is_better(metric: str) -> bool:
    """Latency-like metrics improve downwards; throughputs improve upwards."""
    timed = metric.endswith(("_ms", "_s")) and not metric.endswith("tok_s")
    return timed or "latency" in metric


def best(records: list[Record], metric: str) -> Record | None:
    """The best-valued record for the metric (ties go to the most recent)."""
    if not records:
        return None
    key = (lambda r: -r.value) if lower_is_better(metric) else (lambda r: r.value)
    return max(records, key=key)  # records arrive newest first, and max keeps the first of ties


def reference_for(store: Store, metric: str, concurrency: int | None = None) -> Record | None:
    """Best baseline for the metric, preferring baselines measured at the same concurrency."""
    baselines = store.benchmarks(metric, baseline=True)
    same = [r for r in baselines if concurrency is not None and r.concurrency == concurrency]
    return best(same or baselines, metric)


def ratio(value: float, reference: float, metric: str) -> float:
    """How many times better `value` is than `reference` (>1 is better, for any direction);
    nan when either is not > 0 (stored values are, but a ratio never divides by zero)."""
    if not (value > 0 and reference > 0):
        return float("nan")
    return reference / value if lower_is_better(metric) else value / reference
