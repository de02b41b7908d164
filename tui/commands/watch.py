"""`sessiontui watch`: follow a training log without the app and keep its run record up to date."""

from __future__ import annotations

import argparse
import json
import sys
import time
from datetime import datetime
from pathlib import Path
from typing import Any

from sessiontui.tui.commands.common import open_store, print_json

POLL_S = 1.0


def _gpu_names() -> list[str]:
    from sessiontui.collectors.gpu import gpu_names

    return gpu_names()


def _print_record(record: Any, as_json: bool, store: Any) -> None:
    if as_json:
        print_json(record.to_dict())
    else:
        from sessiontui.project_memory.run_answers import describe_run

        print("\n".join(describe_run(record, store)))


def _once(path: Path, args: argparse.Namespace) -> int:
    from sessiontui.collectors.trainlog import read_log
    from sessiontui.project_memory.runs import RunTracker

    with open_store() as store:
        tracker = RunTracker(store, path, name=args.name, gpus=_gpu_names())
        tracker.update(read_log(path))
        record = tracker.flush()
        if not record.id:
            print(f"sessiontui: {path}: no training progress recognised yet; nothing recorded",
                  file=sys.stderr)
        _print_record(record, args.json, store)
    return 0


class _Reporter:
    """Prints what changed in a followed run: status changes and new events, or JSON lines."""

    def __init__(self, store: Any, record: Any, as_json: bool) -> None:
        self.store, self.as_json = store, as_json
        self.state = record.to_dict()
        self.status = record.status
        self.printed = {(e["kind"], e.get("step"), e.get("line")) for e in record.events}

    def report(self, record: Any) -> None:
        state = record.to_dict()
        if not record.id or state == self.state:
            return
        self.state = state
        if self.as_json:  # one compact JSON object per change, for scripts
            print(json.dumps(state, default=str), flush=True)
            return
        from sessiontui.project_memory.run_answers import event_lines

        clock = datetime.now().strftime("%H:%M:%S")
        if record.status != self.status:
            self.status = record.status
            step = f" at step {record.step:,}" if record.step is not None else ""
            print(f"{clock} run {record.id} {record.label}: {record.status}{step}", flush=True)
        for event in record.events:
            key = (event["kind"], event.get("step"), event.get("line"))
            if key not in self.printed:
                self.printed.add(key)
                print(clock + "\n".join(event_lines(self.store, event, record.id)), flush=True)


def _follow(path: Path, args: argparse.Namespace) -> int:
    from sessiontui.collectors.trainlog import LogFollower
    from sessiontui.project_memory.runs import RunTracker

    follower = LogFollower(path)
    with open_store() as store:
        tracker = RunTracker(store, path, name=args.name, gpus=_gpu_names())
        reporter = _Reporter(store, tracker.record, args.json)
        if not args.json:
            print(f"watching {path} (Ctrl-C to stop)", flush=True)
        try:
            snapshot = follower.catch_up()
            while True:
                reporter.report(tracker.update(snapshot))
                time.sleep(POLL_S)
                snapshot = follower.poll()
        except KeyboardInterrupt:
            return 0
        finally:
            tracker.flush()
            follower.close()


def cmd_watch(args: argparse.Namespace) -> int:
    path = args.log.expanduser().absolute()
    if args.once:
        if not path.is_file():
            print(f"sessiontui: {path}: no such log file", file=sys.stderr)
            return 1
        return _once(path, args)
    return _follow(path, args)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "watch", help="follow a training log and keep its run record in the memory",
        description="Follow a training log like the app does, without the app: keeps one run "
                    "record per log up to date (progress, metrics, milestones, failures matched "
                    "against lessons). Ctrl-C stops.",
    )
    p.add_argument("--log", required=True, type=Path, metavar="FILE", help="the log to follow")
    p.add_argument("--name", help="run name (default: from the log path)")
    p.add_argument("--once", action="store_true", help="process what the log holds now and exit")
    p.add_argument("--json", action="store_true",
                   help="print the run record as JSON (one line per change while following)")
    p.set_defaults(func=cmd_watch)
