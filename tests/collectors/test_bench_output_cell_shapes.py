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
