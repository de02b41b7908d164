"""`watch` end to end: terminating signals save progress, folders and binary files are told
plainly, concurrent followers keep one run, and a lesson drafted from a run is the failure."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from sessiontui.project_memory.store import Store
from tests.cli.test_watch import WAIT_S, specforge_lines, wait_for
from tests.conftest import sessiontui_command


def stored_step(memory_dir: Path, log: Path) -> int | None:
    if not (memory_dir / "memory.db").exists():
        return None
    with Store(memory_dir / "memory.db") as store:
        run = store.run_for_log(str(log))
        return run.step if run else None


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_terminating_signal_saves_progress_and_says_so(
    memory_dir: Path, tmp_path: Path, signum: int
) -> None:
    log = tmp_path / "train.log"
    log.write_text(specforge_lines(1, 10, 1000))
    env = dict(os.environ, SESSIONTUI_DIR=str(memory_dir), PYTHONUNBUFFERED="1")
    proc = subprocess.Popen([*sessiontui_command(), "watch", "--log", str(log), "--json"],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=tmp_path)
    try:
        assert wait_for(lambda: stored_step(memory_dir, log), "the first run record") == 10
        with log.open("a") as f:  # plain progress: stored only every few seconds while following
            f.write(specforge_lines(11, 84, 1000))
        for line in proc.stdout:  # one JSON line per change: wait until step 84 is read
            if json.loads(line)["records"][0]["step"] == 84:
                break
    finally:
        proc.send_signal(signum)
        out, err = proc.communicate(timeout=WAIT_S)
    assert proc.returncode == (0 if signum == signal.SIGINT else 128 + signum)
    said = "interrupted" if signum == signal.SIGINT else signal.Signals(signum).name
    assert f"{said}: progress saved" in err
    assert "Traceback" not in err
    assert stored_step(memory_dir, log) == 84


def test_a_folder_is_told_plainly(run_cli, tmp_path: Path) -> None:
    for extra in ((), ("--once",)):
        result = run_cli("watch", "--log", str(tmp_path), *extra)
        assert result.returncode == 1
        assert "is a folder" in result.stderr and "Traceback" not in result.stderr


def test_a_fifo_or_a_device_is_refused_in_one_line(run_cli, tmp_path: Path) -> None:
    fifo = tmp_path / "train.fifo"
    os.mkfifo(fifo)
    for path in (fifo, Path("/dev/zero")):
        for extra in ((), ("--once",)):
            result = run_cli("watch", "--log", str(path), *extra)
            assert result.returncode == 1 and "Traceback" not in result.stderr
            assert result.stderr.strip().splitlines() == [
                f"sessiontui: {path} is not a regular file; a training log must be one"]


def test_sigterm_stops_watch_while_it_waits_for_a_missing_log(memory_dir: Path,
                                                               tmp_path: Path) -> None:
    env = dict(os.environ, SESSIONTUI_DIR=str(memory_dir), PYTHONUNBUFFERED="1")
    proc = subprocess.Popen([*sessiontui_command(), "watch", "--log", str(tmp_path / "later.log")],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=tmp_path)
    assert proc.stdout is not None and proc.stdout.readline().startswith("watching")
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=WAIT_S)
    assert proc.returncode == 128 + signal.SIGTERM and "SIGTERM: progress saved" in err, err


def test_a_binary_file_is_not_a_run(run_cli, store: Store, tmp_path: Path) -> None:
    blob = tmp_path / "weights.bin"
    blob.write_bytes(os.urandom(64 * 1024))
    result = run_cli("watch", "--log", str(blob), "--once")
    assert result.returncode == 0 and "nothing recorded" in result.stderr
    assert store.list("run") == []


def test_followers_started_together_keep_one_run(memory_dir: Path, store: Store,
                                                  tmp_path: Path) -> None:
    env = dict(os.environ, SESSIONTUI_DIR=str(memory_dir))
    for trial in range(5):
        log = tmp_path / f"train{trial}.log"
        log.write_text(specforge_lines(1, 40, 100))
        procs = [subprocess.Popen([*sessiontui_command(), "watch", "--log", str(log), "--once"],
                                  env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
                 for _ in range(2)]
        for proc in procs:
            proc.wait(timeout=WAIT_S)
        assert len([r for r in store.list("run") if r.log_path == str(log)]) == 1, trial


def test_lesson_from_a_run_is_the_failure_not_the_bars(run_cli, tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    bar = "Training Epoch 0:  42%|####      | {s}/5000 [35:01<48:22,  1.00s/it, loss=2.31]"
    redraws = "\r".join(bar.format(s=s) for s in range(2088, 2100))
    frames = "".join(f'[rank0]:   File "/w/train.py", line {n}, in f{n}\n[rank0]:     g{n}()\n'
                     for n in range(6))
    error = "[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.\n"
    log.write_text(redraws + "\n[rank0]: Traceback (most recent call last):\n" + frames + error
                   + error.replace("rank0", "rank1"))
    record = json.loads(run_cli("watch", "--log", str(log), "--once", "--json", check=True).stdout)["records"][0]
    lesson = json.loads(run_cli("lesson", "add", "--from-run", record["id"], "--fix", "smaller",
                                "--json", check=True).stdout)["records"][0]
    symptom = lesson["symptom"].splitlines()
    assert 2 <= len(symptom) <= 15 and len(lesson["symptom"]) < 800
    assert symptom[-1] == "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB."
    assert not any("%|" in line or "[rank" in line for line in symptom)
    assert lesson["signature"] == record["events"][0]["signature"]


def test_train_status_tells_a_stall_plainly(run_cli, tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    log.write_text("".join(f"step {s}: {{'loss': 2.0, 'lr': 0.0001}}\n" for s in range(1, 101))
                   + "Training:   1%|          | 100/10000 [00:50<1:22:30,  2.00it/s]\n")
    past = time.time() - 14 * 60
    os.utime(log, (past, past))
    out = run_cli("train", "status", "--log", str(log), check=True).stdout
    assert "stalled for 14 min (last step 100 at " in out
    assert "steps/s" not in out and "ETA" not in out
