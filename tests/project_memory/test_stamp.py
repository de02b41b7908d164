"""The git stamp: one `git status` call, or `.git` read directly when git cannot run."""

from __future__ import annotations

import subprocess
from pathlib import Path

from sessiontui.project_memory import stamp


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-c", "user.email=a@b", "-c", "user.name=a", *args], cwd=repo,
                          check=True, capture_output=True, text=True).stdout.strip()


def work_tree(repo: Path) -> str:
    """A git work tree at `repo` with one commit of the file `f` on branch `exp`; its commit."""
    repo.mkdir()
    git(repo, "init", "-q", "-b", "exp")
    (repo / "f").write_text("x")
    git(repo, "add", "f")
    git(repo, "commit", "-qm", "x")
    return git(repo, "rev-parse", "HEAD")


def as_a_fresh_process_in(repo: Path, monkeypatch) -> None:
    """The current directory `repo`, and no git state read or started yet."""
    monkeypatch.chdir(repo)
    monkeypatch.setattr(stamp, "_GIT_CACHE", {})
    monkeypatch.setattr(stamp, "_RUNNING", {})


def test_commit_branch_and_dirty_from_git_and_from_the_files(tmp_path: Path) -> None:
    repo = tmp_path / "proj"
    head = work_tree(repo)
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


def test_a_started_git_status_gives_what_a_direct_one_gives(tmp_path: Path, monkeypatch) -> None:
    repo = tmp_path / "proj"
    head = work_tree(repo)
    (repo / "f").write_text("changed")
    as_a_fresh_process_in(repo, monkeypatch)
    stamp.start_git_state()
    assert list(stamp._RUNNING) == [repo.resolve()]
    assert stamp.git_state() == stamp._git_state(repo) == stamp.GitState(head, "exp", True)
    assert stamp._RUNNING == {}  # collected
    stamp.start_git_state()  # read moments ago: nothing started, the cached state stands
    assert stamp._RUNNING == {}
