"""Failure events a training log announces: tracebacks, CUDA/Triton resource errors, NCCL, signals."""

from __future__ import annotations

import re
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
from sessiontui.collectors.trainlog.reader import LineReader
from sessiontui.project_memory.events import TrainEvent

__all__ = ["FailureWatcher", "TrainEvent", "crash_kind", "first_sentence", "has_hint"]

CONTEXT_LINES = 40  # lines kept before a failure: its traceback, from which the excerpt is cut
MAX_CONTEXT_CHARS = 500  # per context line: a 1 MB line must not ride along in every event
MAX_TRACEBACK_LINES = 400  # give up waiting for the exception line of a runaway traceback
MAX_MESSAGE_CHARS = 160
WRAPPER_LINES = 16  # lines a wrapper's report may take to name its cause (torchelastic's Root Cause)

# A GPU that left the system: Xid 79, NVML's NVML_ERROR_GPU_IS_LOST (`GPU is lost`). It is not an
# ECC error, so it is told apart before `failure_kind`'s any-Xid rule (NVIDIA's Xid catalogue:
# docs.nvidia.com/deploy/xid-errors, 48/63/64/92/94/95 are the ECC and row-remapping ones).
_GPU_LOST = re.compile(r"fallen off the bus|GPU is lost", re.IGNORECASE)
_GPU_FAULT = re.compile(r"\bNVRM: Xid\b|fallen off the bus|GPU is lost")  # a crash line of its own
_XID = re.compile(r"\bXid\b(?:\s*\([^)\n]{0,40}\))?:?\s*(\d+)\b")  # `Xid (PCI:0000:3b:00): 79`, `Xid 79`
_ECC_WORDS = re.compile(r"uncorrectable ECC error|cudaErrorECCUncorrectable", re.IGNORECASE)
_ECC_XIDS = frozenset({48, 63, 64, 92, 94, 95})
_MEMORY_FAULT_XIDS = frozenset({13, 31})  # graphics engine exception, MMU fault: a kernel's bad access
# A launcher's exit code with no other word for it: DeepSpeed's `exits with return code = -9`,
# torchelastic's `exitcode  : -11 (pid: 1)`; negative codes are signals, 128+N the shell's form.
_EXIT_CODE = re.compile(r"(?:return code|exitcode|exit code|exit status)\s*[=:]?\s*(-?\d+)\b",
                        re.IGNORECASE)
_SIGNAL_KINDS = {9: "host_oom", 11: "segfault", 7: "bus_error", 6: "aborted"}
# Kinds in words `failure_kind` does not know: PyTorch ProcessGroupNCCL's `NCCL communicator was
# aborted on rank N.` (its reason, when printed, names a more specific kind), and faulthandler's
# `Fatal Python error: Aborted` (a C++ abort under Python).
_MORE_KINDS = (("nccl_error", re.compile(r"NCCL communicator was aborted")),
               ("aborted", re.compile(r"Fatal Python error: Aborted")))
# Lines that wrap a failure whose cause follows them: Hydra's job report, a C++ `terminate`
# whose `what():` comes next, torchelastic's ChildFailedError before its Root Cause block.
_WRAPPER = re.compile(r"Error executing job with overrides|terminate called after throwing"
                      r"|ChildFailedError")
_ROOT_CAUSE_EXIT = re.compile(r"exitcode\s*:\s*-?\d+")  # torchelastic's Root Cause block
_ROOT_CAUSE_END = re.compile(r"traceback\s*:")
_BARS = frozenset({"tqdm", "lightning"})  # a bar's closing redraw may print one step past a crash


def crash_kind(tail: str) -> str | None:
    """How a tail's run ended: the kind of its failure, none when the job's own lines go on."""
    kind = failure_kind_of(tail)
    return None if kind is None or _went_on(tail) else kind


def failure_kind_of(tail: str) -> str | None:
    """The failure kind a tail reports: `failure_kind`'s, with a lost GPU and the Xid numbers
    told apart and a launcher's bare signal exit code named."""
    kind = failure_kind(tail)
    xids = {int(code) for code in _XID.findall(tail)}
    if kind in (None, "ecc_error", "cuda_error", "aborted") and (79 in xids or _GPU_LOST.search(tail)):
        return "gpu_lost"
    if kind == "ecc_error" and not _ECC_WORDS.search(tail) and not xids & _ECC_XIDS:
        return "illegal_memory_access" if xids & _MEMORY_FAULT_XIDS else "cuda_error"
    if kind is None:
        codes = [int(code) for code in _EXIT_CODE.findall(tail)]
        signals = [_SIGNAL_KINDS.get(-code if code < 0 else code - 128) for code in codes]
        named = (name for name, pattern in _MORE_KINDS if pattern.search(tail))
        return next((signal for signal in reversed(signals) if signal), None) or next(named, None)
    return kind


def _went_on(tail: str) -> bool:
    """Whether the job's own progress lines go on past the last failure the tail reports (a
    DataLoader worker's segfault, then `Train Epoch: 1516`): a failure it survived is not how
    it ended. A line moving past the furthest step (or epoch) read before the failure counts;
    a bar's needs a second one, as its closing redraw may print one step further."""
    watcher, reader = FailureWatcher(), LineReader()
    furthest: dict[str, float] = {}
    failed, moves = False, 0
    for line in tail.splitlines():
        if watcher.feed(line, 0.0, None) or watcher.in_traceback:
            failed, moves = True, 0
            continue
        for reading in reader.read(line):
            key, at = ("step", reading.step) if reading.step is not None else ("epoch", reading.epoch)
            if at is None:
                continue
            if failed and at > furthest.get(key, at):
                moves += 1 if reading.format in _BARS else 2
            furthest[key] = max(furthest.get(key, at), at)
    return moves >= 2


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

    @property
    def in_traceback(self) -> bool:
        """Whether the lines being read belong to a traceback whose exception line is pending."""
        return self._traceback_lines > 0 or self._wrapper is not None

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
        if self._wrapper is not None:
            return self._after_wrapper(text, raw, at, step)
        if self._traceback_lines:
            self._traceback_lines += 1
            if is_exception_line(text) or self._traceback_lines > MAX_TRACEBACK_LINES:
                self._traceback_lines = 0
                return self._wait_or_event(text, raw, at, step)
            return None
        if TRACEBACK in text or is_frame_line(text):  # a tail may start inside a traceback
            self._traceback_lines = 1
            return None
        if any(text.startswith(chained) for chained in CHAINED):
            return None
        if CRASH_LINE.search(text) or is_exception_line(text) or _GPU_FAULT.search(text):
            return self._wait_or_event(text, raw, at, step)  # a paste may drop the traceback
        return None

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
        closes = bool(what or _ROOT_CAUSE_END.match(text) or CRASH_LINE.search(text)
                      or is_exception_line(text))
        if not closes and seen + 1 < WRAPPER_LINES:
            self._wrapper = (opener, opener_raw, seen + 1)
            return None
        self._wrapper = None
        if is_exception_line(text) and not _WRAPPER.search(text):
            return self._event(text, raw, at, step)
        return self._event(what or opener, opener_raw, at, step)

    def _event(self, text: str, raw: str, at: float, step: int | None) -> TrainEvent:
        """A crash event for a failure line, with its signature, kind and excerpt; the message
        names the kind so that the card says it."""
        message = first_sentence(text)
        if step is not None:
            message = f"{message} at step {step}"
        context = tuple(self._context)
        tail = "\n".join(context)
        kind = failure_kind_of(tail)
        if kind:
            message = f"{message} ({kind})"
        return TrainEvent("crashed", message, raw.rstrip("\r\n"), at, step,
                          failure_signature(tail) or None, tuple(excerpt(context)), failure=kind)
