"""`sessiontui salvage [OUT.toml]`: recover every readable record of a damaged memory file."""

from __future__ import annotations

import argparse
import contextlib
import sys
from pathlib import Path

from sessiontui.tui.commands.common import add_command, add_json_options, input_path


def cmd_salvage(args: argparse.Namespace) -> int:
    """Write what can be read as an export (stdout without OUT) and say how much was lost."""
    from sessiontui.project_memory.exchange import records_toml
    from sessiontui.project_memory.paths import database_path
    from sessiontui.project_memory.salvage import salvage
    from sessiontui.project_memory.store import StoreError
    from sessiontui.tui.commands.memory import write_export

    with input_path(args.db) if args.db else contextlib.nullcontext(database_path()) as source:
        if not source.is_file():
            raise StoreError(f"{source}: no memory file to salvage")
        result = salvage(source)
    source = Path("standard input") if args.db == "-" else source
    args.path = args.out
    write_export(records_toml(result.records), result.records, args, say=False, lost=result.lost, source=str(source))
    if not args.json:
        to_stdout = args.out in (None, "-")
        lost = f"{result.lost} could not be read (lost)" if result.lost else "none was lost"
        print(  # beside the TOML on stdout, the summary goes to stderr (as a note, not an error)
            f"salvaged {len(result.records)} records from {source}; {lost}. Next: "
            f"{'' if args.db == '-' else f'move {source.name} aside, then '}`sessiontui import` "
            "the salvaged file.",
            file=sys.stderr if to_stdout else sys.stdout,
        )
    return 0 if not result.lost else 3


def register(sub: argparse._SubParsersAction) -> None:
    """Add `salvage` to the command line."""
    p = add_command(
        sub, "salvage", "recover every readable record of a damaged memory into a TOML export",
        "sessiontui salvage rescued.toml && sessiontui import rescued.toml",
        "sessiontui salvage --db /backup/memory.db - > rescued.toml",
        "sessiontui salvage rescued.toml --json",
        description="Read the memory file (never writing it) and write every record that can still "
        "be read as a TOML export; says how many records were lost. Exit 3 when some were.",
    )
    p.add_argument("out", nargs="?", metavar="OUT.toml", help="where to write (stdout without it, or -)")
    p.add_argument("--db", metavar="FILE", help="the memory file (default: this project's; - for stdin)")
    add_json_options(p)
    p.set_defaults(func=cmd_salvage)
