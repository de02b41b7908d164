"""SGLang outputs: bench_serving (block and JSONL), bench_one_batch(_server), server decode lines.

Layouts follow SGLang 0.4-0.5 (python/sglang/bench_serving.py, bench_one_batch.py,
bench_one_batch_server.py and the scheduler's `Decode batch` log line).
"""

from __future__ import annotations

import re
from typing import Any

from sessiontui.collectors.bench_output.common import (
    benchmark,
    figures_of,
    json_objects,
    last_repr_before,
    median,
    number,
    present,
    slug,
    whole,
)
from sessiontui.collectors.bench_output.serving import (
    OWN_TITLE,
    Block,
    block_figures,
    complete_block_records,
    is_vllm_json,
    json_figures,
    own_json,
    workload,
)
from sessiontui.project_memory.records import Record

ENGINE = "sglang"
FORMATS = (
    "sglang.bench_serving",
    "sglang.bench_serving.jsonl",
    "sglang.bench_one_batch",
    "sglang.bench_one_batch_server",
    "sglang.server_log",
)
# Text only these outputs print: one without a complete result is not read another way (the
# `==== Benchmark Result ====` title over these tools' own labels, see OWN_TITLE; JSON with
# `output_throughput` after the tool's own key, see own_json).
MARKERS = re.compile(
    rf"{OWN_TITLE}|Prefill\. latency|Decode batch|last generation throughput|{own_json('backend|server_info')}")
_NAMESPACE = re.compile(r"Namespace\(")
_SERVER_ARGS = re.compile(r"ServerArgs\(")
_SGLANG_LABELS = frozenset(
    {
        "backend",
        "max request concurrency",
        "max reqeuest concurrency",
        "traffic request rate",
        "concurrency",
        "accept length",
        "mean e2e latency (ms)",
    }
)
_PREFILL = re.compile(r"^Prefill\. latency:\s*([\d.]+) (m?s), throughput:\s*([\d.]+) token/s")
# The first bench_latency (mid 2024) printed each decode step (`ms`), no median, no `Total.` line.
_DECODE_STEP_RATE = re.compile(r"^Decode\.? +latency:\s*[\d.]+ m?s, throughput:\s*([\d.]+) token/s")
_DECODE_STEP = re.compile(r"^Decode (?:\d+\. Batch size:\s*(\d+), )?.*?latency:\s*([\d.]+) s")
_DECODE_MEDIAN = re.compile(
    r"^Decode\. +median latency:\s*([\d.]+) s, median throughput:\s*([\d.]+) token/s"
)
_TOTAL = re.compile(r"^Total\. latency:\s*([\d.]+) s, throughput:\s*([\d.]+) token/s")
_ONE_BATCH_SERVER = re.compile(
    r"^(batch size|input_len|output_len|latency|ttft|last_ttft|input throughput|output throughput"
    r"|last generation throughput|acc_length|cache hit rate):\s*(\S+)"
)
_DECODE_NAMES = ("#running-req", "accept len", "accept rate", "gen throughput (token/s)")
_DECODE_LINE = re.compile(r"Decode batch[.,]\s*(#running-req.*)$", re.MULTILINE)


def is_sglang_block(block: Block) -> bool:
    """Whether a result block carries labels only SGLang's bench_serving prints."""
    return bool(block.labels() & _SGLANG_LABELS)


def _spec_fields(server_args: dict[str, Any]) -> dict[str, Any]:
    """Model and speculative-decoding settings from SGLang server arguments (repr or JSON)."""
    algorithm = present(str(server_args.get("speculative_algorithm")))
    fields: dict[str, Any] = {"model": present(server_args.get("model_path"))}
    if algorithm:
        fields.update(
            spec_algorithm=algorithm,
            num_draft_tokens=whole(server_args.get("speculative_num_draft_tokens")),
            num_steps=whole(server_args.get("speculative_num_steps")),
            topk=whole(server_args.get("speculative_eagle_topk")),
            draft_model=present(server_args.get("speculative_draft_model_path")),
        )
    return {name: value for name, value in fields.items() if value is not None}


def _headline(block: Block) -> tuple[float | None, dict[str, str]]:
    """A block's headline and its metric: the output token throughput, or the request throughput
    of a whole block that printed no token rate at all (multimodal_gen/benchmarks/bench_serving.py,
    whose diffusion requests make images, not tokens); an embeddings run's block
    (bench_offline_throughput.py: `Total generated embeddings`, no generated tokens) read its prompts
    alone, and its input token throughput is its headline."""
    value = number(block.get("output token throughput (tok/s)"))
    if value is not None or not block.closed:
        return value, {}
    prompt = number(block.get("input token throughput (tok/s)"))
    if prompt is not None and "total generated tokens" not in block.labels():
        return prompt, {"metric": "prompt_tok_s", "unit": "tok/s"}
    if any("tok/s" in label for label in block.labels()):
        return None, {}
    return number(block.get("request throughput (req/s)")), {"metric": "request_throughput", "unit": "req/s"}


def _block_record(text: str, block: Block) -> Record | None:
    """A record from one bench_serving block, or None when its headline line is missing."""
    value, metric = _headline(block)
    if value is None:
        return None
    args = last_repr_before(text, _NAMESPACE, block.start)
    fields = {**_spec_fields(last_repr_before(text, _SERVER_ARGS, block.start)), **workload(args)}
    concurrency = block.get("max request concurrency", "max reqeuest concurrency")
    return benchmark(
        value,
        "sglang.bench_serving",
        engine=ENGINE,
        concurrency=whole(concurrency if concurrency else args.get("max_concurrency")),
        accept_length=number(block.get("accept length")),
        figures=block_figures(block),
        **metric,
        **fields,
    )


def _jsonl_record(result: dict[str, Any]) -> Record | None:
    """A record from one bench_serving `--output-file` line."""
    value = number(result.get("output_throughput"))
    if value is None:
        return None
    info = result.get("server_info")
    server: dict[str, Any] = info if isinstance(info, dict) else {}
    fields = _spec_fields(server)
    dataset = present(str(result.get("dataset_name")))
    if dataset and dataset.startswith("random"):
        fields.update(
            input_len=whole(result.get("random_input_len")),
            output_len=whole(result.get("random_output_len")),
        )
    return benchmark(
        value,
        "sglang.bench_serving.jsonl",
        engine=ENGINE,
        engine_version=present(str(server.get("version"))),
        dataset=dataset,
        concurrency=whole(result.get("max_concurrency")),
        accept_length=number(result.get("accept_length")),
        figures=json_figures(result),
        **fields,
    )


def _acc_length(raw: object) -> float | None:
    """bench_one_batch_server's `acc_length`, where -1 means speculative decoding is off."""
    value = number(raw)
    return value if value is not None and value > 0 else None


def _one_batch_jsonl_record(result: dict[str, Any]) -> Record | None:
    """A record from a bench_one_batch(_server) `--result-filename` line."""
    server_style = "output_throughput" in result
    value = number(result.get("output_throughput" if server_style else "median_decode_throughput"))
    if value is None:
        return None
    names = (
        "latency",
        "overall_throughput",
        "last_gen_throughput",
        "prefill_latency",
        "prefill_throughput",
        "median_decode_latency",
        "total_latency",
    )
    return benchmark(
        value,
        "sglang.bench_one_batch_server" if server_style else "sglang.bench_one_batch",
        engine=ENGINE,
        batch_size=whole(result.get("batch_size")),
        input_len=whole(result.get("input_len")),
        output_len=whole(result.get("output_len")),
        accept_length=_acc_length(result.get("acc_length")),
        figures=figures_of((name, result.get(name)) for name in names),
    )


def _json_records(text: str) -> list[Record]:
    """Records from bench_serving and bench_one_batch JSON lines (vLLM's own JSON excluded)."""
    records = []
    for result in json_objects(text):
        if is_vllm_json(result):
            continue
        if "run_name" in result and "batch_size" in result:
            record = _one_batch_jsonl_record(result)
        elif "output_throughput" in result and ("backend" in result or "server_info" in result):
            record = _jsonl_record(result)
        else:
            record = None
        if record is not None:
            records.append(record)
    return records


def _one_batch_records(text: str, problems: list[str]) -> list[Record]:
    """Measured runs of bench_one_batch (the warm-up left out); a run cut before `Total.` is
    marked partial."""
    if "Prefill. latency" not in text:
        return []
    runs: list[dict[str, Any]] = []
    run: dict[str, Any] | None = None
    phase = None  # "warmup", "benchmark" or None when the markers were not printed
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("Warmup ..."):
            phase = "warmup"
        elif line.startswith("Benchmark ..."):
            phase = "benchmark"
        elif match := _PREFILL.match(line):
            if run is not None and run.get("steps"):
                runs.append(_stepped(run))  # the first bench_latency: runs end at the next prefill
            first = match[2] == "ms"  # only the first bench_latency printed `ms` (and no medians)
            latency = float(match[1]) / (1000 if first else 1)
            run = {"phase": phase, "prefill_latency_s": latency, "prefill_tok_s": match[3]}
            if first:
                run["steps"] = []
        elif run is not None and (match := _DECODE_MEDIAN.match(line)):
            run["median_decode_latency_s"], run["value"] = match[1], match[2]
        elif run is not None and "steps" in run and (match := _DECODE_STEP_RATE.match(line)):
            run["steps"].append(float(match[1]))
        elif run is not None and (match := _DECODE_STEP.match(line)):
            run.setdefault("batch_size", match[1])
        elif run is not None and (match := _TOTAL.match(line)):
            run["total_latency_s"], run["total_tok_s"] = match[1], match[2]
            runs.append(run)
            run = None
    if run is not None and run.get("steps"):
        runs.append(_stepped(run))
    elif run is not None and run["phase"] != "warmup":  # cut before its `Total.` line
        if "value" in run:
            runs.append({**run, "partial": ["total"]})
        else:
            problems.append("sglang.bench_one_batch: a run cut before its decode median, not stored")
    if runs and not any(r["phase"] for r in runs) and len(runs) > 1:
        runs = runs[1:]  # no markers: the first run is the warm-up
    return [record for r in runs if r["phase"] != "warmup" and (record := _one_batch_record(r))]


def _stepped(run: dict[str, Any]) -> dict[str, Any]:
    """A run of the first bench_latency, valued by the median of its decode steps' throughput."""
    steps = run.pop("steps")
    return {**run, "value": median(steps)}


def _one_batch_record(run: dict[str, Any]) -> Record | None:
    """A record of one measured bench_one_batch run (needs the decode median)."""
    value = number(run.get("value"))
    if value is None:
        return None
    batch = whole(run.get("batch_size"))
    latency = number(run.get("median_decode_latency_s"))
    if batch is None and latency:  # older versions: median throughput = batch size / latency
        estimate = value * latency
        batch = (
            round(estimate) if estimate >= 0.5 and abs(estimate - round(estimate)) < 0.05 else None
        )
    names = (
        "prefill_latency_s",
        "prefill_tok_s",
        "median_decode_latency_s",
        "total_latency_s",
        "total_tok_s",
    )
    return benchmark(
        value,
        "sglang.bench_one_batch",
        engine=ENGINE,
        batch_size=batch,
        figures=figures_of((name, run.get(name)) for name in names),
        partial=run.get("partial", []),
    )


def _one_batch_server_records(text: str, problems: list[str]) -> list[Record]:
    """One record per `batch size:` group printed by bench_one_batch_server; a last group that
    lacks lines the group before it printed was cut short and is marked partial."""
    if "batch size:" not in text:
        return []
    groups: list[dict[str, str]] = []
    for line in text.splitlines():
        match = _ONE_BATCH_SERVER.match(line.strip())
        if not match:
            continue
        key, raw = match.groups()
        if key == "batch size" or (groups and key in groups[-1]):
            groups.append({})
        if groups:
            groups[-1][key] = raw
    cut = sorted(set(groups[-2]) - set(groups[-1])) if len(groups) > 1 else []
    records = []
    for group in groups:
        value = number(group.get("output throughput"))
        if value is None:
            if group is groups[-1] and cut:
                problems.append("sglang.bench_one_batch_server: last group cut before its output "
                                "throughput, not stored")
            continue
        records.append(
            benchmark(
                value,
                "sglang.bench_one_batch_server",
                engine=ENGINE,
                batch_size=whole(group.get("batch size")),
                input_len=whole(group.get("input_len")),
                output_len=whole(group.get("output_len")),
                accept_length=_acc_length(group.get("acc_length")),
                figures=figures_of(
                    (
                        ("latency_s", group.get("latency")),
                        ("ttft_s", group.get("last_ttft") or group.get("ttft")),
                        ("prompt_tok_s", group.get("input throughput")),
                        ("last_gen_tok_s", group.get("last generation throughput")),
                        ("cache_hit_rate", group.get("cache hit rate")),
                    )
                ),
                partial=[slug(key) for key in cut] if group is groups[-1] else [],
            )
        )
    return records


def _decode_fields(rest: str) -> dict[str, float]:
    """The fields of one `Decode batch` line that the summary uses, by name (fields come and go;
    a find per name is faster than one regex over the line)."""
    fields = {}
    for name in _DECODE_NAMES:
        at = rest.find(name)
        if at < 0 or rest[at + len(name) : at + len(name) + 1] != ":":
            continue
        end = rest.find(",", at)
        try:
            fields[name] = float(rest[at + len(name) + 1 : end if end > 0 else len(rest)])
        except ValueError:
            continue
    return fields


def _server_log_records(text: str) -> list[Record]:
    """One summary record over all server `Decode batch` lines: median throughput and tau."""
    lines = [_decode_fields(match[1]) for match in _DECODE_LINE.finditer(text)]
    busy = [
        f
        for f in lines
        if f.get("gen throughput (token/s)", 0) > 0 and f.get("#running-req", 1) > 0
    ]
    value = median(f["gen throughput (token/s)"] for f in busy)
    if value is None:
        return []
    running = [f["#running-req"] for f in busy if "#running-req" in f]
    steady = int(running[0]) if running and min(running) == max(running) else None
    accept = median(f["accept len"] for f in busy if "accept len" in f)
    settings = _spec_fields(last_repr_before(text, _SERVER_ARGS, len(text)))
    return [
        benchmark(
            value,
            "sglang.server_log",
            engine=ENGINE,
            concurrency=steady,
            batch_size=steady,  # a steady #running-req is each decode step's batch as well
            accept_length=accept,
            figures=figures_of(
                (
                    ("decode_lines", len(busy)),
                    ("running_req_median", median(running)),
                    ("accept_rate", median(f["accept rate"] for f in busy if "accept rate" in f)),
                    ("gen_tok_s_max", max(f["gen throughput (token/s)"] for f in busy)),
                )
            ),
            **settings,
        )
    ]


def _block_records(text: str, problems: list[str]) -> list[Record]:
    """Records of the complete result blocks; a cut one is reported instead."""
    return complete_block_records(text, problems, "sglang.bench_serving", is_sglang_block,
                                  _block_record)


def parse(text: str, problems: list[str]) -> list[Record]:
    """Every SGLang result in the text, in the order the formats are tried."""
    blocks = _block_records(text, problems)
    return [
        *blocks,
        *_json_records(text),
        *_one_batch_records(text, problems),
        *_one_batch_server_records(text, problems),
        *_server_log_records(text),
    ]
