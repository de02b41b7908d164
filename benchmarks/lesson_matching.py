"""Prints precision and recall of matching crash tails to lessons people wrote.

The corpus: every crash tail in tests/fixtures/crash (real public tails, see its INDEX.md), the
lessons in tests/fixtures/lessons/lessons.toml (phrased as people write them) and the expected
links in links.toml. Each tail is read as the app reads a log; its crash is matched against a
memory holding all the lessons, as `watch` and the app do.
Run: `.venv/bin/python benchmarks/lesson_matching.py [-v]`.
"""

from __future__ import annotations

import sys
import tempfile
import tomllib
from pathlib import Path

from sessiontui.collectors.trainlog import read_log
from sessiontui.project_memory.lessons import lessons_for_event
from sessiontui.project_memory.records import Record
from sessiontui.project_memory.store import Store

FIXTURES = Path(__file__).parent.parent / "tests" / "fixtures"
CRASHES = FIXTURES / "crash"
LESSONS = FIXTURES / "lessons"


def load_lessons() -> list[Record]:
    """The corpus lessons as records; `l-<name>` ids so links can name them."""
    data = tomllib.loads((LESSONS / "lessons.toml").read_text())
    return [Record("lesson", id=f"l-{item.pop('id')}", **item) for item in data["lesson"]]


def expected_links() -> dict[str, set[str]]:
    """For each crash tail, the lesson ids it should be matched to."""
    links = tomllib.loads((LESSONS / "links.toml").read_text())
    return {name: {f"l-{lesson}" for lesson in ids} for name, ids in links.items()}


def predicted_links(store: Store, names: list[str]) -> dict[str, set[str]]:
    """For each crash tail, the lessons its first crash is matched to."""
    found = {}
    for name in names:
        snapshot = read_log(CRASHES / name)
        crashes = [event for event in snapshot.events if event.kind == "crashed"]
        found[name] = {lesson.id for lesson in lessons_for_event(store, crashes[0])} \
            if crashes else set()
    return found


def evaluate(verbose: bool = False) -> tuple[float, float, int, int, int]:
    """Precision, recall, and the number of tails, lessons and expected links."""
    expected = expected_links()
    with tempfile.TemporaryDirectory() as tmp, Store(Path(tmp) / "memory.db") as store:
        lessons = store.add_all(load_lessons())
        predicted = predicted_links(store, sorted(expected))
    right = sum(len(predicted[name] & expected[name]) for name in expected)
    said = sum(len(links) for links in predicted.values())
    wanted = sum(len(links) for links in expected.values())
    if verbose:
        for name in sorted(expected):
            if predicted[name] != expected[name]:
                print(f"  {name}: expected {sorted(expected[name])}, got {sorted(predicted[name])}")
    precision = right / said if said else 1.0
    recall = right / wanted if wanted else 1.0
    return precision, recall, len(expected), len(lessons), wanted


def main() -> None:
    precision, recall, tails, lessons, links = evaluate("-v" in sys.argv)
    print(f"lesson matching: {tails} crash tails x {lessons} lessons, {links} expected links")
    print(f"precision {precision:.1%}  recall {recall:.1%}")


if __name__ == "__main__":
    main()
