"""`sessiontui watch`: run records kept from real logs, failures matched to lessons, end to end."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

from sessiontui.collectors.logtext import failure_signature
from sessiontui.project_memory.store import Store
from tests.conftest import sessiontui_command

CRASH = Path(__file__).parent.parent / "fixtures" / "crash"
WAIT_S = 60  # upper bound for the follower to notice a change; the tests never time anything


def specforge_lines(first: int, last: int, total: int) -> str:
    """SpecForge `specforge train` (2026) step dicts plus a tqdm bar carrying the total, every
    25 steps an evaluation dict (`eval/` keys)."""
    out = []
    for step in range(first, last + 1):
        out.append(f"Training:  {step * 100 // total:3d}%|####      | {step}/{total} "
                   f"[00:{step % 60:02d}<01:00,  2.50it/s, loss={3 - step / 100:.3f}]\n")
        out.append(f"step {step}: {{'acc_0': {0.6 + step / 1000:.4f}, 'acc_1': "
                   f"{0.4 + step / 1000:.4f}, 'loss': {3 - step / 100:.4f}, 'lr': 0.0001}}\n")
        if step % 25 == 0:
            out.append(f"step {step}: {{'eval/loss': {3.1 - step / 100:.4f}}}\n")
    return "".join(out)


def watch_json(run_cli, log: Path, *extra: str) -> dict:
    result = run_cli("watch", "--log", str(log), "--once", "--json", *extra)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)["records"][0]


def test_once_twice_adds_no_duplicate_milestones(run_main, store: Store, tmp_path: Path) -> None:
    log = tmp_path / "drafter" / "train.log"
    log.parent.mkdir()
    log.write_text(specforge_lines(1, 100, 200))
    first = watch_json(run_main, log)
    second = watch_json(run_main, log)
    assert second["id"] == first["id"] and first["id"].startswith("r-")
    assert (first["name"], first["log_path"]) == ("drafter/train", str(log))
    assert (first["step"], first["total_steps"]) == (100, 200)
    assert first["acc"] == [0.7, 0.5]
    assert first["accept_length"] == pytest.approx(1 + 0.7 + 0.7 * 0.5)
    kinds = [(m["kind"], m.get("pct", m["step"])) for m in second["milestones"]]
    assert kinds.count(("eval", 25)) == 1 and ("eval", 100) in kinds
    assert [k for k in kinds if k[0] == "progress"] == [("progress", p) for p in range(5, 51, 5)]
    assert second["milestones"] == first["milestones"]
    assert [r.id for r in store.list("run")] == [first["id"]]


def test_log_rotation_keeps_one_run(run_main, tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    log.write_text(specforge_lines(1, 60, 200))
    first = watch_json(run_main, log, "--name", "eagle3-70b")
    os.rename(log, tmp_path / "train.log.1")
    log.write_text(specforge_lines(61, 120, 200))
    second = watch_json(run_main, log)
    assert second["id"] == first["id"] and second["name"] == "eagle3-70b"
    assert second["step"] == 120
    pcts = [m["pct"] for m in second["milestones"] if m["kind"] == "progress"]
    assert pcts == list(range(5, 61, 5))


def crash_log(tmp_path: Path, fixture: str) -> Path:
    log = tmp_path / fixture
    shutil.copy(CRASH / fixture, log)
    return log


def test_crash_matched_to_a_lesson_from_an_earlier_run(run_main, tmp_path: Path) -> None:
    earlier = (CRASH / "cuda_oom.log").read_text()
    added = run_main("lesson", "add", "--title", "Drafter OOM in cross_entropy",
                    "--symptom", "OOM after ~400 steps", "--cause", "logits for all TTT positions",
                    "--fix", "--max-length 2048", "--signature", failure_signature(earlier),
                    "--json")
    assert added.returncode == 0, added.stderr
    lesson_id = json.loads(added.stdout)["records"][0]["id"]
    record = watch_json(run_main, crash_log(tmp_path, "cuda_oom_later.log"))
    assert record["status"] == "crashed" and record["step"] == 1270
    [event] = record["events"]
    assert event["kind"] == "crashed"
    assert event["line"].startswith("[rank3]: torch.OutOfMemoryError: CUDA out of memory.")
    assert event["signature"] == failure_signature(earlier)
    assert event["lessons"] == [lesson_id]
    human = run_main("watch", "--log", str(tmp_path / "cuda_oom_later.log"), "--once")
    assert "seen before: Drafter OOM in cross_entropy" in human.stdout
    assert "fix: --max-length 2048" in human.stdout


@pytest.mark.parametrize("fixture", ["triton_shared_memory.log", "nccl_watchdog.log",
                                     "killed.log"])
def test_unrelated_failure_matches_no_lesson(run_main, tmp_path: Path, fixture: str) -> None:
    run_main("lesson", "add", "--title", "OOM", "--symptom", "s", "--cause", "c", "--fix", "f",
            "--signature", failure_signature((CRASH / "cuda_oom.log").read_text()), check=True)
    record = watch_json(run_main, crash_log(tmp_path, fixture))
    assert record["status"] == "crashed"
    assert [e["kind"] for e in record["events"]] == ["crashed"]
    assert "lessons" not in record["events"][0]  # empty: left out (docs/json.md)
    assert record["events"][0]["signature"]


def test_lesson_draft_from_a_crashed_run(run_main, tmp_path: Path) -> None:
    record = watch_json(run_main, crash_log(tmp_path, "triton_shared_memory.log"))
    result = run_main("lesson", "add", "--from-run", record["id"], "--fix", "num_stages=2",
                     "--json")
    assert result.returncode == 0, result.stderr
    lesson = json.loads(result.stdout)["records"][0]
    assert lesson["signature"] == record["events"][0]["signature"]
    assert "Hardware limit: 232448" in lesson["symptom"]
    assert "raise OutOfResources" in lesson["symptom"]
    # The next run that hits it is matched to the lesson just written.
    (tmp_path / "next").mkdir()
    again = watch_json(run_main, crash_log(tmp_path / "next", "triton_shared_memory.log"))
    assert again["events"][0]["lessons"] == [lesson["id"]]


def test_missing_log_with_once_is_one_line_error(run_main, tmp_path: Path) -> None:
    result = run_main("watch", "--log", str(tmp_path / "nope.log"), "--once")
    assert result.returncode == 1
    assert "no such log file" in result.stderr and "Traceback" not in result.stderr


def test_log_without_progress_records_nothing(run_main, tmp_path: Path) -> None:
    log = tmp_path / "empty.log"
    log.write_text("loading checkpoint shards\n")
    result = run_main("watch", "--log", str(log), "--once")
    assert result.returncode == 0
    assert "nothing recorded" in result.stderr


def wait_for(check, what: str):
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        if found := check():
            return found
        time.sleep(0.2)
    raise AssertionError(f"gave up waiting for {what}")


def test_following_reports_changes_and_stops_cleanly_on_ctrl_c(
    memory_dir: Path, tmp_path: Path
) -> None:
    log = tmp_path / "train.log"
    log.write_text(specforge_lines(1, 10, 100))
    env = dict(os.environ, SESSIONTUI_DIR=str(memory_dir), PYTHONUNBUFFERED="1")
    proc = subprocess.Popen([*sessiontui_command(), "watch", "--log", str(log)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path)
    try:
        def stored_step() -> int | None:
            if not (memory_dir / "memory.db").exists():
                return None
            with Store(memory_dir / "memory.db") as store:
                run = store.run_for_log(str(log))
                return run.step if run else None

        assert wait_for(stored_step, "the first run record") == 10
        with log.open("a") as f:
            f.write(specforge_lines(11, 20, 100))
            f.write((CRASH / "cuda_oom.log").read_text())
        wait_for(lambda: stored_step() == 420, "the appended steps and crash")
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=WAIT_S)
    assert proc.returncode == 0, err
    assert "running at step 10" in out
    assert "crashed at step 420" in out
    with Store(memory_dir / "memory.db") as store:
        run_id = store.run_for_log(str(log)).id
    assert f"no lesson matches yet: record one with `sessiontui lesson add --from-run {run_id}`" \
        in out
