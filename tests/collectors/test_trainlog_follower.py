"""`tail -F` semantics with real files: rotation, truncation, delete-then-recreate, catch-up."""

from __future__ import annotations

import os
from pathlib import Path

from sessiontui.collectors.trainlog import LogFollower, TrainSnapshot


def _append(path: Path, text: str) -> None:
    with open(path, "a", encoding="utf-8") as out:
        out.write(text)


def _steps(first: int, last: int) -> str:
    """Plain key=value lines a hand-written loop prints, one per step."""
    return "".join(f"step={s} loss={3 - s / 100:.2f}\n" for s in range(first, last + 1))


def _loss_steps(snap: TrainSnapshot) -> list[int]:
    return [step for step, _ in snap.history["loss"]]


class Clock:
    """A settable clock for the follower's notion of now."""

    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_follows_appends_and_parses_a_half_written_line_once_complete(tmp_path: Path) -> None:
    path = tmp_path / "train.log"
    path.write_text(_steps(1, 3) + "step=4 loss=2.")
    follower = LogFollower(path)
    snap = follower.catch_up()
    assert snap.step == 3 and snap.caught_up
    _append(path, "5")
    assert follower.poll().step == 3  # still no terminator
    _append(path, "\n")
    snap = follower.poll()
    assert (snap.step, snap.loss) == (4, 2.5)
    assert _loss_steps(snap) == [1, 2, 3, 4]


def test_rotation_by_rename_loses_and_duplicates_nothing(tmp_path: Path) -> None:
    path = tmp_path / "train.log"
    path.write_text(_steps(1, 10))
    follower = LogFollower(path)
    follower.catch_up()
    _append(path, _steps(11, 12))  # written before the rotation, not yet read
    os.rename(path, tmp_path / "train.log.1")
    _append(tmp_path / "train.log.1", _steps(13, 14))  # the writer still holds the old file
    path.write_text(_steps(15, 20))
    snap = follower.poll()
    assert snap.step == 20
    assert _loss_steps(snap) == list(range(1, 21))


def test_copytruncate_starts_again_from_the_top(tmp_path: Path) -> None:
    path = tmp_path / "train.log"
    path.write_text(_steps(1, 50))
    follower = LogFollower(path)
    assert follower.catch_up().step == 50
    with open(path, "r+") as handle:
        handle.truncate(0)
    _append(path, _steps(51, 52))
    snap = follower.poll()
    assert snap.step == 52
    assert _loss_steps(snap) == list(range(1, 53))


def test_delete_then_recreate(tmp_path: Path) -> None:
    path = tmp_path / "train.log"
    path.write_text(_steps(1, 5))
    follower = LogFollower(path)
    follower.catch_up()
    path.unlink()
    assert follower.poll().step == 5  # gone: keep what we know, wait
    path.write_text(_steps(6, 200))  # recreated, longer than before (size alone would not tell)
    snap = follower.poll()
    assert snap.step == 200
    assert _loss_steps(snap) == list(range(1, 201))


def test_a_missing_file_waits_for_its_creation(tmp_path: Path) -> None:
    path = tmp_path / "later.log"
    follower = LogFollower(path)
    snap = follower.poll()
    assert (snap.status, snap.step) == ("waiting", None)
    path.write_text(_steps(1, 2))
    assert follower.poll().step == 2


def test_tqdm_carriage_returns_are_separate_records(tmp_path: Path) -> None:
    path = tmp_path / "bar.log"
    redraws = "".join(f"\r{s:3d}%|#         | {s}/100 [00:{s:02d}<{(100 - s) // 60:02d}:"
                      f"{(100 - s) % 60:02d},  2.00it/s, loss={5 - s / 10}]" for s in range(1, 6))
    path.write_text(redraws)
    follower = LogFollower(path)
    # The last redraw has no terminator yet: it counts once the next one starts.
    assert follower.catch_up().step == 4
    _append(path, "\r  6%|#         | 6/100 [00:06<01:34,  2.00it/s, loss=4.4]")
    snap = follower.poll()
    assert (snap.step, snap.loss, snap.total_steps) == (5, 4.5, 100)
    assert snap.eta_s == 95.0  # the bar's own `<01:35`, not 95 steps at 2 it/s


def small_chunks(monkeypatch) -> None:
    """Catch-up reads 64 KiB at a time: a few hundred KB then take as many reads as MBs do."""
    import sessiontui.collectors.trainlog.follower as follower_module

    monkeypatch.setattr(follower_module, "CHUNK_BYTES", 64 << 10)


def test_catch_up_reports_progress_to_one(tmp_path: Path, monkeypatch) -> None:
    small_chunks(monkeypatch)
    path = tmp_path / "big.log"
    path.write_text(_steps(1, 1) * 6_000)  # ~120 KB: two reads
    seen: list[float] = []
    snap = LogFollower(path).catch_up(seen.append)
    assert snap.caught_up and snap.progress == 1.0
    assert seen == sorted(seen) and seen[-1] == 1.0 and len(seen) >= 3


def test_catch_up_in_a_background_thread_publishes_partial_snapshots(tmp_path: Path,
                                                                      monkeypatch) -> None:
    small_chunks(monkeypatch)
    path = tmp_path / "big.log"
    path.write_text(_steps(1, 100) * 100)  # ~160 KB: three reads
    follower = LogFollower(path)
    partial: list[TrainSnapshot] = []
    done: list[TrainSnapshot] = []
    # The callback runs while the catch-up holds the follower: snapshot() must not wait for it.
    thread = follower.catch_up_in_background(lambda _: partial.append(follower.snapshot()),
                                             done.append)
    thread.join(timeout=60)
    assert not thread.is_alive()
    assert [s.caught_up for s in partial[:-1]] == [False] * (len(partial) - 1)
    assert 0 < partial[0].progress < 1 and partial[0].step is not None
    assert done[0].caught_up and done[0].step == 100 and done[0].progress == 1.0


def test_poll_reads_at_most_its_budget_then_continues(tmp_path: Path, monkeypatch) -> None:
    import sessiontui.collectors.trainlog.follower as follower_module

    monkeypatch.setattr(follower_module, "MAX_POLL_BYTES", 100)
    monkeypatch.setattr(follower_module, "CHUNK_BYTES", 100)
    path = tmp_path / "train.log"
    path.write_text(_steps(1, 40))
    follower = LogFollower(path)
    first = follower.poll()
    assert not first.caught_up and 0 < first.progress < 1 and first.step < 40
    for _ in range(20):
        snap = follower.poll()
    assert snap.caught_up and snap.step == 40


def test_stall_from_the_configured_limit_with_an_injected_clock(tmp_path: Path) -> None:
    path = tmp_path / "train.log"
    path.write_text("")
    clock = Clock()
    follower = LogFollower(path, stall_after_s=30, clock=clock)
    follower.catch_up()
    _append(path, _steps(1, 2))
    assert follower.poll().status == "running"
    clock.now += 29
    assert follower.poll().status == "running"
    clock.now += 2
    snap = follower.poll()
    assert snap.status == "stalled"
    assert [e.kind for e in snap.events] == ["stalled"] and snap.events[0].step == 2
    clock.now += 100
    assert len(follower.poll().events) == 1  # said once
    _append(path, _steps(3, 3))
    assert follower.poll().status == "running"


def test_stall_from_the_usual_interval(tmp_path: Path) -> None:
    path = tmp_path / "train.log"
    path.write_text("")
    clock = Clock()
    follower = LogFollower(path, clock=clock)
    for step in range(1, 6):  # a progress line every 60 s
        _append(path, _steps(step, step))
        clock.now += 60
        assert follower.poll().status == "running"
    clock.now += 4 * 60  # 5 minutes silent: within 5x the usual minute
    assert follower.poll().status == "running"
    clock.now += 2 * 60
    assert follower.poll().status == "stalled"


def test_steps_per_s_is_measured_when_the_log_prints_no_rate(tmp_path: Path) -> None:
    path = tmp_path / "train.log"
    path.write_text("")
    clock = Clock()
    follower = LogFollower(path, clock=clock)
    for step in range(0, 100, 10):  # 10 steps every 5 s = 2 steps/s
        _append(path, _steps(step, step))
        clock.now += 5
        snap = follower.poll()
    assert snap.steps_per_s == 2.0


def test_old_log_dates_its_progress_from_the_file_time(tmp_path: Path) -> None:
    path = tmp_path / "old.log"
    path.write_text(_steps(1, 3))
    old = 1_000_000.0 - 3600
    os.utime(path, (old, old))
    snap = LogFollower(path, clock=Clock()).catch_up()
    assert snap.last_update == old
    assert snap.status == "stalled"
