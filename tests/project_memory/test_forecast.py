"""The accept-length forecast: fitted on the first 60% of a drafter's log, checked on the rest."""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest

from sessiontui.collectors.trainlog import read_log
from sessiontui.project_memory.forecast import forecast, reach_verdict, tau_history
from sessiontui.tui.demo_log import Curve, TrainingLogWriter


@pytest.mark.parametrize(("total", "acc_tau", "seed"), [(6000, 1500.0, 11), (12000, 3000.0, 5)])
def test_projection_from_60_percent_of_a_log_holds_on_its_tail(
    tmp_path: Path, total: int, acc_tau: float, seed: int
) -> None:
    curve = Curve(total_steps=total, acc_tau=acc_tau, seed=seed)
    writer = TrainingLogWriter(tmp_path / "train.log", curve=curve)  # train_eagle3.py's format
    writer.write_history(int(curve.total_steps * 0.6))
    early = read_log(writer.path)
    ahead = forecast(tau_history(early.history), early.total_steps)
    assert ahead.ok, ahead.reason
    writer.append(curve.total_steps)
    tail = tau_history(read_log(writer.path).history)
    last = [tau for step, tau in tail if step > curve.total_steps * 0.95]
    observed = sum(last) / len(last)
    assert ahead.low <= observed <= ahead.high
    assert ahead.low < ahead.at_end < ahead.high
    assert ahead.at_end > tau_history(early.history)[0][1]  # it rises, as the log did


@pytest.mark.parametrize("shape", [
    lambda s: 3.4 - 2.0 / (1 + s / 1500),  # hyperbolic approach: slower than exponential
    lambda s: 1.4 + 0.25 * math.log1p(s / 100),  # still climbing at the end
    lambda s: 1.3 + 1.9 / (1 + math.exp(-(s - 3000) / 800)),  # slow start (warm-up), then a rise
])
def test_band_covers_the_end_for_other_saturation_shapes(shape) -> None:
    rng = random.Random(3)
    series = [(s, shape(s) + rng.gauss(0, 0.05)) for s in range(200, 12001, 200)]
    ahead = forecast(series[: int(len(series) * 0.6)], 12000)
    assert ahead.low <= shape(12000) <= ahead.high


def test_too_short_a_history_says_so() -> None:
    short = forecast([(s, 1.5 + s / 1e4) for s in range(10, 60, 10)], 10000)
    assert not short.ok and "not enough history" in short.reason
    early = forecast([(s, 1.5 + s / 1e4) for s in range(10, 510, 10)], 10000)  # 5% of the run
    assert not early.ok and "not enough history" in early.reason
    assert "cannot tell" in reach_verdict(early, 3.0)
    assert not forecast([(s, 2.0) for s in range(0, 9000, 500)], None).ok


def test_reach_verdicts() -> None:
    rng = random.Random(5)
    series = [(s, 3.2 - 1.8 * math.exp(-s / 2500) + rng.gauss(0, 0.03)) for s in range(50, 7201, 50)]
    ahead = forecast(series, 12000)
    assert reach_verdict(ahead, 3.0).startswith("likely")
    assert reach_verdict(ahead, 4.0).startswith("unlikely")
    assert reach_verdict(ahead, round(ahead.at_end, 2)).startswith("uncertain")


def test_tau_history_needs_every_position_at_a_step() -> None:
    history = {"acc_0": ((10, 0.5), (20, 0.6)), "acc_1": ((20, 0.5),)}
    assert tau_history(history) == [(20, pytest.approx(1 + 0.6 + 0.6 * 0.5))]
    assert tau_history({"loss": ((1, 2.0),)}) == []
