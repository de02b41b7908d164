"""`bench add` stamps what a result was measured on: host, GPUs, driver, CUDA and git state (the
git state read while the rest of the command runs)."""

from __future__ import annotations

import socket
from pathlib import Path

from sessiontui.project_memory import stamp
from sessiontui.project_memory.store import Store
from sessiontui.tui.cli import main
from tests.collectors.test_gpu import FakeNvml
from tests.project_memory.test_stamp import as_a_fresh_process_in, work_tree


def test_bench_add_stamps_host_gpus_driver_cuda_and_git(tmp_path: Path, memory_dir: Path,
                                                          monkeypatch, capsys) -> None:
    repo = tmp_path / "proj"
    head = work_tree(repo)
    (repo / "f").write_text("an uncommitted change")
    as_a_fresh_process_in(repo, monkeypatch)
    FakeNvml(monkeypatch)  # NVML as a two-H200 host with driver 580.159.04 and CUDA 13.0 shows it
    assert main(["bench", "add", "--config", "sglang c=1", "--value", "51.2", "--baseline"]) == 0
    assert "added benchmark" in capsys.readouterr().out
    with Store(memory_dir / "memory.db") as store:
        added = store.list("benchmark")[0]
    assert added.host == socket.gethostname()
    assert added.gpus == ["NVIDIA H200", "NVIDIA H200"]
    assert (added.driver_version, added.cuda_version) == ("580.159.04", "13.0")
    assert (added.git_commit, added.git_branch, added.git_dirty) == (head, "exp", True)
    assert stamp._RUNNING == {}  # the git status started early was collected
