"""Run against run: curves from run records, values at equal steps, final and best figures."""

from __future__ import annotations

import pytest

from sessiontui.project_memory.records import Record
from sessiontui.project_memory.run_compare import compare_runs, equal_step, run_curve, value_at


def run(run_id: str, points: list[tuple[int, float, float]], step: int, loss: float,
        tau: float) -> Record:
    milestones = [{"kind": "progress", "pct": pct, "step": s, "loss": lo, "accept_length": t}
                  for pct, (s, lo, t) in zip(range(10, 100, 10), points, strict=False)]
    milestones.append({"kind": "eval", "step": 500, "loss": 99.0, "accept_length": None})
    return Record(kind="run", id=run_id, name=run_id, log_path=f"/runs/{run_id}/train.log",
                  step=step, loss=loss, accept_length=tau, milestones=milestones)


A = run("r-a", [(1000, 4.0, 1.8), (2000, 3.0, 2.2), (3000, 2.5, 2.5)], 4000, 2.4, 2.72)
B = run("r-b", [(1000, 4.2, 1.7), (2000, 3.4, 2.0), (3000, 2.9, 2.3)], 5000, 2.6, 2.43)


def test_a_curve_is_the_progress_milestones_then_the_latest_figures() -> None:
    assert run_curve(A, "loss") == ((1000, 4.0), (2000, 3.0), (3000, 2.5), (4000, 2.4))
    assert run_curve(B, "accept_length")[-1] == (5000, 2.43)  # eval milestones are not training loss


def test_values_between_points_are_interpolated_and_none_outside() -> None:
    curve = ((1000, 4.0), (3000, 2.0))
    assert value_at(curve, 2000) == pytest.approx(3.0)
    assert value_at(curve, 1000) == 4.0 and value_at(curve, 3000) == 2.0
    assert value_at(curve, 999) is None and value_at(curve, 3001) is None
    assert equal_step([curve, ((500, 1.0), (2500, 1.0))]) == 2500
    assert equal_step([curve, ((4000, 1.0), (5000, 1.0))]) is None


def test_two_runs_compared_at_the_furthest_step_both_reached() -> None:
    comparison = compare_runs([A, B])
    tau = comparison.at_equal_step["accept_length"]
    assert tau.step == 4000 and tau.values[0] == pytest.approx(2.72)
    # B at 4000 lies between its 3000 (2.3) and 5000 (2.43) points.
    assert tau.values[1] == pytest.approx(2.3 + (2.43 - 2.3) / 2)
    [loss_a, loss_b] = comparison.figures["loss"]
    assert (loss_a.final, loss_a.best, loss_a.best_step) == (2.4, 2.4, 4000)
    [tau_a, tau_b] = comparison.figures["accept_length"]
    assert tau_b.best == 2.43 and tau_b.best_step == 5000
    assert comparison.to_dict()["at_equal_step"]["loss"]["step"] == 4000
