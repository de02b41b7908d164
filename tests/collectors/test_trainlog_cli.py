"""`sessiontui train status`: JSON keys for scripts, a compact summary for people, clean errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sessiontui.tui.cli import main

FIXTURES = Path(__file__).parent.parent / "fixtures"


def test_json_has_the_promised_keys(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["train", "status", "--log", str(FIXTURES / "crash" / "cuda_oom.log"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {"step", "total_steps", "epoch", "loss", "lr", "acc", "steps_per_s", "eta_s",
            "last_update", "events", "status", "format", "metrics"} <= set(data)
    assert data["step"] == 420 and data["acc"] == [0.742, 0.5531, 0.4415]
    (event,) = data["events"]
    assert event["kind"] == "crashed" and event["lessons"] == []
    assert event["signature"].startswith("torch.OutOfMemoryError")
    assert "Tried to allocate 7.82 GiB" in event["line"]


def test_json_keeps_nan_visible(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["train", "status", "--log", str(FIXTURES / "trainlog" / "metrics.jsonl"),
                 "--json"]) == 0
    data = json.loads(capsys.readouterr().out)  # strict JSON: no bare NaN
    assert data["loss"] == "nan" and data["status"] == "diverged"


def test_human_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "train.log"  # written just now: a job still running, not one long silent
    log.write_bytes((FIXTURES / "trainlog" / "specforge_v2.log").read_bytes())
    assert main(["train", "status", "--log", str(log)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("finished · specforge-v2 · step 6/6")  # its last step is read
    assert "loss 2.6" in out[1] and "steps/s" in out[1]
    assert out[2] == "acc 0.746 0.696 0.646 0.596 0.546 0.496 0.446"


def test_missing_file_is_one_line_and_exit_1(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["train", "status", "--log", str(tmp_path / "nope.log")]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and len(captured.err.strip().splitlines()) == 1
    assert "nope.log" in captured.err


def test_status_json_names_matching_lessons(run_main) -> None:
    """A crash in the log is matched to the lesson recorded for it; unrelated lessons stay out."""
    import json

    crash = Path(__file__).parent.parent / "fixtures" / "crash" / "triton_shared_memory.log"
    lesson = json.loads(run_main(
        "lesson", "add", "--title", "Triton kernel needs too much shared memory",
        "--symptom", "triton.runtime.errors.OutOfResources: out of resource: shared memory",
        "--cause", "autotuned BLOCK sizes too large for H200 smem", "--fix", "num_stages=2",
        "--json", check=True).stdout)["records"][0]
    run_main("lesson", "add", "--title", "Packing off", "--symptom", "slow epochs",
            "--cause", "collator", "--fix", "enable packing", check=True)
    status = json.loads(run_main("train", "status", "--log", str(crash), "--json", check=True).stdout)
    crashed = [e for e in status["events"] if e["kind"] == "crashed"]
    assert crashed and crashed[0]["lessons"] == [lesson["id"]]
    human = run_main("train", "status", "--log", str(crash), check=True).stdout
    assert "seen before: Triton kernel needs too much shared memory — fix: num_stages=2" in human


def test_a_log_without_times_or_rate_stalls_at_the_stored_runs_pace(run_main, store, tmp_path: Path) -> None:
    """No timestamps, no rate: the stored run saw a step a second, so a log silent for 100 s
    (10 steps between lines: 10 s each, stalled after 50 s) is stalled, not waiting 600 s."""
    import os
    import time

    from sessiontui.project_memory.events import iso_time
    from sessiontui.project_memory.records import Record

    log = tmp_path / "train.log"
    log.write_text("".join(f"step {step}/1000 loss {3 - step / 100}\n" for step in (10, 20, 30, 40)))
    silent_since = time.time() - 100
    os.utime(log, (silent_since, silent_since))
    before = json.loads(run_main("train", "status", "--log", str(log), "--json", check=True).stdout)
    assert before["status"] == "running" and before["stall_after_s"] == 600.0  # nothing known
    store.add(Record("run", name="train", log_path=str(log), step=40, last_update=iso_time(silent_since),
                     milestones=[{"kind": "progress", "pct": 1, "step": 10, "at": iso_time(silent_since - 30)}]))
    after = json.loads(run_main("train", "status", "--log", str(log), "--json", check=True).stdout)
    assert after["status"] == "stalled" and after["stall_after_s"] == pytest.approx(50.0)


def test_human_summary_says_why_nothing_was_read(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    from sessiontui.collectors.trainlog.encoding import NOT_TEXT

    log = tmp_path / "model.pt"  # a checkpoint passed as the log by mistake
    log.write_bytes(bytes(range(256)) * 100)
    assert main(["train", "status", "--log", str(log)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1] == f"problem: {NOT_TEXT}"


def test_a_run_stopped_with_ctrl_c_says_interrupted(capsys: pytest.CaptureFixture[str]) -> None:
    """nanoGPT stopped with Ctrl+C (simonw/public-notes#11): the run ended `crashed` (the status
    vocabulary is fixed), and its event says the user interrupted it."""
    log = str(FIXTURES / "corpus" / "train" / "b27" / "nanogpt_cpu_ctrl_c_keyboardinterrupt.log")
    assert main(["train", "status", "--log", log]) == 0
    text = capsys.readouterr().out
    assert text.startswith("crashed · ") and "interrupted: KeyboardInterrupt" in text
    assert main(["train", "status", "--log", log, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["status"], data["step"], data["events"][0]["failure"]) == ("crashed", 142862, "interrupted")
