"""One validation of a record (issue 16, points 2, 3 and 6): the store refuses what it rejects,
reading never crashes on a row it did not expect, and ratios never divide by zero."""

from __future__ import annotations

import json
import math
from datetime import UTC, datetime

import pytest

from sessiontui.project_memory.ask import ask
from sessiontui.project_memory.records import (
    Record,
    RecordError,
    is_invalid,
    record_from_data,
    record_problems,
)
from sessiontui.project_memory.reference import ratio
from sessiontui.project_memory.store import Store


def fields_of(record: Record) -> set[str]:
    return {problem.field for problem in record_problems(record)}


@pytest.mark.parametrize(
    ("values", "field"),
    [
        ({"value": -5.0}, "value"),
        ({"value": 0.0}, "value"),
        ({"value": 1e308 * 10}, "value"),  # inf
        ({"value": 1e308}, "value"),
        ({"accept_length": 5000.0}, "accept_length"),
        ({"figures": {"itl_ms": 1e300}}, "figures"),
        ({"value": math.nan}, "value"),
        ({"concurrency": -1}, "concurrency"),
        ({"concurrency": 0}, "concurrency"),
        ({"accept_length": -2.0}, "accept_length"),
        ({"accept_length": 0.0}, "accept_length"),
        ({"config": ""}, "config"),
        ({"config": "   "}, "config"),
        ({"figures": {"ttft_ms": -1.0}}, "figures"),
        ({"created_at": "yesterday"}, "created_at"),
    ],
)
def test_implausible_benchmark_values_are_named(values: dict, field: str) -> None:
    record = Record(kind="benchmark", **{"config": "c", "value": 50.0, **values})
    assert field in fields_of(record)


def test_plausible_records_pass() -> None:
    assert record_problems(Record(kind="benchmark", config="c", value=1e-3, concurrency=1,
                                  accept_length=1.0)) == []
    assert record_problems(Record(kind="benchmark", config="c", status="failed")) == []
    assert record_problems(Record(kind="note", text="hello")) == []
    assert fields_of(Record(kind="note", text="")) == {"text"}
    assert fields_of(Record(kind="lesson", title="")) == {"title"}


def test_wrong_types_are_named_not_raised() -> None:
    record = Record(kind="benchmark", config="c", value="abc", baseline="yes", events=[1, 2])  # type: ignore[arg-type]
    assert fields_of(record) == {"value", "baseline", "events"}


def test_import_data_normalises_toml_datetimes_and_lists_every_problem() -> None:
    local = datetime(2026, 5, 1, 12, 30)  # a TOML local date-time: taken as UTC
    record = record_from_data({"kind": "note", "text": "t", "id": "n-1", "created_at": local,
                               "value": 3})
    assert record.created_at == "2026-05-01T12:30:00+00:00"
    with pytest.raises(RecordError) as err:
        record_from_data({"kind": "benchmark", "config": "c", "value": "abc", "baseline": "yes",
                          "colour": "red", "record": "x"})
    assert {p.field for p in err.value.problems} == {"value", "baseline", "colour", "record"}


def test_future_timestamps_are_rejected_when_checked_against_now() -> None:
    now = datetime(2026, 1, 1, tzinfo=UTC)
    with pytest.raises(RecordError, match="created_at: lies in the future"):
        record_from_data({"kind": "note", "text": "t", "created_at": "2099-01-01T00:00:00+00:00"},
                         now=now)
    with pytest.raises(RecordError) as err:  # with a wrong type beside it: both are named
        record_from_data({"kind": "note", "text": 5, "created_at": "2099-01-01T00:00:00+00:00"},
                         now=now)
    assert [p.field for p in err.value.problems] == ["text", "created_at"]


def test_the_store_refuses_implausible_records_and_keeps_nothing(store: Store) -> None:
    with pytest.raises(RecordError, match="value: must be > 0"):
        store.add_all([Record(kind="note", text="fine"),
                       Record(kind="benchmark", config="c", value=-5.0)])
    assert store.count() == 0
    kept = store.add(Record(kind="benchmark", config="c", value=5.0))
    kept.concurrency = -1
    with pytest.raises(RecordError, match="concurrency"):
        store.update(kept)
    assert store.get(kept.id).concurrency is None


def _poison(store: Store, record_id: str, **changes: object) -> None:
    """Write a row body directly, as an older version or a hand edit of the file could."""
    body = json.loads(store._db.execute("SELECT body FROM records WHERE id = ?",
                                        (record_id,)).fetchone()[0])
    body.update(changes)
    store._db.execute("UPDATE records SET body = ?, value = ? WHERE id = ?",
                      (json.dumps(body), body.get("value"), record_id))


def test_reading_shows_an_unexpected_row_as_invalid(store: Store) -> None:
    bad = store.add(Record(kind="benchmark", config="poisoned", value=50.0, baseline=True))
    good = store.add(Record(kind="benchmark", config="good", value=40.0, baseline=True))
    _poison(store, bad.id, value="abc")
    store._db.execute("UPDATE records SET body = 'not json' WHERE id = ?", (good.id,))
    listed = {r.id: r for r in store.list()}
    assert is_invalid(listed[bad.id]) and "value: must be a number" in listed[bad.id].status
    assert is_invalid(listed[good.id]) and listed[good.id].kind == "note"
    assert store.benchmarks("output_tok_s") == []  # invalid rows are never the number to beat
    assert "No baseline" in ask(store, "what's the baseline?").text
    repaired = listed[bad.id]
    repaired.value = 55.0  # an edit is the repair
    store.update(repaired)
    assert [r.value for r in store.benchmarks("output_tok_s")] == [55.0]


def test_a_zero_baseline_from_an_older_version_does_not_crash_ask(store: Store) -> None:
    zero = store.add(Record(kind="benchmark", config="base", value=50.0, baseline=True))
    store.add(Record(kind="benchmark", config="eagle", value=60.0, accept_length=2.0))
    _poison(store, zero.id, value=0.0)
    answer = ask(store, "current speedup?")
    assert "no baseline" in answer.text.lower()


def test_ratios_guard_their_denominator() -> None:
    assert math.isnan(ratio(60.0, 0.0, "output_tok_s"))
    assert math.isnan(ratio(60.0, -2e307, "output_tok_s"))
    assert math.isnan(ratio(0.0, 20.0, "ttft_ms"))
    assert ratio(60.0, 50.0, "output_tok_s") == pytest.approx(1.2)


def test_a_run_keeps_odd_figures_its_log_printed() -> None:
    run = Record(kind="run", name="r", step=-1, lr=-0.1, eta_s=-5.0, accept_length=0.4)
    assert record_problems(run) == []  # refusing them would stop the run being followed
    run.loss = math.nan
    assert {p.field for p in record_problems(run)} == {"loss"}  # JSON cannot keep nan


@pytest.mark.parametrize(
    "moment",
    ["0001-01-01T00:00:00+01:00", datetime.fromisoformat("0001-01-01T00:00:00+01:00"),
     "9999-12-31T23:59:59-05:00"],
)
def test_a_timestamp_with_no_utc_equivalent_is_named_not_raised(moment: object) -> None:
    with pytest.raises(RecordError, match="created_at: not a date and time"):
        record_from_data({"kind": "note", "text": "t", "created_at": moment})


@pytest.mark.parametrize(
    ("tables", "why"),
    [
        ({"milestones": [{"kind": "progress", "step": 3}]}, "without `pct`"),
        ({"milestones": [{"kind": "x", "step": 3, "pct": 5}]}, "kind 'x'"),
        ({"milestones": [{"kind": "eval", "step": 3, "metrics": {"a": "x"}}]}, "`metrics`"),
        ({"milestones": [{"kind": "progress", "step": 3, "pct": 5, "loss": "x"}]}, "`loss`"),
        ({"milestones": [{"kind": "progress", "pct": 5}]}, "`step`"),
        ({"events": [{"kind": "crashed", "message": 5}]}, "`message`"),
        ({"events": [{"kind": "crashed", "lessons": [1]}]}, "`lessons`"),
    ],
)
def test_run_tables_its_readers_cannot_use_are_refused(tables: dict, why: str) -> None:
    with pytest.raises(RecordError, match=why):
        record_from_data({"kind": "run", "name": "r", "created_at": "2026-01-01T00:00:00Z", **tables})


def test_a_run_with_well_formed_tables_is_described(store: Store) -> None:
    run = record_from_data({
        "kind": "run", "name": "r", "created_at": "2026-01-01T00:00:00Z", "status": "crashed",
        "milestones": [{"kind": "progress", "step": 3, "pct": 5, "loss": 1.0, "acc": [0.5]},
                       {"kind": "eval", "step": 3, "metrics": {"eval_loss": 2.0}}],
        "events": [{"kind": "crashed", "message": "boom", "lessons": ["l-gone"]}],
    })
    store.add(run)
    text = ask(store, "how is the run?").text
    assert "5% at step 3" in text and "eval at step 3" in text and "boom" in text
