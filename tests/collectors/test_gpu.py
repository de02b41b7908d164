"""GPU collector: NVML faults injected at the pynvml boundary degrade the snapshot field by field."""

from __future__ import annotations

import json
import os
from pathlib import Path

import psutil
import pynvml
import pytest

from sessiontui.collectors import gpu_env
from sessiontui.collectors.gpu import GpuCollector, GpuSnapshot
from sessiontui.collectors.gpu_env import gpu_environment
from sessiontui.tui.cli import main

MIB = 1024 * 1024


class FakeNvml:
    """A two-GPU H200 host behind pynvml's own functions and ctypes structs.

    Follows nvidia-ml-py 13.x (nvml.h of driver 580): power in mW, memory in bytes, clock event
    reasons as a bit mask, processes as `c_nvmlProcessInfo_v3_t` friendly objects. Values are
    those an H200 shows under a bf16 matmul load.
    """

    def __init__(self, monkeypatch: pytest.MonkeyPatch, count: int = 2) -> None:
        self.count = count
        self.calls: dict[str, int] = {}
        self.faults: dict[tuple[str, int | None], int] = {}
        self.processes = {0: [(os.getpid(), 2048 * MIB)], 1: []}
        self.nvlink_reads = 0
        monkeypatch.setattr(gpu_env, "driver_present", lambda: True)  # whatever this host has
        monkeypatch.setattr(gpu_env, "_no_nvml", False)
        getters = {
            "nvmlInit": lambda: None,
            "nvmlShutdown": lambda: None,
            "nvmlDeviceGetCount": lambda: self.count,
            "nvmlDeviceGetHandleByIndex": lambda index: index,
            "nvmlSystemGetDriverVersion": lambda: "580.159.04",
            "nvmlSystemGetCudaDriverVersion_v2": lambda: 13000,
            "nvmlSystemGetProcessName": lambda pid: "/opt/torch/.venv/bin/python3",
            "nvmlDeviceGetName": lambda h: "NVIDIA H200",
            "nvmlDeviceGetUUID": lambda h: f"GPU-5d7e0c1a-0000-0000-0000-00000000000{h}",
            "nvmlDeviceGetEnforcedPowerLimit": lambda h: 700_000,
            "nvmlDeviceGetPowerManagementLimit": lambda h: 700_000,
            "nvmlDeviceGetUtilizationRates": lambda h: pynvml.c_nvmlUtilization_t(97, 61),
            "nvmlDeviceGetMemoryInfo": lambda h: pynvml.c_nvmlMemory_t(
                143771 * MIB, 100000 * MIB, 43771 * MIB
            ),
            "nvmlDeviceGetPowerUsage": lambda h: 612_345,
            "nvmlDeviceGetTemperatureV": lambda h, sensor: 64,
            "nvmlDeviceGetTemperature": lambda h, sensor: 64,
            "nvmlDeviceGetClockInfo": lambda h, kind: {1: 1980, 2: 3201}[kind],
            "nvmlDeviceGetPerformanceState": lambda h: 0,
            "nvmlDeviceGetTotalEccErrors": lambda h, kind, counter: 0,
            "nvmlDeviceGetProcessUtilization": self._process_utilization,
            "nvmlDeviceGetFieldValues": self._field_values,
            "nvmlDeviceGetCurrentClocksEventReasons": lambda h: 0x1 | 0x4,
            "nvmlDeviceGetCurrentClocksThrottleReasons": lambda h: 0x20,
            "nvmlDeviceGetComputeRunningProcesses_v3": self._compute,
            "nvmlDeviceGetGraphicsRunningProcesses_v3": lambda h: [],
            "nvmlDeviceGetPcieThroughput": lambda h, counter: 1500 + counter,
        }
        for name, getter in getters.items():
            monkeypatch.setattr(pynvml, name, self._wrap(name, getter))

    def _process_utilization(self, handle: int, since_us: int) -> list:
        samples = [
            pynvml.c_nvmlProcessUtilizationSample_t(pid=pid, timeStamp=since_us + 500_000, smUtil=88)
            for pid, _ in self.processes[handle]
        ]
        if not samples:
            raise pynvml.NVMLError(pynvml.NVML_ERROR_NOT_FOUND)
        return samples

    def _field_values(self, handle: int, fields: list) -> list:
        """Four NVLinks whose data counters grow 1000 KiB (tx) and 2000 KiB (rx) a call."""
        self.nvlink_reads += 1
        values = (pynvml.c_nvmlFieldValue_t * len(fields))()
        for value, field in zip(values, fields, strict=True):
            field_id = field[0] if isinstance(field, tuple) else field
            value.fieldId, value.timestamp = field_id, self.nvlink_reads * 1_000_000
            if field_id == pynvml.NVML_FI_DEV_NVLINK_LINK_COUNT:
                value.value.uiVal = 4
            else:
                step = 250 if field_id == pynvml.NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_TX else 500
                value.value.ullVal = self.nvlink_reads * step
        return values

    def _compute(self, handle: int) -> list:
        return [
            pynvml.nvmlStructToFriendlyObject(
                pynvml.c_nvmlProcessInfo_v3_t(pid=pid, usedGpuMemory=used)
            )
            for pid, used in self.processes[handle]
        ]

    def _wrap(self, name: str, getter):
        def call(*args):
            self.calls[name] = self.calls.get(name, 0) + 1
            handle = args[0] if args and isinstance(args[0], int) else None
            code = self.faults.get((name, handle), self.faults.get((name, None)))
            if code is not None:
                raise pynvml.NVMLError(code)
            return getter(*args)

        return call

    def fail(self, name: str, code: int, gpu: int | None = None) -> None:
        self.faults[(name, gpu)] = code

    def heal(self) -> None:
        self.faults.clear()


class Clock:
    """A hand-driven monotonic clock, so the slow-field cadence is exact in tests."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def nvml(monkeypatch: pytest.MonkeyPatch) -> FakeNvml:
    return FakeNvml(monkeypatch)


@pytest.fixture
def clock() -> Clock:
    return Clock()


def test_without_a_driver_the_real_collector_reports_why() -> None:
    snapshot = GpuCollector().sample()
    if snapshot.available:
        pytest.skip("this host has a working NVML")
    assert snapshot.reason
    assert snapshot.gpus == ()
    assert json.loads(json.dumps(snapshot.to_dict()))["available"] is False
    assert gpu_environment().names == []


def test_healthy_gpus_convert_units_and_name_processes(nvml: FakeNvml) -> None:
    snapshot = GpuCollector().sample()
    assert snapshot.available and snapshot.reason is None
    assert snapshot.driver == "580.159.04"
    assert [gpu.index for gpu in snapshot.gpus] == [0, 1]
    gpu = snapshot.gpus[0]
    assert (gpu.name, gpu.util_pct, gpu.mem_util_pct) == ("NVIDIA H200", 97.0, 61.0)
    assert (gpu.mem_used_mib, gpu.mem_total_mib) == (43771.0, 143771.0)
    assert (gpu.power_w, gpu.power_limit_w) == (612.345, 700.0)
    assert (gpu.temp_c, gpu.sm_clock_mhz, gpu.mem_clock_mhz) == (64.0, 1980.0, 3201.0)
    assert (gpu.perf_state, gpu.ecc_uncorrected) == ("P0", 0)
    assert gpu.throttle == ("power cap",)
    assert gpu.unavailable == {}
    assert not gpu.lost
    (process,) = gpu.processes
    assert (process.pid, process.name, process.used_mib, process.sm_pct) == (
        os.getpid(),
        psutil.Process().name(),
        2048.0,
        88.0,
    )
    assert gpu.pcie_tx_kb_s is None
    assert snapshot.gpus[1].processes == ()


def test_unsupported_field_is_reported_once_and_the_rest_sampled(nvml: FakeNvml) -> None:
    nvml.fail("nvmlDeviceGetPowerUsage", pynvml.NVML_ERROR_NOT_SUPPORTED)
    collector = GpuCollector()
    first, second = collector.sample(), collector.sample()
    for snapshot in (first, second):
        gpu = snapshot.gpus[0]
        assert gpu.power_w is None
        assert gpu.unavailable == {"power_w": "not supported"}
        assert gpu.util_pct == 97.0 and gpu.temp_c == 64.0
    assert nvml.calls["nvmlDeviceGetPowerUsage"] == 2  # once per GPU, not again


def test_transient_error_is_retried(nvml: FakeNvml) -> None:
    nvml.fail("nvmlDeviceGetUtilizationRates", pynvml.NVML_ERROR_TIMEOUT, gpu=1)
    collector = GpuCollector()
    gpu = collector.sample().gpus[1]
    assert gpu.util_pct is None and gpu.mem_util_pct is None
    assert set(gpu.unavailable) == {"util_pct", "mem_util_pct"}
    nvml.heal()
    assert collector.sample().gpus[1].util_pct == 97.0


def test_gpu_lost_mid_run_marks_only_that_gpu_until_it_answers(
    nvml: FakeNvml, clock: Clock
) -> None:
    collector = GpuCollector(slow_every_s=10.0, monotonic=clock)
    assert not collector.sample().gpus[1].lost
    nvml.fail("nvmlDeviceGetMemoryInfo", pynvml.NVML_ERROR_GPU_IS_LOST, gpu=1)
    nvml.fail("nvmlDeviceGetName", pynvml.NVML_ERROR_GPU_IS_LOST, gpu=1)
    snapshot = collector.sample()
    assert snapshot.available
    lost = snapshot.gpus[1]
    assert lost.lost and lost.name == "NVIDIA H200"
    assert lost.util_pct is None and "lost" in lost.unavailable["gpu"]
    assert snapshot.gpus[0].util_pct == 97.0 and not snapshot.gpus[0].lost
    calls = nvml.calls["nvmlDeviceGetUtilizationRates"]
    clock.now += 11
    assert collector.sample().gpus[1].lost
    assert nvml.calls["nvmlDeviceGetUtilizationRates"] == calls + 1  # the lost GPU is not polled
    nvml.heal()
    clock.now += 11
    assert not collector.sample().gpus[1].lost


def test_gpu_that_cannot_be_opened_is_listed_as_lost(nvml: FakeNvml) -> None:
    nvml.fail("nvmlDeviceGetHandleByIndex", pynvml.NVML_ERROR_GPU_IS_LOST, gpu=1)
    snapshot = GpuCollector().sample()
    assert [gpu.lost for gpu in snapshot.gpus] == [False, True]


@pytest.mark.parametrize(
    ("code", "words"),
    [
        (pynvml.NVML_ERROR_LIBRARY_NOT_FOUND, "library"),
        (pynvml.NVML_ERROR_DRIVER_NOT_LOADED, "driver not loaded"),
        (pynvml.NVML_ERROR_LIB_RM_VERSION_MISMATCH, "mismatch"),
    ],
)
def test_nvml_that_will_not_start_gives_a_reason(nvml: FakeNvml, code: int, words: str) -> None:
    nvml.fail("nvmlInit", code)
    snapshot = GpuCollector().sample()
    assert not snapshot.available
    assert words in snapshot.reason.lower()
    assert snapshot.to_dict()["gpus"] == []


def test_library_not_found_is_the_pynvml_subclass(nvml: FakeNvml, monkeypatch) -> None:
    def missing() -> None:
        raise pynvml.NVMLError_LibraryNotFound()

    monkeypatch.setattr(pynvml, "nvmlInit", missing)
    assert "libnvidia-ml" in GpuCollector().sample().reason


def test_driver_mismatch_mid_run_then_recovery(nvml: FakeNvml, clock: Clock) -> None:
    collector = GpuCollector(slow_every_s=5.0, monotonic=clock)
    assert collector.sample().available
    nvml.fail("nvmlDeviceGetTemperatureV", pynvml.NVML_ERROR_LIB_RM_VERSION_MISMATCH)
    down = collector.sample()
    assert not down.available and "mismatch" in down.reason
    nvml.heal()
    inits = nvml.calls["nvmlInit"]
    assert not collector.sample().available  # not retried before slow_every_s
    assert nvml.calls["nvmlInit"] == inits
    clock.now += 6
    assert collector.sample().available


def test_deprecated_pynvml_shadowing_is_refused(nvml: FakeNvml, monkeypatch) -> None:
    monkeypatch.delattr(pynvml, "nvmlInitWithFlags")
    snapshot = GpuCollector().sample()
    assert not snapshot.available
    assert "nvidia-ml-py" in snapshot.reason


def test_missing_driver_function_falls_back_to_the_older_name(nvml: FakeNvml) -> None:
    nvml.fail("nvmlDeviceGetCurrentClocksEventReasons", pynvml.NVML_ERROR_FUNCTION_NOT_FOUND)
    nvml.fail("nvmlDeviceGetTemperatureV", pynvml.NVML_ERROR_FUNCTION_NOT_FOUND)
    gpu = GpuCollector().sample().gpus[0]
    assert gpu.throttle == ("thermal",)
    assert gpu.temp_c == 64.0
    assert gpu.unavailable == {}


def test_no_function_left_is_not_available(nvml: FakeNvml, monkeypatch) -> None:
    monkeypatch.delattr(pynvml, "nvmlDeviceGetGraphicsRunningProcesses_v3")
    monkeypatch.delattr(pynvml, "nvmlDeviceGetGraphicsRunningProcesses_v2")
    gpu = GpuCollector().sample().gpus[0]
    assert gpu.unavailable == {"graphics_processes": "not supported by this driver"}
    assert len(gpu.processes) == 1


def test_process_outside_our_pid_namespace_takes_the_nvml_name(nvml: FakeNvml) -> None:
    ghost = next(pid for pid in range(4_000_000, 4_100_000) if not psutil.pid_exists(pid))
    nvml.processes[1] = [(ghost, 512 * MIB)]
    (process,) = GpuCollector().sample().gpus[1].processes
    assert (process.pid, process.name, process.used_mib) == (ghost, "python3", 512.0)


def test_slow_fields_are_cached_between_refreshes(nvml: FakeNvml, clock: Clock) -> None:
    collector = GpuCollector(slow_every_s=10.0, monotonic=clock)
    for _ in range(3):
        collector.sample()
    assert nvml.calls["nvmlDeviceGetName"] == 2
    assert nvml.calls["nvmlDeviceGetUtilizationRates"] == 6
    clock.now += 10
    collector.sample()
    assert nvml.calls["nvmlDeviceGetName"] == 4


def test_pcie_is_opt_in(nvml: FakeNvml) -> None:
    GpuCollector().sample()
    assert "nvmlDeviceGetPcieThroughput" not in nvml.calls
    gpu = GpuCollector(pcie=True).sample().gpus[0]
    assert (gpu.pcie_tx_kb_s, gpu.pcie_rx_kb_s) == (1500.0, 1501.0)


def test_no_gpus_is_not_available(nvml: FakeNvml) -> None:
    nvml.count = 0
    snapshot = GpuCollector().sample()
    assert not snapshot.available and "no GPUs" in snapshot.reason


def test_snapshot_survives_a_json_round_trip(nvml: FakeNvml) -> None:
    nvml.fail("nvmlDeviceGetPowerUsage", pynvml.NVML_ERROR_NOT_SUPPORTED, gpu=1)
    snapshot = GpuCollector().sample()
    assert GpuSnapshot.from_dict(json.loads(json.dumps(snapshot.to_dict()))) == snapshot


def test_gpu_environment_for_stamping(nvml: FakeNvml) -> None:
    env = gpu_environment()
    assert env.names == ["NVIDIA H200", "NVIDIA H200"]
    assert (env.driver, env.cuda) == ("580.159.04", "13.0")
    assert nvml.calls["nvmlShutdown"] == 1


def test_gpu_environment_keeps_what_answers_when_a_call_fails(nvml: FakeNvml) -> None:
    nvml.fail("nvmlDeviceGetName", pynvml.NVML_ERROR_GPU_IS_LOST, gpu=1)
    env = gpu_environment()
    assert env.driver == "580.159.04" and env.cuda == "13.0"
    assert nvml.calls["nvmlShutdown"] == 1


def test_gpu_environment_skips_nvml_without_a_driver(monkeypatch: pytest.MonkeyPatch,
                                                      tmp_path: Path) -> None:
    """No driver file: pynvml is not even imported; a failed probe is not repeated."""
    monkeypatch.setattr(gpu_env, "_no_nvml", False)
    monkeypatch.setattr(gpu_env, "DRIVER_FILES", (str(tmp_path / "nvidiactl"),))
    loads: list[int] = []
    monkeypatch.setattr(gpu_env.nf, "load_pynvml", lambda: loads.append(1) or (None, "none"))
    if gpu_env.sys.platform.startswith("linux"):
        assert gpu_environment() == gpu_env.GpuEnvironment() and loads == []
    (tmp_path / "nvidiactl").touch()
    assert gpu_environment() == gpu_env.GpuEnvironment() and loads == [1]
    assert gpu_environment() == gpu_env.GpuEnvironment() and loads == [1]


def test_close_releases_nvml_and_a_later_sample_restarts(nvml: FakeNvml) -> None:
    collector = GpuCollector()
    collector.sample()
    collector.close()
    assert nvml.calls["nvmlShutdown"] == 1
    assert collector.sample().available
    assert nvml.calls["nvmlInit"] == 2


def test_gpu_command_prints_json_and_exits_0(nvml: FakeNvml, capsys) -> None:
    nvml.fail("nvmlDeviceGetPowerUsage", pynvml.NVML_ERROR_NOT_SUPPORTED, gpu=1)
    assert main(["gpu", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["available"] is True
    assert [gpu["util_pct"] for gpu in data["gpus"]] == [97.0, 97.0]
    assert data["gpus"][1]["unavailable"] == {"power_w": "not supported"}


def test_gpu_command_table_shows_processes_and_gaps(nvml: FakeNvml, capsys) -> None:
    nvml.fail("nvmlDeviceGetPowerUsage", pynvml.NVML_ERROR_NOT_SUPPORTED, gpu=1)
    nvml.fail("nvmlDeviceGetMemoryInfo", pynvml.NVML_ERROR_GPU_IS_LOST, gpu=0)
    assert main(["gpu"]) == 0
    out = capsys.readouterr().out
    assert "LOST: GPU is lost" in out
    assert "n/a: power_w (not supported)" in out
    assert "n/a/700" in out and "power cap" in out


def test_gpu_command_without_nvml_keeps_the_contract(run_cli) -> None:
    done = run_cli("gpu", "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert isinstance(data["available"], bool)
    assert data["available"] or data["reason"]


def test_nvlink_is_opt_in_and_a_rate_over_all_links(nvml: FakeNvml) -> None:
    GpuCollector().sample()
    assert nvml.nvlink_reads == 0
    collector = GpuCollector(nvlink=True)
    first = collector.sample().gpus[0]
    assert first.nvlink_tx_kb_s is None  # a rate needs two readings of the counters
    second = collector.sample().gpus[0]
    # 4 links x 250 KiB more per read on GPU 0's reading, one read (1 s apart) per GPU between
    assert second.nvlink_tx_kb_s == pytest.approx(4 * 250 * 2 / 2)
    assert second.nvlink_rx_kb_s == pytest.approx(4 * 500 * 2 / 2)


def test_process_utilization_without_samples_is_no_error(nvml: FakeNvml, monkeypatch) -> None:
    def none_yet(handle, since_us):
        raise pynvml.NVMLError(pynvml.NVML_SUCCESS)  # pynvml's way of saying "zero samples"

    monkeypatch.setattr(pynvml, "nvmlDeviceGetProcessUtilization", none_yet)
    gpu = GpuCollector().sample().gpus[0]
    assert gpu.processes[0].sm_pct == 0.0  # no samples: the process did not run kernels
    assert gpu.unavailable == {}


def test_process_sm_is_read_on_its_own_cadence(nvml: FakeNvml, clock: Clock) -> None:
    collector = GpuCollector(process_sm_every_s=5.0, monotonic=clock)
    assert collector.sample().gpus[0].processes[0].sm_pct == 88.0
    nvml.processes[0].append((4_000_001, 512 * MIB))  # a process that appears in between
    second = collector.sample().gpus[0]
    assert nvml.calls["nvmlDeviceGetProcessUtilization"] == 1  # the slow call waits its turn
    assert [p.sm_pct for p in second.processes] == [88.0, None]  # not read yet: not known
    clock.now += 5
    third = collector.sample().gpus[0]
    assert nvml.calls["nvmlDeviceGetProcessUtilization"] == 2
    assert [p.sm_pct for p in third.processes] == [88.0, 88.0]


def test_ecc_off_and_unknown_perf_state_read_as_missing(nvml: FakeNvml) -> None:
    nvml.fail("nvmlDeviceGetTotalEccErrors", pynvml.NVML_ERROR_NOT_SUPPORTED)
    nvml.fail("nvmlDeviceGetProcessUtilization", pynvml.NVML_ERROR_NOT_SUPPORTED)
    gpu = GpuCollector().sample().gpus[0]
    assert gpu.ecc_uncorrected is None and gpu.unavailable["ecc_uncorrected"] == "not supported"
    assert gpu.processes[0].sm_pct is None
    assert gpu.unavailable["process_sm_pct"] == "not supported"
    assert gpu.util_pct == 97.0
