"""Host figures beside the GPUs: load, CPU, RAM, swap, the GPU processes, and free space on the
disks that hold logs and checkpoints."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

import psutil

from sessiontui.collectors.processes import ProcessInfo, ProcessWatcher

_MIB = 1024 * 1024
_GIB = 1024 * _MIB


@dataclass(frozen=True)
class DiskUsage:
    path: str
    total_gib: float
    free_gib: float
    low: bool = False  # under the warning threshold

    @property
    def free_fraction(self) -> float:
        """Share of the disk still free, 0..1."""
        return self.free_gib / self.total_gib if self.total_gib > 0 else 0.0


@dataclass(frozen=True)
class HostSnapshot:
    at: float
    cpu_pct: float | None
    mem_used_mib: float
    mem_total_mib: float
    disks: tuple[DiskUsage, ...]
    events: tuple[str, ...]
    unavailable: Mapping[str, str] = field(default_factory=dict)
    load_avg: tuple[float, float, float] | None = None  # 1, 5 and 15 minutes
    swap_used_mib: float | None = None
    swap_total_mib: float | None = None
    processes: Mapping[int, ProcessInfo] = field(default_factory=dict)  # the GPU processes

    def to_dict(self) -> dict:
        """JSON-ready form for `--json` output."""
        data = asdict(self)
        data["disks"] = [asdict(disk) for disk in self.disks]
        data["events"] = list(self.events)
        data["load_avg"] = None if self.load_avg is None else list(self.load_avg)
        data["processes"] = {str(pid): asdict(info) for pid, info in self.processes.items()}
        return data


class HostCollector:
    """Samples load, CPU, RAM, swap, the given GPU processes and the disks holding `paths`;
    a disk low on space raises an event. `logs` names the followed logs (asked again for each
    new process), whose writers are marked as the watched job."""

    def __init__(
        self,
        paths: Sequence[str | Path] = (".",),
        *,
        low_disk_fraction: float = 0.05,
        low_disk_gib: float = 10,
        clock: Callable[[], float] = time.time,
        logs: Callable[[], Collection[Path]] = tuple,
    ) -> None:
        self._paths = [str(path) for path in paths]
        self._low_fraction = low_disk_fraction
        self._low_gib = low_disk_gib
        self._clock = clock
        self._cpu_before = psutil.cpu_times()
        self._processes = ProcessWatcher(logs)

    def sample(self, pids: Iterable[int] = ()) -> HostSnapshot:
        """CPU busy share since the previous sample (or since construction), RAM, swap, disks,
        and host figures of the processes `pids` (those NVML lists on the GPUs)."""
        memory = psutil.virtual_memory()
        unavailable: dict[str, str] = {}
        disks = self._disks(unavailable)
        swap = psutil.swap_memory()
        return HostSnapshot(
            at=self._clock(),
            cpu_pct=self._cpu_pct(),
            mem_used_mib=(memory.total - memory.available) / _MIB,
            mem_total_mib=memory.total / _MIB,
            disks=disks,
            events=tuple(_low_disk(d) for d in disks if d.low),
            unavailable=unavailable,
            load_avg=os.getloadavg(),
            swap_used_mib=swap.used / _MIB,
            swap_total_mib=swap.total / _MIB,
            processes=self._processes.sample(pids),
        )


    def _cpu_pct(self) -> float | None:
        """Busy share of all CPUs from our own `cpu_times` deltas, so other callers don't interfere."""
        before, after = self._cpu_before, psutil.cpu_times()
        self._cpu_before = after
        total = _total(after) - _total(before)
        if total <= 0:
            return None
        idle = _idle(after) - _idle(before)
        return max(0.0, min(100.0, 100.0 * (total - idle) / total))

    def _disks(self, unavailable: dict[str, str]) -> tuple[DiskUsage, ...]:
        """One entry per distinct filesystem among the watched paths, labelled by the first path."""
        seen: set[int] = set()
        disks = []
        for path in self._paths:
            try:
                existing = _nearest_existing(path)
                device = os.stat(existing).st_dev
                if device in seen:
                    continue
                usage = psutil.disk_usage(existing)
            except OSError as exc:
                unavailable[f"disk {path}"] = exc.strerror or str(exc)
                continue
            seen.add(device)
            disk = DiskUsage(path, usage.total / _GIB, usage.free / _GIB)
            disks.append(replace(disk, low=self._is_low(disk)))
        return tuple(disks)

    def _is_low(self, disk: DiskUsage) -> bool:
        """Low when either little space or a small share is left: checkpoints fail on both."""
        return disk.free_gib < self._low_gib or disk.free_fraction < self._low_fraction


def _low_disk(disk: DiskUsage) -> str:
    """The event line a pane or alert shows."""
    return f"low disk: {disk.path} {disk.free_gib:.1f} GiB free ({disk.free_fraction:.0%})"


def _nearest_existing(path: str) -> str:
    """A log folder may not exist yet; its disk is the one of its nearest existing parent."""
    current = Path(path).absolute()
    while not current.exists() and current != current.parent:
        current = current.parent
    return str(current)


def _total(times: tuple[float, ...]) -> float:
    """All CPU time; guest time is already counted in user/nice on Linux, as psutil does."""
    guest = getattr(times, "guest", 0.0) + getattr(times, "guest_nice", 0.0)
    return sum(times) - guest


def _idle(times: tuple[float, ...]) -> float:
    """Time the CPUs were not busy (idle plus waiting on I/O)."""
    return float(getattr(times, "idle", 0.0) + getattr(times, "iowait", 0.0))
