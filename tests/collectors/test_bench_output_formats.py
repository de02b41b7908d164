"""The formats users paste beyond SGLang/vLLM serving blocks: TensorRT-LLM, vLLM's spec-decode
example and request-rate sweeps, old SGLang blocks, and llama.cpp's csv, batched and server
outputs; each read from a real paste (or the tool's printing code) in tests/fixtures/bench."""

from __future__ import annotations

from pathlib import Path

import pytest

from sessiontui.collectors.bench_output import (
    derive_config_name,
    parse_benchmark_output,
    read_benchmark_output,
)
from sessiontui.project_memory.records import DEFAULT_METRIC

FIXTURES = Path(__file__).parents[1] / "fixtures" / "bench"


def parse(name: str):
    return parse_benchmark_output((FIXTURES / name).read_bytes())


def test_trtllm_bench_streaming_report() -> None:
    [record] = parse("trtllm_bench_streaming.txt")
    assert (record.engine, record.source_format) == ("tensorrt-llm", "tensorrt-llm.trtllm-bench")
    assert record.metric == DEFAULT_METRIC and record.value == 11076.77
    assert (record.model, record.engine_version) == ("meta-llama/Llama-3.1-8B-Instruct", "0.21.0rc0")
    assert (record.input_len, record.output_len) == (128, 128)
    figures = record.figures
    assert figures["request_throughput"] == 86.5373 and figures["total_tok_s"] == 22153.5399
    assert figures["per_user_output_tok_s"] == 137.1475  # Per User Output Speed
    assert figures["per_gpu_output_tok_s"] == 11076.77 and figures["mean_concurrency"] == 94.605
    assert (figures["ttft_ms_mean"], figures["ttft_ms_p99"]) == (162.6706, 232.4339)
    assert (figures["tpot_ms_median"], figures["e2e_ms_p90"]) == (7.6079, 1130.72)
    assert figures["gen_tok_s_per_user_median"] == 131.4444
    assert record.accept_length is None and record.concurrency is None  # `$CONCURRENCY` unset


def test_trtllm_bench_report_without_streaming_or_headers() -> None:
    [record] = parse("trtllm_bench_h100_fp8.txt")
    assert record.value == 6957.303 and record.figures["e2e_ms_p99"] == 68887.7569
    assert "ttft_ms_mean" not in record.figures and record.model is None


def test_trtllm_bench_speculative_decoding_statistics() -> None:
    [record] = parse("trtllm_bench_eagle3.txt")
    assert (record.value, record.concurrency) == (1131.7248, 8)  # `--concurrency 8`
    assert (record.spec_algorithm, record.accept_length, record.num_steps) == ("eagle", 2.62, 3)
    assert record.figures["acceptance_rate"] == 0.54 and record.figures["draft_tokens_max"] == 3
    assert record.figures["accept_length_p99"] == 3.31
    assert derive_config_name(record) == "tensorrt-llm Llama-3.1-8B-Instruct EAGLE c=8"


def test_trtllm_bench_cut_inside_its_overview_is_partial_naming_the_missing_lines() -> None:
    text = (FIXTURES / "trtllm_bench_streaming.txt").read_text()
    cut = text[: text.index("Total Latency (ms)")]
    [whole] = parse_benchmark_output(text)
    result = read_benchmark_output(cut)
    [record] = result.records
    assert result.problems == [] and record.value == whole.value
    assert "total latency" in record.partial and "per gpu output throughput" in record.partial
    assert not whole.partial
    before_value = read_benchmark_output(text[: text.index("Total Output Throughput")])
    assert before_value.records == [] and "before its output throughput" in before_value.problems[0]


def test_trtllm_bench_cut_inside_decoding_statistics_is_partial() -> None:
    text = (FIXTURES / "trtllm_bench_eagle3.txt").read_text()
    result = read_benchmark_output(text[: text.index("[AL] MINIMUM")])
    [record] = result.records
    assert record.partial == ["[AL] AVERAGE"] and record.accept_length is None


def test_trtllm_bench_012_statistics_section() -> None:
    [record] = parse("trtllm_bench_v012_statistics.txt")
    assert (record.value, record.engine_version, record.model) == (
        23405.927228471104, "0.12.0", "meta-llama/Llama-2-7b-hf")
    assert record.figures["total_latency_s"] == 16.406100739 and record.input_len == 128


def test_trtllm_bench_016_throughput_then_latency_report() -> None:
    throughput, latency = parse("trtllm_bench_v016_throughput_latency.txt")
    assert (throughput.value, throughput.figures["request_throughput"]) == (1585.748, 0.7743)
    assert (throughput.input_len, throughput.figures["tp_size"]) == (2048, 4)
    assert (latency.value, latency.concurrency) == (32.3338, 1)  # one request at a time
    assert latency.figures["ttft_ms_mean"] == 147.7502 and latency.figures["itl_ms_mean"] == 30.9274
    assert latency.figures["gen_latency_ms_p99"] == 63374.777
    assert latency.accept_length is None  # 1.00 tokens per step: no speculation


def test_trtllm_older_token_throughput_label() -> None:
    report = (
        "===========================================================\n"
        "= PERFORMANCE OVERVIEW\n"
        "===========================================================\n"
        "Number of requests:             3000\n"
        "Token Throughput (tokens/sec):  26880.3107\n"
        "Request Throughput (req/sec):   210.0024\n"
        "Total Latency (ms):             14285.5486\n"
        "Per GPU Output Throughput (tps/gpu):  26880.3107\n"
        "===========================================================\n"
    )
    [record] = parse_benchmark_output(report)
    assert record.value == 26880.3107 and record.figures["request_throughput"] == 210.0024


def test_trtllm_benchmark_lines_one_case_per_line() -> None:
    records = parse("trtllm_benchmark_lines.txt")
    assert [(r.model, r.batch_size, r.value) for r in records] == [
        ("llama_13b", 1, 43.09), ("llama_7b", 64, 7373.14), ("gpt_350m", 1, 483.54)
    ]
    first = records[0]
    assert (first.input_len, first.output_len, first.source_format) == (
        710, 190, "tensorrt-llm.benchmark")
    assert first.figures["latency_ms"] == 4409.816 and first.figures["gen_tok_s"] == 50.379


def test_trtllm_gpt_manager_benchmark_groups() -> None:
    records = parse("trtllm_gptmanager_benchmark.txt")
    assert [r.value for r in records] == [2870.80, 15672.87]
    assert records[0].figures["request_throughput"] == 9.55
    assert records[1].figures["e2e_ms_p99"] == 66332.86 and records[1].figures["num_requests"] == 2500
    assert records[1].accept_length is None  # 1.00 tokens per step: no speculation


def test_trtllm_benchmark_line_cut_before_its_latency_is_partial() -> None:
    line = (FIXTURES / "trtllm_benchmark_lines.txt").read_text().splitlines()[6]
    result = read_benchmark_output(line[: line.index("percentile99") + 5])
    [record] = result.records
    assert record.partial == ["latency(ms)"] and "latency_ms" not in record.figures


def test_vllm_spec_decode_example_runs() -> None:
    records = parse("vllm_spec_decode_example.txt")
    assert [r.accept_length for r in records] == [3.64, 3.36]
    first = records[0]
    assert (first.metric, first.value, first.source_format) == (
        "accept_length", 3.64, "vllm.spec_decode")
    assert (first.spec_algorithm, first.num_steps, first.num_draft_tokens) == ("eagle3", 10, 11)
    assert [first.figures[f"accept_pos_{i}"] for i in (1, 2, 10)] == [0.74, 0.54, 0.02]
    assert first.figures["num_drafts"] == 4687
    assert first.figures["acceptance_rate"] == pytest.approx(12368 / 46870)


def test_vllm_spec_decode_draft_model_and_offline_speed() -> None:
    [record] = parse("vllm_spec_decode_draft_model.txt")
    assert (record.spec_algorithm, record.accept_length, record.num_steps) == ("draft_model", 2.78, 3)
    assert record.model.endswith("Qwen3-32B")
    bar = ("Processed prompts: 100%|##########| 80/80 [00:21<00:00,  3.71it/s, est. speed input: "
           "388.92 toks/s, output: 878.49 toks/s]\n")
    text = (FIXTURES / "vllm_spec_decode_draft_model.txt").read_text()
    [timed] = parse_benchmark_output(text.replace("-----", bar + "-----", 1))
    assert (timed.metric, timed.value, timed.accept_length) == (DEFAULT_METRIC, 878.49, 2.78)


def test_vllm_spec_decode_older_print_without_counts() -> None:
    old = ("-" * 50 + "\nmean acceptance length (including bonus tokens):         2.08\n" + "-" * 50
           + "\nacceptance at token 0:0.66\nacceptance at token 1:0.42\n")
    [record] = parse_benchmark_output(old)
    assert record.accept_length == 2.08 and record.figures["accept_pos_2"] == 0.42


def test_vllm_spec_decode_cut_between_positions_is_partial() -> None:
    text = (FIXTURES / "vllm_spec_decode_draft_model.txt").read_text()
    result = read_benchmark_output(text[: text.index("acceptance at token 2")])
    [record] = result.records
    assert record.partial == ["acceptance positions"] and record.num_steps == 3
    assert "accept_pos_2" in record.figures and "accept_pos_3" not in record.figures


def test_vllm_request_rate_lines_are_kept_and_saved_json_not_doubled() -> None:
    records = parse("vllm_benchmark_serving_request_rates.txt")
    assert [(r.value, r.figures.get("request_rate")) for r in records] == [
        (5914.31, 30.0), (11481.02, None)]  # `inf` is no figure
    assert all(r.concurrency is None and r.source_format == "vllm.bench_serve" for r in records)
    assert records[0].figures["itl_ms_p99"] == 75.82
    assert derive_config_name(records[0]) == "vllm Llama-3.2-3B-Instruct rate=30/s"
    [old] = parse("vllm_benchmark_serving_rate_v05.txt")
    assert (old.value, old.figures["request_rate"], old.figures["prompt_tok_s"]) == (
        188.39, 1.0, 237.04)


def test_vllm_rps_suffix_and_concurrency_together() -> None:
    text = (FIXTURES / "vllm_benchmark_serving_rate_v05.txt").read_text()
    text = text.replace("Traffic request rate: 1.0", "Traffic request rate: 15.0 RPS.\n"
                        "Maximum request concurrency: 64")
    [record] = parse_benchmark_output(text)
    assert (record.figures["request_rate"], record.concurrency) == (15.0, 64)


def test_old_sglang_total_throughput_uses_the_same_metric_name() -> None:
    [record] = parse("sglang_bench_serving_total_throughput.txt")
    assert (record.engine, record.value) == ("sglang", 560.82)
    assert record.figures["total_tok_s"] == 1448.66 and "total_throughput" not in record.figures
    assert record.figures["request_rate"] == 100.0 and record.figures["e2e_ms_median"] == 443.87


@pytest.mark.parametrize("name", ["llama_bench.csv", "llama_bench_unquoted.csv"])
def test_llama_bench_csv(name: str) -> None:
    records = parse(name)
    assert records and all(r.source_format == "llama.cpp.llama-bench.csv" for r in records)
    assert records[0].metric == "prompt_tok_s" and records[0].concurrency == 1
    if name == "llama_bench.csv":
        assert [r.value for r in records] == [2413.341687, 132.052051]
        assert records[1].metric == DEFAULT_METRIC and records[1].output_len == 128
        assert records[1].engine_version == "b1275 (3469684)"
    else:
        assert (records[0].value, records[0].input_len) == (7285.68, 512)


def test_llama_bench_csv_row_cut_short_is_reported() -> None:
    text = (FIXTURES / "llama_bench.csv").read_text()
    result = read_benchmark_output(text[: text.rindex('","') + 3])
    assert [r.value for r in result.records] == [2413.341687]
    assert "row cut short" in result.problems[0]


def test_llama_batched_bench_rows() -> None:
    records = parse("llama_batched_bench.md")
    assert [(r.input_len, r.batch_size, r.value) for r in records[:3]] == [
        (512, 1, 79.04), (512, 2, 136.37), (512, 4, 224.52)]
    last = records[-1]
    assert (last.source_format, last.output_len, last.concurrency) == (
        "llama.cpp.batched-bench", 32, 4)
    assert last.figures["prompt_tok_s"] == 1532.06 and last.figures["total_tok_s"] == 1454.95


def test_llama_server_timing_and_draft_acceptance() -> None:
    [record] = parse("llama_server_spec.log")
    assert (record.source_format, record.value, record.accept_length) == (
        "llama.cpp.server_log", 111.46, 2.92)
    assert record.figures["acceptance_rate"] == pytest.approx(167 / 259)
    assert [record.figures[f"accept_pos_{i}"] for i in (1, 2, 3)] == [0.805, 0.632, 0.483]
    assert record.figures["prompt_tok_s"] == 66.64


def test_llama_server_older_draft_acceptance_rate_line() -> None:
    log = (
        "slot print_timing: id  0 | task 0 | \n"
        "prompt eval time =      54.39 ms /    13 tokens (    4.18 ms per token,   239.03 tokens "
        "per second)\n"
        "       eval time =    2193.73 ms /   128 tokens (   17.14 ms per token,    58.35 tokens "
        "per second)\n"
        "      total time =    2248.12 ms /   141 tokens\n"
        "slot print_timing: id  0 | task 0 | draft acceptance rate = 0.57576 (   19 accepted /"
        "    33 generated)\n"
    )
    [record] = parse_benchmark_output(log)
    assert record.value == 58.35 and record.figures["acceptance_rate"] == pytest.approx(19 / 33)


def test_llama_speculative_summary_not_its_perf_lines() -> None:
    [record] = parse("llama_speculative.txt")
    assert (record.source_format, record.value, record.output_len) == (
        "llama.cpp.speculative", 10.781, 371)
    assert record.figures["acceptance_rate"] == pytest.approx(0.3432)
    assert record.num_steps == 16 and record.figures["n_accept"] == 313


def test_trtllm_bench_units_renamed_between_versions() -> None:
    text = (FIXTURES / "trtllm_bench_h100_fp8.txt").read_text()
    text = text.replace("Per GPU Output Throughput (tps/gpu):   ",
                        "Per GPU Output Throughput (tokens/sec/gpu):")
    [record] = parse_benchmark_output(text)
    assert record.value == 6957.303 and record.figures["per_gpu_output_tok_s"] == 6957.303


def test_llama_server_2024_runs_lines() -> None:
    log = (
        "print_timings: prompt eval time =     132.47 ms /    12 tokens (   11.04 ms per token,"
        "    90.59 tokens per second)\n"
        "print_timings:        eval time =    1795.76 ms /   128 runs   (   14.03 ms per token,"
        "    71.28 tokens per second)\n"
        "print_timings:       total time =    1928.23 ms\n"
    )
    [record] = parse_benchmark_output(log)
    assert (record.value, record.figures["prompt_tok_s"]) == (71.28, 90.59)


GUIDELLM_04 = """\
ℹ Request Latency Statistics (Completed Requests)
|=============|=========|========|======|======|=====|=====|=====|=====|
| Benchmark   | Request Latency || TTFT       || ITL      || TPOT     ||
| Strategy    | Sec             || ms         || ms       || ms       ||
|             | Mdn     | p95    | Mdn  | p95  | Mdn | p95 | Mdn | p95 |
|-------------|---------|--------|------|------|-----|-----|-----|-----|
| synchronous | 1.2     | 1.4    | 21.0 | 25.5 | 4.6 | 4.9 | 4.7 | 5.0 |
| throughput  | 9.8     | 12.1   | 88.2 | 140.0| 38.1| 45.0| 38.5| 45.6|
|=============|=========|========|======|======|=====|=====|=====|=====|


ℹ Server Throughput Statistics (All Requests)
|=============|=====|======|=======|======|=======|=======|=======|========|=======|=======|
| Benchmark   | Requests               |||| Input Tokens || Output Tokens || Total Tokens ||
| Strategy    | Per Sec   || Concurrency || Per Sec      || Per Sec       || Per Sec      ||
|             | Mdn | Mean | Mdn   | Mean | Mdn   | Mean  | Mdn   | Mean   | Mdn   | Mean  |
|-------------|-----|------|-------|------|-------|-------|-------|--------|-------|-------|
| synchronous | 0.8 | 0.8  | 1.0   | 1.0  | 204.0 | 206.1 | 0.0   | 211.3  | 410.0 | 417.4 |
| throughput  | 6.1 | 6.3  | 61.0  | 62.2 | 1560.2| 1602.8| 120.0 | 1633.9 | 3190.1| 3236.7|
|=============|=====|======|=======|======|=======|=======|=======|========|=======|=======|
"""


def test_guidellm_04_reads_each_benchmark_row_by_its_server_throughput_mean() -> None:
    # vllm-project/guidellm src/guidellm/benchmark/outputs/console.py (0.4): `ℹ` titles, a group
    # row whose spans close with extra bars, a `Per Sec`/`ms` row, a `Mdn`/`Mean`/`p95` row
    records = read_benchmark_output(GUIDELLM_04).records
    assert [(r.source_format, r.config, r.value) for r in records] == [
        ("guidellm.console", "synchronous", 211.3), ("guidellm.console", "throughput", 1633.9)]
    assert records[1].figures["request_throughput"] == 6.3
    assert records[1].figures["mean_concurrency"] == 62.2
    assert records[1].figures["ttft_ms_median"] == 88.2
    assert records[1].figures["e2e_ms_p95"] == 12100.0
    assert records[0].partial == []


def test_guidellm_04_cut_before_its_server_throughput_table_is_refused_with_its_reason() -> None:
    cut = GUIDELLM_04.split("ℹ Server Throughput")[0] + "ℹ Server Throughput Statistics (All Requests)\n"
    parsed = read_benchmark_output(cut)
    assert parsed.records == []
    assert parsed.problems


TGI_BENCHMARK = """\
| Step           | Batch Size | Average   | Lowest    | Highest   | p50       | p90       | p99       |
|----------------|------------|-----------|-----------|-----------|-----------|-----------|-----------|
| Prefill        | 1          | 14.18 ms  | 13.86 ms  | 15.01 ms  | 14.09 ms  | 15.01 ms  | 15.01 ms  |
|                | 2          | 15.22 ms  | 14.93 ms  | 16.10 ms  | 15.12 ms  | 16.10 ms  | 16.10 ms  |
| Decode (token) | 1          | 12.03 ms  | 11.91 ms  | 12.33 ms  | 12.00 ms  | 12.05 ms  | 12.05 ms  |
|                | 2          | 12.61 ms  | 12.48 ms  | 12.92 ms  | 12.58 ms  | 12.70 ms  | 12.70 ms  |
| Decode (total) | 1          | 84.21 ms  | 83.37 ms  | 86.31 ms  | 84.00 ms  | 84.35 ms  | 84.35 ms  |
|                | 2          | 88.27 ms  | 87.36 ms  | 90.44 ms  | 88.06 ms  | 88.90 ms  | 88.90 ms  |


| Step    | Batch Size | Average            | Lowest             | Highest            |
|---------|------------|--------------------|--------------------|--------------------|
| Prefill | 1          | 70.52 tokens/secs  | 66.62 tokens/secs  | 72.15 tokens/secs  |
|         | 2          | 131.41 tokens/secs | 124.22 tokens/secs | 133.96 tokens/secs |
| Decode  | 1          | 83.13 tokens/secs  | 81.10 tokens/secs  | 83.96 tokens/secs  |
|         | 2          | 158.63 tokens/secs | 154.81 tokens/secs | 160.27 tokens/secs |
"""


def test_tgi_benchmark_reads_one_record_per_batch_size_with_each_latency_step_apart() -> None:
    # huggingface/text-generation-inference benchmark/src/table.rs: latency_table (Step merged
    # down its rows, `{:.2} ms`) then throughput_table (`{:.2} tokens/secs`)
    records = read_benchmark_output(TGI_BENCHMARK).records
    assert [(r.source_format, r.batch_size, r.value) for r in records] == [
        ("tgi.benchmark", 1, 83.13), ("tgi.benchmark", 2, 158.63)]
    figures = records[1].figures
    assert (figures["prompt_tok_s"], figures["decode_token_ms_median"], figures["decode_total_ms_mean"]) == (
        131.41, 12.58, 88.27)


def test_tgi_benchmark_latency_table_alone_is_refused_with_its_reason() -> None:
    parsed = read_benchmark_output(TGI_BENCHMARK.split("\n\n\n")[0] + "\n")
    assert parsed.records == []
    assert parsed.problems == ["tgi.benchmark: latency table without the throughput table after it (cut), not stored"]
