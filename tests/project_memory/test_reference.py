"""One reference rule for every printed ratio: the number to beat for the result's conditions,
whatever its engine; the engine's own baseline second and labelled (issue 26, item 1)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from sessiontui.project_memory.ask import ask
from sessiontui.project_memory.records import DEFAULT_METRIC, Record
from sessiontui.project_memory.reference import Benchmarks, Conditions, compare, number_to_beat
from sessiontui.project_memory.speedup import build_speedup_report, speedup_answer_lines
from sessiontui.project_memory.store import Store
from sessiontui.project_memory.targets import measured, parse_target
from sessiontui.tui.widgets.memory_pane import vs_text

ROOT = Path(__file__).parents[2]
SAME = "1.20x the number to beat (sglang 50); 1.50x vllm's own baseline (40)"


@pytest.fixture
def example(store: Store) -> dict[str, Record]:
    """The issue's example: SGLang baseline 50, vLLM baseline 40, vLLM + EAGLE3 60, single stream."""
    def add(name: str, **fields) -> Record:
        return store.add(Record("benchmark", config=name, concurrency=1, status="ok", **fields))

    return {"sglang": add("sglang base", engine="sglang", value=50.0, baseline=True,
                          created_at="2026-11-01T00:00:00+00:00"),
            "vllm": add("vllm base", engine="vllm", value=40.0, baseline=True,
                        created_at="2026-11-02T00:00:00+00:00"),
            "eagle": add("vllm eagle3", engine="vllm", value=60.0, accept_length=2.4,
                         spec_algorithm="EAGLE3", created_at="2026-11-03T00:00:00+00:00")}


def test_the_one_function(example: dict[str, Record]) -> None:
    baselines = [example["sglang"], example["vllm"]]
    comparison = compare(example["eagle"], baselines)
    assert comparison.beat is example["sglang"] and comparison.own is example["vllm"]
    assert comparison.speedup == pytest.approx(1.2) and comparison.own_speedup == pytest.approx(1.5)
    assert comparison.text() == SAME
    assert compare(example["sglang"], baselines).own is None  # a baseline is its own engine's
    assert compare(example["vllm"], baselines).short() == "0.80x"


def test_answers_agree(store: Store, example: dict[str, Record]) -> None:
    baseline = ask(store, "what's the baseline?")
    assert baseline.figures["reference_value"] == 50.0
    assert SAME in baseline.text and "→ 1.50x" not in baseline.text
    speedup = ask(store, "current speedup?")
    assert speedup.figures["measured_speedup"] == pytest.approx(1.2)
    assert speedup.figures["own_speedup"] == pytest.approx(1.5)
    assert SAME in speedup.text
    listed = ask(store, "list every bench we've logged")
    assert SAME in listed.text


def test_pane_targets_and_report_agree(store: Store, example: dict[str, Record]) -> None:
    records = store.list()
    baselines = [r for r in records if r.baseline]
    assert vs_text(example["eagle"], compare(example["eagle"], baselines), records) == "1.20x (vllm 1.50x)"
    assert measured(parse_target("1.3x speedup bs1"), records) == pytest.approx(1.2)
    report = build_speedup_report(store, simulated_acc_len=1.4)  # what `speedup` and MCP print
    assert report.baseline_value == 50.0 and report.measured_speedup == pytest.approx(1.2)
    assert report.cost_factor == pytest.approx(2.4 * 50 / 60)  # break-even against 50, not 40
    measured_line = next(line for line in speedup_answer_lines(report) if line.startswith("Measured"))
    assert "1.20x the number to beat" in measured_line
    assert "1.50x vllm's own baseline 40.0" in measured_line


def test_every_ratio_goes_through_the_rule() -> None:
    """No module divides results by baselines on its own: `ratio` is called only by reference.py,
    and every module that prints a result's ratio asks `compare` (or the speedup report)."""
    sources = [p for folder in ("project_memory", "tui", "collectors") for p in (ROOT / folder).rglob("*.py")]
    callers = sorted(str(p.relative_to(ROOT)) for p in sources
                     if re.search(r"(?<![\w.])(?<!def )ratio\(", p.read_text()) and p.name != "reference.py")
    assert callers == []
    printers = {"project_memory/ask.py", "project_memory/bench_answers.py",
                "project_memory/targets.py", "tui/widgets/memory_pane.py",
                "project_memory/sweeps.py", "tui/report.py"}
    for name in printers:
        assert re.search(r"\bcompare\(", (ROOT / name).read_text()), name
    report_users = {"project_memory/outlook.py", "tui/commands/speedup.py"}
    for name in report_users:
        assert "build_speedup_report" in (ROOT / name).read_text(), name


def test_the_column_header_names_the_reference(store: Store, example: dict[str, Record]) -> None:
    from sessiontui.project_memory.reference import column_label
    from sessiontui.tui.widgets.memory_pane import comparisons

    baselines = [example["sglang"], example["vllm"]]
    rows = comparisons(list(example.values()), baselines).values()
    assert column_label(rows, example["sglang"]) == "vs beat"  # the starred one
    assert column_label(rows, None) == "vs sglang 50"
    wide = store.add(Record("benchmark", config="c32", concurrency=32, value=900.0, baseline=True))
    wide_result = store.add(Record("benchmark", config="c32 eagle", concurrency=32, value=990.0))
    wider = comparisons([*example.values(), wide_result], [*baselines, wide]).values()
    assert column_label(wider, example["sglang"]) == "vs beat at its c"


def test_the_index_finds_what_the_scan_finds() -> None:
    """`Benchmarks` answers from its per-conditions index exactly what the rule's scan answers:
    unknown conditions never clash, case-insensitive names, ties to the newest, failed skipped."""
    rng = random.Random(7)
    pick = rng.choice
    records = [Record("benchmark", id=f"b{i}", baseline=pick((True, True, False)),
                      status=pick(("ok", "ok", "failed")), metric=pick((None, "ttft_ms")),
                      value=pick((None, 40.0, 50.0, rng.uniform(10, 90))),
                      concurrency=pick((None, 1, 8)), batch_size=pick((None, 4)),
                      model=pick((None, "Llama", "llama", "qwen")), engine=pick((None, "vllm", "SGLang")),
                      gpus=pick(([], ["NVIDIA H200"], ["nvidia h100"]))) for i in range(400)]
    indexed = Benchmarks(records)
    asked = [Conditions(metric, c, bs, model, engine, gpu)
             for metric in (DEFAULT_METRIC, "ttft_ms") for c in (None, 1, 8, 32) for bs in (None, 4)
             for model in (None, "LLAMA", "qwen") for engine in (None, "sglang", "vllm")
             for gpu in (None, "NVIDIA H200", "NVIDIA H100")]
    found = [indexed.number_to_beat(conditions) for conditions in asked]
    assert found == [number_to_beat(records, conditions) for conditions in asked]
    assert sum(record is not None for record in found) > len(asked) // 2
