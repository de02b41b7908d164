"""`sessiontui gpu [--json]`: one GPU sample, as a compact table or as JSON for scripts."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from sessiontui.tui.commands.common import add_command, add_json_options, print_json
from sessiontui.tui.commands.hosts import add_host_option

if TYPE_CHECKING:
    from sessiontui.collectors.gpu import GpuSample, GpuSnapshot


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `gpu` subcommand."""
    parser = add_command(sub, "gpu", "print one sample of every GPU (NVML)", "sessiontui gpu",
                         "sessiontui gpu --json | jq '.gpus[].util_pct'", "sessiontui gpu --host node-2")
    add_json_options(parser, records=False)
    add_host_option(parser)
    parser.set_defaults(func=cmd_gpu)


def cmd_gpu(args: argparse.Namespace) -> int:
    """Sample once; without NVML that is a normal answer (available: false), so exit 0.
    With --host, the named host's GPUs as its endpoint reports them; exit 1 when it is down."""
    if args.host:
        from sessiontui.tui.commands.hosts import answered, scrape_named

        remote = scrape_named(args.host)
        if remote is None:
            return 1
        if args.json:
            print_json(remote.to_dict())
        else:
            print(render_table(remote.gpu))
        return 0 if answered(remote) and remote.gpu.available else 1
    from sessiontui.collectors.gpu import GpuCollector

    collector = GpuCollector()
    try:
        snapshot = collector.sample()
    finally:
        collector.close()
    if args.json:
        print_json(snapshot.to_dict())
    else:
        print(render_table(snapshot))
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
