"""Durations and times for people, written one way by every pane and answer."""

from __future__ import annotations

import math
import time
from datetime import UTC, datetime

DASH = "—"


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
