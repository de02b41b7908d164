"""Property tests: random bytes and mutated real lines never make a parser or the follower raise."""

from __future__ import annotations

import json
import math
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sessiontui.collectors.logtext import clean
from sessiontui.collectors.trainlog import LogFollower, history_for_chart, read_log
from sessiontui.collectors.trainlog.events import FailureWatcher
from sessiontui.collectors.trainlog.lines import LineBuffer, collapse_redraws
from sessiontui.collectors.trainlog.parsers import (
    RECOGNISERS,
    dict_pairs,
    parse_record,
    specforge_step_run,
    specforge_step_runs,
)
from sessiontui.collectors.trainlog.progress import parse_bar
from sessiontui.collectors.trainlog.readings import Reading, to_float
from sessiontui.collectors.trainlog.state import TrainState
from sessiontui.collectors.trainlog.trainer_state import trainer_state_readings

FIXTURES = Path(__file__).parent.parent / "fixtures"
REAL_LINES = sorted({
    line
    for path in [*FIXTURES.joinpath("trainlog").iterdir(), *FIXTURES.joinpath("crash").iterdir()]
    for line in path.read_text(encoding="utf-8").replace("\r", "\n").split("\n")
    if line.strip()
})
SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def mutated_lines(draw: st.DrawFn) -> str:
    """A real log line with characters replaced, inserted, deleted, or numbers made odd."""
    line = draw(st.sampled_from(REAL_LINES))
    for _ in range(draw(st.integers(0, 4))):
        where = draw(st.integers(0, len(line)))
        action = draw(st.sampled_from(["insert", "delete", "cut", "number"]))
        piece = draw(st.sampled_from(["nan", "inf", "-", "[", "]", "{", "}", "'", ":", "=", "%|",
                                      "\r", "\x1b[", "\ufffd", "1e999", "0" * 400, "é", "/"]))
        if action == "insert":
            line = line[:where] + piece + line[where:]
        elif action == "delete":
            line = line[:where] + line[where + 3:]
        elif action == "cut":
            line = line[:where]
        else:
            line = line.replace("0.", piece + ".", 1)
    return line


def _check_reading(reading: Reading) -> None:
    assert isinstance(reading.format, str)
    assert all(isinstance(k, str) and isinstance(v, float) for k, v in reading.metrics.items())
    assert reading.step is None or isinstance(reading.step, int)


def _all_parsers(text: str) -> None:
    """Every recogniser and helper on one text: none may raise, results keep their types."""
    cleaned = clean(text)
    for reading in parse_record(cleaned):
        _check_reading(reading)
    bar, rest = parse_bar(cleaned)
    # a bar places the run: by its step, or, an outer bar over the epochs (`Epoch: 50%| 2/4`), by its epoch
    assert isinstance(rest, str) and (bar is None or bar.step is not None or bar.epoch is not None)
    for _, recognise in RECOGNISERS:
        reading = recognise(cleaned)
        if reading is not None:
            _check_reading(reading)
    for start, end, step in specforge_step_runs(cleaned):
        _check_reading(specforge_step_run(cleaned, start, end, step))
    dict_pairs(cleaned)
    to_float(cleaned)
    FailureWatcher().feed(text, 0.0, None)


@SETTINGS
@given(mutated_lines())
def test_mutated_real_lines(line: str) -> None:
    _all_parsers(line)


@SETTINGS
@given(st.text(max_size=300))
def test_random_text(text: str) -> None:
    _all_parsers(text)


@SETTINGS
@given(st.binary(max_size=2000), st.integers(1, 64))
def test_random_bytes_through_the_whole_pipeline(data: bytes, keep_every: int) -> None:
    collapse_redraws(data, keep_every, 0)
    trainer_state_readings(data)
    state = TrainState("x")
    buffer = LineBuffer()
    for cut in range(0, len(data), 97):
        state.feed(buffer.feed(data[cut:cut + 97]), 1.0)
    state.feed(buffer.flush(), 2.0)
    snap = state.snapshot(3.0)
    json.dumps(snap.to_dict())  # always serialisable, nan included


@SETTINGS
@given(st.lists(mutated_lines(), max_size=30), st.sampled_from([b"\n", b"\r", b"\r\n"]))
def test_mutated_logs_in_any_framing(lines: list[str], end: bytes) -> None:
    data = end.join(line.encode("utf-8", "surrogatepass") for line in lines)
    state = TrainState("x")
    state.feed(data + end, 1.0)
    snap = state.snapshot(1.0)
    assert snap.status in {"running", "finished", "crashed", "stalled", "diverged", "waiting"}
    assert all(len(points) <= 513 for points in snap.history.values())


def test_invalid_utf8_and_a_1mb_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.log"
    path.write_bytes(
        b"step=1 loss=2.5\n\xff\xfe\xc3(garbage \x80\x81\n"
        + b"x" * (1 << 20) + b" loss=9.9\n"
        + b"Eval - Step 5 [6/9], position 0,  Acc: 0." + b"7" * (1 << 20) + b"\n"
        + b"step=2 loss=2.4 \xe9t\xe9\n"
    )
    snap = read_log(path)
    assert (snap.step, snap.loss) == (2, 2.4)
    json.dumps(snap.to_dict())


def test_trainer_state_json_garbage() -> None:
    assert trainer_state_readings(b'{"log_history": [1, {"loss": "x"}, {"loss": 1.0}]}')[0].metrics == {
        "loss": 1.0}
    assert trainer_state_readings(b"[1, 2]") == []
    assert trainer_state_readings(b"\xff") == []


def test_follower_on_a_directory_or_unreadable_path(tmp_path: Path) -> None:
    snap = LogFollower(tmp_path).poll()
    assert snap.status == "waiting"


@given(st.lists(st.tuples(st.integers(0, 10**6), st.floats(allow_nan=True)), max_size=2000),
       st.integers(-1, 300))
def test_history_for_chart_is_bounded_by_width(points: list[tuple[int, float]], width: int) -> None:
    values = history_for_chart(points, width)
    assert len(values) <= max(width, 0)
    assert len(values) == min(len(points), max(width, 0))
    if points and width >= len(points):
        assert [v for v in values if not math.isnan(v)] == [v for _, v in points if not math.isnan(v)]
