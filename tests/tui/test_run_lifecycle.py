"""A day in the life of one training log, played against the app, `train status --json`,
`list --kind run --json` and the `serve` page: it runs, stops, crashes with an OOM traceback,
restarts by rewriting its log, and finishes. At each phase every reader agrees on status, step
and attempt; time is an injected clock (the one-shot read goes by the file's time), not sleeps."""

from __future__ import annotations

import io
import json
import os
import re
import time
from contextlib import redirect_stdout
from datetime import datetime, timedelta
from pathlib import Path

from sessiontui.collectors.exporter import Exporter
from sessiontui.collectors.run_watcher import RunWatcher
from sessiontui.collectors.trainlog import LogFollower
from sessiontui.project_memory.records import Record
from sessiontui.project_memory.store import Store
from sessiontui.tui.app import SessionApp
from sessiontui.tui.cli import main
from sessiontui.tui.metrics_service import Serve, Settings
from tests.tui.app_fakes import HOST, TWO_GPUS, SequenceCollector, text_of, until

TOTAL = 100
PER_STEP_S = 0.5
START = datetime(2026, 1, 2, 3, 0, 0)
OOM = ("[rank0]: Traceback (most recent call last):\n"
       '[rank0]:   File "/w/pretrain_gpt.py", line 212, in forward_step\n'
       "[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 7.82 GiB. GPU 0 "
       "has a total capacity of 79.10 GiB of which 5.12 GiB is free.\n")


def lines(first: int, last: int) -> str:
    """Megatron iteration lines, time-stamped half a second apart."""
    return "".join(
        f"{(START + timedelta(seconds=s * PER_STEP_S)).isoformat(' ', 'milliseconds')} INFO "
        f"iteration {s:8d}/{TOTAL:8d} | lm loss: {3 - s / 100:.6E} | learning rate: 3.0E-04 |\n"
        for s in range(first, last + 1))


class Clock:
    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


def shown_on(card: object) -> str:
    """The card's text with its wrapped lines joined."""
    return " ".join(text_of(card).split())


def silent_for(log: Path, seconds: float) -> None:
    """The one-shot read dates the last step by the file's time: make it `seconds` ago."""
    then = time.time() - seconds
    os.utime(log, (then, then))


def cli(*args: str) -> str:
    """What `sessiontui ARGS` prints (the running app holds sys.stdout: taken back meanwhile)."""
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(list(args)) == 0
    return out.getvalue()


class Readers:
    """The CLI's and serve's view of the log, beside the app's card."""

    def __init__(self, log: Path, store: Store, clock: Clock) -> None:
        self.log = log
        self.exporter = Exporter("h")
        watcher = RunWatcher(store, log, follower=LogFollower(log, clock=clock))
        self.serve = Serve(self.exporter, [("train", watcher)], Settings())

    def status(self) -> dict:
        data = json.loads(cli("train", "status", "--log", str(self.log), "--json"))
        return {"status": data["status"], "step": data["step"], "attempt": data["attempt"]}

    def listed(self) -> dict:
        runs = [Record.from_dict(r) for r in json.loads(cli("list", "--kind", "run", "--json"))["records"]]
        if not runs:
            return {}
        current = max(runs, key=lambda r: r.log_run or 0)
        return {"status": current.status, "step": current.step,
                "attempt": (current.log_run or 0) + 1}

    def served(self) -> dict:
        self.serve.tick()
        page = self.exporter.payload().decode()
        status = re.search(r'train_status\{[^}]*status="(\w+)"\} 1\.0', page)
        step = re.search(r"train_step\{[^}]*\} ([\d.]+)", page)
        attempt = re.search(r"train_attempt\{[^}]*\} ([\d.]+)", page)
        assert status and step and attempt, page
        return {"status": status[1], "step": int(float(step[1])), "attempt": int(float(attempt[1]))}


async def test_runs_stops_crashes_restarts_and_finishes_and_every_reader_agrees(
        tmp_path: Path, memory_dir: Path) -> None:
    log = tmp_path / "train.log"
    log.write_text(lines(1, 20))
    clock = Clock()
    memory_dir.mkdir(parents=True, exist_ok=True)
    app = SessionApp(
        tmp_path, store_path=memory_dir / "memory.db", gpu_collector=SequenceCollector(TWO_GPUS),
        host_collector=SequenceCollector(HOST), log_paths=[log], refresh_s=0.05,
        follower_factory=lambda path: LogFollower(path, clock=clock),
    )
    async with app.run_test(size=(160, 48)) as pilot:
        await until(pilot, lambda: log in app.training_pane.cards
                    and "step 20/100" in text_of(app.training_pane.cards[log]))
        card = app.training_pane.cards[log]
        with Store(memory_dir / "memory.db") as store:
            readers = Readers(log, store, clock)

            async def agree(status: str, step: int, attempt: int, shown: str) -> str:
                await until(pilot, lambda: shown in shown_on(card) and status in shown_on(card))
                await until(pilot, lambda: readers.listed().get("status") == status)
                expected = {"status": status, "step": step, "attempt": attempt}
                assert readers.status() == expected
                assert readers.listed() == expected
                assert readers.served() == expected
                return shown_on(card)

            # Running: a rate and an ETA; after a few quiet intervals, how long ago the last step was.
            silent_for(log, 0)
            text = await agree("running", 20, 1, "step 20/100")
            assert "step/s" in text and "ETA" in text and "ago" not in text
            clock.now += 15
            text = await agree("running", 20, 1, "last step 10 s ago")
            # Stopped: still running 29 s after the last step (5 x 0.5 s < 30 s), stalled after 30.
            clock.now += 14
            await pilot.pause(0.2)
            assert "running" in shown_on(card)
            clock.now += 2
            silent_for(log, 31)
            text = await agree("stalled", 20, 1, "stalled for 31 s")
            assert "step/s" not in text and "ETA" not in text
            # Crashed with an OOM traceback: the crash is the run's end, no ETA frozen on screen.
            with log.open("a") as out:
                out.write(lines(21, 66) + OOM)
            clock.now += 1
            silent_for(log, 0)
            text = await agree("crashed", 66, 1, "step 66/100")
            assert "ETA" not in text and "OutOfMemoryError" in text
            # Restarted by rewriting the log: a second attempt, linked to the crashed one.
            log.write_text(lines(1, 10))
            clock.now += 1
            text = await agree("running", 10, 2, "step 10/100")
            assert card.border_title is not None and "train.log #2" in str(card.border_title)
            earlier = "attempt 1 crashed at step 66, torch.OutOfMemoryError: CUDA out of memory"
            await until(pilot, lambda: earlier in shown_on(card))
            # Finished as soon as its last step is read.
            with log.open("a") as out:
                out.write(lines(11, 100))
            clock.now += 1
            text = await agree("finished", 100, 2, "step 100/100")
            assert "ETA" not in text
        crashed, current = sorted(Store(memory_dir / "memory.db").list("run"),
                                  key=lambda r: r.log_run or 0)
        assert current.previous_run == crashed.id and crashed.status == "crashed"
