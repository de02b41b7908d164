"""The pure merge behind `sessiontui sync`: by id, against the last agreed versions."""

from __future__ import annotations

import itertools
from dataclasses import replace

from sessiontui.project_memory.records import Record
from sessiontui.project_memory.sync import (
    has_conflict_markers,
    merge,
    resolve,
    snapshot,
    version_hash,
)

T0, T1, T2 = "2026-03-01T10:00:00+00:00", "2026-03-02T10:00:00+00:00", "2026-03-03T10:00:00+00:00"


def note(text: str, *, id: str = "n-1", updated: str = T0) -> Record:
    return Record(kind="note", id=id, text=text, created_at=T0, updated_at=updated)


def test_a_side_unchanged_since_the_last_sync_takes_the_other_without_history() -> None:
    base = note("first")
    edited = replace(base, text="second", updated_at=T1)
    assert resolve(base, edited, version_hash(base)) is edited
    assert resolve(edited, base, version_hash(base)) is edited
    assert resolve(edited, base, version_hash(base)).history == []


def test_concurrent_edits_keep_the_later_one_and_the_other_in_history() -> None:
    base = note("first")
    mine = replace(base, text="mine", updated_at=T1)
    theirs = replace(base, text="theirs", updated_at=T2)
    for a, b in ((mine, theirs), (theirs, mine)):
        merged = resolve(a, b, version_hash(base))
        assert merged.text == "theirs"
        assert merged.history == [snapshot(mine)]


def test_a_deletion_travels_as_a_tombstone_and_is_not_undone_by_an_old_copy() -> None:
    base = note("keep me?")
    deleted = replace(base, deleted_at=T1, updated_at=T1)
    [merged] = merge([[base], [deleted]], {base.id: version_hash(base)})
    assert merged.deleted_at == T1 and merged.history == []


def test_without_a_base_nothing_is_lost_either() -> None:
    a, b = note("one", updated=T1), note("two", updated=T2)
    [merged] = merge([[a], [b]], {})
    assert merged.text == "two" and [v["text"] for v in merged.history] == ["one"]


def test_the_result_does_not_depend_on_the_order_of_the_sides() -> None:
    base = note("first")
    sides = [
        [replace(base, text="a", updated_at=T1), note("only in a", id="n-a")],
        [replace(base, text="b", updated_at=T2), Record(kind="run", id="r-1", created_at=T0)],
        [replace(base, text="c", updated_at=T1), note("only in c", id="n-c")],
    ]
    results = {
        str([r.to_dict() for r in merge(order, {base.id: version_hash(base)})])
        for order in itertools.permutations(sides)
    }
    assert len(results) == 1
    merged = merge(sides, {base.id: version_hash(base)})
    assert [r.id for r in merged] == ["n-1", "n-a", "n-c"]  # runs stay on their host
    assert merged[0].text == "b" and sorted(v["text"] for v in merged[0].history) == ["a", "c"]


def test_conflict_markers_are_recognised_only_at_line_starts() -> None:
    assert has_conflict_markers('x = 1\n<<<<<<< HEAD\ny = 2\n=======\ny = 3\n>>>>>>> abc\n')
    assert not has_conflict_markers('text = "a line with <<<<<<< inside"\n')
