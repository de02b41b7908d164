"""Where a project's memory lives, found without importing GitPython."""

from __future__ import annotations

import os
from pathlib import Path

ENV_DIR = "SESSIONTUI_DIR"
DIR_NAME = ".sessiontui"
DB_NAME = "memory.db"


def git_root(start: Path | None = None) -> Path | None:
    """The nearest ancestor holding `.git` (a folder or a worktree file), or None."""
    here = (start or Path.cwd()).resolve()
    for candidate in (here, *here.parents):
        if (candidate / ".git").exists():
            return candidate
    return None


def project_root(start: Path | None = None) -> Path:
    """The git root of `start`, or `start` itself outside git."""
    start = (start or Path.cwd()).resolve()
    return git_root(start) or start


def memory_dir(start: Path | None = None) -> Path:
    """The `.sessiontui` folder of the project, or `$SESSIONTUI_DIR` when set."""
    override = os.environ.get(ENV_DIR)
    if override:
        return Path(override).expanduser()
    return project_root(start) / DIR_NAME


def database_path(start: Path | None = None) -> Path:
    """The SQLite file that holds the project memory."""
    return memory_dir(start) / DB_NAME
