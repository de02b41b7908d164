"""`Store.baselines`: the few baselines a question needs, read from their index, give the answers
a read of every baseline gives."""

from __future__ import annotations

import itertools
import random
import sqlite3

import pytest

from sessiontui.project_memory.records import Record
from sessiontui.project_memory.reference import Conditions, number_to_beat
from sessiontui.project_memory.store import MIGRATIONS, Store

NEWEST = 3


def baselines(seed: int, count: int) -> list[Record]:
    """Baselines over a few groups and engines, with equal values (ties), names differing only
    in case, and unknown conditions, at fixed times so ties of time happen too."""
    rng = random.Random(seed)
    made = []
    for i in range(count):
        made.append(Record(
            kind="benchmark", status="ok", baseline=True, config=f"cfg {i}",
            value=rng.choice((10.0, 20.0, 20.0, 35.5, rng.uniform(5, 60))),
            created_at=f"2026-01-{1 + rng.randrange(5):02d}T00:00:00+00:00",
            concurrency=rng.choice((1, 8, None)), batch_size=rng.choice((None, 4)),
            model=rng.choice(("Llama-8B", "llama-8b", None)), engine=rng.choice(("sglang", "vLLM", None)),
            gpus=rng.choice(([], ["NVIDIA H200"], ["nvidia h200"], ["NVIDIA A100"])),
            metric=rng.choice(("output_tok_s", "ttft_ms"))))
    return made


def every_conditions(metric: str) -> list[Conditions]:
    return [Conditions(metric, *values) for values in itertools.product(
        (1, 8, None), (None, 4), ("llama-8b", None), ("sglang", "vllm", None), ("nvidia h200", None))]


def group_key(record: Record) -> tuple:
    return record.concurrency, record.batch_size, (record.model or "").lower()


def newest_per_group(records: list[Record]) -> dict[tuple, list[str]]:
    groups: dict[tuple, list[str]] = {}
    for record in records:
        groups.setdefault(group_key(record), []).append(record.id)
    return {key: ids[:NEWEST] for key, ids in groups.items()}


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("metric", ["output_tok_s", "ttft_ms"])  # higher and lower is better
def test_the_partial_read_answers_as_every_baseline_does(store: Store, seed: int, metric: str) -> None:
    store.add_all(baselines(seed, 120))
    store.add(Record(kind="benchmark", status="ok", value=99.0, config="not a baseline", metric=metric))
    every = store.benchmarks(metric, baseline=True)
    few = store.baselines(metric, newest=NEWEST)
    assert few.total == len(every) and len(few) < len(every)
    assert [r.id for r in few] == [r.id for r in every if r.id in {f.id for f in few}]  # newest first
    for conditions in every_conditions(metric):
        expected = number_to_beat(every, conditions)
        assert getattr(number_to_beat(few, conditions), "id", None) == getattr(expected, "id", None)
        group = [r for r in few if r.concurrency == conditions.concurrency]
        assert getattr(number_to_beat(group, conditions), "id", None) == \
            getattr(number_to_beat([r for r in every if r.concurrency == conditions.concurrency],
                                   conditions), "id", None)
    shown = newest_per_group(list(few))
    assert shown == newest_per_group(list(every))


def test_a_baseline_edited_outside_sessiontui_is_checked_and_still_counted(store: Store) -> None:
    kept, edited = store.add_all(baselines(1, 2))
    store._db.execute("UPDATE records SET body = replace(body, 'cfg', 'hand') WHERE id = ?", (edited.id,))
    found = {r.id: r for r in store.baselines(edited.metric or "output_tok_s")}
    assert found[edited.id].config.startswith("hand")  # re-read and checked (valid = 0)
    assert store.baselines(edited.metric or "output_tok_s").total == len(
        store.benchmarks(edited.metric or "output_tok_s", baseline=True))


def test_the_read_finds_its_rows_from_the_baseline_indexes_alone(store: Store) -> None:
    store.add_all(baselines(2, 30))
    traced: list[str] = []
    store._db.set_trace_callback(traced.append)
    store.baselines("output_tok_s", newest=NEWEST)
    store._db.set_trace_callback(None)
    sql = next(s for s in traced if "bench_group" in s)
    steps = [str(row[-1]) for row in store._db.execute(f"EXPLAIN QUERY PLAN {sql}")]
    reads = [step for step in steps if step.split()[:2] in (["SEARCH", "records"], ["SCAN", "records"],
                                                             ["SEARCH", "recent"], ["SCAN", "recent"])]
    assert reads and all("USING COVERING INDEX records_baselines" in step
                         or "USING INTEGER PRIMARY KEY (rowid=?)" in step for step in reads), steps


def test_a_version_3_memory_gets_its_baselines_indexed(tmp_path) -> None:
    path = tmp_path / "memory.db"
    with Store(path) as store:
        store.add_all(baselines(3, 40))
        expected = [r.id for r in store.baselines("output_tok_s", newest=NEWEST)]
    db = sqlite3.connect(path)  # back to version 3: the columns and index gone
    db.execute("DROP INDEX records_baselines")
    db.execute("DROP INDEX records_baselines_time")
    db.execute("ALTER TABLE records DROP COLUMN bench_group")
    db.execute("ALTER TABLE records DROP COLUMN bench_conditions")
    db.execute("PRAGMA user_version = 3")
    db.commit()
    db.close()
    with Store(path) as store:
        assert [r.id for r in store.baselines("output_tok_s", newest=NEWEST)] == expected
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
