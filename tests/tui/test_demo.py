"""The demo project: seeded memory through the real Store, a realistic live log, isolation."""

from __future__ import annotations

import ast
import json
import re
import statistics
import subprocess
import sys
import time
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest

from sessiontui.collectors.gpu import GpuProcess, GpuSample, GpuSnapshot
from sessiontui.collectors.trainlog import LogFollower
from sessiontui.project_memory.ask import ask
from sessiontui.project_memory.reference import best
from sessiontui.project_memory.store import Store
from sessiontui.tui.config import load_config
from sessiontui.tui.demo import build_demo, launch_demo, seed_memory, seed_records
from sessiontui.tui.demo_log import (
    TTT_LENGTH,
    Curve,
    TrainingLogWriter,
    metrics_at,
    specforge_line,
    tqdm_line,
)

# tqdm 4.67 layout for a file: `\r{desc}: {pct:3.0f}%|{bar:10}| {n}/{total} [{elapsed}<{remaining},
# {rate}, {postfix}]`, postfix as set by SpecForge train_eagle3.py: loss, acc, time.
TQDM = re.compile(
    r"^\rTraining Epoch (?P<epoch>\d+): +(?P<pct>\d+)%\|.{10}\| (?P<n>\d+)/(?P<total>\d+) "
    r"\[(?:\d+:)?\d\d:\d\d<(?:\d+:)?\d\d:\d\d, +[\d.]+(?:it/s|s/it), "
    r"loss=(?P<loss>[\d.]+), acc=(?P<acc>[\d.]+), time=[\d.]+s, grad_norm=(?P<grad>[\d.]+)\]$"
)


@pytest.fixture
def demo_store(tmp_path: Path) -> Store:
    with Store(tmp_path / "memory.db") as store:
        seed_memory(store)
        yield store


def test_memory_holds_every_kind(demo_store: Store) -> None:
    kinds = {kind: len(demo_store.list(kind)) for kind in ("benchmark", "lesson", "note", "run")}
    assert all(count >= 1 for count in kinds.values()), kinds
    assert kinds["lesson"] >= 3 and kinds["benchmark"] >= 5
    assert demo_store.count() == len(seed_records())


def test_baselines_are_single_stream_sglang_and_vllm(demo_store: Store) -> None:
    baselines = demo_store.benchmarks("output_tok_s", baseline=True)
    assert {b.engine for b in baselines} == {"sglang", "vllm"}
    assert all(b.concurrency == 1 and b.value > 0 for b in baselines)


def test_benchmarks_include_eagle3_results_one_slower_than_baseline(demo_store: Store) -> None:
    reference = best(demo_store.benchmarks("output_tok_s", baseline=True), "output_tok_s")
    results = demo_store.benchmarks("output_tok_s", baseline=False)
    assert results and all(r.spec_algorithm == "EAGLE3" and r.accept_length for r in results)
    assert any(r.value < reference.value for r in results)
    assert any(r.value > reference.value for r in results)
    assert any(r.status == "failed" for r in demo_store.list("benchmark"))


def test_crash_lessons_carry_signatures_and_are_found(demo_store: Store) -> None:
    lessons = demo_store.list("lesson")
    signed = [lesson for lesson in lessons if lesson.signature]
    assert {"OutOfResources", "Watchdog", "OutOfMemoryError"} <= {
        word for lesson in signed for word in re.findall(r"\w+", lesson.signature)
    }
    assert all(lesson.fix for lesson in lessons)
    for words, title in (("triton shared memory", "Triton"), ("packing", "packing"),
                         ("NCCL timeout", "NCCL")):
        assert title in demo_store.search(words, kind="lesson")[0].title


def test_the_baseline_question_answers_from_the_seeded_memory(demo_store: Store) -> None:
    expected = max(r.value for r in seed_records() if r.kind == "benchmark" and r.baseline)
    answer = ask(demo_store, "what's the baseline?")
    assert answer.intent == "baseline"
    assert answer.figures["reference_value"] == expected
    assert f"{expected:.1f}" in answer.text


def test_records_are_dated_in_the_past_relative_to_now() -> None:
    now = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
    stamps = [r.created_at for r in seed_records(now)]
    assert all("2026-02-2" <= stamp < now.isoformat() for stamp in stamps)
    assert len(set(stamps)) == len(stamps)


def test_curves_rise_and_fall_like_training() -> None:
    curve = Curve()
    early = [metrics_at(curve, s) for s in range(1, 51)]
    late = [metrics_at(curve, s) for s in range(5000, 5050)]
    assert statistics.mean(m.mean_acc for m in late) > statistics.mean(m.mean_acc for m in early)
    assert statistics.mean(m.loss for m in late) < statistics.mean(m.loss for m in early)
    final = metrics_at(curve, curve.total_steps).acc
    assert len(final) == TTT_LENGTH and final[0] > final[3] > final[-1]
    assert 0.7 < final[0] < 0.9
    assert metrics_at(curve, 321) == metrics_at(curve, 321)


def test_tqdm_line_follows_the_tqdm_layout() -> None:
    curve = Curve(total_steps=12_000, epochs=2)
    line = tqdm_line(curve, metrics_at(curve, 6_600))
    match = TQDM.match(line)
    assert match, line
    assert (match["epoch"], match["n"], match["total"], match["pct"]) == ("1", "600", "6000", "10")
    assert float(match["loss"]) == pytest.approx(metrics_at(curve, 6_600).loss, abs=0.005)


def test_specforge_line_is_a_step_and_a_dict() -> None:
    curve = Curve()
    metrics = metrics_at(curve, 42)
    head, _, body = specforge_line(curve, metrics).partition(": ")
    values = ast.literal_eval(body.strip())
    assert head == "step 42"
    assert [values[f"acc_{i}"] for i in range(TTT_LENGTH)] == pytest.approx(metrics.acc, abs=1e-4)
    assert values["loss"] == pytest.approx(metrics.loss, abs=1e-4) and values["lr"] > 0


@pytest.mark.parametrize("style", ["train_eagle3", "specforge"])
def test_writer_writes_history_then_never_passes_the_last_step(tmp_path: Path, style: str) -> None:
    path = tmp_path / "train.log"
    writer = TrainingLogWriter(path, curve=Curve(total_steps=40, epochs=1), style=style)
    writer.write_history(30)
    text = path.read_bytes().decode()  # keep the \r that tqdm writes
    assert writer.step == 30
    assert "Auto-calculated total_steps: 40" in text
    if style == "train_eagle3":
        assert text.count("\rTraining Epoch 0:") == 30
        assert text.count(", position 6,  Acc: ") == 3  # every 10 steps, glued after the bar
    else:
        assert len(re.findall(r"^step \d+: \{", text, re.M)) == 30
    writer.append(100)
    assert writer.step == 40


def bars(path: Path) -> int:
    return path.read_bytes().count(b"\rTraining Epoch")


def test_demo_job_builds_the_project_then_keeps_the_log_growing_until_stopped(
    tmp_path: Path,
) -> None:
    demo = launch_demo(tmp_path / "demo", history_steps=5, steps_per_s=50)
    try:
        demo.wait_ready()
        assert load_config(demo.config_path).log_paths(demo.dir) == [demo.log_path]
        with Store(demo.store_path) as store:
            assert store.count() == len(seed_records())
        deadline = time.monotonic() + 60
        while bars(demo.log_path) < 10 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert bars(demo.log_path) >= 10, "the job never appended"
    finally:
        demo.stop()
    stopped_at = bars(demo.log_path)
    time.sleep(0.3)
    assert bars(demo.log_path) == stopped_at  # the job is gone, not just paused
    demo.stop()  # idempotent


def test_build_demo_stays_inside_its_folder(tmp_path: Path, monkeypatch) -> None:
    elsewhere = tmp_path / "user-memory"
    monkeypatch.setenv("SESSIONTUI_DIR", str(elsewhere))
    demo = build_demo(tmp_path / "demo", history_steps=50)
    assert not elsewhere.exists()
    assert demo.store_path.is_relative_to(demo.dir) and demo.store_path.exists()
    assert demo.log_path.is_relative_to(demo.dir)
    config = load_config(demo.config_path)
    assert config.log_paths(demo.dir) == [demo.log_path] and not config.problems
    assert demo.writer.step == 50
    with Store(demo.store_path) as store:
        assert store.count() == len(seed_records())


def test_build_demo_refuses_a_folder_with_content(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(ValueError, match="not empty"):
        build_demo(tmp_path)
    demo = launch_demo(tmp_path)  # the job process says why, and stops
    with pytest.raises(ValueError, match="not empty"):
        demo.wait_ready()
    assert demo.job is None
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


def _h200(index: int) -> GpuSample:
    """One H200 row as nvidia-ml-py 12.575 reports it on driver 570 (141 GiB card, 700 W limit)."""
    return GpuSample(
        index=index, name="NVIDIA H200", uuid=f"GPU-demo-{index}", util_pct=97.0,
        mem_util_pct=61.0, mem_used_mib=118_220.0, mem_total_mib=143_771.0, power_w=612.4,
        power_limit_w=700.0, temp_c=61.0, sm_clock_mhz=1980.0, throttle=(),
        processes=(GpuProcess(4242 + index, "python", 117_604.0),), unavailable={},
    )


def test_demo_gpus_replay_a_trace(tmp_path: Path) -> None:
    demo = build_demo(tmp_path / "demo", history_steps=1)
    trace = tmp_path / "trace.jsonl"
    frame = GpuSnapshot(True, None, 1.0, "570.133.20", tuple(_h200(i) for i in range(8)))
    trace.write_text("# recorded for a test\n" + json.dumps(frame.to_dict()) + "\n")
    snapshot = replace(demo, trace_path=trace).gpu_collector().sample()
    assert snapshot.available and [g.index for g in snapshot.gpus] == list(range(8))


def test_demo_without_a_trace_says_gpus_are_not_available(tmp_path: Path) -> None:
    demo = build_demo(tmp_path / "demo", history_steps=1)
    missing = tmp_path / "no-trace.jsonl"
    snapshot = replace(demo, trace_path=missing).gpu_collector().sample()
    assert not snapshot.available and str(missing) in snapshot.reason


@pytest.mark.parametrize("style", ["train_eagle3", "specforge"])
def test_the_log_follower_reads_the_demo_log(tmp_path: Path, style: str) -> None:
    curve = Curve()
    writer = TrainingLogWriter(tmp_path / "train.log", curve=curve, style=style)
    writer.write_history(120)
    follower = LogFollower(writer.path)
    follower.catch_up(lambda fraction: None)
    snapshot = follower.poll()
    last = metrics_at(curve, 120)
    assert snapshot.step == 120 and snapshot.status == "running"
    assert snapshot.loss == pytest.approx(last.loss, abs=0.01)
    assert snapshot.acc == pytest.approx(last.acc, abs=0.01)  # the per-position lines of step 120
    assert len(snapshot.history["loss"]) > 50  # enough history for the charts from the start
    if style == "train_eagle3":
        assert snapshot.total_steps == curve.total_steps  # per-epoch bars, counted run-wide
        assert snapshot.steps_per_s and snapshot.eta_s


def test_demo_command_refuses_to_build_in_a_folder_with_content(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text("print('mine')\n")
    done = subprocess.run(
        [str(Path(sys.executable).parent / "sessiontui"), "demo", "--keep", str(tmp_path)],
        capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 2
    assert "not empty" in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["train.py"]
