"""`report`, `compare` and `sweeps`: the comparisons people paste into a PR or the team chat."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from sessiontui.project_memory.records import DEFAULT_METRIC, Record

if TYPE_CHECKING:
    from sessiontui.project_memory.run_compare import RunComparison


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `report`, `compare` and `sweeps` commands."""
    from sessiontui.tui.commands.common import add_command, add_json_options

    report = add_command(
        sub, "report", "write a Markdown report (baselines, results, sweeps, runs, lessons)",
        "sessiontui report --since 7d -o report.md", "sessiontui report --since 2026-11-30 | less",
        description="Markdown for a PR or the team chat: baselines by conditions with the number "
        "to beat, results with their ratios, sweeps with their crossover, runs with their final "
        "figures, and the lessons added. With -o, SVG charts are written to charts/ beside it.",
    )
    report.add_argument("--since", metavar="WHEN",
                        help="only results, runs and lessons since 7d, 24h, 30m, 2w or a date")
    report.add_argument("-o", "--output", metavar="FILE",
                        help="write the report here and its charts in charts/ beside it "
                        "(default or -: Markdown on stdout, no charts)")
    report.add_argument("--metric", default=None, help=f"the metric compared (default: the "
                        f"configured metric, else {DEFAULT_METRIC})")
    add_json_options(report, records=False)
    report.set_defaults(func=cmd_report)

    compare = add_command(
        sub, "compare", "compare training runs: loss and accept length at equal steps",
        "sessiontui compare r-1a2b r-3c4d", "sessiontui compare r-1a2b r-3c4d --json",
        "sessiontui compare r-1a2b r-3c4d --svg runs.svg",
        description="Two or more run records side by side: each run's final and best loss and "
        "accept length, and both at the furthest step every run reached.",
    )
    compare.add_argument("runs", nargs="+", metavar="RUN", help="run ids (two or more)")
    compare.add_argument("--svg", metavar="FILE",
                         help="also save the loss chart here (and the τ chart beside it)")
    add_json_options(compare, records=False)
    compare.set_defaults(func=cmd_compare)

    sweeps = add_command(
        sub, "sweeps", "concurrency sweeps against the number to beat, with the crossover",
        "sessiontui sweeps", "sessiontui sweeps --json",
        description="Results of one configuration at several concurrencies (recorded with "
        "`record --sweep`, or found), each point divided by the number to beat at its "
        "concurrency, and where the feature stops paying.",
    )
    sweeps.add_argument("--metric", default=None, help="the metric compared")
    add_json_options(sweeps, records=False)
    sweeps.set_defaults(func=cmd_sweeps)


def _metric(chosen: str | None) -> str:
    """The metric asked for, else the project's configured one."""
    if chosen:
        return chosen
    from sessiontui.tui.commands.speedup import settings

    return settings()[1].default_metric


def cmd_report(args: argparse.Namespace) -> int:
    """Build the report; stdout without charts, or a file with its charts beside it."""
    from sessiontui.tui.commands.common import open_reader
    from sessiontui.tui.report import build_report, parse_since

    try:
        since = parse_since(args.since) if args.since else None
    except ValueError as exc:
        print(f"sessiontui report: {exc}", file=sys.stderr)
        return 2
    store = open_reader()
    records = [] if store is None else store.list()
    if store is not None:
        store.close()
    report = build_report(records, since, _metric(args.metric))
    if not args.output or args.output == "-":
        if args.json:
            from sessiontui.tui.commands.common import print_json

            print_json({"path": None, "markdown": report.markdown, "charts": []})
        else:
            sys.stdout.write(report.markdown)
        return 0
    try:
        written = report.write(Path(args.output))
    except OSError as exc:
        print(f"sessiontui report: cannot write {args.output}: {exc.strerror}", file=sys.stderr)
        return 1
    if args.json:
        from sessiontui.tui.commands.common import print_json

        print_json({"path": str(written[0]), "markdown": report.markdown,
                    "charts": [str(path) for path in written[1:]]})
        return 0
    charts = len(written) - 1
    print(f"sessiontui: wrote {written[0]}" + (f" and {charts} chart(s) in "
                                               f"{written[0].parent / 'charts'}" if charts else ""))
    return 0


def cmd_compare(args: argparse.Namespace) -> int:
    """Print (or save) the comparison of two or more runs."""
    from sessiontui.project_memory.run_compare import compare_runs
    from sessiontui.project_memory.store import StoreError
    from sessiontui.tui.commands.common import open_reader, print_json

    if len(args.runs) < 2:
        print("sessiontui compare: give two or more run ids (see `sessiontui list --kind run`)",
              file=sys.stderr)
        return 2
    store = open_reader()
    if store is None:
        print("sessiontui compare: nothing remembered yet", file=sys.stderr)
        return 1
    try:
        runs = [store.get(run_id) for run_id in args.runs]
    except StoreError as exc:
        print(f"sessiontui compare: {exc}", file=sys.stderr)
        return 1
    finally:
        store.close()
    if wrong := [r.id for r in runs if r.kind != "run"]:
        print(f"sessiontui compare: not a run: {', '.join(wrong)}", file=sys.stderr)
        return 2
    comparison = compare_runs(runs)
    if args.svg:
        _save_run_charts(comparison, Path(args.svg))
    if args.json:
        print_json(comparison.to_dict())
    else:
        from sessiontui.tui.report import run_table

        print("\n".join(run_table(comparison)))
    return 0


def _save_run_charts(comparison: RunComparison, path: Path) -> None:
    """The loss chart at `path`, the accept-length chart beside it (`-tau` before the suffix)."""
    from sessiontui.tui.report import run_chart
    from sessiontui.tui.svg_chart import render_svg

    path.write_text(render_svg(run_chart(comparison, "loss")), encoding="utf-8")
    tau = path.with_name(f"{path.stem}-tau{path.suffix or '.svg'}")
    tau.write_text(render_svg(run_chart(comparison, "accept_length")), encoding="utf-8")
    print(f"sessiontui: saved {path} and {tau}", file=sys.stderr)


def cmd_sweeps(args: argparse.Namespace) -> int:
    """Print every sweep with its points, ratios and crossover."""
    from sessiontui.project_memory.sweeps import compare_sweep, find_sweeps
    from sessiontui.tui.commands.common import open_reader, print_json

    metric = _metric(args.metric)
    store = open_reader()
    results: list[Record] = []
    baselines: list[Record] = []
    if store is not None:
        with store:
            results = store.benchmarks(metric, baseline=False)
            baselines = store.baselines(metric)  # the bests per conditions: each point's number to beat
    comparisons = [compare_sweep(sweep, baselines) for sweep in find_sweeps(results)]
    if args.json:
        print_json({"sweeps": [c.to_dict() for c in comparisons]})
        return 0
    if not comparisons:
        print("no sweeps: record one with `sessiontui record --sweep concurrency=1,2,4,8 -- CMD`")
        return 0
    from sessiontui.tui.report import sweep_table

    for comparison in comparisons:
        print("\n".join([comparison.summary, *sweep_table(comparison), ""]))
    return 0
