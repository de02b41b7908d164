"""The labels benchmark tools print, each fed with a number, land on the figure names
docs/formats.md gives them: one rule per label shape, the tool that prints it cited."""

from __future__ import annotations

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
