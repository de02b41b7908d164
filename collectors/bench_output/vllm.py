"""vLLM outputs: `vllm bench serve` / benchmark_serving.py (block and JSON) and server spec lines.

Layouts follow vLLM 0.8-0.11 (vllm/benchmarks/serve.py, benchmarks/benchmark_serving.py and the
`SpecDecoding metrics:` line of vllm/v1/spec_decode/metrics.py).
"""

from __future__ import annotations

import re
from typing import Any

from sessiontui.collectors.bench_output.common import (
    benchmark,
    figures_of,
    json_objects,
    last_match,
    last_repr_before,
    median,
    number,
    present,
    whole,
)
from sessiontui.collectors.bench_output.serving import (
    OWN_TITLE,
    TOTAL_LABELS,
    Block,
    block_figures,
    complete_block_records,
    is_vllm_json,
    json_figures,
    own_json,
    position_figures,
    workload,
)
from sessiontui.collectors.bench_output.sglang import is_sglang_block
from sessiontui.project_memory.records import Record

ENGINE = "vllm"
FORMATS = ("vllm.bench_serve", "vllm.bench_serve.json", "vllm.spec_decode", "vllm.server_log")
# Text only these outputs print: one without a complete result is not read another way (the
# `==== Benchmark Result ====` title over these tools' own labels, see OWN_TITLE; JSON with
# `output_throughput` after the tool's own key, see own_json).
MARKERS = re.compile(rf"{OWN_TITLE}|SpecDecoding metrics|acceptance at token|{own_json('model_id|spec_decode_')}")
_NAMESPACE = re.compile(r"Namespace\(")
_CONCURRENCY_LINE = re.compile(r"^[ \t]*Maximum request concurrency:\s*(\d+)", re.MULTILINE)
# Printed before the progress bar: `Traffic request rate: 15.0` (`... 15.0 RPS.` in some versions).
_RATE_LINE = re.compile(r"^Traffic request rate:\s*([\d.]+|inf)", re.MULTILINE)
_VERSION = re.compile(
    r"(?:vLLM API server version|LLM engine \(v)\s*v?([0-9][\w.+-]*?)\)?\s*$", re.MULTILINE
)
# The speculative config as the engine-config line (`SpeculativeConfig(method='eagle3', ...)`)
# or the `non-default args: {'speculative_config': {'method': ...}}` line prints it.
_METHOD = re.compile(r"""speculative_config[^\n]*?method['"]?\s*[:=]\s*['"]([\w-]+)['"]""")
_NUM_SPEC = re.compile(
    r"""speculative_config[^\n]*?num_spec(?:ulative)?_tokens['"]?\s*[:=]\s*(\d+)"""
)
_ENGINE_MODEL = re.compile(r"with config:\s*model='([^']+)'")
_SPEC_LINE = re.compile(r"SpecDecoding metrics:\s*(.*)$", re.MULTILINE)
_GEN_THROUGHPUT = re.compile(r"Avg generation throughput:\s*([\d.]+) tokens/s")
_PER_POSITION = re.compile(r"Per-position acceptance rate:\s*([\d.]+(?:, *[\d.]+)*)")
_SPEC_FIELDS = {
    "mean_acceptance_length": re.compile(r"Mean acceptance length:\s*([\d.]+)"),
    "accepted_tokens": re.compile(r"Accepted:\s*(\d+) tokens"),
    "drafted_tokens": re.compile(r"Drafted:\s*(\d+) tokens"),
    "acceptance_rate": re.compile(r"Avg Draft acceptance rate:\s*([\d.]+)%"),
}


def _last(pattern: re.Pattern[str], text: str, end: int) -> str | None:
    """The first group of the last match of `pattern` before offset `end`."""
    match = last_match(text, pattern, end)
    return match.group(1) if match else None


# examples/offline_inference/spec_decode.py (and eagle.py before it): counts, then the mean
# acceptance length (bonus token included), then `acceptance at token i:` for each position.
_EXAMPLE_MEAN = re.compile(
    r"^mean acceptance length(?: \(including bonus tokens\))?:\s*(\S+)", re.MULTILINE
)
_EXAMPLE_COUNT = re.compile(
    r"^(total_num_output_tokens|num_drafts|num_draft_tokens|num_accepted_tokens):\s*(\d+)\s*$",
    re.MULTILINE,
)
_EXAMPLE_POSITION = re.compile(r"^acceptance at token (\d+):\s*(\S+)", re.MULTILINE)
_EXAMPLE_SPEED = re.compile(r"est\. speed input: [\d.]+ toks/s, output: ([\d.]+) toks/s")
_EXAMPLE_METHOD = re.compile(r"--method[= ]+([\w-]+)")
_EXAMPLE_MODEL = re.compile(r"--model(?:-dir|_dir)?[= ]+(\S+)")


def _server_settings(text: str, end: int) -> dict[str, Any]:
    """Version and speculative method/depth from server lines printed before `end`."""
    method = _last(_METHOD, text, end)
    fields: dict[str, Any] = {"engine_version": _last(_VERSION, text, end)}
    if method:
        fields["spec_algorithm"] = method
        fields["num_steps"] = whole(_last(_NUM_SPEC, text, end))
    return {name: value for name, value in fields.items() if value is not None}


def _with_depth(fields: dict[str, Any], positions: int) -> dict[str, Any]:
    """Depth from the number of per-position rates; draft tokens counted SGLang's way (+ root)."""
    steps = fields.get("num_steps") or positions or None
    fields["num_steps"] = steps
    fields["num_draft_tokens"] = steps + 1 if steps else None
    return fields


def _headline(block: Block) -> tuple[float | None, dict[str, str]]:
    """The block's output token throughput, or for a run that generated nothing (an embeddings
    endpoint prints neither generated tokens nor an output rate) its total token throughput."""
    output = number(block.get("output token throughput (tok/s)"))
    if output is not None or "total generated tokens" in block.labels():
        return output, {}
    return number(block.get(*TOTAL_LABELS)), {"metric": "total_tok_s", "unit": "tok/s"}


def _block_record(text: str, block: Block) -> Record | None:
    """A record from one `vllm bench serve` result block."""
    value, metric = _headline(block)
    if value is None:
        return None
    args = last_repr_before(text, _NAMESPACE, block.start)
    concurrency = (
        block.get("maximum request concurrency")
        or _last(_CONCURRENCY_LINE, text, block.start)
        or args.get("max_concurrency")
    )
    figures = block_figures(block)
    if metric:
        figures.pop("total_tok_s", None)
    rate = number(_last(_RATE_LINE, text, block.start)) if "Traffic" in text else None
    if rate is not None and "request_rate" not in figures:
        figures["request_rate"] = rate
    fields = _server_settings(text, block.start)
    if "acceptance length" in block.labels():
        fields = _with_depth(fields, sum(name.startswith("accept_pos_") for name in figures))
    return benchmark(
        value,
        "vllm.bench_serve",
        engine=ENGINE,
        concurrency=whole(concurrency),
        accept_length=number(block.get("acceptance length")),
        figures=figures,
        **metric,
        **fields,
        **workload(args),
    )


def _json_record(result: dict[str, Any]) -> Record | None:
    """A record from a `--save-result` JSON object (also one line of `--append-result`)."""
    value = number(result.get("output_throughput"))
    if value is None:
        return None
    figures = json_figures(result)
    rates = result.get("spec_decode_per_position_acceptance_rates")
    rates = rates if isinstance(rates, list) else []
    figures.update(position_figures(rates))
    rate = number(result.get("spec_decode_acceptance_rate"))
    figures.update(
        figures_of(
            (
                ("acceptance_rate", None if rate is None else rate / 100.0),
                ("drafts", result.get("spec_decode_num_drafts")),
                ("draft_tokens", result.get("spec_decode_draft_tokens")),
                ("accepted_tokens", result.get("spec_decode_accepted_tokens")),
            )
        )
    )
    accept = number(result.get("spec_decode_acceptance_length"))
    fields = _with_depth({}, len(rates)) if accept is not None else {}
    return benchmark(
        value,
        "vllm.bench_serve.json",
        engine=ENGINE,
        model=present(str(result.get("model_id"))),
        concurrency=whole(result.get("max_concurrency")),
        accept_length=accept,
        figures=figures,
        **fields,
    )


def _spec_line(rest: str) -> dict[str, Any]:
    """The figures of one `SpecDecoding metrics:` line, matched by name (order varies)."""
    fields: dict[str, Any] = {
        name: number(m.group(1))
        for name, pattern in _SPEC_FIELDS.items()
        if (m := pattern.search(rest))
    }
    positions = _PER_POSITION.search(rest)
    fields["positions"] = [number(r) for r in positions.group(1).split(",")] if positions else []
    return fields


def _weighted(lines: list[dict[str, Any]], pick: Any) -> float | None:
    """Mean of `pick(line)` over lines, weighted by drafted tokens when every line has them."""
    pairs = [(pick(f), f.get("drafted_tokens")) for f in lines]
    pairs = [(v, w) for v, w in pairs if v is not None]
    if not pairs:
        return None
    weights = [w or 0 for _, w in pairs]
    if all(weights):
        return sum(v * w for (v, _), w in zip(pairs, weights, strict=True)) / sum(weights)
    return sum(v for v, _ in pairs) / len(pairs)


def _server_log_records(text: str) -> list[Record]:
    """One summary record over the server's `SpecDecoding metrics:` lines (0.8's print no mean
    acceptance length: then the generation rate with the acceptance rate; idle lines, nothing
    drafted, are left out)."""
    lines = [_spec_line(match[1]) for match in _SPEC_LINE.finditer(text)]
    lines = [f for f in lines
             if f.get("mean_acceptance_length") is not None or f.get("drafted_tokens")]
    if not lines:
        return []
    tau = _weighted(lines, lambda f: f.get("mean_acceptance_length"))
    depth = max(len(f["positions"]) for f in lines)
    rates = [
        _weighted(lines, lambda f, k=k: f["positions"][k] if len(f["positions"]) > k else None)
        for k in range(depth)
    ]
    accepted = sum(f.get("accepted_tokens") or 0 for f in lines)
    drafted = sum(f.get("drafted_tokens") or 0 for f in lines)
    figures = figures_of(
        (
            ("spec_lines", len(lines)),
            ("accepted_tokens", accepted if drafted else None),
            ("drafted_tokens", drafted or None),
            ("acceptance_rate", accepted / drafted if drafted else None),
        )
    )
    figures.update(position_figures(rates))
    generation = [v for v in map(number, _GEN_THROUGHPUT.findall(text)) if v]
    throughput = median(generation)
    value = throughput if throughput is not None else tau
    if value is None:
        return []
    if throughput is not None:
        figures["gen_lines"] = float(len(generation))
    metric = {} if throughput is not None else {"metric": "accept_length", "unit": "tok/step"}
    model = _ENGINE_MODEL.search(text)
    return [
        benchmark(
            value,
            "vllm.server_log",
            engine=ENGINE,
            model=model.group(1) if model else None,
            accept_length=tau,
            figures=figures,
            **metric,
            **_with_depth(_server_settings(text, len(text)), depth),
        )
    ]


def _example_record(text: str, start: int, end: int, mean: re.Match[str]) -> Record | str:
    """The record of one spec_decode example summary (text[start:end]), partial when it printed
    fewer position lines than its drafts hold, or why it has no figure."""
    counts = {name: float(raw) for name, raw in _EXAMPLE_COUNT.findall(text, start, mean.start())}
    rates = [number(m[2]) for m in _EXAMPLE_POSITION.finditer(text, mean.end(), end)]
    accept = number(mean[1])
    drafts, draft_tokens = counts.get("num_drafts"), counts.get("num_draft_tokens")
    if accept is None:
        return "vllm.spec_decode: `mean acceptance length` has no number"
    cut = bool(drafts and draft_tokens and len(rates) < round(draft_tokens / drafts))
    figures = position_figures(rates)
    figures.update(figures_of((name, value) for name, value in counts.items()))
    if drafts and draft_tokens:
        figures["acceptance_rate"] = counts.get("num_accepted_tokens", 0.0) / draft_tokens
    speeds = _EXAMPLE_SPEED.findall(text, start, mean.start())
    speed = number(speeds[-1]) if speeds else None
    metric = {} if speed is not None else {"metric": "accept_length", "unit": "tok/step"}
    method = _last(_EXAMPLE_METHOD, text, mean.start())
    model = _last(_EXAMPLE_MODEL, text, mean.start())
    depth = round(draft_tokens / drafts) if cut and drafts and draft_tokens else len(rates)
    fields = _with_depth({"spec_algorithm": method} if method else {}, depth)
    return benchmark(
        speed if speed is not None else accept,
        "vllm.spec_decode",
        engine=ENGINE,
        model=model,
        accept_length=accept,
        figures=figures,
        partial=["acceptance positions"] if cut else [],
        **metric,
        **fields,
    )


def _example_records(text: str, problems: list[str]) -> list[Record]:
    """One record per spec_decode example summary (a paste may hold several runs)."""
    if "acceptance length" not in text:
        return []
    means = list(_EXAMPLE_MEAN.finditer(text))
    records = []
    for i, mean in enumerate(means):
        start = means[i - 1].end() if i else 0
        end = means[i + 1].start() if i + 1 < len(means) else len(text)
        found = _example_record(text, start, end, mean)
        if isinstance(found, str):
            problems.append(found)
        else:
            records.append(found)
    return records


def _block_records(text: str, problems: list[str]) -> list[Record]:
    """Records of the complete result blocks; a cut one is reported instead."""
    return complete_block_records(text, problems, "vllm.bench_serve",
                                  lambda block: not is_sglang_block(block), _block_record)


def parse(text: str, problems: list[str]) -> list[Record]:
    """Every vLLM result in the text."""
    blocks = _block_records(text, problems)
    printed = {round(record.value or 0.0, 2) for record in blocks}
    json_results = [  # a `--save-result` JSON echoed after its own block is the same result
        record
        for result in json_objects(text)
        if is_vllm_json(result)
        and (record := _json_record(result))
        and round(record.value or 0.0, 2) not in printed
    ]
    return [
        *blocks,
        *json_results,
        *_example_records(text, problems),
        *_server_log_records(text),
    ]
