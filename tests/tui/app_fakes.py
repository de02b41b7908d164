"""Deterministic collectors and followers injected into SessionApp in Pilot and snapshot tests.

GPU and host snapshots use the real collector dataclasses; figures follow nvidia-smi on an H200
(NVIDIA driver 560 series: 143771 MiB total, 700 W limit). Training snapshots are
real `sessiontui.collectors.trainlog.TrainSnapshot`s of a SpecForge `train_eagle3.py` run (TTT length 7).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from sessiontui.collectors.gpu import GpuProcess, GpuSample, GpuSnapshot
from sessiontui.collectors.host import DiskUsage, HostSnapshot
from sessiontui.collectors.trainlog import TrainEvent, TrainSnapshot

H200_MIB = 143771.0


def gpu(index: int, util: float, *, lost: bool = False, throttle: tuple[str, ...] = (),
        processes: tuple[GpuProcess, ...] = ()) -> GpuSample:
    """One H200 sample with the given utilisation; power and memory follow the load."""
    return GpuSample(
        index=index, name="NVIDIA H200", uuid=f"GPU-0000000{index}-aaaa-bbbb-cccc-000000000000",
        util_pct=util, mem_util_pct=util / 2, mem_used_mib=1000.0 + util * 1000,
        mem_total_mib=H200_MIB, power_w=80.0 + util * 6, power_limit_w=700.0, temp_c=35.0 + util / 4,
        sm_clock_mhz=1980.0, throttle=throttle, processes=processes, unavailable={}, lost=lost,
    )


def gpu_snapshot(*gpus: GpuSample) -> GpuSnapshot:
    return GpuSnapshot(available=True, reason=None, at=1_780_000_000.0, driver="560.35.03",
                       gpus=tuple(gpus))


TWO_GPUS = gpu_snapshot(
    gpu(0, 97.0, processes=(GpuProcess(4242, "python train_eagle3.py", 98304.0),)),
    gpu(1, 12.0, throttle=("sw_thermal",)),
)
NO_NVML = GpuSnapshot(available=False, reason="NVML Shared Library Not Found", at=0.0,
                      driver=None, gpus=())
HOST = HostSnapshot(at=1_780_000_000.0, cpu_pct=23.0, mem_used_mib=65536.0,
                    mem_total_mib=2_064_000.0, disks=(DiskUsage("/data", 3600.0, 1234.0),),
                    events=())


class SequenceCollector:
    """Returns the given snapshots in order, then keeps returning the last one."""

    def __init__(self, *snapshots: Any) -> None:
        self.snapshots = list(snapshots)
        self.calls = 0

    def sample(self, *_: Any) -> Any:
        self.calls += 1
        return self.snapshots[min(self.calls, len(self.snapshots)) - 1]


def specforge_run(
    source: str, step: int = 1200, events: tuple[TrainEvent, ...] = ()
) -> TrainSnapshot:
    """A drafter-training snapshot with rising per-position accuracy over 12 logged points."""
    steps = range(100, step + 1, 100)
    history: dict[str, tuple[tuple[int, float], ...]] = {
        "loss": tuple((s, 3.0 / (1 + s / 1000)) for s in steps),
    }
    for position in range(7):
        history[f"acc_{position}"] = tuple((s, 0.5 + s / 10000 - position * 0.04) for s in steps)
    acc = tuple(points[-1][1] for key, points in history.items() if key.startswith("acc_"))
    return TrainSnapshot(
        source=source, format="specforge", step=step, total_steps=10000, epoch=0.12,
        loss=history["loss"][-1][1], lr=8e-5, grad_norm=0.91, acc=acc, metrics={},
        steps_per_s=2.5, eta_s=(10000 - step) / 2.5, last_update=1_780_000_000.0,
        status="crashed" if events else "running", events=events, history=history,
        caught_up=True, progress=1.0, seen_at=1_780_000_000.0,  # seen right at its last update
    )


def crash_event(line: str = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate "
                "2.00 GiB. GPU 0 has a total capacity of 139.81 GiB") -> TrainEvent:
    return TrainEvent(kind="crashed", message="torch.OutOfMemoryError: CUDA out of memory",
                      line=line, at=1_780_000_100.0, step=1200,
                      signature="torch.OutOfMemoryError: CUDA out of memory", context=(line,))


class SequenceFollower:
    """A log follower that reports catch-up progress, then the given snapshots in order."""

    def __init__(self, snapshots: Sequence[Any]) -> None:
        self.snapshots = list(snapshots)
        self.polls = 0

    def catch_up(self, on_progress: Callable[[float], None]) -> None:
        on_progress(0.5)
        on_progress(1.0)

    def poll(self) -> Any:
        self.polls += 1
        return self.snapshots[min(self.polls, len(self.snapshots)) - 1]


def followers(**by_name: Sequence[Any]) -> Callable[[Any], SequenceFollower]:
    """A follower factory: each log (by file name) replays its own snapshots."""
    return lambda path: SequenceFollower(by_name[path.name])


async def until(pilot: Any, condition: Callable[[], bool], attempts: int = 1200,
                seen: Callable[[], object] | None = None) -> None:
    """Let the app run until `condition()` holds (workers post from threads); it returns as soon
    as it does, so the bound (a minute) is generous for a loaded runner, not a timing check.
    `seen` describes the state instead, for the failure message."""
    for _ in range(attempts):
        if condition():
            return
        await pilot.pause(0.05)
    notes = [n.message for n in pilot.app._notifications]
    state = f"; state: {seen()!r}" if seen else ""
    raise AssertionError(f"the app never reached the expected state; notifications: {notes}{state}")


async def until_form(pilot: Any) -> Any:
    """Wait for the record form to be on screen with its fields composed, and return it (the
    screen is pushed before its fields are mounted)."""
    from sessiontui.tui.screens.record_form import RecordForm

    await until(pilot, lambda: isinstance(pilot.app.screen, RecordForm)
                and bool(pilot.app.screen.query("Input")))
    return pilot.app.screen


def text_of(widget: Any) -> str:
    """The plain text a Static shows."""
    return str(widget.render())
