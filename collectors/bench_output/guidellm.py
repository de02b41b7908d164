"""guidellm's console tables: 0.4 on, each titled `ℹ ... Statistics`, its columns headed over three rows;
0.2/0.3, one `Benchmarks Stats:` table whose columns are headed by a section row and a statistic row.

The first header row names a group whose cell spans the columns its extra bars close
(`| Output Tokens || Total Tokens ||`), the second the quantity (`Per Sec`, `ms`), the third the
statistic (`Mdn`, `Mean`, `p95`); one data row per benchmark, named by its strategy (vllm-project/
guidellm src/guidellm/benchmark/outputs/console.py). The run's output rate is the Server Throughput
table's `Output Tokens / Per Sec / Mean` (the Mdn is a median of per-second samples, far lower
on a short run); its latencies come from the Request Latency table's row of the same benchmark.

Before 0.4 (src/guidellm/benchmark/output.py, `_print_benchmarks_stats` and `_print_table`) the
stats table has no outer bars: a section row whose names each end in as many bars as columns they
span (the last one short by one, its closing bar dropped: `Request Stats ||`, `TPOT (ms) ||`), a
statistic row (`Per Second | Concurrency | mean | ...`), then one row per benchmark, its cells
padded only to the widest header, so a wider figure is glued to its bar (`15.40| 15.40 |`).
0.1 (src/guidellm/core/report.py) nests rich tables in panels; its `Performance Summary by Benchmark`
table gives one row per benchmark, each cell with its unit.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from sessiontui.collectors.bench_output.common import benchmark, json_objects, number
from sessiontui.project_memory.records import Record

FORMATS = ("guidellm.console", "guidellm.json")
MARKERS = re.compile(r"Server Throughput Statistics|Benchmarks? Stats:\s*\n=+\s*\nMetadata\s*\|"
                     r'|"output_tokens_per_second":\s*\{\s*"successful"|GuideLLM Benchmarks Report|Performance Summary by Benchmark')
# the JSON report's metrics (`benchmarks[].metrics.<name>.successful.<stat>`) -> figure name (the mean)
_JSON_RATES = {"requests_per_second": "request_throughput", "tokens_per_second": "total_tok_s",
               "request_concurrency": "mean_concurrency"}
_JSON_LATENCY = {"request_latency": "e2e", "time_to_first_token_ms": "ttft", "inter_token_latency_ms": "itl",
                 "time_per_output_token_ms": "tpot"}
_STATS_TITLE = re.compile(r"Benchmarks? Stats:")
_SECTION = re.compile(r"([^|]+)(\|*)")  # `Request Stats ||`: a name and the bars closing its span
# (section, statistic) of the 0.2/0.3 stats table -> figure name; its latency sections below
_STATS_FIGURES = {("out tok/sec", "mean"): "output_tok_s", ("tot tok/sec", "mean"): "total_tok_s",
                  ("request stats", "per second"): "request_throughput",
                  ("request stats", "concurrency"): "mean_concurrency"}
_STATS_LATENCY = {"req latency": "e2e", "ttft": "ttft", "itl": "itl", "tpot": "tpot"}
# a benchmark's strategy as guidellm names it: `synchronous` and `concurrent@8` set the concurrency, `constant@2.00` and
# `poisson@2.00` the request rate
_STRATEGY_LOAD = re.compile(r"(concurrent|constant|poisson)@(\d+(?:\.\d+)?)$")
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


def _section_names(line: str, width: int) -> list[str]:
    """The section each of `width` columns lies in, from the 0.2/0.3 section row (the last
    section spans the columns left)."""
    names: list[str] = []
    sections = [(name.strip().lower(), len(bars)) for name, bars in _SECTION.findall(line) if name.strip()]
    for position, (name, bars) in enumerate(sections):
        span = width - len(names) if position == len(sections) - 1 else bars
        names.extend([name] * span)
    return names[:width]


def _stats_rows(text: str) -> Iterator[tuple[str, dict[tuple[str, str], float]]]:
    """(benchmark name, {(section, statistic): value}) of each row of a 0.2/0.3 stats table."""
    lines = [line.strip() for line in text.splitlines()]
    for index, line in enumerate(lines):
        if not _STATS_TITLE.fullmatch(line) or index + 3 >= len(lines):
            continue
        body = lines[index + 2:] if set(lines[index + 1]) == {"="} else lines[index + 1:]
        if len(body) < 3 or "|" not in body[0]:
            continue
        statistics = [cell.strip().lower() for cell in body[1].split("|")]
        columns = list(zip(_section_names(body[0], len(statistics)), statistics, strict=False))
        for row in body[2:]:
            if "|" not in row:
                break
            cells = [cell.strip() for cell in row.split("|")]
            if cells[0] and set(row) - set("-|= "):
                yield cells[0], {column: value for column, cell in zip(columns, cells, strict=False)
                                 if (value := number(cell)) is not None}


def _stats_table_records(text: str) -> list[Record]:
    """One record per benchmark of guidellm 0.2/0.3's stats table: its output rate, rates, latencies
    (ms; the request latency printed in seconds) and the load its strategy name sets."""
    records = []
    for name, values in _stats_rows(text):
        figures = {figure: values[column] for column, figure in _STATS_FIGURES.items() if column in values}
        output = figures.pop("output_tok_s", None)
        if output is None:
            continue
        for (section, stat), value in values.items():
            quantity = section.partition(" (")[0]
            if quantity in _STATS_LATENCY and stat in _STATS.values():
                scale = 1000.0 if quantity == "req latency" else 1.0  # seconds, though 0.2.1 heads it `(ms)`
                figures[f"{_STATS_LATENCY[quantity]}_ms_{stat}"] = round(value * scale, 6)
        load = _STRATEGY_LOAD.match(name)
        if load and load[1] != "concurrent":
            figures["request_rate"] = float(load[2])
        concurrency = int(float(load[2])) if load and load[1] == "concurrent" else None
        concurrency = 1 if name == "synchronous" else concurrency  # one request at a time
        records.append(benchmark(output, FORMATS[0], config=name, concurrency=concurrency, figures=figures))
    return records


# guidellm 0.1 (neuralmagic/guidellm src/guidellm/core/report.py): a `GuideLLM Benchmarks Report` panel holding a
# `Benchmark Report N` panel per run, each with rich tables; the summary table's columns, in the order printed
_SUMMARY_TITLE = "Performance Summary by Benchmark"
_STATS_TITLE_01 = "Performance Stats by Benchmark"
_SUMMARY_COLUMNS = ("request_throughput", "e2e_ms_mean", "ttft_ms_mean", "itl_ms_mean", "output_tok_s")
# its stats table: Request Latency (sec), Time to First Token (ms), Inter Token Latency (ms), each a list of the
# 1, 5, 10, 50, 90, 95, 99th percentiles (of which the ones the store keeps)
_PERCENTILES_01 = {3: "median", 4: "p90", 5: "p95", 6: "p99"}
_RATE_ID = re.compile(r"\w+@(\d+(?:\.\d+)?) req/sec$")  # `constant@0.85 req/sec`: the rate asked for


def _rich_rows(lines: list[str], title: str) -> Iterator[list[str]]:
    """The data rows of each rich table titled `title` inside nested panels (`│ │ ┏━━┳━━┓ │ │`), a row
    wrapped onto continuation rows (its first cell blank) joined into one; a copy that lost the
    panels' right padding is read the same, the table's columns counted on its top border."""
    for index, line in enumerate(lines):
        if line.strip(" │").strip() != title:
            continue
        top = next((row for row in lines[index + 1:index + 3] if "┏" in row), "")
        depth, width = top[:top.find("┏")].count("│"), top.count("┳") + 1
        rows: list[list[str]] = []
        for row in lines[lines.index(top, index) + 1:] if top else []:
            if "└" in row or "╰" in row:
                break
            cells = [cell.strip() for cell in re.split("[│┃]", row)[depth + 1:depth + 1 + width]]
            if "━" in row or "┃" in row or len(cells) < width:
                continue  # the header and its rule
            if cells[0] or not rows:
                rows.append(cells)
            else:
                rows[-1] = [f"{a} {b}".strip() for a, b in zip(rows[-1], cells, strict=True)]
        yield from rows


def _report_records(text: str) -> list[Record]:
    """One record per benchmark of guidellm 0.1's report: its summary row (rates and mean latencies,
    the request latency printed in seconds), the percentiles of its stats row, and its load."""
    lines = text.splitlines()
    stats = {row[0]: row[1:] for row in _rich_rows(lines, _STATS_TITLE_01)}
    records = []
    for name, *cells in _rich_rows(lines, _SUMMARY_TITLE):
        figures = {figure: value for figure, cell in zip(_SUMMARY_COLUMNS, cells, strict=False)
                   if (value := number(cell)) is not None}
        output = figures.pop("output_tok_s", None)
        if output is None:
            continue
        if "e2e_ms_mean" in figures:
            figures["e2e_ms_mean"] = round(figures["e2e_ms_mean"] * 1000.0, 6)
        for short, scale, cell in zip(("e2e", "ttft", "itl"), (1000.0, 1.0, 1.0), stats.get(name, []), strict=False):
            values = [number(value) for value in cell.split(",")]
            for position, stat in _PERCENTILES_01.items() if len(values) == 7 else ():
                if (value := values[position]) is not None:
                    figures[f"{short}_ms_{stat}"] = round(value * scale, 6)
        if rate := _RATE_ID.search(name):
            figures["request_rate"] = float(rate[1])
        records.append(benchmark(output, FORMATS[0], config=name, figures=figures,
                                 concurrency=1 if name == "synchronous" else None))
    return records


def _strategy(value: object) -> dict[str, Any]:
    """The first `strategy` object a benchmark's JSON holds (`{"type_": "concurrent", "streams": 4}`), or {}."""
    if isinstance(value, dict):
        if isinstance(found := value.get("strategy"), dict):
            return found
        value = list(value.values())
    if isinstance(value, list):
        return next((found for item in value if isinstance(item, dict | list) and (found := _strategy(item))), {})
    return {}


def _successful(metrics: dict[str, Any], name: str) -> dict[str, Any]:
    """A metric's distribution over the successful requests, or {}."""
    summary = metrics.get(name)
    found = summary.get("successful") if isinstance(summary, dict) else None
    return found if isinstance(found, dict) else {}


def _json_benchmark(result: dict[str, Any]) -> Record | None:
    """One benchmark of the JSON report (`guidellm benchmark --output-path x.json`): the same figures
    as the console's tables, the request latency in seconds as there."""
    metrics = result.get("metrics")
    if not isinstance(metrics, dict) or (output := number(_successful(metrics, "output_tokens_per_second")
                                                           .get("mean"))) is None:
        return None
    figures = {figure: value for name, figure in _JSON_RATES.items()
               if (value := number(_successful(metrics, name).get("mean"))) is not None}
    for name, short in _JSON_LATENCY.items():
        summary = _successful(metrics, name)
        scale = 1000.0 if name == "request_latency" else 1.0
        percentiles = summary.get("percentiles")
        stats = {"mean": summary.get("mean"), "median": summary.get("median"),
                 **(percentiles if isinstance(percentiles, dict) else {})}
        for stat, value in stats.items():
            if stat in _STATS.values() and (value := number(value)) is not None:
                figures[f"{short}_ms_{stat}"] = round(value * scale, 6)
    strategy = _strategy(result)
    kind, streams, rate = strategy.get("type_"), number(strategy.get("streams")), number(strategy.get("rate"))
    if rate is not None and kind in ("constant", "poisson"):
        figures["request_rate"] = rate
    concurrency = 1 if kind == "synchronous" else int(streams) if kind == "concurrent" and streams else None
    config = kind if isinstance(kind, str) else None
    if concurrency and kind == "concurrent":
        config = f"{kind}@{concurrency}"
    elif rate is not None and "request_rate" in figures:
        config = f"{kind}@{rate:.2f}"
    return benchmark(output, FORMATS[1], config=config, concurrency=concurrency, figures=figures)


def _json_records(text: str) -> list[Record]:
    """One record per benchmark of each guidellm JSON report in the text."""
    return [record for document in json_objects(text) if isinstance(document.get("benchmarks"), list)
            for result in document["benchmarks"] if isinstance(result, dict) and (record := _json_benchmark(result))]


def parse(text: str, problems: list[str]) -> list[Record]:
    """One record per benchmark row of the Server Throughput table, with its latencies (or of
    the 0.2/0.3 stats table)."""
    if not MARKERS.search(text):
        return []
    if old := _stats_table_records(text) or _json_records(text) or _report_records(text):
        return old
    if "GuideLLM Benchmarks Report" in text:  # 0.1's panel, cut before a summary row
        problems.append(f"{FORMATS[0]}: report without a whole `{_SUMMARY_TITLE}` row (cut), not stored")
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
