"""Property tests over `import` (issue 16): any TOML the record schema does not allow gives exit 1
and a one-line message naming what is wrong, never a traceback, never a partial import; any
file it allows imports whole."""

from __future__ import annotations

import itertools
import math
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import tomlkit
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sessiontui.project_memory.records import FIELD_NAMES, KINDS
from sessiontui.project_memory.store import Store
from sessiontui.tui.cli import main

IDS = itertools.count()
# Hypothesis's default count: every example is a whole import through the CLI's main.
PROPERTY = settings(max_examples=100, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])
TOML_TEXT = st.text(st.characters(exclude_categories=("Cs",)), max_size=20)
SCALARS = st.one_of(
    TOML_TEXT, st.integers(-(2**63), 2**63 - 1), st.floats(), st.booleans(),
    st.datetimes(min_value=datetime(1970, 1, 2), max_value=datetime(2030, 1, 1)), st.dates(),
)
ANY_VALUE = st.recursive(
    SCALARS, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TOML_TEXT, inner, max_size=3),
    max_leaves=6,
)


@st.composite
def valid_record(draw: st.DrawFn) -> dict:
    """A record the schema allows, of any kind."""
    kind = draw(st.sampled_from(["benchmark", "lesson", "note"]))
    created = draw(st.datetimes(min_value=datetime(2000, 1, 1), max_value=datetime(2026, 1, 1)))
    record = {"kind": kind, "id": f"{kind[0]}-{next(IDS):06d}",  # the memory outlives an example
              "created_at": created.replace(tzinfo=UTC).isoformat(timespec="seconds")}
    if kind == "benchmark":
        record |= {"config": draw(TOML_TEXT.filter(str.strip)),
                   "value": draw(st.floats(1e-6, 1e9)),
                   "concurrency": draw(st.integers(1, 4096)),
                   "accept_length": draw(st.floats(1, 16)),
                   "baseline": draw(st.booleans())}
    elif kind == "lesson":
        record |= {"title": draw(TOML_TEXT.filter(str.strip)), "fix": draw(TOML_TEXT)}
    else:
        record |= {"text": draw(TOML_TEXT.filter(str.strip)), "tags": draw(st.lists(TOML_TEXT, max_size=3))}
    return record


def not_a(types: tuple[type, ...]) -> st.SearchStrategy:
    return ANY_VALUE.filter(lambda v: not isinstance(v, types) or isinstance(v, bool) and bool not in types)


def unparseable_time(text: str) -> bool:
    try:
        datetime.fromisoformat(text)
    except ValueError:
        return True
    return False


# One way to break a record each: (field, strategy of a value the schema refuses there).
BREAKS = [
    ("kind", TOML_TEXT.filter(lambda k: k not in KINDS)),
    ("value", not_a((int, float))),
    ("value", st.floats().filter(lambda v: not math.isfinite(v) or v <= 0)),
    ("concurrency", st.one_of(st.integers(max_value=0), not_a((int,)))),
    ("accept_length", st.one_of(st.floats(max_value=0.999), not_a((int, float)))),
    ("baseline", not_a((bool,))),
    ("text", not_a((str,))),
    ("tags", not_a((list,))),
    ("tags", st.lists(st.one_of(st.integers(), st.booleans(), st.floats()), min_size=1, max_size=3)),
    ("events", st.lists(SCALARS, min_size=1, max_size=3)),
    ("figures", st.dictionaries(TOML_TEXT, st.one_of(TOML_TEXT, st.booleans()), min_size=1, max_size=2)),
    ("created_at", TOML_TEXT.filter(unparseable_time)),
    ("created_at", st.integers(0, 10**6).map(
        lambda d: (datetime.now(UTC) + timedelta(days=1 + d)).isoformat(timespec="seconds"))),
    ("id", not_a((str,))),
    ("unknown", ANY_VALUE),
]


@pytest.fixture
def memory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "memory"
    monkeypatch.setenv("SESSIONTUI_DIR", str(folder))
    return folder


def run_import(path: Path, capsys: pytest.CaptureFixture) -> tuple[int, str, str]:
    code = main(["import", str(path)])
    out, err = capsys.readouterr()
    return code, out, err


def stored(memory: Path) -> int:
    if not (memory / "memory.db").exists():
        return 0
    with Store(memory / "memory.db") as store:
        return store.count()


def toml_of(records: list[dict], top: dict | None = None) -> str:
    doc = tomlkit.document()
    for key, value in (top or {"format_version": 1}).items():
        doc[key] = value
    table = tomlkit.aot()
    for record in records:
        table.append(tomlkit.item(record))
    doc["record"] = table
    return tomlkit.dumps(doc)


@PROPERTY
@given(data=st.data(), count=st.integers(1, 4), which=st.sampled_from(range(len(BREAKS))))
def test_a_record_the_schema_refuses_fails_the_whole_import(
    data: st.DataObject, count: int, which: int, memory: Path, tmp_path: Path,
    capsys: pytest.CaptureFixture,
) -> None:
    records = [data.draw(valid_record()) for _ in range(count)]
    bad = data.draw(st.integers(0, count - 1))
    name, values = BREAKS[which]
    field = name if name != "unknown" else data.draw(
        st.from_regex(r"[a-z_]{1,12}", fullmatch=True).filter(lambda k: k not in FIELD_NAMES))
    records[bad][field] = data.draw(values)
    path = tmp_path / "in.toml"
    path.write_text(toml_of(records), encoding="utf-8")
    code, out, err = run_import(path, capsys)
    assert code == 1, (records[bad], out, err)
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert f"record {bad + 1} " in err
    assert stored(memory) == 0


@PROPERTY
@given(data=st.data(), top=st.sampled_from(["version", "key", "record"]))
def test_a_file_the_schema_refuses_at_the_top_fails_whole(
    data: st.DataObject, top: str, memory: Path, tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    records = [data.draw(valid_record())]
    path = tmp_path / "in.toml"
    if top == "version":
        version = data.draw(st.one_of(st.integers(2, 10**6), st.integers(max_value=0), not_a((int,))))
        text = toml_of(records, {"format_version": version})
    elif top == "key":
        key = data.draw(st.from_regex(r"[a-z_]{1,12}", fullmatch=True).filter(
            lambda k: k not in ("format_version", "record")))
        text = toml_of(records, {"format_version": 1, key: data.draw(ANY_VALUE)})
    else:
        doc = tomlkit.document()
        doc["record"] = data.draw(st.one_of(SCALARS, st.lists(SCALARS, min_size=1, max_size=3)))
        text = tomlkit.dumps(doc)
    path.write_text(text, encoding="utf-8")
    code, _, err = run_import(path, capsys)
    assert code == 1 and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert stored(memory) == 0


@PROPERTY
@given(data=st.data(), count=st.integers(1, 5))
def test_a_file_the_schema_allows_imports_whole_and_exactly(
    data: st.DataObject, count: int, tmp_path: Path, memory: Path, capsys: pytest.CaptureFixture
) -> None:
    records = [data.draw(valid_record()) for _ in range(count)]
    path = tmp_path / "in.toml"
    path.write_text(toml_of(records), encoding="utf-8")
    before = stored(memory)
    code, out, err = run_import(path, capsys)
    assert code == 0, err
    with Store(memory / "memory.db") as store:
        for record in records:
            got = store.get(record["id"]).to_dict()
            assert {k: got[k] for k in record} == record
    assert stored(memory) - before == int(out.split(": ")[1].split()[0])
