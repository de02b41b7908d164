"""Running a benchmark command while its output streams live and is saved whole to a file."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

CHUNK_BYTES = 65536
# What each further Ctrl-C sends to the command's process group: ask, insist, force.
_STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGKILL)


@dataclass(frozen=True)
class Capture:
    """What a command printed (stdout and stderr merged), how it ended and where it was saved."""

    output: bytes
    exit_code: int
    duration_s: float
    interrupted: bool
    path: Path


def _interrupt(signum: int, frame: object) -> None:
    """Turn SIGTERM and SIGHUP into the same orderly stop as Ctrl-C."""
    raise KeyboardInterrupt


def _trap_stop_signals() -> dict[int, Any]:
    """Route SIGTERM/SIGHUP to the Ctrl-C path; returns the old handlers (none off the main thread)."""
    try:
        return {sig: signal.signal(sig, _interrupt) for sig in (signal.SIGTERM, signal.SIGHUP)}
    except ValueError:  # signals can only be trapped on the main thread
        return {}


def _stop(child: subprocess.Popen[bytes], attempt: int) -> None:
    """Signal the command's whole process group, harder on each attempt."""
    sig = _STOP_SIGNALS[min(attempt, len(_STOP_SIGNALS) - 1)]
    with contextlib.suppress(ProcessLookupError, PermissionError):  # already gone
        os.killpg(child.pid, sig)


def _exit_code(returncode: int) -> int:
    """A shell-style exit status: 128 + N for a command killed by signal N."""
    return 128 - returncode if returncode < 0 else returncode


class _Tee:
    """Copies chunks to the saved file and the terminal; a closed terminal stops only the echo."""

    def __init__(self, saved: BinaryIO, sink: BinaryIO | None) -> None:
        self.saved, self.sink = saved, sink
        self.chunks: list[bytes] = []

    def write(self, chunk: bytes) -> None:
        self.chunks.append(chunk)
        self.saved.write(chunk)
        if self.sink is not None:
            try:
                self.sink.write(chunk)
                self.sink.flush()
            except (BrokenPipeError, ValueError, OSError):
                self.sink = None


def run_and_capture(command: list[str], sink: BinaryIO, path: Path) -> Capture:
    """Run `command` without a pty, streaming its merged output to `sink` and saving it at `path`.

    Ctrl-C (or SIGTERM/SIGHUP) is forwarded to the command, which runs in its own process
    group so it gets the signal exactly once; what it printed up to then is kept. Python
    commands run with PYTHONUNBUFFERED=1, so a pipe does not hold their output back.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    previous = _trap_stop_signals()
    stops = 0
    try:
        with path.open("wb") as saved:
            tee = _Tee(saved, sink)
            try:
                child = subprocess.Popen(
                    command,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                    env={**os.environ, "PYTHONUNBUFFERED": "1"},
                )
            except OSError as exc:
                tee.write(f"sessiontui record: cannot run {command[0]}: {exc.strerror}\n".encode())
                return Capture(b"".join(tee.chunks), 127, time.monotonic() - started, False, path)
            assert child.stdout is not None  # stdout=PIPE
            fd = child.stdout.fileno()
            while True:
                try:
                    chunk = os.read(fd, CHUNK_BYTES)
                    if not chunk:
                        break
                    tee.write(chunk)
                except KeyboardInterrupt:
                    _stop(child, stops)
                    stops += 1
            child.stdout.close()
            returncode, stops = _wait(child, stops)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    return Capture(
        b"".join(tee.chunks), _exit_code(returncode), time.monotonic() - started, stops > 0, path
    )


def _wait(child: subprocess.Popen[bytes], stops: int) -> tuple[int, int]:
    """Wait for the command to end, still answering Ctrl-C by stopping it harder."""
    while True:
        try:
            return child.wait(), stops
        except KeyboardInterrupt:
            _stop(child, stops)
            stops += 1
