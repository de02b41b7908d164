"""AISBench's perf results (`ais_bench --mode perf`): a table of per-request statistics
(`Performance Parameters | Stage | Average | Min | ... | P99 | N`) and a table of the run's own
figures (`Common Metric | Stage | Value`), both tabulate grids, as AISBench/benchmark's
docs/source_en/base_tutorials/scenes_intro/performance_benchmark.md shows them.

Read as labelled rows, the per-request table's `OutputTokenThroughput` (each request's own rate)
and the run's `Output Token Throughput` would be two results, and the `Stage` cell sits between
each label and its value; one record per Common Metric table, headed by its output rate.
"""

from __future__ import annotations

import re

from sessiontui.collectors.bench_output.common import benchmark, whole
from sessiontui.collectors.bench_output.labels import VALUE, name_of, printed_number
from sessiontui.collectors.bench_output.tables import BARS, row_cells
from sessiontui.project_memory.records import Record

FORMATS = ("aisbench.perf",)
MARKERS = re.compile(r"(?m)^[ \t]*[│|]\s*(?:Common Metric|Performance Parameters)\s*[│|]\s*Stage\s*[│|]")
_STATS = {"average": "mean", "median": "median", "min": "min", "max": "max", "p75": "p75", "p90": "p90",
          "p99": "p99"}
# the run's figures whose names say more than their words do
_COMMON = {"max concurrency": "concurrency", "concurrency": "mean_concurrency",
           "prefill token throughput": "prefill_tok_s", "input token throughput": "prompt_tok_s"}


def _per_request(cells: list[str], header: list[str]) -> dict[str, float]:
    """The latency statistics of a per-request row (`E2EL | total | 29982.6 ms | ...`) in ms, and
    a rate's (`OutputTokenThroughput`) as each request's own, `per_user_output_tok_s_mean`."""
    figures: dict[str, float] = {}
    for column, cell in zip(header[2:], cells[2:], strict=False):
        stat, value = _STATS.get(column), VALUE.fullmatch(cell)
        if stat is None or value is None:
            continue
        name, factor = name_of(f"{cells[0]} {stat}", value[3] or "")
        if name.endswith("tok_s"):
            figures[f"per_user_output_tok_s_{stat}"] = printed_number(value[1]) * factor
        elif name.endswith(f"_ms_{stat}"):
            figures[name] = printed_number(value[1]) * factor
    return figures


def _common(cells: list[str]) -> tuple[str, float] | None:
    """(figure name, value) of a Common Metric row of the whole run (`Stage` total), or None."""
    value = VALUE.fullmatch(cells[2]) if len(cells) == 3 and cells[1].lower() == "total" else None
    if value is None:
        return None
    label, unit = cells[0].lower(), (value[3] or "").strip()
    if label == "benchmark duration":
        return "bench_duration_s", printed_number(value[1]) * (1e-3 if unit == "ms" else 1.0)
    name, factor = (_COMMON[label], 1.0) if label in _COMMON else name_of(cells[0], unit)
    return name, printed_number(value[1]) * factor


def parse(text: str, problems: list[str]) -> list[Record]:
    """One record per Common Metric table, with the per-request statistics printed above it."""
    if not MARKERS.search(text):
        return []
    records: list[Record] = []
    header: list[str] = []
    figures: dict[str, float] = {}
    for line in text.splitlines():
        if not BARS.match(line.strip()):
            continue
        cells = row_cells(line)
        if cells[1:2] == ["Stage"]:
            if header and header[0] == "common metric":
                records.extend(_record(figures, problems))  # a second run's tables: close the first
                figures = {}
            header = [cell.lower() for cell in cells]
        elif header and header[0] == "common metric" and (found := _common(cells)):
            figures[found[0]] = found[1]
        elif header:
            figures.update(_per_request(cells, header))
    return records + _record(figures, problems)


def _record(figures: dict[str, float], problems: list[str]) -> list[Record]:
    """The run's record headed by its output rate; none (and a problem) without one."""
    if not figures:
        return []
    value = figures.pop("output_tok_s", None)
    if value is None:
        problems.append(f"{FORMATS[0]}: a result without its Output Token Throughput (cut), not stored")
        return []
    concurrency = figures.pop("concurrency", None)
    return [benchmark(value, FORMATS[0], concurrency=whole(concurrency), figures=figures)]
