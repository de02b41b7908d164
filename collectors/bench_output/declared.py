"""Benchmark results read by the formats a user declares in `[[formats]]` (sessiontui.toml): a
pattern with a `{value}` field is a benchmark's headline line, tried before every built-in reader."""

from __future__ import annotations

from sessiontui.collectors.bench_output.common import benchmark
from sessiontui.collectors.bench_output.labels import name_of
from sessiontui.collectors.trainlog.declared import HEADLINE_FIELD, DeclaredFormat, active_formats
from sessiontui.collectors.trainlog.generic import value_in_units
from sessiontui.project_memory.records import DEFAULT_METRIC, DEFAULT_UNIT, Record

SOURCE_FORMAT = "declared"
_FIELDS = ("concurrency", "batch_size", "accept_length")  # record fields, not figures


def parse(text: str) -> list[Record]:
    """One record per line a declared benchmark format matches (the first format that matches
    a line reads it); [] when no format is declared with a `{value}` or none matches."""
    formats = [f for f in active_formats() if HEADLINE_FIELD in f.fields]
    if not formats:
        return []
    records = []
    for line in text.splitlines():
        record = next((found for declared in formats
                       if (found := _record(declared, line)) is not None), None)
        if record is not None:
            records.append(record)
    return records


def _record(declared: DeclaredFormat, line: str) -> Record | None:
    """The record of one line matched by a declared format, or None when it does not match."""
    match = declared.pattern.search(line)
    if match is None:
        return None
    unit = declared.unit or match[f"{HEADLINE_FIELD}__unit"] or ""
    value = value_in_units(match[HEADLINE_FIELD].replace(",", ""), "", HEADLINE_FIELD)
    if value is None:
        return None
    metric, _ = name_of(declared.name, unit)
    fields: dict[str, float] = {}
    figures: dict[str, float] = {}
    for field in declared.fields:
        if field == HEADLINE_FIELD:
            continue
        raw = value_in_units(match[field].replace(",", ""), match[f"{field}__unit"], field)
        name, factor = name_of(field.replace("_", " "), match[f"{field}__unit"])
        if raw is not None:
            (fields if name in _FIELDS else figures)[name] = raw * factor
    concurrency, batch_size = fields.get("concurrency"), fields.get("batch_size")
    return benchmark(
        value, f"{SOURCE_FORMAT}.{declared.name}",
        metric=DEFAULT_METRIC if metric in ("throughput_tok_s", DEFAULT_METRIC) else metric,
        unit=DEFAULT_UNIT if metric in ("throughput_tok_s", DEFAULT_METRIC) else unit,
        concurrency=int(concurrency) if concurrency and concurrency == int(concurrency) else None,
        batch_size=int(batch_size) if batch_size and batch_size == int(batch_size) else None,
        accept_length=fields.get("accept_length"),
        figures=figures,
    )
