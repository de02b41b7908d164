"""Every format survives odd spacing, CRLF and truncation; nothing raises on any input."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sessiontui.collectors.bench_output import (
    KNOWN_FORMATS,
    llamacpp,
    parse_benchmark_output,
    read_benchmark_output,
    sglang,
    trtllm,
    vllm,
)
from sessiontui.collectors.bench_output.common import to_text

FIXTURES = Path(__file__).parents[1] / "fixtures" / "bench"
TEXT_FIXTURES = [
    "sglang_bench_serving.txt",
    "sglang_bench_serving_old.txt",
    "sglang_bench_one_batch.txt",
    "sglang_bench_one_batch_old.txt",
    "sglang_bench_one_batch_server.txt",
    "sglang_server.log",
    "vllm_bench_serve.txt",
    "vllm_benchmark_serving_old.txt",
    "vllm_server.log",
    "llama_bench.md",
]
ALL_FIXTURES = sorted(p.name for p in FIXTURES.iterdir() if p.name != "INDEX.md")
# Where each serving block is cut: after its output throughput line, and before it.
BLOCKS = {
    "sglang_bench_serving.txt": "Output token throughput (tok/s):",
    "sglang_bench_serving_old.txt": "Output token throughput (tok/s):",
    "vllm_bench_serve.txt": "Output token throughput (tok/s):",
    "vllm_benchmark_serving_old.txt": "Output token throughput (tok/s):",
}


def comparable(records) -> list[dict]:
    """Records as dicts without the fields that differ between two parses of the same result."""
    return [
        {k: v for k, v in r.to_dict().items() if k not in ("id", "created_at")} for r in records
    ]


def odd_spacing(text: str) -> str:
    """Single spaces, a tab after each colon, trailing blanks and CRLF line ends."""
    text = re.sub(r" {2,}", " ", text).replace(": ", ":\t")
    return "".join(line.rstrip("\n") + "  \r\n" for line in text.splitlines())


@pytest.mark.parametrize("name", TEXT_FIXTURES)
def test_odd_spacing_and_crlf_parse_the_same(name: str) -> None:
    text = (FIXTURES / name).read_text()
    original = parse_benchmark_output(text)
    assert original
    assert comparable(parse_benchmark_output(odd_spacing(text))) == comparable(original)


@pytest.mark.parametrize("name", sorted(BLOCKS))
def test_block_cut_after_its_throughput_is_stored_partial(name: str) -> None:
    text = (FIXTURES / name).read_text()
    throughput = text.index(BLOCKS[name])
    cut = text[: text.index("\n", throughput) + 1]
    [whole] = parse_benchmark_output(text)
    result = read_benchmark_output(cut)
    [record] = result.records
    assert result.problems == [] and record.value == whole.value and not whole.partial
    assert record.partial[-1] == "latency" and not any("ttft" in f for f in record.figures)
    before = read_benchmark_output(text[:throughput])
    assert before.records == []
    [problem] = before.problems
    assert "before its output token throughput" in problem and "not stored" in problem


@pytest.mark.parametrize("name", sorted(BLOCKS))
def test_block_cut_mid_number_is_never_stored(name: str) -> None:
    text = (FIXTURES / name).read_text()
    [whole] = parse_benchmark_output(text)
    printed = f"{whole.value:.2f}"
    at = text.index(printed, text.index(BLOCKS[name]))
    for keep in range(1, len(printed)):  # `681.30` cut to `6`, `68`, ..., `681.3`
        cut = text[: at + keep]
        result = read_benchmark_output(cut)
        assert result.records == [] and "before its output token throughput" in result.problems[0]


def test_text_values_in_a_block_do_not_become_figures() -> None:
    text = (FIXTURES / "vllm_bench_serve.txt").read_text()
    text = text.replace(
        "Failed requests:", "Model:                                   Qwen3-8B\nFailed requests:"
    )
    [record] = parse_benchmark_output(text)
    assert "model" not in record.figures and record.figures["failed_requests"] == 0


def test_a_second_block_cut_short_leaves_the_first() -> None:
    text = (FIXTURES / "sglang_bench_serving.txt").read_text()
    both = text + text[: text.index("Successful requests")]
    assert len(parse_benchmark_output(both)) == 1
    second = parse_benchmark_output(text + text[: text.index("Concurrency:")])
    assert [r.partial for r in second] == [[], ["latency"]]
    assert len(parse_benchmark_output(text + text)) == 2


@pytest.mark.parametrize("name", ALL_FIXTURES)
def test_every_fixture_gives_finite_json_ready_records(name: str) -> None:
    records = parse_benchmark_output((FIXTURES / name).read_bytes())
    assert records
    for record in records:
        assert record.source_format in KNOWN_FORMATS and record.value > 0
        json.dumps(record.to_dict(), allow_nan=False)  # the store refuses NaN
        assert all(math.isfinite(v) for v in record.figures.values())


def test_nan_and_inf_in_json_results_are_dropped() -> None:
    result = json.loads((FIXTURES / "vllm_save_result.json").read_text())
    result.update(output_throughput=float("nan"))
    assert parse_benchmark_output(json.dumps(result)) == []
    result.update(output_throughput=100.0, mean_ttft_ms=float("inf"))
    [record] = parse_benchmark_output(json.dumps(result))
    assert "ttft_ms_mean" not in record.figures and record.value == 100.0


def test_garbage_gives_nothing() -> None:
    assert parse_benchmark_output(bytes(range(256)) * 40) == []
    assert parse_benchmark_output(b"") == []
    assert parse_benchmark_output("Decode step took 12 ms\nloss: 2.5 tokens/s: 900\n") == []


def test_a_lone_labelled_throughput_line_is_read_by_the_generic_reader() -> None:
    [record] = parse_benchmark_output("Output token throughput (tok/s): 12\n")  # no block
    assert (record.source_format, record.value, record.metric) == ("generic", 12.0, "output_tok_s")


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=2000))
def test_no_family_raises_on_arbitrary_bytes(data: bytes) -> None:
    text = to_text(data)
    for family in (sglang, vllm, trtllm, llamacpp):
        assert isinstance(family.parse(text, []), list)


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(TEXT_FIXTURES),
    st.integers(0, 10_000),
    st.integers(0, 10_000),
    st.text(max_size=30),
)
def test_no_family_raises_on_spliced_fixtures(name: str, start: int, stop: int, junk: str) -> None:
    text = (FIXTURES / name).read_text()
    spliced = text[:start] + junk + text[stop:]
    for family in (sglang, vllm, trtllm, llamacpp):
        for record in family.parse(spliced, []):
            assert record.value is not None and math.isfinite(record.value)


def test_server_log_summary_gives_way_to_the_clients_results() -> None:
    server = (FIXTURES / "sglang_server.log").read_text()
    client = (FIXTURES / "sglang_bench_serving.txt").read_text()
    [record] = parse_benchmark_output(server + client)
    assert record.source_format == "sglang.bench_serving" and record.value == 681.30
    # the server's arguments printed earlier still describe the run
    assert (record.spec_algorithm, record.num_draft_tokens) == ("EAGLE3", 4)
