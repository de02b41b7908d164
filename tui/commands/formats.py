"""`sessiontui formats test FILE`: line by line, what the built-in readers and each `[[formats]]`
declaration read from a log; the tool a user reaches for when a field is blank."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sessiontui.collectors.trainlog.readings import Reading

MAX_SHOWN = 120  # characters of a log line shown before its figures


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `formats` command and its `test` subcommand."""
    from sessiontui.tui.commands.common import add_command, add_json_options

    parser = add_command(sub, "formats", "log line formats: test what is read from a file",
                         "sessiontui formats test train.log")
    actions = parser.add_subparsers(dest="formats_command", metavar="ACTION", required=True)
    test = add_command(actions, "test", "show, line by line, what each reader reads from FILE",
                       "sessiontui formats test train.log", "sessiontui formats test train.log --all",
                       "sessiontui formats test train.log --json")
    test.add_argument("file", metavar="FILE", help="a training log")
    test.add_argument("--all", action="store_true", help="also list lines nothing reads")
    add_json_options(test, records=False)
    test.set_defaults(func=cmd_formats_test)


def use_project_formats() -> list[str]:
    """Load the project's `[[formats]]` (so every log reader tries them first); their problems."""
    from sessiontui.project_memory.paths import project_root
    from sessiontui.tui.config import config_path, load_config

    config = load_config(config_path(project_root(Path.cwd())))
    return [problem for problem in config.problems if "[[formats]]" in problem]


def cmd_formats_test(args: argparse.Namespace) -> int:
    """Print each line that something reads, with what each reader made of it, then the total."""
    from sessiontui.collectors.trainlog import read_log
    from sessiontui.collectors.trainlog.declared import active_formats
    from sessiontui.collectors.trainlog.reader import LineReader

    for problem in use_project_formats():
        print(f"sessiontui: {problem}", file=sys.stderr)
    try:
        text = Path(args.file).read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        print(f"sessiontui: cannot read {args.file!r} ({exc.strerror or exc})", file=sys.stderr)
        return 1
    declared = active_formats()
    built_in = LineReader(formats=[])
    unread, lines = 0, []
    for number, raw in enumerate(text.replace("\r", "\n").split("\n"), start=1):
        found = [(f"declared {d.name}", r) for d in declared
                 for r in LineReader(formats=[d]).read(raw) if r.format.startswith("declared")]
        found += [(reading.format, reading) for reading in built_in.read(raw)]
        if not found:
            unread += bool(raw.strip())
            if args.all and raw.strip() and not args.json:
                print(f"{number:>6} | {raw[:MAX_SHOWN]}\n         (nothing read)")
            continue
        lines.append({"line": number, "text": raw[:MAX_SHOWN],
                      "read": [{"reader": reader, "figures": describe(reading)}
                               for reader, reading in found]})
        if not args.json:
            print(f"{number:>6} | {raw[:MAX_SHOWN]}")
            for reader, reading in found:
                print(f"         {reader}: {describe(reading)}")
    snap = read_log(args.file)
    if args.json:
        from sessiontui.tui.commands.common import print_json

        print_json({"lines": lines, "unread_lines": unread,
                    "declared": [d.name for d in declared], "snapshot": snap.to_dict()})
        return 0
    print(f"\n{unread} line(s) with text gave nothing" + ("" if args.all else " (--all lists them)"))
    print(f"read as a whole: {snap.format or 'unknown format'} · step {snap.step}"
          + (f"/{snap.total_steps}" if snap.total_steps else "")
          + "".join(f" · {name} {value:.6g}" for name, value in
                    (("loss", snap.loss), ("lr", snap.lr), ("epoch", snap.epoch))
                    if value is not None))
    if not declared:
        print("no [[formats]] declared in sessiontui.toml (see docs/formats.md)")
    return 0


def describe(reading: Reading) -> str:
    """`step=250 total=1000 loss=2.5 lr=0.0001`: the figures of one reading, positions first."""
    parts = [f"{name}={value}" for name, value in
             (("step", reading.step), ("total", reading.total), ("epoch", reading.epoch))
             if value is not None]
    parts += [f"{name}={value:.6g}" for name, value in reading.metrics.items()]
    if reading.done:
        parts.append("(says training is over)")
    return " ".join(parts) or "(nothing)"
