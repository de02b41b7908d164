"""The number to beat: the one rule that decides which baseline a result is compared with.

A result is compared only with baselines measured under the same conditions: the same metric,
concurrency, batch size and model, and the same engine when the question or the comparison names
one. A condition unknown on either side never clashes. Answers, speedup projections and the
memory pane all ask this module, so one speedup is never printed as two numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from sessiontui.project_memory.records import DEFAULT_METRIC, Record

if TYPE_CHECKING:  # only annotations: the app's memory pane imports this module at start-up
    from sessiontui.project_memory.store import Store

SINGLE_STREAM = 1


class Conditions(NamedTuple):
    """What a benchmark ran under, as far as comparing it with a baseline goes."""

    metric: str = DEFAULT_METRIC
    concurrency: int | None = None
    batch_size: int | None = None
    model: str | None = None
    engine: str | None = None

    @classmethod
    def of(cls, record: Record, *, engine: bool = True) -> Conditions:
        """A benchmark's conditions (its engine only when `engine`: the comparison names it)."""
        return cls(record.metric or DEFAULT_METRIC, record.concurrency, record.batch_size,
                   record.model, record.engine if engine else None)

    def text(self) -> str:
        """For people: `single stream, sglang` or `c=32, bs=8`."""
        parts = []
        if self.concurrency == SINGLE_STREAM and self.batch_size in (None, 1):
            parts.append("single stream")
        else:
            if self.concurrency is not None:
                parts.append(f"c={self.concurrency}")
            if self.batch_size is not None:
                parts.append(f"bs={self.batch_size}")
        parts += [name for name in (self.engine, self.model) if name]
        return ", ".join(parts) or "any conditions"

    def to_dict(self) -> dict[str, object]:
        """JSON-ready, the `conditions` of `ask --json` (unknown ones left out)."""
        data = {"metric": self.metric, "concurrency": self.concurrency,
                "batch_size": self.batch_size, "model": self.model, "engine": self.engine}
        return {name: value for name, value in data.items() if value is not None}


def _same(a: object, b: object) -> bool:
    """Equal, case-insensitively for names; an unknown side never clashes."""
    if a is None or b is None:
        return True
    return str(a).lower() == str(b).lower()


def matches(record: Record, conditions: Conditions) -> bool:
    """Whether a benchmark ran under these conditions (the metric must be the same)."""
    return (record.metric or DEFAULT_METRIC) == conditions.metric and all(
        _same(getattr(record, name), getattr(conditions, name))
        for name in ("concurrency", "batch_size", "model", "engine")
    )


def lower_is_better(metric: str) -> bool:
    """Latency-like metrics improve downwards; throughputs improve upwards."""
    parts = metric.lower().split("_")
    if "tok" in parts or "per" in parts:  # output_tok_s, requests_per_s: throughputs
        return False
    return "ms" in parts or parts[-1] == "s" or bool(
        {"latency", "ttft", "tpot", "itl", "e2e"} & set(parts))


def best(records: Sequence[Record], metric: str) -> Record | None:
    """The best-valued record for the metric (ties go to the most recent)."""
    valued = [r for r in records if r.value is not None]
    if not valued:
        return None
    key = (lambda r: -r.value) if lower_is_better(metric) else (lambda r: r.value)
    return max(valued, key=key)  # records arrive newest first, and max keeps the first of ties


def number_to_beat(baselines: Sequence[Record], conditions: Conditions) -> Record | None:
    """The best baseline measured under these conditions, or None when none was."""
    usable = [b for b in baselines if b.baseline and b.status != "failed"]
    return best([b for b in usable if matches(b, conditions)], conditions.metric)


def reference_of(result: Record, baselines: Sequence[Record], engine: str | None = None
                 ) -> Record | None:
    """The baseline a result is compared with: its conditions, the named engine else its own."""
    conditions = Conditions.of(result)
    if engine:
        conditions = conditions._replace(engine=engine)
    return number_to_beat(baselines, conditions)


def default_conditions(results: Sequence[Record], metric: str) -> tuple[Conditions, str]:
    """Conditions to use when a question names none: the latest speculative result's, else the
    latest feature result's, else single stream; with the sentence that says which."""
    measured = [r for r in results if r.status != "failed" and not r.baseline]
    speculative = [r for r in measured if r.accept_length is not None or r.spec_algorithm]
    latest = next(iter(speculative or measured), None)
    if latest is not None and (latest.concurrency is not None or latest.batch_size is not None):
        conditions = Conditions.of(latest, engine=False)._replace(metric=metric)
        return conditions, f"conditions of the latest result {latest.id} ({conditions.text()})"
    return Conditions(metric, SINGLE_STREAM), "no conditions named: single stream assumed"


def reference_for(store: Store, metric: str, concurrency: int | None = None) -> Record | None:
    """The number to beat for a metric: at `concurrency`, else at the default conditions."""
    baselines = store.benchmarks(metric, baseline=True)
    if concurrency is not None:
        return number_to_beat(baselines, Conditions(metric, concurrency))
    conditions, _ = default_conditions(store.benchmarks(metric, baseline=False, limit=20), metric)
    return number_to_beat(baselines, conditions)


def ratio(value: float, reference: float, metric: str) -> float:
    """How many times better `value` is than `reference` (>1 is better, for any direction);
    nan when either is not > 0 (stored values are, but a ratio never divides by zero)."""
    if not (value > 0 and reference > 0):
        return float("nan")
    return reference / value if lower_is_better(metric) else value / reference
