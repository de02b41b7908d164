"""The speedup report: live acceptance, the number to beat and past measurements, put together.

`build_speedup_report` gathers its inputs (command-line values, a training snapshot or log, the
project memory), applies `sessiontui.project_memory.specdec`, and says where every figure came from and which
assumptions it needed. Figures it cannot compute stay None, with the reason in `assumptions`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

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


@dataclass
class SpeedupReport:
    """Every figure of a speedup answer, with its sources and the assumptions behind it."""

    metric: str = DEFAULT_METRIC
    unit: str = DEFAULT_UNIT
    accept_length: float | None = None
    acc: list[float] = field(default_factory=list)  # conditional rates behind accept_length
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
    assumptions: list[str] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready dict, the object `sessiontui speedup --json` prints."""
        return asdict(self)

    def projection_figures(self) -> dict[str, Any]:
        """The projection fields `ask --json` adds to its `figures`, under the same names."""
        data = self.to_dict()
        return {name: data[name] for name in PROJECTION_FIELDS}


@dataclass(frozen=True)
class _Point:
    """A speculative benchmark and the baseline of its own engine and conditions (None when the
    baseline value is given on the command line)."""

    record: Record
    baseline: Record | None
    accept_length: float  # the record's, known to be set
    value: float


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
    snapshot: Any = None,
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
    report = SpeedupReport(metric=metric)
    baselines = store.benchmarks(metric, baseline=True) if store else []
    results = store.benchmarks(metric, baseline=False, limit=RECENT) if store else []
    if conditions is None:
        conditions, why = default_conditions(results, metric)
        report.assumptions.append(why)
    report.conditions = conditions.text()
    points = _points(report, results, baselines, conditions, explicit=baseline_value is not None)
    _fill_baseline(report, baselines, baseline_value, conditions, points)
    point = _fill_calibration(report, points, bool(results), calibrate_accept, calibrate_value)
    _fill_acceptance(report, store, acc, acc_kind, simulated_acc_len, snapshot, depth, point)
    _fill_overhead(report, draft_overhead, point, draft_overhead_source or "the command line")
    _fill_projections(report)
    if accept_target is not None:
        _fill_target(report, accept_target)
    report.verdict = verdict(report)
    return report


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
def _fill_baseline(
    report: SpeedupReport,
    baselines: list[Record],
    explicit: float | None,
    conditions: Conditions,
    points: list[_Point],
) -> Record | None:
    """Set the baseline value: explicit, else the number to beat under the conditions (the
    reference rule: any engine), with the calibration point's own engine's baseline when it differs."""
    if explicit is not None:
        report.baseline_value = specdec.require_positive("baseline value", explicit)
        report.sources.append(f"baseline {explicit:g} from the command line")
        return None
    top = number_to_beat(baselines, conditions._replace(engine=None))
    if top is None:
        where = f" at {conditions.text()}" if baselines else " in the memory"
        report.assumptions.append(
            f"no baseline {report.metric} benchmark{where}: projected values and "
            "calibration need one (give --baseline-value)"
        )
        return None
    report.baseline_value, report.baseline_id = top.value, top.id
    report.unit = top.unit or report.unit
    report.sources.append(f"baseline {top.id} ({top.label}, {top.value:g} {report.unit}, "
                          f"{top.created_at[:10]}): the number to beat")
    own = points[0].baseline if points else None
    if own is not None and own.id != top.id and own.value:
        report.own_baseline_value, report.own_baseline_id = own.value, own.id
        report.own_engine = points[0].record.engine
        report.sources.append(f"{report.own_engine}'s own baseline {own.id} ({own.label}, "
                              f"{own.value:g} {report.unit}), shown second")
    return top


# -- calibration --------------------------------------------------------------------------------
def _conditions(record: Record) -> str:
    """The known conditions of a benchmark, e.g. `sglang, single stream`."""
    return Conditions.of(record).text()


def _points(
    report: SpeedupReport,
    results: list[Record],
    baselines: list[Record],
    conditions: Conditions,
    *,
    explicit: bool,
) -> list[_Point]:
    """Speculative results under the conditions (any engine), newest first, each with the
    baseline the reference rule gives it; results without one are left out, and said so."""
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
        report.assumptions.append(
            f"not used for calibration, no baseline under their conditions: "
            f"{', '.join(unmatched[:3])}{more}"
        )
    return points


def _fill_calibration(
    report: SpeedupReport,
    points: list[_Point],
    any_results: bool,
    explicit_accept: float | None,
    explicit_value: float | None,
) -> _Point | None:
    """Set the cost factor k against the report's baseline, from an explicit point, else from the
    newest speculative result under the conditions (with the spread over all of them)."""
    base = report.baseline_value
    if base is None:
        report.assumptions.append("no calibration: it needs a baseline value")
        return None
    if explicit_accept is not None and explicit_value is not None:
        k = specdec.cost_factor(explicit_accept, base, explicit_value)
        _set_calibration(report, k, [k], explicit_accept, explicit_value, base)
        report.sources.append(
            f"calibration point accept length {explicit_accept:g} at {explicit_value:g} from the "
            "command line"
        )
        return None
    usable: list[tuple[_Point, float]] = []
    for point in points:
        try:
            usable.append((point, specdec.cost_factor(point.accept_length, base, point.value)))
        except ValueError as exc:
            report.assumptions.append(f"{point.record.id} not used for calibration: {exc}")
    if not usable:
        elsewhere = any_results and not points
        report.assumptions.append(
            f"no calibration: no speculative result at {report.conditions} (record one there)"
            if elsewhere else
            f"no calibration: no speculative benchmark with an accept length among the {RECENT} "
            "newest results in the memory "
            "(record one, or give --calibrate-accept/--calibrate-value)"
        )
        return None
    chosen, k = usable[0]
    record = chosen.record
    _set_calibration(report, k, [k for _, k in usable], chosen.accept_length, chosen.value, base)
    report.calibration_id, report.calibration_date = record.id, record.created_at[:10]
    report.calibration_label = record.label
    report.sources.append(
        f"calibration {record.id} ({record.label}, accept length {record.accept_length:g}, "
        f"{record.value:g} {report.unit}, {record.created_at[:10]}) against baseline "
        f"{report.baseline_id or f'{base:g}'}"
    )
    if len(usable) > 1:
        report.assumptions.append(
            f"calibrated with the most recent of {len(usable)} comparable speculative "
            f"benchmarks; their cost factors range {report.cost_factor_min:.2f}"
            f"-{report.cost_factor_max:.2f}"
        )
    return chosen


def _set_calibration(
    report: SpeedupReport,
    k: float,
    spread: list[float],
    accept: float,
    value: float,
    base_value: float,
) -> None:
    """Record the calibration point, its cost factor and the spread over comparable points."""
    report.cost_factor = k
    report.breakeven_accept_length = specdec.breakeven_accept_length(k)
    report.cost_factor_min, report.cost_factor_max = min(spread), max(spread)
    report.calibration_points = len(spread)
    report.calibration_accept_length, report.calibration_value = accept, value
    report.calibration_baseline_value = base_value
    report.measured_speedup = value / base_value


# -- acceptance -------------------------------------------------------------------------------
def _simulated_acc_len(metrics: dict[str, Any]) -> float | None:
    """SpecForge's simulated_acc_len from a metrics dict, with or without an `eval/` prefix."""
    for key, value in metrics.items():
        if key.rsplit("/", 1)[-1] == "simulated_acc_len" and isinstance(value, int | float):
            return float(value)
    return None


_FULL_RATE_NAMES = ("eval_per_position_acc", "per_position_acc", "eval_acceptance_rate",
                    "acceptance_rate")
"""Per-position rates that logs print as unconditional ("full": all drafted tokens up to i
accepted), as opposed to SpecForge's conditional acc_i; preferred first."""


def _full_rates(metrics: dict[str, Any], conditional: list[float]) -> tuple[str, list[float]] | None:
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


def _set_rates(
    report: SpeedupReport, rates: list[float], kind: str, depth: int | None, point: _Point | None
) -> None:
    """Accept length from per-position rates at the requested (or the served) depth."""
    conditional = specdec.conditional_from_full(rates) if kind == "full" else list(rates)
    why, assumption = "", ""
    if depth is None:
        depth, why = _default_depth(point)
    if depth is not None:
        conditional, assumption = specdec.at_depth(conditional, depth)
    tau = specdec.tau_from_conditional(conditional)  # validates before anything is set
    if assumption:
        report.assumptions.append(f"{why}; {assumption}" if why else assumption)
    report.acc, report.depth, report.accept_length = conditional, len(conditional), tau


def _fill_acceptance(
    report: SpeedupReport,
    store: Store | None,
    acc: list[float] | None,
    acc_kind: str,
    simulated_acc_len: float | None,
    snapshot: Any,
    depth: int | None,
    point: _Point | None,
) -> None:
    """Set the accept length: explicit rates or simulated_acc_len, else live, else the last run."""
    if acc is not None:
        _set_rates(report, acc, acc_kind, depth, point)
        report.acceptance_source = f"{acc_kind} rates from the command line"
    elif simulated_acc_len is not None:
        _set_tau_only(report, specdec.tau_from_simulated_acc_len(simulated_acc_len), depth,
                      "simulated_acc_len from the command line (+1 bonus token)")
    elif snapshot is not None:
        _from_snapshot(report, snapshot, depth, point)
    elif store is not None:
        _from_last_run(report, store, depth, point)
    if report.acceptance_source:
        report.sources.append(f"accept length: {report.acceptance_source}")
    else:
        report.assumptions.append(
            "no acceptance metrics (give --acc, --simulated-acc-len or --log): no projection"
        )


def _set_tau_only(report: SpeedupReport, tau: float, depth: int | None, source: str) -> None:
    """Accept length known without per-position rates: depth and draft length cannot be chosen."""
    report.accept_length, report.acceptance_source = tau, source
    if depth is not None:
        report.assumptions.append(f"depth {depth} ignored: needs per-position rates")


def _from_snapshot(report: SpeedupReport, snapshot: Any, depth: int | None, point: _Point | None
                   ) -> None:
    """Accept length from a training snapshot's rates or its simulated_acc_len."""
    source = f"training log {getattr(snapshot, 'source', '?')}"
    step = getattr(snapshot, "step", None)
    rates = list(getattr(snapshot, "acc", ()) or ())
    metrics = getattr(snapshot, "metrics", {}) or {}
    simulated = _simulated_acc_len(metrics)
    full = _full_rates(metrics, rates)
    try:
        if full:
            name, values = full
            _set_rates(report, values, "full", depth, point)
            report.acceptance_source = f"full per-position rates {name}_i of {source}"
        elif rates:
            _set_rates(report, rates, "conditional", depth, point)
            report.acceptance_source = f"conditional acc_i of {source}"
        elif simulated is not None:
            _set_tau_only(report, specdec.tau_from_simulated_acc_len(simulated), depth,
                          f"simulated_acc_len of {source} (+1 bonus token)")
        else:
            report.assumptions.append(f"{source} has no acceptance metrics yet")
            return
    except ValueError as exc:
        report.assumptions.append(f"acceptance metrics of {source} not usable: {exc}")
        return
    report.step, report.live = step, True
    updated = getattr(snapshot, "last_update", None)
    if isinstance(updated, int | float):
        report.acceptance_at = datetime.fromtimestamp(updated, UTC).isoformat(timespec="seconds")
    if step is not None:
        report.acceptance_source = f"{report.acceptance_source} at step {step}"


def _from_last_run(
    report: SpeedupReport, store: Store, depth: int | None, point: _Point | None
) -> None:
    """Accept length from the newest run record that remembers per-position rates."""
    run = next((r for r in store.list("run", limit=RECENT) if r.acc), None)
    if run is None:
        return
    try:
        _set_rates(report, run.acc, "conditional", depth, point)
    except ValueError as exc:
        report.assumptions.append(f"acceptance rates of run {run.id} not usable: {exc}")
        return
    report.step, report.live = run.step, run.status in _TRAINING
    report.acceptance_at = run.last_update or run.updated_at
    report.acceptance_source = (
        f"conditional acc of run {run.id} ({run.label}) at step {run.step}, updated "
        f"{(run.last_update or run.updated_at)[:16]}"
    )


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


def _fill_overhead(
    report: SpeedupReport, explicit: float | None, point: _Point | None, source: str
) -> None:
    """Set the draft overhead: explicit, else measured from stored latencies, else the default."""
    if explicit is not None:
        report.draft_overhead = specdec.require_overhead(explicit)
        report.draft_overhead_source = source
        report.sources.append(f"draft overhead {explicit:g} from {source}")
        return
    pair = _tpot_pair(point) if point else None
    if point is not None and pair:
        name, spec, base = pair
        try:
            report.draft_overhead = specdec.overhead_from_step_latencies(
                point.accept_length, spec, base
            )
        except ValueError as exc:
            report.assumptions.append(f"overhead not measured from {name}: {exc}")
        else:
            report.assumptions.append(
                f"draft overhead {report.draft_overhead:.3f} = accept length x {name} / baseline "
                f"{name} - 1 = {point.accept_length:g} x {spec:g} / {base:g} - 1 "
                f"({point.record.id} vs {point.baseline.id if point.baseline else 'its baseline'}); "
                "it counts verification as overhead"
            )
            report.draft_overhead_source = f"measured from {name} of {point.record.id}"
            return
    report.draft_overhead = DEFAULT_DRAFT_OVERHEAD
    report.draft_overhead_source = "the default (set draft_overhead in sessiontui.toml)"
    report.assumptions.append(
        f"draft overhead assumed {DEFAULT_DRAFT_OVERHEAD:g} (not given, and no "
        f"{'/'.join(TPOT_FIGURES)} on both the calibration benchmark and its baseline)"
    )


def _fill_projections(report: SpeedupReport) -> None:
    """Theoretical, per-draft-token and calibrated projections from what is known."""
    tau, overhead = report.accept_length, report.draft_overhead
    if tau is None or overhead is None:
        return
    report.theoretical_speedup = specdec.theoretical_speedup(tau, overhead) * _own_scale(report)
    if report.baseline_value is not None:
        report.theoretical_value = specdec.projected_value(
            report.baseline_value, report.theoretical_speedup
        )
    if report.acc:
        report.cost_per_draft_token = overhead / len(report.acc)
        report.best_gamma, report.best_gamma_speedup = specdec.best_gamma(
            report.acc, report.cost_per_draft_token
        )
        report.assumptions.append(
            f"per-draft-token cost c = overhead / depth = {overhead:.3g} / {len(report.acc)}"
        )
    else:
        report.assumptions.append("no best draft length: it needs per-position rates")
    if report.cost_factor is not None and report.baseline_value is not None:
        report.calibrated_speedup = specdec.calibrated_speedup(tau, report.cost_factor)
        report.calibrated_value = specdec.calibrated_value(
            report.baseline_value, tau, report.cost_factor
        )


def _own_scale(report: SpeedupReport) -> float:
    """Own engine's baseline over the number to beat: a bound over the engine without speculation,
    restated against the number to beat (1 when they are the same record)."""
    if report.own_baseline_value and report.baseline_value:
        return report.own_baseline_value / report.baseline_value
    return 1.0


def _fill_target(report: SpeedupReport, tau: float) -> None:
    """What-if figures at an accept length the question names."""
    tau = specdec.require_positive("accept length", tau)
    report.target_accept_length = tau
    if report.draft_overhead is not None and tau >= 1:
        report.target_theoretical_speedup = specdec.theoretical_speedup(
            tau, report.draft_overhead) * _own_scale(report)
    if report.cost_factor is not None and report.baseline_value is not None and tau >= 1:
        report.target_speedup = specdec.calibrated_speedup(tau, report.cost_factor)
        report.target_value = specdec.calibrated_value(report.baseline_value, tau, report.cost_factor)


# -- words ------------------------------------------------------------------------------------
def verdict(report: SpeedupReport) -> str:
    """One line: where the live accept length stands against break-even, or what is missing."""
    tau, k = report.accept_length, report.cost_factor
    if tau is not None and k is not None and report.calibrated_speedup is not None:
        side = "above" if tau >= k else "below"  # k: the break-even against the number to beat
        slower = " (slower than the baseline)" if tau < k else ""
        return (
            f"{side} break-even by {abs(tau - k):.2f} accept length; "
            f"calibrated {report.calibrated_speedup:.2f}x{slower}"
        )
    if report.theoretical_speedup is not None:
        return (
            f"theoretical {report.theoretical_speedup:.2f}x; no calibration point, so what "
            "this system delivers is unknown"
        )
    if report.measured_speedup is not None:
        return f"no live acceptance metrics; last measured {report.measured_speedup:.2f}x"
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
        if report.target_value is not None:
            lines.append(f"If accept length reaches {tau:.2f}: calibrated ≈ "
                         f"{fmt(report.target_value, 1)} {unit} ({report.target_speedup:.2f}x"
                         f"{against}, k = {report.cost_factor:.2f})")
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
