"""Property: three clones making random edits and deletes, syncing in random orders through one
shared file, end identical and lose no delete (200 random histories, hypothesis)."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from sessiontui.project_memory.records import Record
from sessiontui.project_memory.sync import merge, version_hash

IDS = ("n-1", "n-2", "n-3")
START = datetime(2026, 3, 1, 10, tzinfo=UTC)


@dataclass
class Clone:
    """A clone's store (id -> record) and the versions it last agreed on with the shared file."""

    records: dict[str, Record] = field(default_factory=dict)
    base: dict[str, str] = field(default_factory=dict)

    def sync(self, shared: list[Record]) -> list[Record]:
        """What `sessiontui sync` does with the file: merge both ways, remember the base."""
        merged = merge([self.records.values(), shared], self.base)
        self.records = {r.id: copy.deepcopy(r) for r in merged}
        self.base = {r.id: version_hash(r) for r in merged}
        return merged

    def change(self, record_id: str, at: datetime, *, text: str | None = None) -> bool:
        """An edit (or, without text, a delete) as Store.update makes it; False when the record
        is not alive here (the CLI would refuse it)."""
        record = self.records.get(record_id)
        if record is None or record.deleted_at:
            return False
        record = copy.deepcopy(record)
        stamp = max(at.isoformat(), record.updated_at)
        record.revision += 1
        record.updated_at = stamp
        if text is None:
            record.deleted_at = stamp
        else:
            record.text = text
        self.records[record_id] = record
        return True


operation = st.one_of(
    st.tuples(st.just("sync"), st.integers(0, 2)),
    st.tuples(st.just("edit"), st.integers(0, 2), st.sampled_from(IDS), st.text("abc", max_size=3)),
    st.tuples(st.just("delete"), st.integers(0, 2), st.sampled_from(IDS)),
    st.tuples(st.just("tick"), st.sampled_from([0, 0, 250_000, 1_000_000])),  # same instant, often
)


@settings(max_examples=200, deadline=None)
@given(st.lists(operation, max_size=40), st.permutations([0, 1, 2]))
def test_random_histories_converge_and_lose_no_delete(history, final_order) -> None:
    clones = [Clone() for _ in range(3)]
    seed = [Record(kind="note", id=i, text="start", created_at=START.isoformat(),
                   updated_at=START.isoformat()) for i in IDS]
    shared = seed
    for clone in clones:
        shared = clone.sync(shared)
    now, deleted = START, set()
    for op in history:
        if op[0] == "tick":
            now += timedelta(microseconds=op[1])
        elif op[0] == "sync":
            shared = clones[op[1]].sync(shared)
        elif op[0] == "edit":
            clones[op[1]].change(op[2], now, text=op[3])
        elif clones[op[1]].change(op[2], now):
            deleted.add(op[2])
    for i in [*final_order, *final_order]:  # two rounds: the first's last clone saw everything
        shared = clones[i].sync(shared)

    ends = [{rid: version_hash(r) for rid, r in clone.records.items()} for clone in clones]
    assert ends[0] == ends[1] == ends[2] == {r.id: version_hash(r) for r in shared}
    final = clones[0].records
    assert {rid for rid in deleted if not final[rid].deleted_at} == set()  # no delete lost
