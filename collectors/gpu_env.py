"""What a measurement runs on, as NVML tells it: GPU models, the driver and the CUDA version.

Records are stamped with it so a later comparison can tell a stale baseline (another driver, CUDA
or GPU) from a fair one. One NVML session, a few microsecond calls, never raises. A Linux host
without the NVIDIA driver's device files is not probed at all (importing pynvml and failing
nvmlInit costs tens of milliseconds of a short command), and a failed probe is not repeated.
"""

from __future__ import annotations

import contextlib
import sys
from dataclasses import dataclass, field
from pathlib import Path

from sessiontui.collectors import nvml_fields as nf


@dataclass(frozen=True)
class GpuEnvironment:
    """The GPUs of this host and the driver stack they run under (empty without NVML)."""

    names: list[str] = field(default_factory=list)
    driver: str | None = None
    cuda: str | None = None


def cuda_text(version: int) -> str:
    """NVML's CUDA driver version integer (12080) as people write it (12.8)."""
    return f"{version // 1000}.{version % 1000 // 10}"


# NVML talks to the kernel driver through these (the last under WSL); none present: no driver.
DRIVER_FILES = ("/dev/nvidiactl", "/proc/driver/nvidia", "/dev/dxg")
_no_nvml = False  # set once a probe found no NVML: this process does not ask again


def driver_present() -> bool:
    """Whether an NVIDIA driver may answer: any of its files exists, or not Linux (not checked)."""
    return not sys.platform.startswith("linux") or any(Path(p).exists() for p in DRIVER_FILES)


def gpu_environment() -> GpuEnvironment:
    """This host's GPU models, NVIDIA driver and CUDA driver version; empty without NVML."""
    global _no_nvml
    if _no_nvml or not driver_present():
        return GpuEnvironment()
    nvml, _ = nf.load_pynvml()
    if nvml is not None:
        try:
            nvml.nvmlInit()
        except Exception:
            nvml = None
    if nvml is None:
        _no_nvml = True
        return GpuEnvironment()
    try:
        names, driver, cuda = [], None, None
        with contextlib.suppress(Exception):
            for index in range(nvml.nvmlDeviceGetCount()):
                name = nvml.nvmlDeviceGetName(nvml.nvmlDeviceGetHandleByIndex(index))
                names.append(name.decode() if isinstance(name, bytes) else str(name))
        with contextlib.suppress(Exception):
            raw = nvml.nvmlSystemGetDriverVersion()
            driver = raw.decode() if isinstance(raw, bytes) else str(raw)
        with contextlib.suppress(Exception):
            cuda = cuda_text(int(nvml.nvmlSystemGetCudaDriverVersion_v2()))
        return GpuEnvironment(names, driver, cuda)
    finally:
        with contextlib.suppress(Exception):
            nvml.nvmlShutdown()
