"""Stamping records with where they were made: host, GPUs and the project's git state."""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from sessiontui.project_memory.paths import git_root
from sessiontui.project_memory.records import Record

GIT_TIMEOUT_S = 5.0
GIT_CACHE_S = 10.0
_GIT_CACHE: dict[Path, tuple[float, GitState]] = {}  # work tree -> (monotonic time read, state)
_RUNNING: dict[Path, subprocess.Popen[str] | None] = {}  # work tree -> its `git status`, started


@dataclass(frozen=True)
class GitState:
    """Commit, branch and dirty flag of a work tree; all None outside git."""

    commit: str | None = None
    branch: str | None = None
    dirty: bool | None = None


def git_state(path: Path | None = None) -> GitState:
    """The git state of the work tree holding `path` (the current directory by default), read
    once per process and work tree (again after GIT_CACHE_S: the app runs for days); never raises."""
    root = git_root(path)
    if root is None:
        return GitState()
    read_at, state = _GIT_CACHE.get(root, (0.0, GitState()))
    if _stale(read_at):
        running = _RUNNING.pop(root) if root in _RUNNING else _start_git(root)
        state = _git_result(root, running)
        _GIT_CACHE[root] = (time.monotonic(), state)
    return state


def start_git_state(path: Path | None = None) -> None:
    """Start reading the git state that `git_state(path)` will return, so that `git status` runs
    while the caller does other work (imports, NVML, opening the store); never raises."""
    root = git_root(path)
    if root is not None and root not in _RUNNING and _stale(_GIT_CACHE.get(root, (0.0, GitState()))[0]):
        _RUNNING[root] = _start_git(root)


def _stale(read_at: float) -> bool:
    return not read_at or time.monotonic() - read_at > GIT_CACHE_S


def _git_state(root: Path) -> GitState:
    """One `git status` call gives commit, branch and dirty flag (GitPython took ~40% of a
    `bench add`); without a git binary, the commit and branch are read from `.git` itself."""
    return _git_result(root, _start_git(root))


def _start_git(root: Path) -> subprocess.Popen[str] | None:
    """The `git status` that reads a work tree's state, started; None when git cannot run."""
    try:
        return subprocess.Popen(
            ["git", "-C", str(root), "status", "--porcelain=v2", "--branch", "--untracked-files=no"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
            env={**os.environ, "GIT_OPTIONAL_LOCKS": "0", "LC_ALL": "C"},
        )
    except (OSError, subprocess.SubprocessError):
        return None


def _git_result(root: Path, running: subprocess.Popen[str] | None) -> GitState:
    """What a started `git status` printed, as a state (from `.git` itself when it could not run)."""
    if running is None:
        return _git_files_state(root)
    try:
        output, _ = running.communicate(timeout=GIT_TIMEOUT_S)
    except subprocess.SubprocessError:
        running.kill()
        running.communicate()
        return _git_files_state(root)
    if running.returncode != 0:
        return GitState()  # not a work tree git can read
    commit = branch = None
    dirty = False
    for line in output.splitlines():
        if line.startswith("# branch.oid ") and line[13:] != "(initial)":
            commit = line[13:]
        elif line.startswith("# branch.head ") and line[14:] != "(detached)":
            branch = line[14:]
        elif not line.startswith("#"):
            dirty = True
    return GitState(commit, branch, dirty)


def _git_files_state(root: Path) -> GitState:
    """Commit and branch from `.git/HEAD` and its refs (a worktree's `.git` file followed)."""
    try:
        git_dir = root / ".git"
        if git_dir.is_file():
            git_dir = (root / git_dir.read_text().partition("gitdir:")[2].strip()).resolve()
        common = git_dir
        if (git_dir / "commondir").is_file():
            common = (git_dir / (git_dir / "commondir").read_text().strip()).resolve()
        head = (git_dir / "HEAD").read_text().strip()
        if not head.startswith("ref: "):
            return GitState(head or None, None, None)
        ref = head[5:]
        branch = ref.removeprefix("refs/heads/")
        loose = common / ref
        if loose.is_file():
            return GitState(loose.read_text().strip() or None, branch, None)
        packed = common / "packed-refs"
        for line in packed.read_text().splitlines() if packed.is_file() else []:
            sha, _, name = line.partition(" ")
            if name == ref:
                return GitState(sha, branch, None)
        return GitState(None, branch, None)
    except OSError:
        return GitState()


def _hostname() -> str:
    """This host's name (os.uname's is gethostname's on POSIX, without importing socket)."""
    if hasattr(os, "uname"):
        return os.uname().nodename
    import socket

    return socket.gethostname()


def stamp_all(
    records: Iterable[Record], gpus: list[str] | None = None, path: Path | None = None, *,
    driver: str | None = None, cuda: str | None = None,
) -> None:
    """Fill host, GPU names, driver, CUDA and git state on new records (keeps values already set);
    git is read once per process (`git_state`)."""
    host, state = _hostname(), None
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
