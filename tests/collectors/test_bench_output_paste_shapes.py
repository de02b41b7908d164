"""A benchmark result reads the same whatever a paste's journey added around it: a launcher's
mark on every line, a BOM, no-break spaces, a fence, an indent, other programs' warnings."""

from __future__ import annotations

from pathlib import Path

import pytest

from sessiontui.collectors.bench_output import read_benchmark_output

FIXTURES = Path(__file__).parents[1] / "fixtures" / "bench"
# Real output (tests/fixtures/bench/INDEX.md names its source), relayed as each path relays it.
SGLANG = (FIXTURES / "sglang_bench_serving.txt").read_text(encoding="utf-8")
VLLM = (FIXTURES / "vllm_bench_serve.txt").read_text(encoding="utf-8")


def _each_line(prefix: str, text: str) -> str:
    return "".join(prefix + line for line in text.splitlines(keepends=True))


RELAYS = {
    "docker compose v2": lambda text: _each_line("sglang-bench-1  | ", text),
    "docker compose v1": lambda text: _each_line("bench_1     | ", text),
    "mpirun": lambda text: _each_line("[1,0]<stdout>:", text),
    "SageMaker": lambda text: _each_line("[1,mpirank:0,algo-1]<stdout>:", text),
    "kubectl logs --prefix": lambda text: _each_line("[pod/bench-7d9f/client] ", text),
    "srun -l": lambda text: _each_line("0: ", text),
    "torchrun rank": lambda text: _each_line("[rank0]: ", text),
    "UTF-8 BOM": lambda text: "\ufeff" + text,
    "no-break spaces": lambda text: text.replace(": ", ":\u00a0"),
    "fence": lambda text: f"```text\n{text}```\n",
    "details block": lambda text: f"<details><summary>log</summary>\n\n```\n{text}```\n</details>\n",
    "indented": lambda text: _each_line("    ", text),
    "warnings between": lambda text: text.replace("\n", "\n/opt/venv/lib/python3.10/site-packages/torch/cuda/__init__.py:128:"
                                                   " UserWarning: CUDA initialization: Unexpected error\n"
                                                   "  return torch._C._cuda_getDeviceCount() > 0\n", 3),
    "NCCL lines between": lambda text: text.replace("\n", "\nnode1:1234:1299 [0] NCCL INFO Connected all rings\n", 2),
}


@pytest.mark.parametrize("relay", RELAYS)
@pytest.mark.parametrize("output", [SGLANG, VLLM], ids=["sglang", "vllm"])
def test_a_relayed_result_reads_as_printed(output: str, relay: str) -> None:
    plain = read_benchmark_output(output).records
    relayed = read_benchmark_output(RELAYS[relay](output)).records
    assert plain and [r.value for r in relayed] == [r.value for r in plain]
    assert [r.concurrency for r in relayed] == [r.concurrency for r in plain]
    assert relayed[0].figures == plain[0].figures


def test_a_relayed_table_keeps_its_rows() -> None:
    # A Markdown table relayed by docker compose: the mark goes, the table's own bars stay.
    table = "| Model | Concurrency | Output tok/s |\n|---|---|---|\n| llama | 8 | 912.5 |\n| qwen | 8 | 800.1 |\n"
    records = read_benchmark_output(_each_line("bench-1  | ", table)).records
    assert [(r.value, r.concurrency) for r in records] == [(912.5, 8), (800.1, 8)]


def test_a_title_a_logger_prefix_hid_still_reads_generically() -> None:
    # tests/fixtures/corpus: a Go load tester printing a vLLM-like title behind log timestamps,
    # its block without vLLM's own fields: read by its labels, not refused as a cut vLLM block.
    text = ("2024/07/11 23:37:56 ============ Serving Benchmark Result ============\n"
            "2024/07/11 23:37:56 Concurrency: 1\n"
            "2024/07/11 23:37:56 Request throughput (req/sec): 3.014\n"
            "2024/07/11 23:37:56 Generation throughput (tokens/second) avg: 12.057\n"
            "2024/07/11 23:37:56 End to End Latency (ms) avg: 328.207\n")
    records = read_benchmark_output(text).records
    assert [r.value for r in records] == [12.057]


def test_a_tab_after_a_field_separator_reads_as_the_space_it_replaced() -> None:
    # llama-server's `print_timing` line (ggml-org/llama.cpp tools/server/server.cpp,
    # "n_decoded = %d, tg = %.2f t/s"), copied from a web page that turned `, ` and `| ` into tabs
    line = "slot print_timing: id  3 |\ttask 0 |\tn_decoded =   1501,\ttg =  12.82 t/s,\ttg_3s =  12.67 t/s\n"
    records = read_benchmark_output(line).records
    assert [(r.metric, r.value) for r in records] == [("output_tok_s", 12.82)]


def test_a_tab_for_a_column_gap_keeps_the_lines_label_and_value_apart() -> None:
    # SGLang bench_one_batch (sgl-project/sglang python/sglang/bench_one_batch.py) with its
    # space runs typed as tabs, the whole paste indented under a tabbed sentence
    text = ("Here\tis\tmy\tlog:\n"
            "\tDecode.  median latency: 0.00572 s,\tmedian throughput:\t174.85 token/s\n"
            "Total. latency:\t0.062 s,\tthroughput:\t1122.76 token/s\n")
    records = read_benchmark_output(text).records
    assert [(r.metric, r.value) for r in records] == [("output_tok_s", 174.85)]
    assert records[0].figures["total_tok_s"] == 1122.76


def test_an_indented_concurrency_line_above_a_vllm_block_still_names_its_load() -> None:
    # vLLM benchmark_serving.py prints `Maximum request concurrency: N` above its result block
    # (vllm-project/vllm benchmarks/benchmark_serving.py); a paste indented it under a sentence
    lines = VLLM.splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if "Serving Benchmark Result" in line)
    block = "".join(line for line in lines[start:] if "concurrency" not in line)  # an older block's lines
    text = "Here is my log:\n\tMaximum request concurrency: 16\n" + block
    assert [r.concurrency for r in read_benchmark_output(text).records] == [16]


def test_a_known_block_cut_behind_a_logger_prefix_is_refused_not_read_by_its_labels() -> None:
    # SGLang bench_serving.py's block (sgl-project/sglang python/sglang/bench_serving.py), logged
    # through glog and cut before `Output token throughput`: its own title over `Backend:` claims
    # it, so the cut is said, as without the prefix, instead of storing the request rate.
    lines = SGLANG.splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if "Benchmark Result" in line)
    end = next(i for i, line in enumerate(lines) if line.startswith("Output token throughput"))
    text = _each_line("I1201 10:00:00.123456 12345 bench.py:88] ", "".join(lines[start:end]))
    result = read_benchmark_output(text)
    assert result.records == []
    assert "before its output token throughput" in result.problems[0]


@pytest.mark.parametrize("above", ["$ vllm bench serve --model Qwen/Qwen3-8B --max-concurrency 8\n",
                                   "Here is the rest of the result:\n\n"])
def test_a_block_cut_above_its_title_reads_after_a_command_or_a_sentence(above: str) -> None:
    # vLLM's block (vllm-project/vllm vllm/benchmarks/serve.py) copied from its third line down,
    # under the command that ran it or a sentence: still that block, not a labelled-line guess
    lines = VLLM.splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if line.startswith("Benchmark duration"))
    records = read_benchmark_output(above + "".join(lines[start:])).records
    assert len(records) == 1
    assert records[0].source_format == "vllm.bench_serve"
    assert "bench_duration_s" in records[0].figures


def test_a_question_below_a_prompt_only_output_is_no_cut_label() -> None:
    # llama.cpp's `llama_print_timings: prompt eval time = %10.2f ms / %5d tokens (...)` line
    # (ggml-org/llama.cpp llama.cpp, 2023) alone, the user's question below it: a prompt-only
    # run, read by its prompt rate, not a paste cut before its generation line
    text = ("llama_print_timings: prompt eval time =   20388.32 ms /   109 tokens (  187.05 ms per token,"
            "     5.35 tokens per second)\n\nany idea why prompt processing is this slow?\n")
    records = read_benchmark_output(text).records
    assert [(r.metric, r.value) for r in records] == [("prompt_tok_s", 5.35)]


def test_a_block_kept_in_shell_comments_behind_rank_labels_reads_once() -> None:
    # vLLM's block (vllm-project/vllm vllm/benchmarks/serve.py) kept as `# ` comments in a script,
    # then relayed by torchrun with `[rank0]: ` on every line: the rank label goes first, then the
    # comment mark it hid, so the block reads as one result, not its lines as several
    commented = _each_line("# ", VLLM[VLLM.index("============ Serving"):])
    records = read_benchmark_output(_each_line("[rank0]: ", commented)).records
    assert [r.source_format for r in records] == ["vllm.bench_serve"]


def test_a_value_heading_with_trailing_spaces_is_still_its_own_result() -> None:
    # a README's `## Eagle decoding speed (SGLang): 297 token/s` headings (sgl-project/sglang
    # EAGLE benchmark notes) copied from a page that padded each line with spaces
    text = ("## Official eagle code: 200 token/s   \nsee https://github.com/SafeAILab/EAGLE   \n   \n"
            "## Normal decoding speed (SGLang): 156 token/s   \n```   \npython -m sglang.launch_server   \n```   \n")
    assert [r.value for r in read_benchmark_output(text).records] == [200.0, 156.0]


def test_a_question_below_an_output_cut_at_a_label_leaves_it_cut() -> None:
    # Ollama's `--verbose` stats (ollama/ollama cmd/cmd.go, `eval rate:` last) cut after `eval`,
    # the user's question below: still cut before its generation rate, so the prompt rate is no result
    text = ("prompt eval count:    26 token(s)\nprompt eval duration: 69ms\nprompt eval rate:     231.88 tokens/s\n"
            "eval count:           32 token(s)\neval\n\nany idea what is wrong?\n")
    assert read_benchmark_output(text).records == []


@pytest.mark.parametrize("prefix", ["vllm_server  | ", "bench  | "])
def test_a_docker_compose_prefix_of_a_freely_named_container_is_no_part_of_the_output(prefix: str) -> None:
    # docker compose prefixes each line with the service's container_name padded to one width and `| ` (a compose
    # file's `container_name: vllm_server`, no `-1` replica number); vLLM's block behind it (vllm-project/vllm
    # vllm/benchmarks/serve.py) is still vLLM's, not a labelled-line guess
    records = read_benchmark_output(_each_line(prefix, VLLM)).records
    assert [(r.source_format, r.value) for r in records] == [("vllm.bench_serve", read_benchmark_output(VLLM).records[0].value)]
