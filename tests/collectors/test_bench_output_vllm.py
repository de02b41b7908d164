"""vLLM outputs: `vllm bench serve` / benchmark_serving.py, `--save-result` JSON, server lines."""

from __future__ import annotations

import json
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


def test_bench_serve_block_with_speculative_decoding_section() -> None:
    [record] = parse("vllm_bench_serve.txt")
    assert record.engine == "vllm" and record.source_format == "vllm.bench_serve"
    assert record.value == 1236.71 and record.concurrency == 8
    assert record.model == "Qwen/Qwen3-8B"
    assert (record.dataset, record.input_len, record.output_len) == ("random", 1024, 256)
    assert record.accept_length == 2.90
    assert (record.num_steps, record.num_draft_tokens) == (3, 4)  # 3 positions + the root
    figures = record.figures
    assert figures["acceptance_rate"] == pytest.approx(0.6333)
    assert [figures[f"accept_pos_{k}"] for k in (1, 2, 3)] == pytest.approx(
        [0.8154, 0.6210, 0.4636]
    )
    # tau = 1 + sum of the unconditional per-position rates (FORMATS.md)
    assert 1 + sum(figures[f"accept_pos_{k}"] for k in (1, 2, 3)) == pytest.approx(2.90)
    assert figures["itl_ms_median"] == 14.88 and figures["failed_requests"] == 0
    assert figures["drafts"] == 17655 and figures["accepted_tokens"] == 33545
    assert derive_config_name(record) == "vllm Qwen3-8B c=8"


def test_old_benchmark_serving_takes_concurrency_printed_before_the_block() -> None:
    [record] = parse("vllm_benchmark_serving_old.txt")
    assert record.value == 1408.53 and record.concurrency == 128
    assert record.model == "deepseek-ai/DeepSeek-R1" and record.dataset == "sharegpt"
    assert record.input_len is None and record.accept_length is None
    assert record.figures["total_tok_s"] == 7034.09  # old label "Total Token throughput"
    assert record.figures["e2e_ms_p99"] == 71388.04


def test_save_result_json() -> None:
    [record] = parse("vllm_save_result.json")
    assert record.source_format == "vllm.bench_serve.json" and record.value == 1236.71
    assert record.concurrency == 8 and record.model == "Qwen/Qwen3-8B"
    assert record.accept_length == 2.90 and record.num_draft_tokens == 4
    assert record.figures["acceptance_rate"] == pytest.approx(0.6333)
    assert record.figures["accept_pos_3"] == 0.4636 and record.figures["ttft_ms_std"] == 30.5


def test_save_result_pretty_printed_and_appended_lines() -> None:
    result = json.loads((FIXTURES / "vllm_save_result.json").read_text())
    assert len(parse_benchmark_output(json.dumps(result, indent=4))) == 1
    lines = "\n".join(json.dumps({**result, "max_concurrency": c}) for c in (1, 2, 4))
    assert [r.concurrency for r in parse_benchmark_output(lines)] == [1, 2, 4]


def test_save_result_without_speculation() -> None:
    result = json.loads((FIXTURES / "vllm_save_result.json").read_text())
    plain = {k: v for k, v in result.items() if not k.startswith("spec_decode_")}
    [record] = parse_benchmark_output(json.dumps(plain))
    assert record.accept_length is None and record.num_draft_tokens is None
    assert not any(name.startswith("accept") for name in record.figures)


def test_server_spec_decoding_lines_summarised() -> None:
    [record] = parse("vllm_server.log")
    assert record.source_format == "vllm.server_log" and record.engine_version == "0.10.2"
    assert record.value == 199.1  # median of the non-idle generation throughputs
    assert (record.spec_algorithm, record.num_steps, record.num_draft_tokens) == ("eagle3", 3, 4)
    assert record.model == "meta-llama/Llama-3.1-8B-Instruct"
    accepted, drafted = 1342 + 999 + 999, 2013 + 1998 + 1998
    # tau = 1 + accepted / drafts, with drafts = drafted tokens / 3 positions
    assert record.accept_length == pytest.approx(1 + accepted / (drafted / 3))
    assert record.figures["acceptance_rate"] == pytest.approx(accepted / drafted)
    assert record.figures["spec_lines"] == 3 and record.figures["accept_pos_1"] > 0.75
    assert derive_config_name(record) == "vllm Llama-3.1-8B-Instruct EAGLE3"


def test_server_spec_lines_without_throughput_record_the_acceptance_length() -> None:
    text = (FIXTURES / "vllm_server.log").read_text()
    only_spec = "\n".join(line for line in text.splitlines() if "SpecDecoding" in line)
    [record] = parse_benchmark_output(only_spec)
    assert (record.metric, record.unit) == ("accept_length", "tok/step")
    assert record.value == record.accept_length and record.value > 1


def test_speculative_settings_from_the_non_default_args_line() -> None:
    # vLLM 0.10+ prints the CLI's non-default arguments as a dict at startup
    text = (
        "(APIServer pid=1) INFO 09-04 10:58:01 [utils.py:326] non-default args: {'model': "
        "'Qwen/Qwen3-Next-80B-A3B', 'speculative_config': {'method': 'qwen3_next_mtp', "
        "'num_speculative_tokens': 2}}\n"
        "(APIServer pid=1) INFO 09-04 11:01:16 [metrics.py:125] SpecDecoding metrics: Mean acceptance"
        " length: 2.25, Accepted throughput: 76.61 tokens/s, Drafted throughput: 122.60 tokens/s, "
        "Accepted: 766 tokens, Drafted: 1226 tokens, Per-position acceptance rate: 0.710, 0.540, "
        "Avg Draft acceptance rate: 62.5%\n"
    )
    [record] = parse_benchmark_output(text)
    assert (record.spec_algorithm, record.num_steps, record.num_draft_tokens) == (
        "qwen3_next_mtp",
        2,
        3,
    )
    assert record.accept_length == 2.25 and record.figures["accept_pos_2"] == 0.54


def test_a_sweep_takes_each_blocks_own_preceding_settings() -> None:
    text = (FIXTURES / "vllm_benchmark_serving_old.txt").read_text()
    sweep = text + text.replace("concurrency: 128", "concurrency: 64").replace(
        "max_concurrency=128", "max_concurrency=64"
    )
    assert [r.concurrency for r in parse_benchmark_output(sweep)] == [128, 64]


def test_v1_0_8_spec_lines_without_a_mean_length_give_the_rate_and_acceptance() -> None:
    # vLLM 0.8's V1 SpecDecoding line (v1/spec_decode/metrics.py): no mean acceptance length;
    # idle lines (`nan%`, nothing drafted) are left out
    text = (
        "INFO 04-02 18:03:41 [loggers.py:87] Engine 000: Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 150.2 tokens/s, Running: 1 reqs, Waiting: 0 reqs, GPU KV cache usage: 0.1%, Prefix cache hit rate: 50.0%\n"
        "INFO 04-02 18:03:41 [metrics.py:53] SpecDecoding metrics: Draft acceptance rate: 65.3%, Accepted: 1234 tokens, Drafted: 1890 tokens\n"
        "INFO 04-02 18:03:51 [loggers.py:87] Engine 000: Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 0.0 tokens/s, Running: 0 reqs, Waiting: 0 reqs, GPU KV cache usage: 0.1%, Prefix cache hit rate: 50.0%\n"
        "INFO 04-02 18:03:51 [metrics.py:53] SpecDecoding metrics: Draft acceptance rate: nan%, Accepted: 0 tokens, Drafted: 0 tokens\n"
    )
    [record] = parse_benchmark_output(text)
    assert (record.source_format, record.metric, record.value) == ("vllm.server_log", "output_tok_s", 150.2)
    assert record.accept_length is None and record.figures["spec_lines"] == 1
    assert record.figures["acceptance_rate"] == 1234 / 1890


# vllm-project/vllm#23000: `--endpoint /v1/embeddings` generates nothing, so its block prints
# no output rate and no generated tokens; its headline is the total token throughput.
EMBEDDINGS = ("============ Serving Benchmark Result ============\n"
              "Successful requests:                     10000     \n"
              "Benchmark duration (s):                  24.10     \n"
              "Total input tokens:                      5102595   \n"
              "Request throughput (req/s):              414.91    \n"
              "{generated}"
              "Total Token throughput (tok/s):          211711.04 \n"
              "==================================================\n")


def test_an_embeddings_block_is_read_by_its_total_token_throughput() -> None:
    [record] = parse_benchmark_output(EMBEDDINGS.format(generated=""))
    assert (record.metric, record.unit, record.value) == ("total_tok_s", "tok/s", 211711.04)
    assert record.figures["request_throughput"] == 414.91 and "total_tok_s" not in record.figures


def test_a_generating_block_without_its_output_rate_is_still_refused() -> None:
    generated = "Total generated tokens:                  1280      \n"
    assert parse_benchmark_output(EMBEDDINGS.format(generated=generated)) == []


# vllm-project/vllm-ascend#6235: pytest's captured log of a block, the excerpt starting below its
# title and cut after the TTFT section (no closing rule).
CUT_ABOVE = "".join(f"INFO     root:vllm_bench.py:126 {line}\n" for line in (
    "Maximum request concurrency:             40        ",
    "Benchmark duration (s):                  32.27     ",
    "Output token throughput (tok/s):         1549.45   ",
    "Total token throughput (tok/s):          3532.75   ",
    "---------------Time to First Token----------------",
    "Median TTFT (ms):                        95.77     ",
    "P99 TTFT (ms):                           182.70    "))


def test_a_paste_starting_inside_a_logged_block_is_that_block_cut() -> None:
    [record] = parse_benchmark_output(CUT_ABOVE)
    assert (record.source_format, record.value, record.concurrency) == ("vllm.bench_serve", 1549.45, 40)
    assert record.partial == ["latency"] and record.figures["ttft_ms_p99"] == 182.70


def test_labelled_lines_without_a_section_heading_are_not_taken_for_a_block() -> None:
    text = "Benchmark duration (s): 32.27\nOutput token throughput (tok/s): 1549.45\n"
    [record] = parse_benchmark_output(text)
    assert record.source_format != "vllm.bench_serve" and record.value == 1549.45


def test_a_serve_block_whose_title_lost_its_rules_is_still_the_tools_block() -> None:
    # vllm-project/vllm vllm/benchmarks/serve.py: print("{s:{c}^{n}}".format(s=" Serving Benchmark Result ",
    # n=50, c="=")) then "{:<40} {:<10}" lines; a paste that drops the `=` fill keeps " Serving Benchmark Result "
    rows = [("Successful requests:", "5"), ("Request rate configured (RPS):", "4.00"),
            ("Benchmark duration (s):", "35.58"), ("Request throughput (req/s):", "0.14"),
            ("Output token throughput (tok/s):", "35.98"), ("Total token throughput (tok/s):", "53.97")]
    block = " Serving Benchmark Result \n" + "".join(f"{label:<40} {value:<10}\n" for label, value in rows)
    latency = "{s:{c}^{n}}\n".format(s="Time to First Token", n=50, c="-") + f"{'Mean TTFT (ms):':<40} {489.53:<10.2f}\n"
    whole = read_benchmark_output(block + latency + "=" * 50 + "\n").records
    cut = read_benchmark_output(block + latency).records
    assert [(r.source_format, r.value, r.partial) for r in whole] == [("vllm.bench_serve", 35.98, [])]
    assert [(r.value, r.partial, r.figures["request_rate"]) for r in cut] == [(35.98, ["latency"], 4.0)]


def test_a_serve_block_with_its_title_and_closing_rule_commented_out_is_whole() -> None:
    # vllm-project/vllm vllm/benchmarks/serve.py's title and closing `"=" * 50`, each behind a `#` in
    # the paste (the lines between as printed): the closing rule still closes the block
    rows = [("Successful requests:", "1"), ("Request throughput (req/s):", "0.03"),
            ("Output token throughput (tok/s):", "26.79"), ("Total token throughput (tok/s):", "53.58")]
    text = ("#" + "{s:{c}^{n}}".format(s=" Serving Benchmark Result ", n=50, c="=") + "\n"
            + "".join(f"{label:<40} {value:<10}\n" for label, value in rows) + "#" + "=" * 50 + "\n")
    parsed = read_benchmark_output(text)
    assert [(r.value, r.partial, r.figures["total_tok_s"]) for r in parsed.records] == [(26.79, [], 53.58)]


def test_two_serve_blocks_glued_at_the_closing_rule_are_both_whole() -> None:
    # vllm-project/vllm vllm/benchmarks/serve.py: `print("=" * 50)` closes a block; a paste that lost the
    # line break puts it in front of the next block's "{s:{c}^{n}}" title
    def block(rate: float) -> str:
        title = "{s:{c}^{n}}".format(s=" Serving Benchmark Result ", n=50, c="=")
        return (f"{title}\n{'Request throughput (req/s):':<40} {4.88:<10.2f}\n"
                f"{'Output token throughput (tok/s):':<40} {rate:<10.2f}\n"
                f"{'Total Token throughput (tok/s):':<40} {7492.68:<10.2f}\n" + "=" * 50)
    records = read_benchmark_output(block(2497.56) + block(3100.10) + "\n").records
    assert [(r.value, r.partial) for r in records] == [(2497.56, []), (3100.1, [])]


# vllm-project/vllm vllm/benchmarks/serve.py prints each line as `{:<40} {:<10.2f}`; a README shows
# the block as a template (`xxx` where the numbers go) above a table of the results it measured
_TEMPLATE_BLOCK = """============ Serving Benchmark Result ============
Successful requests:                     1000
Benchmark duration (s):                  {value}
Request throughput (req/s):              {value}
Total token throughput (tok/s):          {value}
----------------End-to-end Latency----------------
Mean E2EL (ms):                          {value}
"""


@pytest.mark.parametrize("placeholder", ["xxx", "XX.XX", "<value>"])
def test_a_template_block_with_placeholders_is_no_cut_block_and_the_table_below_is_the_result(placeholder: str) -> None:
    table = ("| Workload | Total Token Throughput (tok/s) | Request Throughput (req/s) |\n|:---|:---|:---|\n"
             "| 16k | 84038.27 | 5.13 |\n")
    result = read_benchmark_output(_TEMPLATE_BLOCK.format(value=placeholder) + "\n" + table)
    assert [(r.metric, r.value, r.figures["request_throughput"]) for r in result.records] == [
        ("total_tok_s", 84038.27, 5.13)]
    assert result.problems == []
    [cut] = read_benchmark_output(_TEMPLATE_BLOCK.format(value="12.5")).records  # a real block cut short stays one
    assert (cut.source_format, cut.value, bool(cut.partial)) == ("vllm.bench_serve", 12.5, True)


@pytest.mark.parametrize(("first", "second"), [("main:", "PR:"), ("**baseline**", "**patched**"), ("before", "after")])
def test_serving_blocks_under_user_labels_are_named_by_them_not_by_the_tools_own_lines(first: str, second: str) -> None:
    # the block prints label-like lines of its own (`Waiting for endpoint to become up in 600 seconds`,
    # `Per-position acceptance (%):`), never standing apart under a blank line as a user's label does
    block = (FIXTURES / "vllm_bench_serve.txt").read_text()
    faster = block.replace("1236.71", "1301.50")
    records = read_benchmark_output(f"{first}\n{block}\n{second}\n{faster}").records
    assert [(r.value, r.config) for r in records] == [(1236.71, first.strip("*:")), (1301.50, second.strip("*:"))]
    [alone] = read_benchmark_output(block).records
    assert alone.config is None


def _serve_block(output_rate: float, concurrency: int | None = None) -> str:
    """A `vllm bench serve` result block as vllm/benchmarks/serve.py prints it (`{:<40} {:<10}`), made-up figures."""
    rows = [("Successful requests:", 40), ("Benchmark duration (s):", 100.21)]
    rows += [("Maximum request concurrency:", concurrency)] if concurrency else []
    rows += [("Total input tokens:", 37068), ("Total generated tokens:", 36709), ("Request throughput (req/s):", 0.40),
             ("Output token throughput (tok/s):", output_rate), ("Total Token throughput (tok/s):", 736.23)]
    return ("{s:{c}^{n}}\n".format(s=" Serving Benchmark Result ", n=50, c="=")
            + "".join(f"{label:<40} {value:<10}\n" for label, value in rows) + "=" * 50 + "\n")


# vllm-project/recipes moonshotai/Kimi-K2.5.md @ 4df0313fe94c82060d96e0d3e08af4c0dc32f15b: "Concurrency is 4." (and
# a paragraph's `..., OSL=1024, concurrency=4. Results ...`) above a block that prints no concurrency line; the
# nearest such sentence before a block names its run, never the next block's, never over a printed one.
def test_concurrency_stated_in_prose_above_a_block_is_its_load() -> None:
    text = ("Benchmarks on 8xB200, ISL=1024, OSL=1024, concurrency=4. Results sourced from a CI run.\n\n"
            "#### Low Latency (TP8)\n\nConcurrency is 4. See the full run.\n\n```\n" + _serve_block(366.32)
            + "```\n\n#### Throughput\n\nThe second run, with 64 concurrent requests:\n\n" + _serve_block(2000.5)
            + "\nWe also ran concurrency 1, 4 and 16 elsewhere.\n\n" + _serve_block(3000.5)
            + "\nConcurrency is 8.\n\n" + _serve_block(4000.5, concurrency=16))
    records = read_benchmark_output(text).records
    assert [(r.value, r.concurrency) for r in records] == [(366.32, 4), (2000.5, 64), (3000.5, None), (4000.5, 16)]


# kyuz0/amd-r9700-vllm-toolboxes benchmarks/benchmark_results_amd-r9700/*_qps4.0_latency.json @
# 09549e2b5a1d1b108ccf618080f8398d83f78b92: a wrapper script stores `vllm bench serve`'s whole stdout as one
# JSON string, `{"success": true, "raw_output": "Namespace(...)\n=== Serving Benchmark Result ===\n..."}`;
# a JSON document of no known result shape has its multi-line strings read as the text they hold.
def test_a_block_stored_inside_a_json_string_is_read_as_text() -> None:
    stdout = "Namespace(request_rate=4.0, max_concurrency=None)\nTraffic request rate: 4.0\n" + _serve_block(614.17)
    text = json.dumps({"success": True, "raw_output": stdout, "errors": []}, indent=2)
    (record,) = read_benchmark_output(text).records
    assert (record.value, record.figures["request_rate"], record.concurrency) == (614.17, 4.0, None)
    assert read_benchmark_output(json.dumps({"success": True, "note": "no figures\nhere"})).records == []


# vllm-project/vllm vllm/benchmarks/serve.py prints `{:<40} {:<10}` label lines under `{s:{c}^{n}}` section titles; a
# copy from a rendered page (sgl-project/sglang PR pastes kept as `> ` quotes, the corpus's b39) splits a label's
# words by two spaces (`Output  token throughput (tok/s):`, `---Time  to First Token---`): the same labels.
def test_labels_with_doubled_spaces_in_a_quoted_block_are_the_tools_labels() -> None:
    block = _serve_block(366.32, concurrency=4)
    doubled = "".join("> " + line.replace("Output token", "Output  token").replace("Serving Benchmark", "Serving  Benchmark")
                      .replace("request concurrency", "request  concurrency") + "\n" for line in block.splitlines())
    (record,) = read_benchmark_output(doubled).records
    assert (record.value, record.concurrency, record.figures["total_tok_s"]) == (366.32, 4, 736.23)


# vllm-project/vllm vllm/benchmarks/latency.py (`vllm bench latency --output-json`, json.dump(indent=4)): the average
# latency in seconds, every iteration's latency in a list, and `"percentiles": dict(zip(percentages, ...))` keyed by
# the bare percentage (`"10"`, `"50"`): named as its text form names them (`50% percentile latency: ... seconds`)
LATENCY_JSON = {"num_prompts": 8, "batch_size": 8, "output_len": 128, "avg_latency": 1.2345,
                "avg_latency_per_prompt": 0.1543, "latencies": [1.2, 1.25, 1.23],
                "percentiles": {"10": 1.2001, "25": 1.21, "50": 1.2301, "75": 1.24, "90": 1.2455, "99": 1.2498}}


@pytest.mark.parametrize("indent", [4, None])
def test_bench_latency_json_percentiles_are_named_latency_percentiles_and_its_list_no_figure(indent: int | None) -> None:
    (record,) = read_benchmark_output(json.dumps(LATENCY_JSON, indent=indent)).records
    assert (record.metric, record.value, record.batch_size) == ("latency_s", 1.2345, 8)
    assert (record.figures["latency_s_median"], record.figures["latency_s_p99"]) == (1.2301, 1.2498)
    assert not {"10", "50", "latencies"} & set(record.figures)


def _pytorch_benchmark_records(metrics: dict[str, list[float]], extra_info: dict[str, float]) -> str:
    """vllm/benchmarks/lib/utils.py convert_to_pytorch_benchmark_format's list, one entry per metric."""
    return json.dumps([{"benchmark": {"name": "vLLM benchmark", "extra_info": {"args": {"model": "Qwen/Qwen3-8B"}}},
                        "model": {"name": "Qwen/Qwen3-8B"},
                        "metric": {"name": name, "benchmark_values": values, "extra_info": extra_info}}
                       for name, values in metrics.items()])


def test_vllm_bench_throughputs_pytorch_benchmark_json_reads_as_its_output_json() -> None:
    # vllm-project/vllm vllm/benchmarks/throughput.py save_to_pytorch_benchmark_format (SAVE_TO_PYTORCH_BENCHMARK_FORMAT
    # set): `requests_per_second` and `tokens_per_second` as metrics, elapsed_time, num_requests, total_num_tokens beside
    text = _pytorch_benchmark_records({"requests_per_second": [3.45], "tokens_per_second": [1035.2]},
                                      {"elapsed_time": 28.98, "num_requests": 100, "total_num_tokens": 30000})
    [record] = read_benchmark_output(text).records
    assert (record.metric, record.value, record.figures["request_throughput"]) == ("total_tok_s", 1035.2, 3.45)


def test_a_pytorch_benchmark_metric_of_many_values_is_a_sample_not_a_figure() -> None:
    # vllm/benchmarks/latency.py save_to_pytorch_benchmark_format: `latency` holds every iteration's time, its
    # summary in extra_info (`avg_latency`); only the summary is read
    text = _pytorch_benchmark_records({"latency": [1.21, 1.25, 1.19]}, {"avg_latency": 1.2167})
    [record] = read_benchmark_output(text).records
    assert (record.metric, record.value) == ("latency_s", 1.2167)
