"""Leave promptly when the terminal goes away (closed tmux window, dropped ssh) or on SIGTERM.

Textual cannot shut down gracefully once its terminal is gone (its writer thread blocks and the
input thread spins), so the handler runs the caller's cleanup itself and exits the process.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable


def exit_on_hang_up(cleanup: Callable[[], None]) -> None:
    """On SIGHUP or SIGTERM: run `cleanup` (save what must be saved), then exit at once."""

    def handler(signum: int, frame: object) -> None:
        try:
            cleanup()
        finally:
            os._exit(128 + signum)

    for signum in (signal.SIGHUP, signal.SIGTERM):
        signal.signal(signum, handler)
