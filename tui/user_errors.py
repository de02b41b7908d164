"""Failures told in words a user acts on: what is wrong and where, never an internal name."""

from __future__ import annotations

import errno
import os
from pathlib import Path

WORKER_TASKS = {  # a worker group, as the user knows that work
    "telemetry": "Sampling the GPUs and host",
    "training": "Following the training logs",
    "memory-watch": "Watching the memory for changes",
    "memory-read": "Reading the memory",
    "memory-write": "Saving to the memory",
    "export": "Exporting the memory",
    "ask": "Answering",
    "config": "Saving sessiontui.toml",
    "session": "Opening the session",
}


class UserError(Exception):
    """A failure whose message is already in the user's words."""


def store_problem(exc: BaseException, store_path: Path) -> str:
    """Why the memory could not be written, and what to do about it."""
    folder = store_path.parent
    text = str(exc)
    if "readonly" in text or "read-only" in text or getattr(exc, "errno", None) in (
        errno.EROFS, errno.EACCES, errno.EPERM
    ) or (folder.exists() and not os.access(folder, os.W_OK)):
        return f"the memory folder {folder} is read-only; make it writable (or set SESSIONTUI_DIR)"
    if "disk" in text and "full" in text or getattr(exc, "errno", None) == errno.ENOSPC:
        return f"the disk holding {folder} is full; free some space and save again"
    if "locked" in text or "busy" in text:
        return "another process is writing to the memory; save again in a moment"
    # the store names its file; the user knows it, and a long path would push the reason out of
    # a one-line notice (a deep project folder cut "is damaged" off)
    return text.replace(f"{store_path}: ", "").replace(str(store_path), store_path.name)


def worker_problem(group: str, error: BaseException | None, store_path: Path) -> str:
    """A failed background task as one sentence: which work, and why."""
    task = WORKER_TASKS.get(group, "Background work")
    if isinstance(error, UserError):
        reason = str(error)
    elif error is not None and type(error).__name__ == "StoreError":
        reason = store_problem(error, store_path)
    else:
        reason = str(error) or type(error).__name__
    return f"{task} failed: {reason}"
