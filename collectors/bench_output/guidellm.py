"""guidellm's console tables (0.4 on): each titled `ℹ ... Statistics`, its columns headed over three rows.

The first header row names a group whose cell spans the columns its extra bars close
(`| Output Tokens || Total Tokens ||`), the second the quantity (`Per Sec`, `ms`), the third the
statistic (`Mdn`, `Mean`, `p95`); one data row per benchmark, named by its strategy (vllm-project/
guidellm src/guidellm/benchmark/outputs/console.py). The run's output rate is the Server Throughput
table's `Output Tokens / Per Sec / Mean` (the Mdn is a median of per-second samples, far lower
on a short run); its latencies come from the Request Latency table's row of the same benchmark.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from sessiontui.collectors.bench_output.common import benchmark, number
from sessiontui.project_memory.records import Record

FORMATS = ("guidellm.console",)
MARKERS = re.compile(r"Server Throughput Statistics")
_TITLE = re.compile(r"^(?:\S{1,2}\s+)?(Server Throughput|Request Latency) Statistics\b")
_RULE_ROW = re.compile(r"^\|[=\-|]+\|?$")
# (group, quantity) of the Server Throughput table -> figure name (the Mean; the output rate is the headline)
_THROUGHPUT = {("requests", "per sec"): "request_throughput", ("requests", "concurrency"): "mean_concurrency",
               ("input tokens", "per sec"): "prompt_tok_s", ("total tokens", "per sec"): "total_tok_s"}
_LATENCY = {"request latency": "e2e", "ttft": "ttft", "itl": "itl", "tpot": "tpot"}
_STATS = {"mdn": "median", "mean": "mean", "p95": "p95", "p99": "p99", "p90": "p90"}


def _raw_cells(line: str) -> list[str]:
    """A table row's cells as printed, an empty one (no width) where a spanning cell's extra bar closed it."""
    line = line.strip()
    return line[1:-1 if line.endswith("|") else None].split("|")


def _cells(line: str) -> list[str]:
    """A table row's cells, stripped."""
    return [cell.strip() for cell in _raw_cells(line)]


def _columns(header: list[list[str]]) -> list[tuple[str, ...]]:
    """Each column's (group, quantity, statistic), a spanning cell's name carried over its span:
    a group's or quantity's over every blank cell after it, a statistic's only over the cells its
    extra bars closed (`| Mean ||||`: the Mean of four token rates, guidellm 0.6)."""
    carried: list[list[str]] = []
    for depth, row in enumerate(header):
        names, last = [], ""
        for raw in row:
            cell = raw.strip()
            last = cell or (last if depth < len(header) - 1 or not raw else "")
            names.append(last.lower())
        carried.append(names)
    width = min(len(row) for row in carried)
    return [tuple(row[i] for row in carried) for i in range(width)]


def _tables(text: str) -> Iterator[tuple[str, list[tuple[str, dict[tuple[str, ...], float]]]]]:
    """(title, [(benchmark name, {column: value})]) of each titled table."""
    lines = text.splitlines()
    for index, line in enumerate(lines):
        title = _TITLE.match(line.strip())
        if not title:
            continue
        header: list[list[str]] = []
        rows: list[tuple[str, dict[tuple[str, ...], float]]] = []
        columns: list[tuple[str, ...]] | None = None
        for row in lines[index + 1:]:
            row = row.strip()
            if not row.startswith("|"):
                break
            if _RULE_ROW.match(row):
                if row.startswith("|-"):
                    columns = _columns(header)
                continue
            cells = _cells(row)
            if columns is None:
                header.append(_raw_cells(row))
            elif cells and cells[0]:
                rows.append((cells[0], {column: value for column, cell in zip(columns[1:], cells[1:], strict=False)
                                        if (value := number(cell)) is not None}))
        yield title[1].lower(), rows


def _latencies(values: dict[tuple[str, ...], float]) -> dict[str, float]:
    """The Request Latency row's figures, in ms (`Request Latency` is printed in seconds)."""
    figures = {}
    for (group, quantity, stat), value in ((column[:3], v) for column, v in values.items() if len(column) >= 3):
        if group in _LATENCY and stat in _STATS:
            scale = 1000.0 if quantity.startswith("sec") else 1.0
            figures[f"{_LATENCY[group]}_ms_{_STATS[stat]}"] = round(value * scale, 6)
    return figures


def parse(text: str, problems: list[str]) -> list[Record]:
    """One record per benchmark row of the Server Throughput table, with its latencies."""
    if not MARKERS.search(text):
        return []
    throughput: list[tuple[str, dict[tuple[str, ...], float]]] = []
    latency: list[tuple[str, dict[tuple[str, ...], float]]] = []
    for title, rows in _tables(text):
        (throughput if title == "server throughput" else latency).extend(rows)
    records = []
    for position, (name, values) in enumerate(throughput):
        output = values.get(("output tokens", "per sec", "mean"))
        if output is None:
            problems.append(f"{FORMATS[0]}: benchmark `{name}` without its output tokens per second, not stored")
            continue
        figures = {figure: values[(group, quantity, "mean")] for (group, quantity), figure in _THROUGHPUT.items()
                   if (group, quantity, "mean") in values}
        if position < len(latency) and latency[position][0] == name:
            figures.update(_latencies(latency[position][1]))
        records.append(benchmark(output, FORMATS[0], config=name, figures=figures,
                                 partial=[] if position < len(latency) else ["latency"]))
    return records
