"""The GPU collector against a real NVML: runs only on a host with an NVIDIA GPU (e.g. the H200)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest

from sessiontui.collectors.gpu import GpuCollector
from sessiontui.collectors.gpu_env import gpu_environment

_PROBE = GpuCollector().sample()
pytestmark = pytest.mark.skipif(not _PROBE.available, reason=f"no NVML here: {_PROBE.reason}")

# A CUDA process that holds 1 GiB until its stdin closes.
_HOLDER = (
    "import sys, torch; x = torch.empty(1 << 30, dtype=torch.uint8, device='cuda');"
    "torch.cuda.synchronize(); print('ready', flush=True); sys.stdin.read()"
)


def test_every_gpu_reports_sane_figures() -> None:
    collector = GpuCollector()
    for snapshot in [collector.sample() for _ in range(5)]:
        assert snapshot.available and snapshot.driver
        assert snapshot.gpus
        for gpu in snapshot.gpus:
            assert not gpu.lost
            assert gpu.name.startswith("NVIDIA") and gpu.uuid.startswith("GPU-")
            assert 0 < gpu.mem_used_mib <= gpu.mem_total_mib
            assert 0 <= gpu.util_pct <= 100 and 0 <= gpu.mem_util_pct <= 100
            assert gpu.temp_c is None or 0 < gpu.temp_c < 120
            assert gpu.power_w is None or 0 < gpu.power_w <= 1.5 * gpu.power_limit_w
            assert gpu.sm_clock_mhz is None or gpu.sm_clock_mhz > 0
            assert gpu.mem_clock_mhz is None or gpu.mem_clock_mhz > 0
            assert gpu.perf_state is None or gpu.perf_state.startswith("P")
            assert gpu.ecc_uncorrected is None or gpu.ecc_uncorrected >= 0
            assert set(gpu.unavailable) <= {
                "temp_c",
                "power_w",
                "sm_clock_mhz",
                "mem_clock_mhz",
                "perf_state",
                "ecc_uncorrected",
                "throttle",
                "power_limit_w",
                "graphics_processes",
                "process_sm_pct",
            }
            print(gpu)
    collector.close()


def test_gpu_names_match_the_samples() -> None:
    assert gpu_environment().names == [gpu.name for gpu in _PROBE.gpus]


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="needs PyTorch")
def test_a_cuda_process_is_listed_with_its_name() -> None:
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLDER], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout.readline().strip() == "ready"
        listed = {p.pid: p for gpu in GpuCollector().sample().gpus for p in gpu.processes}
    finally:
        holder.stdin.close()
        holder.wait(timeout=60)
    assert holder.pid in listed
    assert listed[holder.pid].name.startswith("python")
    assert listed[holder.pid].used_mib is None or listed[holder.pid].used_mib >= 1024
    print(listed[holder.pid])


def test_interconnect_counters_are_opt_in_and_never_raise() -> None:
    collector = GpuCollector(pcie=True, nvlink=True)
    first = collector.sample()
    second = collector.sample()
    collector.close()
    for gpu in (*first.gpus, *second.gpus):
        assert gpu.pcie_tx_kb_s is None or gpu.pcie_tx_kb_s >= 0
        assert gpu.nvlink_tx_kb_s is None or gpu.nvlink_tx_kb_s >= 0
    print([(g.pcie_tx_kb_s, g.pcie_rx_kb_s, g.nvlink_tx_kb_s, g.nvlink_rx_kb_s, g.unavailable)
           for g in second.gpus])
