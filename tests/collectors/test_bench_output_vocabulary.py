"""The labels benchmark tools print, each fed with a number, land on the figure names
docs/formats.md gives them: one rule per label shape, the tool that prints it cited."""

from __future__ import annotations

import json

import pytest

from sessiontui.collectors.bench_output import read_benchmark_output

SPEC_TABLE = ("| Prompt | Variant | t/s | Accept rate |\n|---|---:|---:|---:|\n"
              "| code | baseline | 26.58 | N/A |\n| code | mtp | 62.6 | {cell} |\n")


@pytest.mark.parametrize("cell", ["76.8%", "76.8% +/- 0.0%", "76.8% ± 0.4%", "0.768"])
def test_a_speculative_tables_accept_rate_is_the_acceptance_rate_however_its_spread_is_printed(cell: str) -> None:
    # ikawrakow/ik_llama.cpp#2081's table: a percentage printed with its sign before the spread as well
    # as after it (`76.8% +/- 0.0%`) is one percentage, its spread aside
    records = read_benchmark_output(SPEC_TABLE.format(cell=cell)).records
    assert [(r.value, r.figures.get("acceptance_rate")) for r in records] == [(26.58, None), (62.6, 0.768)]


def test_generations_per_second_is_a_request_rate() -> None:
    # a generation is one request answered: `Generations / Sec` counts requests, not tokens
    [record] = read_benchmark_output("Generations / Sec: 3.21\nOutput tokens/s: 812.4\n").records
    assert (record.value, record.figures) == (812.4, {"request_throughput": 3.21})


@pytest.mark.parametrize("label", ["Latency (s) avg", "Avg Latency (s)", "Mean latency"])
def test_a_mean_latency_is_latency_s_whichever_side_its_statistic_is_printed(label: str) -> None:
    # EvalScope's perf summary (evalscope/perf/utils/rich_display.py) prints the statistic after the unit
    text = f"| {label} | 1.23 |\n| Output Throughput (tok/s) | 88.1 |\n"
    [record] = read_benchmark_output(text).records
    assert (record.value, record.figures) == (88.1, {"latency_s": 1.23})


def test_a_markdown_title_naming_a_model_and_gpu_prints_no_figures() -> None:
    # a user's write-up titled by the model and GPU: `4` of `Qwen3.5-4B` is its size, 3090 a GPU's name
    text = "# Qwen3.5-4B on RTX 3090\n\nOutput token throughput (tok/s): 812.4\n"
    [record] = read_benchmark_output(text).records
    assert (record.value, record.figures) == (812.4, {})


def test_a_markdown_title_printing_a_rate_still_reads() -> None:
    # a title that prints a rate is a result (`## Eagle decoding speed: 297 token/s`, or without its colon)
    records = read_benchmark_output("## Eagle decoding speed 297 token/s\n").records
    assert [r.value for r in records] == [297.0]


def test_a_model_size_at_a_lines_start_leaves_the_rate_after_it() -> None:
    # b16's plain-text result line: the rate after the model's name and its size still reads
    [record] = read_benchmark_output("llama2-7b   base  103.25 tokens/s\n").records
    assert (record.metric, record.value) == ("output_tok_s", 103.25)


@pytest.mark.parametrize("prose", ["Tested on an RTX 3090", "rtx 3090 is fast",
                                   "GPU: NVIDIA GeForce GTX 1080", "Radeon RX 7900 XTX", "RTX PRO 6000 Blackwell"])
def test_a_gpus_model_number_in_prose_around_a_table_is_no_figure_of_its_records(prose: str) -> None:
    # a GPU's product name carries a number (NVIDIA's `RTX 3090`, AMD's `RX 7900`): it names a device
    for text in (f"{prose}\n\n| model | tok/s |\n|---|---|\n| qwen | 88.1 |\n",
                 f"| model | tok/s |\n|---|---|\n| qwen | 88.1 |\n\n{prose}\n"):
        [record] = read_benchmark_output(text).records
        assert (record.value, record.figures) == (88.1, {})


def _vllm_line(label: str, value: float) -> str:
    return f"{label:<40} {value:<10}\n"  # vllm/benchmarks/serve.py's result line


def _vllm_section(title: str, fill: str = "-") -> str:
    return "{s:{c}^{n}}\n".format(s=title, n=50, c=fill)


def _vllm_block() -> str:
    """A `vllm bench serve` result block from every line vllm/benchmarks/serve.py (benchmark())
    prints, goodput, the configured rate and the speculative-decoding section included."""
    text = _vllm_section(" Serving Benchmark Result ", "=")
    for label, value in (("Successful requests:", 1000), ("Failed requests:", 0),
                         ("Maximum request concurrency:", 8), ("Request rate configured (RPS):", 4.5),
                         ("Benchmark duration (s):", 12.5), ("Total input tokens:", 2000),
                         ("Total generated tokens:", 3000), ("Request throughput (req/s):", 7.5),
                         ("Request goodput (req/s):", 6.5), ("Output token throughput (tok/s):", 240.4),
                         ("Peak output token throughput (tok/s):", 300.2), ("Peak concurrent requests:", 8.0),
                         ("Total token throughput (tok/s):", 400.6)):
        text += _vllm_line(label, value)
    for name, header in (("TTFT", "Time to First Token"), ("TPOT", "Time per Output Token (excl. 1st token)"),
                         ("ITL", "Inter-token Latency"), ("E2EL", "End-to-end Latency")):
        text += _vllm_section(header)
        text += "".join(_vllm_line(f"{stat} {name} (ms):", value)
                        for stat, value in (("Mean", 30.1), ("Median", 29.1), ("P99", 60.1)))
    text += _vllm_section("Speculative Decoding")
    text += "".join(_vllm_line(label, value) for label, value in (
        ("Acceptance rate (%):", 61.5), ("Acceptance length:", 2.85), ("Drafts:", 100), ("Draft tokens:", 300),
        ("Accepted tokens:", 185)))
    text += "Per-position acceptance (%):\n" + "".join(
        _vllm_line(f"  Position {i}:", rate) for i, rate in enumerate((80.0, 60.0, 45.0)))
    return text + "=" * 50 + "\n"


def test_every_label_vllm_bench_serve_prints_lands_on_its_name() -> None:
    [record] = read_benchmark_output(_vllm_block()).records
    assert (record.metric, record.value, record.concurrency, record.accept_length) == ("output_tok_s", 240.4, 8, 2.85)
    latencies = {f"{q}_ms_{stat}": value for q in ("ttft", "tpot", "itl", "e2e")
                 for stat, value in (("mean", 30.1), ("median", 29.1), ("p99", 60.1))}
    assert record.figures == {
        "completed_requests": 1000.0, "failed_requests": 0.0, "request_rate": 4.5, "bench_duration_s": 12.5,
        "total_input_tokens": 2000.0, "total_output_tokens": 3000.0, "request_throughput": 7.5,
        "request_goodput": 6.5, "peak_output_tok_s": 300.2, "peak_concurrent_requests": 8.0, "total_tok_s": 400.6,
        **latencies, "acceptance_rate": 0.615, "drafts": 100.0, "draft_tokens": 300.0, "accepted_tokens": 185.0,
        "accept_pos_1": 0.8, "accept_pos_2": 0.6, "accept_pos_3": 0.45}


def test_older_vllm_benchmark_serving_labels_land_on_the_same_names() -> None:
    # vllm-project/vllm benchmarks/benchmark_serving.py (0.4-0.8): `Traffic request rate` above the
    # block, `Input token throughput` and the capitalised `Total Token throughput`
    text = ("Traffic request rate: 15.0\nBurstiness factor: 1.0 (Poisson process)\n" + _vllm_section(
        " Serving Benchmark Result ", "=") + "".join(_vllm_line(label, value) for label, value in (
            ("Successful requests:", 1000), ("Request throughput (req/s):", 7.5),
            ("Input token throughput (tok/s):", 160.2), ("Output token throughput (tok/s):", 240.4),
            ("Total Token throughput (tok/s):", 400.6))) + "=" * 50 + "\n")
    [record] = read_benchmark_output(text).records
    assert (record.value, record.figures) == (240.4, {
        "request_rate": 15.0, "completed_requests": 1000.0, "request_throughput": 7.5, "prompt_tok_s": 160.2,
        "total_tok_s": 400.6})


def test_every_label_sglang_bench_serving_prints_lands_on_its_name() -> None:
    # sgl-project/sglang python/sglang/bench_serving.py (benchmark()): its block, `Traffic request rate`,
    # `Max request concurrency`, the run's measured `Concurrency`, `Accept length` and the latency sections
    text = "\n" + _vllm_section(" Serving Benchmark Result ", "=") + "".join(_vllm_line(label, value) for label, value in (
        ("Backend:", "sglang"), ("Traffic request rate:", 4.0), ("Max request concurrency:", 8),
        ("Successful requests:", 1000), ("Benchmark duration (s):", 12.5), ("Total input tokens:", 2000),
        ("Total generated tokens:", 3000), ("Total generated tokens (retokenized):", 2990),
        ("Request throughput (req/s):", 7.5), ("Input token throughput (tok/s):", 160.2),
        ("Output token throughput (tok/s):", 240.4), ("Total token throughput (tok/s):", 400.6),
        ("Concurrency:", 7.9), ("Accept length:", 3.1)))
    text += _vllm_section("End-to-End Latency") + _vllm_line("Mean E2E Latency (ms):", 900.1) + _vllm_line(
        "Median E2E Latency (ms):", 880.1)
    text += _vllm_section("Time to First Token") + "".join(
        _vllm_line(f"{stat} TTFT (ms):", value) for stat, value in (("Mean", 30.1), ("Median", 29.1), ("P99", 60.1)))
    text += _vllm_section("Inter-Token Latency") + "".join(_vllm_line(f"{stat} ITL (ms):", value) for stat, value in (
        ("Mean", 5.1), ("Median", 5.0), ("P95", 7.1), ("P99", 9.1), ("Max", 20.1)))
    [record] = read_benchmark_output(text + "=" * 50 + "\n").records
    assert (record.metric, record.value, record.concurrency, record.accept_length) == ("output_tok_s", 240.4, 8, 3.1)
    assert record.figures == {
        "request_rate": 4.0, "completed_requests": 1000.0, "bench_duration_s": 12.5, "total_input_tokens": 2000.0,
        "total_output_tokens": 3000.0, "total_generated_tokens_retokenized": 2990.0, "request_throughput": 7.5,
        "prompt_tok_s": 160.2, "total_tok_s": 400.6, "mean_concurrency": 7.9, "e2e_ms_mean": 900.1,
        "e2e_ms_median": 880.1, "ttft_ms_mean": 30.1, "ttft_ms_median": 29.1, "ttft_ms_p99": 60.1,
        "itl_ms_mean": 5.1, "itl_ms_median": 5.0, "itl_ms_p95": 7.1, "itl_ms_p99": 9.1, "itl_ms_max": 20.1}


_TRT_KEYS = ("minimum", "maximum", "average", "p50", "p90", "p95", "p99")
_TRT_BAR = "=" * 59 + "\n"


def _trtllm_stats(tag: str, base: float) -> str:
    """One breakdown as reporting.py prints it: `[TTFT] MINIMUM: 100.0000`, a line a statistic."""
    return "".join(f"[{tag}] {key.upper():<7}: {base + i:.4f}\n" for i, key in enumerate(_TRT_KEYS))


def test_every_label_trtllm_bench_prints_lands_on_its_name() -> None:
    # NVIDIA/TensorRT-LLM tensorrt_llm/bench/dataclasses/reporting.py (report_statistics()): the
    # world, request and performance sections of a streaming run, every breakdown's seven statistics
    text = (_TRT_BAR + "= PYTORCH BACKEND\n" + _TRT_BAR + "Model:\t\t\tmeta-llama/Llama-3.1-8B\n"
            "TensorRT LLM Version:\t1.0.0\nDtype:\t\t\tbfloat16\n\n"
            + _TRT_BAR + "= WORLD + RUNTIME INFORMATION \n" + _TRT_BAR +
            "TP Size:                1\nPP Size:                1\nMax Runtime Batch Size: 2048\n"
            "Max Runtime Tokens:     8192\nKV Memory Percentage:   90.00%\nIssue Rate (req/sec):   2.1234E+13\n\n"
            + _TRT_BAR + "= REQUEST DETAILS \n" + _TRT_BAR +
            "Number of requests:             3000\nNumber of concurrent requests:  1820.1234\n"
            "Average Input Length (tokens):  128.0000\nAverage Output Length (tokens): 128.0000\n"
            + _TRT_BAR + "= PERFORMANCE OVERVIEW \n" + _TRT_BAR +
            "Request Throughput (req/sec):                     80.1234\n"
            "Total Output Throughput (tokens/sec):             10255.7777\n"
            "Total Token Throughput (tokens/sec):              20511.5555\n"
            "Total Latency (ms):                               37442.1234\n"
            "Average request latency (ms):                     202.0000\n"
            "Per User Output Throughput [w/ ctx] (tps/user):   6.3456\n"
            "Per GPU Output Throughput (tps/gpu):              10255.7777\n"
            "Average time-to-first-token [TTFT] (ms):          102.0000\n"
            "Average time-per-output-token [TPOT] (ms):        32.0000\n"
            "Per User Output Speed (tps/user):                 25.4321\n"
            "\n-- Per-Request Time-per-Output-Token [TPOT] Breakdown (ms)\n\n" + _trtllm_stats("TPOT", 30) +
            "\n-- Per-Request Time-to-First-Token [TTFT] Breakdown (ms) \n\n" + _trtllm_stats("TTFT", 100) +
            "\n-- Per-Request Generation Throughput [GTPS] Breakdown (tps/user)\n\n" + _trtllm_stats("GTPS", 20) +
            "\n-- Request Latency Breakdown (ms) -----------------------\n\n" + _trtllm_stats("Latency", 200))
    [record] = read_benchmark_output(text).records
    assert (record.metric, record.value, record.input_len, record.output_len) == ("output_tok_s", 10255.7777, 128, 128)
    stats = ("min", "max", "mean", "median", "p90", "p95", "p99")  # P50, as in its JSON, is the median
    breakdowns = {f"{name}_{stat}": base + i for name, base in (
        ("tpot_ms", 30), ("ttft_ms", 100), ("gen_tok_s_per_user", 20), ("e2e_ms", 200)) for i, stat in enumerate(stats)}
    assert record.figures == {
        "request_throughput": 80.1234, "total_tok_s": 20511.5555, "total_latency_ms": 37442.1234,
        "per_user_output_tok_s_with_ctx": 6.3456, "per_gpu_output_tok_s": 10255.7777,
        "per_user_output_tok_s": 25.4321, "num_requests": 3000.0, "mean_concurrency": 1820.1234, "tp_size": 1.0,
        "pp_size": 1.0, "max_batch_size": 2048.0, "max_num_tokens": 8192.0, **breakdowns}


def _ollama_summary(total: str, load: str, prompt_eval: str, evaluation: str) -> str:
    """Ollama's `--verbose` summary as api/types.go's Metrics.Summary() prints it (a Go
    time.Duration through `%v`/`%s`: `1m2.5s`, `250.3ms`, `45.1µs`)."""
    return (f"total duration:       {total}\nload duration:        {load}\nprompt eval count:    26 token(s)\n"
            f"prompt eval duration: {prompt_eval}\nprompt eval rate:     103.87 tokens/s\n"
            f"eval count:           290 token(s)\neval duration:        {evaluation}\n"
            "eval rate:            60.42 tokens/s\n")


@pytest.mark.parametrize(("durations", "seconds"), [
    (("5.123456789s", "12.5ms", "250.3ms", "4.8s"), (5.123456789, 0.0125, 0.2503, 4.8)),
    (("1m2.5s", "45.1µs", "1.25s", "1h2m3s"), (62.5, 4.51e-5, 1.25, 3723.0)),
])
def test_every_label_ollama_verbose_prints_lands_on_its_name_its_durations_in_seconds(
        durations: tuple[str, str, str, str], seconds: tuple[float, ...]) -> None:
    # ollama/ollama api/types.go: a Go duration's minutes and hours before its seconds (`1m2.5s`) were
    # read as `1`, and a millisecond duration kept its printed number
    [record] = read_benchmark_output(_ollama_summary(*durations)).records
    assert (record.metric, record.value, record.figures["prompt_tok_s"]) == ("output_tok_s", 60.42, 103.87)
    durations_read = [record.figures[name] for name in
                      ("total_duration", "load_duration", "prompt_eval_duration", "eval_duration")]
    assert durations_read == pytest.approx(seconds)
    assert (record.figures["prompt_eval_count"], record.figures["eval_count"]) == (26.0, 290.0)


# modelscope/evalscope evalscope/perf/utils/rich_display.py (print_summary()): its Basic Information table and
# its Detailed Performance Metrics table as rich draws them at the 100 columns it asks for (two-line headers;
# the narrowest header cut to `TPOT(…`)
EVALSCOPE_SUMMARY = (
    "Basic Information:\n"
    "┌───────────────────────┬──────────────────────────────────────────────────────┐\n"
    "│ Model                 │ qwen2.5                                              │\n"
    "│ Test Dataset          │ openqa                                               │\n"
    "│ API Type              │ openai                                               │\n"
    "│ Total Generated       │ 25,600 tokens                                        │\n"
    "│ Total Test Time       │ 40.25 seconds                                        │\n"
    "│ Avg Output Rate       │ 636.02 tokens/sec                                    │\n"
    "│ Output Path           │ outputs/x                                            │\n"
    "└───────────────────────┴──────────────────────────────────────────────────────┘\n"
    "\n"
    "\n"
    "                                    Detailed Performance Metrics\n"
    "┏━━━━━━┳━━━━━━┳━━━━━━┳━━━━━━━━━┳━━━━━━━━━┳━━━━━━━━━┳━━━━━━━━━┳━━━━━━━━━┳━━━━━━━━┳━━━━━━━━━┳━━━━━━━━┓\n"
    "┃      ┃      ┃      ┃     Avg ┃     P99 ┃     Avg ┃     P99 ┃     Avg ┃    P99 ┃    Gen. ┃ Success┃\n"
    "┃Conc. ┃ Rate ┃  RPS ┃ Lat.(s) ┃ Lat.(s) ┃ TTFT(s) ┃ TTFT(s) ┃ TPOT(s) ┃ TPOT(… ┃  toks/s ┃    Rate┃\n"
    "┡━━━━━━╇━━━━━━╇━━━━━━╇━━━━━━━━━╇━━━━━━━━━╇━━━━━━━━━╇━━━━━━━━━╇━━━━━━━━━╇━━━━━━━━╇━━━━━━━━━╇━━━━━━━━┩\n"
    "│    1 │  INF │ 0.52 │   1.923 │   2.101 │   0.045 │   0.061 │   0.015 │  0.019 │   66.54 │  100.0%│\n"
    "│    8 │  INF │ 3.10 │   2.580 │   3.020 │   0.120 │   0.310 │   0.020 │  0.025 │  396.80 │  100.0%│\n"
    "└──────┴──────┴──────┴─────────┴─────────┴─────────┴─────────┴─────────┴────────┴─────────┴────────┘\n"
)


def test_every_label_evalscopes_performance_summary_prints_lands_on_its_name() -> None:
    records = read_benchmark_output(EVALSCOPE_SUMMARY).records
    assert [(r.metric, r.value, r.concurrency) for r in records] == [("output_tok_s", 66.54, 1), ("output_tok_s", 396.8, 8)]
    # `P99 TPOT(…`: the unit the terminal cut is unknown, its value kept as printed
    figures = [{name: value for name, value in r.figures.items() if name != "tpot_ms_p99"} for r in records]
    assert figures[0] == {
        "request_throughput": 0.52, "latency_s": 1.923, "latency_s_p99": 2.101, "ttft_ms_mean": 45.0,
        "ttft_ms_p99": 61.0, "tpot_ms_mean": 15.0, "success_rate": 100.0}
    assert (figures[1]["latency_s"], figures[1]["latency_s_p99"], figures[1]["ttft_ms_p99"]) == (2.58, 3.02, 310.0)


def test_every_key_llmperfs_summary_prints_lands_on_its_name() -> None:
    # ray-project/llmperf token_benchmark_ray.py: its `_summary.json` keys (`results_` + metric + statistic)
    # and the lines it prints last. Each request's own rate is a user's, not the run's; `per min` is a unit
    summary = {"model": "meta-llama/Llama-2-7b-chat-hf", "mean_input_tokens": 550, "num_concurrent_requests": 4,
               "results_inter_token_latency_s_quantiles_p50": 0.021, "results_inter_token_latency_s_mean": 0.022,
               "results_ttft_s_quantiles_p99": 0.9, "results_ttft_s_mean": 0.45,
               "results_end_to_end_latency_s_quantiles_p50": 3.1, "results_end_to_end_latency_s_stddev": 0.3,
               "results_request_output_throughput_token_per_s_quantiles_p50": 45.1,
               "results_request_output_throughput_token_per_s_mean": 44.2,
               "results_mean_output_throughput_token_per_s": 170.3, "results_num_completed_requests": 100,
               "results_num_completed_requests_per_min": 75.0}
    [record] = read_benchmark_output(json.dumps(summary, indent=4)).records
    assert (record.metric, record.value, record.concurrency) == ("output_tok_s", 170.3, 4)
    assert {name: record.figures[name] for name in (
        "itl_ms_median", "itl_ms_mean", "ttft_ms_p99", "ttft_ms_mean", "e2e_ms_median", "e2e_ms_std",
        "per_user_output_tok_s_median", "per_user_output_tok_s", "request_throughput")} == pytest.approx({
            "itl_ms_median": 21.0, "itl_ms_mean": 22.0, "ttft_ms_p99": 900.0, "ttft_ms_mean": 450.0,
            "e2e_ms_median": 3100.0, "e2e_ms_std": 300.0, "per_user_output_tok_s_median": 45.1,
            "per_user_output_tok_s": 44.2, "request_throughput": 1.25})
    printed = ("Number Of Errored Requests: 0\nOverall Output Throughput: 170.3\n"
               "Number Of Completed Requests: 100\nCompleted Requests Per Minute: 75.0\n")
    [record] = read_benchmark_output(printed).records
    assert (record.value, record.figures["request_throughput"]) == (170.3, 1.25)


def _offline_block(rows: tuple[tuple[str, object], ...]) -> str:
    """sgl-project/sglang python/sglang/bench_offline_throughput.py's result block."""
    return ("\n" + _vllm_section(" Offline Throughput Benchmark Result ", "=")
            + "".join(_vllm_line(label, value) for label, value in rows) + "=" * 50 + "\n")


def test_every_label_sglang_bench_offline_throughput_prints_lands_on_its_name() -> None:
    text = _offline_block((
        ("Backend:", "engine"), ("Successful requests:", 2000), ("Benchmark duration (s):", 350.25),
        ("Total input tokens:", 626729), ("Total generated tokens:", 388685),
        ("Last generation throughput (tok/s):", 33.36), ("Request throughput (req/s):", 5.71),
        ("Input token throughput (tok/s):", 1789.23), ("Output token throughput (tok/s):", 1109.45),
        ("Total token throughput (tok/s):", 2898.68)))
    [record] = read_benchmark_output(text).records
    assert (record.metric, record.value) == ("output_tok_s", 1109.45)
    assert record.figures == {
        "completed_requests": 2000.0, "bench_duration_s": 350.25, "total_input_tokens": 626729.0,
        "total_output_tokens": 388685.0, "last_generation_throughput_tok_s": 33.36, "request_throughput": 5.71,
        "prompt_tok_s": 1789.23, "total_tok_s": 2898.68}


def test_sglang_offline_embeddings_block_reads_its_input_rate_and_mean_latency() -> None:
    # the embeddings variant of bench_offline_throughput.py: no generated tokens, `Total generated
    # embeddings` and `Average e2e latency (s)`; it was refused as a block without an output rate
    text = _offline_block((
        ("Backend:", "engine"), ("Successful requests:", 1000), ("Benchmark duration (s):", 15.48),
        ("Total input tokens:", 296523), ("Total generated embeddings:", 1000), ("Average e2e latency (s):", 8.01),
        ("Last generation throughput (tok/s):", 0.0), ("Request throughput (req/s):", 64.6),
        ("Input token throughput (tok/s):", 19156.4)))
    parsed = read_benchmark_output(text)
    [record] = parsed.records
    assert (record.metric, record.value, parsed.problems) == ("prompt_tok_s", 19156.4, [])
    assert (record.figures["e2e_ms_mean"], record.figures["request_throughput"]) == (8010.0, 64.6)


def _one_batch_run(scale: float) -> str:
    """One run of sgl-project/sglang python/sglang/bench_one_batch.py (latency_test_run_once())."""
    text = f"Prefill. latency: {0.25074:6.5f} s, throughput: {32671.13 * scale:9.2f} token/s\n"
    for i in range(5):
        text += (f"Decode {i}. Batch size: 32, latency: {0.00975 + i * 1e-5:6.5f} s, "
                 f"throughput: {3283.21 * scale:9.2f} token/s\n")
    text += f"Decode.  median latency: {0.00976:6.5f} s, median throughput: {3280.16 * scale:9.2f} token/s\n"
    return text + f"Total. latency: {0.553:6.3f} s, throughput: {16665.96 * scale:9.2f} token/s\n"


def test_every_line_sglang_bench_one_batch_prints_lands_on_its_name() -> None:
    # its warmup run is printed first, under `Warmup ...`; the run after `Benchmark ...` is the result
    text = "Warmup ...\n" + _one_batch_run(0.5) + "Benchmark ...\n" + _one_batch_run(1.0)
    [record] = read_benchmark_output(text).records
    assert (record.metric, record.value, record.batch_size) == ("output_tok_s", 3280.16, 32)
    assert record.figures == {"prefill_latency_s": 0.25074, "prefill_tok_s": 32671.13,
                              "median_decode_latency_s": 0.00976, "total_latency_s": 0.553, "total_tok_s": 16665.96}


GENAI_PERF_TABLE = (  # the 0.0.8+ console table of test_bench_output_tools.py's `genai-perf-table-new` case
    '                              NVIDIA GenAI-Perf | LLM Metrics                              \n'
    '┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━┳━━━━━━━━┳━━━━━━━━┳━━━━━━━━┓\n'
    '┃                            Statistic ┃    avg ┃    min ┃    max ┃    p99 ┃\n'
    '┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━╇━━━━━━━━╇━━━━━━━━╇━━━━━━━━┩\n'
    '│             Time To First Token (ms) │  16.26 │  12.39 │  17.25 │  17.09 │\n'
    '│            Inter Token Latency (ms) │   1.85 │   1.55 │   2.04 │   2.02 │\n'
    '│                 Request Latency (ms) │ 499.20 │ 451.01 │ 554.61 │ 548.69 │\n'
    '│ Output Token Throughput (tokens/sec) │ 520.87 │    N/A │    N/A │    N/A │\n'
    '│         Request Throughput (per sec) │   1.99 │    N/A │    N/A │    N/A │\n'
    '│                Request Count (count) │  40.00 │    N/A │    N/A │    N/A │\n'
    '└──────────────────────────────────────┴────────┴────────┴────────┴────────┘\n'
)


def test_every_row_genai_perfs_console_table_prints_lands_on_its_name() -> None:
    # triton-inference-server/perf_analyzer genai-perf console exporter: a statistic it did not
    # compute prints `N/A`, which is no part of the row's name (`request_count_n_a_n_a_n_a_avg` before)
    [record] = read_benchmark_output(GENAI_PERF_TABLE).records
    assert (record.metric, record.value) == ("output_tok_s", 520.87)
    latencies = {f"{quantity}_ms_{stat}": value for quantity, values in (
        ("ttft", (16.26, 12.39, 17.25, 17.09)), ("itl", (1.85, 1.55, 2.04, 2.02)),
        ("e2e", (499.2, 451.01, 554.61, 548.69))) for stat, value in zip(("mean", "min", "max", "p99"), values, strict=True)}
    assert record.figures == {**latencies, "request_throughput": 1.99, "request_count_avg": 40.0}


def test_a_chinese_key_value_tables_rates_are_named_by_their_words_not_their_unit_alone() -> None:
    # vllm-project/vllm-ascend docs/source/community/testing/*/test_report.md: a `指标 | 值` table of
    # vllm/benchmarks/throughput.py's `Throughput: ... requests/s, ... total tokens/s, ... output tokens/s`
    # figures; `总` (total) and `输出` (output) tell its two token rates apart, the output rate the headline
    text = ("| 指标 | 值 |\n|------|------|\n| 请求吞吐量 | 3.45 requests/s |\n| 总Token吞吐量 | 3976.97 tokens/s |\n"
            "| 輸出Token吞吐量 | 441.89 tokens/s |\n")
    [record] = read_benchmark_output(text).records
    assert (record.metric, record.value) == ("output_tok_s", 441.89)
    assert record.figures == {"request_throughput": 3.45, "total_tok_s": 3976.97}


def test_a_chinese_tables_concurrency_column_and_first_token_latency_are_named() -> None:
    # the same reports' vocabulary for `vllm bench serve` figures: a `并发` (concurrency) column keys each row,
    # `平均首Token时延` is the mean time to first token, as `Mean TTFT (ms)` is in vllm/benchmarks/serve.py's block
    table = ("| 模型 | 并发 | 请求吞吐量 (req/s) | 總吞吐量 (tok/s) | 输出吞吐量 (tok/s) | 平均首Token时延 (ms) |\n"
             "|---|---|---|---|---|---|\n| Qwen3-8B | 4 | 1.2 | 900.5 | 120.3 | 310.5 |\n"
             "| Qwen3-8B | 8 | 2.1 | 1500.5 | 220.3 | 402.7 |\n")
    records = read_benchmark_output(table).records
    assert [(r.value, r.concurrency, r.figures) for r in records] == [
        (120.3, 4, {"request_throughput": 1.2, "total_tok_s": 900.5, "ttft_ms_mean": 310.5}),
        (220.3, 8, {"request_throughput": 2.1, "total_tok_s": 1500.5, "ttft_ms_mean": 402.7})]
