"""`sessiontui target`: the numbers the project is aiming for, and where each stands."""

from __future__ import annotations

import argparse
import sys

from sessiontui.tui.commands.common import (
    finite_float,
    open_store,
    positive_int,
    print_json,
    stamped,
)


def cmd_target_set(args: argparse.Namespace) -> int:
    from sessiontui.project_memory.targets import parse_target

    try:
        target = parse_target(" ".join(args.text))
    except ValueError as exc:
        if args.metric is None or args.value is None:
            print(f"sessiontui: {exc}", file=sys.stderr)
            return 2
        from sessiontui.project_memory.records import Record

        target = Record("target", title=" ".join(args.text), metric=args.metric, value=args.value)
    for name in ("metric", "value", "concurrency", "batch_size", "model", "engine"):
        if getattr(args, name) is not None:
            setattr(target, name, getattr(args, name))
    with open_store() as store:
        store.add(stamped(target))
    if args.json:
        print_json(target.to_dict())
    else:
        conditions = f" at c={target.concurrency}" if target.concurrency is not None else ""
        print(f"added target {target.id}: {target.metric} {target.value:g}{conditions} "
              f"({target.title})")
    return 0


def cmd_target_list(args: argparse.Namespace) -> int:
    from sessiontui.project_memory.targets import all_statuses
    from sessiontui.tui.commands.speedup import read_snapshot, settings

    log, config = settings()
    problems = config.problems
    log = args.log or log
    snapshot, reasons = read_snapshot(log) if log else (None, [])
    store = open_store(create=False)
    statuses = []
    if store is not None:
        with store:
            statuses = all_statuses(store, snapshot, config.draft_overhead)
    if args.json:
        print_json([{"target": s.target.to_dict(), "current": s.current,
                     "current_source": s.current_source, "met": s.met, "projected": s.projected,
                     "projected_end": s.projected_end, "projected_band": s.projected_band,
                     "notes": s.lines} for s in statuses])
        return 0
    for line in problems + reasons:
        print(f"note: {line}", file=sys.stderr)
    if not statuses:
        print('No targets yet. Add one: sessiontui target set "beat 90 tok/s single stream"')
    for status in statuses:
        print(f"{status.target.id}  {status.summary()}")
        for line in status.lines:
            print(f"    {line}")
    return 0


def cmd_target_rm(args: argparse.Namespace) -> int:
    with open_store() as store:
        record = store.get(args.id)
        if record.kind != "target":
            print(f"sessiontui: {args.id} is a {record.kind}, not a target", file=sys.stderr)
            return 2
        store.delete(record.id)
    print(f"removed target {record.id} (sessiontui restore {record.id} brings it back)")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    """Add `target set|list|rm` to the CLI."""
    target = sub.add_parser("target", help="what the project aims for").add_subparsers(
        dest="action", required=True)
    p = target.add_parser("set", help='e.g. "beat 90 tok/s single stream", "accept length 3.0"')
    p.add_argument("text", nargs="+")
    p.add_argument("--metric", help="metric name (output_tok_s, speedup, accept_length, ...)")
    p.add_argument("--value", type=finite_float, help="the threshold")
    p.add_argument("--concurrency", type=positive_int)
    p.add_argument("--batch-size", dest="batch_size", type=positive_int)
    p.add_argument("--model")
    p.add_argument("--engine")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_target_set)
    p = target.add_parser("list", help="each target, its distance, and whether projections clear it")
    p.add_argument("--log", help="the drafter's training log (default: the first followed log)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_target_list)
    p = target.add_parser("rm", help="remove a target (recoverable)")
    p.add_argument("id")
    p.set_defaults(func=cmd_target_rm)
