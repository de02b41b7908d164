"""`sessiontui speedup`: measured, projected and calibrated speculative-decoding speedup."""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sessiontui.project_memory.limits import MAX_DRAFT_DEPTH
from sessiontui.tui.commands.common import (
    add_command,
    add_json_options,
    finite_float,
    input_path,
    invalid_value,
    open_store,
    positive_int,
    print_json,
)

if TYPE_CHECKING:
    import argparse

    from sessiontui.collectors.trainlog.snapshot import TrainSnapshot
    from sessiontui.project_memory.speedup import SpeedupReport
    from sessiontui.tui.config import Config


def rate_list(text: str) -> list[float]:
    """An argparse type: comma-separated acceptance rates such as `0.8,0.6,0.5`."""
    return [finite_float(part.strip()) for part in text.split(",") if part.strip()]


def _depth(text: str) -> int:
    """An argparse type: a draft depth within MAX_DRAFT_DEPTH (the projection's work grows with it)."""
    depth = positive_int(text)
    if not 1 <= depth <= MAX_DRAFT_DEPTH:
        raise invalid_value(f"must be 1 to {MAX_DRAFT_DEPTH}, not {depth}")
    return depth


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `speedup` command."""
    parser = add_command(
        sub, "speedup", "projected and calibrated speculative-decoding speedup",
        "sessiontui speedup", "sessiontui speedup --acc 0.8,0.6,0.5 --draft-overhead 0.1 --json",
        "sessiontui speedup --simulated-acc-len 3.2 --baseline-value 51",
        description="Turn acceptance metrics into an expected speedup: the theoretical one, and "
        "one calibrated by what past benchmarks on this system delivered. Without explicit "
        "inputs: the followed training log, the best stored baseline and the latest speculative "
        "benchmark.",
    )
    given = parser.add_mutually_exclusive_group()
    given.add_argument("--acc", type=rate_list, metavar="R1,R2,...",
                       help="per-position acceptance rates, 0..1")
    given.add_argument("--simulated-acc-len", type=finite_float, metavar="X",
                       help="SpecForge simulated_acc_len (the bonus token is added)")
    parser.add_argument("--acc-kind", choices=("conditional", "full"), default="conditional",
                        help="conditional (SpecForge/EAGLE acc_i) or full (vLLM per-position)")
    parser.add_argument("--draft-overhead", type=finite_float, metavar="O",
                        help="draft time / target step time")
    parser.add_argument("--baseline-value", type=finite_float, metavar="B",
                        help="the number to beat (default: best stored baseline)")
    parser.add_argument("--calibrate-accept", type=finite_float, metavar="TAU",
                        help="accept length of a measured speculative run")
    parser.add_argument("--calibrate-value", type=finite_float, metavar="T",
                        help="value that run measured")
    parser.add_argument("--depth", type=_depth, metavar="N",
                        help=f"draft tokens per step to project at (1 to {MAX_DRAFT_DEPTH})")
    parser.add_argument("--log", metavar="FILE", help="training log to read acceptance from (- for stdin)")
    parser.add_argument("--metric", help="benchmark metric (default: from sessiontui.toml)")
    add_json_options(parser, records=False)
    parser.set_defaults(func=cmd_speedup)


def settings() -> tuple[str | None, Config]:
    """The first followed log and the settings of sessiontui.toml (with any problems reading it)."""
    from sessiontui.project_memory.paths import project_root
    from sessiontui.tui.config import config_path, load_config

    root = project_root()
    config = load_config(config_path(root))
    logs = config.log_paths(root)
    return (str(logs[0]) if logs else None), config


def read_snapshot(log: str) -> tuple[TrainSnapshot | None, list[str]]:
    """The training snapshot of a log file, or None with the reason (front ends read logs)."""
    from sessiontui.collectors.trainlog import read_log

    try:
        return read_log(Path(log)), []
    except OSError as exc:
        return None, [f"cannot read {log}: {exc.strerror or exc}"]


def speedup_report(
    *, log: str | None = None, metric: str | None = None, acc: list[float] | None = None,
    simulated_acc_len: float | None = None, draft_overhead: float | None = None, **inputs: Any,
) -> SpeedupReport:
    """The report `sessiontui speedup` prints (the mcp tool too): explicit acceptance, else the
    followed log's; the memory for the baseline and calibration. Bad explicit input: ValueError."""
    from sessiontui.project_memory.speedup import build_speedup_report

    followed, config = settings()
    problems = list(config.problems)
    overhead_source = None
    if draft_overhead is None and config.draft_overhead is not None:
        draft_overhead = config.draft_overhead
        overhead_source = "your draft_overhead setting in sessiontui.toml"
    explicit = acc is not None or simulated_acc_len is not None
    log = log or (None if explicit else followed)
    snapshot = None
    if log and not explicit:
        snapshot, unread = read_snapshot(log)
        problems = problems + unread
    store = open_store(create=False)
    try:
        report = build_speedup_report(
            store, acc=acc, simulated_acc_len=simulated_acc_len, draft_overhead=draft_overhead,
            draft_overhead_source=overhead_source, snapshot=snapshot,
            metric=metric or config.default_metric, **inputs,
        )
    finally:
        if store is not None:
            store.close()
    return report.with_assumptions_first(problems)


def cmd_speedup(args: argparse.Namespace) -> int:
    """Build the speedup report and print it (JSON, or the figures with their arithmetic)."""
    from sessiontui.project_memory.speedup import lead_lines, speedup_answer_lines

    try:
        with input_path(args.log) if args.log else contextlib.nullcontext() as log:
            report = speedup_report(
                log=str(log) if log else None, metric=args.metric, acc=args.acc, acc_kind=args.acc_kind,
                simulated_acc_len=args.simulated_acc_len, draft_overhead=args.draft_overhead,
                baseline_value=args.baseline_value, calibrate_accept=args.calibrate_accept,
                calibrate_value=args.calibrate_value, depth=args.depth,
            )
    except ValueError as exc:
        print(f"sessiontui speedup: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print_json(report.to_dict())
        return 0
    lead = lead_lines(report)
    print("\n".join(lead + [line for line in speedup_answer_lines(report) if line not in lead]))
    for title, items in (("Assumptions", report.assumptions), ("Sources", report.sources)):
        if items:
            print(f"{title}:")
            print("\n".join(f"  - {item}" for item in items))
    return 0
