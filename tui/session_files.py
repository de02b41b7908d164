"""Per-project files of the app in `.sessiontui/`: the ask history and who has the app open."""

from __future__ import annotations

import contextlib
import os
import socket
import threading
from pathlib import Path

HISTORY_NAME = "ask_history.txt"
OPEN_DIR = "open"  # one empty file per running app: <host>-<pid>
HISTORY_SIZE = 100


def read_history(folder: Path) -> list[str]:
    """The questions asked in this project, oldest first (none when the file is missing)."""
    try:
        text = (folder / HISTORY_NAME).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return []
    return [line for line in text.splitlines() if line.strip()][-HISTORY_SIZE:]


def write_history(folder: Path, questions: list[str]) -> None:
    """Keep the latest questions, one a line (a question never holds a line break)."""
    lines = [" ".join(q.split()) for q in questions[-HISTORY_SIZE:]]
    folder.mkdir(parents=True, exist_ok=True)
    temp = folder / f".{HISTORY_NAME}.{os.getpid()}.{threading.get_ident()}.tmp"
    temp.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    os.replace(temp, folder / HISTORY_NAME)


def _marker(folder: Path) -> Path:
    return folder / OPEN_DIR / f"{socket.gethostname()}-{os.getpid()}"


def enter(folder: Path) -> list[int]:
    """Mark this app as open on the project; the pids of other live apps on this host."""
    from sessiontui.project_memory.exchange import pid_alive  # the store's: imported when opened

    marker = _marker(folder)
    marker.parent.mkdir(parents=True, exist_ok=True)
    marker.touch()
    prefix = f"{socket.gethostname()}-"
    others = []
    for entry in marker.parent.iterdir():
        pid_text = entry.name.removeprefix(prefix)
        if entry == marker or not entry.name.startswith(prefix) or not pid_text.isdigit():
            continue
        if pid_alive(int(pid_text)):
            others.append(int(pid_text))
        else:  # a crashed app's marker
            entry.unlink(missing_ok=True)
    return sorted(others)


def leave(folder: Path) -> None:
    """Remove this app's mark (nothing to do when it was never made)."""
    with contextlib.suppress(OSError):
        _marker(folder).unlink(missing_ok=True)
