"""The GPU pane's text, built from snapshots and histories: pure functions, no widget state.

Per GPU one of three forms, the richest whose height fits the pane: `compact` (one line: utilisation
and memory bars, power against its limit, temperature, perf state), `detail` (plus clocks,
memory-bandwidth utilisation, ECC, PCIe/NVLink and the throttle reasons) and `chart` (plus
history charts of utilisation, memory and power on absolute scales, with a time axis).
Then the GPU processes as a table, then the host.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rich.style import Style
from rich.text import Text

from sessiontui.tui.widgets.fmt import DASH, duration, percent
from sessiontui.tui.widgets.gauges import chart, fraction, hbar, time_axis
from sessiontui.tui.widgets.literal import clean

if TYPE_CHECKING:
    from sessiontui.collectors.gpu import GpuProcess, GpuSample, GpuSnapshot

StyleOf = Callable[[str], Style]
CHART_HEIGHTS = (6, 5, 4, 3, 2)
MIN_CHART_WIDTH = 16
MAX_BAR = 40
WIDE_TABLE = 72  # from this width the process table has USER and RSS columns


@dataclass(frozen=True)
class Form:
    """How each GPU is drawn: its kind and, for charts, the chart height."""

    kind: str  # "compact", "detail" or "chart"
    chart_rows: int = 0

    @property
    def lines(self) -> int:
        return {"compact": 1, "detail": 2}.get(self.kind, 3 + self.chart_rows + 1)


FORMS = (*(Form("chart", rows) for rows in CHART_HEIGHTS), Form("detail"), Form("compact"))


@dataclass(frozen=True)
class Series:
    """One GPU's recent history, oldest first (one value per sample)."""

    util: Sequence[float | None]
    mem: Sequence[float | None]
    power: Sequence[float | None]


@dataclass(frozen=True)
class ProcessRow:
    """One process on one GPU, with its host-side figures when the host sees it."""

    gpu: int
    process: GpuProcess
    info: Any  # a ProcessInfo, or None outside our PID namespace

    @property
    def key(self) -> tuple[int, int]:
        return (self.gpu, self.process.pid)


def short_name(name: str) -> str:
    """`NVIDIA H200` -> `H200`: the vendor is the same on every line."""
    for prefix in ("NVIDIA ", "GeForce "):
        name = name.removeprefix(prefix)
    return name


def gib_pair(used_mib: float | None, total_mib: float | None) -> str:
    """`42.7/140G`: used with one decimal, total rounded."""
    used = DASH if used_mib is None else f"{used_mib / 1024:.1f}"
    total = DASH if total_mib is None else f"{total_mib / 1024:.0f}"
    return f"{used}/{total}G"


def whole(value: float | None, unit: str = "") -> str:
    return DASH if value is None else f"{value:.0f}{unit}"


def chart_width(width: int) -> int:
    """Cells of each of the three charts drawn side by side, two cells apart, in `width`."""
    return (width - 4) // 3


def choose_form(gpus: int, width: int, height: int, other_lines: int) -> Form:
    """The richest GPU form whose lines, with `other_lines` below, fit the pane."""
    for form in FORMS:
        if form.kind == "chart" and chart_width(width) < MIN_CHART_WIDTH:
            continue
        if gpus * form.lines + other_lines <= height:
            return form
    return FORMS[-1]


def bar_width(width: int, fixed: int, bars: int, limit: int = MAX_BAR) -> int:
    """Cells per bar once `fixed` cells of figures are placed; 0 when bars would be too short."""
    cells = (width - fixed) // bars
    return min(limit, cells) if cells >= 4 else 0


def append_bar(text: Text, share: float | None, width: int, fill: Style, back: Style) -> None:
    """A `▕███   ▏` bar of `width` inner cells, followed by a space."""
    if not width:
        return
    filled, empty = hbar(share, width)
    text.append("▕", back)
    text.append(filled, fill)
    text.append(empty, back)
    text.append("▏ ", back)


def gpu_compact(sample: GpuSample, width: int, style: StyleOf) -> Text:
    """One line: index, model, utilisation and memory bars, power/limit, temperature, state."""
    name = short_name(sample.name)[:10]
    text = Text(f"{sample.index:>2} {name:<10} ", no_wrap=True)
    if sample.lost:
        text.append(f"lost: {sample.unavailable.get('gpu', '')}", style("gpu-pane--lost"))
        return text
    power = f"{whole(sample.power_w)}/{whole(sample.power_limit_w)}W"
    tail = f"{power:>9} {whole(sample.temp_c, '°C'):>5} {sample.perf_state or '':<3}"
    memory = gib_pair(sample.mem_used_mib, sample.mem_total_mib)
    bars = bar_width(width, 14 + 5 + 11 + len(tail) + 2 + 6, 2)
    back = style("gpu-pane--empty")
    text.append(f"{percent(sample.util_pct):>4} ")
    append_bar(text, fraction(sample.util_pct, 100), bars, style("gpu-pane--util"), back)
    text.append(f"{memory:>10} ")
    append_bar(text, fraction(sample.mem_used_mib, sample.mem_total_mib), bars,
               style("gpu-pane--mem"), back)
    text.append(tail)
    if sample.throttle:
        text.append(" ⚠", style("gpu-pane--throttle"))
    return text


def gpu_details(sample: GpuSample) -> Text:
    """Clocks, memory-bandwidth utilisation, ECC, interconnect and why clocks are held back."""
    parts = [
        f"SM {whole(sample.sm_clock_mhz)} MHz",
        f"mem {whole(sample.mem_clock_mhz)} MHz",
        f"mem-bw {percent(sample.mem_util_pct)}",
        f"ECC {DASH if sample.ecc_uncorrected is None else sample.ecc_uncorrected}",
    ]
    if sample.pcie_tx_kb_s is not None or sample.pcie_rx_kb_s is not None:
        parts.append(f"PCIe ↑{rate(sample.pcie_tx_kb_s)} ↓{rate(sample.pcie_rx_kb_s)}")
    if sample.nvlink_tx_kb_s is not None or sample.nvlink_rx_kb_s is not None:
        parts.append(f"NVLink ↑{rate(sample.nvlink_tx_kb_s)} ↓{rate(sample.nvlink_rx_kb_s)}")
    return Text("   " + "  ".join(parts) + "  ", no_wrap=True)


def rate(kib_s: float | None) -> str:
    """KiB/s as a short rate: 812K, 1.5M, 22.0G (per second)."""
    if kib_s is None:
        return DASH
    for unit, size in (("G", 1024**2), ("M", 1024)):
        if kib_s >= size:
            return f"{kib_s / size:.1f}{unit}/s"
    return f"{kib_s:.0f}K/s"


def gpu_charts(sample: GpuSample, series: Series, span_s: float | None, width: int, rows: int,
               style: StyleOf) -> list[Text]:
    """Three charts side by side (utilisation 0–100%, memory 0–total, power 0–limit), each
    with its scale in its title and a time axis underneath."""
    cell = chart_width(width)
    scales = (
        ("util 0–100%", series.util, 100.0, "gpu-pane--util"),
        (f"memory 0–{whole(_gib(sample.mem_total_mib))}G", series.mem, sample.mem_total_mib,
         "gpu-pane--mem"),
        (f"power 0–{whole(sample.power_limit_w)}W", series.power, sample.power_limit_w,
         "gpu-pane--power"),
    )
    drawn = [chart(values, top, cell, rows) for _, values, top, _ in scales]
    lines = [Text("  ".join(title[:cell].ljust(cell) for title, *_ in scales),
                  style("gpu-pane--muted"), no_wrap=True)]
    for row in range(rows):
        line = Text(no_wrap=True)
        for position, (_, _, _, part) in enumerate(scales):
            if position:
                line.append("  ")
            line.append(drawn[position][row], style(part))
        lines.append(line)
    axis = time_axis(cell, span_s)
    lines.append(Text("  ".join([axis] * 3), style("gpu-pane--muted"), no_wrap=True))
    return lines


def _gib(mib: float | None) -> float | None:
    return None if mib is None else mib / 1024


def gpu_block(sample: GpuSample, form: Form, width: int, style: StyleOf,
              charts: Sequence[Text] = ()) -> list[Text]:
    """All lines of one GPU in the given form; `charts` are its chart lines (the chart form),
    drawn by the caller, who knows when they last changed."""
    lines = [gpu_compact(sample, width, style)]
    if sample.lost or form.kind == "compact":
        return lines
    details = gpu_details(sample)
    if sample.throttle:
        details.append(f"⚠ {', '.join(sample.throttle)}", style("gpu-pane--throttle"))
    lines.append(details)
    if form.kind == "chart":
        lines.extend(charts)
    return lines


def process_rows(snapshot: GpuSnapshot, host: Any) -> list[ProcessRow]:
    """Every (GPU, process) pair, by GPU then GPU memory, biggest first."""
    infos = host.processes if host is not None else {}
    rows = [
        ProcessRow(gpu.index, process, infos.get(process.pid))
        for gpu in snapshot.gpus
        for process in gpu.processes
    ]
    rows.sort(key=lambda row: (row.gpu, -(row.process.used_mib or 0.0)))
    return rows


def process_header(width: int) -> str:
    if width >= WIDE_TABLE:
        return " GPU     PID USER      GPU-MEM  %SM  %CPU    RSS        TIME  COMMAND"
    return " GPU     PID  GPU-MEM  %SM  %CPU        TIME  COMMAND"


def process_line(row: ProcessRow, width: int, now: float) -> str:
    """One table row; the command line is cut with an ellipsis at the pane's edge."""
    info, process = row.info, row.process
    mark = "●" if info is not None and info.follows_log else " "
    memory = DASH if process.used_mib is None else f"{process.used_mib / 1024:.1f}G"
    cpu = DASH if info is None or info.cpu_pct is None else f"{info.cpu_pct:.0f}"
    running = DASH if info is None else duration(max(0.0, now - info.started_at))
    command = clean(short_command(info.command) if info is not None else process.name)
    if width >= WIDE_TABLE:
        user = DASH if info is None else info.user
        rss = DASH if info is None or info.rss_mib is None else f"{info.rss_mib / 1024:.1f}G"
        head = (f"{mark}{row.gpu:>3} {process.pid:>7} {user[:8]:<8} {memory:>8} "
                f"{whole(process.sm_pct):>4} {cpu:>5} {rss:>6} {running:>11}  ")
    else:
        head = (f"{mark}{row.gpu:>3} {process.pid:>7} {memory:>8} {whole(process.sm_pct):>4} "
                f"{cpu:>5} {running:>11}  ")
    room = width - len(head)
    if len(command) > room:
        command = command[: max(0, room - 1)] + "…"
    return head + command


def short_command(command: str) -> str:
    """The command line with its program's folder left out (`/opt/conda/bin/python` -> `python`);
    the full line shows when the process is selected."""
    program, _, rest = " ".join(command.split()).partition(" ")  # `python -c` scripts: one line
    return f"{program.rsplit('/', 1)[-1]} {rest}".rstrip()


def wrapped(text: str, width: int, indent: int = 6) -> list[str]:
    """`text` (its own line breaks kept) in lines of at most `width` cells after `indent` spaces."""
    room = max(10, width - indent)
    return [
        " " * indent + line[start : start + room]
        for line in text.splitlines() or [""]
        for start in range(0, max(1, len(line)), room)
    ]


def host_lines(host: Any, width: int, style: StyleOf) -> list[Text]:
    """Load, CPU, memory and swap on one line; the watched disks, the low ones marked."""
    load = DASH if host.load_avg is None else " ".join(f"{v:.2f}" for v in host.load_avg)
    first = Text(f"load {load}  CPU {percent(host.cpu_pct):>4} ", no_wrap=True)
    swap = (f"  swap {gib_pair(host.swap_used_mib, host.swap_total_mib)}"
            if host.swap_total_mib else "  swap none")
    memory = f"mem {gib_pair(host.mem_used_mib, host.mem_total_mib)}"
    bars = bar_width(width, len(first) + len(memory) + len(swap) + 8, 2, limit=20)
    back = style("gpu-pane--empty")
    append_bar(first, fraction(host.cpu_pct, 100), bars, style("gpu-pane--util"), back)
    first.append(f" {memory} ")
    append_bar(first, fraction(host.mem_used_mib, host.mem_total_mib), bars,
               style("gpu-pane--mem"), back)
    first.append(swap)
    second = Text(no_wrap=True)
    for disk in host.disks:
        words = f"disk {clean(disk.path)} {disk.free_gib:.0f}G free ({disk.free_fraction:.0%})"
        if disk.low:
            second.append(f"⚠ {words}, low  ", style("gpu-pane--warning"))
        else:
            second.append(words + "  ")
    return [first, second] if host.disks else [first]
