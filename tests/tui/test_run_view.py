"""The Training pane you can navigate: ↑/↓ move between runs, Enter opens one; the run view shows
the traceback as lines, the matched lesson by title and fix, events with times, milestones as a
table and the log's last lines, searchable with /. Snapshots of the run view at 80x24 and 160x48."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from sessiontui.project_memory.records import Record
from sessiontui.project_memory.store import Store
from sessiontui.tui.app import SessionApp
from sessiontui.tui.screens.run_view import RunView
from tests.tui.app_fakes import HOST, TWO_GPUS, SequenceCollector, text_of, until

OOM = ("Traceback (most recent call last):\n"
       '  File "/w/train.py", line 212, in forward_step\n'
       "    loss = model(batch)\n"
       "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 7.82 GiB. GPU 0 has a "
       "total capacity of 79.10 GiB of which 5.12 GiB is free.\n")


def steps(first: int, last: int) -> str:
    return "".join(f"iteration {s:8d}/{100:8d} | lm loss: {3 - s / 100:.6E} |\n"
                   for s in range(first, last + 1))


def make_app(tmp_path: Path, logs: list[Path], refresh_s: float = 0.05) -> SessionApp:
    return SessionApp(tmp_path, store_path=tmp_path / "memory.db", log_paths=logs,
                      gpu_collector=SequenceCollector(TWO_GPUS),
                      host_collector=SequenceCollector(HOST), refresh_s=refresh_s)


def shown(screen: RunView, part: str) -> str:
    """A section's text; empty while the screen is still composing."""
    found = screen.query(f"#run-{part}")
    return text_of(found.first()) if found else ""


async def test_arrows_move_between_runs_and_enter_opens_the_crash(tmp_path: Path) -> None:
    with Store(tmp_path / "memory.db") as store:
        store.add(Record(kind="lesson", title="Megatron OOM at micro batch 8",
                         signature="torch.OutOfMemoryError: CUDA out of memory",
                         symptom="torch.OutOfMemoryError: CUDA out of memory",
                         fix="micro batch 4 with 2 accumulation steps"))
    first, second = tmp_path / "a" / "train.log", tmp_path / "b" / "train.log"
    for log in (first, second):
        log.parent.mkdir()
    first.write_text(steps(1, 30))
    second.write_text(steps(1, 66) + OOM)
    app = make_app(tmp_path, [first, second])
    async with app.run_test(size=(160, 48)) as pilot:
        pane = app.training_pane
        await until(pilot, lambda: all(card.snapshot for card in pane.cards.values())
                    and pane.cards[second].snapshot.status == "crashed")
        await until(pilot, lambda: bool(Store(tmp_path / "memory.db").list("run")))
        pane.focus()
        await pilot.press("down")
        assert app.focused is pane.cards[first]
        await pilot.press("down")
        assert app.focused is pane.cards[second]
        await pilot.press("down")  # the last stays
        assert app.focused is pane.cards[second]
        await pilot.press("up")
        assert app.focused is pane.cards[first]
        await pilot.press("down", "enter")
        await until(pilot, lambda: isinstance(app.screen, RunView))
        view = app.screen
        await until(pilot, lambda: "seen before" in shown(view, "lesson"))
        assert shown(view, "lesson").splitlines() == [
            "seen before: Megatron OOM at micro batch 8",
            "fix: micro batch 4 with 2 accumulation steps"]
        traceback = shown(view, "traceback").splitlines()
        assert "Traceback (most recent call last):" in traceback[0] and "['" not in traceback[0]
        assert any(line.startswith("torch.OutOfMemoryError") for line in traceback)
        events = shown(view, "events")
        assert "crashed" in events and "66" in events and time.strftime("%H:") in events
        milestones = shown(view, "milestones").splitlines()
        assert milestones[0].split() == ["reached", "step", "loss", "τ"]
        assert [row.split()[0] for row in milestones[1:]][:2] == ["5%", "10%"]
        tail = shown(view, "log-text").splitlines()
        assert len(tail) == 66 + len(OOM.splitlines()) and tail[-1].startswith("torch.OutOfMemoryError")
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, RunView))


async def test_slash_searches_the_log_tail(tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    log.write_text(steps(1, 300) + OOM)
    app = make_app(tmp_path, [log])
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: log in app.training_pane.cards
                    and app.training_pane.cards[log].snapshot is not None)
        app.training_pane.focus()
        await pilot.press("down", "enter")
        await until(pilot, lambda: isinstance(app.screen, RunView)
                    and "iteration" in shown(app.screen, "log-text"))
        view = app.screen
        tail = shown(view, "log-text").splitlines()
        assert len(tail) == 200  # the last 200 lines
        await pilot.press("slash", *"150/", "enter")
        assert view.matches == [next(i for i, t in enumerate(tail) if " 150/" in t)]
        log_scroll = view.query_one("#run-log")
        await until(pilot, lambda: log_scroll.scroll_y == min(view.matches[0], log_scroll.max_scroll_y))
        assert log_scroll.scroll_y > 0
        await pilot.press("slash", *"OutOfMemory", "enter")
        await until(pilot, lambda: log_scroll.scroll_y == log_scroll.max_scroll_y)


RUN = Record(
    kind="run", id="r-0000000001", name="drafter/train #2", status="crashed", step=66,
    total_steps=100, log_path="train.log", log_run=1,
    milestones=[{"kind": "progress", "pct": p, "step": p, "loss": 3 - p / 100,
                 "accept_length": 2 + p / 100} for p in range(5, 70, 5)],
    events=[{"kind": "stalled", "step": 20, "message": "no progress for 31 s at step 20",
             "at": "2026-01-02T03:04:05+00:00"},
            {"kind": "crashed", "step": 66, "at": "2026-01-02T03:05:40+00:00",
             "message": "torch.OutOfMemoryError: CUDA out of memory at step 66",
             "context": OOM.splitlines(), "lessons": ["l-0000000002"]}])


@pytest.fixture
def viewed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> SessionApp:
    """A crashed run's record and its log, as of a fixed moment in UTC."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    monkeypatch.chdir(tmp_path)
    (tmp_path / "train.log").write_text(steps(1, 66) + OOM)
    with Store(tmp_path / "memory.db") as store:
        store.add(Record(kind="lesson", id="l-0000000002", title="Megatron OOM at micro batch 8",
                         fix="micro batch 4 with 2 accumulation steps",
                         created_at="2026-01-01T00:00:00+00:00"))
        store.add(RUN)
    return make_app(tmp_path, [], refresh_s=3600.0)


async def open_run(pilot) -> None:
    pilot.app.push_screen(RunView(record=RUN, store_path=pilot.app.store_path))
    await until(pilot, lambda: isinstance(pilot.app.screen, RunView)
                and "seen before" in shown(pilot.app.screen, "lesson")
                and "iteration" in shown(pilot.app.screen, "log-text"))
    await pilot.pause()


@pytest.mark.parametrize("size", [(80, 24), (160, 48)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_run_view_snapshot(viewed: SessionApp, snap_compare, size: tuple[int, int]) -> None:
    assert snap_compare(viewed, terminal_size=size, run_before=open_run)


async def test_a_fifo_followed_by_mistake_is_said_on_its_card(tmp_path: Path) -> None:
    fifo = tmp_path / "train.log"
    os.mkfifo(fifo)
    app = make_app(tmp_path, [fifo])
    async with app.run_test(size=(100, 30)) as pilot:
        # the card wraps its text where the path's length puts it: compare words, not lines
        await until(pilot, lambda: fifo in app.training_pane.cards and "not a regular file"
                    in " ".join(text_of(app.training_pane.cards[fifo]).split()))
