"""Durations, times and figures for people, written one way by every pane and answer.

One formatter per kind of figure, so a figure keeps its shape from one sample to the next
(loss `3.78` then `3.70`, never `3.7`) and reads the same on a card, a chart, a table and in
an answer: `significant` (loss, lr, grad norm, a chart's range), `rate` (tok/s, step/s),
`ratio` (speedups, vs beat), `percent`.
"""

from __future__ import annotations

import math
import time
from datetime import UTC, datetime

DASH = "—"
E_BELOW, E_FROM = 1e-3, 1e6  # magnitudes shown in e-notation (lr 1.00e-04)


def duration(seconds: float | None) -> str:
    """A span for people: `2 h 05 min`, `12 min`, `40 s`; a dash when unknown or not finite."""
    if seconds is None or not math.isfinite(seconds) or seconds < 0:
        return DASH
    whole = int(round(seconds))
    if whole >= 3600:
        return f"{whole // 3600} h {whole % 3600 // 60:02d} min"
    return f"{whole // 60} min" if whole >= 60 else f"{whole} s"


def age(stamp: str | None, now: float | None = None) -> str:
    """How long ago an ISO 8601 time was, e.g. `3 min ago`; the stamp itself when unreadable."""
    if not stamp:
        return "at an unknown time"
    try:
        then = datetime.fromisoformat(stamp)
    except ValueError:
        return stamp
    if then.tzinfo is None:
        then = then.replace(tzinfo=UTC)
    current = datetime.now(UTC).timestamp() if now is None else now
    seconds = max(0.0, current - then.timestamp())
    if seconds >= 2 * 86400:
        return f"{seconds / 86400:.1f} days ago"
    return f"{duration(seconds)} ago"


def stall_text(step: int | None, last_update: float | None, now: float) -> str:
    """A stall told plainly: `stalled for 14 min (last step 100 at 10:32)`."""
    if last_update is None:
        return "stalled"
    when = time.strftime("%H:%M", time.localtime(last_update))
    last = f"last step {step:,} at {when}" if step is not None else f"last progress at {when}"
    return f"stalled for {duration(max(0.0, now - last_update))} ({last})"

def _day(moment: datetime, today: datetime) -> str:
    """`today`/`tonight`, `tomorrow`, `yesterday`, a weekday within the week, else the date."""
    days = (moment.date() - today.date()).days
    if days == 0:
        return "tonight" if moment.hour >= 18 else "today"
    if days in (1, -1):
        return "tomorrow" if days == 1 else "yesterday"
    return moment.strftime("%a") if 1 < days < 7 else moment.strftime("%b %d")


def finish_time(seconds: float | None, start: float | None = None, now: float | None = None) -> str:
    """When something `seconds` after `start` (default: now) ends, in the local zone and as a
    span from now: `01:32 tonight, in 2 h 40 min`; a dash when unknown."""
    if seconds is None or not math.isfinite(seconds) or seconds < 0:
        return DASH
    current = datetime.now(UTC).timestamp() if now is None else now
    end = (current if start is None or not math.isfinite(start) else start) + seconds
    local_end = datetime.fromtimestamp(end).astimezone()
    left = end - current
    span = f"in {duration(left)}" if left >= 0 else f"{duration(-left)} ago"
    return f"{local_end:%H:%M} {_day(local_end, datetime.fromtimestamp(current).astimezone())}, {span}"


def significant(value: float | None, digits: int = 3) -> str:
    """`value` to `digits` significant figures, trailing zeros kept (`3.70`, `0.412`, `12.3`);
    e-notation below 0.001 and from a million; a dash when unknown."""
    if value is None:
        return DASH
    if not math.isfinite(value):
        return str(value)
    rounded = float(f"{value:.{digits - 1}e}")  # 9.996 -> 10.0: the magnitude after rounding
    if rounded and not E_BELOW <= abs(rounded) < E_FROM:
        return f"{value:.{digits - 1}e}"
    magnitude = math.floor(math.log10(abs(rounded))) if rounded else 0
    return f"{rounded:.{max(0, digits - 1 - magnitude)}f}"


def rate(value: float | None) -> str:
    """A throughput (tok/s, step/s): two decimals below 10, one below 10 000, else whole."""
    if value is None:
        return DASH
    if not math.isfinite(value):
        return str(value)
    decimals = 2 if abs(value) < 10 else 1 if abs(value) < 10_000 else 0
    return f"{value:.{decimals}f}"


def ratio(value: float | None) -> str:
    """A speedup or a result over the number to beat: `1.50x`."""
    return DASH if value is None or not math.isfinite(value) else f"{value:.2f}x"


def percent(value: float | None) -> str:
    """A percentage given in percent (utilisation 97.4 -> `97%`)."""
    return DASH if value is None or not math.isfinite(value) else f"{value:.0f}%"
