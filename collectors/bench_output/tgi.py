"""TGI's `text-generation-benchmark` tables: latency (`Prefill`, `Decode (token)`, `Decode (total)`
in ms) and throughput (`Prefill`, `Decode` in tokens/secs), one row per batch size.

Both tables are Markdown with the Step cell merged down its rows (printed once, blank below), as
huggingface/text-generation-inference benchmark/src/table.rs builds them. Without a recogniser
`Decode (token)` and `Decode (total)` read as one name, and a latency table alone (a paste cut
before the throughput table) has no headline to say it lacks.
"""

from __future__ import annotations

import re

from sessiontui.collectors.bench_output.common import benchmark, number, slug, whole
from sessiontui.project_memory.records import Record

FORMATS = ("tgi.benchmark",)
MARKERS = re.compile(r"(?m)^[ \t]*\|\s*Step\s*\|\s*Batch Size\s*\|\s*Average\s*\|\s*Lowest\s*\|\s*Highest\s*\|")
_STATS = {"average": "mean", "lowest": "min", "highest": "max", "p50": "median", "p90": "p90", "p99": "p99"}


def _rows(text: str) -> list[tuple[bool, str, int, dict[str, float]]]:
    """(in the throughput table, step, batch size, {stat: value}) of every data row."""
    rows: list[tuple[bool, str, int, dict[str, float]]] = []
    header: list[str] = []
    step = ""
    for line in text.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")] if line.lstrip().startswith("|") else []
        if cells[:2] == ["Step", "Batch Size"]:
            header, step = [cell.lower() for cell in cells], ""
        elif not cells or set("".join(cells)) <= set("-: "):
            header = header if cells else []
        elif header and (size := whole(cells[1])) is not None:
            step = cells[0] or step
            values = {_STATS[name]: value for name, cell in zip(header[2:], cells[2:], strict=False)
                      if name in _STATS and (value := number(cell)) is not None}
            rows.append(("p50" not in header, step, size, values))
    return rows


def parse(text: str, problems: list[str]) -> list[Record]:
    """One record per batch size: the Decode throughput's average, the Prefill one's as
    `prompt_tok_s`, each latency step's statistics in ms."""
    if not MARKERS.search(text):
        return []
    rows = _rows(text)
    if rows and not any(throughput for throughput, _, _, _ in rows):
        problems.append(f"{FORMATS[0]}: latency table without the throughput table after it (cut), not stored")
        return []
    sizes = list(dict.fromkeys(size for _, _, size, _ in rows))
    records = []
    for size in sizes:
        mine = [(throughput, step, values) for throughput, step, batch, values in rows if batch == size]
        decode = next((v for t, step, v in mine if t and step.lower() == "decode"), {})
        if "mean" not in decode:
            problems.append(f"{FORMATS[0]}: batch size {size} without its decode throughput, not stored")
            continue
        figures = {f"{slug(step)}_ms_{stat}": value for t, step, values in mine if not t
                   for stat, value in values.items()}
        prefill = next((v for t, step, v in mine if t and step.lower() == "prefill"), {})
        if "mean" in prefill:
            figures["prompt_tok_s"] = prefill["mean"]
        records.append(benchmark(decode["mean"], FORMATS[0], engine="tgi", batch_size=size, figures=figures))
    return records
