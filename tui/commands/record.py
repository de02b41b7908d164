"""The `record` command: run a benchmark (or read its saved output) and remember its results.

The recording itself (parse, name, failed attempts, baseline flag, checks, stamp) lives in
`collectors/recording.py`; this module handles the arguments and prints the outcome."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from sessiontui.tui.commands.common import with_examples

if TYPE_CHECKING:
    from sessiontui.collectors.recording import RecordOutcome

EXIT_NOT_STORED = 2  # no result found, none printed its headline whole, or implausible values


def _report(outcome: RecordOutcome, as_json: bool, exit_code: int) -> int:
    """Print what was stored (JSON for scripts, or one line per record), or why nothing was."""
    from sessiontui.tui.commands.common import print_json, record_json, record_line

    if not outcome.stored:
        print(f"sessiontui record: {outcome.problem}", file=sys.stderr)
        return EXIT_NOT_STORED
    if outcome.warning:
        print(f"sessiontui record: stored partly: {outcome.warning}", file=sys.stderr)
    if as_json:
        print_json({"records": [record_json(record) for record in outcome.records]})
        return exit_code
    print(f"sessiontui: stored {len(outcome.records)} record(s); output saved at {outcome.output_path}")
    for record in outcome.records:
        print(record_line(record))
    return exit_code


def _record_run(command: list[str], args: argparse.Namespace) -> int:
    """Run the command live, save its output, store its results (or its failure)."""
    from sessiontui.collectors.recording import record_command
    from sessiontui.tui.commands.common import open_store

    sink = sys.stderr.buffer if args.json else sys.stdout.buffer
    sys.stdout.flush()
    with open_store() as store:
        outcome = record_command(
            store, command, sink, config=args.config, baseline=args.baseline, tags=args.tag
        )
    code = _report(outcome, args.json, outcome.exit_code)
    return outcome.exit_code or code


def _record_saved(source: str, args: argparse.Namespace) -> int:
    """Parse output saved earlier (a file, or `-` for stdin) and store its results."""
    from sessiontui.collectors.recording import record_text
    from sessiontui.project_memory.exchange import read_bounded
    from sessiontui.tui.commands.common import open_store

    if source == "-":
        data = read_bounded(sys.stdin.buffer, "standard input")
    else:
        try:
            with open(source, "rb") as stream:
                data = read_bounded(stream, source)
        except OSError as exc:
            print(f"sessiontui record: cannot read {source}: {exc.strerror}", file=sys.stderr)
            return 1
    with open_store() as store:
        outcome = record_text(
            store, data, source=None if source == "-" else Path(source),
            pasted_from="standard input", config=args.config, baseline=args.baseline, tags=args.tag,
        )
    return _report(outcome, args.json, 0)


def cmd_record(args: argparse.Namespace) -> int:
    """Record benchmark results from a command run now or from saved output."""
    from sessiontui.tui.commands.formats import use_project_formats

    command = args.cmd[1:] if args.cmd[:1] == ["--"] else args.cmd
    if bool(command) == bool(args.source):
        print("sessiontui record: give either -- CMD ARGS... or --from FILE|-", file=sys.stderr)
        return 2
    for problem in use_project_formats():  # a declared `{value}` format reads before the built-ins
        print(f"sessiontui record: {problem}", file=sys.stderr)
    if args.sweep:
        if args.source:
            print("sessiontui record: --sweep runs a command: give -- CMD ARGS...", file=sys.stderr)
            return 2
        from sessiontui.tui.commands.sweep import record_sweep

        return record_sweep(command, args)
    return _record_saved(args.source, args) if args.source else _record_run(command, args)


def register(sub: argparse._SubParsersAction) -> None:
    """Add `record` to the command line."""
    p = sub.add_parser(
        "record",
        usage="sessiontui record [--config NAME] [--baseline] [--tag T ...] [--json] "
        "(-- CMD ARGS... | --from FILE|-)",
        help="run a benchmark and store its results (or read saved output with --from)",
        description="Run CMD, stream its output live and save it under .sessiontui/outputs/, then "
        "store one benchmark record per result found in it (SGLang, vLLM, llama.cpp formats, labelled "
        "lines of other tools, and a [[formats]] pattern with {value} in sessiontui.toml, tried first). "
        "A failing command is stored as a failed attempt. Results with implausible values (not "
        "finite, throughput <= 0, accept length < 1, concurrency < 1) are not stored: exit 2.",
        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=with_examples(
            "sessiontui record --config 'sglang c=1' --baseline -- python -m sglang.bench_serving ...",
            "sessiontui record --from bench.txt --json", "vllm bench serve ... | sessiontui record --from -"),
    )
    p.add_argument("--config", metavar="NAME", help="configuration name (default: derived)")
    p.add_argument("--baseline", action="store_true", help="mark the results as the baseline")
    p.add_argument("--tag", action="append", default=[], metavar="T", help="add a tag (repeatable)")
    p.add_argument("--json", action="store_true", help='print {"records": [...]} on stdout')
    p.add_argument("--from", dest="source", metavar="FILE|-", help="parse saved output (- = stdin)")
    p.add_argument("--sweep", metavar="concurrency=1,2,4", help="run CMD once per concurrency, "
                   "put into its --max-concurrency/--concurrency flag or a {concurrency} "
                   "placeholder, and record the results as one sweep")
    p.add_argument("cmd", nargs=argparse.REMAINDER, metavar="-- CMD ARGS", help="command to run")
    p.set_defaults(func=cmd_record)
