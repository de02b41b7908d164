"""Restarts of every shape are new, linked runs, and every follower agrees on the current one:
truncate-and-rewrite (`python train.py > train.log` again), delete-and-recreate, a step counter
back at its start after a pause; the stall rule is one rule, in followers and one-shot reads."""

from __future__ import annotations

import os
import time
from pathlib import Path

from sessiontui.collectors.run_watcher import RunWatcher
from sessiontui.collectors.trainlog import LogFollower, read_log
from sessiontui.collectors.trainlog.state import stall_limit_s
from sessiontui.project_memory.records import Record
from sessiontui.project_memory.store import Store
from tests.collectors.test_run_watcher import OOM, follow, poll, steps


class Clock:
    def __init__(self, now: float = 2_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def runs(store: Store) -> list[Record]:
    return sorted(store.list("run"), key=lambda r: r.log_run or 0)


def test_the_stall_rule_is_five_median_intervals_but_at_least_30_s() -> None:
    assert stall_limit_s(0.5) == 30.0
    assert stall_limit_s(10.0) == 50.0
    assert stall_limit_s(10.0, override_s=300.0) == 300.0  # the setting wins
    assert stall_limit_s(None) == 600.0  # a single progress line: no interval yet


def followed(tmp_path: Path, last: int, every_s: float) -> tuple[Path, Clock, LogFollower]:
    """A log written one step every `every_s` seconds of an injected clock, polled after each."""
    log = tmp_path / "train.log"
    log.write_text("")
    clock = Clock()
    follower = LogFollower(log, clock=clock)
    follower.catch_up()
    for step in range(1, last + 1):
        with log.open("a") as out:
            out.write(steps(step, step))
        clock.now += every_s
        follower.poll()
    return log, clock, follower


def test_a_half_second_per_step_run_reads_stalled_30_s_after_its_last_step(tmp_path: Path) -> None:
    _, clock, follower = followed(tmp_path, 20, 0.5)
    snap = follower.snapshot()
    assert snap.status == "running" and snap.step_interval_s == 0.5 and snap.stall_after_s == 30
    assert snap.eta_s is not None and snap.steps_per_s
    last = snap.last_update
    clock.now = last + 29.9
    assert follower.poll().status == "running"
    clock.now = last + 30.1
    stalled = follower.poll()
    assert stalled.status == "stalled"
    assert stalled.steps_per_s is None and stalled.eta_s is None  # nothing frozen


def test_a_one_shot_read_learns_the_interval_from_the_bar_rate(tmp_path: Path) -> None:
    log = tmp_path / "train.log"  # HF Trainer's tqdm bar: 4 it/s, one redraw per step
    log.write_text("".join(f"{s * 100 // 400:3d}%|#| {s}/400 [00:{s // 4:02d}<01:40, 4.00it/s]\r"
                           for s in range(1, 101)) + "\n")
    os.utime(log, (time.time() - 20, time.time() - 20))
    snap = read_log(log)
    assert snap.step_interval_s == 0.25 and snap.stall_after_s == 30
    assert snap.status == "running"
    os.utime(log, (time.time() - 40, time.time() - 40))  # the same log, silent for 40 s
    snap = read_log(log)
    assert snap.status == "stalled" and snap.steps_per_s is None and snap.eta_s is None


def test_a_one_shot_read_learns_the_interval_from_the_log_timestamps(tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    log.write_text("".join(f"2026-01-02 03:0{i}:00,000 INFO step={10 * i} loss={3 - i / 10}\n"
                           for i in range(6)))  # a line a minute
    os.utime(log, (time.time() - 200, time.time() - 200))
    snap = read_log(log)
    assert snap.step_interval_s == 60 and snap.stall_after_s == 300
    assert snap.status == "running"  # 200 s of silence is within 5 x a minute


def test_a_log_rewritten_between_two_polls_is_a_new_run(tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    log.write_text(steps(1, 40))
    follower = LogFollower(log)
    assert follower.catch_up().step == 40
    # `python train.py > train.log` again: truncated, and already longer than before at the poll
    log.write_text(steps(1, 20) + "x" * 4000 + "\n")
    snap = follower.poll()
    assert snap.run_index == 1 and snap.step == 20
    assert max(s for s, _ in snap.history["loss"]) == 20  # the chart holds this attempt only
    assert snap.ended_runs[0].step == 40


def test_a_run_recreated_at_the_same_path_is_a_new_run(tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    log.write_text(steps(1, 30) + OOM)
    follower = LogFollower(log)
    assert follower.catch_up().status == "crashed"
    log.unlink()
    log.write_text(steps(1, 5))
    snap = follower.poll()
    assert (snap.run_index, snap.step, snap.status) == (1, 5, "running")


def test_a_step_counter_back_at_its_start_after_a_stall_is_a_new_run(tmp_path: Path) -> None:
    log, clock, follower = followed(tmp_path, 10, 1.0)
    clock.now += 60
    assert follower.poll().status == "stalled"
    with log.open("a") as out:
        out.write(steps(1, 2))
    snap = follower.poll()
    assert (snap.run_index, snap.step, snap.status) == (1, 2, "running")


def test_every_follower_agrees_on_the_current_attempt_after_a_rewrite(
        store: Store, tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    log.write_text(steps(1, 66) + OOM)
    first, news = follow(store, log)
    assert [n.event.kind for n in news] == ["crashed"]
    log.write_text(steps(1, 20))  # relaunched with `>`: the file is rewritten
    poll(first)
    crashed, current = runs(store)
    assert (crashed.status, crashed.step) == ("crashed", 66)
    assert (current.log_run, current.step, current.previous_run) == (1, 20, crashed.id)
    assert current.name.endswith(" #2") and not crashed.name.endswith("#1")
    # A second app opened now reads only the rewritten file: it follows the same attempt.
    second, news = follow(store, log)
    assert news == []
    assert second.tracker is not None and second.tracker.record.id == current.id
    assert len(runs(store)) == 2


def test_a_log_rewritten_while_nothing_followed_it_is_a_new_attempt(
        store: Store, tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    log.write_text(steps(1, 66) + OOM)
    watcher, _ = follow(store, log)
    watcher.close()
    log.write_text(steps(1, 20))  # rewritten while no app was open
    again, _ = follow(store, log)
    crashed, current = runs(store)
    assert crashed.status == "crashed" and crashed.step == 66  # the crash is not overwritten
    assert (current.log_run, current.step, current.previous_run) == (1, 20, crashed.id)
    # ... and opened once more, the same attempt is continued, not a third one
    third, _ = follow(store, log)
    assert third.tracker is not None and third.tracker.record.id == current.id
    assert isinstance(again, RunWatcher)


def test_a_fifo_or_a_device_is_not_read_and_says_why(tmp_path: Path) -> None:
    fifo = tmp_path / "train.fifo"
    os.mkfifo(fifo)
    for path in (fifo, Path("/dev/zero")):
        follower = LogFollower(path)
        snap = follower.catch_up()  # returns at once: the open neither blocks nor reads forever
        assert snap.step is None and snap.problem is not None and "not a regular file" in snap.problem
        assert follower.poll().problem == snap.problem
        follower.close()


def test_a_file_appearing_where_nothing_was_is_followed(tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    follower = LogFollower(log)
    assert follower.catch_up().problem is None  # a missing file is waited for, not refused
    log.write_text(steps(1, 3))
    assert follower.poll().step == 3


def test_a_long_log_read_once_from_its_end_matches_the_whole_read(
        tmp_path: Path, monkeypatch) -> None:
    from sessiontui.collectors.trainlog import follower

    log = tmp_path / "train.log"
    log.write_text(steps(1, 3000) + OOM)
    whole = read_log(log)
    monkeypatch.setattr(follower, "SAMPLED_ABOVE", 10_000)  # this log counts as long
    monkeypatch.setattr(follower, "END_BYTES", 20_000)
    monkeypatch.setattr(follower, "SAMPLE_BYTES", 1_000)
    tail = read_log(log)
    assert (tail.step, tail.total_steps, tail.loss, tail.status) == (
        whole.step, whole.total_steps, whole.loss, whole.status) == (3000, 22150, whole.loss,
                                                                     "crashed")
    assert [e.kind for e in tail.events] == ["crashed"]
    history = [step for step, _ in tail.history["loss"]]
    assert history[0] < 50 and history[-1] > 2900 and len(history) > 200  # sampled, start to end


def test_a_sampled_window_is_one_history_point_whatever_its_redraws() -> None:
    from sessiontui.collectors.trainlog.state import TrainState

    bars = "".join(f"\rEpoch 0:  {step // 5:2d}%|#    | {step}/500 [00:10<00:40, 10.00it/s, v_num=0, "
                   f"train/loss_step={3 - step / 100:.2f}]" for step in range(1, 201)) + "\n"
    whole, window = TrainState("whole"), TrainState("window")
    whole.feed(bars.encode(), 0.0)
    window.feed(bars.encode(), 0.0, window=True)
    assert (window.step, window.metrics["loss"]) == (whole.step, whole.metrics["loss"]) == (200, 1.0)
    assert len(whole.history["loss"].points) > 10  # a catch-up samples the redraws for the charts
    assert [step for step, _ in window.history["loss"].points] == [200]  # a window is its last bar
