"""GPU telemetry from NVML as immutable snapshots; every failure becomes a reason, never an exception."""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from sessiontui.collectors import nvml_fields as nf

_MIB = 1024 * 1024


@dataclass(frozen=True)
class GpuProcess:
    pid: int
    name: str
    used_mib: float | None
    sm_pct: float | None = None  # when NVML reports per-process utilisation


@dataclass(frozen=True)
class GpuSample:
    index: int
    name: str
    uuid: str
    util_pct: float | None
    mem_util_pct: float | None
    mem_used_mib: float | None
    mem_total_mib: float | None
    power_w: float | None
    power_limit_w: float | None
    temp_c: float | None
    sm_clock_mhz: float | None
    throttle: tuple[str, ...]
    processes: tuple[GpuProcess, ...]
    unavailable: Mapping[str, str]
    lost: bool = False
    pcie_tx_kb_s: float | None = None
    pcie_rx_kb_s: float | None = None
    mem_clock_mhz: float | None = None
    perf_state: str | None = None  # "P0" (fastest) .. "P15"
    ecc_uncorrected: int | None = None  # volatile uncorrected ECC errors since the driver loaded
    nvlink_tx_kb_s: float | None = None
    nvlink_rx_kb_s: float | None = None

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GpuSample:
        """Rebuild a sample from `to_dict()` output (a recorded trace); raises on malformed data."""
        numbers = {
            name: _number(data.get(name))
            for name in (
                "util_pct",
                "mem_util_pct",
                "mem_used_mib",
                "mem_total_mib",
                "power_w",
                "power_limit_w",
                "temp_c",
                "sm_clock_mhz",
                "pcie_tx_kb_s",
                "pcie_rx_kb_s",
                "mem_clock_mhz",
                "nvlink_tx_kb_s",
                "nvlink_rx_kb_s",
            )
        }
        ecc = _number(data.get("ecc_uncorrected"))
        perf_state = data.get("perf_state")
        return cls(
            index=int(data["index"]),
            name=str(data.get("name", "")),
            uuid=str(data.get("uuid", "")),
            throttle=tuple(str(reason) for reason in data.get("throttle", ())),
            processes=tuple(
                GpuProcess(
                    int(p["pid"]),
                    str(p.get("name", "")),
                    _number(p.get("used_mib")),
                    _number(p.get("sm_pct")),
                )
                for p in data.get("processes", ())
            ),
            unavailable={str(k): str(v) for k, v in dict(data.get("unavailable", {})).items()},
            lost=bool(data.get("lost", False)),
            perf_state=None if perf_state is None else str(perf_state),
            ecc_uncorrected=None if ecc is None else int(ecc),
            **numbers,
        )


@dataclass(frozen=True)
class GpuSnapshot:
    available: bool
    reason: str | None
    at: float
    driver: str | None
    gpus: tuple[GpuSample, ...]

    def to_dict(self) -> dict:
        """JSON-ready form, the line format of recorded traces and of `sessiontui gpu --json`."""
        return _lists(asdict(self))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GpuSnapshot:
        """Rebuild a snapshot from `to_dict()` output; raises on malformed data."""
        return cls(
            available=bool(data["available"]),
            reason=None if data.get("reason") is None else str(data["reason"]),
            at=float(data.get("at", 0.0)),
            driver=None if data.get("driver") is None else str(data["driver"]),
            gpus=tuple(GpuSample.from_dict(gpu) for gpu in data.get("gpus", ())),
        )


def _lists(value: Any) -> Any:
    """Tuples become lists all the way down, so a dict equals its JSON round trip."""
    if isinstance(value, tuple | list):
        return [_lists(item) for item in value]
    if isinstance(value, dict):
        return {key: _lists(item) for key, item in value.items()}
    return value


def _number(value: Any) -> float | None:
    """A float from a trace value; anything that is not a plain number reads as missing."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def _float(value: int | None) -> float | None:
    """An NVML integer reading as float; None stays None."""
    return None if value is None else float(value)


def _text(value: Any) -> str:
    """NVML strings arrive as bytes from older bindings and as str from newer ones."""
    return value.decode(errors="replace") if isinstance(value, bytes) else str(value)


class _GpuLost(Exception):
    """One GPU stopped answering (NVML_ERROR_GPU_IS_LOST); the others carry on."""


class _NvmlDown(Exception):
    """NVML as a whole stopped working (driver unloaded, version mismatch, ...)."""


@dataclass
class _Gpu:
    """What the collector remembers about one GPU between samples."""

    index: int
    handle: Any
    name: str = ""
    uuid: str = ""
    power_limit_w: float | None = None
    ecc_uncorrected: int | None = None
    slow_unavailable: dict[str, str] = field(default_factory=dict)
    lost_reason: str | None = None
    nvlink_links: int = 0
    sm_due: float = float("-inf")  # when per-process %SM is read again (a slow call)
    sm_by_pid: dict[int, float] | None = None  # %SM of the processes seen at the last reading
    nvlink_counters: tuple[int, int, int] | None = None  # (tx KiB, rx KiB, microseconds)


class GpuCollector:
    """Samples every GPU through NVML; lazy nvmlInit on first sample; never raises."""

    def __init__(
        self,
        *,
        slow_every_s: float = 10.0,
        pcie: bool = False,
        nvlink: bool = False,
        process_sm_every_s: float = 5.0,
        clock: Callable[[], float] = time.time,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self._slow_every_s = slow_every_s
        self._fields = {**nf.CHEAP, **(nf.PCIE if pcie else {})}
        self._nvlink = nvlink
        self._sm_every_s = process_sm_every_s
        self._clock = clock
        self._monotonic = monotonic
        self._nvml: Any = None  # the pynvml module once NVML is up
        self._down_reason: str | None = None
        self._retry_at = float("-inf")
        self._slow_due = float("-inf")
        self._gpus: list[_Gpu] = []
        self._driver: str | None = None
        self._skip: dict[tuple[int, str], str] = {}
        self._missing_fn: set[str] = set()
        self._process_names: dict[int, str] = {}

    def sample(self) -> GpuSnapshot:
        """One snapshot of all GPUs; when NVML is unusable, `available=False` and the reason."""
        at = self._clock()
        if self._nvml is None and not self._start():
            return GpuSnapshot(False, self._down_reason, at, None, ())
        try:
            if self._monotonic() >= self._slow_due:
                self._refresh_slow()
            gpus = tuple(self._sample_gpu(gpu) for gpu in self._gpus)
        except _NvmlDown as down:
            self._stop(str(down))
            self._retry_at = self._monotonic() + self._slow_every_s
            return GpuSnapshot(False, self._down_reason, at, None, ())
        seen = {p.pid for gpu in gpus for p in gpu.processes}
        self._process_names = {pid: self._process_names[pid] for pid in seen}
        return GpuSnapshot(True, None, at, self._driver, gpus)

    def close(self) -> None:
        """Release NVML; a later sample starts it again."""
        self._stop(None)
        self._retry_at = float("-inf")

    def _start(self) -> bool:
        """Load and initialise NVML and find the GPUs; at most once per `slow_every_s`."""
        now = self._monotonic()
        if now < self._retry_at:
            return False
        self._retry_at = now + self._slow_every_s
        nvml, reason = nf.load_pynvml()
        if nvml is None:
            self._down_reason = reason
            return False
        try:
            nvml.nvmlInit()
        except Exception as exc:
            self._down_reason = nf.error_reason(exc)
            return False
        self._nvml = nvml
        try:
            count = nvml.nvmlDeviceGetCount()
        except Exception as exc:
            self._stop(nf.error_reason(exc))
            return False
        if count == 0:
            self._stop("NVML sees no GPUs on this host")
            return False
        self._gpus = [self._open_gpu(index) for index in range(count)]
        self._skip.clear()
        self._missing_fn.clear()
        self._slow_due = float("-inf")
        self._down_reason = None
        return True

    def _open_gpu(self, index: int) -> _Gpu:
        """A handle for one GPU; a GPU that cannot be opened is kept as lost, with the reason."""
        try:
            return _Gpu(index, self._nvml.nvmlDeviceGetHandleByIndex(index))
        except Exception as exc:
            return _Gpu(index, None, lost_reason=nf.error_reason(exc))

    def _stop(self, reason: str | None) -> None:
        """Shut NVML down quietly and remember why it is not available."""
        if self._nvml is not None:
            # Shutting down a broken NVML can fail; there is nothing left to release then.
            with contextlib.suppress(Exception):
                self._nvml.nvmlShutdown()
        self._nvml = None
        self._gpus = []
        self._down_reason = reason

    def _refresh_slow(self) -> None:
        """Re-read the slow-changing fields; a lost GPU that answers again is back in service."""
        self._slow_due = self._monotonic() + self._slow_every_s
        try:
            self._driver = _text(self._nvml.nvmlSystemGetDriverVersion())
        except Exception as exc:
            self._check_down(exc)
            self._driver = None
        for position, gpu in enumerate(self._gpus):
            if gpu.handle is None:
                gpu = self._gpus[position] = self._open_gpu(gpu.index)
                if gpu.handle is None:
                    continue
            unavailable: dict[str, str] = {}
            try:
                values = {
                    name: self._call(gpu, name, spec, unavailable) for name, spec in nf.SLOW.items()
                }
            except _GpuLost as lost:
                gpu.lost_reason = str(lost)
                continue
            gpu.lost_reason = None
            gpu.name = _text(values["name"]) if values["name"] is not None else gpu.name
            gpu.uuid = _text(values["uuid"]) if values["uuid"] is not None else gpu.uuid
            limit = values["power_limit_w"]
            gpu.power_limit_w = None if limit is None else limit / 1000.0
            gpu.ecc_uncorrected = values["ecc_uncorrected"]
            if self._nvlink:
                gpu.nvlink_links = self._nvlink_links(gpu, unavailable)
            gpu.slow_unavailable = unavailable

    def _sample_gpu(self, gpu: _Gpu) -> GpuSample:
        """Cheap fields of one GPU, each one independently "not available" on error."""
        if gpu.lost_reason is None:
            unavailable = dict(gpu.slow_unavailable)
            try:
                values = {
                    name: self._call(gpu, name, spec, unavailable)
                    for name, spec in self._fields.items()
                }
                return self._build(gpu, values, unavailable)
            except _GpuLost as lost:
                gpu.lost_reason = str(lost)
        return GpuSample(
            index=gpu.index,
            name=gpu.name,
            uuid=gpu.uuid,
            util_pct=None,
            mem_util_pct=None,
            mem_used_mib=None,
            mem_total_mib=None,
            power_w=None,
            power_limit_w=gpu.power_limit_w,
            temp_c=None,
            sm_clock_mhz=None,
            throttle=(),
            processes=(),
            unavailable={"gpu": gpu.lost_reason},
            lost=True,
        )

    def _build(self, gpu: _Gpu, values: dict[str, Any], unavailable: dict[str, str]) -> GpuSample:
        """Turn raw NVML results into a sample in MiB, watts, degrees and MHz."""
        util, memory, power = values["utilization"], values["memory"], values["power_w"]
        reasons, perf_state = values["throttle"], values["perf_state"]
        nvlink = self._nvlink_rates(gpu, unavailable) if gpu.nvlink_links else (None, None)
        return GpuSample(
            index=gpu.index,
            name=gpu.name,
            uuid=gpu.uuid,
            util_pct=None if util is None else float(util.gpu),
            mem_util_pct=None if util is None else float(util.memory),
            mem_used_mib=None if memory is None else memory.used / _MIB,
            mem_total_mib=None if memory is None else memory.total / _MIB,
            power_w=None if power is None else power / 1000.0,
            power_limit_w=gpu.power_limit_w,
            temp_c=_float(values["temp_c"]),
            sm_clock_mhz=_float(values["sm_clock_mhz"]),
            throttle=() if reasons is None else nf.throttle_names(reasons),
            processes=self._processes(
                gpu, values["processes"], values["graphics_processes"], unavailable
            ),
            unavailable=unavailable,
            pcie_tx_kb_s=_float(values.get("pcie_tx_kb_s")),
            pcie_rx_kb_s=_float(values.get("pcie_rx_kb_s")),
            mem_clock_mhz=_float(values["mem_clock_mhz"]),
            perf_state=(
                None
                if perf_state is None or perf_state >= nf.NVML_PSTATE_UNKNOWN
                else f"P{perf_state}"
            ),
            ecc_uncorrected=gpu.ecc_uncorrected,
            nvlink_tx_kb_s=nvlink[0],
            nvlink_rx_kb_s=nvlink[1],
        )

    def _call(
        self, gpu: _Gpu, name: str, spec: nf.Spec, unavailable: dict[str, str], *extra: Any
    ) -> Any:
        """One NVML getter with its fallbacks; None (and the reason noted) when it fails.

        `extra` arguments follow the spec's own (values that change per call, like a timestamp).
        """
        key = (gpu.index, name)
        reason = self._skip.get(key)
        if reason is None:
            functions, args = spec
            args = (*args, *extra)
            for function in functions:
                if function in self._missing_fn:
                    continue
                getter = getattr(self._nvml, function, None)
                if getter is None:
                    self._missing_fn.add(function)
                    continue
                try:
                    return getter(gpu.handle, *args)
                except Exception as exc:
                    code = nf.error_code(exc)
                    if code in nf.NO_DATA:
                        return None
                    if code == nf.FUNCTION_NOT_FOUND:
                        self._missing_fn.add(function)
                        continue
                    if code == nf.GPU_IS_LOST:
                        raise _GpuLost(nf.error_reason(exc)) from exc
                    self._check_down(exc)
                    reason = nf.error_reason(exc)
                    if code is None or code in nf.PERMANENT:
                        self._skip[key] = reason
                    break
            else:
                reason = self._skip[key] = nf.reason_for(nf.FUNCTION_NOT_FOUND)
        for fed in nf.FEEDS.get(name, (name,)):
            unavailable[fed] = reason
        return None

    @staticmethod
    def _check_down(exc: Exception) -> None:
        """Turn an error that means "NVML is gone" into `_NvmlDown`."""
        if nf.error_code(exc) in nf.NVML_DOWN:
            raise _NvmlDown(nf.error_reason(exc)) from exc

    def _processes(
        self, gpu: _Gpu, compute: Any, graphics: Any, unavailable: dict[str, str]
    ) -> tuple[GpuProcess, ...]:
        """Compute and graphics processes of one GPU, one entry per PID, with names and %SM."""
        if not compute and not graphics:
            return ()
        used: dict[int, float | None] = {}
        for info in (*(compute or ()), *(graphics or ())):
            memory = getattr(info, "usedGpuMemory", None)
            mib = memory / _MIB if isinstance(memory, int) else None
            previous = used.get(info.pid)
            used[info.pid] = mib if previous is None else max(previous, mib or 0.0)
        sm = self._process_sm(gpu, set(used), unavailable)
        return tuple(
            GpuProcess(pid, self._process_name(pid), mib, None if sm is None else sm.get(pid))
            for pid, mib in used.items()
        )

    def _process_sm(
        self, gpu: _Gpu, pids: set[int], unavailable: dict[str, str]
    ) -> dict[int, float] | None:
        """Mean %SM per PID over the last `process_sm_every_s`, read at that cadence: the call
        costs ~1.8 ms on an H200 (the others ~1-25 us). A PID that NVML reports no samples for
        is idle (0); one that appeared since the last reading is not known yet (missing)."""
        now = self._monotonic()
        if now < gpu.sm_due:
            return gpu.sm_by_pid
        gpu.sm_due = now + self._sm_every_s
        since_us = int((self._clock() - max(1.0, self._sm_every_s)) * 1_000_000)
        samples = self._call(gpu, "process_sm_pct", nf.PROCESS_UTILIZATION, unavailable, since_us)
        if "process_sm_pct" in unavailable:  # an error, not merely "no samples"
            gpu.sm_by_pid = None
            return None
        readings: dict[int, list[float]] = {pid: [] for pid in pids}
        for sample in samples or ():
            readings.setdefault(sample.pid, []).append(float(sample.smUtil))
        gpu.sm_by_pid = {
            pid: sum(values) / len(values) if values else 0.0 for pid, values in readings.items()
        }
        return gpu.sm_by_pid

    def _nvlink_links(self, gpu: _Gpu, unavailable: dict[str, str]) -> int:
        """How many NVLinks the GPU has (0 without NVLink or field values)."""
        values = self._call(
            gpu, "nvlink_links", nf.NVLINK_FIELDS, unavailable, [nf.NVML_FI_DEV_NVLINK_LINK_COUNT]
        )
        if not values or values[0].nvmlReturn != nf.SUCCESS:
            return 0
        return int(values[0].value.uiVal)

    def _nvlink_rates(
        self, gpu: _Gpu, unavailable: dict[str, str]
    ) -> tuple[float | None, float | None]:
        """NVLink data throughput over all links since the previous sample, KiB/s each way."""
        links = range(gpu.nvlink_links)
        fields = [(nf.NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_TX, link) for link in links]
        fields += [(nf.NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_RX, link) for link in links]
        values = self._call(gpu, "nvlink_kb_s", nf.NVLINK_FIELDS, unavailable, fields)
        if not values or any(value.nvmlReturn != nf.SUCCESS for value in values):
            return None, None
        half = len(values) // 2
        now = (
            sum(v.value.ullVal for v in values[:half]),
            sum(v.value.ullVal for v in values[half:]),
            max(v.timestamp for v in values),
        )
        before, gpu.nvlink_counters = gpu.nvlink_counters, now
        if before is None or now[2] <= before[2]:
            return None, None
        seconds = (now[2] - before[2]) / 1_000_000
        return (now[0] - before[0]) / seconds, (now[1] - before[1]) / seconds

    def _process_name(self, pid: int) -> str:
        """Process name via psutil, else NVML's; cached for as long as the PID holds the GPU."""
        name = self._process_names.get(pid)
        if name is None:
            name = self._process_names[pid] = _name_of(pid, self._nvml)
        return name


def _name_of(pid: int, nvml: Any) -> str:
    """psutil sees the process in our PID namespace; NVML's name is the fallback."""
    import psutil

    try:
        return psutil.Process(pid).name()
    except psutil.Error:
        pass
    try:
        return os.path.basename(_text(nvml.nvmlSystemGetProcessName(pid))) or "unknown"
    except Exception:
        return "unknown"

