"""SGLang outputs: bench_serving block and JSONL, bench_one_batch(_server), server decode lines."""

from __future__ import annotations

from pathlib import Path

import pytest

from sessiontui.collectors.bench_output import (
    derive_config_name,
    parse_benchmark_output,
    read_benchmark_output,
)

FIXTURES = Path(__file__).parents[1] / "fixtures" / "bench"


def parse(name: str):
    return parse_benchmark_output((FIXTURES / name).read_bytes())


def test_bench_serving_block_gives_throughput_conditions_and_latencies() -> None:
    [record] = parse("sglang_bench_serving.txt")
    assert (record.kind, record.metric, record.unit) == ("benchmark", "output_tok_s", "tok/s")
    assert record.value == 681.30 and record.status == "ok"
    assert record.engine == "sglang" and record.source_format == "sglang.bench_serving"
    assert record.concurrency == 1 and record.accept_length == 3.21
    assert record.model == "meta-llama/Llama-3.1-8B-Instruct"
    assert (record.dataset, record.input_len, record.output_len) == ("random", 1024, 512)
    figures = record.figures
    assert figures["ttft_ms_mean"] == 21.84 and figures["ttft_ms_median"] == 20.97
    assert figures["ttft_ms_p99"] == 35.12 and figures["tpot_ms_p99"] == 1.61
    assert figures["itl_ms_p95"] == 4.93 and figures["itl_ms_max"] == 18.77
    assert figures["e2e_ms_mean"] == 751.20 and figures["request_throughput"] == 1.33
    assert figures["total_tok_s"] == 2043.91 and figures["prompt_tok_s"] == 1362.61
    assert figures["mean_concurrency"] == 1.0 and "output_tok_s" not in figures
    assert derive_config_name(record) == "sglang Llama-3.1-8B-Instruct c=1"


def test_old_block_with_the_concurrency_typo_and_not_set() -> None:
    [record] = parse("sglang_bench_serving_old.txt")
    assert record.value == 2173.16 and record.concurrency is None
    assert record.accept_length is None and record.figures["request_rate"] == 16.0
    assert record.figures["itl_ms_median"] == 39.97


def test_typo_label_with_a_number_sets_concurrency() -> None:
    text = (FIXTURES / "sglang_bench_serving_old.txt").read_text().replace("not set", "64     ")
    [record] = parse_benchmark_output(text)
    assert record.concurrency == 64


def test_output_file_jsonl_gives_one_record_per_line_with_server_settings() -> None:
    records = parse("sglang_bench_serving.jsonl")
    assert [r.concurrency for r in records] == [1, 4, 16]
    assert [r.value for r in records] == [681.30, 2210.45, 5902.18]
    assert [r.accept_length for r in records] == [3.21, 3.17, 3.05]
    first = records[0]
    assert first.source_format == "sglang.bench_serving.jsonl" and first.engine_version == "0.5.2"
    assert (first.spec_algorithm, first.num_draft_tokens, first.num_steps, first.topk) == (
        "EAGLE3",
        4,
        3,
        1,
    )
    assert first.draft_model == "jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B"
    assert (first.input_len, first.output_len, first.dataset) == (1024, 512, "random")
    assert first.figures["itl_ms_median"] == 4.51 and first.figures["ttft_ms_p99"] > 0
    assert derive_config_name(records[1]) == "sglang Llama-3.1-8B-Instruct EAGLE3 c=4"


def test_truncated_jsonl_keeps_the_complete_lines() -> None:
    text = (FIXTURES / "sglang_bench_serving.jsonl").read_text()
    records = parse_benchmark_output(text[: len(text) - 200])
    assert [r.concurrency for r in records] == [1, 4]


def test_bench_one_batch_skips_the_warmup_run() -> None:
    records = parse("sglang_bench_one_batch.txt")
    assert [r.batch_size for r in records] == [1, 16]
    assert [r.value for r in records] == [141.24, 1347.94]  # the printed median throughputs
    assert records[0].source_format == "sglang.bench_one_batch"
    assert records[1].figures["median_decode_latency_s"] == 0.01187
    assert records[1].figures["prefill_latency_s"] == 0.37183
    assert derive_config_name(records[1]) == "sglang bs=16"


def test_bench_one_batch_truncated_keeps_finished_runs_and_the_cut_one_as_partial() -> None:
    text = (FIXTURES / "sglang_bench_one_batch.txt").read_text()
    cut = text[: text.rindex("Total.")]
    records = parse_benchmark_output(cut)
    assert [r.batch_size for r in records] == [1, 16]
    assert [r.partial for r in records] == [[], ["total"]]
    assert "total_tok_s" not in records[1].figures
    assert records[1].value == parse_benchmark_output(text)[1].value


def test_old_bench_one_batch_infers_batch_size_from_latency_and_throughput() -> None:
    [record] = parse("sglang_bench_one_batch_old.txt")
    assert record.value == 51.98 and record.batch_size == 1


def test_bench_one_batch_result_file() -> None:
    records = parse("sglang_bench_one_batch.jsonl")
    assert [(r.batch_size, r.value, r.input_len, r.output_len) for r in records] == [
        (1, 141.24, 1024, 128),
        (16, 1347.94, 1024, 128),
    ]
    assert records[0].source_format == "sglang.bench_one_batch"
    assert records[1].figures["median_decode_latency"] == 0.01187


def test_bench_one_batch_server_result_line_with_unreported_acc_length() -> None:
    # bench_one_batch_server --result-filename, sglang 0.5.x BenchOneCaseResult keys
    line = (
        '{"run_name": "default", "batch_size": 8, "input_len": 1024, "output_len": 256, '
        '"latency": 1.75, "input_throughput": 163840.0, "output_throughput": 1201.77, '
        '"overall_throughput": 5852.3, "last_ttft": 0.05, "last_gen_throughput": 1188.3, '
        '"acc_length": -1, "cache_hit_rate": null, "profile_link": null}'
    )
    [record] = parse_benchmark_output(line)
    assert (record.value, record.batch_size, record.accept_length) == (1201.77, 8, None)
    assert record.source_format == "sglang.bench_one_batch_server"


def test_bench_one_batch_server_groups_with_acc_length() -> None:
    records = parse("sglang_bench_one_batch_server.txt")
    assert [(r.batch_size, r.value, r.accept_length) for r in records] == [
        (1, 178.52, 2.41),
        (8, 1201.77, 2.37),
    ]
    assert (records[0].input_len, records[0].output_len) == (1024, 256)
    assert records[0].figures["last_gen_tok_s"] == 181.04
    assert records[0].source_format == "sglang.bench_one_batch_server"


def test_bench_one_batch_server_without_spec_has_no_accept_length() -> None:
    text = (FIXTURES / "sglang_bench_one_batch_server.txt").read_text()
    text = "\n".join(line for line in text.splitlines() if not line.startswith("acc_length"))
    assert {r.accept_length for r in parse_benchmark_output(text)} == {None}


def test_server_decode_lines_summarised_into_one_result() -> None:
    [record] = parse("sglang_server.log")
    # gen throughput of the six busy lines (one after idle): 3.62 176.30 182.41 179.86 186.02 171.15
    assert record.value == pytest.approx((176.30 + 179.86) / 2)
    assert record.accept_length == pytest.approx((2.95 + 3.10) / 2)
    assert record.figures["decode_lines"] == 6 and record.concurrency == 1
    assert record.source_format == "sglang.server_log"
    assert (record.spec_algorithm, record.num_draft_tokens) == ("EAGLE3", 4)
    assert derive_config_name(record) == "sglang Llama-3.1-8B-Instruct EAGLE3 c=1"


@pytest.mark.parametrize("variant", ["Decode batch.", "Decode batch,"])
def test_both_decode_line_spellings_count(variant: str) -> None:
    lines = (FIXTURES / "sglang_server.log").read_text().splitlines()
    kept = [line for line in lines if "Decode batch" not in line or variant in line]
    [record] = parse_benchmark_output("\n".join(kept))
    assert record.figures["decode_lines"] == sum(variant in line for line in lines)


def test_decode_lines_without_spec_fields_still_give_throughput() -> None:
    text = (
        "[2026-03-04 15:13:23 TP0] Decode batch, #running-req: 4, #token: 90, token usage: 0.00,"
        " cuda graph: True, gen throughput (token/s): 150.05, #queue-req: 0\n"
    )
    [record] = parse_benchmark_output(text * 3)
    assert record.value == 150.05 and record.accept_length is None
    assert (record.concurrency, record.batch_size) == (4, 4)  # a steady #running-req: both


def test_a_diffusion_bench_serving_block_without_token_rates_is_headed_by_its_request_throughput() -> None:
    # sgl-project/sglang python/sglang/multimodal_gen/benchmarks/bench_serving.py: print_value_formatted
    # lines under a 60-wide title, `Successful requests: n/total`, latencies in seconds, no token rate
    text = (
        "================= Serving Benchmark Result =================\n"
        f"{'Backend:':<40} {'sglang-image':<15}\n"
        f"{'Model:':<40} {'Qwen/Qwen-Image':<15}\n"
        + "-" * 50 + "\n"
        f"{'Benchmark duration (s):':<40} {64.20:<15.2f}\n"
        f"{'Max request concurrency:':<40} {'4':<15}\n"
        f"{'Successful requests:':<40} {'10/10':<15}\n"
        + "-" * 50 + "\n"
        f"{'Request throughput (req/s):':<40} {0.16:<15.2f}\n"
        f"{'Latency Mean (s):':<40} {24.5012:<15.4f}\n"
        f"{'Latency P99 (s):':<40} {30.1100:<15.4f}\n"
        + "=" * 60 + "\n"
    )
    [record] = read_benchmark_output(text).records
    assert (record.metric, record.value, record.unit, record.concurrency) == ("request_throughput", 0.16, "req/s", 4)
    assert record.figures["latency_p99_s"] == 30.11
    cut = text.rsplit("=" * 60, 1)[0]  # cut before its closing line: the token rate may have followed
    assert read_benchmark_output(cut).records == []


def test_blocks_printed_through_a_logger_are_not_read_again_as_another_tools_results() -> None:
    # sgl-project/sglang python/sglang/bench_serving.py: "{:<40} {:<10}" lines, `Accept length:` among them,
    # two runs' blocks each line behind a Python logging prefix: both blocks are SGLang's, their accept
    # lengths and latencies no further results
    def block(rate: float, accept: float) -> list[str]:
        rows = [("Backend:", "sglang"), ("Max request concurrency:", "100"), ("Request throughput (req/s):", "2.39"),
                ("Output token throughput (tok/s):", f"{rate}"), ("Peak output token throughput (tok/s):", "3713.00"),
                ("Total token throughput (tok/s):", "2448.87"), ("Concurrency:", "97.41"), ("Accept length:", f"{accept}")]
        return ["{:=^50}".format(" Serving Benchmark Result "), *(f"{label:<40} {value:<10}" for label, value in rows),
                "{:-^50}".format("End-to-End Latency"), f"{'Mean E2E Latency (ms):':<40} {40720.71:<10.2f}",
                "{:-^50}".format("Time to First Token"), f"{'Mean TTFT (ms):':<40} {5321.56:<10.2f}", "=" * 50, ""]
    lines = ["### Config A", "", *block(1222.06, 2.86), "### Config B", "", *block(1249.95, 1.97)]
    text = "".join(f"2024-05-01 10:00:00,123 - INFO - {line}\n" for line in lines)
    records = read_benchmark_output(text).records
    assert [(r.value, r.accept_length) for r in records] == [(1222.06, 2.86), (1249.95, 1.97)]
