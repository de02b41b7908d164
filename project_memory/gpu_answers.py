"""Answers about the GPUs now ("gpu util?", "how much vram is free?") from the GPU collector."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sessiontui.project_memory.answer import Answer, fmt

if TYPE_CHECKING:
    from sessiontui.project_memory.live import GpuReading, GpuReadings


def _gpu_line(gpu: GpuReading) -> str:
    memory = (f"{fmt(gpu.mem_used_mib / 1024)} / {fmt(gpu.mem_total_mib / 1024)} GiB"
              if gpu.mem_used_mib is not None and gpu.mem_total_mib else "memory n/a")
    temp = f", {gpu.temp_c:.0f} °C" if gpu.temp_c is not None else ""
    power = f", {gpu.power_w:.0f} W" if gpu.power_w is not None else ""
    return f"  GPU {gpu.index} {gpu.name}: util {fmt(gpu.util_pct, 0)}%, {memory}{temp}{power}"


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def answer_gpu(readings: GpuReadings | None) -> Answer:
    """Utilisation, memory, temperature and power of every GPU, with their averages."""
    if readings is None or not readings.available:
        reason = readings.reason if readings is not None else "no GPU collector in this front end"
        return Answer("gpu", f"No GPU readings here: {reason or 'NVML not available'}.",
                      figures={"gpu_count": 0})
    gpus = list(readings.gpus)
    util = _mean([g.util_pct for g in gpus if g.util_pct is not None])
    used = sum(g.mem_used_mib or 0.0 for g in gpus)
    total = sum(g.mem_total_mib or 0.0 for g in gpus)
    head = (f"{len(gpus)} GPU(s): mean util {fmt(util, 0)}%, memory {fmt(used / 1024)} of "
            f"{fmt(total / 1024)} GiB used" + (f" ({100 * used / total:.0f}%)" if total else ""))
    figures = {
        "gpu_count": len(gpus), "util_pct_mean": util, "mem_used_gib": round(used / 1024, 2),
        "mem_total_gib": round(total / 1024, 2),
        "temp_c_max": max((g.temp_c for g in gpus if g.temp_c is not None), default=None),
    }
    return Answer("gpu", "\n".join([head, *(_gpu_line(g) for g in gpus)]), [], figures)
