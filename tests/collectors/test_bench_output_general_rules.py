"""General rules of the benchmark-output reader, each shown on a slice of a real public paste (the
source is cited): a rule fixes a class of outputs, so each test names the class it covers."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from sessiontui.collectors.bench_output import derive_config_name, read_benchmark_output, runs
from sessiontui.collectors.bench_output.common import slug
from sessiontui.collectors.bench_output.labels import name_of


def test_a_section_title_other_tools_print_does_not_claim_their_output() -> None:
    # vllm-project/vllm#10879: benchmark_guided_serving.py's `Benchmark Results:` heading and
    # beehive-lab/GPULlama3.java#133's `| model |` table are not SGLang's or llama-bench's
    text = "Benchmark Results:\n| model | note |\n|---|---|\n| qwen | fast |\nOutput Token throughput: 3624.51 tokens/s\n"
    parsed = read_benchmark_output(text)
    assert [(r.metric, r.value) for r in parsed.records] == [("output_tok_s", 3624.51)]
    assert parsed.problems == []


# NVIDIA/TensorRT-LLM#1938: a Go load tester prints the serving title behind log timestamps over
# labels of its own, one block per concurrency; the title alone claims nothing for SGLang or vLLM.
GO_BLOCK = ("2024/07/11 23:37:56 ============ Serving Benchmark Result ============\n"
            "2024/07/11 23:37:56 Concurrency: {c}\n"
            "2024/07/11 23:37:56 Request throughput (req/sec): 3.014\n"
            "2024/07/11 23:37:56 Generation throughput (tokens/second) avg: {out}\n")


@pytest.mark.parametrize(("text", "claimed"), [
    (GO_BLOCK.format(c=1, out=12.057) + GO_BLOCK.format(c=5, out=12.351), [(1, 12.057), (5, 12.351)]),
    ("============ Serving Benchmark Result ============\nBackend:                                 sglang\n"
     "Max request concurrency:\n", "sglang"),
    ("============ Serving Benchmark Result ============\nSuccessful requests:                     1000\n",
     "vllm"),
    # TensorRT-LLM's `[BENCHMARK] name value` pairs claim; another script's `[BENCHMARK] Name:` does not
    ("[BENCHMARK] Throughput: 812.4 tokens/s\n", [(None, 812.4)]),
    ("[BENCHMARK] batch_size 1 input_length 20 output_length 20\n", "trtllm"),
    # a script's JSONL result with vLLM's key names is read; a vLLM JSON without its headline is not
    ('{"concurrency": 4, "output_throughput": 512.2, "mean_ttft_ms": 40.1}\n', [(4, 512.2)]),
    ('{"model_id": "m", "completed": 10, "output_throughput": NaN}\n', "vllm"),
])
def test_a_shared_title_claims_an_output_only_over_the_tools_own_labels(
        text: str, claimed: list[tuple[int, float]] | str) -> None:
    parsed = read_benchmark_output(text)
    if isinstance(claimed, str):
        assert parsed.records == [] and [p.split(":")[0].split(".")[0] for p in parsed.problems] == [claimed]
    else:  # logged blocks at different concurrencies are runs, not one periodic log's median
        assert [(r.concurrency, r.value) for r in parsed.records] == claimed


def test_trtllm_benchs_own_progress_lines_are_its_log_not_another_tools_result() -> None:
    # NVIDIA/TensorRT-LLM docs/source/performance/perf-benchmarking.md (0.17): a submission rate in a
    # `[TRT-LLM] [I]` line over the PERFORMANCE OVERVIEW is no request throughput of its own
    text = ("[01/18/2025-01:01:28] [TRT-LLM] [I] Request submission complete. [count=3000, time=0.0012s,"
            " rate=2590780.97 req/s]\n[01/18/2025-01:01:42] [TRT-LLM] [I] Benchmark complete.\n\n"
            "= PERFORMANCE OVERVIEW\nNumber of requests:             3000\n"
            "Token Throughput (tokens/sec):  28390.4265\nRequest Throughput (req/sec):   221.8002\n")
    parsed = read_benchmark_output(text)
    assert [(r.metric, r.value, r.figures["request_throughput"]) for r in parsed.records] == [
        ("output_tok_s", 28390.4265, 221.8002)]
    # another TensorRT-LLM script's result through the same logger is still read
    logged = "[TRT-LLM] [I] Load engine takes: 3.2 sec\n[TRT-LLM] [I] Generation throughput (tokens/sec): 812.4\n"
    assert [(r.metric, r.value) for r in read_benchmark_output(logged).records] == [("output_tok_s", 812.4)]


def test_a_negative_request_rate_is_no_limit_not_a_rate() -> None:
    # modelscope/evalscope docs/en/user_guides/stress_test/vs_vllm_bench.md: `-1` for no rate limit
    text = ("| Number of concurrency             |    50      |\n| Request rate (req/s)              |    -1      |\n"
            "| Output token throughput (tok/s)   | 10530.7    |\n| Request throughput (req/s)        |   105.307  |\n")
    [record] = read_benchmark_output(text).records
    assert (record.value, record.concurrency, "request_rate" in record.figures) == (10530.7, 50, False)


def test_a_percentile_column_with_its_unit_names_a_column_not_a_value() -> None:
    # InternLM/lmdeploy docs/en/benchmark/a100_fp16.md (v0.2): `50%(s)` heads a latency percentile
    text = ("| model | batch | RPS | 50%(s) | 99%(s) | throughput(out tok/s) |\n| --- | --- | --- | --- | --- | --- |\n"
            "| llama2-7b | 256 | 14.556 | 0.066 | 0.220 | 3387.419 |\n")
    [record] = read_benchmark_output(text).records
    assert (record.value, record.batch_size, record.figures["request_throughput"]) == (3387.419, 256, 14.556)


def test_a_runner_named_alone_heads_its_own_result_and_stacked_value_first_stats_are_one() -> None:
    # ollama/ollama#11758: Ollama's --verbose stats, then `lm studio:` over LM Studio's stats one a line
    text = ("ollama [v0.11.4]\nprompt eval rate:     162.00 tokens/s\neval rate:            38.37 tokens/s\n\n"
            "lm studio:\n66.23 tok/sec\n283 tokens\n0.26s to first token\nStop reason: EOS Token Found\n")
    assert [(r.metric, r.value) for r in read_benchmark_output(text).records] == [
        ("output_tok_s", 38.37), ("output_tok_s", 66.23)]


def test_a_cut_tool_output_is_still_refused_not_read_another_way() -> None:
    # a bench_one_batch log cut before its summary: its per-step decode lines are no result
    text = ("Prefill. latency: 0.46342 s, throughput:   2209.66 token/s\n"
            "Decode 0. Batch size: 1, latency: 0.29446 s, throughput:      3.40 token/s\n")
    parsed = read_benchmark_output(text)
    assert parsed.records == []
    assert parsed.problems == ["sglang.bench_one_batch: a run cut before its decode median, not stored"]


def test_a_closed_serving_block_without_a_whole_headline_is_reported() -> None:
    # a control character inside the number: the block is whole, its headline is not
    text = ("============ Serving Benchmark Result ============\nSuccessful requests:  80\n"
            "Backend:   sglang\nOutput token throughput (tok/s):   681\x00.30\n"
            "==================================================\n")
    parsed = read_benchmark_output(text)
    assert parsed.records == []
    assert parsed.problems == ["sglang.bench_serving: result block without a whole output token "
                               "throughput, not stored"]


# ggml-org/llama.cpp#25121 (`n_decoded`) and ollama/ollama#18090 (`n_gen`, Ollama's bundled
# llama-server behind a journald prefix): `tg` is the rate over all a task decoded so far.
RUNNING = "{prefix}slot print_timing: id  {slot} | task {task} | {count} =   {n}, tg =  {tg} t/s, tg_3s =  {tg} t/s\n"


@pytest.mark.parametrize(("prefix", "count"), [
    ("2.30.175.991 I ", "n_decoded"),
    ("Aug 28 16:17:16 spark-08 ollama[2924030]: ", "n_gen"),
])
def test_llama_server_running_rate_lines_read_as_each_tasks_latest(prefix: str, count: str) -> None:
    text = "".join(RUNNING.format(prefix=prefix, count=count, slot=slot, task=task, n=n, tg=tg)
                   for slot, task, n, tg in [(3, 0, 1423, "12.83"), (2, 7, 40, "20.50"),
                                             (3, 0, 1462, "12.82"), (2, 7, 80, "20.10")])
    [record] = read_benchmark_output(text).records
    assert record.metric == "output_tok_s" and math.isclose(record.value, (12.82 + 20.10) / 2)
    assert record.figures["requests"] == 2 and record.source_format == "llama.cpp.server_log"


def test_a_word_printed_twice_running_in_a_label_is_named_once() -> None:
    assert slug("Number of draft tokens tokens") == "number_of_draft_tokens"
    assert slug("tokens per token") == "tokens_per_token"


def test_vllm_v0_speculative_metrics_with_the_doubled_tokens_spelling_give_the_accept_length() -> None:
    # vllm-project/vllm#6768 (Medusa, nothing accepted): 3191 emitted / (51056 drafts / 16) = 1.0
    text = (
        "INFO 07-24 04:00:36 metrics.py:295] Avg prompt throughput: 278.5 tokens/s, Avg generation"
        " throughput: 110.4 tokens/s, Running: 2 reqs, Swapped: 0 reqs, Pending: 0 reqs\n"
        "INFO 07-24 04:00:36 metrics.py:316] Speculative metrics: Draft acceptance rate: 0.000,"
        " System efficiency: 0.059, Number of speculative tokens: 16, Number of accepted tokens: 0,"
        " Number of draft tokens tokens: 51056, Number of emitted tokens tokens: 3191.\n"
    )
    [record] = read_benchmark_output(text).records
    assert record.value == 110.4 and record.accept_length is not None
    assert math.isclose(record.accept_length, 1.0, rel_tol=1e-3)


def test_a_table_row_without_the_closing_bar_its_header_prints_is_cut_and_not_read() -> None:
    # a llama-bench table pasted from a terminal cut inside its first row
    text = ("| model | size | backend | test | t/s |\n| --- | ---: | --- | ---: | ---: |\n"
            "| llama 8B Q4_K - Medium | 4.58 GiB | CUDA | pp512 | 11873.42 ± 61.90 \n")
    assert read_benchmark_output(text).records == []


def test_statistics_on_lines_of_their_own_take_the_name_of_the_heading_above() -> None:
    # vllm-project/vllm#10879, benchmark_guided_serving.py
    text = ("Output Token throughput: 3624.51 tokens/s\n\nTime to First Token (ms):\n  Mean: 56.46\n"
            "  Median: 50.16\n  P99: 212.27\n\nInter-token Latency (ms):\n  Mean: 10.53\n  P99: 20.72\n")
    [record] = read_benchmark_output(text).records
    assert {name: record.figures[name] for name in ("ttft_ms_mean", "ttft_ms_median", "itl_ms_p99")} == {
        "ttft_ms_mean": 56.46, "ttft_ms_median": 50.16, "itl_ms_p99": 20.72}


def test_a_two_column_table_without_outer_bars_gives_a_result_per_config_row() -> None:
    # vllm-project/vllm#24343: draft vocabularies compared by mean acceptance length
    text = ("draft-vocab-frequency-path  | mean acceptance length\n-- | --\nvanilla | 2.39\n"
            "target-dist-mt-bench | 2.19\n")
    records = read_benchmark_output(text).records
    assert [(r.metric, r.value, r.accept_length) for r in records] == [
        ("accept_length", 2.39, 2.39), ("accept_length", 2.19, 2.19)]


def test_a_two_column_table_of_run_numbers_is_still_read_by_its_average_row() -> None:
    text = ("| Run | Eval Rate (Tokens/Second) |\n|-----|-----|\n| 1 | 4.04 tokens/s |\n"
            "| 2 | 4.12 tokens/s |\n|**Average Eval Rate**| 4.08 tokens/second |\n")
    assert [r.value for r in read_benchmark_output(text).records] == [4.08]


def test_llama_bench_test_names_as_columns_are_token_rates() -> None:
    # beehive-lab/GPULlama3.java#133: pp128/tg64 columns, one row per model
    text = ("| model | quant | pp128 | tg64 |\n|-------|-------|------:|-----:|\n"
            "| Llama-3.2-1B | FP16 | 107.70 ± 0.86 | 109.60 ± 1.55 |\n"
            "| Qwen3-4B | FP16 | 33.10 ± 0.98 | 35.45 ± 0.06 |\n")
    records = read_benchmark_output(text).records
    assert [(r.metric, r.value, r.figures["prompt_tok_s"]) for r in records] == [
        ("output_tok_s", 109.60, 107.70), ("output_tok_s", 35.45, 33.10)]


def test_a_csv_row_whose_last_cells_wrapped_keeps_its_first_cells_under_the_header() -> None:
    # LostRuins/koboldcpp#913: the benchmark CSV's Flags cell fell onto the next line; camelCase
    # column names read as words, a timestamp first cell does not key the row
    text = ("Timestamp,Backend,Layers,Model,MaxCtx,GenAmount,ProcessingTime,ProcessingSpeed,"
            "GenerationTime,GenerationSpeed,TotalTime,Output,Flags\n"
            "2024-06-19 21:46:13.064748+00:00,koboldcpp_cublas.dll,81,Llama-3-70B_q6,8192,100,79.72,"
            "101.50,15.95,6.27,95.67\nNoAVX2=False Threads=8 FlashAttention=True\n")
    [record] = read_benchmark_output(text).records
    assert (record.metric, record.value) == ("output_tok_s", 6.27)
    assert record.figures["prompt_tok_s"] == 101.50 and record.figures["total_time"] == 95.67


SERVE_BLOCK = ("============ Serving Benchmark Result ============\n"
               "Successful requests:                     100\n"
               "Benchmark duration (s):                  20.12\n"
               "Request throughput (req/s):              {rps}\n"
               "Output token throughput (tok/s):         {out}\n"
               "Total Token throughput (tok/s):          2543.00\n"
               "==================================================\n")


def test_the_load_a_heading_names_over_each_pasted_block_is_its_setting() -> None:
    text = ("# request rate 8\n" + SERVE_BLOCK.format(rps=4.97, out=1272.11)
            + "\n# request rate 16\n" + SERVE_BLOCK.format(rps=9.12, out=2301.5))
    records = read_benchmark_output(text).records
    assert [(r.value, r.figures["request_rate"]) for r in records] == [(1272.11, 8.0), (2301.5, 16.0)]
    text = "## concurrency 64\n" + SERVE_BLOCK.format(rps=4.97, out=1272.11)
    assert [r.concurrency for r in read_benchmark_output(text).records] == [64]


def test_a_measured_concurrency_figure_is_no_heading() -> None:
    text = SERVE_BLOCK.format(rps=4.97, out=1272.11).replace(
        "Successful", "Concurrency:                             1.00\nSuccessful")
    [record] = read_benchmark_output(text).records
    assert record.concurrency is None


def test_a_setting_line_ending_in_a_colon_still_starts_its_result() -> None:
    text = ("concurrency=16:\nOutput throughput: 1200.5 tok/s\n"
            "concurrency=32:\nOutput throughput: 2100.5 tok/s\n")
    assert [(r.concurrency, r.value) for r in read_benchmark_output(text).records] == [
        (16, 1200.5), (32, 2100.5)]


def test_a_csv_of_configs_gives_a_result_per_row_under_its_column_names() -> None:
    text = ("config,concurrency,output_throughput,mean_ttft_ms\nbaseline,8,650.2,40.1\n"
            "eagle3,8,1100.7,42.5\n")
    records = read_benchmark_output(text).records
    assert [(r.value, r.concurrency, r.figures["ttft_ms_mean"]) for r in records] == [
        (650.2, 8, 40.1), (1100.7, 8, 42.5)]


def test_a_pandas_frame_printed_with_its_index_reads_like_its_csv() -> None:
    text = ("       config  concurrency  output_throughput  mean_ttft_ms\n"
            "0    baseline            8              650.2          40.1\n"
            "1      eagle3            8             1100.7          42.5\n")
    records = read_benchmark_output(text).records
    assert [(r.value, r.concurrency) for r in records] == [(650.2, 8), (1100.7, 8)]


def test_a_decimal_comma_with_thousands_dots_is_one_number() -> None:
    [record] = read_benchmark_output("Output token throughput: 1.272,11 tok/s\n").records
    assert record.value == 1272.11


def test_a_table_row_per_config_keeps_its_name_in_the_derived_config() -> None:
    text = ("| Method | Concurrency | Throughput (tok/s) | Accept len |\n|---|---|---|---|\n"
            "| Baseline | 16 | 1,204.5 | - |\n| **EAGLE-3 (k=4)** | 16 | 2,310.2 | 3.4 |\n")
    records = read_benchmark_output(text).records
    assert [derive_config_name(r) for r in records] == ["Baseline c=16", "EAGLE-3 (k=4) c=16"]
    assert records[1].accept_length == 3.4


def test_a_label_row_is_no_config_name() -> None:
    [record] = read_benchmark_output("| Output token throughput | 1272.11 tok/s |\n").records
    assert record.config is None


def test_words_after_a_comma_label_the_value_that_follows_them() -> None:
    text = "With EAGLE:     output 182.3 tok/s, accept length 3.1\nWithout EAGLE:  output 95.4 tok/s\n"
    records = read_benchmark_output(text).records
    assert [(r.value, r.accept_length, derive_config_name(r)) for r in records] == [
        (182.3, 3.1, "With EAGLE"), (95.4, None, "Without EAGLE")]


def test_a_progress_bar_names_no_config() -> None:
    text = ("Processed prompts: 100%|██████████| 1000/1000 [01:23<00:00, 12.01it/s, est. speed input:"
            " 6150.12 toks/s, output: 3075.06 toks/s]\n")
    [record] = read_benchmark_output(text).records
    assert record.value == 3075.06 and record.config is None


def test_a_heading_over_a_result_names_its_config() -> None:
    # sgl-project/sglang#4247: EAGLE-3 against EAGLE-2 on MT-bench
    text = ("EAGLE-3 (num_steps=8):\n#questions: 80, Throughput: 378.57 token/s, Acceptance length: 5.39\n\n"
            "EAGLE-2 (num_steps=8):\n#questions: 80, Throughput: 230.08 token/s, Acceptance length: 3.76\n")
    records = read_benchmark_output(text).records
    assert [(r.config, r.value, r.accept_length) for r in records] == [
        ("EAGLE-3 (num_steps=8)", 378.57, 5.39), ("EAGLE-2 (num_steps=8)", 230.08, 3.76)]


def test_a_name_before_a_lone_value_names_its_config_and_a_figure_label_does_not() -> None:
    # sgl-project/sglang#6949: `with eagle: 30 tps`
    text = "with eagle: 30 tps\nwithout eagle: 21 tps\n"
    assert [r.config for r in read_benchmark_output(text).records] == ["with eagle", "without eagle"]
    for line, name in (("Speed: 45.3 tok/s\n", None), ("Results:\nOutput token throughput: 12.5 tok/s\n", None),
                       ("- 13B: 108.8 token/sec\n", "13B")):  # a bullet is no part of the name
        [record] = read_benchmark_output(line).records
        assert record.config == name, line


def test_a_spaced_table_with_a_dash_rule_under_its_header_reads_its_rows() -> None:
    # ggml-org/llama.cpp#23869, server-bench speed-bench: base and spec rates side by side
    text = ("category       base_avg_pred_t/s  spec_avg_pred_t/s  decode_speedup  accept_rate\n"
            "-------------  -----------------  -----------------  --------------  -----------\n"
            "coding         51.55              84.54              1.64x           0.7545\n"
            "humanities     51.61              66.80              1.29x           0.7557\n")
    records = read_benchmark_output(text).records
    assert [(r.config, r.value, r.figures["baseline_throughput_tok_s"], r.figures["acceptance_rate"])
            for r in records] == [("coding", 84.54, 51.55, 0.7545), ("humanities", 66.80, 51.61, 0.7557)]


def test_a_baseline_rate_is_a_figure_never_the_headline() -> None:
    text = "Baseline throughput: 100.5 tok/s\nEAGLE throughput: 180.2 tok/s\n"
    [record] = read_benchmark_output(text).records
    assert record.value == 180.2 and record.figures["baseline_throughput_tok_s"] == 100.5


def test_a_setting_line_heads_every_result_under_it_until_the_next() -> None:
    # sgl-project/sglang#6949: `tp = 4` belongs to the lines after it, not to the one before
    text = ("tp = 1\nwith eagle: 30 tps\nwithout eagle: 21 tps\n"
            "tp = 4\nwith eagle: 59 tps\nwithout eagle: 61 tps\n")
    records = read_benchmark_output(text).records
    assert [(r.config, r.value, r.figures.get("tp")) for r in records] == [
        ("with eagle", 30, 1), ("without eagle", 21, 1), ("with eagle", 59, 4), ("without eagle", 61, 4)]


def test_a_users_notes_inside_a_paste_are_not_read() -> None:
    text = ("Request throughput (req/s):              4.97\n"
            "Output token throughput (tok/s):         1272.11   # eagle3, k=4\n"
            "Mean TTFT (ms):                          45.20     <- was 40 before the fix\n")
    [record] = read_benchmark_output(text).records
    assert record.value == 1272.11 and "k" not in record.figures and record.figures["ttft_ms_mean"] == 45.2
    [record] = read_benchmark_output("Output token throughput: 1272 tok/s (was 1100)\n").records
    assert record.value == 1272 and record.figures == {}


def test_a_rows_name_is_its_text_cells_before_its_values() -> None:
    text = ("| Model | Quant | pp512 (t/s) | tg128 (t/s) |\n|---|---|---|---|\n"
            "| Llama 3 8B | Q4_0 | 1,234.5 | 98.7 |\n| Llama 3 8B | Q8_0 | 1,100.2 | 70.1 |\n")
    assert [(r.config, r.value) for r in read_benchmark_output(text).records] == [
        ("Llama 3 8B Q4_0", 98.7), ("Llama 3 8B Q8_0", 70.1)]
    cells = "| 36.5 TOKENS/SEC | 289 TOKENS IN TOTAL | 0.52 SEC TO FIRST TOKEN |\n"
    assert [r.config for r in read_benchmark_output(cells).records] == [None]


def test_settings_a_config_name_gives_are_set_and_not_named_twice() -> None:
    records = read_benchmark_output("Config A (bs=8): 1520 tok/s\nConfig B (bs=16): 2410 tok/s\n").records
    assert [(r.batch_size, derive_config_name(r)) for r in records] == [
        (8, "Config A (bs=8)"), (16, "Config B (bs=16)")]
    text = "EAGLE-3 (num_steps=8):\n#questions: 80, Throughput: 378.57 token/s, Acceptance length: 5.39\n"
    assert [r.num_steps for r in read_benchmark_output(text).records] == [8]


def test_per_position_acceptance_under_its_heading_is_read_when_the_block_header_is_missing() -> None:
    # vllm-project/vllm#51742's speculative section, pasted without the block's title line
    text = ("Output token throughput (tok/s):         371.88\n"
            "---------------Speculative Decoding---------------\n"
            "Acceptance rate (%):                     31.16\nAcceptance length:                       1.93\n"
            "Per-position acceptance (%):\n          0:                             57.12\n"
            "          1:                             24.34\n")
    [record] = read_benchmark_output(text).records
    assert record.accept_length == 1.93 and record.figures["acceptance_rate"] == pytest.approx(0.3116)
    assert record.source_format == "vllm.bench_serve"  # the rest of vLLM's block, its title cut above
    assert (record.figures["accept_pos_1"], record.figures["accept_pos_2"]) == pytest.approx((0.5712, 0.2434))


def test_the_load_a_printed_command_sets_over_each_block_is_its_setting() -> None:
    text = ("$ vllm bench serve --model m --max-concurrency 8 --num-prompts 200\n"
            + SERVE_BLOCK.format(rps=4.97, out=1272.11)
            + "$ vllm bench serve --model m --request-rate inf --num-prompts 200\n"
            + SERVE_BLOCK.format(rps=9.12, out=2301.5))
    records = read_benchmark_output(text).records
    assert [(r.concurrency, r.figures.get("request_rate")) for r in records] == [(8, None), (None, None)]


@pytest.mark.parametrize(("text", "expected"), [
    # sgl-project/SpecForge#339: bench_eagle3 results retyped, `throughput` beside `acc len`
    ("bs | steps | topk | num_draft | throughput | acc len\n-- | -- | -- | -- | -- | --\n"
     "1 | 3 | 1 | 4 | 159.78 | 1.86\n4 | 3 | 3 | 8 | 426.46 | 2.27\n",
     [("output_tok_s", 159.78, 1, 1.86), ("output_tok_s", 426.46, 4, 2.27)]),
    ("| batch | throughput | accept length |\n|---|---|---|\n| 8 | 912.4 | 3.1 |\n",
     [("output_tok_s", 912.4, 8, 3.1)]),
])
def test_a_bare_throughput_column_outranks_the_accept_length_and_bs_is_the_batch_size(
        text: str, expected: list[tuple[str, float, int | None, float]]) -> None:
    records = read_benchmark_output(text).records
    assert [(r.metric, r.value, r.batch_size, r.accept_length) for r in records] == expected


@pytest.mark.parametrize(("line", "metric", "value"), [
    # openvinotoolkit/openvino.genai#1244: llm_bench's average line, `2nd tokens` are the decode's
    ("[ INFO ] [Average] P[0] Input token size: 128, 1st token latency: 91.54 ms/16tokens, "
     "2nd token latency: 69.81 ms/16tokens, 2nd tokens throughput: 229.18 tokens/s", "output_tok_s", 229.18),
    ("3rd run, throughput: 41.5 tokens/s", "output_tok_s", 41.5),
])
def test_an_ordinal_is_part_of_a_label_never_a_value(line: str, metric: str, value: float) -> None:
    [record] = read_benchmark_output(line + "\n").records
    assert (record.metric, record.value) == (metric, value)
    assert not any(figure in (1.0, 2.0, 3.0) for figure in record.figures.values())


def test_an_ascii_grid_ruled_with_plus_and_dashes_reads_its_rows_under_its_header() -> None:
    # EricLBuehler/mistral.rs#139: mistralrs-bench's `+----+` grid, a rule between every row
    rule = "+------------------+---------+--------+---------------+-------------+\n"
    text = (rule + "| model            | backend | test   | t/s           | concurrency |\n" + rule
            + "| Mistral-7B       | CUDA    | tg 128 |  73.838±0.496 |           1 |\n" + rule
            + "| Mistral-7B       | CUDA    | tg 256 |  71.2±0.3     |           4 |\n" + rule)
    records = read_benchmark_output(text).records
    assert [(r.value, r.concurrency) for r in records] == [(73.838, 1), (71.2, 4)]


@pytest.mark.parametrize("label", ["TTFT P50 (ms)", "Median TTFT (ms)", "ttft_p50_ms"])
def test_the_50th_percentile_is_the_median_however_it_is_printed(label: str) -> None:
    # tenstorrent/tt-inference-server#1707: a report's `TTFT P50 (ms)` column
    text = f"| Concur | {label} | Tok/s |\n|---|---|---|\n| 1 | 73.2 | 24.33 |\n"
    [record] = read_benchmark_output(text).records
    assert record.figures["ttft_ms_median"] == 73.2 and "ttft_ms_p50" not in record.figures


@pytest.mark.parametrize(("header", "row", "accept_length", "acceptance_rate"), [
    # ikawrakow/ik_llama.cpp#2156: llama-spec-bench's `rate` and `a.len` columns
    ("| task | tok/s | accepted | rate | a.len |", "| code | 68.58 | 538/660 | 81.52% | 3.45 |", 3.45, 0.8152),
    ("| task | tok/s | rate | accept length |", "| chat | 70.1 | 0.74 | 2.9 |", 2.9, 0.74),
])
def test_a_bare_rate_column_beside_an_accept_length_is_the_acceptance_rate(
        header: str, row: str, accept_length: float, acceptance_rate: float) -> None:
    rule = "|" + "---|" * (header.count("|") - 1)
    [record] = read_benchmark_output(f"{header}\n{rule}\n{row}\n").records
    assert record.accept_length == accept_length
    assert record.figures["acceptance_rate"] == pytest.approx(acceptance_rate)
    assert "rate" not in record.figures


def test_per_minute_rates_named_by_what_they_count_are_one_result_in_per_second() -> None:
    # AI-Hypercomputer/inference-benchmark#4: `Output_tokens/min`, `Input_tokens/min`, `Tokens/min`
    text = ("Requests/min: 62.30\nOutput_tokens/min: 13539.97\nInput_tokens/min: 5607.26\n"
            "Tokens/min: 19147.23\nAverage Time to First Token (s): 0.51\n")
    [record] = read_benchmark_output(text).records
    assert (record.metric, record.value) == ("output_tok_s", pytest.approx(225.666, abs=1e-3))
    assert record.figures["prompt_tok_s"] == pytest.approx(93.454, abs=1e-3)
    assert record.figures["total_tok_s"] == pytest.approx(319.12, abs=1e-2)


@pytest.mark.parametrize(("header", "row", "expected"), [
    # UbiquitousLearning/mllm#620: mllm-llm-benchmark's CSV, speeds without units in the header
    ("model_name,pp,tg,ttft_ms,prefill_speed,decode_speed", "tiny_llama,8,4,439.039,19.8621,5.04427",
     ("output_tok_s", 5.04427, 19.8621)),
    ("model,prefill speed,decode speed", "qwen,812.5,41.2", ("output_tok_s", 41.2, 812.5)),
])
def test_a_decode_or_prefill_speed_without_a_unit_is_a_token_rate(
        header: str, row: str, expected: tuple[str, float, float]) -> None:
    [record] = read_benchmark_output(f"{header}\n{row}\n").records
    assert (record.metric, record.value, record.figures["prompt_tok_s"]) == expected


def test_a_bar_redrawn_over_itself_and_wrapped_reads_its_latest_redraw() -> None:
    # huggingface/lighteval#1063: vLLM's bar in a narrow terminal, the second redraw drawn over the
    # cut first (`outp`, `ProceProcessed`) and its tail wrapped onto a line of its own
    text = ("Processed prompts:  16%|▏| 1456/9263 [37:28<11:01:04,  5.08s/it, est. speed input: 86.99 toks/s, outp"
            "          ProceProcessed prompts:  64%|██████\n\n"
            "| 5971/9263 [2:16:18<1:17:49,  1.42s/it, est. speed input: 72.62 toks/s, output: 2683.22 toks/s]\n")
    [record] = read_benchmark_output(text).records
    assert (record.value, record.figures["prompt_tok_s"]) == (2683.22, 72.62)
    assert not any(name.isdigit() for name in record.figures)


def test_a_times_cell_is_its_number_and_a_per_req_rate_is_per_user() -> None:
    # waybarrios/vllm-mlx#82: concurrency as bold `**×4**` cells, `Per-req tok/s` beside `Agg tok/s`
    text = ("### Concurrency Matrix (MTP enabled, 2 rounds averaged)\n\n"
            "| Concurrency | Agg tok/s | Per-req tok/s | TTFT p50 |\n|---|---|---|---|\n"
            "| **×1** | 16.5 | 41.1 | 475ms |\n| **×4** | 68.2 | 27.0 | 370ms |\n")
    records = read_benchmark_output(text).records
    assert [(r.concurrency, r.value, r.figures["per_user_output_tok_s"]) for r in records] == [
        (1, 16.5, 41.1), (4, 68.2, 27.0)]
    arch = "| arch | tok/s |\n|---|---|\n| x86 | 12.5 |\n"  # a plain `x` is a letter, not a times sign
    assert [(r.value, r.figures) for r in read_benchmark_output(arch).records] == [(12.5, {})]


@pytest.mark.parametrize("column", ["pos accept", "accept per position"])
def test_a_cell_of_percentages_under_a_per_position_column_gives_each_positions_rate(column: str) -> None:
    # ikawrakow/ik_llama.cpp#2156: llama-spec-bench's last column, one rate per draft position
    text = (f"| task | tok/s | a.len | {column} |\n|---|---|---|---|\n"
            "| code | 68.58 | 3.45 | 90.5% 80.5% 73.6% |\n")
    [record] = read_benchmark_output(text).records
    positions = [record.figures[f"accept_pos_{i}"] for i in (1, 2, 3)]
    assert positions == pytest.approx([0.905, 0.805, 0.736]) and "accept_pos_4" not in record.figures


@pytest.mark.parametrize("table", [
    # tabulate's `simple` (dash rule) and `rst` (`=` rules above and below), first column a setting
    "  conc    tok/s    ttft_ms\n------  -------  ---------\n     1     45.2      120.5\n     8    301.7      180.2\n",
    "======  =======  =========\nconc    tok/s    ttft_ms\n======  =======  =========\n"
    "1       45.2     120.5\n8       301.7    180.2\n======  =======  =========\n",
    "+--------+---------+---------+\n| batch  |   tok/s | ttft_ms |\n+========+=========+=========+\n"
    "| 1      |    45.2 |   120.5 |\n+--------+---------+---------+\n| 8      |   301.7 |   180.2 |\n",
])
def test_tables_with_unusual_rules_and_a_setting_first_read_a_result_per_row(table: str) -> None:
    records = read_benchmark_output(table).records
    assert [(r.value, r.concurrency or r.batch_size) for r in records] == [(45.2, 1), (301.7, 8)]


@pytest.mark.parametrize(("text", "expected"), [
    # freeletics/ollama-benchmark results/macbook_air_m2_24GB.md: per-prompt `eval rate:` lines, then
    # the tool's `Average of eval rate:` per model, with the next model's name line in between
    ("model_name =    mistral:7b\nprompt = Write a guide\neval rate:            18.52 tokens/s\n"
     "prompt = Develop a function\neval rate:            19.10 tokens/s\n--------------------\n"
     "Average of eval rate:  19.17  tokens/s\n----------\nmodel_name =    phi4:14b\n"
     "prompt = Write a guide\neval rate:            8.67 tokens/s\n--------------------\n"
     "Average of eval rate:  6.828  tokens/s\n", [19.17, 6.828]),
    # noonghunna/club-3090#46: warmups and measured runs, then a summary heading over one line per
    # statistic (wall_TPS, decode_TPS): one result, its generation rate the headline
    ("=== measured (2) ===\n"
     "  run-1      wall= 11.34s  ttft=   129ms  toks=1000  wall_TPS= 88.16  decode_TPS= 89.17\n"
     "  run-2      wall= 10.71s  ttft=   100ms  toks=1000  wall_TPS= 93.40  decode_TPS= 94.28\n\n"
     "=== summary [narrative] (n=2) ===\n"
     "  wall_TPS       mean=  90.78   std=  2.48   CV= 2.7%   min=88.16   max=93.40\n"
     "  decode_TPS     mean=  91.72   std=  2.49   CV= 2.7%   min=89.17   max=94.28\n"
     "  TTFT          mean=   114ms  std=   15ms  min=100ms  max=129ms\n", [91.72]),
    # AI-Hypercomputer/inference-benchmark#27: one JSON report; `sd_` is a standard deviation, not
    # another mean that would start a second result
    ('      "benchmark_time":84.41,\n      "throughput_rps":1.18,\n      "throughput":248.16,\n'
     '      "total_output_token":20947,\n      "output_tokens_per_min":14889.6,\n'
     '      "avg_TTFT":5.87,\n      "sd_TTFT":10.76,\n      "avg_ITL":0.098,\n      "sd_ITL":0.18,\n      "avg_latency":26398.2,\n',
     [248.16]),
])
def test_a_result_printed_with_its_runs_or_statistics_is_counted_once(text: str, expected: list[float]) -> None:
    assert [r.value for r in read_benchmark_output(text).records] == expected


def test_a_line_of_figures_without_a_rate_right_under_a_result_completes_it() -> None:
    # noonghunna/club-3090#46: the summary's TTFT line under its rate lines
    text = ("=== summary [narrative] (n=5) ===\n"
            "  decode_TPS     mean=  93.56   std=  2.49   CV= 2.7%   min=89.17   max=95.35\n"
            "  TTFT          mean=   117ms  std=   15ms  min=100ms  max=129ms\n")
    [record] = read_benchmark_output(text).records
    assert (record.value, record.figures["ttft_ms_mean"]) == (93.56, 117)


def test_a_command_continued_over_backslash_lines_gives_its_load_once() -> None:
    # QwenLM/Qwen3#1536: `--max-concurrency 1` and `--request-rate 1` on separate lines of one
    # benchmark_serving.py command, the block below printing neither
    text = ("python3 benchmarks/benchmark_serving.py \\\n  --backend vllm \\\n  --max-concurrency 1 \\\n"
            "  --request-rate 1 \\\n  --random-output-len 200\n\n"
            "============ Serving Benchmark Result ============\nSuccessful requests:                     30\n"
            "Benchmark duration (s):                  223.53\nTotal input tokens:                      480000\n"
            "Total generated tokens:                  6000\nRequest throughput (req/s):              0.13\n"
            "Output token throughput (tok/s):         26.84\nTotal Token throughput (tok/s):          2174.16\n"
            "==================================================\n")
    [record] = read_benchmark_output(text).records
    assert (record.value, record.concurrency, record.figures["request_rate"]) == (26.84, 1, 1.0)


def test_a_generating_n_tokens_note_heads_the_generation_rate() -> None:
    # turboderp/exllama#6: the first pass's `** Speed:` over the prompt, then `-- Generating 128
    # tokens...` over the generation's `** Speed:`, the rate the run measured
    text = (" -- Inference, first pass.\n ** Time, Inference: 0.50 seconds\n ** Speed: 8.06 tokens/second\n"
            " -- Generating 128 tokens...\n ** Speed: 28.56 tokens/second\n")
    assert [(r.metric, r.value) for r in read_benchmark_output(text).records] == [("output_tok_s", 28.56)]


def test_a_spaced_table_whose_rows_start_with_several_name_cells_is_read_per_row() -> None:
    # huggingface/nanoVLM#52: a pandas DataFrame, index column, two model-name columns before the numbers
    text = ("                 vit_model_type         lm_model_type  avg_time_to_first_token"
            "  avg_tokens_per_sec_after_first\n"
            "0  google/siglip2-base-patch16-256  HuggingFaceTB/SmolLM2-135M      0.039273      30.556697\n"
            "1  google/siglip2-base-patch16-256  HuggingFaceTB/SmolLM2-360M      0.041191      28.825869\n")
    records = read_benchmark_output(text).records
    assert [(r.value, r.config) for r in records] == [
        (30.556697, "google/siglip2-base-patch16-256 HuggingFaceTB/SmolLM2-135M"),
        (28.825869, "google/siglip2-base-patch16-256 HuggingFaceTB/SmolLM2-360M")]


# Layouts seen only in screenshots or described in issues so far (no text paste in the corpus yet):
# LM Studio's chat stats line between bullets, a draft's `accepted N/M`, a table copied as tabs.
@pytest.mark.parametrize(("text", "value", "figures"), [
    ("45.21 tok/sec • 210 tokens • 4.65s to first token\n", 45.21, {"tokens": 210.0}),
    ("18.72 tok/sec • 1024 tokens • 0.31s to first token • Stop reason: EOS Token Found\n", 18.72,
     {"tokens": 1024.0}),
    ("generation: 52.10 tok/s, accepted 120/200 draft tokens\n", 52.10,
     {"accepted_tokens": 120.0, "draft_tokens": 200.0, "acceptance_rate": 0.6}),
    ("model\tconcurrency\toutput_tok_s\tttft_ms\nllama-8b\t8\t512.7\t88.3\n", 512.7, {"ttft_ms_mean": 88.3}),
])
def test_bullets_fractions_and_tabs_read_as_their_cells(text: str, value: float, figures: dict) -> None:
    [record] = read_benchmark_output(text).records
    assert (record.metric, record.value) == ("output_tok_s", value)
    assert figures.items() <= record.figures.items()


def test_each_table_row_is_a_result_even_where_it_repeats_the_row_above() -> None:
    # NexVeridian/llm-inference-benchmarks README: a row printed twice (measured twice) and a row whose
    # speculative cells are `-` where the row above named a draft model
    text = ("| Size (B) | Speed (T/s) | Model | Quant | Spec Dec (B) | Spec Quant |\n"
            "|---|---|---|---|---|---|\n"
            "| 32 | 30 | qwen 2.5 | 4 | 1.5 | 4 |\n| 32 | 30 | qwen 2.5 | 4 | 1.5 | 4 |\n"
            "| 32 | 16 | qwq | 4 | 7 | 8 |\n| 32 | 16 | qwq | 6 | - | - |\n")
    assert [r.value for r in read_benchmark_output(text).records] == [30, 30, 16, 16]


def test_a_metric_value_unit_table_takes_its_unit_from_the_unit_column() -> None:
    # DerekLiu35/huggingface-quantization-benchmarking-code runs/llama_torchao_int4wo/benchmark_report.md:
    # optimum-benchmark's report, a `| metric | value | unit |` table per phase heading
    text = ("# prefill:\n\n## throughput:\n\n| metric     |     value   |   unit |\n| :--------- | --------:   | -----: |\n"
            "| throughput | 16.67 | samples/s |\n# decode:\n\n## throughput:\n\n| metric     |     value   |   unit |\n"
            "| :--------- | --------:   | -----: |\n| throughput | 24.98 | tokens/s |\n")
    assert [(r.metric, r.value) for r in read_benchmark_output(text).records] == [("output_tok_s", 24.98)]


def test_a_table_of_latencies_alone_pasted_with_excel_markup_is_read_per_row() -> None:
    # NVIDIA/FasterTransformer#331: Excel's clipboard HTML around a `FT latency (ms)` table, units glued on
    text = ("<div ccp_infra_version='3' ccp_infra_timestamp='1664341992976'><html><head>"
            "<meta name=Generator content=\"Microsoft Excel 15\"></head><body link=\"#0563C1\">\n\n"
            "model_size | batch_size | input_length | output_length | FT latency (ms)\n-- | -- | -- | -- | --\n"
            "345m | 1 | 60 | 80 | 233.83ms\n345m | 4 | 60 | 80 | 223.45ms\n\n</body></html></div>\n")
    records = read_benchmark_output(text).records
    assert [(r.metric, r.batch_size) for r in records] == [("latency_s", 1), ("latency_s", 4)]
    assert [r.value for r in records] == pytest.approx([0.23383, 0.22345])
    assert not any("ccp_infra_timestamp" in r.figures for r in records)


@pytest.mark.parametrize("line", ["model_name =    phi4:14b", "pulling deepseek-r1:8b", "qwen2.5:0.5b"])
def test_an_ollama_tag_size_names_a_model_and_is_no_figure(line: str) -> None:
    # freeletics/ollama-benchmark: the next model's `model_name = phi4:14b` line under an average
    [record] = read_benchmark_output(f"eval rate:  19.17  tokens/s\n{line}\n").records
    assert record.figures == {}


_V0_LINE = ("INFO 03-27 15:48:{s} metrics.py:467] Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: "
            "{rate} tokens/s, Running: 1 reqs, Swapped: 0 reqs, Pending: 0 reqs, GPU KV cache usage: 0.0%, "
            "CPU KV cache usage: 0.0%.\n")


@pytest.mark.parametrize(("rates", "median"), [((9.9, 13.6, 13.6), 13.6), ((9.9, 13.6), 11.75)])
def test_a_periodic_log_line_reading_the_same_rate_again_is_another_reading(
        rates: tuple[float, ...], median: float) -> None:
    # CSCfi/ai-inference-examples#3: vLLM V0's metrics line, the same rate twice in a row
    text = "".join(_V0_LINE.format(s=10 + 5 * i, rate=rate) for i, rate in enumerate(rates))
    [record] = read_benchmark_output(text).records
    assert (record.value, record.figures["log_lines"]) == (median, len(rates))


def test_log_lines_wrapped_at_the_terminal_width_or_glued_are_one_reading_each() -> None:
    # tenstorrent/tt-inference-server#246: vLLM V0's lines wrapped at 130 columns, one glued to the next
    head = "INFO 07-03 23:23:{s} [metrics.py:536] Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: "
    wrapped = "{rate} tokens/s, Running: 32 r\neqs, Swapped: 0 reqs, Pending: 0 reqs, GPU KV cache usage: 17.6%.\n"
    text = (head.format(s=42) + wrapped.format(rate=616.1) + head.format(s=47)
            + "597.0 tokens/s, Running: 32 $" + head.format(s=53) + wrapped.format(rate=589.1)
            + head.format(s=58) + wrapped.format(rate=579.6))
    [record] = read_benchmark_output(text).records
    assert (record.value, record.figures["log_lines"]) == (pytest.approx(593.05), 4)


def test_each_markdown_heading_printing_a_rate_heads_a_result_of_its_own() -> None:
    # SafeAILab/EAGLE#173: `## ...: N token/s` headings, a launch command fenced under some
    text = ("## Official eagle code: 200 token/s\nsee https://github.com/SafeAILab/EAGLE\n\n"
            "## Normal decoding speed (SGLang): 156 token/s\n```\npython3 -m sglang.launch_server --model m\n```\n"
            "## Eagle decoding speed (SGLang): 297 token/s\n")
    records = read_benchmark_output(text).records
    assert [(r.metric, r.value) for r in records] == [("output_tok_s", 200), ("output_tok_s", 156),
                                                      ("output_tok_s", 297)]
    assert records[0].config == "Official eagle code"


@pytest.mark.parametrize(("title", "metric"), [("Output tokens/s on H100 BS1", "output_tok_s"),
                                               ("Results on H100", None)])
def test_values_without_a_unit_take_the_rate_a_title_above_names(title: str, metric: str | None) -> None:
    # vllm-project/vllm#16937: a typed list of EAGLE draft lengths under the unit's title
    text = (f"{title}\n\nvanilla (`meta-llama/Llama-3.1-8B-Instruct`): 133\n\n"
            "EAGLE 1 (`yuhuili/EAGLE-LLaMA3.1-Instruct-8B`):\n* K=2: 201.69, speedup:  1.51x\n"
            "* K=4: 198, speedup: 1.48x\n")
    records = read_benchmark_output(text).records
    assert [(r.metric, r.value) for r in records] == (
        [(metric, 133), (metric, 201.69), (metric, 198)] if metric else [])


@pytest.mark.parametrize("rule", ["----------------------------------\n", ""])
def test_a_spaced_table_indented_over_its_name_cells_reads_its_phase_columns_as_rates(rule: str) -> None:
    # mlc-ai/mlc-llm#1359: MLCChat's prefill and decode rates per device, no units
    text = (f"                Prefill     Decode\n{rule}xiaomi 14             7         10\n"
            "iphone 15 pro        56          9\n")
    records = read_benchmark_output(text).records
    assert [(r.config, r.metric, r.value, r.figures["prompt_tok_s"]) for r in records] == [
        ("xiaomi 14", "output_tok_s", 10, 7), ("iphone 15 pro", "output_tok_s", 9, 56)]


@pytest.mark.parametrize(("text", "expected"), [
    # waybarrios/vllm-mlx#531: rates in an object named by their unit, beside requests_per_second
    ('{\n  "tokens_per_second": {\n    "generation_mean": 284.2,\n    "processing_mean": 147.3\n  },\n'
     '  "requests_per_second": 1.03\n}\n', (284.2, {"prompt_tok_s": 147.3})),
    # magicnight/Mac-MLX#62: camelCase keys ending in an acronym, `generationTPS` and `promptTPS`
    ('{\n  "completionTokens" : 611,\n  "generationTPS" : 81.8,\n  "promptTPS" : 4919.4,\n'
     '  "ttftMs" : 312.2\n}\n', (81.8, {"prompt_tok_s": 4919.4})),
])
def test_a_json_key_names_its_rate_in_its_parent_object_or_in_camel_case(
        text: str, expected: tuple[float, dict[str, float]]) -> None:
    [record] = read_benchmark_output(text).records
    value, figures = expected
    assert record.metric == "output_tok_s" and record.value == value
    assert {name: record.figures[name] for name in figures} == figures


# Two tools' results pasted one after the other (an SGLang block then a vLLM block, as in an
# issue comparing the engines): both are read, in the order they were printed. The blocks are the
# real pastes of tests/fixtures/bench (sources in its INDEX.md).
BENCH = Path(__file__).parent.parent / "fixtures" / "bench"
PAIRS = [("sglang_bench_serving.txt", "vllm_bench_serve.txt"),
         ("vllm_bench_serve.txt", "sglang_bench_serving.txt"),
         ("trtllm_bench_streaming.txt", "llama_speculative.txt"),
         ("llama_speculative.txt", "trtllm_bench_streaming.txt")]


@pytest.mark.parametrize(("first", "second"), PAIRS)
def test_two_tools_pasted_one_after_the_other_give_both_records_in_order(first: str, second: str) -> None:
    alone = [read_benchmark_output((BENCH / name).read_text()).records for name in (first, second)]
    both = read_benchmark_output((BENCH / first).read_text() + "\n" + (BENCH / second).read_text())
    assert [(r.source_format, r.value) for r in both.records] == [
        (r.source_format, r.value) for records in alone for r in records]


def test_a_note_of_what_the_time_includes_does_not_name_the_rate() -> None:
    # turboderp/exllamav2 test_inference.py: print(f" -- Response generated in {total_gen:.2f}
    # seconds, {args.tokens} tokens, {args.tokens / total_gen:.2f} tokens/second (includes prompt
    # eval.)"); the figures are from a public example run of it quoted in a tutorial
    text = "\n -- Response generated in 1.52 seconds, 128 tokens, 84.43 tokens/second (includes prompt eval.)\n"
    (record,) = read_benchmark_output(text).records
    assert (record.metric, record.value) == ("output_tok_s", 84.43)


# turboderp/exllamav2 test_inference.py @ b9c025b4b1ee78c0d34e700f2e474a02dfb13c90, `-ps`:
# print(f" -- Measuring prompt speed...") then f" ** Length {current_len:>5} tokens: {tps:>11.4f} t/s";
# `-s`: f" -- Measuring token speed..." then f" ** Position {current_idx:>5} + {tokens:>3} tokens:
# {tps:>9.4f} t/s" (the figures are made up in that shape): a heading naming the phase it measures
# makes the rates under it that phase's.
@pytest.mark.parametrize(("text", "metric"), [
    (" -- Measuring prompt speed...\n ** Length   128 tokens:   1983.7234 t/s\n"
     " ** Length   256 tokens:   3468.9571 t/s\n", "prompt_tok_s"),
    (" -- Measuring token speed...\n ** Position     1 + 127 tokens:   86.4321 t/s\n"
     " ** Position   128 + 128 tokens:   85.1234 t/s\n", "output_tok_s"),
])
def test_a_heading_naming_what_it_measures_names_the_rates_under_it(text: str, metric: str) -> None:
    records = read_benchmark_output(text).records
    assert [r.metric for r in records] == [metric, metric]
    assert [r.value for r in records] == [float(line.split()[-2]) for line in text.splitlines()[1:]]


# ollama cmd/cmd.go displayResponse/Summary ('eval rate:            %.2f tokens/s', `--verbose`)
# printed above a llama-bench table (the real paste tests/fixtures/bench/llama_bench.md): the
# generic reader's result above the known tool's comes first, and one below it (after an SGLang
# bench_serving block, tests/fixtures/bench/sglang_bench_serving.txt) is read too; llama.cpp's own
# timings under its lone `draft:` heading (the speculative example prints `draft:` alone over a
# blank line before the draft context's perf lines, as the corpus's b16 llama_speculative pastes
# show, one with an EAGLE3 draft's `llama_perf_context_print:` lines) stay unread.
OLLAMA_VERBOSE = ("total duration:       5.6123s\nload duration:        12.345ms\n"
                  "prompt eval count:    26 token(s)\nprompt eval duration: 123.456ms\n"
                  "prompt eval rate:     210.60 tokens/s\neval count:           298 token(s)\n"
                  "eval duration:        5.4s\neval rate:            55.19 tokens/s\n")


def test_an_unknown_tools_result_above_a_known_ones_is_read_first() -> None:
    table = read_benchmark_output((BENCH / "llama_bench.md").read_text()).records
    both = read_benchmark_output(OLLAMA_VERBOSE + "\n" + (BENCH / "llama_bench.md").read_text())
    assert [(r.source_format, r.value) for r in both.records] == [
        ("generic", 55.19), *((r.source_format, r.value) for r in table)]


def test_an_unknown_tools_result_below_a_known_ones_is_read_after_it() -> None:
    sglang = (BENCH / "sglang_bench_serving.txt").read_text()
    (known,) = read_benchmark_output(sglang).records
    both = read_benchmark_output(sglang + "\n" + OLLAMA_VERBOSE).records
    assert [(r.source_format, r.value) for r in both] == [(known.source_format, known.value), ("generic", 55.19)]


@pytest.mark.parametrize("name", ["llama_speculative_simple_eagle3_with_draft_perf.txt",
                                  "llama_speculative_2023_poc_generated_line.txt"])
def test_a_known_tools_sections_under_its_lone_heading_are_not_another_result(name: str) -> None:
    text = (BENCH.parent / "corpus" / "bench" / "b16" / name).read_text()
    assert [r.source_format for r in read_benchmark_output(text).records] == ["llama.cpp.speculative"]


# vllm-project/vllm benchmarks/benchmark_latency.py @ 00db02095a5d578c18383609a00fa0c6e7fc8db8:
# print(f"Avg latency: {np.mean(latencies)} seconds"), then for each of [10, 25, 50, 75, 90, 99]
# print(f"{percentage}% percentile latency: {percentile} seconds") (figures made up in that shape);
# `N% percentile` / `Nth percentile` is the statistic `pN`, not a number of its own.
def test_percentile_lines_are_the_statistics_of_the_runs_latency() -> None:
    text = "Avg latency: 1.2345678901 seconds\n" + "".join(
        f"{p}% percentile latency: {v} seconds\n" for p, v in ((10, 1.2001), (50, 1.2301), (99, 1.3001)))
    (record,) = read_benchmark_output(text).records
    assert (record.metric, record.value) == ("latency_s", 1.2345678901)
    assert {k: v for k, v in record.figures.items() if k.startswith("latency_s_")} == {
        "latency_s_p10": 1.2001, "latency_s_median": 1.2301, "latency_s_p99": 1.3001}


# vllm-project/vllm benchmarks/benchmark_throughput.py @ 018efffdeb96c6d943927720528be877e0fe3f23
# (2024): print(f"Throughput: {len(requests) / elapsed_time:.2f} requests/s, "
# f"{total_num_tokens / elapsed_time:.2f} tokens/s"), total_num_tokens counting prompt and output;
# later versions add `total tokens/s, N output tokens/s` (the corpus's b01 vllm-benchmark-throughput).
@pytest.mark.parametrize(("text", "metric", "value"), [
    ("Throughput: 4.52 requests/s, 2313.47 tokens/s\n", "total_tok_s", 2313.47),
    ("Throughput: 4.52 requests/s, 2313.47 total tokens/s, 1156.74 output tokens/s\n", "output_tok_s", 1156.74),
])
def test_vllm_benchmark_throughput_lines_of_each_version(text: str, metric: str, value: float) -> None:
    (record,) = read_benchmark_output(text).records
    assert (record.metric, record.value, record.figures["request_throughput"]) == (metric, value, 4.52)


def _lmdeploy_row(name: str, *items: object) -> str:
    """One line of LMDeploy's Profiler.summarize table, formatted as its tab_row does."""
    cells = "".join(f"{x:>10.3f}" if isinstance(x, float) else f"{x:>10}" for x in items)
    return f"{name:<40}{cells}\n"


# InternLM/lmdeploy lmdeploy/profiler.py @ 1263d5cd889b7ad500e85b8eb20401327a4516ab, Profiler.summarize
# (benchmark/profile_throughput.py, profile_pipeline_api.py): a '= Profile Throughput =' banner,
# `tab_row(name, *items)` lines, then `tab_row('', 'mean', *(f'P{q}' ...))` over one row per
# latency, its times in seconds (time.perf_counter) printed without a unit; figures made up.
def test_lmdeploy_profiler_statistics_are_named_by_row_and_column_in_seconds() -> None:
    text = ("\n" + " Profile Throughput ".center(90, "=") + "\n" + _lmdeploy_row("Benchmark duration", 61.234)
            + _lmdeploy_row("Concurrency", 256) + _lmdeploy_row("Output throughput (tok/s)", 3211.018)
            + _lmdeploy_row("Request throughput (req/s)", 16.331) + "-" * 90 + "\n"
            + _lmdeploy_row("", "mean", "P50", "P75", "P95", "P99")
            + _lmdeploy_row("End-to-end Latency", 14.123, 13.5, 18.2, 25.1, 30.4)
            + _lmdeploy_row("Time to First Token (TTFT)", 1.234, 0.9, 1.5, 3.2, 5.1) + "=" * 90 + "\n")
    (record,) = read_benchmark_output(text).records
    assert (record.metric, record.value, record.concurrency) == ("output_tok_s", 3211.018, 256)
    figures = record.figures
    assert (figures["e2e_ms_mean"], figures["e2e_ms_p99"]) == (14123.0, 30400.0)
    assert (figures["ttft_ms_mean"], figures["ttft_ms_median"], figures["ttft_ms_p95"]) == (1234.0, 900.0, 3200.0)


# ray-project/llmperf token_benchmark_ray.py @ f1d6bed47e4501b0e371082b41601b59ab55269f, metrics_summary:
# print(key) for each of inter_token_latency_s, ttft_s, end_to_end_latency_s,
# request_output_throughput_token_per_s, number_input_tokens, number_output_tokens, then
# print(f"    {reformatted_key} = {value}") for p25..p99, `    mean = `, `    min = `, `    max = `,
# `    stddev = `; then print(f"Overall Output Throughput: {overall_output_throughput}") (figures made up)
def test_llmperf_statistics_under_a_bare_metric_name_are_that_metrics() -> None:
    sections = (("ttft_s", 0.41), ("end_to_end_latency_s", 5.2), ("request_output_throughput_token_per_s", 47.5),
                ("number_output_tokens", 150.0))
    text = "".join(f"{key}\n    p50 = {value * 1.1}\n    p99 = {value * 2}\n    mean = {value}\n"
                   f"    stddev = {value / 10}\n" for key, value in sections)
    (record,) = read_benchmark_output(text + "Overall Output Throughput: 451.7234\n").records
    assert (record.metric, record.value) == ("output_tok_s", 451.7234)
    figures = record.figures
    assert figures["ttft_ms_mean"] == pytest.approx(410.0) and figures["ttft_ms_p99"] == pytest.approx(820.0)
    assert figures["e2e_ms_median"] == pytest.approx(5720.0) and figures["e2e_ms_std"] == pytest.approx(520.0)
    assert (figures["per_user_output_tok_s_mean"], figures["number_output_tokens_mean"]) == (47.5, 150.0)


# triton-inference-server/client genai-perf/genai_perf/export_data/csv_exporter.py @
# 06a601cb4caaf2af227875d8c68879a2c5ce226f: REQUEST_METRICS_HEADER `Metric,avg,min,max,p99,p95,p90,p75,p50,p25`,
# rows `metric.name.replace("_", " ").title()` + ` (unit)` with f"{value:,.2f}" cells (csv quotes
# `"1,430.58"`), a blank row, then `Metric,Value` rows (figures made up): each row is read under every
# statistic column, not only its first.
def test_genai_perf_csv_export_rows_are_read_under_every_statistic() -> None:
    stats = "avg,min,max,p99,p95,p90,p75,p50,p25"
    text = (f"Metric,{stats}\nTime To First Token (ms),20.65,15.28,109.55,75.21,30.10,24.73,21.34,19.80,18.20\n"
            'Request Latency (ms),"1,430.58","1,180.52","1,600.08","1,590.41","1,560.00","1,520.21",'
            '"1,480.90","1,420.00","1,390.00"\n\n'
            "Metric,Value\nOutput Token Throughput (per sec),139.60\nRequest Throughput (per sec),0.70\n")
    (record,) = read_benchmark_output(text).records
    assert (record.metric, record.value, record.figures["request_throughput"]) == ("output_tok_s", 139.6, 0.7)
    assert [record.figures[f"ttft_ms_{s}"] for s in ("mean", "p99", "median", "p25")] == [20.65, 75.21, 19.8, 18.2]
    assert (record.figures["e2e_ms_mean"], record.figures["e2e_ms_p99"]) == (1430.58, 1590.41)


# vllm-project/guidellm src/guidellm/benchmark/output.py print_benchmarks_stats: v0.2.1 groups its
# request latencies, `f"{benchmark.metrics.request_latency.successful.mean:.2f}"` (seconds:
# benchmark.py's request_latency is `end_time - start_time`), under "Req Latency (ms)"; commit
# 4b4ab8ec (2025-05-01, #142, in v0.3.0) heads them "Req Latency (sec)". Both read as seconds.
@pytest.mark.parametrize("unit", ["ms)  ", "sec)"])
def test_guidellm_request_latencies_are_seconds_in_every_version(unit: str) -> None:
    text = ("Benchmarks Stats:\n" + "=" * 60 + "\n"
            f"Metadata     | Request Stats         || Out Tok/sec| Tot Tok/sec| Req Latency ({unit} |||\n"
            "    Benchmark| Per Second| Concurrency|        mean|        mean|  mean| median|   p99\n"
            "-------------|-----------|------------|------------|------------|------|-------|------\n"
            "  synchronous|       0.43|        1.00|       111.4|       222.6|  2.32|   2.30|  2.34\n" + "=" * 60 + "\n")
    (record,) = read_benchmark_output(text).records
    assert (record.metric, record.value, record.concurrency) == ("output_tok_s", 111.4, 1)
    assert [record.figures[f"e2e_ms_{s}"] for s in ("mean", "median", "p99")] == [2320.0, 2300.0, 2340.0]


# trtllm-bench before 0.17 (NVIDIA/TensorRT-LLM tensorrt_llm/bench reporting, read from a stored copy
# whose commit the code index did not name): f"Token Throughput (tokens/sec):\t{...:.4f}" (output
# tokens over the run) under `= PERFORMANCE OVERVIEW`, `= STATISTICS` with `Total Latency (seconds):`
# in the 0.12 docs' example, and `= STREAMING STATISTICS` averages; figures made up in those shapes.
@pytest.mark.parametrize(("tail", "figures"), [
    ("= STATISTICS\n" + "=" * 59 + "\nNumber of requests:             3000\n"
     "Token Throughput (tokens/sec):  23405.9272\nRequest Throughput (req/sec):   182.8588\n"
     "Total Latency (seconds):        16.4061\n", {"request_throughput": 182.8588}),
    ("= PERFORMANCE OVERVIEW \n" + "=" * 59 + "\nNumber of requests:\t\t3000\n"
     "Token Throughput (tokens/sec):\t23405.9272\nRequest Throughput (req/sec):\t182.8588\n"
     "Total Latency (ms):\t\t16406.1000\n\n" + "=" * 59 + "\n= STREAMING STATISTICS \n" + "=" * 59 + "\n"
     "Average time-to-first-token (ms):\t120.5000\nAverage inter-token latency (ms):\t9.2000\n",
     {"request_throughput": 182.8588, "ttft_ms_mean": 120.5, "itl_ms_mean": 9.2}),
])
def test_early_trtllm_bench_reports(tail: str, figures: dict[str, float]) -> None:
    (record,) = read_benchmark_output("=" * 59 + "\n" + tail + "=" * 59 + "\n").records
    assert (record.metric, record.value) == ("output_tok_s", 23405.9272)
    assert {key: record.figures[key] for key in figures} == figures


# vllm-project/vllm#24243: an EAGLE-3 test summary, one run under a line naming its load
EAGLE3_RUN = ("{samples} samples, {load}, single RTX 4090:\nTotal output tokens: {tokens}\n"
              "Mean acceptance length: {length}\n\nAcceptance rate at token 0: {first}\n"
              "Acceptance rate at token 1: 0.34\n\nSpeedup: 1.62\u00d7\n")


def test_per_position_rates_one_a_line_and_a_value_first_concurrency_are_read() -> None:
    text = (EAGLE3_RUN.format(samples=200, load="10 concurrency", tokens="106,678", length=2.47, first=0.58)
            + EAGLE3_RUN.format(samples=20, load="single concurrency", tokens="21,690", length=2.44, first=0.57)
            + "Average acceptance length: 2.44\n")  # the closing line repeats the last run's
    records = read_benchmark_output(text).records
    assert [(r.value, r.concurrency) for r in records] == [(2.47, 10), (2.44, None)]
    assert [(r.figures["accept_pos_1"], r.figures["accept_pos_2"]) for r in records] == [(0.58, 0.34), (0.57, 0.34)]


def test_a_rate_printed_as_zero_beside_measured_latencies_is_read_as_printed() -> None:
    # huggingface/tgi-gaudi#148: run_generation's summary printed 0.0 throughput (the reported bug)
    text = ("----- Performance  summary -----\nThroughput: 0.0 tokens/s\nThroughput: 0.0 queries/s\n"
            "--------------------------------\nFirst token latency:\n\tMedian: \t18783.24ms\n"
            "\tAverage: \t16835.90ms\n")
    records = read_benchmark_output(text).records
    assert [(r.metric, r.value, r.figures["ttft_ms_median"]) for r in records] == [("output_tok_s", 0.0, 18783.24)]
    idle = "Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 0.0 tokens/s, Running: 0 reqs\n"
    assert read_benchmark_output(idle).records == []  # zeros beside no latency measured nothing


LOGGED = "2024-05-01 10:00:{s:02d},123 - INFO - "


def test_a_scripts_results_printed_through_a_logger_are_results_not_one_periodic_line() -> None:
    # ollama/ollama#12742: `--verbose` before and after, as a script logging its runs prints them
    runs = [("Before:", 139356.80, 103.06), ("After:", 4212.03, 103.16)]
    lines = [line for title, prompt, rate in runs for line in (
        title, "eval count:           1873 token(s)", f"prompt eval rate:     {prompt} tokens/s",
        f"eval rate:            {rate} tokens/s", "")]
    text = "".join(f"{LOGGED.format(s=i)}{line}\n" for i, line in enumerate(lines))
    records = read_benchmark_output(text).records
    assert [(r.value, r.source_format) for r in records] == [(103.06, "generic"), (103.16, "generic")]


def test_a_table_printed_through_a_logger_is_read_as_a_table() -> None:
    # noamsto/nix-amd-ai#129: a llama-bench backend table, each line behind the same logging prefix
    table = ["| Backend | pp512 | tg128 |", "| --- | ---: | ---: |",
             "| ROCm (patched) | 1900.72 ± 33.74 t/s | 58.38 ± 0.11 t/s |",
             "| Vulkan | 2001.00 ± 2.60 t/s | 62.39 ± 0.04 t/s |"]
    text = "".join(f"{LOGGED.format(s=i)}{line}\n" for i, line in enumerate(table))
    assert [r.value for r in read_benchmark_output(text).records] == [58.38, 62.39]


@pytest.mark.parametrize("prefix", ["", LOGGED.format(s=0)])
def test_a_servers_periodic_line_prints_its_state_and_stays_one_summary(prefix: str) -> None:
    # vLLM V0's metrics line (Running/Swapped/Pending reqs, KV cache usage), also behind a second prefix
    text = "".join(prefix + _V0_LINE.format(s=10 + 5 * i, rate=rate) for i, rate in enumerate((9.9, 13.6, 13.6)))
    [record] = read_benchmark_output(text).records
    assert (record.source_format, record.value, record.figures["log_lines"]) == ("generic.server_log", 13.6, 3)


def test_a_logged_spaced_table_keeps_its_indented_header() -> None:
    # mlc-ai/mlc-llm#1359: `Prefill  Decode` indented over the device names, each line logged
    table = ["                Prefill     Decode", "----------------------------------",
             "xiaomi 14             7         10", "iphone 15 pro        56          9"]
    text = "".join(f"{LOGGED.format(s=i)}{line}\n" for i, line in enumerate(table))
    records = read_benchmark_output(text).records
    assert [(r.value, r.figures["prompt_tok_s"]) for r in records] == [(10, 7), (9, 56)]


def test_a_logged_closing_line_repeating_the_last_runs_figure_is_no_new_result() -> None:
    # vllm-project/vllm#24243's EAGLE-3 summary, logged: the closing average repeats the last run's
    text = (EAGLE3_RUN.format(samples=200, load="10 concurrency", tokens="106,678", length=2.47, first=0.58)
            + EAGLE3_RUN.format(samples=20, load="single concurrency", tokens="21,690", length=2.44, first=0.57)
            + "Average acceptance length: 2.44\n")
    logged = "".join(f"{LOGGED.format(s=0)}{line}\n" for line in text.splitlines())
    assert [r.value for r in read_benchmark_output(logged).records] == [2.47, 2.44]


@pytest.mark.parametrize("prefix", ["", LOGGED.format(s=0)])
def test_a_paste_cut_at_a_label_is_cut_behind_a_logger_prefix_too(prefix: str) -> None:
    # ollama/ollama#7911: `--verbose` lines cut after `eval`: no prompt-only result, logged or not
    lines = ["prompt eval count:    16 token(s)", "prompt eval rate:     231.88 tokens/s",
             "eval count:           32 token(s)", "eval"]
    assert read_benchmark_output("".join(f"{prefix}{line}\n" for line in lines)).records == []


def test_a_logged_blank_line_is_all_prefix_so_the_paste_reads_as_logged() -> None:
    # ggml-org/llama.cpp#2926: llama-speculative's summary, its blank lines logged as empty messages
    paste = (BENCH.parent / "corpus" / "bench" / "b16" / "llama_speculative_2023_poc_generated_line.txt").read_text()
    logged = "".join(f"{LOGGED.format(s=0)}{line}\n" for line in paste.splitlines())
    plain = [(r.metric, r.value, r.accept_length) for r in read_benchmark_output(paste).records]
    assert plain and [(r.metric, r.value, r.accept_length) for r in read_benchmark_output(logged).records] == plain


def test_a_logged_shell_commented_block_is_read_without_prefix_and_comment_mark() -> None:
    # yiliu30/vllm-fork scripts/pp_local_test_res.sh: two `# `-commented vllm serving blocks, logged
    paste = (BENCH.parent / "corpus" / "bench" / "b17" / "vllm_serving_blocks_shell_commented.txt").read_text()
    logged = "".join(f"{LOGGED.format(s=0)}{line}\n" for line in paste.splitlines())
    plain = [(r.value, r.concurrency) for r in read_benchmark_output(paste).records]
    assert len(plain) == 2 and [(r.value, r.concurrency) for r in read_benchmark_output(logged).records] == plain


def test_vllm_v0_speculative_metrics_lines_are_a_periodic_log() -> None:
    # vllm-project/vllm#9539: the metrics logger's `Speculative metrics:` line, printed every period
    line = ("INFO 10-16 19:05:{s} metrics.py:367] Speculative metrics: Draft acceptance rate: 0.642, System "
            "efficiency: 0.598, Number of speculative tokens: 3, Number of accepted tokens: {accepted}, "
            "Number of draft tokens: 13311, Number of emitted tokens: 10616.\n")
    text = "".join(line.format(s=10 + i, accepted=8547 + 100 * i) for i in range(3))
    [record] = read_benchmark_output(text).records
    assert (record.source_format, record.figures["log_lines"]) == ("generic.server_log", 3)


def test_a_json_result_the_paste_broke_across_lines_is_read_whole() -> None:
    # sgl-project/sglang#12389: a bench_serving JSONL record (with `Infinity`) wrapped after a key
    text = ('max_prefill:8192,max_running_requests:64\n{"backend": "sglang", "request_rate": Infinity, '
            '"max_concurrency": 32, "request_throughput": 0.4707, "output_throughput": 470.75, \n'
            '"median_itl_ms": 38.86, "concurrency": 30.64}\n')
    [record] = read_benchmark_output(text).records
    assert (record.metric, record.value, record.concurrency) == ("output_tok_s", 470.75, 32)


def test_a_value_printed_without_its_leading_zero_is_a_value() -> None:
    # geerlingguy/ai-benchmarks#17: obench's Markdown average row prints `.24 tokens/second`
    text = "| Run | Eval Rate (Tokens/Second) |\n|-----|-----|\n|**Average Eval Rate**| .24 tokens/second |\n"
    assert [(r.metric, r.value) for r in read_benchmark_output(text).records] == [("output_tok_s", 0.24)]


def test_a_banner_numbering_a_run_heads_it_even_when_it_repeats_the_last_run() -> None:
    # ollama/ollama#721: a taskset loop over `ollama run --verbose`, runs 2 and 3 alike
    text = "".join(f"==== Cortex-A78 ollama orca-mini run {n} ====\nprompt eval rate: 0.00 tokens/s\n"
                   f"eval rate: {rate} tokens/s\n" for n, rate in ((1, 14.82), (2, 13.17), (3, 13.17)))
    assert [r.value for r in read_benchmark_output(text).records] == [14.82, 13.17, 13.17]


def test_a_figure_printed_again_rounded_is_kept_in_its_own_unit() -> None:
    # GoogleCloudPlatform/ai-on-gke#866: per-minute rates, then the request rate per second rounded
    text = ("Requests/min: 164.67\nOutput_tokens/min: 19362.55\n"
            "Average throughput in requests per second: 2.74\n")
    [record] = read_benchmark_output(text).records
    assert (record.figures["request_throughput"], round(record.value, 3)) == (2.74, 322.709)



def test_runs_printed_to_the_same_digits_differ_by_a_last_digit() -> None:
    # the rounding allowed is the printed one (`12.50`: 0.005), not the float's (`12.5`: 0.05)
    text = "eval rate: 12.50 tokens/s\neval rate: 12.54 tokens/s\n"
    assert [r.value for r in read_benchmark_output(text).records] == [12.5, 12.54]


def test_a_bars_running_estimate_above_the_tools_summary_is_that_run_not_another() -> None:
    # vllm-project/vllm: LLM.generate's bar (vllm/entrypoints/llm.py, `est. speed input: {:.2f}
    # toks/s, output: {:.2f} toks/s`) then benchmarks/benchmark_throughput.py's `Throughput: {:.2f}
    # requests/s, {:.2f} total tokens/s, {:.2f} output tokens/s`: one run, read by its summary
    run = ("Processed prompts: 100%|██████████| 1000/1000 [00:53<00:00, 18.62it/s, est. speed input: "
           "4119.04 toks/s, output: 3696.76 toks/s]\n"
           "Throughput: {rps} requests/s, 7929.15 total tokens/s, {out} output tokens/s\n"
           "Total num prompt tokens:  220338\nTotal num output tokens:  199966\n")
    records = read_benchmark_output(run.format(rps=18.57, out=3713.87)).records
    assert [(r.metric, r.value) for r in records] == [("output_tok_s", 3713.87)]
    assert records[0].figures["request_throughput"] == 18.57
    two = run.format(rps=18.57, out=3713.87) + run.format(rps=9.1, out=1820.5)
    assert [r.value for r in read_benchmark_output(two).records] == [3713.87, 1820.5]


def test_a_model_size_inside_a_hyphenated_name_is_no_figure() -> None:
    # ray-project/llmperf token_benchmark_ray.py prints `Results for token benchmark for {model}
    # queried with the {llm_api} api.` over its summary, then `Overall Output Throughput: {}`
    text = ("Results for token benchmark for meta-llama/Llama-2-7b-chat-hf queried with the openai api.\n\n"
            "Number Of Errored Requests: 0\nOverall Output Throughput: 421.55374227428\n"
            "Number Of Completed Requests: 100\n")
    records = read_benchmark_output(text).records
    assert [(r.metric, round(r.value or 0, 2)) for r in records] == [("output_tok_s", 421.55)]
    assert not any(value == 7 for value in records[0].figures.values())


def test_a_snake_case_column_ending_in_its_unit_is_a_rate_of_that_unit() -> None:
    # NVIDIA/TensorRT-LLM tensorrt_llm/bench/dataclasses/reporting.py names its rates so
    # (`request_throughput_req_s`, `system_output_throughput_tok_s`); a sweep script's CSV with
    # Windows line ends and `qps,out_tok_s` columns: the output token rate is the headline, qps a figure
    text = "tag,concurrency,qps,out_tok_s,ttft_p50_ms\r\nfp8,1,0.203,52.0,41.9\r\nfp8,2,0.308,78.9,44.2\r\n"
    records = read_benchmark_output(text).records
    assert [(r.metric, r.value, r.concurrency) for r in records] == [("output_tok_s", 52.0, 1), ("output_tok_s", 78.9, 2)]
    assert records[0].figures["request_throughput"] == 0.203


def test_statistics_in_parentheses_after_a_value_are_that_quantitys() -> None:
    # sgl-project/mini-sglang python/minisgl/benchmark/client.py process_benchmark_results:
    # f"TTFT: {_fmt(avg)} ms (p50: {_fmt(p50)} ms, p90: ..., p99: ..., max: ...)", the E2E line in seconds
    text = (
        "[2026-01-05|15:58:35] INFO     Num requests: #200, Num tokens: #51200\n"
        "[2026-01-05|15:58:35] INFO     TTFT:  88.10 ms (p50:  70.20 ms, p90: 150.30 ms, p99: 310.40 ms, max: 402.50 ms)\n"
        "[2026-01-05|15:58:35] INFO     TPOT:  12.20 ms (p50:  11.10 ms, p90:  20.30 ms, p99:  55.40 ms, max:  90.50 ms)\n"
        "[2026-01-05|15:58:35] INFO     E2E:  3.2100  s (p50: 3.0100  s, p90: 4.5000  s, p99: 6.0200  s, max: 7.1000  s)\n"
        "[2026-01-05|15:58:35] INFO     Duration:  40.10 s\n"
        "[2026-01-05|15:58:35] INFO     Throughput:   1276 token/s, 4.9875 req/s\n"
    )
    [record] = read_benchmark_output(text).records
    assert (record.metric, record.value) == ("output_tok_s", 1276.0)
    want = {"ttft_ms_mean": 88.1, "ttft_ms_p99": 310.4, "tpot_ms_median": 11.1, "e2e_ms_p90": 4500.0,
            "request_throughput": 4.9875}
    assert {name: record.figures.get(name) for name in want} == pytest.approx(want)


def test_a_printed_argparse_namespace_gives_the_settings_of_the_result_below_it() -> None:
    # vllm-project/vllm benchmarks/benchmark_latency.py: `print(args)` at its start, then
    # print(f"Avg latency: {np.mean(latencies)} seconds"); a terminal may wrap the Namespace mid-word
    text = ("Namespace(batch_size=16, input_len=32, model='facebook/opt-6.7b', output_len=128, request_rate=inf, tens\n"
            "or_parallel_size=1)\nProfile step: 100%|██████| 3/3 [00:09<00:00,  3.02s/it]\n"
            "Avg latency: 3.0215 seconds\n")
    [record] = read_benchmark_output(text).records
    assert (record.metric, record.value, record.batch_size) == ("latency_s", 3.0215, 16)
    assert "request_rate" not in record.figures  # `inf`: no limit, not a rate


def test_a_total_the_rate_divides_by_is_its_time_not_its_tokens() -> None:
    # dezoito/ollama-grid-search src/components/experiment-data-dialog.tsx: `Throughput
    # (tokens/total_duration): {tokensPerSecond(total_duration, eval_count)} tokens/s`, output tokens
    text = "Eval Count: 120 tokens\nTotal Duration: 0h, 0m, 12s\nThroughput (tokens/total_duration): 9.81 tokens/s\n"
    assert [(r.metric, r.value) for r in read_benchmark_output(text).records] == [("output_tok_s", 9.81)]
    total = "Total token throughput: 53.97 tokens/s\n"  # a total of the tokens stays the total
    assert [(r.metric, r.value) for r in read_benchmark_output(total).records] == [("total_tok_s", 53.97)]


def test_perf_analyzers_stabilisation_passes_are_no_results() -> None:
    # triton-inference-server perf_analyzer inference_profiler.cc (verbose): `  Pass [n] throughput: x
    # infer/sec. Avg latency: ...` per stabilisation pass, then the Client section's measured throughput
    text = ("Request concurrency: 2\n"
            "  Pass [1] throughput: 301.5 infer/sec. Avg latency: 6630 usec (std 1200 usec)\n"
            "  Pass [2] throughput: 298.2 infer/sec. p95 latency: 8100 usec\n"
            "  Client: \n    Request count: 1490\n    Throughput: 298.0 infer/sec\n"
            "    Avg latency: 6700 usec (standard deviation 1190 usec)\n")
    parsed = read_benchmark_output(text)
    assert [(r.metric, r.value, r.concurrency) for r in parsed.records] == [("request_throughput", 298.0, 2)]


def test_the_users_sentences_beside_a_known_tools_table_are_no_other_result() -> None:
    # ggml-org/llama.cpp tools/llama-bench/llama-bench.cpp markdown_printer rows under a user's question
    # that quotes rates of its own (`72t/s`): only the table's rows are results
    text = ("On the old build I see tg speed stays around 72t/s. Now it says around 40 on mine.\n"
            "Can you run the same benchmark again with this build? What is your tg speed?\n\n"
            "| model | size | params | backend | ngl | test | t/s |\n"
            "| --- | ---: | ---: | --- | --: | ---: | ---: |\n"
            "| llama 7B Q4_0 | 3.56 GiB | 6.74 B | CUDA | 99 | pp512 | 2894.42 ± 10.78 |\n"
            "| llama 7B Q4_0 | 3.56 GiB | 6.74 B | CUDA | 99 | tg128 | 41.20 ± 0.35 |\n")
    records = read_benchmark_output(text).records
    assert [(r.metric, r.value) for r in records] == [("prompt_tok_s", 2894.42), ("output_tok_s", 41.2)]


def test_a_dash_left_in_a_column_of_a_spaced_table_is_an_empty_cell_not_text() -> None:
    # a user's tab-separated Before/After summary (layout of vllm-project/vllm-ascend#13979, corpus b25):
    # the baseline row's `Improvement` is `-`; the table is still one of runs, one result per row
    text = "Version\tTP\tOutput token throughput (tok/s)\tImprovement\nBefore\t8\t175.11\t-\nAfter\t8\t178.70\t+2.05%\n"
    records = read_benchmark_output(text).records
    assert [(r.config, r.value) for r in records] == [("Before", 175.11), ("After", 178.7)]


def test_a_latency_labelled_in_nanoseconds_is_brought_to_milliseconds() -> None:
    # mlcommons/inference loadgen/results.cc (LLM Server scenario): `Completed tokens per second:`, then
    # Additional Stats `Mean First Token latency (ns)`, `Mean Time to Output Token (ns)`
    text = ("MLPerf Results Summary\nScenario : Server\nCompleted samples per second    : 9.87\n"
            "Completed tokens per second: 2510.22\nResult is : VALID\n\n"
            "Mean First Token latency (ns)   : 500000000\nMean Time to Output Token (ns)  : 45000000\n")
    [record] = read_benchmark_output(text).records
    assert (record.metric, record.value) == ("output_tok_s", 2510.22)
    assert record.figures["ttft_ms_mean"] == pytest.approx(500.0)
    assert record.figures["tpot_ms_mean"] == pytest.approx(45.0)


def test_a_concurrency_limit_caps_a_sweep_and_is_no_runs_concurrency() -> None:
    # triton-inference-server perf_analyzer: `Concurrency limit: N concurrent requests` under Measurement
    # Settings for `--concurrency-range 1:N`, then one `Request concurrency: n` section per level
    section = ("Request concurrency: {c}\n  Client: \n    Request count: 3608\n    Throughput: {rate} infer/sec\n"
               "    Avg latency: 4979 usec (standard deviation 1089 usec)\n")
    text = ("*** Measurement Settings ***\n  Batch size: 1\n  Concurrency limit: 2 concurrent requests\n\n"
            + section.format(c=1, rate=200.364) + "\n" + section.format(c=2, rate=333.1))
    records = read_benchmark_output(text).records
    assert [(r.value, r.concurrency) for r in records] == [(200.364, 1), (333.1, 2)]


def test_a_sweep_summary_line_per_level_is_one_result_whose_throughput_is_measured() -> None:
    # triton-inference-server/perf_analyzer perf_analyzer.cc (sweep summary, after the last level):
    # `Inferences/Second vs. Client ` + `Average Batch Latency` or `p<N> Batch Latency` (--percentile),
    # then per level `Concurrency: N, throughput: X infer/sec, latency Y usec` (or `Request Rate: R, ...`
    # with --request-rate-range); the field before the comma holds its own value, no label over the rate.
    # The command above it (triton-inference-server/tutorials Conceptual_Guide Part_2) holds no figure.
    text = ("perf_analyzer -m text_recognition -b 2 --shape input.1:1,32,100 --concurrency-range 2:16:2"
            " --percentile=95\n\nInferences/Second vs. Client p95 Batch Latency\n"
            "Concurrency: 2, throughput: 998.141 infer/sec, latency 4140 usec\n"
            "Concurrency: 4, throughput: 1765.66 infer/sec, latency 4750 usec\n")
    parsed = read_benchmark_output(text)
    assert [(r.metric, r.value, r.concurrency) for r in parsed.records] == [
        ("request_throughput", 998.141, 2), ("request_throughput", 1765.66, 4)]
    assert [r.figures for r in parsed.records] == [{"latency_s_p95": pytest.approx(0.00414)},
                                                   {"latency_s_p95": pytest.approx(0.00475)}]
    assert name_of("Concurrency : QPS", "50.0 constant", "Concurrency : ")[0] == "request_rate"  # a label over it
    rates = read_benchmark_output("Inferences/Second vs. Client Average Batch Latency\n"
                                  "Request Rate: 100.00, throughput: 99.8 infer/sec, latency 1234 usec\n").records
    assert [(r.metric, r.value, r.figures) for r in rates] == [
        ("request_throughput", 99.8, {"request_rate": 100.0, "latency_s": pytest.approx(0.001234)})]


def test_a_row_naming_a_llama_bench_test_says_which_rate_its_t_s_is() -> None:
    # ggml-org/llama.cpp scripts/compare-llama-bench.py: tabulate(..., tablefmt="pipe") with headers
    # Model / Test / `t/s <baseline>` / `t/s <compare>` / Speedup, one row per test (pp and tg)
    text = ("| Model         | Test          |   t/s master |   t/s feature |   Speedup |\n"
            "|:--------------|:--------------|-------------:|--------------:|----------:|\n"
            "| llama 7B Q4_0 | pp512         |      2894.42 |       3012.55 |      1.04 |\n"
            "| llama 7B Q4_0 | tg128         |        41.20 |         43.10 |      1.05 |\n"
            "| llama 7B Q4_0 | pp512+tg128   |       230.10 |        240.30 |      1.04 |\n")
    records = read_benchmark_output(text).records
    assert [(r.metric, r.value) for r in records] == [
        ("prompt_tok_s", 2894.42), ("output_tok_s", 41.2), ("total_tok_s", 230.1)]


@pytest.mark.parametrize("percentiles", [
    # modelscope/evalscope docs (2025): tabulate's grid, one row per percentile
    ("Percentile results:\n+------------+----------+----------------------+\n"
     "| Percentile | TTFT (s) | Throughput(tokens/s) |\n+------------+----------+----------------------+\n"
     "|    10%     |  0.0962  |       29.9767        |\n|    99%     |  0.1247  |       31.6691        |\n"
     "+------------+----------+----------------------+\n"),
    # evalscope 2026: a box table, one column per percentile, one row per quantity
    ("Percentile results:\n┌────────────────┬─────────┬─────────┐\n│ Metric         │      1% │     99% │\n"
     "├────────────────┼─────────┼─────────┤\n│ TTFT (ms)      │  176.30 │ 2319.52 │\n"
     "│ Output (tok/s) │   49.15 │   59.45 │\n└────────────────┴─────────┴─────────┘\n"),
])
def test_a_table_of_percentiles_is_the_spread_of_the_result_above_not_results(percentiles: str) -> None:
    summary = ("Benchmarking summary:\n| Number of concurrency           | 5        |\n"
               "| Output token throughput (tok/s) | 132.6926 |\n| Request throughput (req/s)      | 0.5212   |\n\n")
    [record] = read_benchmark_output(summary + percentiles).records
    assert (record.metric, record.value, record.concurrency) == ("output_tok_s", 132.6926, 5)


def test_gen_per_second_is_the_output_rate() -> None:
    # modelscope/evalscope docs (2026), multi-turn perf: rich's `Performance Overview` table, `Gen/s`
    # the generated tokens per second beside `RPS`
    text = ("            Performance Overview\n┏━━━━━━┳━━━━━━┳━━━━━┳━━━━━━┳━━━━━━━━━┳━━━━━━━━━┓\n"
            "┃Conc. ┃ Rate ┃ Num ┃  RPS ┃   Gen/s ┃ Success ┃\n┡━━━━━━╇━━━━━━╇━━━━━╇━━━━━━╇━━━━━━━━━╇━━━━━━━━━┩\n"
            "│   10 │    - │  20 │ 4.32 │ 1103.48 │  100.0% │\n└──────┴──────┴─────┴──────┴─────────┴─────────┘\n")
    [record] = read_benchmark_output(text).records
    assert (record.metric, record.value, record.concurrency) == ("output_tok_s", 1103.48, 10)
    assert record.figures["request_throughput"] == 4.32


@pytest.mark.parametrize(("heading", "settings"), [
    # a Rust engine's issue (paiml/realizar, 2026): the load named once in the heading over the table
    ("## Benchmark Results (probador llm load, c=1, 60s)\n\n", ""),
    # InternLM/lmdeploy docs/en/quantization/kv_quant.md: a bold configuration line below the table
    ("", "\n**Test configuration**: GPU: H200, Dataset: ShareGPT, Concurrency: 1, Requests: 5000\n"),
])
def test_a_load_named_once_for_the_paste_is_every_results_load(heading: str, settings: str) -> None:
    table = ("| Runtime | tok/s | P50 (ms) |\n|---------|-------|----------|\n"
             "| llama.cpp | 32.1 | 40 |\n| ollama | 11.3 | 95 |\n")
    records = read_benchmark_output(heading + table + settings).records
    assert [(r.value, r.concurrency) for r in records] == [(32.1, 1), (11.3, 1)]
    logged = "".join(f"2026-03-01 10:00:00,000 - INFO - {line}\n" for line in (heading + table + settings).splitlines())
    assert [r.concurrency for r in read_benchmark_output(logged).records] == [1, 1]  # through a logger too


def test_flags_noted_after_a_result_lines_figures_leave_it_a_result_line() -> None:
    # vllm-project/vllm#12315: benchmark_throughput.py's `Throughput: {} requests/s, {} total tokens/s,
    # {} output tokens/s` lines in quoted bullets, the user's `@ --num-scheduler-steps N` after each
    text = ("- > Throughput: 3.28 requests/s, 1414.42 total tokens/s, 714.48 output tokens/s @ --num-scheduler-steps 1\n"
            "- > Throughput: 3.47 requests/s, 1496.33 total tokens/s, 755.85 output tokens/s @ --num-scheduler-steps 10\n")
    records = read_benchmark_output(text).records
    assert [(r.metric, r.value, r.figures["total_tok_s"]) for r in records] == [
        ("output_tok_s", 714.48, 1414.42), ("output_tok_s", 755.85, 1496.33)]
    # a command line is still no result: its label-less start is no figure
    assert read_benchmark_output("vllm serve model --max-num-seqs 8 --port 8000\n").records == []


@pytest.mark.parametrize("closing", ["}\n", ""])
def test_llama_servers_timings_object_names_its_prompt_and_generation_rates(closing: str) -> None:
    # ggml-org/llama.cpp tools/server/server.cpp: a response's `timings` (prompt_n, prompt_ms,
    # prompt_per_token_ms, prompt_per_second, predicted_n, ..., predicted_per_second); cut before its brace too
    text = ('{\n  "model": "gemma-3n-E2B:Q4_K_XL",\n  "timings": {\n    "prompt_n": 1,\n    "prompt_ms": 15.079,\n'
            '    "prompt_per_second": 66.31739505272233,\n    "predicted_n": 5,\n    "predicted_ms": 48.984,\n'
            '    "predicted_per_second": 102.07414666013392\n  }\n' + closing)
    [record] = read_benchmark_output(text).records
    assert (record.metric, record.value) == ("output_tok_s", pytest.approx(102.074146))
    assert record.figures["prompt_tok_s"] == pytest.approx(66.317395)


def test_a_result_json_cut_before_its_closing_brace_reads_its_whole_pairs() -> None:
    # sgl-project/sglang python/sglang/bench_serving.py: the result dict json.dump-ed (`Infinity` for an
    # unset request rate), pasted pretty-printed and cut after a whole line, before its ITL keys and `}`
    text = ('{\n "backend": "sglang",\n "request_rate": Infinity,\n "max_concurrency": 1,\n'
            ' "request_throughput": 0.16899863717468722,\n "output_throughput": 173.0546044668797,\n'
            ' "total_throughput": 1557.4914402019174,\n "p99_ttft_ms": 704.5300076203421,\n')
    for paste in (text, f"My result from last night:\n\n{text}\nAny idea why the ITL is so high?\n"):
        [record] = read_benchmark_output(paste).records
        assert (record.metric, record.value, record.concurrency) == ("output_tok_s", pytest.approx(173.0546), 1)
        assert record.figures["ttft_ms_p99"] == pytest.approx(704.53)


@pytest.mark.parametrize("lead", ["", "Here is my log:\n", "$ vllm bench serve --max-concurrency 10\n"])
def test_a_users_sentence_ending_in_an_aside_above_a_known_block_is_prose(lead: str) -> None:
    # vllm-project/vllm (2026-04, an SM120 PR comment): a sentence quoting a per-request peak in
    # parentheses, over vllm bench serve's block (vllm/benchmarks/serve.py's `{:<40} {:<10}` lines)
    text = (f"{lead}I just tested using two Blackwell GPUs, and for BS1 it shows a reasonable inference speed(max peak"
            " was 37.8 tokens/s)\n\n============ Serving Benchmark Result ============\n"
            "Successful requests:                     100\nMaximum request concurrency:             10\n"
            "Request throughput (req/s):              0.73\nOutput token throughput (tok/s):         93.08\n"
            "Total token throughput (tok/s):          186.15\n==================================================\n")
    [record] = read_benchmark_output(text).records
    assert (record.value, record.concurrency) == (93.08, 10)


def test_per_position_acceptance_columns_count_draft_positions_from_the_first() -> None:
    # vllm-project/speculators (2026, an RFC's draft evaluation): `pos_0 .. pos_7` percentages beside acceptance_length
    text = ("| subset | acceptance_length | pos_0 | pos_1 | pos_2 |\n| --- | --- | --- | --- | --- |\n"
            "| HumanEval | 4.573 | 83.7% | 68.5% | 56.2% |\n| writing | 2.636 | 61.7% | 38.8% | 24.4% |\n")
    records = read_benchmark_output(text).records
    assert [(r.config, r.accept_length) for r in records] == [("HumanEval", 4.573), ("writing", 2.636)]
    assert records[0].figures["accept_pos_1"] == pytest.approx(0.837)
    assert records[0].figures["accept_pos_3"] == pytest.approx(0.562)


def test_server_timings_under_a_label_of_their_own_are_a_run_beside_the_client_results() -> None:
    # an engine's GGUF prefill PR (2025-07): `**Main**` and `**PR**` over the engine's own `Request completed`
    # lines, `**Baseline (llama.cpp)**` over llama-server's print_timings (tools/server/server.cpp)
    text = ("**Main**\n```\nRequest completed - E2E time: 6.76s, TTFT: 4.03s, Prefill: 1927 tokens (478.1 tokens/s),"
            " Decode: 264 tokens (96.9 tokens/s)\n```\n\n**Baseline (llama.cpp)**\n```\n"
            "prompt eval time =     458.04 ms /  1928 tokens (    0.24 ms per token,  4209.21 tokens per second)\n"
            "       eval time =    2932.51 ms /   156 tokens (   18.80 ms per token,    53.20 tokens per second)\n```\n")
    records = read_benchmark_output(text).records
    assert [(r.value, r.figures["prompt_tok_s"]) for r in records] == [(96.9, 478.1), (53.2, 4209.21)]
    # unlabelled, the server's timings are the server side of the client's run
    unlabelled = text.replace("**Main**\n", "").replace("**Baseline (llama.cpp)**\n", "")
    assert [r.value for r in read_benchmark_output(unlabelled).records] == [96.9]


def test_a_test_cell_after_the_rows_name_still_says_which_rate_its_t_s_is() -> None:
    # a hand-merged comparison of llama-bench tables (ggml-org/llama.cpp examples/llama-bench/llama-bench.cpp
    # markdown_printer's `model | size | test | th | t/s` columns, the t/s column doubled per branch)
    text = ("| model               |       size | test       |    th |   master t/s |       PR t/s |  speedup |\n"
            "| ------------------- | ---------: | ---------- | ----: | -----------: | -----------: | -------: |\n"
            "| LLaMA 7B mostly F16 |  12.55 GiB | pp 512     |     4 | 1125.99 ± 0.69 | 1265.30 ± 1.54 | 1.124 |\n"
            "| LLaMA 7B mostly F16 |  12.55 GiB | tg 128     |     4 |   29.10 ± 0.02 |   29.20 ± 0.03 | 1.003 |\n")
    records = read_benchmark_output(text).records
    assert [(r.metric, r.value) for r in records] == [("prompt_tok_s", 1125.99), ("output_tok_s", 29.1)]


def test_loadgen_samples_per_second_is_the_request_rate_and_its_scheduled_one_the_load() -> None:
    # mlcommons/inference loadgen/results.cc PerformanceSummary::LogSummary: `Completed samples per second    : `,
    # `Completed tokens per second: ` (Server with token latencies), `Scheduled samples per second : `
    text = ("================================================\nMLPerf Results Summary\n"
            "================================================\nSUT name : PySUT\nScenario : Server\n"
            "Mode     : PerformanceOnly\nCompleted samples per second    : 11.07\n"
            "Completed tokens per second: 1264.46\nResult is : VALID\n\n"
            "Scheduled samples per second : 11.08\n")
    record = read_benchmark_output(text).records[0]
    assert (record.metric, record.value) == ("output_tok_s", 1264.46)
    assert (record.figures["request_throughput"], record.figures["request_rate"]) == (11.07, 11.08)


def test_samples_per_second_written_as_a_unit_is_no_request_rate() -> None:
    # huggingface/optimum-benchmark's report: `throughput | 7.60 | samples/s` counts a batch's samples
    assert name_of("throughput", "samples/s")[0] != "request_throughput"
    assert name_of("Completed samples per second", "")[0] == "request_throughput"


def test_a_figure_no_run_measures_is_left_out_with_a_line_and_the_result_kept() -> None:
    # Luoxiaogan/sglang_CUSTOM results/node_test_example/summary.txt: a script's queue time counted from the
    # epoch (1.7e12 ms) printed among sane figures; storing refuses any figure beyond 1e12
    text = ("Throughput Metrics:\n  Request Throughput: 8.89 req/s\n  Output Token Throughput: 1136 tok/s\n"
            "  Queue Time (ms):\n    Mean: 1735837452835.4\n")
    parsed = read_benchmark_output(text)
    [record] = parsed.records
    assert (record.metric, record.value, record.figures["request_throughput"]) == ("output_tok_s", 1136, 8.89)
    assert not any(name.startswith("queue_time") for name in record.figures)
    assert [line for line in parsed.problems if "queue_time_ms_mean" in line and "outside 0..1e+12" in line]


def test_a_blank_corner_over_setting_columns_and_phase_rows_is_one_result_per_column() -> None:
    # ml-explore/mlx-examples#1069 (a maintainer's note): columns are settings, rows name the figures
    text = (" | | not wired | wired\n---  | --- | ---\nprompt (16 toks)  | 2.35 toks/sec |  27.8 toks/sec\n"
            "generation (100 toks) | 0.23 toks/sec | 4.7 toks/sec\n")
    records = read_benchmark_output(text).records
    assert [(r.metric, r.value, r.figures["prompt_tok_s"]) for r in records] == [
        ("output_tok_s", 0.23, 2.35), ("output_tok_s", 4.7, 27.8)]


def test_a_blank_corner_over_figure_columns_keeps_a_result_per_row() -> None:
    # pandas' `DataFrame.to_markdown()` leaves the index column's header blank; its columns name figures
    text = ("|    | engine | output tok/s |\n|---:|:-------|-------------:|\n|  0 | vllm   |        812.5 |\n"
            "|  1 | sglang |        901.2 |\n")
    assert [r.value for r in read_benchmark_output(text).records] == [812.5, 901.2]


def test_rates_quoted_in_the_users_sentences_are_no_results_beside_a_table_of_them() -> None:
    # rkz91/coco#116 (a PR description): prose quoting claimed and derived rates around a table of two measured ones
    text = ("The speed numbers were wrong: it claimed 20–35 tok/s while also quoting 750 tokens in 133 s.\n\n"
            "| Output kind | Accepted per round | Time per round | Rate |\n|---|---|---|---|\n"
            "| Trivially predictable (counting) | 8.00 | 78 ms | **103 tok/s** |\n"
            "| Open-ended prose | 2.55 | 133 ms | **19.3 tok/s** |\n\n"
            "Server-reported mean across 30 mixed real requests is ~14 tok/s, which is the figure to plan against.\n")
    assert [r.value for r in read_benchmark_output(text).records] == [103, 19.3]


def test_a_rate_quoted_only_in_a_sentence_is_still_read() -> None:
    text = "With the new draft model I get 182.3 tok/s on the same prompts as yesterday.\n"
    assert [r.value for r in read_benchmark_output(text).records] == [182.3]


def test_a_sentence_ending_inside_brackets_with_column_names_in_it_is_still_the_users_talk() -> None:
    # ld-singh.github.io ai-factory-ops-lab inference report: a load generator's spaced table, then the author's line
    text = (" conc  reqs   tok/s  goodput%\n    1    12    42.3    100.0\n    2    12    84.0    100.0\n\n"
            "tok/s scales cleanly (42 → 84) with goodput pinned at 100% - plenty of headroom at this load."
            " (The conc-1 ttft_p95 value is first-request warmup.)\n")
    assert [r.value for r in read_benchmark_output(text).records] == [42.3, 84.0]


def test_a_count_out_of_a_total_after_a_label_keeps_the_label_for_the_values_after_it() -> None:
    # KoboldCpp 1.117's summary line (LostRuins/koboldcpp#2347): `Generated:214/1024 in 17.61s (12.16T/s)`,
    # where older ones printed `Amt:214/1024, ..., Generate:17.61s (12.16T/s)`
    text = ("[22:32:26] CtxLimit:230/12288, Init:0.12s, Processed:16 in 0.53s (30.36T/s),"
            " Generated:214/1024 in 17.61s (12.16T/s), Total:18.25s\n")
    [record] = read_benchmark_output(text).records
    assert (record.metric, record.value, record.figures["prompt_tok_s"]) == ("output_tok_s", 12.16, 30.36)


def test_loadgen_percentile_lines_are_statistics_of_the_one_result() -> None:
    # mlcommons/inference loadgen/results.cc: `DoubleToString(lp.percentile * 100) + " percentile latency (ns)   : "`
    text = ("Completed samples per second    : 11.07\nCompleted tokens per second: 1264.46\n\n"
            "Mean latency (ns)               : 4335286743\n50.00 percentile latency (ns)   : 4004045558\n"
            "90.00 percentile latency (ns)   : 6909235804\n99.90 percentile latency (ns)   : 11650218811\n\n"
            "Completed tokens per second                 : 1264.46\n"
            "Mean First Token latency (ns)               : 169476022\n"
            "99.00 percentile first token latency (ns)   : 1016118108\n")
    [record] = read_benchmark_output(text).records
    assert (record.figures["p90_latency_ns"], record.figures["p999_latency_ns"]) == (6909235804, 11650218811)
    assert math.isclose(record.figures["ttft_ms_p99"], 1016.118108)


def test_a_tools_labelled_values_ending_in_a_full_stop_are_no_sentence() -> None:
    # vLLM V0 vllm/engine/metrics.py prints `Speculative metrics: Draft acceptance rate: %.3f, ... tokens: %s.`,
    # a full stop at its end; here copied below a script's rate line, with the user's sentence under both
    text = ("Output token throughput: 127.4 tok/s\nSpeculative metrics: Draft acceptance rate: 0.700, System"
            " efficiency: 0.659, Number of speculative tokens: 16, Number of accepted tokens: 5.\n\n"
            "I expected far more than the 127.4 tok/s shown above with this draft model at this batch size.\n")
    [record] = read_benchmark_output(text).records
    assert (record.value, record.figures["acceptance_rate"]) == (127.4, 0.7)


def test_a_sentence_logged_behind_a_prefix_is_still_the_users_talk() -> None:
    log = "2026-06-01 10:00:00,000 INFO bench: "
    text = "".join(log + line + "\n" for line in (
        " conc   tok/s", "    1   42.3", "    2   84.0", "",
        "tok/s scales cleanly from 42 to 84 with plenty of headroom left at this load."))
    assert [r.value for r in read_benchmark_output(text).records] == [42.3, 84.0]


def test_a_markdown_header_naming_gpus_by_number_heads_rows_of_rates_in_their_cells() -> None:
    # turboderp/exllamav2 README.md's Performance table: one t/s column per GPU (`3090Ti`, `4090`)
    # beside Model/Mode/Size columns, each cell a rate with its unit, the newest GPU's in bold
    text = ("| Model      | Mode         | Size  | grpsz | act | 3090Ti  | 4090        |\n"
            "|------------|--------------|-------|-------|-----|---------|-------------|\n"
            "| Llama      | GPTQ         | 7B    | 128   | no  | 181 t/s | **205** t/s |\n"
            "| Llama2     | EXL2 4.0 bpw | 7B    | -     | -   | 185 t/s | **211** t/s |\n")
    records = read_benchmark_output(text).records
    assert [(r.metric, r.value) for r in records] == [("output_tok_s", 181), ("output_tok_s", 185)]
    # a data row over an ASCII table's rule is no header, whole numbers in it or not
    ascii_rows = ("+-------+------+-----+\n| model | test | t/s |\n+-------+------+-----+\n"
                  "| llama | 128  | 7   |\n+-------+------+-----+\n| llama | 512  | 9   |\n+-------+------+-----+\n")
    assert [r.value for r in read_benchmark_output(ascii_rows).records] == [7, 9]


# Ollama's `--verbose` statistics, as ollama/ollama api/types.go's Metrics.Summary() prints them
_OLLAMA = ("total duration:       5.2s\nload duration:        20ms\nprompt eval count:    26 token(s)\n"
           "prompt eval duration: 100ms\nprompt eval rate:     260.00 tokens/s\neval count:           290 token(s)\n"
           "eval duration:        5s\neval rate:            {rate} tokens/s\n")


@pytest.mark.parametrize(("first", "second"), [
    ("main:", "PR:"), ("commit abc123", "commit def456"), ("**baseline**", "**patched**"), ("before", "after"),
    ("## Run 1", "## Run 2"),
])
def test_key_value_blocks_under_user_labels_are_one_result_each_named_by_the_label(first: str, second: str) -> None:
    text = f"{first}\n{_OLLAMA.format(rate='58.00')}\n{second}\n{_OLLAMA.format(rate='61.00')}"
    records = read_benchmark_output(text).records
    assert [(r.value, r.config) for r in records] == [(58.0, first.strip("*#: ")), (61.0, second.strip("*#: "))]


@pytest.mark.parametrize(("line", "label"), [
    ("main:", True), ("**baseline**", True), ("## Run 2", True), ("rtr=yes", True), ("commit 24c010b3 (last known good)", True),
    ("`-c 8192 -t 16 -fa`:", True), ("with -rtr", True),
    ("$ ./llama-bench -m model.gguf", False), ("❯ build/bin/llama-bench --mmap 0", False),  # commands the user ran
    ("python3 -m sglang.bench_serving \\", False), ("vllm bench serve --model m --num-prompts 10", False),
    ("Ah, yes, I resolved the problem!", False), ("Starting warmup with 1 sequences...", False),  # sentences
    ("---------------Time to First Token----------------", False), ("srv  update_slots: all slots are idle", False),
])
def test_a_user_label_line_is_told_from_commands_sentences_and_tool_lines(line: str, label: bool) -> None:
    assert runs.is_label(line) is label


def test_a_runs_name_is_its_first_and_last_label_without_markup() -> None:
    text = "<details><summary>No RTR</summary>\n\nGPU box\nnotes\nrtr=no\nx: 1\n\n---\nrtr=yes\nx: 2\n"
    named = runs.labelled_runs(text, lambda _, line: line.startswith("x:"))
    assert [run.label for run in named] == ["No RTR · rtr=no", "rtr=yes"]  # `---` and its label: a new group


@pytest.mark.parametrize("joint", [" - ", " – ", " — "])
def test_fields_of_one_line_joined_by_a_spaced_dash_after_a_unit_are_two_values(joint: str) -> None:
    # ollama cmd/cmd.go prints `prompt eval rate:     %.2f tokens/s` and `eval rate:            %.2f tokens/s`
    # one a line; kreier/jetson sh/README.md#L70 condenses each run to one quoted line joined by ` - `
    text = (f"> prompt eval rate: 9.04 tokens/s{joint}eval rate: 6.62 tokens/s\n\n"
            f"> prompt eval rate: 8.36 tokens/s{joint}eval rate: 5.04 tokens/s\n")
    records = read_benchmark_output(text).records
    assert [(r.metric, r.value, r.figures["prompt_tok_s"]) for r in records] == [
        ("output_tok_s", 6.62, 9.04), ("output_tok_s", 5.04, 8.36)]


def _bar(done: int, total: int, out: float) -> str:
    # vllm/entrypoints/llm.py _run_engine: tqdm `Processed prompts` with the postfix
    # `est. speed input: {in_spd:.2f} toks/s, output: {out_spd:.2f} toks/s`
    return (f"Processed prompts: {100 * done // total}%|##| {done}/{total} [00:23<00:00, 43.07it/s, "
            f"est. speed input: {out * 2:.2f} toks/s, output: {out:.2f} toks/s]\n")


def test_a_runs_batch_bars_above_its_summary_are_the_summarys_running_estimate() -> None:
    # ssaketh-ch/llama31b-benchmark results/throughput/.../run.log: an MLPerf harness runs vLLM batch by batch
    # (a finished bar and `Samples run: N` each), then mlcommons/inference loadgen/results.cc prints the
    # `MLPerf Results Summary` with `Samples per second:` and `Tokens per second:`, the run's result
    text = (_bar(1024, 1024, 5512.95) + "INFO:SUT:Samples run: 1024\n" + _bar(56, 56, 1179.20)
            + "INFO:SUT:Samples run: 1080\n================================================\n"
            "MLPerf Results Summary\n================================================\nSUT name : PySUT\n"
            "Scenario : Offline\nMode     : PerformanceOnly\nSamples per second: 22.9441\n"
            "Tokens per second: 2936.85\nResult is : INVALID\n")
    [record] = read_benchmark_output(text).records
    assert (record.metric, record.value, record.figures["request_throughput"]) == ("output_tok_s", 2936.85, 22.9441)


def test_finished_bars_with_no_summary_below_are_still_runs_of_their_own() -> None:
    # _latest_redraws: a bar that reached its total finished a run; with no summary below, each is kept
    records = read_benchmark_output(_bar(100, 100, 812.5) + "done\n" + _bar(100, 100, 640.25)).records
    assert [r.value for r in records] == [812.5, 640.25]


# vllm-project/vllm vllm/benchmarks/throughput.py (and benchmarks/benchmark_throughput.py), `--output-json`:
# {"elapsed_time", "num_requests", "total_num_tokens", "requests_per_second": len(requests) / elapsed_time,
# "tokens_per_second": total_num_tokens / elapsed_time}, json.dump(indent=4); total_num_tokens counts prompt
# and output, so the rate is the total one (figures made up in that shape; a later variant adds
# "output_tokens_per_second", which stays the output rate).
@pytest.mark.parametrize(("extra", "metric", "value"), [
    ("", "total_tok_s", 400.0),
    (',\n    "total_output_tokens": 80000,\n    "output_tokens_per_second": 100.0', "output_tok_s", 100.0),
])
def test_vllm_throughput_json_rate_of_all_tokens_is_the_total_rate(extra: str, metric: str, value: float) -> None:
    text = ('{\n    "elapsed_time": 800.0,\n    "num_requests": 500,\n    "total_num_tokens": 320000,\n'
            f'    "requests_per_second": 0.625,\n    "tokens_per_second": 400.0{extra}\n}}')
    (record,) = read_benchmark_output(text).records
    assert (record.metric, record.value, record.figures["request_throughput"]) == (metric, value, 0.625)


# ollama/ollama docs/api.md, /api/generate's final answer (`"done": true`): `eval_count`, `eval_duration`,
# `prompt_eval_count`, `prompt_eval_duration`, every duration in nanoseconds; the rates `ollama run --verbose`
# prints are the counts over those durations (figures made up; streamed lines before it carry no counts).
def test_ollama_api_answer_rates_are_its_counts_over_nanosecond_durations() -> None:
    final = {"model": "llama3", "response": "", "done": True, "total_duration": 5043500667,
             "prompt_eval_count": 26, "prompt_eval_duration": 260000000, "eval_count": 290, "eval_duration": 5800000000}
    streamed = json.dumps({"model": "llama3", "response": "Hi", "done": False}) + "\n"
    for text in (json.dumps(final, indent=2), streamed * 3 + json.dumps(final) + "\n"):
        (record,) = read_benchmark_output(text).records
        assert (record.metric, record.value, record.figures["prompt_tok_s"]) == ("output_tok_s", 50.0, 100.0)


# A result copied from a rendered page (the corpus's b39 `> ` quotes of sgl-project/sglang PR comments) splits a
# label's words by two spaces; vllm-project/vllm benchmarks/benchmark_latency.py prints `Avg latency: {} seconds`,
# sgl-project/sglang bench_one_batch.py `Decode.  median latency: ... s, median throughput: ... token/s`.
@pytest.mark.parametrize(("text", "metric", "value"), [
    ("> Avg  latency: 1.2345 seconds\n> 50% percentile  latency: 1.2301 seconds\n", "latency_s", 1.2345),
    ("> Prefill. latency: 0.05 s, throughput:  20480.00 token/s\n"
     "> Decode.  median  latency: 0.0210 s, median throughput:    380.95 token/s\n"
     "> Total. latency:  0.810 s, throughput:  10300.00 token/s\n", "output_tok_s", 380.95),
])
def test_a_label_with_words_two_spaces_apart_is_the_same_label(text: str, metric: str, value: float) -> None:
    (record,) = read_benchmark_output(text).records
    assert (record.metric, record.value) == (metric, value)


# mudler/vllm.cpp docs/bench-evidence/qwen3-4b-vllm-series-20260720.log: a script's `=== VLLM c=1 rep=1 (19:53:04) ===`
# banner over the lines it grepped from each `vllm bench serve` block (vllm-project/vllm vllm/benchmarks/serve.py's
# `{:<40} {:<10.2f}` labels, indented two spaces); the banner's c=N is that run's concurrency, its other numbers
# (the repetition, a kernel flag, the time) name the run and are no figures.
GREPPED = ("  Request throughput (req/s):              {rps}\n"
           "  Output token throughput (tok/s):         {out}\n"
           "  Median TTFT (ms):                        159.38\n")


@pytest.mark.parametrize("heading", ["=== VLLM c={c} rep=1 (19:53:04) ===", "=== OURS[prod fa2=0] c={c} rep=2 ===",
                                     "--- Qwen3-4B (concurrency {c}) ---", "### concurrency={c} ###",
                                     "c={c}:", "[c={c} rep=1]", "(c={c}, isl=1024)", "--- concurrency={c} ---",
                                     "VLLM c={c} rep=1", "Running c={c}", "## c={c}"])
def test_a_banner_or_settings_line_naming_the_load_over_each_run_is_its_concurrency(heading: str) -> None:
    # a line of the run's settings alone (`c=1:`, `[c=1 rep=1]`) heads it as a framed banner does
    text = (heading.format(c=1) + "\n" + GREPPED.format(rps=0.17, out=22.13)
            + heading.format(c=8) + "\n" + GREPPED.format(rps=1.3, out=166.93) + "=== ALL VLLM DONE ===\n")
    records = read_benchmark_output(text).records
    assert [(r.value, r.concurrency) for r in records] == [(22.13, 1), (166.93, 8)]
    assert all(set(r.figures) == {"request_throughput", "ttft_ms_median"} for r in records)


def test_a_framed_banner_names_the_load_of_the_whole_vllm_block_under_it() -> None:
    text = ("=== c=4 rep=1 ===\n" + SERVE_BLOCK.format(rps=4.97, out=1272.11)
            + "=== c=16 rep=1 ===\n" + SERVE_BLOCK.format(rps=9.12, out=2301.5))
    records = read_benchmark_output(text).records
    assert [(r.source_format, r.concurrency) for r in records] == [("vllm.bench_serve", 4), ("vllm.bench_serve", 16)]


@pytest.mark.parametrize(("heading", "loads"), [("concurrency: {c}", [4, 16]), ("Concurrency: {c}.00", [None, None])])
def test_a_label_line_above_each_block_setting_a_whole_concurrency_is_its_load(heading: str, loads: list) -> None:
    # a user's `concurrency: 4` over each `vllm bench serve` block (vllm-project/vllm vllm/benchmarks/serve.py);
    # SGLang's measured `Concurrency: 3.98` (bench_serving.py `{:<40} {:<10.2f}`) is a figure, never a setting
    text = (heading.format(c=4) + "\n" + SERVE_BLOCK.format(rps=4.97, out=1272.11)
            + heading.format(c=16) + "\n" + SERVE_BLOCK.format(rps=9.12, out=2301.5))
    assert [r.concurrency for r in read_benchmark_output(text).records] == loads


def test_a_framed_banner_names_the_run_below_it_without_its_frame_and_time() -> None:
    # mudler/vllm.cpp docs/bench-evidence/qwen3-4b-ours-ab-20260720.log: an A/B of two kernel settings, each run
    # under `=== OURS[prod fa2=0] c=1 rep=1 (20:21:35) ===`; the banner tells the runs apart
    text = ("=== OURS[prod fa2=0] c=1 rep=1 (20:21:35) ===\n" + GREPPED.format(rps=0.06, out=8.29)
            + "=== OURS[fa2dec fa2=1] c=1 rep=1 (20:25:51) ===\n" + GREPPED.format(rps=0.14, out=17.86))
    records = read_benchmark_output(text).records
    assert [derive_config_name(r) for r in records] == ["OURS[prod fa2=0] c=1 rep=1", "OURS[fa2dec fa2=1] c=1 rep=1"]


# Tencent/AngelSlim docs/source/performance/speculative_decoding/benchmarks.md: a header naming the dataset over
# two columns (`| Model | Method | OmniDocBench | |`), then, below the rule, a bold row naming those columns
GROUPED = ("| Model | Method | OmniDocBench | |\n|---|---|---|---|\n"
           "| | | **throughput (tokens/s)** | **accept length** |\n"
           "| **Hunyuan-OCR** | Vanilla | 70.12 | 1 |\n| | Eagle3 | 108.1 | 2.08 |\n")


def test_a_row_of_names_under_a_group_header_completes_the_header() -> None:
    records = read_benchmark_output(GROUPED).records
    assert [(r.metric, r.value, r.accept_length) for r in records] == [("output_tok_s", 70.12, 1.0),
                                                                       ("output_tok_s", 108.1, 2.08)]


def test_a_row_of_names_under_a_header_without_blank_columns_is_no_header() -> None:
    # the same row under a header that names every column is a row of its table (a name row), not a second header
    text = GROUPED.replace("| OmniDocBench | |", "| tok/s | accept length |")
    assert [r.value for r in read_benchmark_output(text).records] == [70.12, 108.1]


# alexziskind1/llama-throughput-lab#4 analyze-data.py: a sweep over llama-server instances, `parallel` (the server's
# `--parallel` slots) beside `concurrency` (the requests in flight), rows sorted best first
SWEEP = ("instances | parallel | batch   | concurrency | throughput_tps | errors\n"
         "-----------------------------------------------------------------\n"
         "      2.0 |     64.0 | default |       128.0 |          359.4 |    0.0\n"
         "      2.0 |     32.0 | default |        64.0 |          217.6 |    0.0\n")


def test_a_parallel_column_beside_a_concurrency_column_is_the_server_slots() -> None:
    records = read_benchmark_output(SWEEP).records
    assert [(r.value, r.concurrency, r.figures["slots"]) for r in records] == [(359.4, 128, 64.0), (217.6, 64, 32.0)]


def test_a_parallel_column_alone_is_the_load() -> None:
    text = SWEEP.replace("| concurrency |", "| n_clients_x |")
    assert [r.concurrency for r in read_benchmark_output(text).records] == [64, 32]


# vllm-project/vllm benchmarks/multi_turn/benchmark_serving_multi_turn.py prints pandas' DataFrame.describe() of its
# per-request stats (count, mean, std, min, quantiles named `25%`, max), one row per quantity
DESCRIBE = ("Statistics summary:\nruntime_sec = 215.810\nrequests_per_sec = 0.769\n"
            "                   count     mean     std      min      25%      50%      75%      99%      max\n"
            "ttft_ms            166.0    78.22   67.63    45.91    59.94    62.26    64.43   353.18   567.54\n"
            "input_num_tokens   166.0  2006.20  893.56   522.00  1247.75  2019.00  2718.00  3736.45  3899.00\n")


def test_a_pandas_describe_table_names_each_statistic_of_each_row() -> None:
    (record,) = read_benchmark_output(DESCRIBE).records
    assert (record.metric, record.value) == ("request_throughput", 0.769)
    figures = record.figures
    assert (figures["ttft_ms_mean"], figures["ttft_ms_median"], figures["ttft_ms_p99"]) == (78.22, 62.26, 353.18)
    assert (figures["samples"], figures["input_num_tokens_min"]) == (166.0, 522.0)
    assert not any(name.endswith("tok_s") for name in figures)  # `tokens  min`: a minimum, no rate per minute


def test_min_after_a_spelled_out_word_is_a_minimum_and_after_an_abbreviation_a_minute() -> None:
    # guidellm's `output_tokens_min` (a minimum); a snake-case rate's `tok_s`, `req_s` suffixes keep their units
    assert name_of("output_tokens_min", "")[0] == "output_tokens_min"
    assert name_of("out_tok_s", "")[0] == "output_tok_s"
    assert name_of("e2e_req_s", "")[0] == "request_throughput"


SWEEP_UNDER_A_SENTENCE = (  # vllm-project/vllm-ascend docs/source/tutorials/models/GLM5.2.md (vllm bench serve sweeps)
    "Here is a reference result measured with `vllm bench serve` (random dataset, `--ignore-eos`) on the"
    " [single-node Atlas 800 A2 (64G × 8) deployment](#single-node-deployment) described above"
    " (vllm-ascend v0.23.0rc1, 8 × Ascend 910B2):\n\n"
    "| Input len | Output token throughput (tok/s) | Total token throughput (tok/s) |\n|---|---|---|\n"
    "| 512 | 18.41 | 92.05 |\n| 2048 | 41.89 | 712.09 |\n\n"
    "| Concurrency | Output token throughput (tok/s) | Total token throughput (tok/s) |\n|---|---|---|\n"
    "| 1 | 14.98 | 134.79 |\n| 2 | 27.52 | 247.65 |\n")


def test_a_machines_number_in_a_sentence_above_a_table_is_no_figure_of_its_first_row() -> None:
    # the sentence's `800` (Atlas 800, a machine's name) was read as a figure of its own, and the table's first
    # row joined it as one result, then left out as a sweep's total over the concurrency rows below; a label of
    # twelve words or more is prose, a tool's a few words
    records = read_benchmark_output(SWEEP_UNDER_A_SENTENCE).records
    assert [(r.value, r.figures) for r in records] == [
        (18.41, {"input_len": 512.0, "total_tok_s": 92.05}), (41.89, {"input_len": 2048.0, "total_tok_s": 712.09}),
        (14.98, {"total_tok_s": 134.79}), (27.52, {"total_tok_s": 247.65})]


def test_a_rate_in_a_long_sentence_is_still_read() -> None:
    # the twelve-word rule leaves a rate's unit alone: a user's one line of result (`... we get 45.3 tok/s`)
    text = "After the upgrade to the new driver on this machine we finally get 45.3 tok/s output\n"
    [record] = read_benchmark_output(text).records
    assert (record.metric, record.value) == ("output_tok_s", 45.3)
