"""Benchmark results read from the benchmark tools' own output, as benchmark records."""

from __future__ import annotations

from sessiontui.collectors.bench_output import llamacpp, sglang, vllm
from sessiontui.collectors.bench_output.common import to_text
from sessiontui.project_memory.records import Record

_FAMILIES = (sglang, vllm, llamacpp)
_SERVER_LOG = ".server_log"
KNOWN_FORMATS: tuple[str, ...] = tuple(name for family in _FAMILIES for name in family.FORMATS)


def parse_benchmark_output(data: str | bytes) -> list[Record]:
    """One benchmark record per result found in a tool's output; [] for anything unrecognised.

    Server-log summaries only stand in for a benchmark client: when the same output also holds
    the client's own results (a script that starts the server and runs the benchmark), only
    those are returned, since the client measured what was asked for.
    """
    text = to_text(data)
    records: list[Record] = []
    for family in _FAMILIES:
        try:
            records.extend(family.parse(text))
        except Exception:  # a layout we did not foresee must not cost the other formats
            continue
    client = [r for r in records if not (r.source_format or "").endswith(_SERVER_LOG)]
    return client or records


def derive_config_name(record: Record) -> str:
    """A readable configuration name: engine, model, spec algorithm and concurrency."""
    parts = [record.engine or "", (record.model or "").rstrip("/").rsplit("/", 1)[-1]]
    if record.spec_algorithm:
        parts.append(record.spec_algorithm.upper())
    if record.concurrency is not None:
        parts.append(f"c={record.concurrency}")
    elif record.batch_size is not None:
        parts.append(f"bs={record.batch_size}")
    return " ".join(part for part in parts if part)
