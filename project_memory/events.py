"""A training event (stalled, diverged, crashed, finished): one dataclass with one identity, used by
the log collectors that raise it, the run records that keep it and the front ends that announce it."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal, cast, get_args

# The kinds of training event and the statuses of a run, declared once: every layer imports these.
EventKind = Literal["crashed", "diverged", "stalled", "finished"]
RunStatus = Literal["waiting", "running", "stalled", "diverged", "crashed", "finished", "abandoned"]
EVENT_KINDS: tuple[EventKind, ...] = get_args(EventKind)  # most serious first
ALERT_KINDS: tuple[EventKind, ...] = ("crashed", "diverged", "stalled")  # said as alerts
FAILURES: frozenset[EventKind] = frozenset(ALERT_KINDS)
SEVERITY: dict[EventKind, Literal["error", "warning", "information"]] = {
    "crashed": "error", "diverged": "error", "stalled": "warning", "finished": "information"}
RUN_STATUSES: tuple[RunStatus, ...] = get_args(RunStatus)
LIVE_STATUSES: tuple[RunStatus, ...] = RUN_STATUSES[:-1]  # what a log shows; abandoned is a record's
ENDINGS: frozenset[RunStatus] = frozenset({"finished", "crashed", "diverged"})  # ends by itself
# Crash kinds that are a stop rather than a failure: the user's Ctrl-C is news, a scheduler's
# cancel (time limit, scancel, preemption) a warning; neither is a failure a lesson could fix.
STOPS: dict[str, Literal["warning", "information"]] = {"interrupted": "information",
                                                       "cancelled": "warning"}


@dataclass(frozen=True)
class TrainEvent:
    """Something a watcher must say once: the job stalled, diverged, crashed or finished."""

    kind: EventKind
    message: str  # one human line
    line: str  # the log line that triggered it (literal text)
    at: float | None  # unix time seen
    step: int | None
    signature: str | None = None
    context: tuple[str, ...] = ()  # the failure's excerpt (or the lines before it)
    lessons: tuple[str, ...] = field(default=(), compare=False)  # ids of matching lessons
    failure: str | None = None  # a crash's kind (`cuda_oom`, `nccl_timeout`, ...) when it names one

    @property
    def key(self) -> tuple[str, int | None, str]:
        """The event's identity: the same failure seen again (another poll, another follower, an
        app restart) has the same key and is never recorded or announced twice."""
        return self.kind, self.step, self.line

    @property
    def label(self) -> str:
        """What the event is called to the user: a run stopped by Ctrl-C or its scheduler did not
        crash (its status stays `crashed`: the run ended without finishing)."""
        stopped = self.kind == "crashed" and self.failure in STOPS
        return self.failure if stopped and self.failure else self.kind

    @property
    def severity(self) -> Literal["error", "warning", "information"]:
        """How loudly the event is announced: a stop is news or a warning, not an error."""
        return STOPS.get(self.label) or SEVERITY.get(self.kind, "information")

    @property
    def is_failure(self) -> bool:
        return self.kind in FAILURES

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form, the one a run record keeps (`at` as ISO 8601)."""
        return {"kind": self.kind, "message": self.message, "signature": self.signature,
                "line": self.line, "step": self.step, "at": iso_time(self.at),
                "context": list(self.context), "lessons": list(self.lessons),
                "failure": self.failure}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TrainEvent:
        """An event from its stored form (tolerant of fields older records lack)."""
        step = data.get("step")
        return cls(
            kind=cast(EventKind, str(data.get("kind") or "")),
            message=str(data.get("message") or ""),
            line=str(data.get("line") or ""), at=unix_time(data.get("at")),
            step=step if isinstance(step, int) and not isinstance(step, bool) else None,
            signature=data.get("signature") or None,
            context=tuple(str(line) for line in data.get("context") or ()),
            lessons=tuple(str(i) for i in data.get("lessons") or ()),
            failure=data.get("failure") or None,
        )


def iso_time(unix: float | None) -> str | None:
    """A unix timestamp as the records' ISO 8601 form; None stays None."""
    if unix is None or not math.isfinite(unix):
        return None
    return datetime.fromtimestamp(unix, UTC).isoformat(timespec="seconds")


def unix_time(value: object) -> float | None:
    """A stored time (ISO 8601 text or a unix number) as a unix timestamp, or None."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value) if math.isfinite(value) else None
    if isinstance(value, str):
        try:
            parsed = datetime.fromisoformat(value)
        except ValueError:
            return None
        return (parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)).timestamp()
    return None
