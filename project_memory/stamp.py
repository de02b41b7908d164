"""Stamping records with where they were made: host, GPUs and the project's git state."""

from __future__ import annotations

import socket
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from sessiontui.project_memory.records import Record


@dataclass(frozen=True)
class GitState:
    """Commit, branch and dirty flag of a work tree; all None outside git."""

    commit: str | None = None
    branch: str | None = None
    dirty: bool | None = None


def git_state(path: Path | None = None) -> GitState:
    """Read the git state with GitPython (imported only here); never raises."""
    try:
        import git  # GitPython: slow to import, so only when a record is written
    except ImportError:
        return GitState()
    try:
        repo = git.Repo(path or Path.cwd(), search_parent_directories=True)
    except Exception:  # not a repo, no git binary, unreadable .git
        return GitState()
    with repo:
        try:
            commit = repo.head.commit.hexsha
        except Exception:  # a repo without commits yet
            commit = None
        try:
            branch = None if repo.head.is_detached else repo.active_branch.name
        except Exception:
            branch = None
        try:
            dirty = repo.is_dirty(untracked_files=False)
        except Exception:
            dirty = None
    return GitState(commit, branch, dirty)


def stamp_all(
    records: Iterable[Record], gpus: list[str] | None = None, path: Path | None = None, *,
    driver: str | None = None, cuda: str | None = None,
) -> None:
    """Fill host, GPU names, driver, CUDA and git state on new records (keeps values already set);
    git is read once for the whole batch, since it costs a repository open and a `git diff`."""
    host, state = socket.gethostname(), None
    for record in records:
        record.host = record.host or host
        if gpus and not record.gpus:
            record.gpus = list(gpus)
        record.driver_version = record.driver_version or driver
        record.cuda_version = record.cuda_version or cuda
        if record.git_commit is None and record.git_branch is None:
            state = state or git_state(path)
            record.git_commit, record.git_branch, record.git_dirty = (
                state.commit, state.branch, state.dirty
            )


def stamp(record: Record, gpus: list[str] | None = None, path: Path | None = None) -> Record:
    """Stamp one new record (see `stamp_all`)."""
    stamp_all([record], gpus, path)
    return record
