"""Failure events a training log announces: tracebacks, CUDA/Triton resource errors, NCCL, signals."""

from __future__ import annotations

import re
from collections import deque
from dataclasses import replace

from sessiontui.collectors.logtext import (
    CHAINED,
    CRASH_LINE,
    KINDS_SPECIFIC_FIRST,
    TRACEBACK,
    clean,
    excerpt,
    failure_kind,
    failure_signature,
    glued_exception,
    has_hint,
    is_crash_line,
    is_exception_line,
    is_frame_line,
    is_warning,
    is_xid_report,
    terminal_wrap,
    untagged,
)
from sessiontui.project_memory.events import TrainEvent

__all__ = ["FailureWatcher", "TrainEvent", "first_sentence", "has_hint", "sharper"]

CONTEXT_LINES = 40  # lines kept before a failure: its traceback, from which the excerpt is cut
MAX_CONTEXT_CHARS = 500  # per context line: a 1 MB line must not ride along in every event
MAX_TRACEBACK_LINES = 400  # give up waiting for the exception line of a runaway traceback
MAX_MESSAGE_CHARS = 160
WRAPPER_LINES = 16  # lines a wrapper's report may take to name its cause (torchelastic's Root Cause)

# Lines that wrap a failure whose cause follows them: Hydra's job report, a C++ `terminate`
# whose `what():` comes next, torchelastic's ChildFailedError before its Root Cause block.
_WRAPPER = re.compile(r"Error executing job with overrides|terminate called after throwing"
                      r"|ChildFailedError")
_ROOT_CAUSE_EXIT = re.compile(r"exitcode\s*:\s*-?\d+")  # torchelastic's Root Cause block
_ROOT_CAUSE_END = re.compile(r"traceback\s*:")
# a later line of one failure that names a kind higher in this order says more of its cause
_RANK = {kind: rank for rank, kind in enumerate(KINDS_SPECIFIC_FIRST)}


def sharper(event: TrainEvent, later: TrainEvent) -> TrainEvent | None:
    """The open crash event told better by a later line of the same failure, or None when that
    line says nothing more. The failure's exception line (not a launcher's wrapper) after a line
    that only named a kind (CUDA's `Assertion ... failed` lines, then `RuntimeError: CUDA error:
    device-side assert triggered`) gives it its message, signature and excerpt; the more
    specific kind of the two is its kind (a wrapped `what():` line's `ed: out of memory`), but
    a driver's later Xid report tells all (the GPU's last fault, read over the Xids before). The
    event keeps its line and step, which identify it to the run records."""
    named_only = not (is_exception_line(event.message) or CRASH_LINE.search(clean(event.line)))
    reported = is_exception_line(later.message) and not _WRAPPER.search(later.message)
    driver = is_xid_report(event.line) and is_xid_report(later.line)  # the GPU's last fault tells it
    told = later if (named_only and reported) or driver else event
    unnamed = len(_RANK)
    kind = later.failure if driver else min((event.failure, later.failure),
                                            key=lambda name: _RANK.get(name or "", unnamed))
    if told is event and kind == event.failure:
        return None
    message = told.message.removesuffix(f" ({told.failure})") if told.failure else told.message
    return replace(event, message=f"{message} ({kind})" if kind else message,
                   signature=told.signature, context=told.context, failure=kind)


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
        self._wrapper: tuple[str, str, int] | None = None  # a wrapper line (text, raw, lines since)
        self._warning: str | None = None  # "head": a warning's level with no message yet; "said"
        # how each context line continues the one before it (a terminal's hard wrap), None: its own line
        self._joins: deque[str | None] = deque(maxlen=CONTEXT_LINES)
        self._above = ""  # the raw line before, and the width a terminal wrapped lines at
        self._width: int | None = None

    @property
    def in_traceback(self) -> bool:
        """Whether the lines being read belong to a traceback whose exception line is pending."""
        return self._traceback_lines > 0 or self._wrapper is not None

    def remember(self, lines: list[str]) -> None:
        """Keep the last lines of a block with no failure hint as context for a later failure."""
        cleaned = [line[:MAX_CONTEXT_CHARS] for line in (clean(line).strip() for line in lines[-CONTEXT_LINES:]) if line]
        self._context.extend(cleaned)
        self._joins.extend([None] * len(cleaned))
        self._above = lines[-1].rstrip("\r") if lines else ""

    def feed(self, raw: str, at: float, step: int | None) -> TrainEvent | None:
        """Take one line; return a crash event when it completes a traceback or names a failure."""
        text = clean(raw).strip()
        warned = self._continues_warning(raw, text)
        line = raw.rstrip("\r\n")
        wrap = terminal_wrap(self._above, line, self._width)
        self._above = line
        if wrap:
            self._width = wrap[1]
        if not text or text[0] == "#":
            return None
        self._context.append(text[:MAX_CONTEXT_CHARS])
        self._joins.append(wrap[0] if wrap else None)
        if self._wrapper is not None:
            return self._after_wrapper(text, raw, at, step)
        glued = glued_exception(text)  # a traceback and its exception run on in one line
        if self._traceback_lines:
            self._traceback_lines += 1
            if is_exception_line(text) or glued or self._traceback_lines > MAX_TRACEBACK_LINES:
                self._traceback_lines = 0
                return self._wait_or_event(glued or text, raw, at, step)
            return None
        if glued:
            return self._wait_or_event(glued, raw, at, step)
        if TRACEBACK in text or is_frame_line(text):  # a tail may start inside a traceback
            self._traceback_lines = 1
            return None
        if text.startswith(CHAINED):
            return None
        if is_exception_line(text) or (is_crash_line(text, raw) and not (
                warned and not CRASH_LINE.search(text))):
            return self._wait_or_event(text, raw, at, step)  # a paste may drop the traceback
        return None

    def _continues_warning(self, raw: str, text: str) -> bool:
        """Whether a line is the wrapped rest of a warning (TensorFlow's `W ...bfc_allocator.cc:217]`,
        then ` Allocator (GPU_0_bfc) ran out of memory ...` and `caller indicates that this is not
        a failure` on the next lines): the line after a warning's bare level, or an indented one."""
        continues = self._warning == "head" or (self._warning == "said" and raw[:1] in " \t")
        if continues:
            self._warning = "said" if text else self._warning
        else:
            self._warning = ("said" if text else "head") if is_warning(raw) else None
        return continues

    def flush(self, at: float, step: int | None) -> TrainEvent | None:
        """The event of a wrapper line whose cause the output has not printed (a paste that ends
        there): at the end of a block, since a wrapper and its cause are written together."""
        if self._wrapper is None:
            return None
        text, raw, _ = self._wrapper
        self._wrapper = None
        return self._event(text, raw, at, step)

    def _wait_or_event(self, text: str, raw: str, at: float, step: int | None) -> TrainEvent | None:
        """The crash event for a failure line, or, for a wrapper whose cause follows, None until
        that cause is read."""
        if _WRAPPER.search(text):
            self._wrapper = (text, raw, 0)
            return None
        return self._event(text, raw, at, step)

    def _after_wrapper(self, text: str, raw: str, at: float, step: int | None) -> TrainEvent | None:
        """A line after a wrapper: its cause (an exception, a crash line, `what():`, the end of a
        Root Cause block) gives the event; a traceback is waited for; so many lines without a
        cause report the wrapper itself."""
        opener, opener_raw, seen = self._wrapper or ("", "", 0)
        if TRACEBACK in text or is_frame_line(text):  # the wrapped exception's own traceback
            self._wrapper, self._traceback_lines = None, 1
            return None
        if _ROOT_CAUSE_EXIT.match(text):  # the Root Cause block goes on to its `traceback :`
            return None
        what = text.removeprefix("what():").strip() if text.startswith("what():") else ""
        closes = bool(what or _ROOT_CAUSE_END.match(text) or is_crash_line(text, raw)
                      or is_exception_line(text))
        if not closes and seen + 1 < WRAPPER_LINES:
            self._wrapper = (opener, opener_raw, seen + 1)
            return None
        self._wrapper = None
        if is_exception_line(text) and not _WRAPPER.search(text):
            return self._event(text, raw, at, step)
        return self._event(what or opener, opener_raw, at, step)

    def _logical_tail(self, text: str) -> str:
        """The context as its logical lines, a terminal's hard-wrapped pieces joined again (a hedge
        on the line above, Ray's `There are some potential root causes. (1) ...`, still hedges the
        cause wrapped below it), ending with the failure line whole (context keeps only its start)."""
        lines = list(self._context)
        last = lines and lines[-1] == text[:MAX_CONTEXT_CHARS]
        if last:
            lines[-1] = text
        logical: list[str] = []
        for line, join in zip(lines, self._joins, strict=True):
            if join is None or not logical:
                logical.append(line)
            else:
                logical[-1] += join + line
        return "\n".join(logical) if last else "\n".join([*logical, text])

    def _event(self, text: str, raw: str, at: float, step: int | None) -> TrainEvent:
        """A crash event for a failure line, with its signature, kind and excerpt; the message
        names the kind so that the card says it."""
        message = first_sentence(untagged(text))
        if step is not None:
            message = f"{message} at step {step}"
        context = tuple(self._context)
        tail = "\n".join(context)
        kind = failure_kind(self._logical_tail(text))
        if kind:
            message = f"{message} ({kind})"
        return TrainEvent("crashed", message, raw.rstrip("\r\n"), at, step,
                          failure_signature(tail) or None, tuple(excerpt(context)), failure=kind)
