"""What answers read from live data, declared as Protocols: collectors' snapshots fit them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol


class LiveRun(Protocol):
    """A training snapshot as the log follower hands it over."""

    @property
    def source(self) -> str: ...
    @property
    def step(self) -> int | None: ...
    @property
    def acc(self) -> Sequence[float]: ...
    @property
    def metrics(self) -> Mapping[str, float]: ...
    @property
    def history(self) -> Mapping[str, Sequence[tuple[int, float]]]: ...


class GpuReading(Protocol):
    """One GPU in a GPU snapshot."""

    @property
    def index(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def util_pct(self) -> float | None: ...
    @property
    def mem_used_mib(self) -> float | None: ...
    @property
    def mem_total_mib(self) -> float | None: ...
    @property
    def temp_c(self) -> float | None: ...
    @property
    def power_w(self) -> float | None: ...


class GpuReadings(Protocol):
    """A GPU snapshot: whether NVML answered, why not, and each GPU."""

    @property
    def available(self) -> bool: ...
    @property
    def reason(self) -> str | None: ...
    @property
    def gpus(self) -> Sequence[GpuReading]: ...
