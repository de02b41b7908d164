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
