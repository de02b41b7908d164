"""Memory commands: lesson and note add, list, show, edit, remove, restore, export and import."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from sessiontui.project_memory.exchange import EXPORT_NAME
from sessiontui.project_memory.records import (
    FIELDS,
    KINDS,
    FieldSpec,
    Record,
    flagged,
    typed_fields,
)
from sessiontui.tui.commands.common import (
    add_command,
    add_json_options,
    add_stamped,
    did_you_mean,
    input_path,
    open_reader,
    open_store,
    positive_int,
    print_json,
    print_record,
    print_records,
    record_line,
)

if TYPE_CHECKING:
    from collections.abc import Callable


def _as_flag(spec: FieldSpec) -> Callable[[str], object]:
    """An argparse type parsing a flag's text as the table's parser does, its word kept."""

    def parse(text: str) -> object:
        try:
            return spec.parse(text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    return parse


def add_field_flags(parser: argparse.ArgumentParser, specs: list[FieldSpec], *,
                    required_for: str | None = None) -> None:
    """One flag per field; required where the kind needs the field and has no default for it."""
    fresh = Record(kind=required_for) if required_for else None
    for spec in specs:
        assert spec.rule.flag is not None
        needed = fresh is not None and spec.required_for(fresh.kind) and (
            getattr(fresh, spec.name) in (None, ""))
        parser.add_argument(spec.rule.flag, dest=spec.name, type=_as_flag(spec), default=None,
                            required=needed, help=spec.rule.help or None)


def store_and_print(record: Record, args: argparse.Namespace) -> int:
    """Stamp and store a record typed on the command line, and say so (or print it as JSON)."""
    add_stamped(record)
    if args.json:
        print_records([record], args)
    else:
        print(f"added {record.kind} {record.id}: {record.label}")
    return 0


def cmd_lesson_add(args: argparse.Namespace) -> int:
    if args.from_run:
        from sessiontui.project_memory.run_answers import lesson_draft_from_run

        with open_store() as store:
            record = lesson_draft_from_run(store, args.from_run)
    else:
        missing = [f for f in ("title", "symptom", "cause", "fix") if not getattr(args, f)]
        if missing:
            print(f"sessiontui: lesson add needs --{' --'.join(missing)}", file=sys.stderr)
            return 2
        record = Record(kind="lesson")
    for spec in flagged("lesson"):
        if getattr(args, spec.name) is not None:
            setattr(record, spec.name, getattr(args, spec.name))
    record.tags = record.tags + args.tag
    return store_and_print(record, args)


def cmd_note_add(args: argparse.Namespace) -> int:
    return store_and_print(Record(kind="note", text=" ".join(args.text), tags=args.tag), args)


def list_records(
    kind: str | None = None, *, tag: str | None = None, query: str | None = None,
    deleted: bool = False, limit: int | None = None,
) -> list[Record]:
    """Records newest first (or by relevance to `query`), of a kind and carrying a tag when given."""
    store = open_reader()
    if store is None:
        return []
    with store:
        if query:
            records = store.search(query, kind=kind, limit=limit or 20)
        else:
            records = store.list(kind, deleted=deleted, limit=None if tag else limit)
    if tag:
        records = [r for r in records if tag in r.tags]
    return records[:limit] if limit else records


def cmd_list(args: argparse.Namespace) -> int:
    records = list_records(args.kind, tag=args.tag, deleted=args.trash, limit=args.limit)
    if args.json:
        print_records(records, args)
    elif not records:
        print("no records" + (" in the trash" if args.trash else "") + (f" tagged {args.tag}" if args.tag else ""))
    else:
        for record in records:
            print(record_line(record))
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    from sessiontui.project_memory.store import StoreError

    store = open_reader()
    if store is None:
        raise StoreError(f"no record with id {args.id}")
    with store:
        record = store.get(args.id, include_deleted=True)
    if args.json:
        print_records([record], args)
    else:
        print_record(record)
    return 0


def _coerce(name: str, text: str) -> object:
    """Parse `text` into the type of the record field `name` (for `edit --set`)."""
    spec = FIELDS.get(name)
    if spec is None:
        raise ValueError(f"no field {name!r}{did_you_mean(name, typed_fields())}")
    if not spec.rule.by_hand:
        raise ValueError(f"cannot set field {name!r}")
    try:
        return spec.parse(text)
    except ValueError as exc:
        raise ValueError(f"{name}: {exc}") from None


def cmd_edit(args: argparse.Namespace) -> int:
    changes = {spec.name: getattr(args, spec.name) for spec in flagged("benchmark") + flagged("lesson")}
    changes = {k: v for k, v in changes.items() if v is not None}
    if args.text is not None:
        changes["text"] = args.text
    if args.baseline is not None:
        changes["baseline"] = args.baseline
    for assignment in args.set:
        name, sep, text = assignment.partition("=")
        if not sep:
            print(f"sessiontui: --set takes FIELD=VALUE, not {assignment!r}", file=sys.stderr)
            return 2
        try:
            changes[name.strip()] = _coerce(name.strip(), text)
        except ValueError as exc:
            print(f"sessiontui: {exc}", file=sys.stderr)
            return 2
    if args.tag:
        changes["tags"] = args.tag
    if not changes:
        print("sessiontui: nothing to change (see `sessiontui edit --help`)", file=sys.stderr)
        return 2
    with open_store() as store:  # compare-and-set: a concurrent edit of other fields is kept
        record = store.edit(store.get(args.id).id, changes)
    if args.json:
        print_records([record], args)
    else:
        print(f"updated {record.id}: {', '.join(sorted(changes))}")
    return 0


def cmd_rm(args: argparse.Namespace) -> int:
    with open_store() as store:
        record = store.delete(args.id)
    if args.json:
        print_records([record], args)
        return 0
    print(f"moved {record.id} to the trash (undo: sessiontui restore {record.id})")
    return 0


def cmd_restore(args: argparse.Namespace) -> int:
    with open_store() as store:
        record = store.restore(args.id)
    if args.json:
        print_records([record], args)
        return 0
    print(f"restored {record.id}: {record.label}")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from sessiontui.project_memory.exchange import export_records, records_toml

    store = open_reader()
    records = []
    if store:
        with store:
            records = export_records(store)
    return write_export(records_toml(records), records, args)


def write_export(text: str, records: list[Record], args: argparse.Namespace, *, say: bool = True,
                 **extra: object) -> int:
    """An export's TOML to PATH (then a summary on stdout) or to stdout (`-` or no PATH; with
    --json the records themselves, as JSON, instead of TOML)."""
    from sessiontui.project_memory.exchange import export_target, write_atomic

    to_stdout = args.path in (None, "-")
    if to_stdout and args.json:
        print_records(records, args, exported=len(records), path="-", **extra)
    elif to_stdout:
        sys.stdout.write(text)
    else:
        path = export_target(Path(args.path))
        write_atomic(path, text)
        if args.json:
            print_json({"exported": len(records), "path": str(path), **extra})
        elif say:
            print(f"exported {len(records)} records to {path}")
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    from sessiontui.project_memory.exchange import import_toml

    with open_store() as store, input_path(args.path) as path:
        added, updated = import_toml(store, path, "standard input" if args.path == "-" else "")
    if args.json:
        print_json({"path": args.path, "added": added, "updated": updated})
    else:
        print(f"imported {args.path}: {added} added, {updated} updated")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    """Add the memory commands to the CLI."""
    lesson = add_command(sub, "lesson", "failures and their fixes",
                         "sessiontui lesson add --title 'smem' --symptom OutOfResources --cause 'BLOCK "
                         "too big' --fix num_stages=2").add_subparsers(dest="action", required=True)
    p = add_command(lesson, "add", "record a failure: symptom, cause, fix",
                    "sessiontui lesson add --title 'Triton smem' --symptom OutOfResources "
                    "--cause 'BLOCK too big' --fix num_stages=2",
                    "sessiontui lesson add --from-run r-1a2b --fix 'lower the lr'")
    add_field_flags(p, flagged("lesson"))
    p.add_argument("--from-run", metavar="RUN_ID", help="pre-fill from the run's latest failure")
    p.add_argument("--tag", action="append", default=[], help="a tag for the record (repeatable)")
    add_json_options(p)
    p.set_defaults(func=cmd_lesson_add)

    note = add_command(sub, "note", "free-form notes", "sessiontui note add packing was off").add_subparsers(
        dest="action", required=True)
    p = add_command(note, "add", "record a note", "sessiontui note add packing was off --tag data")
    p.add_argument("text", nargs="+", help="the note's text (the words are joined by spaces)")
    p.add_argument("--tag", action="append", default=[], help="a tag for the record (repeatable)")
    add_json_options(p)
    p.set_defaults(func=cmd_note_add)

    p = add_command(sub, "list", "list records, newest first", "sessiontui list",
                    "sessiontui list --kind benchmark --limit 5 --json", "sessiontui list --trash")
    p.add_argument("--kind", choices=KINDS, help=f"only this kind ({', '.join(KINDS)})")
    p.add_argument("--tag", help="only records carrying this tag (e.g. via:mcp)")
    p.add_argument("--trash", action="store_true", help="list deleted records instead")
    p.add_argument("--limit", type=positive_int, help="at most this many records")
    add_json_options(p)
    p.set_defaults(func=cmd_list)

    p = add_command(sub, "show", "show one record (id or unique prefix)", "sessiontui show b-12ab",
                    "sessiontui show b-12ab --json --full")
    p.add_argument("id", help="the record's id or a unique prefix of it")
    add_json_options(p)
    p.set_defaults(func=cmd_show)

    p = add_command(sub, "edit", "change fields of a record", "sessiontui edit b-12ab --value 51.0",
                    "sessiontui edit l-9f --set tags=triton,smem", "sessiontui edit b-12ab --no-baseline")
    p.add_argument("id", help="the record's id or a unique prefix of it")
    add_field_flags(p, flagged("benchmark") + flagged("lesson"))
    p.add_argument("--text", help="a note's text")
    p.add_argument("--baseline", action=argparse.BooleanOptionalAction, default=None,
                   help="mark (or unmark) a benchmark as a baseline")
    p.add_argument("--tag", action="append", default=[], help="replaces the tags (repeatable)")
    p.add_argument("--set", action="append", default=[], metavar="FIELD=VALUE",
                   help="set any field by name (repeatable; an empty VALUE clears it)")
    add_json_options(p)
    p.set_defaults(func=cmd_edit)

    p = add_command(sub, "rm", "move a record to the trash (recoverable)", "sessiontui rm b-12ab",
                    "sessiontui rm b-12ab --json")
    p.add_argument("id", help="the record's id or a unique prefix of it")
    add_json_options(p)
    p.set_defaults(func=cmd_rm)

    p = add_command(sub, "restore", "bring a record back from the trash", "sessiontui restore b-12ab")
    p.add_argument("id", help="the record's id or a unique prefix of it")
    add_json_options(p)
    p.set_defaults(func=cmd_restore)

    p = add_command(sub, "export", "write all records as TOML (stdout without PATH or with -)",
                    "sessiontui export > memory.toml", f"sessiontui export backups/  # writes {EXPORT_NAME}",
                    "sessiontui export - --json | jq '.records[].id'")
    p.add_argument("path", nargs="?", help=f"a file, a folder to write {EXPORT_NAME} in, or - for stdout")
    add_json_options(p)
    p.set_defaults(func=cmd_export)

    p = add_command(sub, "import", "merge a TOML export by id (idempotent)", "sessiontui import memory.toml",
                    "ssh gpu2 sessiontui export | sessiontui import -")
    p.add_argument("path", help="the export file, or - for stdin")
    add_json_options(p, records=False)
    p.set_defaults(func=cmd_import)

