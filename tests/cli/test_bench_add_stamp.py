"""`bench add` stamps what a result was measured on: host, GPUs, driver, CUDA and git state, with
the git state read while the rest of the command runs."""

from __future__ import annotations

import socket
import subprocess
from pathlib import Path

import pytest

from sessiontui.project_memory import stamp
from sessiontui.project_memory.store import Store
from sessiontui.tui.cli import main
from tests.collectors.test_gpu import FakeNvml


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-c", "user.email=a@b", "-c", "user.name=a", *args], cwd=repo,
                          check=True, capture_output=True, text=True).stdout.strip()


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A work tree on branch `exp` with one uncommitted change, as the current directory."""
    path = tmp_path / "proj"
    path.mkdir()
    git(path, "init", "-q", "-b", "exp")
    (path / "bench.py").write_text("print(1)\n")
    git(path, "add", "bench.py")
    git(path, "commit", "-qm", "bench")
    (path / "bench.py").write_text("print(2)\n")
    monkeypatch.chdir(path)
    monkeypatch.setattr(stamp, "_GIT_CACHE", {})  # as a fresh process
    monkeypatch.setattr(stamp, "_RUNNING", {})
    return path


def test_bench_add_stamps_host_gpus_driver_cuda_and_git(repo: Path, memory_dir: Path, monkeypatch,
                                                          capsys) -> None:
    FakeNvml(monkeypatch)  # NVML as a two-H200 host with driver 580.159.04 and CUDA 13.0 shows it
    assert main(["bench", "add", "--config", "sglang c=1", "--value", "51.2", "--baseline"]) == 0
    with Store(memory_dir / "memory.db") as store:
        added = store.list("benchmark")[0]
    assert added.host == socket.gethostname()
    assert added.gpus == ["NVIDIA H200", "NVIDIA H200"]
    assert (added.driver_version, added.cuda_version) == ("580.159.04", "13.0")
    assert (added.git_commit, added.git_branch, added.git_dirty) == (
        git(repo, "rev-parse", "HEAD"), "exp", True)
    assert stamp._RUNNING == {}  # the git status started early was collected


def test_a_started_git_status_gives_what_a_direct_one_gives(repo: Path) -> None:
    stamp.start_git_state()
    assert list(stamp._RUNNING) == [repo.resolve()]
    assert stamp.git_state() == stamp._git_state(repo) == stamp.GitState(
        git(repo, "rev-parse", "HEAD"), "exp", True)
    git(repo, "commit", "-qam", "clean")
    stamp.start_git_state()  # read moments ago: nothing started, the cached state stands
    assert stamp._RUNNING == {}
