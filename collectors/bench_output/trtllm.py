"""TensorRT-LLM outputs: the `trtllm-bench` report and the older `[BENCHMARK]` lines.

`trtllm-bench throughput|latency` (0.17-1.2, tensorrt_llm/bench/dataclasses/reporting.py) logs
sections under `= NAME` banners: engine or PyTorch backend, request details, world and runtime,
PERFORMANCE OVERVIEW (`Label (unit): value` lines, then `[TTFT] P50    : x` percentile lines), an
optional `DECODING STATISTICS (<mode>)` section for speculative decoding, and dataset details.
The C++ and Python benchmarks before it print `[BENCHMARK] name value` pairs: one line per case
(benchmarks/python/benchmark.py, gptSessionBenchmark) or one per figure (gptManagerBenchmark).
`--report_json` writes the same report as one JSON object (reporting.py `get_statistics_dict`):
engine, world_info, request_info, performance and streaming_metrics objects of one run.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from sessiontui.collectors.bench_output.common import (
    benchmark,
    figures_of,
    json_objects,
    last_match,
    number,
    whole,
)
from sessiontui.project_memory.records import Record

ENGINE = "tensorrt-llm"
FORMATS = ("tensorrt-llm.trtllm-bench", "tensorrt-llm.benchmark")
# Text only these outputs print: one without a complete result is not read another way.
# (`[BENCHMARK]` only before a lower-case `name value` pair: other scripts print `[BENCHMARK] Throughput:`;
# trtllm-bench's own progress line `Request submission complete. [count=N, ..., rate=N req/s]` is its log,
# not another tool's result.)
MARKERS = re.compile(r"PERFORMANCE OVERVIEW|\"system_output_throughput_tok_s\"|= STATISTICS|\[BENCHMARK\] [a-z_]+(?:\([^)]*\))? [^\s:]"
                     r"|THROUGHPUT OVERVIEW|Request submission complete\. \[count=")
_BANNER = re.compile(r"^(?:= ?)?([A-Z][A-Z +/&-]*[A-Z])(?:\s*\((.*)\))?\s*$")  # `= ` dropped in pastes
_RULE = re.compile(r"^={10,}\s*$")
_LABEL_VALUE = re.compile(r"^([A-Za-z][^:\[]*?(?:\[[^\]]*\][^:]*?)?)\s*:\s*(\S+)")
_TABLE_CELL = re.compile(r":\s*\|\s*")  # a report pasted as a table of runs: the first run's value
_PERCENTILE = re.compile(r"^\[(\w+)\]\s+(\w+)\s*:\s*(\S+)")
_CONCURRENCY_FLAG = re.compile(r"--concurrency[= ]+(\d+)")
_MAX_DRAFT = re.compile(r"max_draft_len[\"']?\s*[:=]\s*(\d+)")
_BENCHMARK_PAIR = re.compile(r"([A-Za-z_][\w/]*(?:\([^)]*\))?)\s+(-?[\d.]+(?:[eE][-+]?\d+)?)(?=\s|$)")
_MODEL_NAME = re.compile(r"\bmodel_name (\S+)")
# Sections of the results (every version); the ones before them describe the run.
_RESULT_SECTIONS = frozenset({
    "PERFORMANCE OVERVIEW", "STATISTICS", "STREAMING STATISTICS", "DECODING STATISTICS",
    "GENERAL OVERVIEW", "THROUGHPUT OVERVIEW", "LATENCY OVERVIEW", "GENERATION LATENCY BREAKDOWN",
    "ACCEPTANCE BREAKDOWN",
})
_FIRST_SECTIONS = frozenset({"PERFORMANCE OVERVIEW", "STATISTICS", "GENERAL OVERVIEW"})
_END = "DATASET DETAILS"
# `MIN (ms): x` lines of the latency report's breakdown sections -> figure name prefixes.
_BREAKDOWNS = {"GENERATION LATENCY BREAKDOWN": "gen_latency_ms", "ACCEPTANCE BREAKDOWN": "accept_length"}
_BREAKDOWN_LINE = re.compile(r"^(MIN|MAX|AVG|P\d+)(?: \(ms\))?:\s*(\S+)")
# Result labels (lower case, matched by their start: units changed between versions, e.g.
# `(tps/gpu)` and `(tokens/sec/gpu)`) -> figure names; the value is the output throughput.
_OVERVIEW = (
    ("request throughput", "request_throughput"),
    ("total token throughput", "total_tok_s"),
    ("total latency (ms)", "total_latency_ms"),
    ("total latency (seconds)", "total_latency_s"),
    ("average request latency", "e2e_ms_mean"),
    ("per user output throughput", "per_user_output_tok_s_with_ctx"),
    ("per gpu output throughput", "per_gpu_output_tok_s"),
    ("average time-to-first-token", "ttft_ms_mean"),
    ("average time-per-output-token", "tpot_ms_mean"),
    ("average inter-token latency", "itl_ms_mean"),
    ("per user output speed", "per_user_output_tok_s"),
)
# The output throughput as each generation of the report names it (1.x, 0.12-0.17, latency).
_VALUE_LABELS = (
    "total output throughput (tokens/sec)",
    "token throughput (tokens/sec)",
    "generation token throughput (tokens/sec)",
)
# What each generation always prints once its value line is out (1.x adds per-GPU throughput;
# streaming runs their per-user speed); a report missing one was cut short.
_ALWAYS = {
    _VALUE_LABELS[0]: ("request throughput", "total latency", "per gpu output throughput"),
    _VALUE_LABELS[1]: ("request throughput", "total latency"),
    _VALUE_LABELS[2]: ("request throughput", "total latency"),
}
_STREAMING_ALWAYS = "per user output speed"
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
_STATS = {"MINIMUM": "min", "MAXIMUM": "max", "AVERAGE": "mean", "AVG": "mean", "P50": "median"}  # as its JSON (_JSON_STATS)


@dataclass
class _Report:
    """One trtllm-bench report: labelled values and percentiles of its sections, in order."""

    start: int  # offset of its first result section
    before: dict[str, str]  # labels of the sections printed before the results
    overview: dict[str, str] = field(default_factory=dict)
    percentiles: dict[str, str] = field(default_factory=dict)  # figure name -> raw value
    sections: set[str] = field(default_factory=set)
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
        if banner:
            section = banner[1]
            if section in _FIRST_SECTIONS and (report is None or section in report.sections):
                if report is not None:
                    yield report
                report, before = _Report(offset, before), {}
            elif section not in _RESULT_SECTIONS and report is not None:
                yield report  # the dataset details, or the next run's header
                report = None
            if report is not None:
                report.sections.add(section)
                if section == "DECODING STATISTICS":
                    report.decoding_mode = banner[2] or ""
        elif not _RULE.match(stripped):
            _read_line(stripped, section, report, before)
        offset += len(line)
    if report is not None:
        yield report


def _read_line(line: str, section: str, report: _Report | None, before: dict[str, str]) -> None:
    """File one line of a section under its report (or under what precedes the next one)."""
    if report is None:
        pair = _LABEL_VALUE.match(line)
        if pair and section != _END:
            before[" ".join(pair[1].lower().split())] = line.split(":", 1)[1].strip()
        return
    percentile = _PERCENTILE.match(line)
    breakdown = _BREAKDOWN_LINE.match(line) if section in _BREAKDOWNS else None
    pair = _LABEL_VALUE.match(_TABLE_CELL.sub(": ", line, count=1))  # also `label: | v1 | v2`
    if percentile:
        name = _PERCENTILE_NAMES.get(percentile[1].upper())
        if name:
            stat = _STATS.get(percentile[2].upper(), percentile[2].lower())
            report.percentiles[f"{name}_{stat}"] = percentile[3]
    elif breakdown:
        stat = _STATS.get(breakdown[1], breakdown[1].lower())
        report.percentiles[f"{_BREAKDOWNS[section]}_{stat}"] = breakdown[2]
    elif pair:
        label = " ".join(pair[1].lower().split())
        target = report.overview if section in _RESULT_SECTIONS else report.before
        target.setdefault(label, pair[2])


def _printed(report: _Report, prefix: str) -> str | None:
    """The raw value of the first result label that starts with `prefix`, if it is a number."""
    raw = next((raw for label, raw in report.overview.items() if label.startswith(prefix)), None)
    return raw if number(raw) is not None else None


def _missing(report: _Report) -> list[str]:
    """The always-printed result lines a (cut) report lacks."""
    value_label = next((label for label in _VALUE_LABELS if label in report.overview), None)
    if value_label is None:
        return [_VALUE_LABELS[0]]
    wanted = list(_ALWAYS[value_label])
    if _printed(report, "average time-to-first-token [ttft]"):
        wanted.append(_STREAMING_ALWAYS)
    missing = [prefix for prefix in wanted if _printed(report, prefix) is None]
    if report.decoding_mode is not None and "accept_length_mean" not in report.percentiles:
        missing.append("[AL] AVERAGE")
    if "ACCEPTANCE BREAKDOWN" in report.sections and "accept_length_mean" not in report.percentiles:
        missing.append("acceptance AVG")
    return missing


def _report_record(text: str, report: _Report) -> Record:
    """The record of one complete report."""
    overview, before = report.overview, report.before
    value = next(v for label in _VALUE_LABELS if (v := number(overview.get(label))) is not None)
    figures = figures_of((name, _printed(report, prefix)) for prefix, name in _OVERVIEW)
    figures.update(figures_of((name, before.get(label) or overview.get(label))
                              for label, name in _DETAILS.items()))
    figures.update(figures_of(report.percentiles.items()))
    concurrency = [flag[1]] if (flag := last_match(text, _CONCURRENCY_FLAG, report.start)) else []
    version = before.get("tensorrt-llm version") or before.get("tensorrt llm version")
    accept = figures.get("accept_length_mean")
    spec: dict[str, Any] = {"accept_length": accept if accept and accept > 1 else None}
    if report.decoding_mode is not None:
        draft = [found[1]] if (found := last_match(text, _MAX_DRAFT, report.start)) else []
        spec.update(spec_algorithm=report.decoding_mode.strip().lower() or None,
                    num_steps=whole(draft[-1]) if draft else None)
        if "acceptance_rate_mean" in figures:
            figures["acceptance_rate"] = figures["acceptance_rate_mean"]
    model = before.get("model")
    lengths = {label: before.get(label) or overview.get(label)
               for label in ("average input length (tokens)", "average output length (tokens)")}
    return benchmark(
        value,
        FORMATS[0],
        engine=ENGINE,
        engine_version=version,
        model=model if model not in (None, "None") else None,
        # `trtllm-bench latency` runs one request at a time
        concurrency=whole(concurrency[-1]) if concurrency else (
            1 if "GENERAL OVERVIEW" in report.sections else None),
        input_len=whole(lengths["average input length (tokens)"]),
        output_len=whole(lengths["average output length (tokens)"]),
        figures=figures,
        **spec,
    )


def _bench_records(text: str, problems: list[str]) -> list[Record]:
    """Records of the trtllm-bench reports (a cut one marked partial with the lines it lacks);
    one cut before its throughput is reported instead."""
    if "OVERVIEW" not in text and "= STATISTICS" not in text:
        return []
    records = []
    for report in _reports(text):
        missing = _missing(report)
        if all(number(report.overview.get(label)) is None for label in _VALUE_LABELS):
            problems.append(f"{FORMATS[0]}: report cut before its output throughput, not stored")
            continue
        record = _report_record(text, report)
        record.partial = missing
        records.append(record)
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
    "p50_sequence_latency(ms)": "e2e_ms_median",
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


def _benchmark_record(pairs: dict[str, str]) -> Record | None:
    """The record of one `[BENCHMARK]` result (partial when cut before its latency), or None if
    it has no rate."""
    value = next((v for name in _LINE_VALUES if (v := number(pairs.get(name))) is not None), None)
    closing = "avg_sequence_latency(ms)" if "token_throughput(token/sec)" in pairs else "latency(ms)"
    if value is None:
        return None
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
        partial=[] if closing in pairs else [closing],
    )


def _benchmark_records(text: str) -> list[Record]:
    """Records of `[BENCHMARK]` results that printed their throughput (partial when cut before
    the latency printed after it)."""
    if "[BENCHMARK]" not in text:
        return []
    return [record for pairs in _benchmark_groups(text) if (record := _benchmark_record(pairs))]


# `--report_json` keys (reporting.py `get_statistics_dict`, 0.17-1.2) -> figure names.
_JSON_PERFORMANCE = {
    "request_throughput_req_s": "request_throughput",
    "system_total_throughput_tok_s": "total_tok_s",
    "total_latency_ms": "total_latency_ms",
    "avg_request_latency_ms": "e2e_ms_mean",
    "output_throughput_per_user_tok_s": "per_user_output_tok_s_with_ctx",
    "output_throughput_per_gpu_tok_s": "per_gpu_output_tok_s",
}
_JSON_STREAMING = {"token_output_speed_tok_s": "per_user_output_tok_s", "avg_ttft_ms": "ttft_ms_mean",
                   "avg_tpot_ms": "tpot_ms_mean"}
_JSON_PERCENTILES = {"request_latency_percentiles_ms": "e2e_ms", "ttft_percentiles": "ttft_ms",
                     "tpot_percentiles": "tpot_ms", "gen_tps_percentiles": "gen_tok_s_per_user"}
_JSON_STATS = {"p50": "median", "minimum": "min", "maximum": "max", "average": "mean"}


def _json_report_record(report: dict[str, Any]) -> Record | None:
    """The record of one `--report_json` object: one run, whose headline is the system output
    throughput (the streaming per-user speed is one request's rate, a figure of it)."""
    performance = report.get("performance")
    if not isinstance(performance, dict):
        return None
    value = number(performance.get("system_output_throughput_tok_s"))
    if value is None:
        return None
    sections = {name: part if isinstance(part := report.get(name), dict) else {}
                for name in ("engine", "world_info", "request_info", "streaming_metrics")}
    streaming = sections["streaming_metrics"]
    figures = figures_of((name, performance.get(key)) for key, name in _JSON_PERFORMANCE.items())
    figures.update(figures_of((name, streaming.get(key)) for key, name in _JSON_STREAMING.items()))
    for key, prefix in _JSON_PERCENTILES.items():
        stats = performance.get(key) or streaming.get(key)
        if isinstance(stats, dict):
            figures.update(figures_of((f"{prefix}_{_JSON_STATS.get(stat, stat)}", found)
                                      for stat, found in stats.items()))
    world, requests, engine = sections["world_info"], sections["request_info"], sections["engine"]
    figures.update(figures_of((name, world.get(name)) for name in ("tp_size", "pp_size", "ep_size", "max_batch_size")))
    figures.update(figures_of([("num_requests", requests.get("num_requests")),
                               ("mean_concurrency", requests.get("avg_num_concurrent_requests"))]))
    model = engine.get("model")
    return benchmark(value, FORMATS[0], engine=ENGINE, engine_version=engine.get("version"),
                     model=model if model not in (None, "None") else None,
                     input_len=whole(requests.get("avg_input_length")),
                     output_len=whole(requests.get("avg_output_length")), figures=figures)


def parse(text: str, problems: list[str]) -> list[Record]:
    """Every TensorRT-LLM result in the text."""
    reports = [record for report in json_objects(text) if (record := _json_report_record(report))]
    return [*reports, *_bench_records(text, problems), *_benchmark_records(text)]
