"""Shapes of lines and cells that tools and users print, each read by a general rule: a timing
line whose rate is `inf`, spreads written `+/-` in table cells, runs laid out as columns."""

from __future__ import annotations

from sessiontui.collectors.bench_output import read_benchmark_output


def test_a_timings_line_with_an_inf_rate_is_no_csv_header() -> None:
    # llama.cpp's llama_print_timings (ggml-org/llama.cpp, llama.cpp, 2023): `%s:      sample time =
    # %10.2f ms / %5d runs   (%8.2f ms per token, %8.2f tokens per second)`, 1e6 / t_sample_us * n
    # printing `inf` when no time was spent sampling; its comma is no column separator
    text = (
        "Mainline:\n```\n"
        " llama_print_timings:        load time =    3267.94 ms\n"
        " llama_print_timings:      sample time =       0.00 ms /     1 runs   (    0.00 ms per token,"
        "      inf tokens per second)\n"
        " llama_print_timings: prompt eval time =  239758.30 ms / 15888 tokens (   15.09 ms per token,"
        "    66.27 tokens per second)\n"
        " llama_print_timings:        eval time =   20901.19 ms /  1152 runs   (   18.14 ms per token,"
        "    55.12 tokens per second)\n"
        " llama_print_timings:       total time =  263779.14 ms / 17040 tokens\n```\n"
    )
    [record] = read_benchmark_output(text).records
    assert (record.value, record.figures["prompt_tok_s"]) == (55.12, 66.27)


def test_a_spread_typed_as_ascii_plus_minus_reads_as_its_mean() -> None:
    # the real rows of a speculative-decoding table (ikawrakow/ik_llama.cpp#2081): `62.6 +/- 0.1`
    # is `62.6 ± 0.1` typed in ASCII, beside a `76.8% +/- 0.0%` acceptance cell
    text = (
        "| Prompt | Variant | t/s | Accept rate | Draft stats |\n|---|---:|---:|---:|---|\n"
        "| code | baseline | 26.58 | N/A | - |\n"
        "| code | mtp | 62.6 +/- 0.1 | 76.8% +/- 0.0% | `mtp: drafts 266/302, tokens 696/906` |\n"
        "| code | draft | 32.3 +/- 2.3 | 26.5% +/- 4.0% | `draft: drafts 220/516, tokens 482/1546` |\n"
    )
    assert [r.value for r in read_benchmark_output(text).records] == [26.58, 62.6, 32.3]


def test_a_table_of_llama_bench_tests_by_row_holds_one_run_per_column() -> None:
    # a user's comparison (ggml-org/llama.cpp#25635): llama-bench's tests name the rows, the builds
    # compared name the columns, a delta column beside them; each build is a run
    text = (
        "| test   | baseline 3f08ef2c5 | PR de97e22f6    | delta   |\n"
        "|--------|--------------------|-----------------|---------|\n"
        "| pp2048 | 105.09 +/- 0.56 t/s| 107.10 +/- 0.60 | +1.91%  |\n"
        "| tg128  |   7.61 +/- 0.03 t/s|   7.62 +/- 0.00 | +0.13%  |\n"
    )
    records = read_benchmark_output(text).records
    assert [(r.value, r.figures["prompt_tok_s"]) for r in records] == [(7.61, 105.09), (7.62, 107.1)]


def test_a_table_keyed_by_a_setting_is_no_run_per_column() -> None:
    # input lengths key the rows (a number sets the load, it names no figure): a result per row
    text = ("| Input tokens | Prefill | Decode |\n|---:|---:|---:|\n"
            "| 2,000 | 352.16 tok/s | 22.01 tok/s |\n| 59,893 | 253.34 tok/s | 12.88 tok/s |\n")
    assert [r.value for r in read_benchmark_output(text).records] == [22.01, 12.88]


def test_columns_naming_one_figure_and_each_its_run_hold_one_run_each() -> None:
    # a PR's table (b4rtaz/distributed-llama#252): every column after the model's is `Tokens/s`
    # measured by the build named in parentheses
    text = ("| Model | Tokens/s (version 0.15.1) | Tokens/s (version 0.15.3) | Tokens/s (This PR) |\n"
            "| --- | --- | --- | --- |\n| `llama3_1_8b_instruct_q40` | 24.80 | 33.32  | 45.33 |\n")
    records = read_benchmark_output(text).records
    assert [r.value for r in records] == [24.8, 33.32, 45.33]
    assert "This PR" in (records[-1].config or "")


def test_columns_naming_their_units_in_parentheses_are_figures_not_runs() -> None:
    text = ("| Model | Throughput (tok/s) | Throughput (req/s) | Latency (ms) |\n|---|---|---|---|\n"
            "| llama-8b | 1200.5 | 4.2 | 35.1 |\n")
    [record] = read_benchmark_output(text).records
    assert (record.value, record.figures["request_throughput"]) == (1200.5, 4.2)


def test_a_guidellm_statistic_spanning_several_columns_names_each_of_them() -> None:
    # guidellm's console (vllm-project/guidellm src/guidellm/benchmark/outputs/console.py): each
    # column's header is [group, name, units], a cell shared by neighbours printed once and closed
    # by extra bars; since vllm-project/guidellm#617 the token rates print their Mean alone
    text = (
        "ℹ Server Throughput Statistics (All Requests)\n"
        "|============|=======|======|=========|==============|===============|==============|\n"
        "| Benchmark  | Requests             ||| Input Tokens | Output Tokens | Total Tokens |\n"
        "| Strategy   | Concurrency || Per Sec | Per Sec      | Per Sec       | Per Sec      |\n"
        "|            | Mdn   | Mean | Mean                                               ||||\n"
        "|------------|-------|------|---------|--------------|---------------|--------------|\n"
        "| concurrent | 25.0  | 25.0 | 2.3     | 2662.3       | 2319.4        | 4775.9       |\n"
        "|============|=======|======|=========|==============|===============|==============|\n"
    )
    [record] = read_benchmark_output(text).records
    assert (record.value, record.figures["total_tok_s"], record.partial) == (2319.4, 4775.9, ["latency"])


def test_fields_of_one_line_separated_by_bars_each_keep_their_label() -> None:
    # an evaluation script's summary lines (quack-ai/companion#139): `|`-separated fields, each a
    # mean with its spread in parentheses; ingestion is the prompt rate, generation the output rate
    text = (
        "HTTP: ttft 180.28ms (± 54.44) | ingestion 76.27 tok/s (± 9.39) | generation 38.00 tok/s (± 1.43)\n"
        "Ollama-reported: load duration 0.25ms (± 0.35) | ingestion 77.58 tok/s (± 9.46)"
        " | generation 38.33 tok/s (± 1.49)\n"
    )
    records = read_benchmark_output(text).records
    assert [(r.value, r.figures["prompt_tok_s"]) for r in records] == [(38.0, 76.27), (38.33, 77.58)]
    assert "generation" not in records[0].figures  # a spread is no figure of its own


_OPTIMUM_REPORT = """\
+ prefill:
  + throughput:
    + throughput: 13.37 (samples/s)
+ decode:
  + latency:
    + count: 10
    + mean: 4.630073 (s)
  + throughput:
    + throughput: 13.61 (tokens/s)
"""


def test_a_report_tree_with_units_in_parentheses_reads_by_its_sections() -> None:
    # optimum-benchmark's report log (huggingface/optimum-benchmark, BenchmarkReport.log): a tree of
    # `+ name:` nodes, each value's unit in parentheses; the decode throughput is the output rate
    [record] = read_benchmark_output(_OPTIMUM_REPORT).records
    assert (record.value, record.unit) == (13.61, "tok/s")


def test_a_process_tag_before_every_logger_prefix_is_no_part_of_the_output() -> None:
    # optimum-benchmark's setup_logging(prefix=...) (optimum_benchmark/logging_utils.py) writes
    # `[MAIN-PROCESS]` or `[ISOLATED-PROCESS]` before `[%(asctime)s][%(name)s][%(levelname)s] - `
    logged = "".join(f"[MAIN-PROCESS][2025-03-28 20:18:31,55{i}][report][INFO] - {line}\n"
                     for i, line in enumerate(_OPTIMUM_REPORT.splitlines()))
    [record] = read_benchmark_output(logged).records
    assert (record.value, record.figures["decode_mean"]) == (13.61, 4.630073)


def test_a_cell_printing_its_change_over_another_column_after_its_value_reads_as_that_value() -> None:
    # sudoingX/qwen38-mtp#11 (a vLLM MTP PR's table): `96.1 (+52%)` is the rate with its gain over the
    # baseline column in parentheses; `(1.84x)` the same as a ratio; neither is a value, nor the row's name
    text = ("| config | tok/s | speedup |\n|---|---|---|\n| base | 63.3 | 1.00x |\n"
            "| mtp n=2 | 96.1 (+52%) | 1.52x |\n| mtp n=4 | 116.3 (1.84x) | 1.84x |\n")
    records = read_benchmark_output(text).records
    assert [(r.config, r.value) for r in records] == [("base", 63.3), ("mtp n=2", 96.1), ("mtp n=4", 116.3)]


def test_a_speculative_tables_unitless_baseline_and_gain_columns_are_decode_rates() -> None:
    # sudoingX/qwen38-mtp#11: a vLLM MTP table with an Acceptance column, its Baseline column and the column
    # printing its gain over it (`96.1 (+52%)`) without a unit: the decode rates such a table compares; the bare
    # Acceptance fraction is the acceptance rate; `n-max` (integers, no gain) stays a setting's figure
    text = ("| | Baseline | With flag | n-max | Acceptance |\n|---|---|---|---|---|\n"
            "| this row | 63.3 | 96.1 (+52%) | 2 | 0.59 |\n| same box | 63.3 | 116.3 (+84%) | 4 | 0.42 |\n")
    records = read_benchmark_output(text).records
    assert [(r.metric, r.value, r.figures["baseline_throughput_tok_s"], r.figures["acceptance_rate"])
            for r in records] == [("output_tok_s", 96.1, 63.3, 0.59), ("output_tok_s", 116.3, 63.3, 0.42)]
    assert read_benchmark_output(text.replace("Acceptance", "Notes")).records == []  # no speculative table


def test_a_gain_in_full_width_parentheses_after_a_rate_with_its_unit_is_no_part_of_it() -> None:
    # the same gain cell typed in a CJK write-up (`48.1 tok/s（+24%）`), in a two-column table whose rows are
    # read as labelled cells (sudoingX/qwen38-mtp#11 for the `(+52%)` shape)
    text = "| config | decode |\n|---|---|\n| eagle | 38.8 tok/s |\n| dflash n=3 | 48.1 tok/s（+24%） |\n"
    assert [(r.config, r.value) for r in read_benchmark_output(text).records] == [("eagle", 38.8), ("dflash n=3", 48.1)]
