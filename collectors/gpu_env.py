"""What a measurement runs on, as NVML tells it: GPU models, the driver and the CUDA version.

Records are stamped with it so a later comparison can tell a stale baseline (another driver, CUDA
or GPU) from a fair one. One NVML session, a few microsecond calls, never raises.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field

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


def gpu_environment() -> GpuEnvironment:
    """This host's GPU models, NVIDIA driver and CUDA driver version; empty without NVML."""
    nvml, _ = nf.load_pynvml()
    if nvml is None:
        return GpuEnvironment()
    try:
        nvml.nvmlInit()
    except Exception:
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
