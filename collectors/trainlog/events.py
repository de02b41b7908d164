"""Failure events a training log announces: tracebacks, CUDA/Triton resource errors, NCCL, signals."""

from __future__ import annotations

from collections import deque

from sessiontui.collectors.logtext import (
    CHAINED,
    CRASH_LINE,
    TRACEBACK,
    clean,
    excerpt,
    failure_kind,
    failure_signature,
    has_hint,
    is_exception_line,
    is_frame_line,
)
from sessiontui.project_memory.events import TrainEvent

__all__ = ["FailureWatcher", "TrainEvent", "first_sentence", "has_hint"]

CONTEXT_LINES = 40  # lines kept before a failure: its traceback, from which the excerpt is cut
MAX_CONTEXT_CHARS = 500  # per context line: a 1 MB line must not ride along in every event
MAX_TRACEBACK_LINES = 400  # give up waiting for the exception line of a runaway traceback
MAX_MESSAGE_CHARS = 160


def first_sentence(text: str) -> str:
    """The opening sentence of a failure line, short enough for an alert."""
    end = text.find(". ")
    text = (text[:end] if end > 0 else text).rstrip(".")
    return text if len(text) <= MAX_MESSAGE_CHARS else text[:MAX_MESSAGE_CHARS].rstrip() + " ..."


class FailureWatcher:
    """Reads cleaned lines in order and reports one crash per Python traceback or failure line."""

    def __init__(self) -> None:
        self._context: deque[str] = deque(maxlen=CONTEXT_LINES)
        self._traceback_lines = 0  # > 0 while inside a traceback

    @property
    def in_traceback(self) -> bool:
        """Whether the lines being read belong to a traceback whose exception line is pending."""
        return self._traceback_lines > 0

    def remember(self, lines: list[str]) -> None:
        """Keep the last lines of a block with no failure hint as context for a later failure."""
        cleaned = (clean(line).strip() for line in lines[-CONTEXT_LINES:])
        self._context.extend(line[:MAX_CONTEXT_CHARS] for line in cleaned if line)

    def feed(self, raw: str, at: float, step: int | None) -> TrainEvent | None:
        """Take one line; return a crash event when it completes a traceback or names a failure."""
        text = clean(raw).strip()
        if not text or text[0] == "#":
            return None
        self._context.append(text[:MAX_CONTEXT_CHARS])
        if self._traceback_lines:
            self._traceback_lines += 1
            if is_exception_line(text) or self._traceback_lines > MAX_TRACEBACK_LINES:
                self._traceback_lines = 0
                return self._event(text, raw, at, step)
            return None
        if TRACEBACK in text or is_frame_line(text):  # a tail may start inside a traceback
            self._traceback_lines = 1
            return None
        if any(text.startswith(chained) for chained in CHAINED):
            return None
        if CRASH_LINE.search(text) or is_exception_line(text):  # a paste may drop the traceback
            return self._event(text, raw, at, step)
        return None

    def _event(self, text: str, raw: str, at: float, step: int | None) -> TrainEvent:
        """A crash event for a failure line, with its signature, kind and excerpt; the message
        names the kind so that the card says it."""
        message = first_sentence(text)
        if step is not None:
            message = f"{message} at step {step}"
        context = tuple(self._context)
        tail = "\n".join(context)
        kind = failure_kind(tail)
        if kind:
            message = f"{message} ({kind})"
        return TrainEvent("crashed", message, raw.rstrip("\r\n"), at, step,
                          failure_signature(tail) or None, tuple(excerpt(context)), failure=kind)
