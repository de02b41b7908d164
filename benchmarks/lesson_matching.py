"""Prints precision and recall of matching crash tails to lessons people wrote.

The corpus: the crash tails in tests/fixtures/crash (real public tails, see its INDEX.md) and
three sets of lessons in tests/fixtures/lessons/*/ (each in one voice, see its README), each with
the expected links of its links.toml. Each tail is read as the app reads a log; its crash is
matched against a memory holding the set's lessons, as `watch` and the app do.
Run: `.venv/bin/python benchmarks/lesson_matching.py [-v]`.
"""

from __future__ import annotations

import sys
import tempfile
import tomllib
from dataclasses import dataclass
from pathlib import Path

from sessiontui.collectors.trainlog import read_log
from sessiontui.project_memory.lessons import lessons_for_event
from sessiontui.project_memory.records import Record
from sessiontui.project_memory.store import Store

FIXTURES = Path(__file__).parent.parent / "tests" / "fixtures"
CRASHES = FIXTURES / "crash"
LESSONS = FIXTURES / "lessons"


SETS = ("notes", "terse", "quoted", "others")


def load_lessons(lesson_set: str) -> list[Record]:
    """A set's lessons as records; `l-<name>` ids so links can name them."""
    data = tomllib.loads((LESSONS / lesson_set / "lessons.toml").read_text())
    return [Record("lesson", id=f"l-{item.pop('id')}", **item) for item in data["lesson"]]


def expected_links(lesson_set: str) -> dict[str, set[str]]:
    """For each crash tail, the lesson ids of the set it should be matched to."""
    links = tomllib.loads((LESSONS / lesson_set / "links.toml").read_text())
    return {name: {f"l-{lesson}" for lesson in ids} for name, ids in links.items()}


def tails(lesson_set: str) -> Path:
    """Where a set's crash tails are: its own tails/ (the set came with them), else the shared ones."""
    own = LESSONS / lesson_set / "tails"
    return own if own.is_dir() else CRASHES


def predicted_links(store: Store, names: list[str], folder: Path = CRASHES) -> dict[str, set[str]]:
    """For each crash tail, the lessons its first crash is matched to."""
    found = {}
    for name in names:
        snapshot = read_log(folder / name)
        crashes = [event for event in snapshot.events if event.kind == "crashed"]
        found[name] = {lesson.id for lesson in lessons_for_event(store, crashes[0])} \
            if crashes else set()
    return found


@dataclass
class Figures:
    """Links said, right and wanted over some tails and lessons."""

    tails: int = 0
    lessons: int = 0
    said: int = 0
    right: int = 0
    wanted: int = 0

    def add(self, other: Figures) -> None:
        for name in ("tails", "lessons", "said", "right", "wanted"):
            setattr(self, name, getattr(self, name) + getattr(other, name))

    @property
    def precision(self) -> float:
        return self.right / self.said if self.said else 1.0

    @property
    def recall(self) -> float:
        return self.right / self.wanted if self.wanted else 1.0

    def line(self, label: str) -> str:
        return (f"{label:8s} {self.tails:3d} crash tails x {self.lessons:2d} lessons, "
                f"{self.wanted:3d} expected links: precision {self.precision:6.1%}  "
                f"recall {self.recall:6.1%}")


def evaluate(lesson_set: str, verbose: bool = False) -> Figures:
    """Match every tail of a set's links against a memory holding the set's lessons."""
    expected = expected_links(lesson_set)
    with tempfile.TemporaryDirectory() as tmp, Store(Path(tmp) / "memory.db") as store:
        lessons = store.add_all(load_lessons(lesson_set))
        predicted = predicted_links(store, sorted(expected), tails(lesson_set))
    if verbose:
        for name in sorted(expected):
            if predicted[name] != expected[name]:
                print(f"  {lesson_set}/{name}: expected {sorted(expected[name])}, "
                      f"got {sorted(predicted[name])}")
    return Figures(
        tails=len(expected), lessons=len(lessons),
        said=sum(len(links) for links in predicted.values()),
        right=sum(len(predicted[name] & expected[name]) for name in expected),
        wanted=sum(len(links) for links in expected.values()),
    )


def main() -> None:
    total = Figures()
    for lesson_set in SETS:
        figures = evaluate(lesson_set, "-v" in sys.argv)
        print(figures.line(lesson_set))
        total.add(figures)
    count = len({path.name for lesson_set in SETS for path in tails(lesson_set).glob("*.log")})
    print(f"all      {total.said} links said, {total.right} right, {total.wanted} expected "
          f"({count} distinct tails): precision {total.precision:.1%}  recall {total.recall:.1%}")


if __name__ == "__main__":
    main()
