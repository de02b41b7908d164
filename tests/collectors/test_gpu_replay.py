"""Replay of recorded GPU traces: order, looping, fresh timestamps, damaged lines."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sessiontui.collectors.gpu import GpuProcess, GpuSample, GpuSnapshot
from sessiontui.collectors.gpu_replay import ReplayGpuCollector

DEMO_TRACE = Path(__file__).parents[2] / "tui" / "demo_data" / "gpu_trace.jsonl"


def frame(util: float, at: float) -> GpuSnapshot:
    gpu = GpuSample(
        0,
        "NVIDIA H200",
        "GPU-1",
        util,
        10.0,
        2048.0,
        143771.0,
        300.0,
        700.0,
        40.0,
        1980.0,
        ("power cap",),
        (GpuProcess(4242, "python3", 2000.0),),
        {"pcie_tx_kb_s": "not supported"},
    )
    return GpuSnapshot(True, None, at, "580.159.04", (gpu,))


def write_trace(path: Path, frames: list[GpuSnapshot], junk: tuple[str, ...] = ()) -> Path:
    lines = ["# recorded by a test", *junk, *(json.dumps(f.to_dict()) for f in frames)]
    path.write_text("\n".join(lines) + "\n")
    return path


def test_replays_in_order_loops_and_restamps(tmp_path: Path) -> None:
    frames = [frame(0.0, 1.0), frame(50.0, 2.0), frame(100.0, 3.0)]
    replay = ReplayGpuCollector(write_trace(tmp_path / "t.jsonl", frames), clock=lambda: 99.0)
    seen = [replay.sample() for _ in range(5)]
    assert [s.gpus[0].util_pct for s in seen] == [0.0, 50.0, 100.0, 0.0, 50.0]
    assert {s.at for s in seen} == {99.0}
    assert seen[1].gpus == frames[1].gpus


def test_damaged_lines_are_skipped(tmp_path: Path) -> None:
    junk = (
        "not json",
        "[1, 2]",
        '{"available": true, "gpus": [{"index": Infinity}]}',
        '{"available": true, "gpus": [{"name": "no index"}]}',
        "\xff",
    )
    path = write_trace(tmp_path / "t.jsonl", [frame(7.0, 1.0)], junk)
    replay = ReplayGpuCollector(path)
    assert [replay.sample().gpus[0].util_pct for _ in range(2)] == [7.0, 7.0]


def test_missing_or_empty_trace_is_not_available(tmp_path: Path) -> None:
    missing = ReplayGpuCollector(tmp_path / "nope.jsonl").sample()
    assert not missing.available and "not readable" in missing.reason
    empty = ReplayGpuCollector(write_trace(tmp_path / "e.jsonl", [])).sample()
    assert not empty.available and "no snapshots" in empty.reason


def test_the_demo_trace_is_lively() -> None:
    replay = ReplayGpuCollector(DEMO_TRACE)
    frames = [replay.sample() for _ in range(200)]
    utils = [gpu.util_pct for f in frames for gpu in f.gpus if gpu.util_pct is not None]
    assert all(f.available for f in frames)
    assert min(utils) < 10 and max(utils) > 50
    assert any(gpu.processes for f in frames for gpu in f.gpus)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.binary(max_size=2000))
def test_random_bytes_never_raise(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "random.jsonl"
    path.write_bytes(data)
    snapshot = ReplayGpuCollector(path).sample()
    assert isinstance(snapshot, GpuSnapshot)


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(key=st.sampled_from(sorted(frame(1.0, 1.0).to_dict()["gpus"][0])), value=json_values)
def test_mutated_real_frames_never_raise(tmp_path: Path, key: str, value: object) -> None:
    data = frame(42.0, 1.0).to_dict()
    data["gpus"][0][key] = value
    path = tmp_path / "mutated.jsonl"
    path.write_text(json.dumps(data) + "\n" + json.dumps(frame(7.0, 2.0).to_dict()) + "\n")
    replay = ReplayGpuCollector(path)
    first, second = replay.sample(), replay.sample()
    assert first.available and second.available
    assert 7.0 in {first.gpus[0].util_pct, second.gpus[0].util_pct}
