"""The speedup report: live acceptance, the number to beat and past measurements, put together.

`build_speedup_report` reads its typed inputs (command-line values, a `LiveRun` snapshot, the
project memory's records), applies `sessiontui.project_memory.specdec` in one pass and returns an
immutable report that says where every figure came from and which assumptions it needed. Figures
it cannot compute stay None, with the reason in `assumptions`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, NamedTuple

from sessiontui.project_memory import specdec
from sessiontui.project_memory.answer import fmt
from sessiontui.project_memory.records import DEFAULT_METRIC, DEFAULT_UNIT, Record
from sessiontui.project_memory.reference import (
    Conditions,
    default_conditions,
    lower_is_better,
    matches,
    number_to_beat,
    reference_of,
)

if TYPE_CHECKING:
    from sessiontui.project_memory.live import LiveRun
    from sessiontui.project_memory.store import Store

DEFAULT_DRAFT_OVERHEAD = 0.10
"""Assumed draft overhead (draft time / target step time) when none is given or measurable."""

TPOT_FIGURES = ("tpot_ms_median", "tpot_ms_mean")
"""Per-output-token latency figures, preferred first. ITL is not used: with speculation a streamed
chunk carries several tokens, so inter-token latency measures steps, not tokens."""

PROJECTION_FIELDS = (
    "accept_length", "theoretical_speedup", "theoretical_value", "calibrated_speedup",
    "calibrated_value", "breakeven_accept_length", "cost_factor", "baseline_value",
    "draft_overhead", "best_gamma", "calibration_id", "measured_speedup", "step", "verdict",
    "assumptions", "sources",
)
"""The one list of projection figures: `ask --json` adds these to its `figures` under these names."""
RECENT = 50
_TRAINING = ("running", "stalled", "waiting")  # a run record whose rates are the current ones
"""How many of the newest non-baseline results (and runs) are searched, so a large memory stays fast."""


# NamedTuples, not frozen dataclasses: a speedup question imports this module, and a frozen
# dataclass of 44 fields generates six methods at import (~3 ms of a ~65 ms answer, issue 31).
class SpeedupReport(NamedTuple):
    """Every figure of a speedup answer, with its sources and the assumptions behind it."""

    metric: str = DEFAULT_METRIC
    unit: str = DEFAULT_UNIT
    accept_length: float | None = None
    acc: tuple[float, ...] = ()  # conditional rates behind accept_length
    depth: int | None = None
    acceptance_source: str | None = None
    live: bool = False  # the accept length comes from a run that is training now
    acceptance_at: str | None = None  # when the live or stored rates were last updated (ISO 8601)
    step: int | None = None
    conditions: str = ""
    baseline_value: float | None = None
    baseline_id: str | None = None
    draft_overhead: float | None = None
    draft_overhead_source: str = ""
    theoretical_speedup: float | None = None
    theoretical_value: float | None = None
    cost_per_draft_token: float | None = None
    best_gamma: int | None = None
    best_gamma_speedup: float | None = None
    calibration_id: str | None = None
    calibration_date: str | None = None
    calibration_accept_length: float | None = None
    calibration_value: float | None = None
    calibration_baseline_value: float | None = None
    calibration_points: int = 0
    cost_factor: float | None = None
    cost_factor_min: float | None = None
    cost_factor_max: float | None = None
    calibrated_speedup: float | None = None
    calibrated_value: float | None = None
    breakeven_accept_length: float | None = None
    measured_speedup: float | None = None
    own_baseline_value: float | None = None  # the calibration point's own engine's, when it differs
    own_baseline_id: str | None = None
    own_engine: str | None = None
    calibration_label: str | None = None
    target_accept_length: float | None = None
    target_value: float | None = None
    target_speedup: float | None = None
    target_theoretical_speedup: float | None = None
    verdict: str = ""
    assumptions: tuple[str, ...] = ()
    sources: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready dict, the object `sessiontui speedup --json` prints."""
        data = self._asdict()
        return data | {name: list(data[name]) for name in ("acc", "assumptions", "sources")}

    def projection_figures(self) -> dict[str, Any]:
        """The projection fields `ask --json` adds to its `figures`, under the same names."""
        data = self.to_dict()
        return {name: data[name] for name in PROJECTION_FIELDS}

    def with_assumptions_first(self, notes: Sequence[str]) -> SpeedupReport:
        """The same report with `notes` (problems reading the inputs) before its assumptions."""
        return self._replace(assumptions=(*notes, *self.assumptions))


class _Point(NamedTuple):
    """A speculative benchmark and the baseline of its own engine and conditions (None when the
    baseline value is given on the command line)."""

    record: Record
    baseline: Record | None
    accept_length: float  # the record's, known to be set
    value: float


class _Notes:
    """Where figures came from and what they assumed, in the order they were worked out."""

    def __init__(self) -> None:
        self.sources: list[str] = []
        self.assumptions: list[str] = []


class _Reference(NamedTuple):
    """The number to beat, and the calibration point's own engine's baseline when it differs."""

    value: float | None = None
    id: str | None = None
    unit: str = DEFAULT_UNIT
    own_value: float | None = None
    own_id: str | None = None
    own_engine: str | None = None


class _Calibration(NamedTuple):
    """The cost factor k against the number to beat, from one measured point, with its spread."""

    k: float
    spread: tuple[float, ...]
    accept_length: float
    value: float
    base: float
    point: _Point | None = None  # None: the point was given on the command line


class _Acceptance(NamedTuple):
    """The accept length, the conditional rates behind it and where they came from."""

    tau: float | None = None
    acc: tuple[float, ...] = ()
    source: str | None = None
    live: bool = False
    step: int | None = None
    at: str | None = None


class _Projection(NamedTuple):
    """What the accept length and overhead give: the bound, the best draft length, calibrated."""

    theoretical_speedup: float | None = None
    theoretical_value: float | None = None
    cost_per_draft_token: float | None = None
    best_gamma: int | None = None
    best_gamma_speedup: float | None = None
    calibrated_speedup: float | None = None
    calibrated_value: float | None = None


class _WhatIf(NamedTuple):
    """Figures at an accept length the question names."""

    accept_length: float | None = None
    value: float | None = None
    speedup: float | None = None
    theoretical_speedup: float | None = None


def build_speedup_report(
    store: Store | None,
    *,
    acc: list[float] | None = None,
    acc_kind: str = "conditional",
    simulated_acc_len: float | None = None,
    draft_overhead: float | None = None,
    baseline_value: float | None = None,
    calibrate_accept: float | None = None,
    calibrate_value: float | None = None,
    depth: int | None = None,
    snapshot: LiveRun | None = None,
    metric: str = DEFAULT_METRIC,
    conditions: Conditions | None = None,
    draft_overhead_source: str | None = None,
    accept_target: float | None = None,
) -> SpeedupReport:
    """A speedup report from explicit inputs, falling back to the training snapshot and the memory.

    `conditions` (else those of the latest result, else single stream) pick the number to beat
    and the calibration points, through the reference rule. `draft_overhead_source` says where
    an explicit overhead came from; `accept_target` adds a what-if at that accept length.
    Explicit inputs that make no sense raise ValueError; stored or live figures that make no
    sense are skipped with the reason in `assumptions`.
    """
    _check_explicit(metric, acc, acc_kind, simulated_acc_len, calibrate_accept, calibrate_value)
    notes = _Notes()
    baselines = store.baselines(metric) if store else []
    results = store.benchmarks(metric, baseline=False, limit=RECENT) if store else []
    if conditions is None:
        conditions, why = default_conditions(results, metric)
        notes.assumptions.append(why)
    points = _points(notes, results, baselines, conditions, explicit=baseline_value is not None)
    reference = _reference(notes, metric, baselines, baseline_value, conditions, points)
    explicit_point = (calibrate_accept, calibrate_value) \
        if calibrate_accept is not None and calibrate_value is not None else None
    calibration = _calibration(notes, conditions, reference, points, bool(results), explicit_point)
    point = calibration.point if calibration else None
    if acc is not None:
        acceptance = _from_rates(notes, acc, acc_kind, depth, point,
                                 f"{acc_kind} rates from the command line")
    elif simulated_acc_len is not None:
        acceptance = _tau_only(notes, specdec.tau_from_simulated_acc_len(simulated_acc_len), depth,
                               "simulated_acc_len from the command line (+1 bonus token)")
    elif snapshot is not None:
        acceptance = _from_snapshot(notes, snapshot, depth, point)
    else:
        acceptance = _from_last_run(notes, store, depth, point) if store is not None else _Acceptance()
    if acceptance.source:
        notes.sources.append(f"accept length: {acceptance.source}")
    else:
        notes.assumptions.append(
            "no acceptance metrics (give --acc, --simulated-acc-len or --log): no projection")
    overhead, overhead_source = _overhead(notes, draft_overhead, point,
                                          draft_overhead_source or "the command line")
    scale = reference.own_value / reference.value if reference.own_value and reference.value else 1.0
    projection = _projection(notes, acceptance, overhead, reference.value, calibration, scale)
    what_if = _what_if(accept_target, overhead, reference.value, calibration, scale)
    k = calibration.k if calibration else None
    return SpeedupReport(
        metric=metric, unit=reference.unit, conditions=conditions.text(),
        accept_length=acceptance.tau, acc=acceptance.acc,
        depth=len(acceptance.acc) or None,
        acceptance_source=acceptance.source, live=acceptance.live, acceptance_at=acceptance.at,
        step=acceptance.step, baseline_value=reference.value, baseline_id=reference.id,
        own_baseline_value=reference.own_value, own_baseline_id=reference.own_id,
        own_engine=reference.own_engine, draft_overhead=overhead,
        draft_overhead_source=overhead_source, **projection._asdict(),
        **_calibration_fields(calibration),
        target_accept_length=what_if.accept_length, target_value=what_if.value,
        target_speedup=what_if.speedup, target_theoretical_speedup=what_if.theoretical_speedup,
        verdict=_verdict(acceptance.tau, k, projection.calibrated_speedup,
                         projection.theoretical_speedup,
                         calibration.value / calibration.base if calibration else None),
        assumptions=tuple(notes.assumptions), sources=tuple(notes.sources),
    )


def _check_explicit(
    metric: str,
    acc: list[float] | None,
    acc_kind: str,
    simulated_acc_len: float | None,
    calibrate_accept: float | None,
    calibrate_value: float | None,
) -> None:
    """Refuse contradictory or half-given command-line inputs."""
    if lower_is_better(metric):
        raise ValueError(f"speedup projections need a throughput metric, not {metric!r}")
    if acc_kind not in specdec.ACC_KINDS:
        raise ValueError(f"acc kind must be one of {', '.join(specdec.ACC_KINDS)}, got {acc_kind!r}")
    if acc is not None and simulated_acc_len is not None:
        raise ValueError("give per-position rates or simulated_acc_len, not both")
    if (calibrate_accept is None) != (calibrate_value is None):
        raise ValueError("calibration needs both the measured accept length and its value")


# -- the number to beat ----------------------------------------------------------------------
def _reference(
    notes: _Notes,
    metric: str,
    baselines: list[Record],
    explicit: float | None,
    conditions: Conditions,
    points: list[_Point],
) -> _Reference:
    """The baseline: explicit, else the number to beat under the conditions (the reference rule:
    any engine), with the calibration point's own engine's baseline when it differs."""
    if explicit is not None:
        value = specdec.require_positive("baseline value", explicit)
        notes.sources.append(f"baseline {explicit:g} from the command line")
        return _Reference(value)
    top = number_to_beat(baselines, conditions._replace(engine=None))
    if top is None:
        where = f" at {conditions.text()}" if baselines else " in the memory"
        notes.assumptions.append(
            f"no baseline {metric} benchmark{where}: projected values and "
            "calibration need one (give --baseline-value)"
        )
        return _Reference()
    unit = top.unit or DEFAULT_UNIT
    notes.sources.append(f"baseline {top.id} ({top.label}, {top.value:g} {unit}, "
                         f"{top.created_at[:10]}): the number to beat")
    own = points[0].baseline if points else None
    if own is None or own.id == top.id or not own.value:
        return _Reference(top.value, top.id, unit)
    engine = points[0].record.engine
    notes.sources.append(f"{engine}'s own baseline {own.id} ({own.label}, {own.value:g} {unit}), "
                         "shown second")
    return _Reference(top.value, top.id, unit, own.value, own.id, engine)


# -- calibration --------------------------------------------------------------------------------
def _conditions(record: Record) -> str:
    """The known conditions of a benchmark, e.g. `sglang, single stream`."""
    return Conditions.of(record).text()


def _points(
    notes: _Notes,
    results: list[Record],
    baselines: list[Record],
    conditions: Conditions,
    *,
    explicit: bool,
) -> list[_Point]:
    """Speculative results under the conditions (any engine), newest first, each with its own
    engine's baseline (else the number to beat); results without one are left out, and said so."""
    points, unmatched = [], []
    for record in results:
        if record.accept_length is None or record.value is None \
                or not matches(record, conditions._replace(engine=None)):
            continue
        reference = None if explicit else (number_to_beat(baselines, Conditions.of(record))
                                            or reference_of(record, baselines))
        if reference is None and not explicit:
            unmatched.append(f"{record.id} ({_conditions(record)})")
            continue
        points.append(_Point(record, reference, record.accept_length, record.value))
    if unmatched:
        more = f" and {len(unmatched) - 3} more" if len(unmatched) > 3 else ""
        notes.assumptions.append(
            f"not used for calibration, no baseline under their conditions: "
            f"{', '.join(unmatched[:3])}{more}"
        )
    return points


def _calibration(
    notes: _Notes,
    conditions: Conditions,
    reference: _Reference,
    points: list[_Point],
    any_results: bool,
    explicit: tuple[float, float] | None,
) -> _Calibration | None:
    """The cost factor k against the number to beat, from an explicit point, else from the newest
    speculative result under the conditions (with the spread over all of them)."""
    base = reference.value
    if base is None:
        notes.assumptions.append("no calibration: it needs a baseline value")
        return None
    if explicit is not None:
        accept, value = explicit
        k = specdec.cost_factor(accept, base, value)
        notes.sources.append(
            f"calibration point accept length {accept:g} at {value:g} from the command line")
        return _Calibration(k, (k,), accept, value, base)
    usable: list[tuple[_Point, float]] = []
    for point in points:
        try:
            usable.append((point, specdec.cost_factor(point.accept_length, base, point.value)))
        except ValueError as exc:
            notes.assumptions.append(f"{point.record.id} not used for calibration: {exc}")
    if not usable:
        elsewhere = any_results and not points
        notes.assumptions.append(
            f"no calibration: no speculative result at {conditions.text()} (record one there)"
            if elsewhere else
            f"no calibration: no speculative benchmark with an accept length among the {RECENT} "
            "newest results in the memory "
            "(record one, or give --calibrate-accept/--calibrate-value)"
        )
        return None
    chosen, k = usable[0]
    record = chosen.record
    spread = tuple(k for _, k in usable)
    unit = reference.unit
    notes.sources.append(
        f"calibration {record.id} ({record.label}, accept length {record.accept_length:g}, "
        f"{record.value:g} {unit}, {record.created_at[:10]}) against baseline "
        f"{reference.id or f'{base:g}'}"
    )
    if len(usable) > 1:
        notes.assumptions.append(
            f"calibrated with the most recent of {len(usable)} comparable speculative "
            f"benchmarks; their cost factors range {min(spread):.2f}-{max(spread):.2f}"
        )
    return _Calibration(k, spread, chosen.accept_length, chosen.value, base, chosen)


def _calibration_fields(calibration: _Calibration | None) -> dict[str, Any]:
    """The report's calibration fields (none set without a calibration)."""
    if calibration is None:
        return {}
    record = calibration.point.record if calibration.point else None
    return {
        "cost_factor": calibration.k,
        "breakeven_accept_length": specdec.breakeven_accept_length(calibration.k),
        "cost_factor_min": min(calibration.spread), "cost_factor_max": max(calibration.spread),
        "calibration_points": len(calibration.spread),
        "calibration_accept_length": calibration.accept_length,
        "calibration_value": calibration.value,
        "calibration_baseline_value": calibration.base,
        "measured_speedup": calibration.value / calibration.base,
        "calibration_id": record.id if record else None,
        "calibration_date": record.created_at[:10] if record else None,
        "calibration_label": record.label if record else None,
    }


# -- acceptance -------------------------------------------------------------------------------
def _simulated_acc_len(metrics: Mapping[str, Any]) -> float | None:
    """SpecForge's simulated_acc_len from a metrics dict, with or without an `eval/` prefix."""
    for key, value in metrics.items():
        if key.rsplit("/", 1)[-1] == "simulated_acc_len" and isinstance(value, int | float):
            return float(value)
    return None


_FULL_RATE_NAMES = ("eval_per_position_acc", "per_position_acc", "eval_acceptance_rate",
                    "acceptance_rate")
"""Per-position rates that logs print as unconditional ("full": all drafted tokens up to i
accepted), as opposed to SpecForge's conditional acc_i; preferred first."""


def _full_rates(metrics: Mapping[str, Any], conditional: list[float]
                ) -> tuple[str, list[float]] | None:
    """The first family of full per-position rates in a log's metrics, with its name: only when
    they read as full rates (each within 0..1, never rising) and are not the conditional acc_i
    printed again under another name."""
    for name in _FULL_RATE_NAMES:
        values: list[float] = []
        while isinstance(value := metrics.get(f"{name}_{len(values)}"), int | float):
            values.append(float(value))
        never_rising = all(b <= a for a, b in zip(values, values[1:], strict=False))
        if values and never_rising and all(0.0 <= v <= 1.0 for v in values) \
                and values != conditional[: len(values)]:
            return name, values
    return None


def _default_depth(point: _Point | None) -> tuple[int | None, str]:
    """The serving depth to project at: the calibration benchmark's draft steps, when recorded."""
    if not (point and point.record.num_steps):
        return None, ""
    record = point.record
    tree = (f" (topk {record.topk}: a tree accepts more than these chain rates predict)"
            if record.topk and record.topk > 1 else "")
    return record.num_steps, f"depth {record.num_steps} = draft steps of calibration {record.id}{tree}"


def _from_rates(notes: _Notes, rates: Sequence[float], kind: str, depth: int | None,
                point: _Point | None, source: str) -> _Acceptance:
    """Accept length from per-position rates at the requested (or the served) depth; an invalid
    rate raises ValueError before anything is noted."""
    conditional = specdec.conditional_from_full(rates) if kind == "full" else list(rates)
    why, assumption = "", ""
    if depth is None:
        depth, why = _default_depth(point)
    if depth is not None:
        conditional, assumption = specdec.at_depth(conditional, depth)
    tau = specdec.tau_from_conditional(conditional)  # validates before anything is noted
    if assumption:
        notes.assumptions.append(f"{why}; {assumption}" if why else assumption)
    return _Acceptance(tau, tuple(conditional), source)


def _tau_only(notes: _Notes, tau: float, depth: int | None, source: str) -> _Acceptance:
    """Accept length known without per-position rates: depth and draft length cannot be chosen."""
    if depth is not None:
        notes.assumptions.append(f"depth {depth} ignored: needs per-position rates")
    return _Acceptance(tau, (), source)


def _from_snapshot(notes: _Notes, snapshot: LiveRun, depth: int | None, point: _Point | None
                   ) -> _Acceptance:
    """Accept length from a followed run's rates or its simulated_acc_len."""
    source = f"training log {snapshot.source}"
    rates = list(snapshot.acc or ())
    metrics = snapshot.metrics or {}
    simulated = _simulated_acc_len(metrics)
    full = _full_rates(metrics, rates)
    try:
        if full:
            name, values = full
            found = _from_rates(notes, values, "full", depth, point,
                                f"full per-position rates {name}_i of {source}")
        elif rates:
            found = _from_rates(notes, rates, "conditional", depth, point,
                                f"conditional acc_i of {source}")
        elif simulated is not None:
            found = _tau_only(notes, specdec.tau_from_simulated_acc_len(simulated), depth,
                              f"simulated_acc_len of {source} (+1 bonus token)")
        else:
            notes.assumptions.append(f"{source} has no acceptance metrics yet")
            return _Acceptance()
    except ValueError as exc:
        notes.assumptions.append(f"acceptance metrics of {source} not usable: {exc}")
        return _Acceptance()
    step = snapshot.step
    at = (datetime.fromtimestamp(snapshot.last_update, UTC).isoformat(timespec="seconds")
          if snapshot.last_update is not None else None)
    where = f"{found.source} at step {step}" if step is not None else found.source
    return found._replace(source=where, live=True, step=step, at=at)


def _from_last_run(notes: _Notes, store: Store, depth: int | None, point: _Point | None
                   ) -> _Acceptance:
    """Accept length from the newest run record that remembers per-position rates."""
    run = next((r for r in store.list("run", limit=RECENT) if r.acc), None)
    if run is None:
        return _Acceptance()
    source = (f"conditional acc of run {run.id} ({run.label}) at step {run.step}, updated "
              f"{(run.last_update or run.updated_at)[:16]}")
    try:
        found = _from_rates(notes, run.acc, "conditional", depth, point, source)
    except ValueError as exc:
        notes.assumptions.append(f"acceptance rates of run {run.id} not usable: {exc}")
        return _Acceptance()
    return found._replace(live=run.status in _TRAINING, step=run.step,
                          at=run.last_update or run.updated_at)


# -- overhead and projections -------------------------------------------------------------------
def _tpot_pair(point: _Point) -> tuple[str, float, float] | None:
    """A per-token latency figure present on both the calibration point and its baseline."""
    if point.baseline is None:
        return None
    for name in TPOT_FIGURES:
        spec, base = point.record.figures.get(name), point.baseline.figures.get(name)
        if spec is not None and base is not None:
            return name, spec, base
    return None


def _overhead(notes: _Notes, explicit: float | None, point: _Point | None, source: str
              ) -> tuple[float, str]:
    """The draft overhead and its source: explicit, else measured from stored latencies, else
    the default."""
    if explicit is not None:
        notes.sources.append(f"draft overhead {explicit:g} from {source}")
        return specdec.require_overhead(explicit), source
    pair = _tpot_pair(point) if point else None
    if point is not None and pair:
        name, spec, base = pair
        try:
            overhead = specdec.overhead_from_step_latencies(point.accept_length, spec, base)
        except ValueError as exc:
            notes.assumptions.append(f"overhead not measured from {name}: {exc}")
        else:
            notes.assumptions.append(
                f"draft overhead {overhead:.3f} = accept length x {name} / baseline "
                f"{name} - 1 = {point.accept_length:g} x {spec:g} / {base:g} - 1 "
                f"({point.record.id} vs {point.baseline.id if point.baseline else 'its baseline'}); "
                "it counts verification as overhead"
            )
            return overhead, f"measured from {name} of {point.record.id}"
    notes.assumptions.append(
        f"draft overhead assumed {DEFAULT_DRAFT_OVERHEAD:g} (not given, and no "
        f"{'/'.join(TPOT_FIGURES)} on both the calibration benchmark and its baseline)"
    )
    return DEFAULT_DRAFT_OVERHEAD, "the default (set draft_overhead in sessiontui.toml)"


def _projection(notes: _Notes, acceptance: _Acceptance, overhead: float,
                base: float | None, calibration: _Calibration | None, scale: float
                ) -> _Projection:
    """Theoretical (restated against the number to beat by `scale`, the own engine's baseline
    over it), per-draft-token and calibrated projections from what is known."""
    tau = acceptance.tau
    if tau is None:
        return _Projection()
    theoretical = specdec.theoretical_speedup(tau, overhead) * scale
    value = specdec.projected_value(base, theoretical) if base is not None else None
    cost = gamma = gamma_speedup = None
    if acceptance.acc:
        cost = overhead / len(acceptance.acc)
        gamma, gamma_speedup = specdec.best_gamma(list(acceptance.acc), cost)
        notes.assumptions.append(
            f"per-draft-token cost c = overhead / depth = {overhead:.3g} / {len(acceptance.acc)}")
    else:
        notes.assumptions.append("no best draft length: it needs per-position rates")
    calibrated = calibrated_value = None
    if calibration is not None and base is not None:
        calibrated = specdec.calibrated_speedup(tau, calibration.k)
        calibrated_value = specdec.calibrated_value(base, tau, calibration.k)
    return _Projection(theoretical, value, cost, gamma, gamma_speedup, calibrated,
                       calibrated_value)


def _what_if(tau: float | None, overhead: float, base: float | None,
             calibration: _Calibration | None, scale: float) -> _WhatIf:
    """What-if figures at an accept length the question names."""
    if tau is None:
        return _WhatIf()
    tau = specdec.require_positive("accept length", tau)
    if tau < 1:
        return _WhatIf(tau)
    theoretical = specdec.theoretical_speedup(tau, overhead) * scale
    if calibration is None or base is None:
        return _WhatIf(tau, theoretical_speedup=theoretical)
    return _WhatIf(tau, specdec.calibrated_value(base, tau, calibration.k),
                   specdec.calibrated_speedup(tau, calibration.k), theoretical)


def _own_scale(report: SpeedupReport) -> float:
    """Own engine's baseline over the number to beat: a bound over the engine without speculation,
    restated against the number to beat (1 when they are the same record)."""
    if report.own_baseline_value and report.baseline_value:
        return report.own_baseline_value / report.baseline_value
    return 1.0


# -- words ------------------------------------------------------------------------------------
def _verdict(tau: float | None, k: float | None, calibrated: float | None,
             theoretical: float | None, measured: float | None) -> str:
    """One line: where the accept length stands against break-even, or what is missing."""
    if tau is not None and k is not None and calibrated is not None:
        side = "above" if tau >= k else "below"  # k: the break-even against the number to beat
        slower = " (slower than the baseline)" if tau < k else ""
        return (
            f"{side} break-even by {abs(tau - k):.2f} accept length; "
            f"calibrated {calibrated:.2f}x{slower}"
        )
    if theoretical is not None:
        return (
            f"theoretical {theoretical:.2f}x; no calibration point, so what "
            "this system delivers is unknown"
        )
    if measured is not None:
        return f"no live acceptance metrics; last measured {measured:.2f}x"
    return "not enough figures for a verdict"



def speedup_answer_lines(report: SpeedupReport) -> list[str]:
    """Plain-text lines for `ask "current speedup?"`: measured, live, theoretical, calibrated, verdict."""
    unit = report.unit
    lines = []
    if report.measured_speedup is not None:
        older = f" ({report.calibration_label})" if report.calibration_label else ""
        lines.append(
            f"Measured{older}: {fmt(report.calibration_value, 1)} {unit} at accept length "
            f"{report.calibration_accept_length:.2f} = {report.measured_speedup:.2f}x the number "
            f"to beat {fmt(report.calibration_baseline_value, 1)} {unit}{_own_figure(report)}"
            + (f" [{report.calibration_id}, {report.calibration_date}]"
               if report.calibration_id else "")
        )
    else:
        lines.append("Measured: no speculative benchmark to compare")
    if report.accept_length is not None:
        rates = f" from rates {', '.join(f'{a:.3f}' for a in report.acc)}" if report.acc else ""
        label = "Live" if report.live else "Acceptance"  # a finished run's rates are not live
        lines.append(f"{label}: accept length {report.accept_length:.2f}{rates} "
                     f"({report.acceptance_source})")
    else:
        lines.append("Live: no acceptance metrics")
    if report.theoretical_speedup is not None:
        value = (f" -> {fmt(report.baseline_value, 1)} x {report.theoretical_speedup:.2f} = "
                 f"{fmt(report.theoretical_value, 1)} {unit}"
                 if report.theoretical_value is not None else "")
        scale = _own_scale(report)
        over = (f" x own baseline {fmt(report.own_baseline_value, 1)} / "
                f"{fmt(report.baseline_value, 1)}" if scale != 1.0 else "")
        lines.append(
            f"Theoretical: {report.accept_length:.2f} / (1 + {report.draft_overhead:.3g}){over} = "
            f"{report.theoretical_speedup:.2f}x{value}"
        )
    if report.best_gamma is not None:
        lines.append(
            f"Draft length: best gamma {report.best_gamma} of {report.depth} "
            f"({report.best_gamma_speedup:.2f}x at c = {report.cost_per_draft_token:.3f} per token)"
        )
    if report.cost_factor is not None:
        spread = (f" (range {report.cost_factor_min:.2f}-{report.cost_factor_max:.2f} over "
                  f"{report.calibration_points} points)" if report.calibration_points > 1 else "")
        lines.append(
            f"Cost factor: k = {report.calibration_accept_length:g} x "
            f"{fmt(report.calibration_baseline_value, 1)} / {fmt(report.calibration_value, 1)} = "
            f"{report.cost_factor:.2f} = break-even accept length{spread}"
        )
    if report.calibrated_value is not None:
        lines.append(
            f"Calibrated: {fmt(report.baseline_value, 1)} x {report.accept_length:.2f} / "
            f"{report.cost_factor:.2f} = {fmt(report.calibrated_value, 1)} {unit} "
            f"({report.calibrated_speedup:.2f}x)"
        )
    lines.append(f"Verdict: {report.verdict}")
    return lines


def _own_figure(report: SpeedupReport) -> str:
    """`; 1.50x vllm's own baseline 40.0`: the same-engine figure, second and labelled."""
    if report.own_baseline_value is None or report.calibration_value is None:
        return ""
    own = report.calibration_value / report.own_baseline_value
    return (f"; {own:.2f}x {report.own_engine or 'its engine'}'s own baseline "
            f"{fmt(report.own_baseline_value, 1)} {report.unit}")


def _bound_line(label: str, speedup: float, value: float | None, report: SpeedupReport) -> str:
    """The theoretical bound with its value and the draft overhead it assumes, and its source."""
    shown = f" ≈ {fmt(value, 1)} {report.unit}" if value is not None else ""
    return (f"{label}{speedup:.2f}x{shown} with draft overhead {report.draft_overhead:g} "
            f"({report.draft_overhead_source})")


def lead_lines(report: SpeedupReport, *, breakeven: bool = False) -> list[str]:
    """What a speedup question asked for, first: a what-if accept length, break-even, or the
    projection from live acceptance (calibrated, then the theoretical bound and its overhead)."""
    unit, base = report.unit, report.baseline_value
    against = f" against {fmt(base, 1)} {unit}" if base is not None else ""
    lines = []
    tau = report.target_accept_length
    if tau is not None:
        if report.target_value is not None and report.target_speedup is not None:
            k = report.cost_factor
            enough = ("" if k is None else f" — enough: above break-even {k:.2f}" if tau >= k
                      else f" — not enough: below break-even {k:.2f}")
            lines.append(f"If accept length reaches {tau:.2f}: calibrated ≈ "
                         f"{fmt(report.target_value, 1)} {unit} ({report.target_speedup:.2f}x"
                         f"{against}, k = {report.cost_factor:.2f}){enough}")
        if report.target_theoretical_speedup is not None:
            speedup = report.target_theoretical_speedup
            lines.append(_bound_line("  theoretical bound ", speedup,
                                     base * speedup if base is not None else None, report))
        return lines
    if breakeven and report.breakeven_accept_length is not None:
        lines.append(f"Break-even accept length: {report.breakeven_accept_length:.2f} (below it "
                     f"speculation is slower than the baseline{against}; "
                     f"from {report.calibration_id or 'the calibration point'})")
        return lines
    if report.accept_length is None or not report.live:
        return lines
    from_where = f" ({report.acceptance_source})" if report.acceptance_source else ""
    if report.calibrated_speedup is not None:
        lines.append(f"Calibrated projection: {report.calibrated_speedup:.2f}x ≈ "
                     f"{fmt(report.calibrated_value, 1)} {unit}{against}, at accept length "
                     f"{report.accept_length:.2f}{from_where}")
    if report.theoretical_speedup is not None:
        lines.append(_bound_line("Theoretical bound: ", report.theoretical_speedup,
                                 report.theoretical_value, report))
    return lines


def projection_line(report: SpeedupReport, age: str) -> str:
    """One line: the projection from the live run, calibrated then bound, with source and age."""
    if report.accept_length is None:
        return "Projected: no live acceptance metrics (follow the training log)"
    against = f" against {fmt(report.baseline_value, 1)} {report.unit}" \
        if report.baseline_value is not None else ""
    parts = []
    if report.calibrated_speedup is not None:
        parts.append(f"calibrated {report.calibrated_speedup:.2f}x ≈ "
                     f"{fmt(report.calibrated_value, 1)} {report.unit}{against}")
    if report.theoretical_speedup is not None:
        parts.append(f"bound {report.theoretical_speedup:.2f}x (draft overhead "
                     f"{report.draft_overhead:g}, {report.draft_overhead_source})")
    label = "Projected from the live run" if report.live else "Projected from the last run"
    return (f"{label} ({report.acceptance_source}, {age}): accept length "
            f"{report.accept_length:.2f} → {'; '.join(parts) or 'no projection'}")
