"""What NVML's numbers and error codes mean, kept apart from the collector that calls NVML."""

from __future__ import annotations

import functools
from types import ModuleType

# Clock event ("throttle") reason bits, from nvml.h (nvmlClocksEventReason*, driver 535+; the same
# bits as the older nvmlClocksThrottleReason* names). GPU idle (0x1) is left out on purpose.
_THROTTLE_BITS: tuple[tuple[int, str], ...] = (
    (0x0000000000000002, "app clocks"),
    (0x0000000000000004, "power cap"),
    (0x0000000000000008, "hw slowdown"),
    (0x0000000000000010, "sync boost"),
    (0x0000000000000020, "thermal"),
    (0x0000000000000040, "hw thermal"),
    (0x0000000000000080, "power brake"),
    (0x0000000000000100, "display clock"),
)

# nvml.h return codes this module names; pynvml exposes the same numbers as NVML_ERROR_*.
SUCCESS = 0
NOT_SUPPORTED = 3
NO_PERMISSION = 4
DRIVER_NOT_LOADED = 9
NOT_FOUND = 6
LIBRARY_NOT_FOUND = 12
FUNCTION_NOT_FOUND = 13
GPU_IS_LOST = 15
UNINITIALIZED = 1
LIB_RM_VERSION_MISMATCH = 18

_REASONS: dict[int, str] = {
    UNINITIALIZED: "NVML is not initialised",
    NOT_SUPPORTED: "not supported",
    NO_PERMISSION: "no permission",
    DRIVER_NOT_LOADED: "NVIDIA driver not loaded",
    LIBRARY_NOT_FOUND: "NVML library (libnvidia-ml.so.1) not found: no NVIDIA driver on this host",
    FUNCTION_NOT_FOUND: "not supported by this driver",
    GPU_IS_LOST: "GPU is lost (fell off the bus); it needs a reset",
    LIB_RM_VERSION_MISMATCH: (
        "NVIDIA driver/library version mismatch: reload the nvidia kernel module or reboot"
    ),
}

# Errors that will not go away by asking again: stop calling the function, keep the reason.
PERMANENT = frozenset({NOT_SUPPORTED, NO_PERMISSION, FUNCTION_NOT_FOUND})
# "Nothing to report right now" (no process utilisation samples since the last look): no error.
# pynvml raises NVMLError(SUCCESS) when nvmlDeviceGetProcessUtilization finds zero samples.
NO_DATA = frozenset({SUCCESS, NOT_FOUND})
# Errors that mean NVML as a whole is gone: drop the session and try to start it again later.
NVML_DOWN = frozenset(
    {UNINITIALIZED, DRIVER_NOT_LOADED, LIBRARY_NOT_FOUND, LIB_RM_VERSION_MISMATCH}
)


@functools.lru_cache(maxsize=64)
def throttle_names(mask: int) -> tuple[str, ...]:
    """Active clock-limiting reasons as short human names, so a pane can say why clocks are low."""
    return tuple(name for bit, name in _THROTTLE_BITS if mask & bit)


def error_code(exc: BaseException) -> int | None:
    """The NVML return code carried by a pynvml exception, or None for any other exception."""
    value = getattr(exc, "value", None)
    return value if isinstance(value, int) else None


def reason_for(code: int) -> str:
    """One short sentence for an NVML return code, without calling back into NVML."""
    return _REASONS.get(code, f"NVML error {code}")


def error_reason(exc: BaseException) -> str:
    """Why a value is missing, for pynvml errors and for anything else a binding may raise."""
    code = error_code(exc)
    return reason_for(code) if code is not None else f"{type(exc).__name__}: {exc}"


def load_pynvml() -> tuple[ModuleType | None, str | None]:
    """Import nvidia-ml-py's `pynvml`, refusing the deprecated packages that shadow that module."""
    try:
        import pynvml
    except ImportError as exc:
        return None, f"nvidia-ml-py is not installed ({exc})"
    if not hasattr(pynvml, "nvmlInitWithFlags"):
        return None, (
            f"the 'pynvml' module at {getattr(pynvml, '__file__', '?')} is an old, deprecated "
            "package (pynvml / nvidia-ml-py3); uninstall it and install nvidia-ml-py"
        )
    return pynvml, None


# What the collector reads: field -> (pynvml functions to try in order, arguments after the handle).
# A later name is used only when the driver lacks the earlier one (NVML_ERROR_FUNCTION_NOT_FOUND).
Spec = tuple[tuple[str, ...], tuple[int, ...]]
NVML_TEMPERATURE_GPU = 0
NVML_CLOCK_SM = 1
NVML_CLOCK_MEM = 2
NVML_MEMORY_ERROR_TYPE_UNCORRECTED = 1
NVML_VOLATILE_ECC = 0
NVML_PSTATE_UNKNOWN = 32
NVML_FI_DEV_NVLINK_LINK_COUNT = 91
NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_TX = 138
NVML_FI_DEV_NVLINK_THROUGHPUT_DATA_RX = 139
NVML_PCIE_UTIL_TX_BYTES = 0
NVML_PCIE_UTIL_RX_BYTES = 1

CHEAP: dict[str, Spec] = {
    "utilization": (("nvmlDeviceGetUtilizationRates",), ()),
    "memory": (("nvmlDeviceGetMemoryInfo",), ()),
    "power_w": (("nvmlDeviceGetPowerUsage",), ()),
    "temp_c": (("nvmlDeviceGetTemperatureV", "nvmlDeviceGetTemperature"), (NVML_TEMPERATURE_GPU,)),
    "sm_clock_mhz": (("nvmlDeviceGetClockInfo",), (NVML_CLOCK_SM,)),
    "mem_clock_mhz": (("nvmlDeviceGetClockInfo",), (NVML_CLOCK_MEM,)),
    "perf_state": (("nvmlDeviceGetPerformanceState",), ()),
    "throttle": (
        ("nvmlDeviceGetCurrentClocksEventReasons", "nvmlDeviceGetCurrentClocksThrottleReasons"),
        (),
    ),
    "processes": (
        (
            "nvmlDeviceGetComputeRunningProcesses_v3",
            "nvmlDeviceGetComputeRunningProcesses_v2",
        ),
        (),
    ),
    "graphics_processes": (
        (
            "nvmlDeviceGetGraphicsRunningProcesses_v3",
            "nvmlDeviceGetGraphicsRunningProcesses_v2",
        ),
        (),
    ),
}
SLOW: dict[str, Spec] = {
    "name": (("nvmlDeviceGetName",), ()),
    "uuid": (("nvmlDeviceGetUUID",), ()),
    "power_limit_w": (("nvmlDeviceGetEnforcedPowerLimit", "nvmlDeviceGetPowerManagementLimit"), ()),
    "ecc_uncorrected": (
        ("nvmlDeviceGetTotalEccErrors",),
        (NVML_MEMORY_ERROR_TYPE_UNCORRECTED, NVML_VOLATILE_ECC),
    ),
}
# Per-process SM utilisation; the collector adds the "samples since" timestamp (microseconds).
PROCESS_UTILIZATION: Spec = (("nvmlDeviceGetProcessUtilization",), ())
# NVLink (opt-in): the link count, then cumulative KiB counters per link read as field values.
NVLINK_FIELDS: Spec = (("nvmlDeviceGetFieldValues",), ())
PCIE: dict[str, Spec] = {
    "pcie_tx_kb_s": (("nvmlDeviceGetPcieThroughput",), (NVML_PCIE_UTIL_TX_BYTES,)),
    "pcie_rx_kb_s": (("nvmlDeviceGetPcieThroughput",), (NVML_PCIE_UTIL_RX_BYTES,)),
}
# Sample fields fed by one call, so a failed call marks each of them "not available".
FEEDS: dict[str, tuple[str, ...]] = {
    "utilization": ("util_pct", "mem_util_pct"),
    "memory": ("mem_used_mib", "mem_total_mib"),
}
