"""The git stamp: one `git status` call, or `.git` read directly when git cannot run."""

from __future__ import annotations

import subprocess
from pathlib import Path

from sessiontui.project_memory import stamp


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-c", "user.email=a@b", "-c", "user.name=a", *args], cwd=repo,
                          check=True, capture_output=True, text=True).stdout.strip()


def test_commit_branch_and_dirty_from_git_and_from_the_files(tmp_path: Path) -> None:
    repo = tmp_path / "proj"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "exp")
    (repo / "f").write_text("x")
    git(repo, "add", "f")
    git(repo, "commit", "-qm", "x")
    head = git(repo, "rev-parse", "HEAD")
    assert stamp._git_state(repo) == stamp.GitState(head, "exp", False)
    (repo / "f").write_text("changed")
    assert stamp._git_state(repo) == stamp.GitState(head, "exp", True)
    assert stamp._git_files_state(repo) == stamp.GitState(head, "exp", None)
    git(repo, "pack-refs", "--all")  # the branch now lives in packed-refs only
    assert stamp._git_files_state(repo) == stamp.GitState(head, "exp", None)
    worktree = tmp_path / "wt"
    git(repo, "worktree", "add", "-q", "-b", "side", str(worktree))
    assert stamp._git_files_state(worktree) == stamp.GitState(head, "side", None)
    assert stamp.git_state(worktree).branch == "side"


def test_outside_git_nothing_is_stamped(tmp_path: Path) -> None:
    assert stamp.git_state(tmp_path) == stamp.GitState()
