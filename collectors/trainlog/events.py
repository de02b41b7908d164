"""Failure events a training log announces: tracebacks, CUDA/Triton resource errors, NCCL, OOM kills."""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass

from sessiontui.collectors.trainlog.lines import clean

CONTEXT_LINES = 20
MAX_CONTEXT_CHARS = 500  # per context line: a 1 MB line must not ride along in every event
MAX_TRACEBACK_LINES = 400  # give up waiting for the exception line of a runaway traceback
MAX_MESSAGE_CHARS = 160
MAX_SIGNATURE_INPUT = 2000  # a failure line longer than this is cut before normalising

# Cheap substrings that any failure report carries (CUDA OOM and torchrun's SIGKILL report come
# as `...Error`); only blocks holding one are read line by line through the regexes.
HINTS = ("Traceback", "Error", "OutOfResources", "NCCL", "Killed")
_TRACEBACK = "Traceback (most recent call last)"
_CHAINED = ("During handling of the above exception", "The above exception was the direct cause")
_EXCEPTION_LINE = re.compile(
    r"^(?:[A-Za-z_]\w*\.)*(?:[A-Z]\w*(?:Error|Exception|Exit|Interrupt|Timeout|Failure)|OutOfResources)"
    r"\b(?::|$)"
)
_CRASH_LINE = re.compile(
    r"CUDA out of memory|OutOfMemoryError|OutOfResources|out of resource: shared memory"
    r"|Watchdog caught collective operation timeout|NCCL (?:error|WARN)|nccl\w{0,40}Error"
    r"|(?:^|\s)Killed(?:\s|$)|Signal 9 \(SIGKILL\)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class TrainEvent:
    """Something a watcher must say once: the job stalled, diverged, crashed or finished."""

    kind: str  # "stalled" | "diverged" | "crashed" | "finished"
    message: str  # one human line
    line: str  # the log line that triggered it (literal text)
    at: float  # unix time seen
    step: int | None
    signature: str | None = None
    context: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form for `--json` outputs; `lessons` is filled by the memory matcher."""
        return {"kind": self.kind, "message": self.message, "line": self.line, "at": self.at,
                "step": self.step, "signature": self.signature, "context": list(self.context),
                "lessons": []}


def first_sentence(text: str) -> str:
    """The opening sentence of a failure line, short enough for an alert."""
    end = text.find(". ")
    text = (text[:end] if end > 0 else text).rstrip(".")
    return text if len(text) <= MAX_MESSAGE_CHARS else text[:MAX_MESSAGE_CHARS].rstrip() + " ..."


def signature_of(text: str) -> str | None:
    """The project memory's normalised failure signature, when that module is present."""
    try:
        from sessiontui.project_memory.signatures import failure_signature
    except ImportError:
        return None
    try:
        return failure_signature(text[:MAX_SIGNATURE_INPUT]) or None
    except Exception:  # a signature is a nicety: a bug there must not stop the watcher
        return None


def has_hint(text: str) -> bool:
    """Whether a block may hold a failure line (a handful of fast substring scans)."""
    return any(hint in text for hint in HINTS)


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
            if _EXCEPTION_LINE.match(text) or self._traceback_lines > MAX_TRACEBACK_LINES:
                self._traceback_lines = 0
                return self._event(text, raw, at, step)
            return None
        if _TRACEBACK in text:
            self._traceback_lines = 1
            return None
        if any(text.startswith(chained) for chained in _CHAINED):
            return None
        if _CRASH_LINE.search(text):
            return self._event(text, raw, at, step)
        return None

    def _event(self, text: str, raw: str, at: float, step: int | None) -> TrainEvent:
        """A crash event for a failure line, with the lines that led to it."""
        message = first_sentence(text)
        if step is not None:
            message = f"{message} at step {step}"
        return TrainEvent("crashed", message, raw.rstrip("\r\n"), at, step, signature_of(text),
                          tuple(self._context))
