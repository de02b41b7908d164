"""Speculative-decoding arithmetic: acceptance length, projected and calibrated speedup.

Definitions (FORMATS.md, "Speculative decoding, definitions"):
- tau, the acceptance length, counts tokens produced per verify step *including* the bonus token
  (SGLang `accept len`, vLLM `Acceptance length`, the EAGLE papers' tau), so tau >= 1.
- Conditional rates a_1..a_K (SpecForge/EAGLE `acc_i`): a_k is the chance that draft token k is
  accepted given that tokens 1..k-1 were. tau = 1 + sum_k prod_{i<=k} a_i.
- Full (unconditional) rates r_1..r_K (vLLM per-position acceptance): r_k is the chance that draft
  token k is accepted at all, so r_k = prod_{i<=k} a_i, tau = 1 + sum_k r_k and a_k = r_k / r_{k-1}.
- SpecForge `simulated_acc_len` = a_1 + a_1 a_2 + ... excludes the bonus token: tau = it + 1.

Speedup models:
- Theoretical: one verify step costs (1 + overhead) target steps, overhead = draft time / target
  step time, so speedup = tau / (1 + overhead) (tau=2.40, overhead 0.10 -> 2.18x).
- Per-draft-token cost (Leviathan et al. 2023): drafting gamma tokens costs gamma * c target steps,
  speedup(gamma) = tau(gamma) / (1 + gamma * c); more depth helps only while the next token's
  acceptance outweighs its cost.
- Calibrated: a benchmark measured on this system with acceptance length tau_m and value T_m against
  a baseline value B implies that one speculative step costs k = tau_m * B / T_m target steps
  (everything included: drafting, verification, scheduling). At another tau the same system gives
  B * tau / k, a speedup tau / k, and breaks even at tau = k (B=50, tau_m=1.8, T_m=40 -> k=2.25).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

ACC_KINDS = ("conditional", "full")


def _check_rates(rates: Sequence[float], kind: str) -> list[float]:
    """Rates as floats, refused unless each is a finite number in [0, 1]."""
    checked = []
    for position, rate in enumerate(rates, start=1):
        value = float(rate)
        if not 0.0 <= value <= 1.0:  # also refuses nan
            raise ValueError(f"{kind} acceptance rate at position {position} is {rate}; need 0..1")
        checked.append(value)
    return checked


def require_positive(name: str, value: float) -> float:
    """A finite number above zero, or a ValueError naming it."""
    number = float(value)
    if not (math.isfinite(number) and number > 0):
        raise ValueError(f"{name} must be a positive number, got {value}")
    return number


def _check_accept_length(name: str, tau: float) -> float:
    """An acceptance length that includes the bonus token, so at least 1."""
    number = require_positive(name, tau)
    if number < 1.0:
        raise ValueError(f"{name} {tau} is below 1; it must include the bonus token")
    return number


def require_overhead(overhead: float) -> float:
    """A draft overhead: a finite fraction of a target step, zero or more."""
    number = float(overhead)
    if not (math.isfinite(number) and number >= 0):
        raise ValueError(f"draft overhead must be zero or more, got {overhead}")
    return number


def full_from_conditional(rates: Sequence[float]) -> list[float]:
    """Unconditional per-position rates r_k = prod_{i<=k} a_i from conditional ones."""
    full, reach = [], 1.0
    for rate in _check_rates(rates, "conditional"):
        reach *= rate
        full.append(reach)
    return full


def conditional_from_full(rates: Sequence[float]) -> list[float]:
    """Conditional rates a_k = r_k / r_{k-1} (r_0 = 1) from vLLM-style unconditional ones.

    Where r_{k-1} is 0 no later token was ever reached, and a_k is taken as 0.
    """
    conditional, previous = [], 1.0
    for position, rate in enumerate(_check_rates(rates, "full"), start=1):
        if rate > previous:
            raise ValueError(
                f"full acceptance rates cannot rise: position {position} has {rate} > {previous}"
            )
        conditional.append(rate / previous if previous > 0 else 0.0)
        previous = rate
    return conditional


def tau_from_conditional(rates: Sequence[float]) -> float:
    """Expected acceptance length 1 + sum_k prod_{i<=k} a_i from conditional rates."""
    return 1.0 + sum(full_from_conditional(rates))


def accept_length(rates: Sequence[float]) -> float | None:
    """tau from live conditional rates, or None when there are none or one is not a rate:
    measured inputs get no estimate rather than a wrong one (explicit inputs use the above)."""
    if not rates:
        return None
    try:
        return tau_from_conditional(rates)
    except ValueError:
        return None


def tau_from_full(rates: Sequence[float]) -> float:
    """Expected acceptance length 1 + sum_k r_k from unconditional rates."""
    conditional_from_full(rates)  # validates: in range and never rising
    return 1.0 + sum(float(rate) for rate in rates)


def tau_from_simulated_acc_len(simulated_acc_len: float) -> float:
    """SpecForge's simulated_acc_len plus the bonus token it leaves out."""
    value = float(simulated_acc_len)
    if not (math.isfinite(value) and value >= 0):
        raise ValueError(f"simulated_acc_len must be zero or more, got {simulated_acc_len}")
    return value + 1.0


def at_depth(rates: Sequence[float], depth: int) -> tuple[list[float], str]:
    """Conditional rates for `depth` draft tokens, and the assumption that made them.

    Shallower than measured keeps the first `depth` rates. Deeper repeats, for every missing
    position, the mean of the last two measured rates (the last one when only one is known):
    acceptance usually falls with depth, so this is optimistic when the trend is still falling.
    """
    measured = _check_rates(rates, "conditional")
    if depth < 1:
        raise ValueError(f"depth must be at least 1, got {depth}")
    if depth <= len(measured):
        return measured[:depth], f"depth {depth} of {len(measured)} measured positions"
    if not measured:
        raise ValueError("no measured acceptance rates to extend")
    tail = measured[-2:]
    fill = sum(tail) / len(tail)
    source = " and ".join(f"{r:g}" for r in tail)
    assumption = (
        f"positions {len(measured) + 1}..{depth} not measured: assumed conditional rate {fill:.3f}"
        f" (mean of the last measured {source})"
        if len(tail) == 2
        else f"positions 2..{depth} not measured: assumed the measured rate {fill:.3f} throughout"
    )
    return measured + [fill] * (depth - len(measured)), assumption


def theoretical_speedup(tau: float, overhead: float) -> float:
    """tau / (1 + overhead): tokens per verify step over its cost in target steps."""
    return _check_accept_length("accept length", tau) / (1.0 + require_overhead(overhead))


def projected_value(baseline_value: float, speedup: float) -> float:
    """The baseline throughput scaled by a speedup."""
    return require_positive("baseline value", baseline_value) * require_positive("speedup", speedup)


def leviathan_speedup(rates: Sequence[float], gamma: int, cost_per_token: float) -> float:
    """tau(gamma) / (1 + gamma * c) for conditional rates, drafting `gamma` tokens at c each."""
    if not 1 <= gamma <= len(rates):
        raise ValueError(f"gamma must be 1..{len(rates)} (the rates known), got {gamma}")
    return tau_from_conditional(rates[:gamma]) / (1.0 + gamma * require_overhead(cost_per_token))


def best_gamma(rates: Sequence[float], cost_per_token: float) -> tuple[int, float]:
    """The draft length among 1..len(rates) with the highest Leviathan speedup, and that speedup."""
    if not rates:
        raise ValueError("no acceptance rates to choose a draft length from")
    scored = [(leviathan_speedup(rates, g, cost_per_token), -g) for g in range(1, len(rates) + 1)]
    speedup, negative_gamma = max(scored)  # ties go to the shorter draft
    return -negative_gamma, speedup


def cost_factor(measured_tau: float, baseline_value: float, measured_value: float) -> float:
    """k = tau_m * B / T_m: what one speculative step costs in target steps on this system."""
    return (
        _check_accept_length("measured accept length", measured_tau)
        * require_positive("baseline value", baseline_value)
        / require_positive("measured value", measured_value)
    )


def calibrated_speedup(tau: float, k: float) -> float:
    """tau / k: the speedup this system would give at acceptance length tau."""
    return _check_accept_length("accept length", tau) / require_positive("cost factor", k)


def calibrated_value(baseline_value: float, tau: float, k: float) -> float:
    """B * tau / k: the throughput this system would give at acceptance length tau."""
    return require_positive("baseline value", baseline_value) * calibrated_speedup(tau, k)


def breakeven_accept_length(k: float) -> float:
    """The acceptance length at which speculation only matches the baseline: tau = k."""
    return require_positive("cost factor", k)


def overhead_from_step_latencies(
    measured_tau: float, spec_token_ms: float, baseline_token_ms: float
) -> float:
    """Extra cost of a verify step, tau_m * TPOT_spec / TPOT_base - 1, from per-token latencies.

    A speculative step emits tau_m tokens, so it lasts tau_m * TPOT_spec; a target step lasts
    TPOT_base. The result includes verification as well as drafting, and is refused below 0.
    """
    overhead = (
        _check_accept_length("measured accept length", measured_tau)
        * require_positive("speculative time per output token", spec_token_ms)
        / require_positive("baseline time per output token", baseline_token_ms)
        - 1.0
    )
    if overhead < 0:
        raise ValueError(
            f"latencies imply a verify step cheaper than a target step ({overhead:+.3f}); "
            "the two benchmarks are not comparable"
        )
    return overhead
