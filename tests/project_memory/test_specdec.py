"""Worked examples for the speculative-decoding arithmetic (numbers checked by hand)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sessiontui.project_memory import specdec

RATES = [0.8, 0.6, 0.5]  # conditional; reach 0.8, 0.48, 0.24


def test_tau_from_conditional_rates():
    assert specdec.tau_from_conditional(RATES) == pytest.approx(1 + 0.8 + 0.48 + 0.24)


def test_tau_without_rates_is_the_bonus_token():
    assert specdec.tau_from_conditional([]) == 1.0


def test_full_and_conditional_convert_both_ways():
    assert specdec.full_from_conditional(RATES) == pytest.approx([0.8, 0.48, 0.24])
    assert specdec.conditional_from_full([0.8, 0.48, 0.24]) == pytest.approx(RATES)


def test_tau_from_vllm_per_position_rates():
    # vLLM "Per-position acceptance (%)": 75, 50, 25 -> tau = 1 + 0.75 + 0.5 + 0.25
    assert specdec.tau_from_full([0.75, 0.5, 0.25]) == pytest.approx(2.5)
    assert specdec.conditional_from_full([0.75, 0.5, 0.25]) == pytest.approx([0.75, 2 / 3, 0.5])


def test_conditional_after_a_zero_reach_is_zero():
    assert specdec.conditional_from_full([0.5, 0.0, 0.0]) == [0.5, 0.0, 0.0]


def test_full_rates_that_rise_are_refused():
    with pytest.raises(ValueError, match="cannot rise"):
        specdec.conditional_from_full([0.5, 0.6])


def test_simulated_acc_len_gets_the_bonus_token():
    assert specdec.tau_from_simulated_acc_len(1.4) == pytest.approx(2.4)


@pytest.mark.parametrize("bad", [1.2, -0.1, float("nan")])
def test_rates_outside_unit_interval_are_refused(bad):
    with pytest.raises(ValueError, match="position 2"):
        specdec.tau_from_conditional([0.7, bad])


def test_theoretical_worked_example():
    speedup = specdec.theoretical_speedup(2.40, 0.10)
    assert round(speedup, 2) == 2.18
    assert round(specdec.projected_value(50, speedup), 1) == 109.1


def test_calibration_worked_example():
    k = specdec.cost_factor(measured_tau=1.8, baseline_value=50, measured_value=40)
    assert k == pytest.approx(2.25)
    assert round(specdec.calibrated_value(50, 2.40, k), 1) == 53.3
    assert round(specdec.calibrated_speedup(2.40, k), 2) == 1.07
    assert specdec.breakeven_accept_length(k) == pytest.approx(2.25)


def test_calibrated_speedup_at_breakeven_is_one():
    k = specdec.cost_factor(2.0, 100, 80)
    assert specdec.calibrated_speedup(specdec.breakeven_accept_length(k), k) == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("tau", "base", "value"), [(1.8, 0, 40), (1.8, 50, -1), (0.8, 50, 40), (1.8, float("inf"), 40)]
)
def test_calibration_refuses_bad_inputs(tau, base, value):
    with pytest.raises(ValueError):
        specdec.cost_factor(tau, base, value)


def test_negative_overhead_is_refused():
    with pytest.raises(ValueError, match="overhead"):
        specdec.theoretical_speedup(2.0, -0.1)


def test_shallower_depth_keeps_first_rates():
    rates, assumption = specdec.at_depth(RATES, 2)
    assert rates == [0.8, 0.6]
    assert "depth 2 of 3" in assumption


def test_deeper_depth_repeats_mean_of_last_two_and_says_so():
    rates, assumption = specdec.at_depth(RATES, 5)
    assert rates == pytest.approx([0.8, 0.6, 0.5, 0.55, 0.55])
    assert "0.550" in assumption and "positions 4..5" in assumption
    # 1 + .8 + .48 + .24 + .132 + .0726
    assert specdec.tau_from_conditional(rates) == pytest.approx(2.7246)


def test_extending_a_single_rate_says_it_is_repeated():
    rates, assumption = specdec.at_depth([0.7], 3)
    assert rates == [0.7, 0.7, 0.7]
    assert "throughout" in assumption


def test_leviathan_speedup_and_best_gamma():
    # c = 0.1: g=1 1.8/1.1, g=2 2.28/1.2 = 1.9, g=3 2.52/1.3 = 1.938 -> 3
    assert specdec.leviathan_speedup(RATES, 2, 0.1) == pytest.approx(1.9)
    gamma, speedup = specdec.best_gamma(RATES, 0.1)
    assert gamma == 3 and speedup == pytest.approx(2.52 / 1.3)
    # c = 0.3: 1.8/1.3 = 1.385, 2.28/1.6 = 1.425, 2.52/1.9 = 1.326 -> 2
    assert specdec.best_gamma(RATES, 0.3) == (2, pytest.approx(1.425))


def test_leviathan_gamma_beyond_known_rates_is_refused():
    with pytest.raises(ValueError, match="gamma"):
        specdec.leviathan_speedup(RATES, 4, 0.1)


def test_overhead_from_step_latencies():
    # a step emits 2 tokens at 6 ms each = 12 ms against a 10 ms target step -> 0.2 extra
    assert specdec.overhead_from_step_latencies(2.0, 6.0, 10.0) == pytest.approx(0.2)
    with pytest.raises(ValueError, match="not comparable"):
        specdec.overhead_from_step_latencies(2.0, 4.0, 10.0)


@given(st.lists(st.floats(0, 1), max_size=10))
def test_conversions_round_trip_and_agree_on_tau(rates):
    full = specdec.full_from_conditional(rates)
    assert specdec.tau_from_full(full) == pytest.approx(specdec.tau_from_conditional(rates))
    assert 1.0 <= specdec.tau_from_conditional(rates) <= len(rates) + 1
