"""Rules for results users paste around a tool's output: a table with a column per run, prose above it, and a
figure quoted back in the user's own words."""

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
