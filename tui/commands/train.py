"""`sessiontui train status --log FILE [--json]`: where a training job stands, read from its log."""

from __future__ import annotations

import argparse
import sys
from statistics import median
from typing import TYPE_CHECKING

from sessiontui.project_memory.records import Record, parse_time
from sessiontui.tui.commands.common import add_command, input_path
from sessiontui.tui.commands.hosts import add_host_option

if TYPE_CHECKING:
    from sessiontui.collectors.trainlog import TrainSnapshot
    from sessiontui.tui.config import Config


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `train` command and its `status` subcommand."""
    parser = add_command(sub, "train", "training-log status", "sessiontui train status --log train.log --json")
    actions = parser.add_subparsers(dest="train_command", metavar="ACTION", required=True)
    status = add_command(actions, "status", "parse a training log and print where it stands",
                         "sessiontui train status --log train.log",
                         "sessiontui train status --host node-2 --run exp3 --json")
    status.add_argument("--log", metavar="FILE", help="the job's log file (- for stdin)")
    status.add_argument("--json", action="store_true", help="print the snapshot as JSON")
    add_host_option(status)
    status.add_argument("--run", metavar="NAME", help="with --host: only this run")
    status.set_defaults(func=cmd_train_status)


def cmd_train_status(args: argparse.Namespace) -> int:
    """Parse the whole log once; a missing or unreadable file is a one-line error, exit 1."""
    if args.host:
        return _remote_status(args)
    if not args.log:
        print("sessiontui: train status needs --log FILE or --host NAME", file=sys.stderr)
        return 2
    try:
        with input_path(args.log) as log:  # `-`: standard input
            snapshot, lessons = read_status(str(log))
    except OSError as exc:
        print(f"sessiontui: {exc}", file=sys.stderr)
        return 1
    if args.json:
        from sessiontui.tui.commands.common import print_json

        print_json(status_dict(snapshot, lessons))
    else:
        print(render_summary(snapshot, lessons))
    return 0


def _remote_status(args: argparse.Namespace) -> int:
    """The runs another host's `sessiontui serve` reports (no events or lessons travel)."""
    from sessiontui.tui.commands.hosts import scrape_named

    remote = scrape_named(args.host)
    if remote is None:
        return 1
    runs = [run for run in remote.runs if args.run in (None, run.source)]
    if args.json and len(runs) > 1:  # one run, the shape of `train status --json`
        names = ", ".join(run.source for run in runs)
        print(f"sessiontui: {args.host} reports {len(runs)} runs ({names}): name one with --run",
              file=sys.stderr)
        return 2
    if args.json and runs:
        from sessiontui.tui.commands.common import print_json

        print_json({**status_dict(runs[0], [[] for _ in runs[0].events]), "host": args.host})
    elif not args.json:
        for run in runs:
            print(f"{run.source} @ {args.host}\n{render_summary(run)}")
    if remote.reachable and not runs:
        what = f"run {args.run!r}" if args.run else "training runs"
        print(f"sessiontui: {args.host} ({remote.host.kind}) reports no {what}", file=sys.stderr)
    return 0 if remote.reachable and runs else 1


def read_status(log: str, config: Config | None = None) -> tuple[TrainSnapshot, list[list]]:
    """The log's snapshot and, per event, the matching lessons; OSError naming the log if unreadable.
    `config`: the settings when the caller read them already (else they are read here)."""
    import os

    from sessiontui.collectors.trainlog import read_log

    if not os.path.isfile(log) or not os.access(log, os.R_OK):
        raise OSError(f"cannot read training log {log!r}")
    # reading the settings also puts their [[formats]] first
    configured = configured_stall_after_s() if config is None else config.stall_after_s
    return _from_memory(log, read_log(log, stall_after_s=configured), configured is None)


def configured_stall_after_s() -> float | None:
    """The project's `stall_after_s` setting (None: the run's own interval decides), so that
    every reader calls a run stalled at the same moment as the app does."""
    from sessiontui.project_memory.paths import project_root
    from sessiontui.tui.config import config_path, load_config

    return load_config(config_path(project_root())).stall_after_s


def status_dict(snapshot: TrainSnapshot, lessons: list[list]) -> dict:
    """The `train status --json` object: the snapshot, each event with its lessons' ids."""
    from sessiontui.collectors.trainlog.unread import unread_notes

    data = snapshot.to_dict()
    data["unread"] = unread_notes(snapshot.metrics, snapshot.loss, snapshot.acc, snapshot.format)
    events: list[dict[str, object]] = data["events"]  # type: ignore[assignment]  # to_dict's shape
    for event, matched in zip(events, lessons, strict=True):
        event["lessons"] = [lesson.id for lesson in matched]
    return data


def stored_interval(run: Record | None, snapshot: TrainSnapshot) -> float | None:
    """Seconds between the log's progress lines as the stored run saw them go by (its live
    milestones and last update: time over steps), for a log that prints neither times nor a rate."""
    if run is None:
        return None
    seen = sorted({(m["step"], when) for m in run.milestones
                   if m.get("at") and m.get("step") is not None and (when := parse_time(m["at"]))}
                  | ({(run.step, when)} if run.step is not None and run.last_update
                     and (when := parse_time(run.last_update)) else set()))
    if len(seen) < 2 or seen[-1][0] <= seen[0][0]:
        return None
    per_step = (seen[-1][1] - seen[0][1]).total_seconds() / (seen[-1][0] - seen[0][0])
    steps = [step for step, _ in snapshot.history.get("loss", ())]
    gaps = [b - a for a, b in zip(steps, steps[1:], strict=False) if b > a]
    return per_step * (median(gaps) if gaps else 1) if per_step > 0 else None


def _from_memory(log: str, snapshot: TrainSnapshot, own_limit: bool = False
                 ) -> tuple[TrainSnapshot, list[list]]:
    """The snapshot numbered as the run records count the log's attempts, and for each event the
    stored lessons that match it, best first (neither without a memory). With `own_limit` (no
    configured stall limit), a log that gave no interval is read again with the stored run's."""
    from dataclasses import replace

    from sessiontui.collectors.trainlog import read_log
    from sessiontui.collectors.trainlog.state import stall_limit_s
    from sessiontui.project_memory.lessons import lessons_for_event
    from sessiontui.project_memory.runs import attempt_of
    from sessiontui.project_memory.store import StoreError
    from sessiontui.tui.commands.common import open_reader

    nothing: list[list] = [[] for _ in snapshot.events]
    try:
        store = open_reader()
        if store is None:
            return snapshot, nothing
        with store:
            if own_limit and snapshot.step_interval_s is None and (
                    interval := stored_interval(store.run_for_log(log), snapshot)):
                snapshot = read_log(log, stall_after_s=stall_limit_s(interval))
            snapshot = replace(snapshot, attempt=attempt_of(store, log, snapshot))
            return snapshot, [lessons_for_event(store, event) for event in snapshot.events]
    except StoreError as exc:  # the status needs no memory: say what was skipped, go on
        print(f"sessiontui: lessons were not matched: {exc}", file=sys.stderr)
        return snapshot, nothing


def render_summary(snap: TrainSnapshot, lessons: list[list] | None = None) -> str:
    """A compact human summary: status line, why nothing was read (if so), figures, per-position
    accuracy, recent events."""
    import time

    from sessiontui.project_memory.humanize import duration, stall_text

    step = "?" if snap.step is None else f"{snap.step}"
    total = f"/{snap.total_steps}" if snap.total_steps else ""
    pct = f" ({100 * snap.step / snap.total_steps:.1f}%)" if snap.total_steps and snap.step else ""
    attempt = f" · attempt {snap.attempt}" if snap.attempt and snap.attempt > 1 else ""
    lines = [f"{snap.status} · {snap.format or 'unknown format'} · step {step}{total}{pct}{attempt}"]
    if snap.problem:  # why nothing was read (a binary file, a directory): said before any figure
        lines.append(f"problem: {snap.problem}")
    figures = [
        f"{name} {value:.4g}" for name, value in
        (("loss", snap.loss), ("lr", snap.lr), ("grad_norm", snap.grad_norm), ("epoch", snap.epoch))
        if value is not None
    ]
    if snap.status == "stalled":  # a rate and ETA would be stale: say how long it is stuck
        figures.append(stall_text(snap.step, snap.last_update, time.time()))
    else:
        if snap.steps_per_s:
            figures.append(f"{snap.steps_per_s:.3g} steps/s")
        if snap.eta_s is not None:
            figures.append(f"ETA {duration(snap.eta_s)}")
    if figures:
        lines.append("  ".join(figures))
    if snap.acc:
        lines.append("acc " + " ".join(f"{a:.3f}" for a in snap.acc))
    from sessiontui.collectors.trainlog.unread import unread_notes

    lines += unread_notes(snap.metrics, snap.loss, snap.acc, snap.format)
    if snap.last_update is not None:
        lines.append(f"last progress {duration(max(0.0, time.time() - snap.last_update))} ago")
    lessons = lessons or [[] for _ in snap.events]
    for event, matched in list(zip(snap.events, lessons, strict=True))[-5:]:
        lines.append(f"{event.label}: {event.message}")
        if matched:
            lines.append(f"  seen before: {matched[0].title} — fix: {matched[0].fix}")
    return "\n".join(lines)
