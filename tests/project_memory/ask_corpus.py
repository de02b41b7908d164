"""The question corpus of tests/fixtures/ask/corpus.txt, checked against the seeded memory.

Shared by tests/project_memory/test_ask_corpus.py and benchmarks/ask_accuracy.py.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from seeds import GpuReadings, LiveSnapshot

from sessiontui.project_memory.answer import Answer
from sessiontui.project_memory.ask import ask
from sessiontui.project_memory.records import Record
from sessiontui.project_memory.store import Store

CORPUS = Path(__file__).parents[1] / "fixtures" / "ask" / "corpus.txt"
DRAFT_OVERHEAD = 0.15


@dataclass(frozen=True)
class Case:
    """One question with the intent and key figure it must come back with."""

    intent: str
    figure: str
    expected: str
    question: str
    batch: str = ""  # the `# batch: NAME` line above it, scored on first sight before fixes


def load(batch: str | None = None) -> list[Case]:
    """Every case of the corpus file (or of one batch)."""
    cases, current = [], ""
    for line in CORPUS.read_text(encoding="utf-8").splitlines():
        if line.startswith("# batch:"):
            current = line.removeprefix("# batch:").strip()
        elif line.strip() and not line.startswith("#"):
            intent, figure, expected, question = (part.strip() for part in line.split("|", 3))
            cases.append(Case(intent, figure, expected, question, current))
    return [case for case in cases if batch is None or case.batch == batch]


def answer(store: Store, question: str) -> Answer:
    """The answer with the live drafter run and four GPUs, as the app would give it."""
    return ask(store, question, snapshots=(LiveSnapshot(),), gpu=GpuReadings(),
               draft_overhead=DRAFT_OVERHEAD)


def figure_ok(case: Case, got: Answer, seeded: dict[str, Record]) -> bool:
    """Whether the answer's key figure is the expected one."""
    value = got.figures.get(case.figure)
    if case.expected == "-":
        return bool(value)
    if case.expected.startswith("@"):
        return value == seeded[case.expected[1:]].id
    if case.expected.startswith("~"):
        return isinstance(value, str) and case.expected[1:].lower() in value.lower()
    return isinstance(value, int | float) and math.isclose(value, float(case.expected), rel_tol=0.01)


def check(store: Store, seeded: dict[str, Record], case: Case) -> tuple[bool, bool, Answer]:
    """(right intent, right key figure, the answer) for one case."""
    got = answer(store, case.question)
    return got.intent == case.intent, figure_ok(case, got, seeded), got
