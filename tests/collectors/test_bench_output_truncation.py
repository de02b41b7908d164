"""Output cut anywhere (a crashed benchmark, a paste cut short) never yields a wrong stored value:
every record read from a cut fixture is one the whole fixture gives, with the same figures."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sessiontui.collectors.bench_output import parse_benchmark_output, read_benchmark_output
from sessiontui.collectors.bench_output.common import trim_cut_tail
from sessiontui.project_memory.records import Record

FIXTURES = Path(__file__).parents[1] / "fixtures" / "bench"
ALL_FIXTURES = sorted(p.name for p in FIXTURES.iterdir() if p.name != "INDEX.md")
FIELDS = ("metric", "concurrency", "batch_size", "input_len", "output_len", "accept_length",
          "spec_algorithm", "model")


@functools.cache
def whole_output(name: str) -> list[Record]:
    """What the whole fixture gives, read once a worker (every cut of it is compared with it)."""
    return parse_benchmark_output((FIXTURES / name).read_bytes())


def is_summary(record: Record | dict) -> bool:
    """Server-log summaries (a known server's, or periodic log lines read by their labels) are
    medians of the lines seen so far: fewer lines, another median."""
    data = fields_of(record) if isinstance(record, Record) else record
    return data["source_format"].endswith("server_log") or "log_lines" in (data.get("figures") or {})


def fields_of(record: Record) -> dict:
    """The record's fields as `to_dict` names them, without its deep copy (thousands of cut
    outputs are compared, and nothing here changes them)."""
    return vars(record)


def assert_one_of(cut: dict, whole: list[Record], name: str) -> None:
    """`cut` (a record's dict) equals a record of the whole output on every field it holds (a
    field left empty was not printed before the cut: missing, not wrong)."""
    same = [r for r in whole if r.source_format == cut["source_format"] and r.value == cut.get("value")]
    assert same, f"{name}: {cut['source_format']} value {cut.get('value')} is not in the whole output"
    full = same[0]
    for field in FIELDS:  # (--json leaves empty fields out)
        assert cut.get(field) in (None, getattr(full, field)), (name, field)
    for figure, value in cut.get("figures", {}).items():
        assert full.figures.get(figure) == value, (name, figure)


def test_every_fixture_is_whole() -> None:
    for name in ALL_FIXTURES:
        result = read_benchmark_output((FIXTURES / name).read_bytes())
        assert result.records and not result.problems, name


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(ALL_FIXTURES), st.floats(0.0, 1.0))
def test_a_cut_output_never_stores_a_wrong_value(name: str, where: float) -> None:
    data = (FIXTURES / name).read_bytes()
    whole = whole_output(name)
    for record in parse_benchmark_output(data[: int(len(data) * where)]):
        if not is_summary(record):
            assert_one_of(fields_of(record), whole, name)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(ALL_FIXTURES), st.floats(0.05, 0.999))
def test_record_from_a_cut_output_stores_only_whole_results(run_main, name, where) -> None:
    data = (FIXTURES / name).read_bytes()
    done = run_main("record", "--json", "--from", "-", input=data[: int(len(data) * where)])
    assert b"Traceback" not in done.stderr
    if done.returncode != 0:
        return
    whole = whole_output(name)
    for stored in json.loads(done.stdout)["records"]:
        if not is_summary(stored):
            assert_one_of(stored, whole, name)


def test_record_from_a_block_cut_mid_number_stores_nothing(run_main) -> None:
    text = (FIXTURES / "sglang_bench_serving.txt").read_text()
    cut = text[: text.index("681.30") + 2]  # `681.30` cut to `68`: the line is left out
    whole_lines = text[: text.index("Output token throughput")]  # and the block has no end
    done = run_main("record", "--from", "-", input=cut)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "nothing stored" in done.stderr and "no closing line" in done.stderr
    assert json.loads(run_main("list", "--json", check=True).stdout)["records"] == []
    assert run_main("record", "--from", "-", input=whole_lines).returncode == 2


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        # a number at the very end of the input may be cut whatever it shows (issue 24)
        ("Output token throughput (tok/s): 681.30", False),  # may be `681.305`...
        ("Output token throughput (tok/s): 681.30   ", True),  # padding printed after it: whole
        ("Output token throughput (tok/s): 68", False),  # `681.30` cut to `68`
        ("Output token throughput (tok/s): 681.", False),
        ("[TPOT] P90    : 8.1246\n\n-- Breakdown (ms)\n\n[TTFT] MINIMUM: 93.92", False),  # 4 shown
        ("acceptance at token 5: 0.17\nacceptance at token 6: 0.13", False),
        ("tokens_per_sec 43.09 percentile95(ms) 5120.208 generation_tokens_per_second 50.37", False),
        ("8cf427ff,5163,7285.68,100", False),  # a csv row cut inside its last number
        ("latency(ms) 41.362 compute_cap sm80", True),  # ends in a word, not a number
        ("lr=[3.9e-0", False),
        ("(APIServer pid=1) INFO 09-", False),  # a date cut after its month: `09-16`
        ("(APIServer pid=1) INFO 09-16 05:", False),  # a time cut after its hour
        ("(APIServer pid=1) INFO 09-16 ", True),
        ("==================================================", True),
        ("Average inter-token latency (ms): 30.9274\nAcceptance Rate (Speculative):\t  1.00\n\n"
         "= GENERATION LATENCY BREAKDOWN\nMIN (ms): 63266.88", False),  # `63266.8804` cut
    ],
)
def test_a_last_line_without_line_break_ending_in_a_number_is_left_out(text: str, kept: bool) -> None:
    start = text.rfind("\n") + 1
    assert (trim_cut_tail(text) == text) is kept
    if not kept:
        assert trim_cut_tail(text) == text[:start]


def test_a_log_cut_inside_a_line_prefix_is_still_a_periodic_log() -> None:
    """vllm_server.log cut after two engine lines, inside the next line's timestamp (`INFO 09-16
    05:26:`): the date is not a figure and a number cut before what continues it (`09-`, `05:`)
    is left out, so the lines stay one periodic log (its median)."""
    data = (FIXTURES / "vllm_server.log").read_bytes()
    line = data.index(b"(APIServer pid=1) INFO 09-16 05:26:57 [metrics.py")
    for end in (b"09-", b"09-16 ", b"09-16 05:", b"09-16 05:26:"):
        prefix = b"(APIServer pid=1) INFO " + end
        records = parse_benchmark_output(data[: line + len(prefix)])
        assert records and all(is_summary(record) for record in records)


@pytest.mark.parametrize("name", ALL_FIXTURES)  # one test a fixture: the workers share the cuts
def test_every_cut_inside_any_line_end_never_stores_a_wrong_value(name: str) -> None:
    """The dangerous cuts, all of them: one to three characters before each line break (inside
    the last number of a line), with what the whole fixture gives as the reference."""
    data = (FIXTURES / name).read_bytes()
    whole = whole_output(name)
    ends = [i for i, byte in enumerate(data) if byte == ord("\n")]
    for cut in sorted({end - back for end in ends for back in (1, 2, 3) if end > back}):
        for record in parse_benchmark_output(data[:cut]):
            if not is_summary(record):
                assert_one_of(fields_of(record), whole, f"{name} cut at {cut}")


@pytest.mark.parametrize("after", ['"avg_spec_accept_length": 3.18, ', '"last_gen_throughput": 690.1}'])
def test_a_jsonl_result_cut_inside_its_object_stores_nothing(after: str) -> None:
    """SGLang's --output-file holds one JSON object a line: its figures are no lines of their own,
    so an object cut before its end (here inside `internal_states`, whose figures the generic
    reader took for the result) is left out whole."""
    data = (FIXTURES / "sglang_bench_serving.jsonl").read_text()
    assert read_benchmark_output(data[: data.index(after) + len(after)]).records == []
