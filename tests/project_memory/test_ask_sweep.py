"""`ask "where does eagle3 stop paying?"`: the crossover of a concurrency sweep (issue 30)."""

from __future__ import annotations

import json

import pytest

from sessiontui.project_memory.ask import ask
from sessiontui.project_memory.records import Record
from sessiontui.project_memory.store import Store
from sessiontui.project_memory.understanding import asks_crossover, understand

# Hand-computed: feature / number to beat is 1.6, 1.39, 1.2, 1.04, 0.93 at c = 1 … 16.
BASELINE = {1: 100.0, 2: 180.0, 4: 300.0, 8: 500.0, 16: 800.0}
FEATURE = {1: 160.0, 2: 250.0, 4: 360.0, 8: 520.0, 16: 744.0}

CROSSOVER_QUESTIONS = [
    "where does eagle3 stop paying?",
    "at what concurrency does spec decoding stop helping",
    "crossover?",
    "does eagle3 still win at c=64",
    "up to which c is spec dec still faster",
    "how does the speedup scale with concurrency",
    "is eagle3 still ahead at c=32 or does it lose there",
    "break-even concurrency for spec dec",
    "at high concurrency is the drafter still worth it",
]
NOT_CROSSOVER = ["eagle3 speedup at c=1", "break even AL?", "what's the baseline at c=32",
                 "is training still running", "current speedup?"]


def add_sweep(store: Store, engine: str = "sglang", scale: float = 1.0, day: int = 1) -> None:
    for c, value in BASELINE.items():
        store.add(Record(kind="benchmark", config=f"{engine} no-spec c={c}", value=value * scale,
                         concurrency=c, baseline=True, engine=engine, model="llama-8b",
                         created_at=f"2026-11-{day:02d}T09:00:00+00:00"))
    for c, value in FEATURE.items():
        store.add(Record(kind="benchmark", config=f"{engine} eagle3 c={c}", value=value * scale,
                         concurrency=c, engine=engine, model="llama-8b", spec_algorithm="EAGLE3",
                         created_at=f"2026-11-{day:02d}T10:00:00+00:00"))


@pytest.mark.parametrize("question", CROSSOVER_QUESTIONS)
def test_crossover_questions_are_understood_as_such(question: str) -> None:
    understanding = understand(question)
    assert understanding.intent == "speedup"
    assert asks_crossover(understanding.words, understanding.conditions)


@pytest.mark.parametrize("question", NOT_CROSSOVER)
def test_other_questions_do_not_ask_for_the_crossover(question: str) -> None:
    understanding = understand(question)
    assert not asks_crossover(understanding.words, understanding.conditions)


def test_the_answer_states_the_crossover_and_every_point(store: Store) -> None:
    add_sweep(store)
    got = ask(store, "where does eagle3 stop paying?")
    assert got.intent == "speedup"
    assert got.figures["crossover"] == {"faster_up_to": 8, "slower_from": 16}
    assert got.text.splitlines()[0] == ("sglang eagle3 is faster up to c=8 (1.60x at c=1), "
                                        "slower from c=16 (0.93x).")
    assert [p["concurrency"] for p in got.figures["points"]] == [1, 2, 4, 8, 16]
    assert [p["ratio"] for p in got.figures["points"]] == [1.6, 1.389, 1.2, 1.04, 0.93]
    assert "c=16: 744.0" in got.text and "number to beat 800.0" in got.text
    assert {r.concurrency for r in got.records if r.baseline} == set(BASELINE)


def test_a_concurrency_named_is_answered_first(store: Store) -> None:
    add_sweep(store)
    at_16 = ask(store, "does eagle3 still win at c=16").text.splitlines()
    assert at_16[1] == "At c=16: 0.93x the number to beat (slower)."
    at_64 = ask(store, "does eagle3 still win at c=64").text.splitlines()
    assert at_64[1] == "c=64 is not in this sweep (measured at c=1, 2, 4, 8, 16)."


def test_the_sweep_the_question_names_is_chosen(store: Store) -> None:
    add_sweep(store, "sglang", day=2)
    add_sweep(store, "vllm", scale=0.5, day=1)  # older: not the default
    assert ask(store, "crossover?").figures["sweep"] == "sglang eagle3"
    named = ask(store, "where does vllm eagle3 stop paying")
    assert named.figures["sweep"] == "vllm eagle3"
    assert "Other sweeps: sglang eagle3" in named.text


def test_a_sweep_asked_for_by_name_shows_its_points(store: Store) -> None:
    add_sweep(store)
    got = ask(store, "show me the concurrency sweep")
    assert got.intent == "benchmarks" and got.figures["crossover"]["slower_from"] == 16
    assert len(got.figures["points"]) == len(FEATURE)


def test_with_no_sweep_it_says_how_to_record_one(store: Store) -> None:
    store.add(Record(kind="benchmark", config="no-spec", value=90.0, concurrency=1, baseline=True))
    store.add(Record(kind="benchmark", config="eagle3", value=99.0, concurrency=1))
    got = ask(store, "at what concurrency does spec decoding stop helping")
    assert got.intent == "speedup" and got.figures["crossover"] is None
    assert "`sessiontui record --sweep concurrency=1,2,4,8 -- CMD`" in got.text.splitlines()[0]
    assert got.figures["measured_speedup"] == pytest.approx(1.1)  # what is known so far follows


def test_ask_json_carries_the_crossover(run_main, store: Store) -> None:
    add_sweep(store)
    data = json.loads(run_main("ask", "--json", "where does eagle3 stop paying?", check=True).stdout)
    assert data["figures"]["crossover"] == {"faster_up_to": 8, "slower_from": 16}
    assert data["figures"]["points"][0] == {
        "concurrency": 1, "value": 160.0, "record": data["figures"]["points"][0]["record"],
        "reference_value": 100.0, "reference": data["figures"]["points"][0]["reference"],
        "ratio": 1.6}
