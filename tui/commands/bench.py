"""`sessiontui bench add`: a result typed by hand, in its own module so recording one registers
one command, not every memory command (their parsers were ~10% of a `bench add`)."""

from __future__ import annotations

import argparse

from sessiontui.project_memory.records import Record, flagged
from sessiontui.tui.commands.common import add_command, add_json_options, positive_int
from sessiontui.tui.commands.memory import add_field_flags, store_and_print


def cmd_bench_add(args: argparse.Namespace) -> int:
    values = {spec.name: getattr(args, spec.name) for spec in flagged("benchmark")}
    values = {k: v for k, v in values.items() if v is not None}
    record = Record(kind="benchmark", baseline=args.baseline, tags=args.tag, status="ok", **values)
    if args.gpu_model:  # what it ran on, when not this host's GPUs
        record.gpus = [args.gpu_model] * (args.gpu_count or 1)
    return store_and_print(record, args)


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `bench` command."""
    bench = add_command(sub, "bench", "benchmark results", "sessiontui bench add --config 'sglang c=1' "
                        "--value 51.2 --baseline").add_subparsers(dest="action", required=True)
    p = add_command(bench, "add", "record a measured result",
                    "sessiontui bench add --config 'sglang eagle3 c=1' --value 88.4 --accept-length 3.1",
                    "sessiontui bench add --config 'sglang c=1' --value 51.2 --baseline --tag h200 --json")
    add_field_flags(p, flagged("benchmark"), required_for="benchmark")
    p.add_argument("--baseline", action="store_true", help="a reference without the feature under test")
    p.add_argument("--gpu-model", help="the GPU it ran on (default: this host's, from NVML)")
    p.add_argument("--gpu-count", type=positive_int, help="how many of --gpu-model it used")
    p.add_argument("--tag", action="append", default=[], help="a tag for the record (repeatable)")
    add_json_options(p)
    p.set_defaults(func=cmd_bench_add)
