"""Rules for outputs pasted into discussion threads: a table with a column per run, a user's sentence beside a
tool's table, a fork's own test names, a figure quoted back in the user's own words."""

from __future__ import annotations

from sessiontui.collectors.bench_output import read_benchmark_output


def test_each_run_columns_average_row_is_its_own_mean_not_an_average_of_the_runs_before() -> None:
    # Mooncake docs/source/deployment/integrations/lmcache/index.md (real rows): a metric a row, a run a column;
    # each column's `Average TTFT` is that run's mean, so the cold-start column is no trial the hit column averages
    table = ("| Metric | Cold Start (First Round) | Cache Hit (Second Round) | **Improvement** |\n"
             "|---|---|---|---|\n"
             "| Average TTFT | 21,707.62 ms | 6,708.39 ms | **↓ 69.1%** |\n"
             "| Request Throughput (req/s) | 1.11 | 3.23 | **↑ 191.0%** |\n"
             "| Output Token Throughput (tok/s)| 71.24 | 202.91 | **↑ 184.8%** |\n")
    setup = "*   **Hardware:** 8 × H800 GPUs\n*   **Workload:** 50 requests, each generating 64 tokens.\n\n"
    for text in (table, setup + table):
        records = read_benchmark_output(text).records
        assert [(r.value, r.figures["request_throughput"]) for r in records] == [(71.24, 1.11), (202.91, 3.23)]


def test_trials_then_their_average_line_still_read_as_the_average() -> None:
    # the rule the one above must not break: `Average of eval rate:` after the trials' `eval rate:` lines
    text = "eval rate: 19.0 tokens/s\neval rate: 19.4 tokens/s\nAverage of eval rate: 19.2 tokens/s\n"
    assert [r.value for r in read_benchmark_output(text).records] == [19.2]


def test_a_users_sentence_beside_a_short_question_above_a_sweep_table_is_no_result_of_its_own() -> None:
    # ikawrakow/ik_llama.cpp discussions/586 (real lines): the rate the user saw, said in a sentence under a
    # question too short to be one, then llama-sweep-bench's table (examples/sweep-bench/sweep-bench.cpp's header)
    text = ("Is this related to #451 ?\n"
            "I am running DeepSeek-R1-V3-0324-IQ4_K_R4 (ubergarm's Q4) quant and while the token generation is"
            " decent (i have seen 12 tps at 0, around 66% when it goes to)\n\n"
            "|    PP |     TG |   N_KV |   T_PP s | S_PP t/s |   T_TG s | S_TG t/s |\n"
            "|-------|--------|--------|----------|----------|----------|----------|\n"
            "|  8192 |   2048 |      0 |   65.721 |   124.65 |  173.995 |    11.77 |\n"
            "|  8192 |   2048 |   8192 |   69.385 |   118.07 |  190.416 |    10.76 |\n")
    records = read_benchmark_output(text).records
    assert [(r.value, r.figures["prompt_tok_s"]) for r in records] == [(11.77, 124.65), (10.76, 118.07)]


def test_ik_llama_benchs_gp_test_is_generation_at_the_prompts_depth() -> None:
    # ikawrakow/ik_llama.cpp examples/llama-bench/llama-bench.cpp: TEST_KIND_GP's label `tg%d@pp%d` (n_gen, n_prompt),
    # its t/s counting generated tokens only; row from ik_llama.cpp pull/283 (real)
    header = ("| model                          |       size |     params | backend    | ngl |          test |"
              "              t/s |\n| ------------------------------ | ---------: | ---------: | ---------- | --: |"
              " ------------: | ---------------: |\n")
    row = "| deepseek2 671B IQ2_K_R4 - 2.375 bpw | 226.00 GiB |   672.05 B | CUDA       |  63 | {} | {} |\n"
    text = header + row.format("pp512", "105.50 ± 0.62") + row.format("tg64@pp512", "10.31 ± 0.00")
    records = read_benchmark_output(text).records
    assert [(r.metric, r.value, r.output_len, r.figures.get("n_depth")) for r in records] == [
        ("prompt_tok_s", 105.5, None, None), ("output_tok_s", 10.31, 64, 512.0)]


def test_a_users_line_quoting_a_tools_figures_back_is_no_second_run() -> None:
    # ikawrakow/ik_llama.cpp pull/480 (real lines): the rate the user got elsewhere, llama-cli's llama_print_timings
    # (src/llama.cpp's `eval time = %10.2f ms / %5d runs   (%8.2f ms per token, %8.2f tokens per second)`), then
    # the user's bold quote of its eval line
    timings = ("with the same -ot and compareable settings on llama.cpp i am running with around 7.4T/s\n\n"
               "llama_print_timings: prompt eval time =   70116.00 ms /   220 tokens (  318.71 ms per token,"
               "     3.14 tokens per second)\n"
               "llama_print_timings:        eval time =  132398.81 ms /     2 runs   (66199.41 ms per token,"
               "     0.02 tokens per second)\n")
    quote = "\ni get this **66199.41 ms per token,     0.02 tokens per second**\n"
    records = read_benchmark_output(timings + quote).records
    assert [(r.value, r.figures["prompt_tok_s"]) for r in records] == [(0.02, 3.14)]


def test_a_second_run_sharing_some_figures_with_the_first_is_still_a_run() -> None:
    # the rule above must not swallow a run that repeats only part of the line before (`100 runs`, `10.00 ms`)
    line = "llama_print_timings:        eval time =  {} ms /   100 runs   (   10.00 ms per token,   {} tokens per second)\n"
    text = line.format("1000.00", "100.00") + "\n" + line.format("1250.00", "80.00")
    assert [r.value for r in read_benchmark_output(text).records] == [100.0, 80.0]
