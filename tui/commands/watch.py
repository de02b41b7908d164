"""`sessiontui watch`: follow a training log without the app and keep its run record up to date."""

from __future__ import annotations

import argparse
import signal
import sys
import time
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from sessiontui.tui.commands.common import add_command, json_line, open_store

if TYPE_CHECKING:
    from sessiontui.collectors.run_watcher import RunWatcher
    from sessiontui.collectors.trainlog.snapshot import TrainSnapshot
    from sessiontui.project_memory.records import Record
    from sessiontui.project_memory.runs import Announcement
    from sessiontui.project_memory.store import Store

POLL_S = 1.0
SAVE_SIGNALS = ("SIGTERM", "SIGHUP")  # besides Ctrl-C (SIGINT): each saves progress, then exits


class Stopped(Exception):
    """A terminating signal arrived: save progress and leave."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def _gpu_names() -> list[str]:
    from sessiontui.collectors.gpu_env import gpu_environment

    return gpu_environment().names


def _print_record(record: Record, as_json: bool, store: Store) -> None:
    if as_json:
        print(json_line(record), flush=True)
    else:
        from sessiontui.project_memory.run_answers import describe_run

        print("\n".join(describe_run(record, store)))


def _watcher(store: Store, path: Path, args: argparse.Namespace) -> RunWatcher:
    from sessiontui.collectors.run_watcher import RunWatcher
    from sessiontui.tui.commands.train import configured_stall_after_s

    return RunWatcher(store, path, name=args.name, gpus=_gpu_names(),
                      stall_after_s=configured_stall_after_s())


def _once(path: Path, args: argparse.Namespace) -> int:
    with open_store() as store:
        watcher = _watcher(store, path, args)
        watcher.record(watcher.catch_up(final=True))
        watcher.close()
        tracker = watcher.tracker
        if tracker is None or not tracker.record.id:
            print(f"sessiontui: {path}: no training progress recognised yet; nothing recorded",
                  file=sys.stderr)
        if tracker is not None:
            _print_record(tracker.record, args.json, store)
    return 0


class _Reporter:
    """Prints what changed in a followed run: status changes and new events, or JSON lines."""

    def __init__(self, store: Store, as_json: bool) -> None:
        self.store, self.as_json = store, as_json
        self.state: dict = {}
        self.status: tuple[str, str | None] = ("", None)

    def report(self, record: Record, news: list[Announcement]) -> None:
        state = record.to_dict()
        if not record.id or state == self.state:
            return
        self.state = state
        if self.as_json:  # JSON Lines: one compact record per change, for scripts
            print(json_line(record), flush=True)
            return
        from sessiontui.project_memory.run_answers import event_lines

        clock = datetime.now().strftime("%H:%M:%S")
        if (record.id, record.status) != self.status:
            self.status = (record.id, record.status)
            step = f" at step {record.step:,}" if record.step is not None else ""
            print(f"{clock} run {record.id} {record.label}: {record.status}{step}", flush=True)
        for item in news:
            print(clock + "\n".join(event_lines(self.store, item.event, item.run.id)), flush=True)


def _raise_stopped(signum: int, frame: object) -> None:
    raise Stopped(signum)


def _follow(path: Path, args: argparse.Namespace) -> int:
    with open_store() as store:
        watcher = _watcher(store, path, args)
        for name in SAVE_SIGNALS:  # before this, a signal ends the process as usual: nothing to save
            signal.signal(getattr(signal, name), _raise_stopped)
        try:  # from here a signal saves and stops, whenever it comes
            reporter = _Reporter(store, args.json)
            if not args.json:
                print(f"watching {path} (Ctrl-C to stop)", flush=True)
            if not path.exists():
                print(f"sessiontui: {path} does not exist yet; waiting for it to appear",
                      file=sys.stderr, flush=True)
            snapshot: TrainSnapshot | None = watcher.catch_up()
            while True:
                if snapshot is not None:
                    news = watcher.record(snapshot)
                    if watcher.tracker is not None:
                        reporter.report(watcher.tracker.record, news)
                time.sleep(POLL_S)
                snapshot = watcher.read()
        except KeyboardInterrupt:
            watcher.close()
            print("sessiontui watch: interrupted: progress saved, stopping", file=sys.stderr,
                  flush=True)
            return 0
        except Stopped as stop:
            watcher.close()
            print(f"sessiontui watch: {stop}: progress saved, stopping", file=sys.stderr, flush=True)
            return 128 + stop.signum
        finally:
            watcher.close()


def cmd_watch(args: argparse.Namespace) -> int:
    if str(args.log) == "-":
        print("sessiontui: watch follows a log file by its path; standard input cannot be followed "
              "(tee it to a file and watch that)", file=sys.stderr)
        return 2
    path = args.log.expanduser().absolute()
    if path.is_dir():
        print(f"sessiontui: {path} is a folder; give the log file inside it "
              f"(e.g. --log {path / 'train.log'})", file=sys.stderr)
        return 1
    if path.exists() and not path.is_file():  # a FIFO, /dev/zero: never a log that ends
        print(f"sessiontui: {path} is not a regular file; a training log must be one",
              file=sys.stderr)
        return 1
    if args.once:
        if not path.is_file():
            print(f"sessiontui: {path}: no such log file", file=sys.stderr)
            return 1
        return _once(path, args)
    return _follow(path, args)


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `watch` command."""
    p = add_command(
        sub, "watch", "follow a training log and keep its run record in the memory",
        "sessiontui watch --log runs/exp3/train.log", "sessiontui watch --log train.log --once --json",
        description="Follow a training log like the app does, without the app: keeps one run "
                    "record per run of the log up to date (progress, metrics, milestones, "
                    "failures matched against lessons). Ctrl-C, SIGTERM and SIGHUP save and stop.",
    )
    p.add_argument("--log", required=True, type=Path, metavar="FILE", help="the log to follow")
    p.add_argument("--name", help="run name (default: from the log path)")
    p.add_argument("--once", action="store_true", help="process what the log holds now and exit")
    p.add_argument("--json", action="store_true",
                   help="print the run record as JSON Lines (one line per change while following)")
    p.set_defaults(func=cmd_watch)
