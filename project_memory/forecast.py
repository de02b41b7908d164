"""Where a drafter's accept length is heading: saturating curves fitted to its history.

Acceptance rises fast, then levels off; how fast it levels off is what a short history cannot pin
down. So four shapes are fitted, each tau(step) = a + b * g(step / c): an exponential approach
(g = -e^(-x)), a hyperbolic one (g = -1/(1+x)), a slow logarithmic climb (g = log(1+x)) and an
S-shaped one (g = (1-e^(-x))^2, as the product of rising per-position rates gives). The early half
of the history (warm-up bends it) is left out. For a
fixed scale `c` each is linear in `a` and `b`; the fit scans `c` over a log grid and solves least
squares for each. The band is honest about every doubt: each scale whose fit is not significantly
worse than the best one of its shape (an F-test at about 95%) contributes its prediction, widened
by two standard errors of a new reading there (the fit's own error plus the log's noise); and each
shape that fits the history about as well as the best one adds its own band, since no test on the
past can say which shape the future follows.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from sessiontui.project_memory.specdec import tau_from_conditional

MIN_POINTS = 8  # fewer points than this cannot tell a rise from noise
MIN_COVERAGE = 0.15  # the history must span this share of the planned steps
_SKIP_EARLY = 0.5  # the share of the history, from its start, left out of the fit
_SHAPE_SLACK = 3.0  # a shape whose best fit leaves up to this much more error still counts
_GRID = 80  # time constants tried, log-spaced
_F_95 = 4.0  # ~F(1, n-3) at 95% for the n this sees (tens to hundreds of points)
SHAPES: dict[str, Callable[[float], float]] = {
    "exponential": lambda x: -math.exp(-x),
    "hyperbolic": lambda x: -1.0 / (1.0 + x),
    "logarithmic": math.log1p,
    "sigmoidal": lambda x: (1.0 - math.exp(-x)) ** 2,  # a slow start, as products of rising rates give
}


@dataclass(frozen=True)
class Forecast:
    """The fitted trajectory of accept length, or why there is none (`reason`)."""

    points: int
    first_step: int | None = None
    last_step: int | None = None
    end_step: int | None = None
    current: float | None = None  # the fitted accept length at the last step
    at_end: float | None = None
    low: float | None = None
    high: float | None = None
    reason: str | None = None

    @property
    def ok(self) -> bool:
        """Whether the fit is defensible enough to quote."""
        return self.reason is None

    def inputs(self) -> str:
        """What the fit was made from, for the answer's source line."""
        return (f"saturating fits of accept length ({', '.join(SHAPES)}) on "
                f"{self.points} points, steps {self.first_step}..{self.last_step} of {self.end_step}")


@dataclass(frozen=True)
class _Fit:
    shape: Callable[[float], float]
    a: float
    b: float
    c: float
    sse: float
    cov: tuple[tuple[float, float], tuple[float, float]]  # covariance of (a, b)
    sigma2: float  # variance of one reading around the curve

    def value(self, step: float) -> float:
        return self.a + self.b * self.shape(step / self.c)

    def stderr(self, step: float) -> float:
        """Standard error of a new reading at `step`: the mean's (from the covariance of a and b)
        plus the scatter of readings around the curve."""
        g = self.shape(step / self.c)
        (caa, cab), (_, cbb) = self.cov
        return math.sqrt(max(0.0, caa + 2 * g * cab + g * g * cbb) + self.sigma2)


def tau_history(history: Mapping[str, Sequence[tuple[int, float]]]) -> list[tuple[int, float]]:
    """(step, accept length) wherever every measured position has a value at the same step."""
    positions: list[dict[int, float]] = []
    while f"acc_{len(positions)}" in history:
        positions.append(dict(history[f"acc_{len(positions)}"]))
    if not positions:
        return []
    steps = sorted(set.intersection(*(set(p) for p in positions)))
    series = []
    for step in steps:
        rates = [p[step] for p in positions]
        if all(math.isfinite(r) and 0.0 <= r <= 1.0 for r in rates):
            series.append((step, tau_from_conditional(rates)))
    return series


def _solve(shape: Callable[[float], float], steps: Sequence[float], taus: Sequence[float],
           c: float) -> _Fit | None:
    """Least squares of tau = a + b*shape(s/c) for a fixed c; None when the basis is degenerate."""
    xs = [shape(s / c) for s in steps]
    n = len(xs)
    sx, sxx = sum(xs), sum(x * x for x in xs)
    sy, sxy = sum(taus), sum(x * y for x, y in zip(xs, taus, strict=True))
    det = n * sxx - sx * sx
    if det <= 1e-12 * max(1.0, n * sxx):
        return None
    b = (n * sxy - sx * sy) / det
    a = (sy - b * sx) / n
    sse = sum((y - (a + b * x)) ** 2 for x, y in zip(xs, taus, strict=True))
    sigma2 = sse / max(1, n - 3)  # three parameters: a, b and c
    cov = ((sigma2 * sxx / det, -sigma2 * sx / det), (-sigma2 * sx / det, sigma2 * n / det))
    return _Fit(shape, a, b, c, sse, cov, sigma2)


def _fits(steps: Sequence[float], taus: Sequence[float], horizon: float) -> list[_Fit]:
    """The fit of each shape at each scale on a log grid from a tiny share of the horizon to 10x it."""
    lo, hi = math.log(horizon / 200), math.log(horizon * 10)
    scales = [math.exp(lo + (hi - lo) * i / (_GRID - 1)) for i in range(_GRID)]
    found = (_solve(shape, steps, taus, c) for shape in SHAPES.values() for c in scales)
    return [fit for fit in found if fit is not None]


def forecast(series: Sequence[tuple[int, float]], end_step: int | None) -> Forecast:
    """Fit the accept-length history and project it to `end_step` (the run's planned last step)."""
    points = [(s, t) for s, t in series if math.isfinite(t)]
    if end_step is None or end_step <= 0:
        return Forecast(len(points), reason="the run's total steps are unknown, so its end is too")
    if len(points) < MIN_POINTS:
        return Forecast(len(points), end_step=end_step,
                        reason=f"not enough history yet ({len(points)} accept-length points; "
                               f"{MIN_POINTS} needed)")
    first, last = points[0][0], points[-1][0]
    if (last - first) < MIN_COVERAGE * end_step:
        return Forecast(len(points), first, last, end_step,
                        reason=f"not enough history yet (steps {first}..{last} cover "
                               f"{(last - first) / end_step:.0%} of {end_step}; "
                               f"{MIN_COVERAGE:.0%} needed)")
    fitted = points[int(len(points) * _SKIP_EARLY):]  # warm-up bends the start of the curve
    steps, taus = [float(s) for s, _ in fitted], [t for _, t in fitted]
    fits = _fits(steps, taus, float(end_step))
    if not fits:
        return Forecast(len(points), first, last, end_step, reason="the history is flat or degenerate")
    best = min(fits, key=lambda f: f.sse)
    near = []
    for shape in SHAPES.values():  # which shape is right is a model doubt, not a statistical one
        own = [f for f in fits if f.shape is shape]
        if not own:
            continue
        shape_best = min(f.sse for f in own)
        if shape_best <= best.sse * _SHAPE_SLACK:
            limit = shape_best * (1 + _F_95 / max(1, len(fitted) - 3))
            near += [f for f in own if f.sse <= limit]
    ends = [(f.value(end_step) - 2 * f.stderr(end_step), f.value(end_step) + 2 * f.stderr(end_step))
            for f in near]
    return Forecast(
        len(points), first, last, end_step,
        current=best.value(last), at_end=best.value(end_step),
        low=max(1.0, min(lo for lo, _ in ends)), high=max(hi for _, hi in ends),
    )


def reach_verdict(result: Forecast, target: float) -> str:
    """Whether the projected accept length at the end of training clears `target`, in words."""
    if not result.ok or result.low is None or result.high is None or result.at_end is None:
        return f"cannot tell whether accept length reaches {target:g}: {result.reason}"
    band = f"projected {result.at_end:.2f} at step {result.end_step} (band {result.low:.2f}-{result.high:.2f})"
    if result.low >= target:
        return f"likely: accept length should reach {target:g} before the run ends; {band}"
    if result.high < target:
        return f"unlikely: accept length should stay below {target:g} by the end of the run; {band}"
    return f"uncertain: {target:g} lies inside the band; {band}"
