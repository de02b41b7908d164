"""Targets: parsed from a phrase, measured against the memory, projected from the live drafter."""

from __future__ import annotations

import math
import random

import pytest

from sessiontui.project_memory.forecast import forecast
from sessiontui.project_memory.records import Record, RecordError
from sessiontui.project_memory.speedup import build_speedup_report
from sessiontui.project_memory.store import Store
from sessiontui.project_memory.targets import (
    conditions_of,
    decision_line,
    parse_target,
    target_status,
)


@pytest.mark.parametrize(("text", "metric", "value", "concurrency"), [
    ("beat 90 tok/s single stream", "output_tok_s", 90.0, 1),
    ("110 tok/s at c=8", "output_tok_s", 110.0, 8),
    ("accept length >= 3.0", "accept_length", 3.0, None),
    ("AL 3.2", "accept_length", 3.2, None),
    ("tau ≥ 2.8 by the end", "accept_length", 2.8, None),
    ("1.3x speedup bs1", "speedup", 1.3, 1),
    ("speedup of 1.5 at concurrency 4", "speedup", 1.5, 4),
    ("ttft under 200 ms", "ttft_ms_median", 200.0, None),
    ("total throughput 1500 c=32", "total_tok_s", 1500.0, 32),
    ("beat 1,000 tok/s", "output_tok_s", 1000.0, None),  # was read as 1
    ("bs1 beat 90 tok/s", "output_tok_s", 90.0, 1),  # a condition, not the threshold
    ("beat -5 tok/s", "output_tok_s", -5.0, None),  # the sign kept: validation refuses it
    ("beat 1e308 tok/s", "output_tok_s", 1e308, None),  # was read as 1
])
def test_phrases_become_targets(text, metric, value, concurrency) -> None:
    target = parse_target(text)
    assert (target.kind, target.metric, target.value, target.concurrency) == (
        "target", metric, value, concurrency)
    assert target.title == text


@pytest.mark.parametrize("text", ["make it faster", "tok/s please"])
def test_phrases_without_metric_or_number_are_refused(text) -> None:
    with pytest.raises(ValueError):
        parse_target(text)


@pytest.mark.parametrize("text", ["beat -5 tok/s", "beat 1e308 tok/s", "accept length 1e400",
                                  "accept length 0.5"])
def test_implausible_thresholds_are_refused_not_stored_in_part(store: Store, text: str) -> None:
    with pytest.raises(RecordError):
        store.add(parse_target(text))
    assert store.count() == 0


@pytest.fixture
def memory(store: Store) -> Store:
    store.add_all([
        Record("benchmark", config="SGLang baseline", value=90.0, baseline=True, concurrency=1),
        Record("benchmark", config="SGLang + EAGLE3 10K", value=82.3, accept_length=2.1, concurrency=1),
        Record("benchmark", config="EAGLE3 c=32", value=1300.0, concurrency=32),
    ])
    return store


def test_throughput_target_against_measured_and_projected(memory: Store) -> None:
    target = parse_target("beat 90 tok/s single stream")
    report = build_speedup_report(memory, acc=[0.742, 0.47, 0.29, 0.15, 0.097], acc_kind="full",
                                  conditions=conditions_of(target))
    status = target_status(target, memory, report)
    assert status.current == 82.3 and not status.met  # the c=32 result is other conditions
    assert status.projected == pytest.approx(report.calibrated_value)
    assert "7.7 tok/s to go" in status.summary() and "which clears it" in status.summary()


def test_speedup_target_uses_the_measured_ratio(memory: Store) -> None:
    target = parse_target("1.3x speedup bs1")
    report = build_speedup_report(memory, acc=[0.742, 0.47, 0.29, 0.15, 0.097], acc_kind="full",
                                  conditions=conditions_of(target))
    status = target_status(target, memory, report)
    assert status.current == pytest.approx(82.3 / 90.0, abs=1e-3)
    assert "falls short" in status.summary() or "clears it" in status.summary()


def test_accept_length_target_with_a_forecast() -> None:
    rng = random.Random(1)
    series = [(s, 3.2 - 1.8 * math.exp(-s / 2500) + rng.gauss(0, 0.03)) for s in range(50, 7201, 50)]
    ahead = forecast(series, 12000)
    status = target_status(parse_target("accept length 3.0"), None, None, ahead, 2.95)
    assert status.current == 2.95 and not status.met
    assert status.lines[0].startswith("likely")
    assert status.projected_band is not None and status.projected_band[0] <= 3.2 <= status.projected_band[1]


def test_decision_line_names_the_worthwhile_range(memory: Store) -> None:
    rng = random.Random(1)
    series = [(s, 3.2 - 1.8 * math.exp(-s / 2500) + rng.gauss(0, 0.03)) for s in range(50, 7201, 50)]
    ahead = forecast(series, 12000)
    report = build_speedup_report(memory, acc=[0.742, 0.47, 0.29, 0.15, 0.097], acc_kind="full",
                                  conditions=conditions_of(parse_target("90 tok/s single stream")))
    line = decision_line(report, ahead, 9.5)
    assert "the remaining 9.5 h of training is worth it if your target is above" in line


def test_where_a_target_stands_from_the_records_alone(memory: Store) -> None:
    from sessiontui.project_memory.targets import distance_text, measured, threshold_text

    records = memory.list()
    throughput = parse_target("beat 90 tok/s single stream")
    assert measured(throughput, records) == 82.3
    assert (threshold_text(throughput), distance_text(throughput, 82.3)) == ("≥ 90.0 tok/s",
                                                                           "7.7 tok/s to go")
    speedup = parse_target("1.3x speedup")
    assert measured(speedup, records) == pytest.approx(82.3 / 90.0)
    run = Record("run", name="drafter", accept_length=3.1, last_update="2026-11-30T10:00:00+00:00")
    tau = parse_target("accept length 3.0")
    assert measured(tau, [*records, run]) == 3.1 and distance_text(tau, 3.1) == "met"
    assert distance_text(parse_target("ttft under 200 ms"), None) == "not measured"
    assert threshold_text(parse_target("ttft under 200 ms")) == "≤ 200.0 ms"
