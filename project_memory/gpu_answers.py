"""Answers about the GPUs now ("gpu util?", "how much vram is free?") from the GPU collector."""

from __future__ import annotations

import re
from collections.abc import Sequence
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


_INDEX = re.compile(r"\b(?:gpu|device|card|cuda|rank)\s*(?:#|no\.?|number|id|index)?\s*(\d{1,2})\b")


def asked_gpus(question: str, gpus: Sequence[GpuReading]) -> list[GpuReading]:
    """The GPUs a question narrows to, by index (`gpu 3`, `device1`) or by a word of their name
    (`the a100`); all of them when it names none (or names one this host does not have)."""
    text = question.lower()
    indices = {int(i) for i in _INDEX.findall(text)}
    named = [g for g in gpus if g.index in indices]
    if not named:
        words = set(re.findall(r"[a-z0-9]+", text)) - {"nvidia", "gpu", "gpus"}
        by_name = [g for g in gpus if words & set(re.findall(r"[a-z0-9]+", g.name.lower()))]
        named = by_name if len({g.name for g in gpus}) > 1 else []
    return named or list(gpus)


def answer_gpu(readings: GpuReadings | None, question: str = "") -> Answer:
    """Utilisation, memory, temperature and power of every GPU (or the ones the question names),
    with their averages."""
    if readings is None or not readings.available:
        reason = readings.reason if readings is not None else "no GPU collector in this front end"
        return Answer("gpu", f"No GPU readings here: {reason or 'NVML not available'}.",
                      figures={"gpu_count": 0})
    every = list(readings.gpus)
    gpus = asked_gpus(question, every)
    if len(gpus) < len(every):
        return _one_or_some(gpus)
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


def _one_or_some(gpus: Sequence[GpuReading]) -> Answer:
    """The GPUs a question named, each on its line, the first one's figures."""
    first = gpus[0]
    memory = (first.mem_used_mib or 0.0) / 1024
    total = (first.mem_total_mib or 0.0) / 1024
    head = (f"GPU {first.index} ({first.name}): util {fmt(first.util_pct, 0)}%, memory "
            f"{fmt(memory)} of {fmt(total)} GiB used, {fmt(total - memory)} GiB free")
    lines = [head, *(_gpu_line(g) for g in gpus[1:])]
    figures = {"gpu_count": len(gpus), "gpu_index": first.index, "util_pct": first.util_pct,
               "mem_used_gib": round(memory, 2), "mem_total_gib": round(total, 2),
               "mem_free_gib": round(total - memory, 2), "temp_c": first.temp_c,
               "power_w": first.power_w}
    return Answer("gpu", "\n".join(lines), [], figures)
