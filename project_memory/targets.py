"""Project targets ("beat 90 tok/s single stream", "accept length >= 3.0") and where each stands.

A target is a record of kind `target`: a metric, a threshold (`value`) and the conditions it holds
at. Its status compares the threshold with the best measured result at those conditions, with the
projection from the live drafter, and, for a running drafter, with the projection at the end of
training (`forecast`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sessiontui.project_memory.records import DEFAULT_METRIC, Record
from sessiontui.project_memory.reference import (
    Conditions,
    best,
    compare,
    lower_is_better,
    matches,
)

if TYPE_CHECKING:
    from sessiontui.project_memory.forecast import Forecast
    from sessiontui.project_memory.live import LiveRun
    from sessiontui.project_memory.speedup import SpeedupReport
    from sessiontui.project_memory.store import Store

ACCEPT_LENGTH = "accept_length"
SPEEDUP = "speedup"
# A threshold as typed: signed, with thousands separators or an exponent (1,000; -5; 1e3), so a
# figure is never read in part; validation then judges it.
_NUMBER = re.compile(r"(?<![\d.,])([-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:e[-+]?\d+)?)", re.I)
_METRICS = (  # (pattern naming the metric, metric, unit)
    (r"accept(?:ance)?[\s_-]*len(?:gth)?|\bacc[\s_-]*len\b|\btau\b|\bAL\b|τ", ACCEPT_LENGTH, "tok/step"),
    (r"\d\s*x\b|speed[\s-]*up|×", SPEEDUP, "x"),
    (r"total[\s_-]*(?:token[\s_-]*)?throughput|total[\s_-]*tok", "total_tok_s", "tok/s"),
    (r"tok(?:en)?s?\s*/\s*s|tok/s|tps|throughput", DEFAULT_METRIC, "tok/s"),
    (r"\bttft\b", "ttft_ms_median", "ms"),
    (r"\btpot\b", "tpot_ms_median", "ms"),
    (r"\bitl\b", "itl_ms_median", "ms"),
)
_SINGLE_STREAM = re.compile(r"single[\s-]*stream|\bbs\s*=?\s*1\b|\bc\s*=\s*1\b", re.I)
_CONCURRENCY = re.compile(r"\b(?:c|concurrency)\s*=?\s*(\d+)\b|\bat\s+(\d+)\s+concurren", re.I)


def parse_target(text: str) -> Record:
    """A target record from a phrase; ValueError says what the phrase lacks."""
    metric = unit = None
    for pattern, name, name_unit in _METRICS:
        if re.search(pattern, text, re.I):
            metric, unit = name, name_unit
            break
    numbers = [float(n.replace(",", "")) for n in _NUMBER.findall(
        _SINGLE_STREAM.sub(" ", _CONCURRENCY.sub(" ", text)))]  # bs1, c=8: conditions, not thresholds
    if metric is None:
        raise ValueError(f"no metric in {text!r}: name one (tok/s, speedup 1.3x, accept length, ttft ms)")
    if not numbers:
        raise ValueError(f"no threshold in {text!r}: give the number to reach")
    concurrency = 1 if _SINGLE_STREAM.search(text) else None
    if found := _CONCURRENCY.search(text):
        concurrency = int(found.group(1) or found.group(2))
    return Record("target", title=text.strip(), metric=metric, value=numbers[0], unit=unit,
                  concurrency=concurrency if metric != ACCEPT_LENGTH else None)


def is_met(metric: str, value: float, threshold: float) -> bool:
    """Whether `value` reaches the threshold, in the metric's own direction."""
    return value <= threshold if lower_is_better(metric) else value >= threshold


def shown(metric: str, value: float) -> str:
    """A figure in the metric's own form: 1.30x, accept length 2.95, 82.3 tok/s, 180.0 ms."""
    if metric == SPEEDUP:
        return f"{value:.2f}x"
    if metric == ACCEPT_LENGTH:
        return f"{value:.2f}"
    return f"{value:.1f} {'ms' if metric.endswith('_ms_median') else 'tok/s'}"


def _gap(metric: str, value: float, threshold: float) -> str:
    if is_met(metric, value, threshold):
        return "met"
    return f"{shown(metric, abs(threshold - value))} to go"


def measured(target: Record, records: Sequence[Record]) -> float | None:
    """Where a target stands from the stored records alone: the best result at its conditions
    (tok/s and latency targets), the best result over its number to beat (speedup targets), the
    latest run's accept length (accept-length targets)."""
    if target.metric == ACCEPT_LENGTH:
        runs = sorted((r for r in records if r.kind == "run" and r.accept_length is not None),
                      key=lambda r: r.last_update or r.created_at)
        return runs[-1].accept_length if runs else None
    benchmarks = [r for r in records if r.kind == "benchmark" and r.status != "failed"]
    results = [r for r in benchmarks if not r.baseline]
    if target.metric != SPEEDUP:
        found = _best_result(target, [r for r in results if r.metric == target.metric])
        return found.value if found is not None else None
    ratios = []
    conditions = conditions_of(target)
    for result in results:
        if conditions is not None and not matches(result, conditions):
            continue
        speedup = compare(result, benchmarks).speedup
        if speedup is not None:
            ratios.append(speedup)
    return max(ratios, default=None)


def distance_text(target: Record, current: float | None) -> str:
    """`met`, `7.7 tok/s to go`, or `not measured` for a list's one cell."""
    if current is None or target.value is None:
        return "not measured"
    return _gap(target.metric or DEFAULT_METRIC, current, target.value)


def threshold_text(target: Record) -> str:
    """The threshold with its direction: `≥ 90.0 tok/s`, `≥ 3.00`, `≤ 200.0 ms`."""
    metric = target.metric or DEFAULT_METRIC
    sign = "≤" if lower_is_better(metric) else "≥"
    return f"{sign} {shown(metric, target.value)}" if target.value is not None else ""


@dataclass
class TargetStatus:
    """Where one target stands: measured, projected now, projected at the end of training."""

    target: Record
    current: float | None = None
    current_source: str = ""
    projected: float | None = None  # from the live drafter now
    projected_end: float | None = None  # at the end of training, from the forecast
    projected_band: tuple[float, float] | None = None
    lines: list[str] = field(default_factory=list)

    @property
    def met(self) -> bool:
        threshold = self.target.value
        return (self.current is not None and threshold is not None
                and is_met(self.target.metric or DEFAULT_METRIC, self.current, threshold))

    def summary(self) -> str:
        """One line: the target, its distance, and whether the projection clears it."""
        target = self.target
        metric, threshold = target.metric or DEFAULT_METRIC, target.value or 0.0
        now = (f"{shown(metric, self.current)} ({_gap(metric, self.current, threshold)})"
               if self.current is not None else "not measured yet")
        text = f"{target.title or target.id}: now {now}"
        if self.projected is not None:
            clears = "clears it" if is_met(metric, self.projected, threshold) else "falls short"
            text += f"; the live drafter projects {shown(metric, self.projected)}, which {clears}"
        if self.projected_end is not None and self.projected_band is not None:
            lo, hi = self.projected_band
            text += (f"; at the end of training {shown(metric, self.projected_end)} "
                     f"({shown(metric, lo)} to {shown(metric, hi)})")
        return text


def conditions_of(target: Record) -> Conditions | None:
    """The conditions a target holds at, in the reference rule's terms; None when it names none."""
    if all(getattr(target, name) is None for name in ("concurrency", "batch_size", "model", "engine")):
        return None
    metric = target.metric or DEFAULT_METRIC
    return Conditions(DEFAULT_METRIC if metric in (SPEEDUP, ACCEPT_LENGTH) else metric,
                      target.concurrency, target.batch_size, target.model, target.engine)


def _best_result(target: Record, results: Sequence[Record]) -> Record | None:
    conditions = conditions_of(target)
    matching = [r for r in results if conditions is None or matches(r, conditions)]
    return best(matching, target.metric or DEFAULT_METRIC)


def target_status(target: Record, store: Store | None, report: SpeedupReport | None = None,
                  forecast: Forecast | None = None, live_accept_length: float | None = None
                  ) -> TargetStatus:
    """The status of one target from the memory, the live speedup report and the forecast."""
    status = TargetStatus(target)
    metric, threshold = target.metric or DEFAULT_METRIC, target.value
    if threshold is None:
        return status
    if metric == ACCEPT_LENGTH:
        from sessiontui.project_memory.forecast import reach_verdict

        status.current, status.current_source = live_accept_length, "the followed run now"
        if forecast is not None:
            status.lines.append(reach_verdict(forecast, threshold))
            if forecast.ok and forecast.at_end is not None and forecast.low is not None \
                    and forecast.high is not None:
                status.projected_end = forecast.at_end
                status.projected_band = (forecast.low, forecast.high)
        return status
    results = store.benchmarks(DEFAULT_METRIC if metric == SPEEDUP else metric, baseline=False) \
        if store is not None else []
    best = _best_result(target, results)
    if metric != SPEEDUP and best is not None and best.value is not None:
        status.current, status.current_source = best.value, f"{best.config or best.id} ({best.id})"
    if report is None:
        return status
    if metric == SPEEDUP:
        status.current = report.measured_speedup
        status.current_source = "the last measured speedup"
    projected_now, factor = _projection(report, metric)
    status.projected = projected_now
    if forecast is not None and forecast.ok and factor is not None and forecast.at_end is not None \
            and forecast.low is not None and forecast.high is not None:
        status.projected_end = factor * forecast.at_end
        status.projected_band = (factor * forecast.low, factor * forecast.high)
    return status


def _projection(report: SpeedupReport, metric: str) -> tuple[float | None, float | None]:
    """The live projection for a speedup or throughput target, and what one unit of accept length
    is worth in that metric (so an accept length at the end of training converts alike)."""
    if report.cost_factor is None or report.accept_length is None:
        return None, None
    per_tau = 1.0 / report.cost_factor
    if metric == SPEEDUP:
        return report.calibrated_speedup, per_tau
    if metric == report.metric and report.baseline_value is not None:
        return report.calibrated_value, report.baseline_value * per_tau
    return None, None


def decision_line(report: SpeedupReport, forecast: Forecast, hours_left: float | None) -> str:
    """Decision help: for which targets the rest of the training run is worth its time."""
    from sessiontui.project_memory import specdec

    k, tau = report.cost_factor, report.accept_length
    if k is None or tau is None or not forecast.ok or forecast.high is None or forecast.at_end is None:
        return ""
    now, end, best = (specdec.calibrated_speedup(t, k) for t in (tau, forecast.at_end, forecast.high))
    left = f"the remaining {hours_left:.1f} h of training" if hours_left else "the rest of training"
    if end <= now * 1.01:
        return (f"The drafter has levelled off (≈{now:.2f}x now, ≈{end:.2f}x projected at the end): "
                f"{left} is unlikely to change the verdict.")
    return (f"≈{now:.2f}x now, ≈{end:.2f}x projected at the end (at best ≈{best:.2f}x): {left} is "
            f"worth it if your target is above ~{now:.2f}x; a target above ~{best:.2f}x needs more "
            f"than this run.")


def live_forecast(snapshot: LiveRun | None) -> Forecast | None:
    """The accept-length forecast of a followed run's snapshot (None without a run)."""
    from sessiontui.project_memory.forecast import forecast, tau_history  # a fit costs: only then

    if snapshot is None:
        return None
    return forecast(tau_history(snapshot.history), snapshot.total_steps)


def all_statuses(store: Store, snapshot: LiveRun | None = None,
                 draft_overhead: float | None = None) -> list[TargetStatus]:
    """Every stored target's status, against the memory and the followed run (if any)."""
    from sessiontui.project_memory.speedup import build_speedup_report

    targets = store.list(kind="target")
    if not targets:
        return []
    ahead = live_forecast(snapshot)
    statuses = []
    for target in targets:
        report = build_speedup_report(store, snapshot=snapshot, draft_overhead=draft_overhead,
                                      conditions=conditions_of(target))
        statuses.append(target_status(target, store, report, ahead, report.accept_length))
    return statuses
