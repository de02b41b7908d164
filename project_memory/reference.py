"""The number to beat: the one rule that decides which baseline a result is compared with.

Every ratio the product prints divides by the number to beat for the result's conditions: the
best baseline with the same metric, concurrency, batch size, model and hardware. The engine is
not a condition: a feature on vLLM is measured against the best baseline, SGLang's included, so
a weaker baseline never makes a feature look like a win. Where the result's own engine has a
baseline that differs, that ratio is shown second and labelled. A condition unknown on either
side never clashes. `compare` is the one function; answers, speedup projections, targets, the
memory pane, `serve` and MCP all print what it returns.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import NamedTuple, Protocol

from sessiontui.project_memory.records import DEFAULT_METRIC, Record

SINGLE_STREAM = 1


class Conditions(NamedTuple):
    """What a benchmark ran under, as far as comparing it with a baseline goes."""

    metric: str = DEFAULT_METRIC
    concurrency: int | None = None
    batch_size: int | None = None
    model: str | None = None
    engine: str | None = None
    hardware: str | None = None  # the GPU model, e.g. `NVIDIA H200`

    @classmethod
    def of(cls, record: Record, *, engine: bool = True) -> Conditions:
        """A benchmark's conditions (its engine only when `engine`: the comparison names it)."""
        return cls(record.metric or DEFAULT_METRIC, record.concurrency, record.batch_size,
                   record.model, record.engine if engine else None, hardware_of(record))

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
                "batch_size": self.batch_size, "model": self.model, "engine": self.engine,
                "hardware": self.hardware}
        return {name: value for name, value in data.items() if value is not None}


def hardware_of(record: Record) -> str | None:
    """The GPU model a benchmark ran on, when it was stamped."""
    return record.gpus[0] if record.gpus else None


def _same(a: object, b: object) -> bool:
    """Equal, case-insensitively for names; an unknown side never clashes."""
    if a is None or b is None:
        return True
    return str(a).lower() == str(b).lower()


def matches(record: Record, conditions: Conditions) -> bool:
    """Whether a benchmark ran under these conditions (the metric must be the same)."""
    return (record.metric or DEFAULT_METRIC) == conditions.metric and _same(
        hardware_of(record), conditions.hardware) and all(
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
    if isinstance(baselines, Benchmarks):
        return baselines.number_to_beat(conditions)
    usable = [b for b in baselines if b.baseline and b.status != "failed"]
    return best([b for b in usable if matches(b, conditions)], conditions.metric)


def _key(value: object) -> str | None:
    """A condition as `_same` compares it."""
    return None if value is None else str(value).lower()


def condition_key(record: Record) -> tuple:
    """Where a baseline goes in `Benchmarks`' index: its metric and its conditions as compared."""
    return (record.metric or DEFAULT_METRIC, *map(_key, (
        record.concurrency, record.batch_size, record.model, record.engine, hardware_of(record))))


class Benchmarks(list[Record]):
    """Benchmarks newest first (as `Store.benchmarks` returns them) that answer the number to beat
    from an index of the best baseline per set of conditions: O(conditions), not O(baselines).

    The rule is `number_to_beat`'s, applied to the few per-conditions bests: a set of conditions
    matches where each of its known conditions equals the asked one, and among the matching
    bests the best value wins, ties going to the newest (the first in the list)."""

    _index: tuple[int, dict[tuple, int]] | None = None  # (length indexed, key -> best position)
    total: int | None = None  # how many a partial read (`Store.baselines`) stands for

    def _best_positions(self) -> dict[tuple, int]:
        if self._index is None or self._index[0] != len(self):
            index: dict[tuple, int] = {}
            for position, record in enumerate(self):
                if not record.baseline or record.status == "failed" or record.value is None:
                    continue
                key = condition_key(record)
                held = index.get(key)
                if held is None or _score(record, key[0]) > _score(self[held], key[0]):
                    index[key] = position
            self._index = (len(self), index)
        return self._index[1]

    def copies(self, copy: Callable[[Record], Record]) -> Benchmarks:
        """Each record copied, sharing this list's index (built here once, if not yet)."""
        copied = Benchmarks(map(copy, self))
        copied._index = (len(self), self._best_positions())
        copied.total = self.total
        return copied

    def number_to_beat(self, conditions: Conditions) -> Record | None:
        """The best baseline under these conditions (see `number_to_beat`)."""
        asked = (conditions.metric, *map(_key, (conditions.concurrency, conditions.batch_size,
                                                 conditions.model, conditions.engine,
                                                 conditions.hardware)))
        found = [position for key, position in self._best_positions().items()
                 if key[0] == asked[0] and all(
                     a is None or b is None or a == b for a, b in zip(key[1:], asked[1:], strict=True))]
        if not found:
            return None
        return self[max(found, key=lambda p: (_score(self[p], conditions.metric), -p))]


def _score(record: Record, metric: str) -> float:
    """Higher is better, whichever way the metric improves."""
    value = record.value or 0.0
    return -value if lower_is_better(metric) else value


def reference_of(result: Record, baselines: Sequence[Record]) -> Record | None:
    """The baseline a result is compared with: the number to beat for its conditions (any engine)."""
    return number_to_beat(baselines, Conditions.of(result, engine=False))


class Comparison(NamedTuple):
    """A result against the number to beat for its conditions, and against its own engine's
    baseline when that is another record (None where there is nothing to divide by)."""

    result: Record
    beat: Record | None
    speedup: float | None
    own: Record | None = None
    own_speedup: float | None = None

    def short(self) -> str:
        """For a table cell: `1.20x`, or `1.20x (vllm 1.50x)` when the engine's own differs."""
        if self.speedup is None:
            return ""
        own = f" ({self.result.engine or 'own'} {self.own_speedup:.2f}x)" \
            if self.own_speedup is not None else ""
        return f"{self.speedup:.2f}x{own}"

    def text(self) -> str:
        """`1.20x the number to beat (SGLang 50); 1.50x vLLM's own baseline (40)`."""
        if self.speedup is None or self.beat is None:
            return "no baseline under its conditions"
        line = f"{self.speedup:.2f}x the number to beat ({baseline_name(self.beat)})"
        if self.own is not None and self.own_speedup is not None:
            line += f"; {self.own_speedup:.2f}x {self.result.engine or 'its engine'}'s own " \
                    f"baseline ({_figure(self.own.value)})"
        return line


def baseline_name(record: Record) -> str:
    """`sglang 50` or the config: which baseline a ratio divides by, in a few words."""
    name = record.engine or record.config or record.label
    return f"{name} {_figure(record.value)}"


def _figure(value: float | None) -> str:
    return "?" if value is None else f"{value:,.1f}".rstrip("0").rstrip(".")


def compare(result: Record, baselines: Sequence[Record]) -> Comparison:
    """The one reference rule: `result` divided by the number to beat for its conditions, with its
    own engine's baseline second when that baseline is another record."""
    metric = result.metric or DEFAULT_METRIC
    beat = reference_of(result, baselines)
    speedup = divide(result, beat, metric)
    own = number_to_beat(baselines, Conditions.of(result)) if result.engine else None
    if own is None or own.id in {getattr(beat, "id", None), result.id}:
        return Comparison(result, beat, speedup)
    return Comparison(result, beat, speedup, own, divide(result, own, metric))


def divide(result: Record, baseline: Record | None, metric: str) -> float | None:
    """`result` over one given baseline (>1 is better), None where either value is missing."""
    if baseline is None or result.value is None or baseline.value is None:
        return None
    value = ratio(result.value, baseline.value, metric)
    return None if value != value else value  # nan: nothing to divide by


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


class BenchmarkSource(Protocol):
    """What `reference_for` reads (the store, which returns `Benchmarks` and so imports this)."""

    def benchmarks(self, metric: str, *, baseline: bool | None = None, limit: int | None = None
                   ) -> Sequence[Record]: ...

    def baselines(self, metric: str, *, newest: int = 0) -> Sequence[Record]: ...


def reference_for(store: BenchmarkSource, metric: str, concurrency: int | None = None) -> Record | None:
    """The number to beat for a metric: at `concurrency`, else at the default conditions."""
    baselines = store.baselines(metric)  # the best under each set of conditions: all it needs
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


def column_label(comparisons: Iterable[Comparison], starred: Record | None) -> str:
    """The header of a column of ratios: `vs beat` when every row divides by the starred number to
    beat, the reference's name when they all divide by another, else that it differs per row."""
    references = {c.beat.id: c.beat for c in comparisons if c.beat is not None}
    if not references or (starred is not None and set(references) == {starred.id}):
        return "vs beat"
    if len(references) == 1:
        return f"vs {baseline_name(next(iter(references.values())))}"
    return "vs beat at its c"
