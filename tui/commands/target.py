"""`sessiontui target`: the numbers the project is aiming for, and where each stands."""

from __future__ import annotations

import argparse
import sys

from sessiontui.project_memory.records import Record
from sessiontui.tui.commands.common import (
    add_command,
    add_json_options,
    compact,
    finite_float,
    input_path,
    open_store,
    positive_int,
    print_json,
    print_records,
    stamped,
)


def new_target(text: str, **given: object) -> Record:
    """A target from plain words, with the fields `given` (not None) set over what they say;
    ValueError when the words name no metric and value and none are given."""
    from sessiontui.project_memory.targets import parse_target

    try:
        target = parse_target(text)
    except ValueError:
        if given.get("metric") is None or given.get("value") is None:
            raise
        target = Record("target", title=text)
    for name, value in given.items():
        if value is not None:
            setattr(target, name, value)
    return target


def status_json(statuses: list, *, full: bool = False) -> dict:
    """`target list --json`: each target's status under `records` (compact unless `full`)."""
    keep = (lambda item: item) if full else compact
    return {"records": [keep({
        "target": s.target.to_dict(), "current": s.current, "current_source": s.current_source,
        "met": s.met, "projected": s.projected, "projected_end": s.projected_end,
        "projected_band": s.projected_band, "notes": s.lines}) for s in statuses]}


def cmd_target_set(args: argparse.Namespace) -> int:
    try:
        target = new_target(" ".join(args.text), **{name: getattr(args, name) for name in (
            "metric", "value", "concurrency", "batch_size", "model", "engine")})
    except ValueError as exc:
        print(f"sessiontui: {exc}", file=sys.stderr)
        return 2
    with open_store() as store:
        store.add(stamped(target))
    if args.json:
        print_records([target], args)
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
    if args.log:
        with input_path(args.log) as given:
            snapshot, reasons = read_snapshot(str(given))
    else:
        snapshot, reasons = read_snapshot(log) if log else (None, [])
    store = open_store(create=False)
    statuses = []
    if store is not None:
        with store:
            statuses = all_statuses(store, snapshot, config.draft_overhead)
    if args.json:
        print_json(status_json(statuses, full=args.full))
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
        record = store.delete(record.id)
    if args.json:
        print_records([record], args)
        return 0
    print(f"removed target {record.id} (sessiontui restore {record.id} brings it back)")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    """Add `target set|list|rm` to the CLI."""
    target = add_command(sub, "target", "what the project aims for",
                         'sessiontui target set "beat 90 tok/s single stream"',
                         "sessiontui target list").add_subparsers(dest="action", required=True)
    p = add_command(target, "set", 'set a target, e.g. "beat 90 tok/s single stream", "accept length 3.0"',
                    'sessiontui target set "beat 90 tok/s single stream"',
                    'sessiontui target set "ship it" --metric speedup --value 2.0 --concurrency 1')
    p.add_argument("text", nargs="+", help="the target in plain words (also its title)")
    p.add_argument("--metric", help="metric name (output_tok_s, speedup, accept_length, ...)")
    p.add_argument("--value", type=finite_float, help="the threshold")
    p.add_argument("--concurrency", type=positive_int, help="concurrent requests it applies to")
    p.add_argument("--batch-size", dest="batch_size", type=positive_int, help="batch size it applies to")
    p.add_argument("--model", help="the model it applies to")
    p.add_argument("--engine", help="the serving engine it applies to")
    add_json_options(p)
    p.set_defaults(func=cmd_target_set)
    p = add_command(target, "list", "each target, its distance, and whether projections clear it",
                    "sessiontui target list", "sessiontui target list --log train.log --json")
    p.add_argument("--log", help="the drafter's training log (default: the first followed log; - for stdin)")
    add_json_options(p)
    p.set_defaults(func=cmd_target_list)
    p = add_command(target, "rm", "remove a target (recoverable)", "sessiontui target rm t-3c")
    p.add_argument("id", help="the target's id or a unique prefix of it")
    add_json_options(p)
    p.set_defaults(func=cmd_target_rm)
