"""llama.cpp `llama-bench`: markdown table and JSON/JSONL output."""

from __future__ import annotations

from pathlib import Path

import pytest

from sessiontui.collectors.bench_output import (
    derive_config_name,
    parse_benchmark_output,
    read_benchmark_output,
)

FIXTURES = Path(__file__).parents[1] / "fixtures" / "bench"


def test_markdown_table_rows_by_test_kind() -> None:
    records = parse_benchmark_output((FIXTURES / "llama_bench.md").read_bytes())
    assert [(r.metric, r.value) for r in records] == [
        ("prompt_tok_s", 11873.42),
        ("output_tok_s", 212.35),
        ("output_tok_s", 198.07),
        ("prompt_tok_s", 7011.80),
        ("output_tok_s", 97.64),
    ]
    prompt, gen, deep = records[:3]
    assert prompt.input_len == 512 and gen.output_len == 128 and gen.figures["t_s_std"] == 0.41
    assert deep.figures["n_depth"] == 4096
    assert gen.engine == "llama.cpp" and gen.engine_version == "b9672 (74ade5274)"
    assert gen.model == "llama 8B Q4_K - Medium" and gen.concurrency == 1
    assert gen.source_format == "llama.cpp.llama-bench" and gen.figures["ngl"] == 99
    assert derive_config_name(gen) == "llama.cpp llama 8B Q4_K - Medium c=1"


@pytest.mark.parametrize("name", ["llama_bench.json", "llama_bench.jsonl"])
def test_json_and_jsonl_output(name: str) -> None:
    records = parse_benchmark_output((FIXTURES / name).read_bytes())
    assert [(r.metric, r.value) for r in records] == [
        ("prompt_tok_s", 11873.42),
        ("output_tok_s", 212.35),
    ]
    gen = records[1]
    assert gen.source_format == "llama.cpp.llama-bench.json" and gen.output_len == 128
    assert gen.engine_version == "b9672 (74ade5274)" and gen.figures["t_s_std"] == 0.41
    assert gen.model == "llama 8B Q4_K - Medium" and gen.figures["n_gpu_layers"] == 99


def test_old_test_names_and_combined_tests() -> None:
    table = (
        "| model | backend | threads | test | t/s |\n"
        "| --- | --- | ---: | ---: | ---: |\n"
        "| llama 7B mostly Q4_0 | CPU | 8 | pp 512 | 61.22 ± 0.51 |\n"
        "| llama 7B mostly Q4_0 | CPU | 8 | pp512+tg128 | 30.10 ± 0.20 |\n"
    )
    records = parse_benchmark_output(table)
    assert [(r.metric, r.input_len, r.output_len) for r in records] == [
        ("prompt_tok_s", 512, None),
        ("total_tok_s", 512, 128),
    ]
    assert records[0].figures["threads"] == 8 and records[0].engine_version is None


def test_columns_are_matched_by_name_not_position() -> None:
    table = (
        "| test | model | t/s | backend |\n|---|---|---|---|\n"
        "| tg128 | qwen3 4B Q8_0 | 150.5 ± 1.0 | Metal |\n"
    )
    [record] = parse_benchmark_output(table)
    assert (record.value, record.model, record.output_len) == (150.5, "qwen3 4B Q8_0", 128)


def test_a_table_copied_from_githubs_rendering_without_outer_pipes_is_read_row_by_row() -> None:
    # ggml-org/llama.cpp examples/llama-bench/llama-bench.cpp markdown_printer: `| model | ... | t/s |`
    # rows; copied back from a rendered GitHub page they lose their outer pipes and padding
    table = (
        "model | size | params | backend | ngl | test | t/s\n"
        "-- | -- | -- | -- | -- | -- | --\n"
        "llama 7B Q4_0 | 3.83 GiB | 7.24 B | Metal | 99 | pp 128 | 144.47 ± 0.22\n"
        "llama 7B Q4_0 | 3.83 GiB | 7.24 B | Metal | 99 | tg 128 | 20.06 ± 0.66\n"
    )
    records = parse_benchmark_output(table)
    assert [(r.metric, r.value, r.model) for r in records] == [
        ("prompt_tok_s", 144.47, "llama 7B Q4_0"), ("output_tok_s", 20.06, "llama 7B Q4_0")]
    assert records[0].source_format == "llama.cpp.llama-bench"


def test_rows_whose_header_the_user_elided_are_known_by_their_test_and_mean_std_cells() -> None:
    # llama-bench.cpp markdown_printer prints `test` then `t/s` (`mean ± std`) as its last two columns
    text = ("./bin/llama-bench -m llama-2-7b.Q4_0.gguf -ngl 99\n...\n"
            "| llama 7B Q4_0 |   3.56 GiB |     6.74 B | SYCL |  99 |         pp512 |     11.10 ± 3.48 |\n"
            "| llama 7B Q4_0 |   3.56 GiB |     6.74 B | SYCL |  99 |         tg128 |     26.38 ± 0.15 |\n\n"
            "build: d62e4aaa (3215)\n")
    records = parse_benchmark_output(text)
    assert [(r.metric, r.value, r.model, r.engine_version) for r in records] == [
        ("prompt_tok_s", 11.1, "llama 7B Q4_0", "b3215 (d62e4aaa)"),
        ("output_tok_s", 26.38, "llama 7B Q4_0", "b3215 (d62e4aaa)")]


def test_truncated_table_drops_the_partial_row() -> None:
    text = (FIXTURES / "llama_bench.md").read_text()
    cut = text[: text.index("97.64")]
    assert len(parse_benchmark_output(cut)) == 4


def test_each_table_takes_the_build_line_printed_after_it() -> None:
    table = (FIXTURES / "llama_bench.md").read_text()
    newer = table.replace("build: 74ade5274 (9672)", "build: 0a1b2c3d4 (9701)")
    versions = {r.engine_version for r in parse_benchmark_output(table + newer)}
    assert versions == {"b9672 (74ade5274)", "b9701 (0a1b2c3d4)"}


@pytest.mark.parametrize("verb", ["decoded", "generated"])  # `generated`: the first, ggml-org/llama.cpp#2926
def test_llama_speculative_summary_in_either_spelling_gives_speed_and_acceptance(verb: str) -> None:
    text = (f"{verb} 129 tokens in 248.340 seconds, speed: 0.519 t/s\n\n"
            "n_draft   = 8\nn_predict = 129\nn_drafted = 132\nn_accept  = 47\naccept    = 35.606%\n")
    [record] = parse_benchmark_output(text)
    assert (record.value, record.output_len) == (0.519, 129)
    assert record.figures["acceptance_rate"] == pytest.approx(0.35606)


def test_llama_speculative_runs_pasted_one_after_another_are_a_record_each() -> None:
    # ggml-org/llama.cpp#3006: each run's counts printed above its decoding line, under a heading
    run = ("## With{out} heuristic\nn_draft   = {draft}\nn_predict = 266\nn_drafted = 245\nn_accept  = 231\n"
           "accept    = {accept}%\n\ndecoded  266 tokens in   11.990 seconds, speed:   {speed} t/s\n\n")
    text = (run.format(out="", draft=53, accept="94.286", speed="22.185")
            + run.format(out="out", draft=16, accept="87.795", speed="20.099"))
    records = parse_benchmark_output(text)
    assert [(r.value, r.num_steps) for r in records] == [(22.185, 53), (20.099, 16)]
    assert [r.figures["acceptance_rate"] for r in records] == pytest.approx([0.94286, 0.87795])


def test_print_timings_behind_journald_and_debug_prefixes_with_a_padded_equals_read_both_rates() -> None:
    # ollama/ollama#5143: ollama's bundled server under journalctl, `prompt eval time     =` aligned
    prefix = "Aug  2 20:54:27 ollama-ubuntu-jammy ollama[420]: DEBUG [print_timings] "
    text = (f"{prefix}prompt eval time     =     109.71 ms /    13 tokens (    8.44 ms per token,   118.49"
            " tokens per second) | n_prompt_tokens_processed=13 slot_id=0\n"
            f"{prefix}generation eval time =     155.06 ms /    10 runs   (   15.51 ms per token,    64.49"
            " tokens per second) | n_decoded=10 slot_id=0\n")
    [record] = parse_benchmark_output(text)
    assert (record.value, record.figures["prompt_tok_s"]) == (64.49, 118.49)


# ggml-org/llama.cpp tools/server/server.cpp print_timings: `prompt eval time = %10.2f ms / %5d tokens (...
# %8.2f tokens per second)` then `       eval time = ...`; a user pastes two servers' timings under labels
_TIMINGS = ("prompt eval time =   35744.63 ms /  1053 tokens (   33.95 ms per token,    {prompt} tokens per second)\n"
            "       eval time =   33454.47 ms /   426 tokens (   78.53 ms per token,    {gen} tokens per second)\n")


@pytest.mark.parametrize("between", ["ik_llama.cpp -fa -fmoe  ~ 1000 - 500\n\n", "---\n"])
def test_server_timings_a_line_no_server_prints_separates_are_two_runs(between: str) -> None:
    text = ("llama.cpp ~ 1000 - 500\n" + _TIMINGS.format(prompt=29.46, gen=12.73) + "\n" + between
            + _TIMINGS.format(prompt=52.46, gen=10.43))
    records = read_benchmark_output(text).records
    assert [(r.value, r.figures["prompt_tok_s"]) for r in records] == [(12.73, 29.46), (10.43, 52.46)]


def test_server_timings_of_one_log_stay_one_summary() -> None:
    text = ("srv  log_server_r: request: POST /completion 127.0.0.1 200\n" + _TIMINGS.format(prompt=29.46, gen=12.0)
            + "slot      release: id  0 | task 5 | stop processing\n" + _TIMINGS.format(prompt=30.0, gen=14.0))
    [record] = read_benchmark_output(text).records
    assert (record.value, record.figures["requests"]) == (13.0, 2.0)


@pytest.mark.parametrize(("wrap", "prefix"), [(False, ""), (True, ""), (True, "2025-04-01 10:00:00,000 - INFO - ")])
def test_ik_llama_bench_repacked_line_inside_the_table_is_no_row_and_no_end(wrap: bool, prefix: str) -> None:
    # ikawrakow/ik_llama.cpp llama-bench with `-rtr 1`: the loader's `============ Repacked N tensors` is
    # printed between the header rule and the rows; a narrow terminal may wrap every row in two as well
    rows = [("| llama 8B IQ4_NL - 4.5 bpw      |   4.35 GiB |     8.03 B | CPU", f"|       4 |   1 | {test} | {rate} |")
            for test, rate in (("pp64", "183.79 ± 3.47"), ("tg64", "110.81 ± 0.03"))]
    text = ("| model                          |       size |     params | backend    | threads | rtr | test | t/s |\n"
            "| ------------------------------ | ---------: | ---------: | ---------- | ------: | --: | ---: | --: |\n"
            "============ Repacked 225 tensors\n"
            + "".join(f"{head}\n   {tail}\n" if wrap else f"{head}    {tail}\n" for head, tail in rows))
    records = read_benchmark_output("".join(f"{prefix}{line}\n" for line in text.splitlines())).records
    assert [(r.source_format, r.metric, r.value) for r in records] == [
        ("llama.cpp.llama-bench", "prompt_tok_s", 183.79), ("llama.cpp.llama-bench", "output_tok_s", 110.81)]


# llama-server's timing lines, as tools/server/server.cpp's print_timings() formats them
# (ggml-org/llama.cpp, `prompt eval time = %10.2f ms / %5d tokens (%8.2f ms per token, %8.2f tokens
# per second)` and `eval time = ... runs ...`); each run is one task of `tokens_per_s` generation.
def _timings(prompt_tok_s: float, tokens_per_s: float) -> str:
    return (f"prompt eval time =     100.00 ms /   512 tokens (    0.20 ms per token, {prompt_tok_s:8.2f} tokens"
            f" per second)\n       eval time =    1000.00 ms /   128 runs   (    7.81 ms per token, "
            f"{tokens_per_s:8.2f} tokens per second)\n      total time =    1100.00 ms /   640 tokens\n")


@pytest.mark.parametrize(("first", "second"), [
    ("main:", "PR:"), ("commit abc1234", "commit def5678"), ("before", "after"), ("with -rtr", "without -rtr"),
    ("**baseline**", "**patched**"), ("## Run 1", "## Run 2"), ("rtr=yes", "rtr=no"), ("`-c 8192 -fa`:", "`-c 8192`:"),
])
def test_user_labelled_runs_of_server_timings_are_one_record_each_named_by_the_label(first: str, second: str) -> None:
    text = f"{first}\n{_timings(500.0, 20.0)}\n{second}\n{_timings(400.0, 25.0)}"
    records = parse_benchmark_output(text)
    assert [(r.value, r.figures["prompt_tok_s"]) for r in records] == [(20.0, 500.0), (25.0, 400.0)]
    assert [r.config for r in records] == [first.strip("*#` :"), second.strip("*#` :")]


def test_a_label_over_several_runs_names_them_all_and_an_outer_label_names_the_runs_below_it() -> None:
    group = "Three runs with -rtr:\n" + "".join(_timings(500.0, v) for v in (7.26, 7.29, 7.56))
    nested = ("commit 24c010b3\n\nrtr=yes\n" + _timings(62.97, 8.79) + "\nrtr=no\n" + _timings(16.65, 8.78)
              + "\ncommit 14292913\n\nrtr=yes\n" + _timings(10.86, 8.72))
    [three, other] = parse_benchmark_output(group + "\nwithout -rtr:\n" + _timings(300.0, 4.28))
    assert (three.value, three.figures["requests"], three.config) == (7.29, 3, "Three runs with -rtr")
    assert (other.value, other.config) == (4.28, "without -rtr")
    assert [r.config for r in parse_benchmark_output(nested)] == [
        "commit 24c010b3 · rtr=yes", "commit 24c010b3 · rtr=no", "commit 14292913 · rtr=yes"]


@pytest.mark.parametrize("line", [
    "srv  update_slots: all slots are idle",  # server.cpp's own lines carry `:`, `|` or `[`
    "slot launch_slot_: id  0 | task 0 | processing task",
    "INFO [            update_slots] all slots are idle | tid=\"1\" timestamp=1",
    "Starting warmup with 1 sequences...",  # a client's sentence (SGLang's bench_serving)
    "---------------Time to First Token----------------",  # a section title between rules
    "....................",
])
def test_a_tool_line_between_server_timings_is_no_user_label(line: str) -> None:
    [record] = parse_benchmark_output(_timings(500.0, 20.0) + line + "\n" + _timings(500.0, 30.0))
    assert (record.value, record.figures["requests"], record.config) == (25.0, 2, None)


def test_a_sweep_bench_table_copied_tab_separated_reads_row_by_row_like_its_markdown_copy() -> None:
    # ikawrakow/ik_llama.cpp examples/sweep-bench/sweep-bench.cpp prints this header; a browser
    # copy of the rendered table gives its cells tab-separated, one row a line
    markdown = ("|    PP |     TG |   N_KV |   T_PP s | S_PP t/s |   T_TG s | S_TG t/s |\n"
                "|-------|--------|--------|----------|----------|----------|----------|\n"
                "|  7168 |   1792 |      0 |   28.049 |   255.56 |  329.723 |     5.43 |\n")
    tabbed = ("PP\tTG\tN_KV\tT_PP s\tS_PP t/s\tT_TG s\tS_TG t/s\n7168\t1792\t0\t28.007\t255.94\t414.487\t4.32\n"
              "7168\t1792\t7168\t30.100\t238.14\t450.000\t3.98\n")
    records = parse_benchmark_output(f"branch:\n{markdown}\nvs previous test on main:\n{tabbed}")
    assert [(r.value, r.figures["prompt_tok_s"], r.figures["n_kv"]) for r in records] == [
        (5.43, 255.56, 0), (4.32, 255.94, 0), (3.98, 238.14, 7168)]
    ended = tabbed.replace("\n7168\t1792\t7168", "\nsome words\n7168\t1792\t7168")  # a line not a row ends it
    assert [r.value for r in parse_benchmark_output(ended)] == [4.32]


# ggml-org/llama.cpp tools/server (2026): the running `n_gen = %d, tg = %.2f t/s, tg_3s = %.2f t/s` line every few
# seconds, and at a task's end `draft acceptance = %0.5f (%5d accepted / %5d generated), mean len = %5.2f`, its mean
# len the tokens each verification step emits (1 + accepted / steps), the accept length
DRAFT_LINE = ("1.29.407.011 I slot print_timing: id  3 | task 6 | draft acceptance = 0.44444 (  228 accepted /"
              "   513 generated), mean len =  2.33\n")


@pytest.mark.parametrize("timings", [
    "1.29.406.983 I slot print_timing: id  3 | task 6 | \nprompt eval time =    1193.36 ms /   707 tokens (    1.69 ms"
    " per token,   592.45 tokens per second)\n       eval time =   53204.70 ms /  3519 tokens (   15.12 ms per token,"
    "    66.14 tokens per second)\n      total time =   54398.06 ms /  4226 tokens\n",
    "1.29.406.900 I slot print_timing: id  3 | task 6 | n_gen =  3000, tg =  66.14 t/s, tg_3s =  67.02 t/s\n",
])
def test_server_draft_line_gives_acceptance_and_its_mean_len_the_accept_length(timings: str) -> None:
    (record,) = read_benchmark_output(timings + DRAFT_LINE).records
    assert (record.value, record.accept_length) == (66.14, 2.33)
    assert (record.figures["accepted_tokens"], record.figures["draft_tokens"]) == (228, 513)


# ggml-org/llama.cpp common/sampling.cpp: common_perf_print (the newest llama-cli's perf lines) prints
# `LOG_INF("%s: prompt eval time = ...", __func__)`, so each line begins `common_perf_print:`; a grep of several runs
# may list a run's eval line before its prompt eval line
PERF_LINE = ("1.08.156.033 I common_perf_print:        eval time =    {ms} ms /   255 runs   (   26.98 ms per token,"
             "    {tg} tokens per second)\n1.08.156.032 I common_perf_print: prompt eval time =    2704.81 ms /   591"
             " tokens (    4.58 ms per token,   {pp} tokens per second)\n")


def test_common_perf_print_lines_are_one_run_each_pair_not_server_tasks() -> None:
    text = PERF_LINE.format(ms=6880.20, tg=37.06, pp=218.50) + PERF_LINE.format(ms=7241.28, tg=35.21, pp=200.03)
    records = read_benchmark_output(text).records
    assert [(r.metric, r.value, r.figures["prompt_tok_s"]) for r in records] == [("output_tok_s", 37.06, 218.5),
                                                                                 ("output_tok_s", 35.21, 200.03)]


# lhl/strix-halo-testing llama-cpp-fix-wmma/README.md: llama-bench rows of two backends side by side, each column
# named by its backend alone (no `t/s`), then a signed `Δ%`; llama-bench measures tokens per second
COMPARED = ("| model                  |       size |   params | ngl | test           |     HIP |    WMMA |      Δ% |\n"
            "|------------------------|------------|----------|----:|----------------|--------:|--------:|--------:|\n"
            "| llama 1B Q4_K - Medium | 762.81 MiB |   1.24 B |  99 | pp512          | 4703.28 | 4884.42 |   3.85% |\n"
            "| llama 1B Q4_K - Medium | 762.81 MiB |   1.24 B |  99 | tg128 @ d1024  |  188.79 |  182.6  |  -3.28% |\n")


def test_backend_columns_of_llama_bench_rows_are_their_rates() -> None:
    records = read_benchmark_output(COMPARED).records
    assert [(r.metric, r.value) for r in records] == [("prompt_tok_s", 4703.28), ("output_tok_s", 188.79)]
    assert all("ngl" not in r.figures or r.figures["ngl"] == 99 for r in records)  # a whole-number setting, no rate


def test_backend_columns_without_llama_bench_tests_stay_unread() -> None:
    # the same columns beside any other first column are no llama-bench rows: nothing says what they count
    text = COMPARED.replace("| test           |", "| case           |")
    assert read_benchmark_output(text).records == []
