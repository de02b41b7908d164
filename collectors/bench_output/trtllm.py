"""TensorRT-LLM outputs: the `trtllm-bench` report and the older `[BENCHMARK]` lines.

`trtllm-bench throughput|latency` (0.17-1.2, tensorrt_llm/bench/dataclasses/reporting.py) logs
sections under `= NAME` banners: engine or PyTorch backend, request details, world and runtime,
PERFORMANCE OVERVIEW (`Label (unit): value` lines, then `[TTFT] P50    : x` percentile lines), an
optional `DECODING STATISTICS (<mode>)` section for speculative decoding, and dataset details.
The C++ and Python benchmarks before it print `[BENCHMARK] name value` pairs: one line per case
(benchmarks/python/benchmark.py, gptSessionBenchmark) or one per figure (gptManagerBenchmark).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from sessiontui.collectors.bench_output.common import benchmark, figures_of, number, whole
from sessiontui.project_memory.records import Record

ENGINE = "tensorrt-llm"
FORMATS = ("tensorrt-llm.trtllm-bench", "tensorrt-llm.benchmark")
_BANNER = re.compile(r"^= ?([A-Z][A-Z +/&-]*[A-Z])(?:\s*\((.*)\))?\s*$")
_RULE = re.compile(r"^={10,}\s*$")
_LABEL_VALUE = re.compile(r"^([A-Za-z][^:\[]*?(?:\[[^\]]*\][^:]*?)?)\s*:\s*(\S+)")
_PERCENTILE = re.compile(r"^\[(\w+)\]\s+(\w+)\s*:\s*(\S+)")
_CONCURRENCY_FLAG = re.compile(r"--concurrency[= ]+(\d+)")
_MAX_DRAFT = re.compile(r"max_draft_len[\"']?\s*[:=]\s*(\d+)")
_BENCHMARK_PAIR = re.compile(r"([A-Za-z_][\w/]*(?:\([^)]*\))?)\s+(-?[\d.]+(?:[eE][-+]?\d+)?)(?=\s|$)")
_MODEL_NAME = re.compile(r"\bmodel_name (\S+)")
_STREAMING = "average time-to-first-token [ttft] (ms)"
# Overview labels (lower case) -> figure names; the value is the output throughput.
_OVERVIEW = {
    "request throughput (req/sec)": "request_throughput",
    "total token throughput (tokens/sec)": "total_tok_s",
    "total latency (ms)": "total_latency_ms",
    "average request latency (ms)": "e2e_ms_mean",
    "per user output throughput [w/ ctx] (tps/user)": "per_user_output_tok_s_with_ctx",
    "per gpu output throughput (tps/gpu)": "per_gpu_output_tok_s",
    _STREAMING: "ttft_ms_mean",
    "average time-per-output-token [tpot] (ms)": "tpot_ms_mean",
    "per user output speed (tps/user)": "per_user_output_tok_s",
    "request throughput (req/sec) ": "request_throughput",
}
_VALUE_LABELS = ("total output throughput (tokens/sec)", "token throughput (tokens/sec)")
# What every report prints in its overview (the streaming three when TTFT is measured).
_ALWAYS = (
    "request throughput (req/sec)",
    "total latency (ms)",
    "per gpu output throughput (tps/gpu)",
)
_STREAMING_ALWAYS = ("per user output speed (tps/user)",)
_DETAILS = {
    "number of requests": "num_requests",
    "number of concurrent requests": "mean_concurrency",
    "tp size": "tp_size",
    "pp size": "pp_size",
    "ep size": "ep_size",
    "max runtime batch size": "max_batch_size",
    "max runtime tokens": "max_num_tokens",
}
_PERCENTILE_NAMES = {
    "TPOT": "tpot_ms",
    "TTFT": "ttft_ms",
    "GTPS": "gen_tok_s_per_user",
    "LATENCY": "e2e_ms",
    "DT": "draft_tokens",
    "ADT": "accepted_draft_tokens",
    "DAR": "acceptance_rate",
    "AL": "accept_length",
}
_STATS = {"MINIMUM": "min", "MAXIMUM": "max", "AVERAGE": "mean"}


@dataclass
class _Report:
    """One trtllm-bench report: labelled values and percentiles of its sections, in order."""

    start: int  # offset of its PERFORMANCE OVERVIEW banner
    before: dict[str, str]  # labels of the sections printed before the overview
    overview: dict[str, str] = field(default_factory=dict)
    percentiles: dict[str, str] = field(default_factory=dict)  # figure name -> raw value
    decoding_mode: str | None = None


def _reports(text: str) -> Iterator[_Report]:
    """Every report in the text, its sections gathered by banner."""
    section = ""
    before: dict[str, str] = {}
    report: _Report | None = None
    offset = 0
    for line in text.splitlines(keepends=True):
        stripped = line.strip()
        banner = _BANNER.match(stripped)
        if banner and banner[1] != "STATISTICS" or stripped.startswith("= PERFORMANCE OVERVIEW"):
            section = banner[1] if banner else "PERFORMANCE OVERVIEW"
            if section == "PERFORMANCE OVERVIEW":
                if report is not None:
                    yield report
                report, before = _Report(offset, before), {}
            elif section == "DECODING STATISTICS" and report is not None and banner:
                report.decoding_mode = banner[2]
            elif section not in ("DECODING STATISTICS", "DATASET DETAILS") and report is not None:
                yield report
                report = None
        elif not _RULE.match(stripped):
            _read_line(stripped, section, report, before)
        offset += len(line)
    if report is not None:
        yield report


def _read_line(line: str, section: str, report: _Report | None, before: dict[str, str]) -> None:
    """File one line of a section under its report (or under what precedes the next one)."""
    percentile = _PERCENTILE.match(line)
    if report is not None and percentile:
        name = _PERCENTILE_NAMES.get(percentile[1].upper())
        if name:
            stat = _STATS.get(percentile[2].upper(), percentile[2].lower())
            report.percentiles[f"{name}_{stat}"] = percentile[3]
        return
    pair = _LABEL_VALUE.match(line)
    if not pair:
        return
    label = " ".join(pair[1].lower().split())
    if report is not None and section == "PERFORMANCE OVERVIEW":
        report.overview.setdefault(label, pair[2])
    elif report is None:
        before[label] = line.split(":", 1)[1].strip()


def _missing(report: _Report) -> list[str]:
    """The always-printed overview lines a (cut) report lacks."""
    wanted = [*_ALWAYS, *(_STREAMING_ALWAYS if _STREAMING in report.overview else ())]
    if not any(label in report.overview for label in _VALUE_LABELS):
        wanted.insert(0, _VALUE_LABELS[0])
    missing = [label for label in wanted if number(report.overview.get(label)) is None]
    if report.decoding_mode is not None and "accept_length_mean" not in report.percentiles:
        missing.append("[AL] AVERAGE")
    return missing


def _report_record(text: str, report: _Report) -> Record:
    """The record of one complete report."""
    overview, before = report.overview, report.before
    value = next(v for label in _VALUE_LABELS if (v := number(overview.get(label))) is not None)
    figures = figures_of((name, overview.get(label)) for label, name in _OVERVIEW.items())
    figures.update(figures_of((name, before.get(label)) for label, name in _DETAILS.items()))
    figures.update(figures_of(report.percentiles.items()))
    concurrency = _CONCURRENCY_FLAG.findall(text, 0, report.start)
    version = before.get("tensorrt-llm version") or before.get("tensorrt llm version")
    spec: dict[str, Any] = {}
    if report.decoding_mode is not None:
        draft = _MAX_DRAFT.findall(text, 0, report.start)
        spec = {
            "spec_algorithm": report.decoding_mode.strip().lower() or None,
            "accept_length": figures.get("accept_length_mean"),
            "num_steps": whole(draft[-1]) if draft else None,
        }
        if "acceptance_rate_mean" in figures:
            figures["acceptance_rate"] = figures["acceptance_rate_mean"]
    return benchmark(
        value,
        FORMATS[0],
        engine=ENGINE,
        engine_version=version,
        model=before.get("model") if before.get("model") not in (None, "None") else None,
        concurrency=whole(concurrency[-1]) if concurrency else None,
        input_len=whole(before.get("average input length (tokens)")),
        output_len=whole(before.get("average output length (tokens)")),
        figures=figures,
        **spec,
    )


def _bench_records(text: str, problems: list[str]) -> list[Record]:
    """Records of the complete trtllm-bench reports; a cut one is reported instead."""
    if "PERFORMANCE OVERVIEW" not in text:
        return []
    records = []
    for report in _reports(text):
        missing = _missing(report)
        if missing:
            problems.append(f"{FORMATS[0]}: report cut short, missing {', '.join(missing)}; "
                            "not stored")
        else:
            records.append(_report_record(text, report))
    return records


# `[BENCHMARK]` names (lower case, units kept) -> figure names.
_LINE_FIGURES = {
    "latency(ms)": "latency_ms",
    "percentile95(ms)": "latency_ms_p95",
    "percentile99(ms)": "latency_ms_p99",
    "generation_tokens_per_second": "gen_tok_s",
    "gpu_peak_mem(gb)": "gpu_peak_mem_gb",
    "world_size": "world_size",
    "total_latency(ms)": "total_latency_ms",
    "seq_throughput(seq/sec)": "request_throughput",
    "avg_sequence_latency(ms)": "e2e_ms_mean",
    "p50_sequence_latency(ms)": "e2e_ms_p50",
    "p90_sequence_latency(ms)": "e2e_ms_p90",
    "p99_sequence_latency(ms)": "e2e_ms_p99",
    "num_samples": "num_requests",
    "num_error_samples": "failed_requests",
}
_LINE_VALUES = ("tokens_per_sec", "tokenspersec", "token_throughput(token/sec)")


def _benchmark_groups(text: str) -> Iterator[dict[str, str]]:
    """The `[BENCHMARK]` pairs of each result: one line per case, or a run of one-pair lines
    (gptManagerBenchmark) that ends where a name comes again."""
    group: dict[str, str] = {}
    for line in text.splitlines():
        start = line.find("[BENCHMARK]")
        if start < 0:
            continue
        pairs = {name.lower(): raw for name, raw in _BENCHMARK_PAIR.findall(line, start + 11)}
        model = _MODEL_NAME.search(line, start)
        if model:
            pairs["model_name"] = model[1]
        if len(pairs) > 1:
            yield pairs
            continue
        repeated = set(pairs) & set(group)
        if repeated and (repeated != {"num_samples"} or "token_throughput(token/sec)" in group):
            yield group
            group = {}
        group.update(pairs)
    if group:
        yield group


def _benchmark_record(pairs: dict[str, str]) -> Record | str | None:
    """The record of one `[BENCHMARK]` result, why it is incomplete, or None if it has no rate."""
    value = next((v for name in _LINE_VALUES if (v := number(pairs.get(name))) is not None), None)
    closing = "avg_sequence_latency(ms)" if "token_throughput(token/sec)" in pairs else "latency(ms)"
    if value is None:
        return None
    if closing not in pairs:
        return f"{FORMATS[1]}: `[BENCHMARK]` result cut before `{closing}`, not stored"
    accept = number(pairs.get("avg_acceptance_rate(tokens/decoding steps)"))
    return benchmark(
        value,
        FORMATS[1],
        engine=ENGINE,
        model=pairs.get("model_name"),
        batch_size=whole(pairs.get("batch_size")),
        input_len=whole(pairs.get("input_length")),
        output_len=whole(pairs.get("output_length")),
        accept_length=accept if accept and accept > 1 else None,
        figures=figures_of((name, pairs.get(key)) for key, name in _LINE_FIGURES.items()),
    )


def _benchmark_records(text: str, problems: list[str]) -> list[Record]:
    """Records of `[BENCHMARK]` results that printed their throughput and the latency after it."""
    if "[BENCHMARK]" not in text:
        return []
    records = []
    for pairs in _benchmark_groups(text):
        found = _benchmark_record(pairs)
        if isinstance(found, str):
            problems.append(found)
        elif found is not None:
            records.append(found)
    return records


def parse(text: str, problems: list[str]) -> list[Record]:
    """Every TensorRT-LLM result in the text."""
    return [*_bench_records(text, problems), *_benchmark_records(text, problems)]
