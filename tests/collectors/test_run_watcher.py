"""The RunWatcher and the run life cycle: restarts make linked runs, crashes keep their state,
nothing is announced twice (another poll, another follower, a relaunched app), start times."""

from __future__ import annotations

import os
import time
from datetime import datetime
from pathlib import Path

import pytest

from sessiontui.collectors.run_watcher import RunWatcher
from sessiontui.collectors.trainlog import read_log
from sessiontui.project_memory.records import Record
from sessiontui.project_memory.store import Store

CRASH = Path(__file__).parent.parent / "fixtures" / "crash"
TOTAL = 22150


def steps(first: int, last: int, stamp: str = "") -> str:
    """Megatron-style iteration lines (the step counter of the issue's restart case)."""
    return "".join(f"{stamp} iteration {s:8d}/{TOTAL:8d} | consumed samples: {s * 64:12d} | "
                   f"lm loss: {3 - s / 10000:.6E} | learning rate: 3.0E-04 |\n"
                   for s in range(first, last + 1))


OOM = ("[rank0]: Traceback (most recent call last):\n"
       '[rank0]:   File "/w/pretrain_gpt.py", line 212, in forward_step\n'
       "[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 7.82 GiB. GPU 0 has "
       "a total capacity of 79.10 GiB of which 5.12 GiB is free.\n")


def follow(store: Store, log: Path) -> tuple[RunWatcher, list]:
    """A watcher caught up on the log and its first record (as the app and `watch` start)."""
    watcher = RunWatcher(store, log)
    watcher.catch_up()
    snapshot = watcher.read()
    return watcher, watcher.record(snapshot) if snapshot else []


def poll(watcher: RunWatcher) -> list:
    snapshot = watcher.read()
    return watcher.record(snapshot) if snapshot else []


def runs(store: Store) -> list[Record]:
    return sorted(store.list("run"), key=lambda r: r.log_run or 0)


def test_a_restart_in_the_same_log_makes_a_new_linked_run(store: Store, tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    log.write_text(steps(4200, 4229) + OOM)
    watcher, news = follow(store, log)
    assert [(n.event.kind, n.event.step) for n in news] == [("crashed", 4229)]
    with log.open("a") as f:  # the job is relaunched: its step counter starts again
        f.write(steps(1, 16))
    assert poll(watcher) == []  # the old crash is not announced again
    crashed, restarted = runs(store)
    assert (crashed.status, crashed.step, crashed.log_run) == ("crashed", 4229, 0)
    assert (restarted.status, restarted.step, restarted.log_run) == ("running", 16, 1)
    assert restarted.previous_run == crashed.id and restarted.id != crashed.id
    assert [e["kind"] for e in crashed.events] == ["crashed"] and restarted.events == []
    with log.open("a") as f:
        f.write(steps(17, 27))
    poll(watcher)
    watcher.flush()  # plain progress is stored every few seconds; flush says "now"
    assert [(r.status, r.step) for r in runs(store)] == [("crashed", 4229), ("running", 27)]


def test_catching_up_a_restarted_log_records_both_runs(store: Store, tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    log.write_text(steps(4200, 4229) + OOM + steps(1, 27))
    _, news = follow(store, log)
    assert [n.event.kind for n in news] == ["crashed"]
    crashed, restarted = runs(store)
    assert (crashed.status, crashed.step) == ("crashed", 4229)
    assert (restarted.status, restarted.step, restarted.previous_run) == ("running", 27, crashed.id)


def test_a_run_started_over_while_running_was_abandoned(store: Store, tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    log.write_text(steps(900, 1000) + steps(1, 20))  # relaunched by hand, no crash in between
    follow(store, log)
    first, second = runs(store)
    assert (first.status, first.step) == ("abandoned", 1000)
    assert (second.status, second.step, second.previous_run) == ("running", 20, first.id)


def test_a_log_truncated_by_a_relaunch_starts_a_new_run(store: Store, tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    bar = "Training:  {p}%|####      | {s}/5000 [00:10<01:00,  2.50it/s, loss=2.0]\n"
    log.write_text("".join(bar.format(p=s // 50, s=s) for s in range(3000, 3100)))
    watcher, _ = follow(store, log)
    log.write_text(bar.format(p=0, s=5))  # `python train.py > train.log` again
    poll(watcher)
    first, second = runs(store)
    assert (first.status, first.step) == ("abandoned", 3099)
    assert (second.step, second.previous_run) == (5, first.id)


def test_a_relaunched_follower_announces_nothing_again(store: Store, tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    log.write_text(steps(4200, 4229) + OOM)
    first, news = follow(store, log)
    first.close()
    assert len(news) == 1
    again, news = follow(store, log)  # the app (or watch) started again on the crashed log
    assert news == []
    assert [(r.status, r.step) for r in runs(store)] == [("crashed", 4229)]


def test_two_followers_of_one_log_keep_one_run(store: Store, tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    log.write_text(steps(1, 50))
    with Store(store.path) as other:  # another process: its own connection
        one, two = RunWatcher(store, log), RunWatcher(other, log)
        for watcher in (one, two):
            watcher.catch_up()
        snapshots = [one.read(), two.read()]
        one.record(snapshots[0])
        two.record(snapshots[1])
        with log.open("a") as f:
            f.write(steps(51, 60))
        poll(two)
        poll(one)
        one.close()
        two.close()
    [run] = store.list("run")
    assert run.step == 60


def test_a_bar_redrawn_after_the_traceback_keeps_the_run_crashed(tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    bar = "Training Epoch 0:  42%|####      | {s}/5000 [35:01<48:22,  1.00s/it, loss=2.31]\n"
    log.write_text("".join(bar.format(s=s) for s in (2098, 2099, 2100)) +
                   "Traceback (most recent call last):\n  File \"train.py\", line 9, in <module>\n"
                   "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.\n" +
                   bar.format(s=2101))  # tqdm's closing redraw
    assert read_log(log).status == "crashed"
    with log.open("a") as f:  # the job went on: steps follow, it is running again
        f.write(bar.format(s=2102) + bar.format(s=2103))
    assert read_log(log).status == "running"


@pytest.mark.parametrize("fixture", ["segfault_core_dumped.log", "segfault_torchrun.log",
                                     "bus_error_plain.log", "illegal_memory_access.log",
                                     "child_failed_exit1.log", "segfault_faulthandler.log"])
def test_signals_and_launcher_summaries_are_crashes(fixture: str) -> None:
    snap = read_log(CRASH / fixture)
    assert snap.status == "crashed"
    [event] = snap.events
    assert event.signature


def test_started_at_comes_from_the_log_timestamps(store: Store, tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    log.write_text(steps(1, 5, stamp="[2026-03-01 10:32:05,120]"))
    follow(store, log)
    [run] = runs(store)
    assert run.started_from == "log timestamps"
    started = datetime.fromisoformat(run.started_at).timestamp()
    assert started == datetime(2026, 3, 1, 10, 32, 5).timestamp()


def test_started_at_of_a_caught_up_log_without_timestamps_is_the_file_time(
    store: Store, tmp_path: Path
) -> None:
    log = tmp_path / "train.log"
    log.write_text(steps(1, 5))
    past = time.time() - 3 * 86400
    os.utime(log, (past, past))
    follow(store, log)
    [run] = runs(store)
    assert run.started_from in ("file creation time", "file modification time")
    assert abs(datetime.fromisoformat(run.started_at).timestamp() - past) < 2


def test_started_at_of_a_log_seen_growing_is_first_sight(store: Store, tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    log.write_text("")
    watcher, _ = follow(store, log)
    log.write_text(steps(1, 5))
    poll(watcher)
    [run] = runs(store)
    assert run.started_from == "first sight"


def test_binary_file_is_not_a_run(store: Store, tmp_path: Path) -> None:
    log = tmp_path / "model.bin"
    log.write_bytes(bytes(range(256)) * 64 + b"\nstep 5 loss 2.0\n")
    follow(store, log)
    assert store.list("run") == []


def test_a_stalled_run_is_shown_again_as_its_minutes_pass(tmp_path: Path) -> None:
    from sessiontui.collectors.run_watcher import snapshot_key

    log = tmp_path / "train.log"
    log.write_text(steps(1, 100))
    snap = read_log(log)
    stalled = type(snap)(**{**snap.__dict__, "status": "stalled", "last_update": 1000.0})
    assert snapshot_key(stalled, now=1000.0 + 14 * 60) != snapshot_key(stalled, now=1000.0 + 15 * 60)
    assert snapshot_key(stalled, now=1000.0 + 14 * 60) == snapshot_key(stalled, now=1000.0 + 14 * 60 + 30)


def test_answers_read_the_latest_run_of_a_restarted_log(store: Store, tmp_path: Path) -> None:
    from sessiontui.project_memory.run_answers import answer_run

    log = tmp_path / "train.log"
    log.write_text(steps(4200, 4229) + OOM + steps(1, 27))
    watcher, _ = follow(store, log)
    answer = answer_run(store, "how far is training?", [watcher.follower.snapshot()])
    assert answer.figures["status"] == "running" and answer.figures["step"] == 27
