"""Telemetry feeds: this host's GPUs and host figures, and the other hosts' scrapes."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from textual.message import Message

from sessiontui.tui.feeds.clock import Clock
from sessiontui.tui.messages import GpuSampled, HostSampled, HostsSampled, Notice

if TYPE_CHECKING:
    from sessiontui.collectors.gpu import GpuSnapshot
    from sessiontui.collectors.host import HostSnapshot
    from sessiontui.collectors.remote import RemoteHost, RemoteSnapshot


class GpuSource(Protocol):
    """What samples the GPUs: NVML's GpuCollector, or a recorded trace."""

    def sample(self) -> GpuSnapshot: ...


class HostSource(Protocol):
    """What samples the host, marking the GPU processes `pids`: psutil's HostCollector."""

    def sample(self, pids: Iterable[int] = ()) -> HostSnapshot: ...


class TelemetryFeed:
    """Samples the GPUs every `gpu_refresh_s` and the host (with the GPU processes) every
    `refresh_s`, and says once when a GPU is lost, NVML goes away or a disk fills up."""

    def __init__(self, post: Callable[[Message], object], clock: Clock, *, refresh_s: float,
                 gpu_refresh_s: float, watched: Callable[[], Sequence[Path]],
                 logs: Callable[[], Sequence[Path]], interconnect: bool = False,
                 gpu: GpuSource | None = None, host: HostSource | None = None) -> None:
        self._post, self._clock = post, clock
        self._refresh_s, self._gpu_refresh_s = refresh_s, gpu_refresh_s
        self._watched, self._logs, self._interconnect = watched, logs, interconnect
        self._gpu, self._host = gpu, host  # the real ones are built in the worker
        self.gpu_names: list[str] = []  # this host's GPU models, as last sampled
        self._lost: set[int] = set()
        self._available: bool | None = None
        self._host_events: set[str] = set()

    def run(self) -> None:
        """The worker: sample until the clock stops (the host first: the pane repaints once)."""
        gpu, host = self._gpu or self._nvml(), self._host or self._psutil()
        next_host = 0.0
        while not self._clock.stopped:
            snapshot = gpu.sample()
            if time.monotonic() >= next_host:
                next_host = time.monotonic() + self._refresh_s
                pids = {p.pid for sample in snapshot.gpus for p in sample.processes}
                self._host_sampled(host.sample(pids))
            self._post(GpuSampled(snapshot))
            self._gpu_news(snapshot)
            if not self._clock.tick(self._gpu_refresh_s):
                return

    def _nvml(self) -> GpuSource:
        """The NVML collector (pynvml loads a shared library), reading PCIe and NVLink
        throughput only when asked (slow calls)."""
        from sessiontui.collectors.gpu import GpuCollector

        return GpuCollector(pcie=self._interconnect, nvlink=self._interconnect)

    def _psutil(self) -> HostSource:
        """The host collector watching the disks that hold the project and the logs, and
        marking the processes that write the followed logs."""
        from sessiontui.collectors.host import HostCollector

        return HostCollector(list(self._watched()), logs=self._logs)

    def _host_sampled(self, snapshot: HostSnapshot) -> None:
        self._post(HostSampled(snapshot))
        for event in sorted(set(snapshot.events) - self._host_events):
            self._post(Notice(event, "warning", timeout=30))
        self._host_events = set(snapshot.events)

    def _gpu_news(self, snapshot: GpuSnapshot) -> None:
        """A lost GPU or NVML going away, said once."""
        if snapshot.available:
            self.gpu_names = [gpu.name for gpu in snapshot.gpus]
            lost = {gpu.index for gpu in snapshot.gpus if gpu.lost}
            for index in sorted(lost - self._lost):
                self._post(Notice(f"GPU {index} lost", "error", timeout=30))
            self._lost = lost
        elif self._available:
            self._post(Notice(f"NVML not available: {snapshot.reason}", "warning"))
        self._available = snapshot.available


class HostsFeed:
    """Scrapes the other hosts ([[hosts]] in sessiontui.toml) every `refresh_s`, each with its
    own timeout, and says once when one goes wrong or recovers."""

    def __init__(self, post: Callable[[Message], object], clock: Clock,
                 hosts: Sequence[RemoteHost], refresh_s: float) -> None:
        self._post, self._clock = post, clock
        self._hosts, self._refresh_s = hosts, refresh_s
        self._down: set[str] = set()

    def run(self) -> None:
        from sessiontui.collectors.remote import RemoteCollector

        collector = RemoteCollector(self._hosts)
        try:
            while not self._clock.stopped:
                snapshots = collector.sample()
                self._post(HostsSampled(snapshots))
                self._news(snapshots)
                self._clock.sleep(self._refresh_s)
        finally:
            collector.close()

    def _news(self, snapshots: Sequence[RemoteSnapshot]) -> None:
        for snapshot in snapshots:
            name, problem = snapshot.host.name, snapshot.problem()
            if problem and name not in self._down:
                self._down.add(name)
                text = problem if problem.startswith(name) else f"{name}: {problem}"
                self._post(Notice(text, "warning"))
            elif not problem and name in self._down:
                self._down.discard(name)
                self._post(Notice(f"{name} answers again"))
