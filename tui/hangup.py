"""Leave promptly when the terminal goes away (closed tmux window, dropped ssh) or on SIGTERM.

Textual cannot shut down gracefully once its terminal is gone (its writer thread blocks and the
input thread spins), so the handler runs the caller's cleanup itself and exits the process.
A terminal that hangs up sends SIGHUP only to its own session: an app started outside it (from a
script, under `setsid`, by a supervisor) would spin on the dead terminal for ever, so a watcher
thread checks the terminal too.
"""

from __future__ import annotations

import os
import signal
import termios
import threading
import time
from collections.abc import Callable

TERMINAL_CHECK_S = 2.0  # how often the watcher asks whether the terminal is still there


STDIN = 0  # the terminal Textual reads keys from


def exit_on_hang_up(cleanup: Callable[[], None]) -> None:
    """On SIGHUP or SIGTERM, or when the terminal on standard input hangs up: clean up, then exit."""
    for signum in (signal.SIGHUP, signal.SIGTERM):
        signal.signal(signum, lambda signum, frame: _leave(cleanup, signum))
    if os.isatty(STDIN):
        threading.Thread(target=_watch_terminal, args=(STDIN, cleanup),
                         name="terminal-watch", daemon=True).start()


def terminal_is_gone(fd: int) -> bool:
    """A hung-up terminal answers every request with EIO (reads see end of file, which Textual spins on)."""
    try:
        termios.tcgetattr(fd)
    except termios.error:
        return True
    return False


def _watch_terminal(fd: int, cleanup: Callable[[], None]) -> None:
    while not terminal_is_gone(fd):
        time.sleep(TERMINAL_CHECK_S)
    _leave(cleanup, signal.SIGHUP)


def _leave(cleanup: Callable[[], None], signum: int) -> None:
    try:
        cleanup()
    finally:
        os._exit(128 + signum)
