"""`sessiontui gpu [--json]`: one GPU sample, as a compact table or as JSON for scripts."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sessiontui.collectors.gpu import GpuSample, GpuSnapshot


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `gpu` subcommand."""
    parser = sub.add_parser("gpu", help="print one sample of every GPU (NVML)")
    parser.add_argument("--json", action="store_true", help="print the sample as JSON")
    parser.set_defaults(func=cmd_gpu)


def cmd_gpu(args: argparse.Namespace) -> int:
    """Sample once; without NVML that is a normal answer (available: false), so exit 0."""
    import json

    from sessiontui.collectors.gpu import GpuCollector

    collector = GpuCollector()
    try:
        snapshot = collector.sample()
    finally:
        collector.close()
    print(json.dumps(snapshot.to_dict()) if args.json else render_table(snapshot))
    return 0


def render_table(snapshot: GpuSnapshot) -> str:
    """Plain-text table, one line per GPU and one indented line per process."""
    if not snapshot.available:
        return f"GPU: not available ({snapshot.reason})"
    lines = [f"driver {snapshot.driver or 'n/a'}", _HEADER]
    for gpu in snapshot.gpus:
        lines.append(_row(gpu))
        lines.extend(
            f"      pid {p.pid:>7}  {p.name:<20} {_num(p.used_mib, '.0f', ' MiB')}"
            for p in gpu.processes
        )
        if not gpu.lost:
            lines.extend(f"      n/a: {field} ({why})" for field, why in gpu.unavailable.items())
    return "\n".join(lines)


_HEADER = (
    f"{'GPU':>3}  {'name':<16} {'util':>5} {'memory (MiB)':>17} {'power (W)':>11} "
    f"{'temp':>5} {'SM MHz':>6}  throttle"
)


def _row(gpu: GpuSample) -> str:
    """One GPU's figures; a lost GPU says so instead."""
    if gpu.lost:
        return f"{gpu.index:>3}  {gpu.name[:16]:<16} LOST: {gpu.unavailable.get('gpu', '')}"
    memory = f"{_num(gpu.mem_used_mib, '.0f')}/{_num(gpu.mem_total_mib, '.0f')}"
    power = f"{_num(gpu.power_w, '.0f')}/{_num(gpu.power_limit_w, '.0f')}"
    return (
        f"{gpu.index:>3}  {gpu.name[:16]:<16} {_num(gpu.util_pct, '.0f', '%'):>5} "
        f"{memory:>17} {power:>11} {_num(gpu.temp_c, '.0f', 'C'):>5} "
        f"{_num(gpu.sm_clock_mhz, '.0f'):>6}  {', '.join(gpu.throttle) or '-'}"
    )


def _num(value: float | None, spec: str, unit: str = "") -> str:
    """A number with its unit, or n/a."""
    return "n/a" if value is None else f"{value:{spec}}{unit}"
