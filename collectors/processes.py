"""Host-side figures of the processes on the GPUs (user, %CPU, RSS, age, command line), and signals.

NVML names the PIDs; psutil says who they are. Each process is looked up in full once (user, start
time, command line, whether it writes a followed log); later samples read only %CPU and RSS.
"""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import psutil

_MIB = 1024 * 1024
SIGNALS = {"SIGINT": signal.SIGINT, "SIGTERM": signal.SIGTERM, "SIGKILL": signal.SIGKILL}


@dataclass(frozen=True)
class ProcessInfo:
    pid: int
    user: str
    cpu_pct: float | None  # % of one core since the previous sample (None on the first)
    rss_mib: float | None
    started_at: float  # unix time; with the PID it names the process (PIDs are reused)
    command: str
    follows_log: bool  # writes one of the followed training logs: the job being watched


@dataclass
class _Watched:
    process: psutil.Process
    info: ProcessInfo


class ProcessWatcher:
    """Keeps one psutil.Process per watched PID, so %CPU is measured between samples."""

    def __init__(self, logs: Callable[[], Collection[Path]] = tuple) -> None:
        self._logs = logs
        self._watched: dict[int, _Watched] = {}

    def sample(self, pids: Iterable[int]) -> dict[int, ProcessInfo]:
        """Figures for each PID still alive; PIDs no longer asked about are forgotten."""
        wanted = set(pids)
        for pid in set(self._watched) - wanted:
            del self._watched[pid]
        found: dict[int, ProcessInfo] = {}
        for pid in sorted(wanted):
            info = self._sample_one(pid)
            if info is not None:
                found[pid] = info
        return found

    def _sample_one(self, pid: int) -> ProcessInfo | None:
        watched = self._watched.get(pid)
        try:
            if watched is None or not watched.process.is_running():
                watched = self._watched[pid] = self._first_look(pid)
                return watched.info
            with watched.process.oneshot():
                cpu = watched.process.cpu_percent()
                rss = watched.process.memory_info().rss / _MIB
        except psutil.Error:
            self._watched.pop(pid, None)
            return None
        watched.info = ProcessInfo(watched.info.pid, watched.info.user, cpu, rss,
                                   watched.info.started_at, watched.info.command,
                                   watched.info.follows_log)
        return watched.info

    def _first_look(self, pid: int) -> _Watched:
        """Everything that does not change over a process's life, read once."""
        process = psutil.Process(pid)
        with process.oneshot():
            process.cpu_percent()  # starts the %CPU interval
            user = _user(process)
            command = " ".join(_cmdline(process)) or process.name()
            rss = process.memory_info().rss / _MIB
            started = process.create_time()
        info = ProcessInfo(pid, user, None, rss, started, command,
                           _writes_any(process, self._logs()))
        return _Watched(process, info)


def _user(process: psutil.Process) -> str:
    try:
        return process.username()
    except (psutil.Error, KeyError):  # KeyError: a UID with no name in this container
        return str(process.uids().real)


def _cmdline(process: psutil.Process) -> Sequence[str]:
    try:
        return process.cmdline()
    except psutil.AccessDenied:
        return ()


def _writes_any(process: psutil.Process, logs: Collection[Path]) -> bool:
    """Whether the process has one of `logs` open (its stdout or stderr, or a log file)."""
    if not logs:
        return False
    targets = {os.path.realpath(log) for log in logs}
    paths = set()
    for fd in (1, 2):
        with contextlib.suppress(OSError):
            paths.add(os.path.realpath(f"/proc/{process.pid}/fd/{fd}"))
    with contextlib.suppress(psutil.Error):
        paths.update(os.path.realpath(f.path) for f in process.open_files())
    return not paths.isdisjoint(targets)


def signal_process(pid: int, started_at: float, name: str) -> str | None:
    """Send signal `name` (SIGINT/SIGTERM/SIGKILL) to the process seen as (pid, started_at).

    None when sent; otherwise why not, in one line. A PID now held by another process is refused.
    """
    try:
        process = psutil.Process(pid)
        if abs(process.create_time() - started_at) > 0.01:
            return f"process {pid} has exited (its PID now names another process)"
        process.send_signal(SIGNALS[name])
    except psutil.NoSuchProcess:
        return f"process {pid} has exited"
    except psutil.AccessDenied:
        return f"no permission to signal process {pid}"
    return None
