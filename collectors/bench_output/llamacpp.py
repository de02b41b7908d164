"""llama.cpp `llama-bench` outputs: the default markdown table and `-o json` / `-o jsonl`.

Layouts follow llama.cpp builds b4000-b9700 (tools/llama-bench/llama-bench.cpp).
"""

from __future__ import annotations

import re
from typing import Any

from sessiontui.collectors.bench_output.common import benchmark, json_objects, number, slug, whole
from sessiontui.project_memory.records import Record

ENGINE = "llama.cpp"
FORMATS = ("llama.cpp.llama-bench", "llama.cpp.llama-bench.json")
_TEST = re.compile(r"^(?:pp\s*(\d+))?\s*\+?\s*(?:tg\s*(\d+))?(?:\s*@\s*d\s*(\d+))?$")
_BUILD = re.compile(r"build:\s*([0-9a-f]+) *\((\d+)\)")
_TEXT_COLUMNS = frozenset({"model", "size", "params", "backend", "test", "t/s", "dev", "devices"})
_JSON_FIGURES = ("n_gpu_layers", "n_batch", "n_ubatch", "n_threads", "flash_attn")


def _version(commit: object, build: object) -> str | None:
    """A llama.cpp version the way releases name it: `b<build> (<commit>)`."""
    number_ = whole(build)
    commit = str(commit) if commit else ""
    if number_ is None:
        return commit or None
    return f"b{number_} ({commit})" if commit else f"b{number_}"


def _test_fields(prompt: int | None, gen: int | None, depth: int | None) -> dict[str, Any] | None:
    """Metric and lengths for a test: pp -> prompt tok/s, tg -> output tok/s, pp+tg -> total."""
    if gen and not prompt:
        fields: dict[str, Any] = {"metric": "output_tok_s", "output_len": gen}
    elif prompt and not gen:
        fields = {"metric": "prompt_tok_s", "input_len": prompt}
    elif prompt and gen:
        fields = {"metric": "total_tok_s", "input_len": prompt, "output_len": gen}
    else:
        return None
    fields["unit"] = "tok/s"
    if depth:
        fields["figures"] = {"n_depth": float(depth)}
    return fields


def _cells(line: str) -> list[str]:
    """The cells of one markdown table row."""
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def _table_records(text: str) -> list[Record]:
    """One record per row of every llama-bench markdown table, versioned by the `build:` after it."""
    if "t/s" not in text:
        return []
    records: list[Record] = []
    unversioned: list[Record] = []
    header: list[str] | None = None
    for line in text.splitlines():
        build = _BUILD.search(line)
        if build:
            for record in unversioned:
                record.engine_version = _version(*build.groups())
            unversioned = []
        if not (line.lstrip().startswith("|") and line.rstrip().endswith("|")):  # whole rows only
            header = None
            continue
        cells = _cells(line)
        lowered = [cell.lower() for cell in cells]
        if "test" in lowered and "t/s" in lowered:
            header = lowered
        elif header and len(cells) == len(header) and not set(line.strip()) <= set("|-: "):
            row = _row_record(dict(zip(header, cells, strict=True)))
            if row is not None:
                records.append(row)
                unversioned.append(row)
    return records


def _row_record(row: dict[str, str]) -> Record | None:
    """A record of one table row; the value is the mean of `mean ± std`."""
    test = _TEST.match(row["test"].strip())
    mean, _, std = row["t/s"].partition("±")
    value = number(mean)
    fields = _test_fields(*(whole(group) for group in test.groups())) if test else None
    if value is None or fields is None:
        return None
    figures = fields.pop("figures", {})
    for column, cell in row.items():
        if column not in _TEXT_COLUMNS and number(cell) is not None:
            figures[slug(column)] = number(cell)
    if number(std) is not None:
        figures["t_s_std"] = number(std)
    return benchmark(
        value,
        "llama.cpp.llama-bench",
        engine=ENGINE,
        model=row.get("model") or None,
        concurrency=1,
        figures=figures,
        **fields,
    )


def _json_record(result: dict[str, Any]) -> Record | None:
    """A record of one `-o json`/`-o jsonl` test result."""
    value = number(result.get("avg_ts"))
    fields = _test_fields(
        whole(result.get("n_prompt")), whole(result.get("n_gen")), whole(result.get("n_depth"))
    )
    if value is None or fields is None:
        return None
    figures = fields.pop("figures", {})
    for name in _JSON_FIGURES:
        found = number(result.get(name))
        if found is not None:
            figures[name] = found
    std = number(result.get("stddev_ts"))
    if std is not None:
        figures["t_s_std"] = std
    return benchmark(
        value,
        "llama.cpp.llama-bench.json",
        engine=ENGINE,
        engine_version=_version(result.get("build_commit"), result.get("build_number")),
        model=str(result.get("model_type") or "") or None,
        concurrency=1,
        figures=figures,
        **fields,
    )


def parse(text: str) -> list[Record]:
    """Every llama-bench result in the text."""
    json_results = [
        record
        for result in json_objects(text)
        if "avg_ts" in result and (record := _json_record(result))
    ]
    return [*_table_records(text), *json_results]
