"""SVG snapshots of the GPU pane for 1, 4 and 8 GPUs at 80x24 (the GPU tab) and 160x48 (the grid).

GPU samples come from recorded H200 traces (tests/fixtures/gpu, replayed by ReplayGpuCollector);
the pane is fed a minute of them so its charts have history. Host figures are fixed.
Regenerate after an intended change: `pytest tests/tui/test_gpu_snapshots.py --snapshot-update`.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sessiontui.collectors.gpu_replay import ReplayGpuCollector
from sessiontui.collectors.host import DiskUsage, HostSnapshot
from sessiontui.collectors.processes import ProcessInfo
from sessiontui.tui.app import SessionApp
from tests.tui.app_fakes import SequenceCollector, until

TRACES = Path(__file__).parents[1] / "fixtures" / "gpu"
START = 1_796_082_474.0
SAMPLES = 46  # the replayed minute up to a moment when two loads share GPU 0


class Ticks:
    """A clock that moves one second per reading, so replayed samples are 1 s apart."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


def host_for(pids: set[int]) -> HostSnapshot:
    """The host of an 8x H200 box, the first process being the followed training job."""
    processes = {
        pid: ProcessInfo(
            pid=pid, user="alice" if rank % 2 == 0 else "bob", cpu_pct=98.0 + rank,
            rss_mib=12_000.0 + 100 * rank, started_at=START - 3600 - 60 * rank,
            command=(f"/opt/conda/bin/python -u train_eagle3.py --target-model-path "
                     f"meta-llama/Llama-3.1-8B-Instruct --local-rank {rank} --batch-size 8"),
            follows_log=rank == 0,
        )
        for rank, pid in enumerate(sorted(pids))
    }
    return HostSnapshot(
        at=START, cpu_pct=37.0, mem_used_mib=310_000.0, mem_total_mib=2_064_000.0,
        disks=(DiskUsage("/data", 3600.0, 150.0, low=True),), events=(),
        load_avg=(12.4, 11.9, 10.2), swap_used_mib=0.0, swap_total_mib=8192.0,
        processes=processes,
    )


def gpu_app(tmp_path: Path, gpus: int) -> SessionApp:
    replay = ReplayGpuCollector(TRACES / f"h200_{gpus}gpu.jsonl", clock=Ticks())
    frames = [replay.sample() for _ in range(SAMPLES)]
    pids = {p.pid for frame in frames for gpu in frame.gpus for p in gpu.processes}
    app = SessionApp(tmp_path, store_path=tmp_path / "memory.db",
                     gpu_collector=SequenceCollector(frames[0]),
                     host_collector=SequenceCollector(host_for(pids)), refresh_s=3600.0)
    app.replayed = frames  # type: ignore[attr-defined]
    return app


async def fed(pilot) -> None:
    """Wait for the first samples, then feed the pane the rest of the replayed minute."""
    app = pilot.app
    await until(pilot, lambda: app.gpu_pane.snapshot and app.gpu_pane.host)
    for frame in app.replayed[1:]:
        app.gpu_pane.snapshot = frame
    await pilot.pause()


@pytest.mark.parametrize("gpus", [1, 4, 8])
@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
def test_gpu_pane(tmp_path: Path, snap_compare, gpus: int, size: tuple[int, int]) -> None:
    assert snap_compare(gpu_app(tmp_path, gpus), terminal_size=size, run_before=fed)
