"""The speedup report: inputs gathered from arguments, a training snapshot and the memory."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from sessiontui.project_memory.records import Record
from sessiontui.project_memory.reference import Conditions
from sessiontui.project_memory.speedup import (
    DEFAULT_DRAFT_OVERHEAD,
    build_speedup_report,
    speedup_answer_lines,
)
from sessiontui.project_memory.store import Store


@dataclass(frozen=True)
class Snapshot:
    """The fields of `sessiontui.collectors.trainlog.TrainSnapshot` the report reads."""

    acc: tuple[float, ...] = ()
    metrics: dict[str, float] = field(default_factory=dict)
    source: str = "train.log"
    step: int | None = None
    last_update: float | None = None


def bench(store: Store, value: float, *, when: str, baseline: bool = False, **fields) -> Record:
    """Store a benchmark with a fixed creation time (ordering matters for calibration)."""
    fields.setdefault("engine", "sglang")
    fields.setdefault("concurrency", 1)
    return store.add(Record(kind="benchmark", config=f"cfg {value}", value=value,
                            baseline=baseline, created_at=when, **fields))


@pytest.fixture
def worked(store: Store) -> Store:
    """The issue's worked example: baseline 50 tok/s, a drafter that measured 1.8 at 40 tok/s."""
    bench(store, 50, baseline=True, when="2026-01-01T00:00:00+00:00")
    bench(store, 40, accept_length=1.8, when="2026-01-02T00:00:00+00:00")
    return store


def test_worked_example_from_the_memory(worked: Store) -> None:
    report = build_speedup_report(worked, simulated_acc_len=1.4, draft_overhead=0.10)
    assert report.accept_length == pytest.approx(2.40)
    assert round(report.theoretical_speedup, 2) == 2.18
    assert round(report.theoretical_value, 1) == 109.1
    assert report.cost_factor == pytest.approx(2.25)
    assert report.breakeven_accept_length == pytest.approx(2.25)
    assert round(report.calibrated_value, 1) == 53.3
    assert round(report.calibrated_speedup, 2) == 1.07
    assert report.measured_speedup == pytest.approx(0.8)
    assert report.baseline_value == 50 and report.calibration_date == "2026-01-02"
    assert report.verdict == "above break-even by 0.15 accept length; calibrated 1.07x"
    assert any(report.baseline_id in s for s in report.sources)
    assert any(report.calibration_id in s for s in report.sources)


def test_below_break_even_says_slower(worked: Store) -> None:
    report = build_speedup_report(worked, simulated_acc_len=1.0, draft_overhead=0.1)
    assert report.verdict.startswith("below break-even by 0.25")
    assert "slower than the baseline" in report.verdict


def test_nothing_known_gives_nulls_with_reasons() -> None:
    report = build_speedup_report(None)
    data = report.to_dict()
    for key in ("accept_length", "theoretical_speedup", "theoretical_value", "calibrated_speedup",
                "calibrated_value", "breakeven_accept_length", "cost_factor", "baseline_value"):
        assert data[key] is None
    reasons = " ".join(report.assumptions)
    assert "no baseline" in reasons and "no acceptance metrics" in reasons
    assert report.verdict == "not enough figures for a verdict"


def test_everything_from_arguments_without_a_store() -> None:
    report = build_speedup_report(None, acc=[0.8, 0.6, 0.5], baseline_value=50,
                                  calibrate_accept=1.8, calibrate_value=40, draft_overhead=0.3)
    assert report.accept_length == pytest.approx(2.52)
    assert report.calibrated_value == pytest.approx(50 * 2.52 / 2.25)
    # Leviathan with c = 0.3 / 3 = 0.1: gamma 3 gives 2.52 / 1.3
    assert report.best_gamma == 3 and report.best_gamma_speedup == pytest.approx(2.52 / 1.3)


def test_full_rates_are_converted() -> None:
    report = build_speedup_report(None, acc=[0.75, 0.5, 0.25], acc_kind="full")
    assert report.accept_length == pytest.approx(2.5)
    assert report.acc == pytest.approx([0.75, 2 / 3, 0.5])


@pytest.mark.parametrize(
    "kwargs",
    [
        {"acc": [0.8], "simulated_acc_len": 1.0},
        {"calibrate_accept": 1.8},
        {"acc": [1.5]},
        {"acc": [0.5], "acc_kind": "cumulative"},
        {"baseline_value": -3},
        {"draft_overhead": -0.1},
        {"metric": "ttft_ms"},
    ],
)
def test_bad_explicit_inputs_raise_value_error(kwargs) -> None:
    with pytest.raises(ValueError):
        build_speedup_report(None, **kwargs)


def test_calibration_prefers_same_conditions_and_reports_spread(store: Store) -> None:
    bench(store, 50, baseline=True, when="2026-01-01T00:00:00+00:00")
    bench(store, 400, baseline=True, concurrency=32, when="2026-01-01T01:00:00+00:00")
    older = bench(store, 45, accept_length=2.0, when="2026-01-02T00:00:00+00:00")  # k = 2.22
    newer = bench(store, 40, accept_length=1.8, when="2026-01-03T00:00:00+00:00")  # k = 2.25
    bench(store, 300, accept_length=1.5, concurrency=32, when="2026-01-04T00:00:00+00:00")
    report = build_speedup_report(store, simulated_acc_len=1.4)
    # the number to beat is the 400 tok/s baseline at c=32, and the newest point matches it
    assert report.baseline_value == 400 and report.cost_factor == pytest.approx(1.5 * 400 / 300)
    # without the c=32 baseline, the newest c=1 point calibrates, with the spread of both
    store.delete(report.baseline_id)
    store.delete(report.calibration_id)
    report = build_speedup_report(store, simulated_acc_len=1.4)
    assert report.calibration_id == newer.id and report.cost_factor == pytest.approx(2.25)
    assert report.calibration_points == 2
    assert report.cost_factor_min == pytest.approx(2.0 * 50 / 45)
    assert report.cost_factor_max == pytest.approx(2.25)
    assert any("range 2.22-2.25" in a for a in report.assumptions)
    assert older.id != report.calibration_id


def test_conditions_decide_the_number_to_beat(store: Store) -> None:
    bench(store, 400, baseline=True, concurrency=32, when="2026-01-01T00:00:00+00:00")
    bench(store, 50, baseline=True, when="2026-01-01T01:00:00+00:00")
    bench(store, 40, accept_length=1.8, when="2026-01-02T00:00:00+00:00")
    report = build_speedup_report(store, simulated_acc_len=1.4)
    # no conditions named: those of the latest result (c=1), never the c=32 baseline
    assert report.baseline_value == 50 and report.cost_factor == pytest.approx(2.25)
    assert report.calibrated_value == pytest.approx(50 * 2.4 / 2.25)
    assert any("latest result" in a for a in report.assumptions)
    # at c=32 there is no speculative result: no calibration, and the report says so
    report = build_speedup_report(store, simulated_acc_len=1.4, conditions=Conditions(concurrency=32))
    assert report.baseline_value == 400 and report.cost_factor is None
    assert report.calibrated_value is None
    assert any("no speculative result at c=32" in a for a in report.assumptions)


def test_another_engine_is_compared_with_the_number_to_beat(store: Store) -> None:
    bench(store, 50, baseline=True, when="2026-01-01T00:00:00+00:00")
    bench(store, 60, accept_length=1.8, engine="vllm", when="2026-01-02T00:00:00+00:00")
    report = build_speedup_report(store, simulated_acc_len=1.4)
    assert report.measured_speedup == pytest.approx(1.2) and report.baseline_value == 50


def test_point_without_a_comparable_baseline_is_skipped(store: Store) -> None:
    bench(store, 50, baseline=True, model="m-a", when="2026-01-01T00:00:00+00:00")
    odd = bench(store, 40, accept_length=1.8, model="m-b", when="2026-01-02T00:00:00+00:00")
    report = build_speedup_report(store, simulated_acc_len=1.4)
    assert report.cost_factor is None
    assert any(odd.id in a and "no baseline under their conditions" in a
               for a in report.assumptions)


def test_overhead_measured_from_time_per_output_token(store: Store) -> None:
    bench(store, 50, baseline=True, figures={"tpot_ms_median": 10.0},
          when="2026-01-01T00:00:00+00:00")
    bench(store, 80, accept_length=2.0, figures={"tpot_ms_median": 6.0},
          when="2026-01-02T00:00:00+00:00")
    report = build_speedup_report(store, simulated_acc_len=1.4)
    assert report.draft_overhead == pytest.approx(0.2)  # 2.0 x 6 / 10 - 1
    assert report.theoretical_speedup == pytest.approx(2.4 / 1.2)
    assert any("2 x 6 / 10 - 1" in a for a in report.assumptions)


def test_default_overhead_is_stated(worked: Store) -> None:
    report = build_speedup_report(worked, simulated_acc_len=1.4)
    assert report.draft_overhead == DEFAULT_DRAFT_OVERHEAD
    assert any("assumed 0.1" in a for a in report.assumptions)


def test_live_rates_from_snapshot_at_the_served_depth(store: Store) -> None:
    bench(store, 50, baseline=True, when="2026-01-01T00:00:00+00:00")
    bench(store, 40, accept_length=1.8, num_steps=2, when="2026-01-02T00:00:00+00:00")
    snap = Snapshot(acc=(0.8, 0.6, 0.5), source="/runs/eagle3.log", step=1200)
    report = build_speedup_report(store, snapshot=snap)
    assert report.depth == 2 and report.accept_length == pytest.approx(2.28)
    assert report.step == 1200
    assert "/runs/eagle3.log" in report.acceptance_source and "step 1200" in report.acceptance_source
    assert any("draft steps of calibration" in a for a in report.assumptions)
    assert not any("tree" in a for a in report.assumptions)


def test_tree_drafting_calibration_is_flagged(store: Store) -> None:
    bench(store, 50, baseline=True, when="2026-01-01T00:00:00+00:00")
    bench(store, 60, accept_length=2.6, num_steps=3, topk=4, when="2026-01-02T00:00:00+00:00")
    report = build_speedup_report(store, snapshot=Snapshot(acc=(0.8, 0.6, 0.5)))
    assert report.depth == 3
    assert any("topk 4" in a and "tree" in a for a in report.assumptions)


def test_explicit_depth_extends_and_states_the_assumption() -> None:
    report = build_speedup_report(None, snapshot=Snapshot(acc=(0.8, 0.6, 0.5)), depth=5)
    assert report.accept_length == pytest.approx(2.7246)
    assert any("mean of the last measured" in a for a in report.assumptions)


def test_snapshot_simulated_acc_len_with_prefix() -> None:
    snap = Snapshot(metrics={"eval/simulated_acc_len": 1.4, "loss": 2.0}, step=10)
    report = build_speedup_report(None, snapshot=snap)
    assert report.accept_length == pytest.approx(2.4) and report.acc == ()


def test_bad_live_rates_are_reported_not_raised() -> None:
    report = build_speedup_report(None, snapshot=Snapshot(acc=(72.3, 0.6)))
    assert report.accept_length is None and report.acc == ()
    assert any("not usable" in a for a in report.assumptions)


def test_last_run_record_is_the_fallback(worked: Store) -> None:
    run = worked.add(Record(kind="run", name="eagle3-llama", acc=[0.7, 0.5], step=900))
    report = build_speedup_report(worked)
    assert report.accept_length == pytest.approx(1 + 0.7 + 0.35)
    assert run.id in report.acceptance_source and report.step == 900


def test_answer_lines_show_the_arithmetic(worked: Store) -> None:
    report = build_speedup_report(worked, simulated_acc_len=1.4, draft_overhead=0.10)
    text = "\n".join(speedup_answer_lines(report))
    assert "0.80x" in text  # measured 40 / 50
    assert "2.40 / (1 + 0.1) = 2.18x" in text and "109.1" in text
    assert "k = 1.8 x 50.0 / 40.0 = 2.25" in text
    assert "50.0 x 2.40 / 2.25 = 53.3" in text
    assert text.splitlines()[-1] == f"Verdict: {report.verdict}"


def test_projection_figures_for_ask(worked: Store) -> None:
    report = build_speedup_report(worked, simulated_acc_len=1.4, draft_overhead=0.10)
    figures = report.projection_figures()
    assert figures["cost_factor"] == pytest.approx(2.25)
    assert figures["verdict"] == report.verdict and "acc" not in figures


def test_full_per_position_rates_in_a_log_are_read_as_full(tmp_path) -> None:
    """eval/per_position_acc and `Acceptance Rate` lines are unconditional: tau = 1 + their sum
    (issue 12's worked example: 1 + 1.749 = 2.75), preferred over the conditional acc_i."""
    from sessiontui.collectors.trainlog import read_log

    full = [0.742, 0.47, 0.29, 0.15, 0.097]
    dict_log = tmp_path / "specforge.log"
    dict_log.write_text("step 4216: {'acc_0': 0.742, 'acc_1': 0.633, 'loss': 2.1, "
                        f"'eval/per_position_acc': {full}}}\n")
    lines_log = tmp_path / "train_eagle3.log"
    lines_log.write_text("".join(f"Eval - Step 4216 [1/2], position {i},  Acceptance Rate: {r}\n"
                                 for i, r in enumerate(full)))
    for log in (dict_log, lines_log):
        report = build_speedup_report(None, snapshot=read_log(log), baseline_value=90.0,
                                      depth=len(full))
        assert report.accept_length == pytest.approx(1 + sum(full))
        assert "full per-position rates" in report.acceptance_source
    same = tmp_path / "same.log"  # the conditional rates printed twice are not full rates
    same.write_text("".join(f"Eval - Step 9 [1/2], position {i},  Acc: {r}\n"
                            f"Eval - Step 9 [1/2], position {i},  Acceptance Rate: {r}\n"
                            for i, r in enumerate([0.8, 0.7])))
    report = build_speedup_report(None, snapshot=read_log(same), baseline_value=90.0, depth=2)
    assert report.accept_length == pytest.approx(1 + 0.8 + 0.8 * 0.7)
