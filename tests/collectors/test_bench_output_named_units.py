"""Units and loads the generic reader reads from how a result names its figures (issue 24, bench b32/b33)."""

from __future__ import annotations

import math

import pytest

from sessiontui.collectors.bench_output import generic, read_benchmark_output
from sessiontui.collectors.bench_output.labels import name_of


@pytest.mark.parametrize(("label", "name"), [
    ("ttft_p50_s", "ttft_ms_median"), ("ttft p99 s", "ttft_ms_p99"), ("inter_token_latency_s", "itl_ms_mean")])
def test_a_snake_case_latency_ending_in_s_after_its_statistic_is_in_seconds(label: str, name: str) -> None:
    # a statistic between the quantity and its unit (`ttft_p50_s`), and the same key as JSON's words
    assert name_of(label, "") == (name, 1000.0)
    assert name_of("itl_p50_ms", "") == ("itl_ms_median", 1.0)


def test_seconds_keys_of_a_result_json_and_a_tables_header_are_brought_to_ms() -> None:
    # waynehacking8/trtllm-triton-serving results/trtllm_llama31_fp8-c16.json and results/report.md (real lines)
    result = ('{\n  "concurrency": 16,\n  "throughput_tok_s": 4855.9,\n  "ttft_p50_s": 0.0573,\n'
              '  "itl_p50_ms": 3.04\n}\n')
    record, = read_benchmark_output(result).records
    assert (record.value, record.concurrency) == (4855.9, 16)
    assert math.isclose(record.figures["ttft_ms_median"], 57.3) and record.figures["itl_ms_median"] == 3.04
    table = ("| concurrency | throughput_tok_s | ttft_p50_s | ttft_p99_s | itl_p50_ms | itl_p99_ms |\n"
             "|---|---|---|---|---|---|\n| 1 | 111.1 | 0.0186 | 0.0501 | 8.88 | 8.9 |\n")
    record, = read_benchmark_output(table).records
    assert math.isclose(record.figures["ttft_ms_median"], 18.6) and math.isclose(record.figures["ttft_ms_p99"], 50.1)


def test_a_csv_tables_rows_under_a_summary_title_are_runs_and_a_date_line_is_no_figure() -> None:
    # shaamil101-etched/trtllm-benchmarks results/summary_results.log (real lines): a `=== ... Summary ===` title,
    # the shell's `date` (coreutils' default `%a %b %e %H:%M:%S %Z %Y`), then one CSV row per ISL/OSL run
    text = ("=== TensorRT-LLM Comprehensive Test Results Summary ===\nStart Time: Fri Jul 11 04:27:26 UTC 2025\n\n"
            "ISL,OSL,Requests,Throughput(tokens/sec),Latency(ms),Status\n"
            "128,128,30000,14389.7989,266855.7100,SUCCESS\n128,256,20000,17602.0571,290875.0935,SUCCESS\n"
            "16384,16384,50,FAILED,FAILED,Benchmark Failed\n")
    records = read_benchmark_output(text).records
    assert [(r.value, r.figures["osl"]) for r in records] == [(14389.7989, 128.0), (17602.0571, 256.0)]
    assert not {"fri_jul", "utc"} & set(records[0].figures)


def test_an_average_lines_own_next_line_still_completes_it() -> None:
    # the rule the rows above must not break: `Averages:` then its latency line is one result
    text = "Trial 1: 100.0 tok/s\nTrial 2: 110.0 tok/s\nAverages: 105.0 tok/s\nTTFT: 12.0 ms\n"
    record, = read_benchmark_output(text).records
    assert (record.value, record.figures.get("ttft_ms_mean")) == (105.0, 12.0)


def test_a_profile_named_by_its_request_rate_is_the_load_asked_for_not_a_result() -> None:
    # gpustack/gpustack docs/performance-lab (real lines): `- Profile: `ShareGPT 8RPS`` above each engine's block
    assert [(r.name, r.value) for r in generic.readings(["- Profile: `ShareGPT 8RPS`"])] == [("request_rate", 8.0)]
    text = ("- Profile: `ShareGPT 8RPS`\n\n    ============ Serving Benchmark Result ============\n"
            "    Successful requests:                     1000\n"
            "    Benchmark duration (s):                  132.25\n"
            "    Request throughput (req/s):              7.56\n"
            "    Output token throughput (tok/s):         2137.15\n"
            "    ==================================================\n")
    assert [r.value for r in read_benchmark_output(text).records] == [2137.15]


def test_a_load_listed_among_a_sentences_run_settings_is_every_results_load() -> None:
    # vllm-project/vllm benchmarks/dflash_4b/BENCHMARKS.md (real lines): the settings in prose above the table
    text = ("One H100 per run, TP1, FP8 target weights, BF16 compute, concurrency 1, AIPerf GSM8K, 10 warmup requests.\n\n"
            "| Engine / implementation | Mode | ITL p50 (ms) | Output tok/s |\n| --- | --- | ---: | ---: |\n"
            "| vLLM original | Baseline | 3.18 | 301.6 |\n| SGLang | DFlash | 5.99 | 847.6 |\n")
    assert [(r.value, r.concurrency) for r in read_benchmark_output(text).records] == [(301.6, 1), (847.6, 1)]
    swept = text.replace("concurrency 1, AIPerf", "concurrency 1 to 64 in AIPerf")  # a range is no one load
    assert [r.concurrency for r in read_benchmark_output(swept).records] == [None, None]


def test_a_sentence_naming_hardware_in_code_quotes_is_prose_not_another_result() -> None:
    # robertgshaw2-neuralmagic/vllm-benchmarking-sample benchmark/README.md (real lines): the block, then the user's
    # sentence repeating its generations rate with the GPU's name in backticks
    text = ("* Generations / Sec:            18.43\n* Generation Tok / Sec:         4198.43\n"
            "* Prompt Tok / Sec:             10425.07\n\n"
            "We are able to procss 18.43 generations per second on an `H100 80GB HBM3`.\n")
    assert [r.value for r in read_benchmark_output(text).records] == [4198.43]


def test_a_users_sentences_ending_in_a_lead_in_colon_are_prose_not_a_result() -> None:
    # ikawrakow/ik_llama.cpp discussion 818 (real lines): a sweep-bench table, then the user's prediction and lead-in
    table = ("|    PP |     TG |   N_KV |   T_PP s | S_PP t/s |   T_TG s | S_TG t/s |\n"
             "|-------|--------|--------|----------|----------|----------|----------|\n"
             "|  4096 |   1024 |      0 |   19.103 |   214.42 |  123.031 |     8.32 |\n")
    text = f"{table}\nSo the predicted speed is about 5.1 tps.  Which is very close to the actual result:\n"
    assert [r.value for r in read_benchmark_output(text).records] == [8.32]


def test_statistics_columns_after_a_metric_column_behind_run_settings_are_named_by_each_rows_metric() -> None:
    # modelscope/evalscope docs/zh/user_guides/stress_test/multi_turn.md (real lines): `Per-Request Metrics`, its
    # `Conc.`/`Rate` cells printed on the first row only
    text = ("┏━━━━━━┳━━━━━━┳━━━━━┳━━━━━━┳━━━━━━━━━┓\n┃Conc. ┃ Rate ┃ Num ┃  RPS ┃   Gen/s ┃\n"
            "┡━━━━━━╇━━━━━━╇━━━━━╇━━━━━━╇━━━━━━━━━┩\n│   10 │    - │  20 │ 4.32 │ 1103.48 │\n"
            "└──────┴──────┴─────┴──────┴─────────┘\n\n"
            "┏━━━━━━┳━━━━━━┳━━━━━━━━━━━━━━━┳━━━━━━━━┳━━━━━━━┳━━━━━━━┓\n"
            "┃Conc. ┃ Rate ┃ Metric        ┃    avg ┃   p50 ┃   p99 ┃\n"
            "┡━━━━━━╇━━━━━━╇━━━━━━━━━━━━━━━╇━━━━━━━━╇━━━━━━━╇━━━━━━━┩\n"
            "│   10 │    - │ Latency (s)   │  2.289 │ 2.180 │ 3.541 │\n"
            "│      │      │ TTFT (ms)     │   41.0 │  38.0 │  72.0 │\n"
            "└──────┴──────┴───────────────┴────────┴───────┴───────┘\n")
    record, = read_benchmark_output(text).records
    assert (record.value, record.concurrency) == (1103.48, 10)
    assert (record.figures["ttft_ms_mean"], record.figures["ttft_ms_p99"]) == (41.0, 72.0)


def test_an_al_column_beside_a_rate_is_the_accept_length() -> None:
    # vllm-project/vllm benchmarks/dflash_4b/BENCHMARKS.md (real lines; "AL includes the bonus token"): `—` for a baseline
    text = ("| Engine / implementation | Mode | ITL p50 (ms) | Output tok/s | AL |\n| --- | --- | ---: | ---: | ---: |\n"
            "| vLLM original | Baseline | 3.18 | 301.6 | — |\n| vLLM original | DFlash | 8.74 | 565.6 | 5.6523 |\n")
    assert [(r.value, r.accept_length) for r in read_benchmark_output(text).records] == [
        (301.6, None), (565.6, 5.6523)]
    assert name_of("al", "") == ("al", 1.0)  # upper case alone: a lower-case `al` names nothing known


def test_an_issue_number_a_link_and_a_date_in_prose_are_no_figures() -> None:
    # the same file's lead-in (real line) above its table
    line = ("Investigation of [vLLM #49730](https://github.com/vllm-project/vllm/issues/49730), "
            "measured on September 21, 2026.")
    assert list(generic.readings([line])) == []


@pytest.mark.parametrize(("label", "name", "factor"), [
    ("results_ttft_s_quantiles_p50", "ttft_ms_median", 1000.0), ("results_inter_token_latency_s_mean", "itl_ms_mean", 1000.0),
    ("itl_p99_us", "itl_ms_p99", 1e-3), ("e2e_ms_p99", "e2e_ms_p99", 1.0)])
def test_a_snake_case_latencys_unit_word_before_or_after_its_statistic_gives_its_unit(
        label: str, name: str, factor: float) -> None:
    # llmperf's summary keys (ray-project/llmperf token_benchmark_ray.py: `results_ttft_s_quantiles_p50`,
    # `results_inter_token_latency_s_mean`): seconds, the unit word before the statistic
    found, scale = name_of(label, "")
    assert found == name and math.isclose(scale, factor)
