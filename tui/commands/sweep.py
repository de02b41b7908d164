"""`record --sweep concurrency=…`: run the sweep, show where it stands, and print what it stored."""

from __future__ import annotations

import argparse
import sys

from sessiontui.project_memory.humanize import duration


def record_sweep(command: list[str], args: argparse.Namespace) -> int:
    """Run one benchmark per concurrency; exit 130 after ctrl+c (what finished is kept)."""
    from sessiontui.collectors.sweep_run import SweepError, SweepProgress, parse_sweep, run_sweep
    from sessiontui.tui.commands.common import open_store, print_records, record_line

    try:
        values = parse_sweep(args.sweep)
    except SweepError as exc:
        print(f"sessiontui record: {exc}", file=sys.stderr)
        return 2

    def progress(at: SweepProgress) -> None:
        eta = f" · ETA {duration(at.eta_s)}" if at.eta_s is not None else ""
        print(f"sessiontui: sweep run {at.index}/{at.total} · concurrency={at.concurrency} · "
              f"elapsed {duration(at.elapsed_s)}{eta}", file=sys.stderr, flush=True)

    sink = sys.stderr.buffer if args.json else sys.stdout.buffer
    try:
        with open_store() as store:
            outcome = run_sweep(store, command, values, sink, config=args.config,
                                baseline=args.baseline, tags=args.tag, progress=progress)
    except SweepError as exc:
        print(f"sessiontui record: {exc}", file=sys.stderr)
        return 2
    for value, result in outcome.outcomes:
        if not result.stored:
            print(f"sessiontui record: concurrency={value}: {result.problem}", file=sys.stderr)
    if args.json:
        print_records(outcome.records, args, sweep_id=outcome.sweep_id,
                      interrupted=outcome.interrupted)
    else:
        print(f"sessiontui: sweep {outcome.sweep_id}: stored {len(outcome.records)} record(s) "
              f"from {len(outcome.outcomes)} of {len(values)} runs")
        for record in outcome.records:
            print(record_line(record))
    if outcome.interrupted:
        print(f"sessiontui: sweep stopped after {len(outcome.outcomes)} of {len(values)} runs; "
              "kept what finished", file=sys.stderr)
        return 130
    return 0 if outcome.records else 2
