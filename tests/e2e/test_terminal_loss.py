"""End to end: the app leaves when its terminal vanishes without sending it SIGHUP.

A terminal that hangs up signals only its own session; an app started outside that session (by a
script, a supervisor, `setsid`) used to spin on the dead terminal's end of file for ever.
"""

from __future__ import annotations

import fcntl
import os
import pty
import select
import signal
import struct
import subprocess
import sys
import termios
from pathlib import Path

INSTALLED = Path(sys.executable).parent / "sessiontui"  # the console script, not the source tree
DEADLINE_S = 90  # generous: a cold start on a loaded CI runner; not a timing assertion


def _read_until(master: int, text: bytes) -> bytes:
    """What the app drew until `text` showed (or the deadline passed)."""
    seen = b""
    while text not in seen:
        ready, _, _ = select.select([master], [], [], DEADLINE_S)
        if not ready:
            break
        seen += os.read(master, 65536)
    return seen


def test_the_demo_exits_and_cleans_up_when_its_terminal_is_gone(tmp_path: Path) -> None:
    temp = tmp_path / "tmp"
    temp.mkdir()
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    app = subprocess.Popen([str(INSTALLED), "demo"], stdin=slave, stdout=slave, stderr=slave,
                           env={**os.environ, "TERM": "xterm-256color", "TMPDIR": str(temp)})
    os.close(slave)
    try:
        drawn = _read_until(master, b"Quit")
        assert b"Quit" in drawn, f"the app never showed:\n{drawn[-2000:]!r}"
        os.close(master)  # the terminal goes away; the app is not in its session, so no SIGHUP
        code = app.wait(timeout=DEADLINE_S)
    finally:
        if app.poll() is None:
            app.kill()
    assert code == 128 + signal.SIGHUP
    assert list(temp.iterdir()) == [], "the demo folder outlived its terminal"
