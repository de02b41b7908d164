"""The `record` command: run a benchmark (or read its saved output) and remember its results."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sessiontui.collectors.bench_output.capture import Capture
    from sessiontui.project_memory.records import Record

EXIT_NOTHING_FOUND = 2


def _outputs_dir() -> Path:
    """Where captured outputs are kept: `<memory dir>/outputs/`."""
    from sessiontui.project_memory.paths import memory_dir

    return memory_dir() / "outputs"


def _output_path(command: list[str]) -> Path:
    """A fresh file name for one capture: UTC time, program name and a short random suffix."""
    import re
    import secrets
    import time

    program = re.sub(r"[^A-Za-z0-9_.-]+", "_", Path(command[0]).name if command else "stdin")
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    return _outputs_dir() / f"{stamp}-{program[:40]}-{secrets.token_hex(2)}.log"


def _finish(
    records: list[Record], args: argparse.Namespace, fallback_name: str, **common: object
) -> None:
    """Name, flag, tag and annotate parsed records, then stamp and store them."""
    from sessiontui.collectors.bench_output import derive_config_name
    from sessiontui.tui.commands.common import open_store, stamped

    for record in records:
        for name, value in common.items():
            setattr(record, name, value)
        record.config = args.config or derive_config_name(record) or fallback_name
        record.baseline = args.baseline
        record.tags = [*record.tags, *args.tag]
    stamped(*records)
    with open_store() as store:
        for record in records:
            store.add(record)


def _failed_attempt(parsed: list[Record]) -> Record:
    """The one record of a failed command: what it was running, with no value."""
    from dataclasses import replace

    from sessiontui.project_memory.records import Record

    if parsed:
        return replace(parsed[0], value=None, figures={}, status="failed")
    return Record(kind="benchmark", status="failed")


def _report(records: list[Record], as_json: bool, output_path: Path) -> None:
    """Print what was stored: JSON for scripts, or one line per record."""
    from sessiontui.tui.commands.common import print_json, record_line

    if as_json:
        print_json({"records": [record.to_dict() for record in records]})
        return
    print(f"sessiontui: stored {len(records)} record(s); output saved at {output_path}")
    for record in records:
        print(record_line(record))


def _nothing_found(where: str) -> int:
    """One line naming the known formats; nothing is stored."""
    from sessiontui.collectors.bench_output import KNOWN_FORMATS

    print(
        f"sessiontui record: no benchmark result found in {where} "
        f"(known formats: {', '.join(KNOWN_FORMATS)})",
        file=sys.stderr,
    )
    return EXIT_NOTHING_FOUND


def _record_run(command: list[str], args: argparse.Namespace) -> int:
    """Run the command live, save its output, store its results (or its failure)."""
    import shlex

    from sessiontui.collectors.bench_output import parse_benchmark_output
    from sessiontui.collectors.bench_output.capture import run_and_capture

    sink = sys.stderr.buffer if args.json else sys.stdout.buffer
    sys.stdout.flush()
    capture: Capture = run_and_capture(command, sink, _output_path(command))
    parsed = parse_benchmark_output(capture.output)
    failed = capture.exit_code != 0 and not (capture.interrupted and parsed)
    if not failed and not parsed:
        return _nothing_found(f"the output of {command[0]} (saved at {capture.path})")
    records = [_failed_attempt(parsed)] if failed else parsed
    interrupted = "interrupted with Ctrl-C; results are from the output captured until then"
    _finish(
        records,
        args,
        " ".join(command)[:60],
        command=shlex.join(command),
        exit_code=capture.exit_code,
        duration_s=round(capture.duration_s, 3),
        output_path=str(capture.path),
        notes=interrupted if capture.interrupted else "",
    )
    _report(records, args.json, capture.path)
    return capture.exit_code


def _record_saved(source: str, args: argparse.Namespace) -> int:
    """Parse output saved earlier (a file, or `-` for stdin) and store its results."""
    from sessiontui.collectors.bench_output import parse_benchmark_output

    if source == "-":
        data = sys.stdin.buffer.read()
    else:
        try:
            data = Path(source).read_bytes()
        except OSError as exc:
            print(f"sessiontui record: cannot read {source}: {exc.strerror}", file=sys.stderr)
            return 1
    records = parse_benchmark_output(data)
    if not records:
        return _nothing_found("standard input" if source == "-" else source)
    if source == "-":
        path = _output_path([])
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    else:
        path = Path(source).resolve()
    _finish(records, args, path.name, output_path=str(path))
    _report(records, args.json, path)
    return 0


def cmd_record(args: argparse.Namespace) -> int:
    """Record benchmark results from a command run now or from saved output."""
    command = args.cmd[1:] if args.cmd[:1] == ["--"] else args.cmd
    if bool(command) == bool(args.source):
        print("sessiontui record: give either -- CMD ARGS... or --from FILE|-", file=sys.stderr)
        return 2
    return _record_saved(args.source, args) if args.source else _record_run(command, args)


def register(sub: argparse._SubParsersAction) -> None:
    """Add `record` to the command line."""
    p = sub.add_parser(
        "record",
        usage="sessiontui record [--config NAME] [--baseline] [--tag T ...] [--json] "
        "(-- CMD ARGS... | --from FILE|-)",
        help="run a benchmark and store its results (or read saved output with --from)",
        description="Run CMD, stream its output live and save it under .sessiontui/outputs/, then "
        "store one benchmark record per result found in it (SGLang, vLLM, llama.cpp formats). "
        "A failing command is stored as a failed attempt.",
    )
    p.add_argument("--config", metavar="NAME", help="configuration name (default: derived)")
    p.add_argument("--baseline", action="store_true", help="mark the results as the baseline")
    p.add_argument("--tag", action="append", default=[], metavar="T", help="add a tag (repeatable)")
    p.add_argument("--json", action="store_true", help='print {"records": [...]} on stdout')
    p.add_argument("--from", dest="source", metavar="FILE|-", help="parse saved output (- = stdin)")
    p.add_argument("cmd", nargs=argparse.REMAINDER, metavar="-- CMD ARGS", help="command to run")
    p.set_defaults(func=cmd_record)
