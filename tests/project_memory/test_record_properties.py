"""Property: whatever outside data `record_from_data` accepts (an import, a sync), every reader
handles — stored, listed, answered about, described as a run, exported and read back the same.
Anything else is a RecordError naming the problems, never another exception."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sessiontui.project_memory.ask import ask
from sessiontui.project_memory.exchange import parse_toml, records_toml
from sessiontui.project_memory.records import (
    FIELD_NAMES,
    KINDS,
    Record,
    RecordError,
    record_from_data,
)
from sessiontui.project_memory.run_answers import describe_run
from sessiontui.project_memory.store import Store
from sessiontui.tui.commands.common import record_line

TEXT = st.text(max_size=12) | st.sampled_from(["[bold]x[/]", "\x1b[2J", "a\nb", "1e308", ""])
MOMENTS = st.datetimes(min_value=datetime(1, 1, 1), max_value=datetime(9999, 12, 31),
                       timezones=st.none() | st.just(UTC) | st.builds(
                           lambda h: timezone(timedelta(hours=h)), st.integers(-23, 23)))
SCALARS = st.one_of(
    st.none(), TEXT, st.booleans(), st.integers(-(2**64), 2**64), st.floats(),
    MOMENTS, MOMENTS.map(lambda m: m.isoformat()),
)
TABLE_KINDS = st.sampled_from(["progress", "eval", "crashed", "stalled", "x"])
TABLE_KEYS = st.sampled_from(["step", "pct", "loss", "acc", "accept_length", "metrics", "message",
                              "line", "lessons", "context", "at", "signature"])
TABLE = st.builds(lambda kind, rest: {"kind": kind, **rest}, TABLE_KINDS,
                  st.dictionaries(TABLE_KEYS, SCALARS | st.lists(SCALARS, max_size=2)
                                  | st.dictionaries(TEXT, SCALARS, max_size=2), max_size=4))
TABLE_VALUES = st.one_of(SCALARS, st.integers(0, 100), st.lists(st.floats(0, 1), max_size=2),
                         st.dictionaries(TEXT, st.floats(), max_size=2), st.lists(TEXT, max_size=2))
NUMBER = st.floats(allow_nan=False, allow_infinity=False) | st.integers(-(2**70), 2**70)
WELL_FORMED = st.one_of(
    st.fixed_dictionaries({"kind": st.just("progress"), "step": st.integers(-5, 2**63),
                           "pct": st.integers(-5, 200)},
                          optional={"loss": NUMBER | st.none(), "acc": st.lists(NUMBER, max_size=3),
                                    "accept_length": NUMBER | st.none(), "at": TEXT}),
    st.fixed_dictionaries({"kind": st.just("eval"), "step": st.integers(-5, 2**63),
                           "metrics": st.dictionaries(TEXT, NUMBER, max_size=2)}),
    st.fixed_dictionaries({"kind": TABLE_KINDS},
                          optional={"message": TEXT, "line": TEXT, "step": st.integers(),
                                    "lessons": st.lists(TEXT, max_size=2),
                                    "context": st.lists(TEXT, max_size=2)}),
)
TABLE = WELL_FORMED | st.builds(lambda kind, rest: {"kind": kind, **rest}, TABLE_KINDS,
                                st.dictionaries(TABLE_KEYS, TABLE_VALUES, max_size=5))
BY_TYPE = {  # mostly the declared type, with its hostile values
    "str": TEXT.filter(bool), "int": st.integers(-5, 2**63), "float": st.floats(),
    "bool": st.booleans(), "list[str]": st.lists(TEXT, max_size=2),
    "list[float]": st.lists(st.floats() | st.integers(), max_size=3),
    "dict[str, float]": st.dictionaries(TEXT, st.floats(), max_size=2),
    "dict[str, str]": st.dictionaries(TEXT, TEXT, max_size=2),
    "list[dict[str, Any]]": st.lists(TABLE, max_size=2),
}
TIMESTAMPS = ("created_at", "updated_at", "deleted_at", "last_update")


def value_for(name: str) -> st.SearchStrategy:
    """Three times in four a value of the field's declared type, else anything."""
    typed = MOMENTS | MOMENTS.map(lambda m: m.isoformat()) if name in TIMESTAMPS else (
        BY_TYPE[str(Record.__dataclass_fields__[name].type).split(" |")[0]])
    return st.one_of(typed, typed, typed, SCALARS)


@st.composite
def outside_data(draw: st.DrawFn) -> dict:
    data = {"kind": draw(st.sampled_from(KINDS)), "created_at": "2026-01-01T00:00:00+00:00",
            "config": "c", "metric": "m", "title": "t", "text": "t", "value": 5.0}
    names = [name for name in FIELD_NAMES if name != "kind"]
    for name in draw(st.lists(st.sampled_from(names), max_size=8, unique=True)):
        data[name] = draw(value_for(name))
    return data


# Hypothesis's default count: every example opens a store of its own and asks four questions.
PROPERTY = settings(max_examples=100, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
RUNS = st.builds(lambda milestones, events, step: {
    "kind": "run", "name": "r", "created_at": "2026-01-01T00:00:00+00:00", "status": "running",
    "step": step, "total_steps": 100, "milestones": milestones, "events": events,
}, st.lists(TABLE, max_size=3), st.lists(TABLE, max_size=3), st.integers(0, 100))


@PROPERTY
@given(outside_data())
def test_accepted_outside_data_is_safe_for_every_reader(tmp_path: Path, data: dict) -> None:
    check_every_reader(tmp_path, data)


@PROPERTY
@given(RUNS)
def test_accepted_run_tables_are_safe_for_every_reader(tmp_path: Path, data: dict) -> None:
    check_every_reader(tmp_path, data)


def check_every_reader(tmp_path: Path, data: dict) -> None:
    """Rejected with named problems, or stored, listed, answered about and exported unchanged."""
    try:
        record = record_from_data(data, now=datetime.now(UTC))
    except RecordError as err:
        assert err.problems
        return
    with Store(tmp_path / f"{abs(hash(repr(data)))}.db") as store:
        stored = store.add(record)
        record_line(stored)
        if stored.kind == "run":
            describe_run(stored, store)
        for question in ("what's the baseline?", "current speedup?", "how is the run?", "targets"):
            ask(store, question)
        again = parse_toml(records_toml([stored]), "export")
        assert [r.to_dict() for r in again] == [r.to_dict() for r in parse_toml(
            records_toml(again), "re-export")]
