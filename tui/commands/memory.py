"""Memory commands: add, list, show, edit, remove, restore, export, import and ask."""

from __future__ import annotations

import argparse
import contextlib
import sys
from dataclasses import fields
from pathlib import Path
from typing import TYPE_CHECKING

from sessiontui.project_memory.exchange import EXPORT_NAME
from sessiontui.project_memory.records import KINDS, Record
from sessiontui.tui.commands.common import (
    add_stamped,
    finite_float,
    open_reader,
    open_store,
    positive_int,
    print_json,
    print_record,
    record_line,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from sessiontui.project_memory.answer import Answer
    from sessiontui.project_memory.live import GpuReadings, LiveRun

# Benchmark flags: (flag, record field, argparse type). Shared by `bench add` and `edit`.
_BENCH_FLAGS = (
    ("--config", "config", str),
    ("--value", "value", finite_float),
    ("--metric", "metric", str),
    ("--unit", "unit", str),
    ("--accept-length", "accept_length", finite_float),
    ("--draft-tokens", "num_draft_tokens", positive_int),
    ("--num-steps", "num_steps", positive_int),
    ("--topk", "topk", positive_int),
    ("--concurrency", "concurrency", positive_int),
    ("--batch-size", "batch_size", positive_int),
    ("--input-len", "input_len", positive_int),
    ("--output-len", "output_len", positive_int),
    ("--dataset", "dataset", str),
    ("--spec-algorithm", "spec_algorithm", str),
    ("--draft-model", "draft_model", str),
    ("--engine", "engine", str),
    ("--engine-version", "engine_version", str),
    ("--driver", "driver_version", str),
    ("--cuda", "cuda_version", str),
    ("--model", "model", str),
    ("--command", "command", str),
    ("--notes", "notes", str),
)
_LESSON_FLAGS = (
    ("--title", "title", str),
    ("--symptom", "symptom", str),
    ("--cause", "cause", str),
    ("--fix", "fix", str),
    ("--signature", "signature", str),
)
_ASK_STATE = "ask_state.json"
_FIELD_TYPES = {f.name: str(f.type) for f in fields(Record)}


def _add_field_flags(parser: argparse.ArgumentParser, flags: tuple, *, required: set[str] = frozenset()) -> None:
    for flag, dest, kind in flags:
        parser.add_argument(flag, dest=dest, type=kind, required=dest in required, default=None)


def _store_and_print(record: Record, as_json: bool) -> int:
    add_stamped(record)
    if as_json:
        print_json(record.to_dict())
    else:
        print(f"added {record.kind} {record.id}: {record.label}")
    return 0


def cmd_bench_add(args: argparse.Namespace) -> int:
    values = {dest: getattr(args, dest) for _, dest, _ in _BENCH_FLAGS}
    values = {k: v for k, v in values.items() if v is not None}
    record = Record(kind="benchmark", baseline=args.baseline, tags=args.tag, status="ok", **values)
    if args.gpu_model:  # what it ran on, when not this host's GPUs
        record.gpus = [args.gpu_model] * (args.gpu_count or 1)
    return _store_and_print(record, args.json)


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
    for _, dest, _ in _LESSON_FLAGS:
        if getattr(args, dest) is not None:
            setattr(record, dest, getattr(args, dest))
    record.tags = record.tags + args.tag
    return _store_and_print(record, args.json)


def cmd_note_add(args: argparse.Namespace) -> int:
    return _store_and_print(Record(kind="note", text=" ".join(args.text), tags=args.tag), args.json)


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
        print_json([r.to_dict() for r in records])
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
        print_json(record.to_dict())
    else:
        print_record(record)
    return 0


_STORE_KEPT = ("id", "kind", "created_at", "updated_at", "deleted_at", "revision")  # not edited


def _coerce(name: str, text: str) -> object:
    """Parse `text` into the type of the record field `name` (for `edit --set`)."""
    kind = _FIELD_TYPES.get(name)
    if kind is None or name in _STORE_KEPT:
        raise ValueError(f"cannot set field {name!r}")
    if text == "" and "None" in kind:
        return None
    if kind.startswith("bool"):
        if text.lower() not in ("true", "false", "1", "0", "yes", "no"):
            raise ValueError(f"{name} takes true or false, not {text!r}")
        return text.lower() in ("true", "1", "yes")
    if kind.startswith("int"):
        return positive_int(text)
    if kind.startswith("float"):
        return finite_float(text)
    if kind.startswith("list[str]"):
        return [t.strip() for t in text.split(",") if t.strip()]
    if kind.startswith("list") or kind.startswith("dict"):
        raise ValueError(f"field {name!r} cannot be set from the command line")
    return text


def cmd_edit(args: argparse.Namespace) -> int:
    changes = {dest: getattr(args, dest) for _, dest, _ in _BENCH_FLAGS + _LESSON_FLAGS}
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
        except (ValueError, argparse.ArgumentTypeError) as exc:
            print(f"sessiontui: {exc}", file=sys.stderr)
            return 2
    if args.tag:
        changes["tags"] = args.tag
    if not changes:
        print("sessiontui: nothing to change (see `sessiontui edit --help`)", file=sys.stderr)
        return 2
    with open_store() as store:
        record = store.get(args.id)
        for name, value in changes.items():
            setattr(record, name, value)
        store.update(record)
    if args.json:
        print_json(record.to_dict())
    else:
        print(f"updated {record.id}: {', '.join(sorted(changes))}")
    return 0


def cmd_rm(args: argparse.Namespace) -> int:
    with open_store() as store:
        record = store.delete(args.id)
    print(f"moved {record.id} to the trash (undo: sessiontui restore {record.id})")
    return 0


def cmd_restore(args: argparse.Namespace) -> int:
    with open_store() as store:
        record = store.restore(args.id)
    print(f"restored {record.id}: {record.label}")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from sessiontui.project_memory.exchange import (
        export_records,
        export_target,
        records_toml,
        write_atomic,
    )

    store = open_reader()
    records = []
    if store:
        with store:
            records = export_records(store)
    text = records_toml(records)
    if args.path:
        path = export_target(Path(args.path))
        write_atomic(path, text)
        print(f"exported {len(records)} records to {path}")
    else:
        sys.stdout.write(text)
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    from sessiontui.project_memory.exchange import import_toml

    with open_store() as store:
        added, updated = import_toml(store, Path(args.path))
    print(f"imported {args.path}: {added} added, {updated} updated")
    return 0


def _previous_answer() -> dict | None:
    """Live figures of the last speedup answer, kept beside the database for the trend line."""
    import json

    from sessiontui.project_memory.paths import memory_dir

    try:
        return json.loads((memory_dir() / _ASK_STATE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _remember_answer(figures: dict) -> None:
    import json

    from sessiontui.project_memory.paths import memory_dir
    from sessiontui.project_memory.records import now_iso

    state = {"accept_length": figures["accept_length"], "step": figures.get("step"), "at": now_iso()}
    with contextlib.suppress(OSError):  # the trend line is a nicety; never fail an answer for it
        (memory_dir() / _ASK_STATE).write_text(json.dumps(state), encoding="utf-8")


def _gpu_readings() -> GpuReadings:
    """One GPU sample, for an answer about the GPUs (NVML loads only then)."""
    from sessiontui.collectors.gpu import GpuCollector

    collector = GpuCollector()
    try:
        return collector.sample()
    finally:
        collector.close()


def _followed_run(log: str | None) -> Callable[[], list[LiveRun]] | None:
    """A reader of the first followed log's snapshot (read only for run and speedup answers)."""
    if log is None:
        return None

    def read() -> list[LiveRun]:
        from sessiontui.tui.commands.speedup import read_snapshot

        snapshot, problems = read_snapshot(log)
        for problem in problems:
            print(f"sessiontui: {problem}", file=sys.stderr)
        return [snapshot] if snapshot is not None else []

    return read


def answer_question(question: str) -> tuple[Answer, list[str]]:
    """Answer from the project's memory and its followed log (`ask` and the mcp tool give the
    same answer), keeping a speedup answer's live figures for the next one's trend line; also
    the problems, if any, of reading sessiontui.toml."""
    from sessiontui.project_memory.ask import ask
    from sessiontui.tui.commands.speedup import settings
    from sessiontui.tui.config import trust_rules

    log, config = settings()
    store = open_reader()
    previous = _previous_answer() if store else None  # a speedup answer's trend line reads it
    try:
        answer = ask(store, question, previous=previous, metric=config.default_metric,
                     draft_overhead=config.draft_overhead, read_gpu=_gpu_readings,
                     read_runs=_followed_run(log), rules=trust_rules(config))
    finally:
        if store:
            store.close()
    if answer.intent == "speedup" and answer.figures.get("accept_length") is not None:
        _remember_answer(answer.figures)
    return answer, config.problems


def cmd_ask(args: argparse.Namespace) -> int:
    answer, problems = answer_question(" ".join(args.question))
    for problem in problems:
        print(f"sessiontui: {problem}", file=sys.stderr)
    if args.json:
        print_json(answer.to_dict())
    else:
        print(answer.text)
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    """Add the memory commands to the CLI."""
    bench = sub.add_parser("bench", help="benchmark results").add_subparsers(dest="action", required=True)
    p = bench.add_parser("add", help="record a measured result")
    _add_field_flags(p, _BENCH_FLAGS, required={"config", "value"})
    p.add_argument("--baseline", action="store_true", help="a reference without the feature under test")
    p.add_argument("--gpu-model", help="the GPU it ran on (default: this host's, from NVML)")
    p.add_argument("--gpu-count", type=positive_int, help="how many of --gpu-model it used")
    p.add_argument("--tag", action="append", default=[], help="repeatable")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_bench_add)

    lesson = sub.add_parser("lesson", help="failures and their fixes").add_subparsers(dest="action", required=True)
    p = lesson.add_parser("add", help="record a failure: symptom, cause, fix")
    _add_field_flags(p, _LESSON_FLAGS)
    p.add_argument("--from-run", metavar="RUN_ID", help="pre-fill from the run's latest failure")
    p.add_argument("--tag", action="append", default=[])
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_lesson_add)

    note = sub.add_parser("note", help="free-form notes").add_subparsers(dest="action", required=True)
    p = note.add_parser("add", help="record a note")
    p.add_argument("text", nargs="+")
    p.add_argument("--tag", action="append", default=[])
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_note_add)

    p = sub.add_parser("list", help="list records, newest first")
    p.add_argument("--kind", choices=KINDS)
    p.add_argument("--tag", help="only records carrying this tag (e.g. via:mcp)")
    p.add_argument("--trash", action="store_true", help="list deleted records instead")
    p.add_argument("--limit", type=positive_int)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_list)

    p = sub.add_parser("show", help="show one record (id or unique prefix)")
    p.add_argument("id")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_show)

    p = sub.add_parser("edit", help="change fields of a record")
    p.add_argument("id")
    _add_field_flags(p, _BENCH_FLAGS + _LESSON_FLAGS)
    p.add_argument("--text", help="a note's text")
    p.add_argument("--baseline", action=argparse.BooleanOptionalAction, default=None)
    p.add_argument("--tag", action="append", default=[], help="replaces the tags")
    p.add_argument("--set", action="append", default=[], metavar="FIELD=VALUE", help="any field")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_edit)

    p = sub.add_parser("rm", help="move a record to the trash (recoverable)")
    p.add_argument("id")
    p.set_defaults(func=cmd_rm)

    p = sub.add_parser("restore", help="bring a record back from the trash")
    p.add_argument("id")
    p.set_defaults(func=cmd_restore)

    p = sub.add_parser("export", help="write all records as TOML (stdout without PATH)")
    p.add_argument("path", nargs="?", help=f"a file, or a folder to write {EXPORT_NAME} in")
    p.set_defaults(func=cmd_export)

    p = sub.add_parser("import", help="merge a TOML export by id (idempotent)")
    p.add_argument("path")
    p.set_defaults(func=cmd_import)

    p = sub.add_parser("ask", help="answer a question from the memory")
    p.add_argument("question", nargs="+")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_ask)
