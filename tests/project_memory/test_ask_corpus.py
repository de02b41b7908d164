"""Questions as engineers type them: the right intent and the right key figure, >= 97% of them."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from ask_corpus import check, load  # noqa: E402
from seeds import seed  # noqa: E402

from sessiontui.project_memory.store import Store  # noqa: E402

CASES = load()


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> tuple[Store, dict]:
    store = Store(tmp_path_factory.mktemp("corpus") / "memory.db")
    return store, seed(store)


def test_corpus_is_broad() -> None:
    assert len(CASES) >= 250
    intents = {case.intent for case in CASES}
    assert intents == {"baseline", "speedup", "run", "gpu", "lessons", "benchmarks", "search"}


def test_corpus_accuracy(seeded: tuple[Store, dict]) -> None:
    store, records = seeded
    misses = []
    for case in CASES:
        intent_ok, figure_ok, got = check(store, records, case)
        if not (intent_ok and figure_ok):
            misses.append(f"{case.question!r}: {got.intent} {case.figure}={got.figures.get(case.figure)}")
    assert len(misses) <= 0.03 * len(CASES), "\n".join(misses)  # issue 26: >= 97%
