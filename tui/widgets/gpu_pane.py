"""The GPU pane: a line per GPU with live figures and sparklines, the GPU processes, the host.

The pane is one widget that renders one Text: a sample repaints it once, however many GPUs.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from rich.text import Text
from textual.reactive import var

from sessiontui.tui.widgets.fmt import DASH, gib, num
from sessiontui.tui.widgets.literal import literal
from sessiontui.tui.widgets.remote_hosts import hosts_line_count, hosts_text
from sessiontui.tui.widgets.spark import spark
from sessiontui.tui.widgets.styling import PartStyles

HISTORY = 120  # samples kept per GPU for the sparklines (two minutes at 1 Hz)
MAX_PROCESS_LINES = 8
MAX_SPARK = 30


def gpu_line(sample: Any) -> str:
    """One fixed-width line of a GPU's figures."""
    if sample.lost:
        return f"{sample.index:>2} {sample.name[:14]:<14} lost (fell off the bus or was reset)"
    util = DASH if sample.util_pct is None else f"{sample.util_pct:.0f}%"
    power = f"{num(sample.power_w, 0)}/{num(sample.power_limit_w, 0)}W"
    temp = DASH if sample.temp_c is None else f"{sample.temp_c:.0f}C"
    clock = DASH if sample.sm_clock_mhz is None else f"{sample.sm_clock_mhz:.0f}MHz"
    memory = f"{gib(sample.mem_used_mib)}/{gib(sample.mem_total_mib)}G"
    return (
        f"{sample.index:>2} {sample.name[:14]:<14} {util:>4} {memory:>12} {power:>10} "
        f"{temp:>4} {clock:>7}"
    )


def process_lines(snapshot: Any) -> list[str]:
    """The processes on all GPUs, biggest first, one line each."""
    rows = [
        (proc.used_mib or 0, f"GPU{gpu.index} {proc.pid:>7} {gib(proc.used_mib):>6}G  {proc.name}")
        for gpu in snapshot.gpus
        for proc in gpu.processes
    ]
    rows.sort(key=lambda row: -row[0])
    lines = [line for _, line in rows[:MAX_PROCESS_LINES]]
    if len(rows) > MAX_PROCESS_LINES:
        lines.append(f"… {len(rows) - MAX_PROCESS_LINES} more")
    return lines or ["no GPU processes"]


def throttle_line(snapshot: Any) -> str:
    """Why GPUs are throttled (the ⚠ on their lines), or nothing when none is."""
    reasons = [f"GPU{gpu.index} {', '.join(gpu.throttle)}" for gpu in snapshot.gpus if gpu.throttle]
    return f"⚠ throttled: {'; '.join(reasons)}" if reasons else ""


def host_line(host: Any) -> str:
    """CPU, RAM and free space on the watched disks."""
    parts = [
        f"host CPU {num(host.cpu_pct, 0)}%",
        f"RAM {gib(host.mem_used_mib)}/{gib(host.mem_total_mib)}G",
    ]
    parts.extend(f"{disk.path} {disk.free_gib:.0f}G free" for disk in host.disks)
    return "  ".join(parts)


class GpuPane(PartStyles):
    """Live GPU telemetry; says plainly when NVML is not available."""

    COMPONENT_CLASSES = {
        "gpu-pane--throttle", "gpu-pane--lost", "gpu-pane--util", "gpu-pane--power",
        "gpu-pane--muted",
    }
    BORDER_TITLE = "GPUs"

    snapshot: var[Any] = var(None, always_update=True)
    host: var[Any] = var(None, always_update=True)
    remote: var[tuple] = var((), always_update=True)  # other hosts' snapshots ([[hosts]])

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.util: dict[int, deque[float]] = {}
        self.power: dict[int, deque[float]] = {}
        self._lines = 0

    def watch_snapshot(self, snapshot: Any) -> None:
        if snapshot is None:
            return
        for sample in snapshot.gpus:
            self.util.setdefault(sample.index, deque(maxlen=HISTORY)).append(sample.util_pct or 0)
            self.power.setdefault(sample.index, deque(maxlen=HISTORY)).append(sample.power_w or 0)
        self._repaint()

    def watch_host(self, host: Any) -> None:
        if host is not None:
            self._repaint()

    def watch_remote(self, remote: tuple) -> None:
        self._repaint()

    def _repaint(self) -> None:
        """Repaint (coalesced to one render per frame); lay out again only if the height changed."""
        if not self.display:  # a hidden tab: render() catches up when it is shown
            return
        lines = self._line_count()
        self.refresh(layout=lines != self._lines)
        self._lines = lines

    def _line_count(self) -> int:
        return self._local_line_count() + hosts_line_count(self.remote)

    def _local_line_count(self) -> int:
        snapshot = self.snapshot
        if snapshot is None or not snapshot.available:
            return 3
        throttled = 1 if throttle_line(snapshot) else 0
        return len(snapshot.gpus) + throttled + len(process_lines(snapshot)) + 4

    def render(self) -> Text:
        snapshot = self.snapshot
        if snapshot is None:
            text = Text("waiting for the first GPU sample…")
        elif not snapshot.available:
            text = literal(f"NVML not available: {snapshot.reason}")
        else:
            text = self._gpus_text(snapshot)
        if self.host is not None:
            text.append("\n\n")
            text.append_text(literal(host_line(self.host)))
        if self.remote:
            text.append_text(hosts_text(self.remote, gpu_line, self.part))
        return text

    def _gpus_text(self, snapshot: Any) -> Text:
        style = self.part
        text = Text()
        for sample in snapshot.gpus:
            line = gpu_line(sample)
            if sample.lost:
                text.append(line + "\n", style=style("gpu-pane--lost"))
                continue
            width = min(MAX_SPARK, (self.size.width - len(line) - 4) // 2)
            text.append_text(literal(line))
            if width > 2:
                text.append(" " + spark(self.util[sample.index], width).ljust(width),
                            style=style("gpu-pane--util"))
                text.append(" " + spark(self.power[sample.index], width).ljust(width),
                            style=style("gpu-pane--power"))
            text.append(" ⚠\n" if sample.throttle else "\n",
                        style=style("gpu-pane--throttle"))
        throttled = throttle_line(snapshot)
        if throttled:
            text.append_text(literal(throttled, style("gpu-pane--throttle")))
            text.append("\n")
        text.append("\n")
        text.append_text(literal("\n".join(process_lines(snapshot)),
                                 style("gpu-pane--muted")))
        return text
