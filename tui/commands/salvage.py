"""`sessiontui salvage [OUT.toml]`: recover every readable record of a damaged memory file."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def cmd_salvage(args: argparse.Namespace) -> int:
    """Write what can be read as an export (stdout without OUT) and say how much was lost."""
    from sessiontui.project_memory.exchange import export_target, records_toml, write_atomic
    from sessiontui.project_memory.paths import database_path
    from sessiontui.project_memory.salvage import salvage
    from sessiontui.project_memory.store import StoreError

    source = Path(args.db) if args.db else database_path()
    if not source.is_file():
        raise StoreError(f"{source}: no memory file to salvage")
    result = salvage(source)
    text = records_toml(result.records)
    where = "standard output"
    if args.out:
        out = export_target(Path(args.out))
        write_atomic(out, text)
        where = str(out)
    else:
        sys.stdout.write(text)
    lost = f"{result.lost} could not be read (lost)" if result.lost else "none was lost"
    print(
        f"sessiontui: salvaged {len(result.records)} records from {source} to {where}; {lost}. "
        f"Next: move {source.name} aside, then `sessiontui import` the salvaged file.",
        file=sys.stderr,
    )
    return 0 if not result.lost else 3


def register(sub: argparse._SubParsersAction) -> None:
    """Add `salvage` to the command line."""
    p = sub.add_parser(
        "salvage",
        help="recover every readable record of a damaged memory into a TOML export",
        description="Read the memory file (never writing it) and write every record that can still "
        "be read as a TOML export; says how many records were lost. Exit 3 when some were.",
    )
    p.add_argument("out", nargs="?", metavar="OUT.toml", help="where to write (stdout without it)")
    p.add_argument("--db", metavar="FILE", help="the memory file (default: this project's)")
    p.set_defaults(func=cmd_salvage)
