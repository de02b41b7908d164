"""Drive a terminal app inside a detached tmux session on a private socket, as a user would."""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

# remain-on-exit keeps a crashed app's last screen readable instead of closing the pane.
_CONFIG = "set -g remain-on-exit on\nset -g status off\nset -g history-limit 2000\n"


def tmux_available() -> bool:
    """Whether a tmux binary is on PATH."""
    return shutil.which("tmux") is not None


class TmuxSession:
    """One app in one tmux pane of a fixed size; always `close()` it (or use `with`)."""

    def __init__(
        self,
        command: Sequence[str],
        *,
        width: int = 100,
        height: int = 30,
        env: Mapping[str, str] | None = None,
        cwd: Path | None = None,
    ) -> None:
        self.command = list(command)
        self.width, self.height = width, height
        self.env = {**os.environ, **(env or {})}
        self.cwd = cwd
        self.socket = f"sessiontui-{os.getpid()}-{secrets.token_hex(4)}"
        self.started_at: float | None = None
        self._config = Path(tempfile.mkstemp(prefix="tmux-", suffix=".conf")[1])

    def tmux(self, *args: str) -> str:
        """Run one tmux command against this session's private server; its stdout."""
        done = subprocess.run(
            ["tmux", "-L", self.socket, "-f", str(self._config), *args],
            capture_output=True, text=True, env=self.env, cwd=self.cwd, timeout=30,
        )
        if done.returncode != 0:
            raise RuntimeError(f"tmux {args[0]} failed: {done.stderr.strip()}")
        return done.stdout

    def start(self) -> TmuxSession:
        """Start the app detached in a pane of width x height."""
        self._config.write_text(_CONFIG)
        self.started_at = time.perf_counter()
        self.tmux(
            "new-session", "-d", "-s", "app", "-x", str(self.width), "-y", str(self.height),
            "--", *self.command,
        )
        return self

    def screen(self) -> str:
        """The visible text of the pane, one line per row."""
        return self.tmux("capture-pane", "-p", "-t", "app")

    def send_keys(self, *keys: str, literal: bool = False) -> None:
        """Type keys: tmux key names (`Enter`, `C-q`), or text as-is with `literal=True`."""
        self.tmux("send-keys", "-t", "app", *(["-l"] if literal else []), *keys)

    def pane_value(self, name: str) -> str:
        """A tmux format value of the pane, e.g. `pane_pid` or `pane_dead`."""
        return self.tmux("display-message", "-p", "-t", "app", f"#{{{name}}}").strip()

    def pane_pid(self) -> int:
        """The pid of the app (the pane's first process)."""
        return int(self.pane_value("pane_pid"))

    def wait_for(
        self, condition: Callable[[str], bool], *, timeout_s: float, poll_s: float = 0.05
    ) -> str | None:
        """Poll the screen until `condition(screen)` holds; the screen then, or None at the deadline."""
        deadline = time.monotonic() + timeout_s
        while True:
            screen = self.screen()
            if condition(screen):
                return screen
            if time.monotonic() >= deadline:
                return None
            time.sleep(poll_s)

    def close(self) -> None:
        """Kill the private tmux server and everything in it."""
        subprocess.run(
            ["tmux", "-L", self.socket, "kill-server"], capture_output=True, env=self.env, timeout=30
        )
        self._config.unlink(missing_ok=True)

    def __enter__(self) -> TmuxSession:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()
