"""The Memory pane lists the attempts of one log together, latest first, named by attempt."""

from __future__ import annotations

from sessiontui.project_memory.records import Record
from sessiontui.tui.widgets.memory_pane import ordered


def test_attempts_of_one_log_are_listed_together_latest_first() -> None:
    def run(name: str, log: str, attempt: int, at: str) -> Record:
        return Record(kind="run", id=f"r-{name}", name=name, log_path=log, log_run=attempt - 1,
                      last_update=f"2026-01-02T0{at}:00:00+00:00")

    records = [run("train.log", "/a/train.log", 1, "1"), run("other", "/b/train.log", 1, "3"),
               run("train.log #2", "/a/train.log", 2, "2"), run("train.log #3", "/a/train.log", 3, "4"),
               Record(kind="note", id="n-1", text="x", created_at="2026-01-02T05:00:00+00:00")]
    assert [r.name or r.id for r in ordered(records, None)] == [
        "train.log #3", "train.log #2", "train.log", "other", "n-1"]
