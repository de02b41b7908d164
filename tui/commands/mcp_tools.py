"""The MCP tools and server of `sessiontui mcp` (the command is tui/commands/mcp.py): the project
memory as Model Context Protocol tools, for coding agents.

Each tool calls the code its CLI command runs and returns the JSON that command prints with
`--json` (docs/json.md), once, as text: compact records, lists under `records`. Writes are
stamped like any record and tagged `via:mcp` for review. Imported only by
`sessiontui mcp`: the MCP SDK is an optional extra and costs the other commands nothing.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Annotated, Any, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field, ValidationError

from sessiontui.collectors.bench_output import KNOWN_FORMATS
from sessiontui.project_memory.limits import MAX_DRAFT_DEPTH
from sessiontui.project_memory.records import Record
from sessiontui.project_memory.store import StoreError
from sessiontui.tui.commands.common import (
    add_stamped,
    did_you_mean,
    envelope,
    json_text,
    open_reader,
    open_store,
    record_json,
)

if TYPE_CHECKING:
    from sessiontui.tui.config import Config

VIA_MCP = "via:mcp"
INSTRUCTIONS = (
    "The durable memory of this ML project: baselines and benchmark results, lessons (failures "
    "with their fixes), notes and training runs. Ask it before re-measuring or re-debugging; "
    "record what you measure. Records you add are tagged via:mcp for a person to review."
)
_READS = ToolAnnotations(read_only_hint=True, open_world_hint=False)
_WRITES = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)

Kind = Literal["benchmark", "lesson", "note", "run"]
Tags = Annotated[list[str], Field(description="extra tags; via:mcp is always added")]
Number = Annotated[float, Field(allow_inf_nan=False)]


def _result(data: dict[str, Any]) -> CallToolResult:
    """A tool result: the object the CLI prints with --json, once (no second structured copy)."""
    return CallToolResult(content=[TextContent(type="text", text=json_text(envelope(data)))])


def _records(records: list[Record]) -> CallToolResult:
    return _result({"records": [record_json(record) for record in records]})


@contextlib.contextmanager
def _as_tool_error() -> Iterator[None]:
    """Turn the one-line errors the CLI prints into tool errors with the same sentence."""
    try:
        yield
    except (StoreError, ValueError, OSError) as exc:
        raise ToolError(str(exc)) from None


def _added(record: Record) -> CallToolResult:
    """Tag, stamp and store a record an agent wrote; returns it as `... add --json` prints it."""
    record.tags = [*dict.fromkeys([*record.tags, VIA_MCP])]
    with _as_tool_error():
        return _records([add_stamped(record)])


# -- reading tools ----------------------------------------------------------------------------
def ask(question: Annotated[str, Field(min_length=1, description="a plain-language question")]) -> CallToolResult:
    from sessiontui.tui.commands.ask import answer_json, answer_question

    with _as_tool_error():
        # read-only: the trend line's state file is read, never written
        answer, _ = answer_question(question, remember=not _server_read_only)
        return _result(answer_json(answer))


def list_records(
    kind: Annotated[Kind | None, Field(description="only this kind")] = None,
    query: Annotated[str | None, Field(description="full-text search, best match first")] = None,
    tag: Annotated[str | None, Field(description="only records carrying this tag")] = None,
    limit: Annotated[int | None, Field(ge=1, description="at most this many (default: all, as the "
                                         "CLI; a search gives 20)")] = None,
) -> CallToolResult:
    from sessiontui.tui.commands.memory import list_records as find

    with _as_tool_error():
        return _records(find(kind, tag=tag, query=query, limit=limit))


def show_record(id: Annotated[str, Field(min_length=1, description="record id or unique prefix")]) -> CallToolResult:
    store = open_reader()
    if store is None:
        raise ToolError(f"no record with id {id}: nothing is recorded in this project yet")
    with _as_tool_error(), store:
        return _records([store.get(id, include_deleted=True)])


def train_status(
    log: Annotated[str | None, Field(description="log file; default: the first followed log")] = None,
) -> CallToolResult:
    from sessiontui.tui.commands.speedup import settings
    from sessiontui.tui.commands.train import read_status, status_dict

    followed, config = settings()  # read once: the default log, the read-only check, the reader's
    log = log or followed  # the first log sessiontui.toml follows
    if not log:
        raise ToolError("no log given and sessiontui.toml follows none: pass log")
    if _server_read_only:
        _check_readable(log, config)
    with _as_tool_error():
        return _result(status_dict(*read_status(log, config)))


def speedup(
    acc: Annotated[list[Number] | None, Field(description="per-position acceptance rates, 0..1")] = None,
    acc_kind: Annotated[Literal["conditional", "full"], Field(
        description="conditional (SpecForge/EAGLE acc_i) or full (vLLM per-position)")] = "conditional",
    simulated_acc_len: Annotated[Number | None, Field(
        description="SpecForge simulated_acc_len (the bonus token is added)")] = None,
    draft_overhead: Annotated[Number | None, Field(description="draft time / target step time")] = None,
    baseline_value: Annotated[Number | None, Field(description="the number to beat (default: best stored baseline)")] = None,
    calibrate_accept: Annotated[Number | None, Field(description="accept length of a measured speculative run")] = None,
    calibrate_value: Annotated[Number | None, Field(description="the value that run measured")] = None,
    depth: Annotated[int | None, Field(ge=1, le=MAX_DRAFT_DEPTH, description="draft tokens per step to project at")] = None,
    log: Annotated[str | None, Field(description="training log to read acceptance from")] = None,
    metric: Annotated[str | None, Field(description="benchmark metric (default: the project's)")] = None,
) -> CallToolResult:
    from sessiontui.tui.commands.speedup import settings, speedup_report

    if log and _server_read_only:
        _check_readable(log, settings()[1])
    with _as_tool_error():
        report = speedup_report(
            log=log, metric=metric, acc=acc, acc_kind=acc_kind, simulated_acc_len=simulated_acc_len,
            draft_overhead=draft_overhead, baseline_value=baseline_value,
            calibrate_accept=calibrate_accept, calibrate_value=calibrate_value, depth=depth,
        )
    return _result(report.to_dict())


# -- writing tools ----------------------------------------------------------------------------
def add_benchmark(
    config: Annotated[str, Field(min_length=1, description="what was measured, e.g. 'sglang eagle3 c=1'")],
    value: Annotated[Number, Field(description="the measured figure")],
    metric: Annotated[str | None, Field(description="default output_tok_s")] = None,
    unit: Annotated[str | None, Field(description="default tok/s for output_tok_s")] = None,
    baseline: Annotated[bool, Field(description="a reference without the feature under test")] = False,
    concurrency: Annotated[int | None, Field(ge=1, description="concurrent requests (1 = single stream)")] = None,
    accept_length: Annotated[Number | None, Field(ge=1, description="tokens per verify step, bonus included")] = None,
    draft_tokens: Annotated[int | None, Field(ge=1, description="tokens verified per step")] = None,
    notes: Annotated[str, Field(description="anything a reader needs to trust the number")] = "",
    tags: Tags | None = None,
) -> CallToolResult:
    return _added(Record(
        kind="benchmark", config=config, value=value, metric=metric, unit=unit, baseline=baseline,
        concurrency=concurrency, accept_length=accept_length, num_draft_tokens=draft_tokens,
        notes=notes, tags=tags or [], status="ok",
    ))


def add_lesson(
    title: Annotated[str, Field(min_length=1, description="a short name for the failure")],
    symptom: Annotated[str, Field(min_length=1, description="what was seen: the error line, the metric")],
    cause: Annotated[str, Field(min_length=1, description="why it happened")],
    fix: Annotated[str, Field(min_length=1, description="what made it go away")],
    tags: Tags | None = None,
) -> CallToolResult:
    return _added(Record(kind="lesson", title=title, symptom=symptom, cause=cause, fix=fix,
                         tags=tags or []))


def add_note(
    text: Annotated[str, Field(min_length=1, description="the note")], tags: Tags | None = None,
) -> CallToolResult:
    return _added(Record(kind="note", text=text, tags=tags or []))


def record_output(
    text: Annotated[str, Field(min_length=1, description="the benchmark tool's printed output")],
    config: Annotated[str | None, Field(description="configuration name (default: derived)")] = None,
    baseline: Annotated[bool, Field(description="mark the results as the baseline")] = False,
) -> CallToolResult:
    from sessiontui.collectors.recording import record_text

    with _as_tool_error(), open_store() as store:
        outcome = record_text(store, text, config=config, baseline=baseline, tags=[VIA_MCP])
    if not outcome.stored:
        raise ToolError(outcome.problem)
    return _records(outcome.records)


def list_targets(
    log: Annotated[str | None, Field(description="the drafter's training log (default: the first followed log)")] = None,
) -> CallToolResult:
    from sessiontui.project_memory.targets import all_statuses
    from sessiontui.tui.commands.speedup import read_snapshot, settings
    from sessiontui.tui.commands.target import status_json

    followed, config = settings()
    log = log or followed
    if log and _server_read_only:
        _check_readable(log, config)
    snapshot = read_snapshot(log)[0] if log else None
    store = open_reader()
    if store is None:
        return _result({"records": []})
    with _as_tool_error(), store:
        return _result(status_json(all_statuses(store, snapshot, config.draft_overhead)))


def set_target(
    text: Annotated[str, Field(min_length=1, description='the target in plain words, e.g. "beat 90 tok/s '
                                                         'single stream" or "accept length 3.0"')],
    metric: Annotated[str | None, Field(description="metric name, when the text names none")] = None,
    value: Annotated[Number | None, Field(description="the threshold, when the text gives none")] = None,
    concurrency: Annotated[int | None, Field(ge=1, description="concurrent requests it applies to")] = None,
) -> CallToolResult:
    from sessiontui.tui.commands.target import new_target

    with _as_tool_error():
        target = new_target(text, metric=metric, value=value, concurrency=concurrency)
    return _added(target)


def _check_readable(log: str, config: Config) -> None:
    """Read-only servers read only the project's files and the logs sessiontui.toml names."""
    from pathlib import Path

    from sessiontui.project_memory.paths import project_root

    root = project_root().resolve()
    path = Path(log).expanduser().resolve()
    named = {p.expanduser().resolve() for p in config.log_paths(root)}
    if path not in named and not path.is_relative_to(root):
        raise ToolError(f"{log}: outside the project and not a log sessiontui.toml follows; "
                        "this server was started with --read-only")


READING: dict[Callable[..., CallToolResult], str] = {
    ask: "Answer a question from the memory (baseline, speedup, lessons, runs) with numbers and sources.",
    list_records: "List stored records newest first, or by relevance to a search query.",
    show_record: "Show one record in full by its id (or a unique id prefix).",
    train_status: "Where a training run stands, read from its log: step, loss, acceptance, ETA, events.",
    speedup: "Project the speculative-decoding speedup from acceptance rates, calibrated by stored benchmarks.",
    list_targets: "List the project's targets, how far each is and whether projections clear it.",
}
WRITING: dict[Callable[..., CallToolResult], str] = {
    add_benchmark: "Store a benchmark result you measured (set baseline for a run without the feature).",
    add_lesson: "Store a failure you diagnosed: its symptom, cause and fix, so it is never re-debugged.",
    add_note: "Store a free-form note about the project.",
    record_output: "Parse a benchmark tool's printed output and store each result; reads "
    f"{', '.join(KNOWN_FORMATS)}.",
    set_target: "Set a target the project aims for, from plain words (metric, value, conditions).",
}


def _one_sentence(name: str, error: ToolError) -> str:
    """The tool error without the SDK's prefix; argument errors as `field: problem (got X)`."""
    cause = error.__cause__
    if isinstance(cause, ValidationError):
        problems = [
            f"{'.'.join(str(p) for p in e['loc'])}: {e['msg'][0].lower()}{e['msg'][1:]}"
            + ("" if e["type"] == "missing" else f" (got {e['input']!r})")
            for e in cause.errors()
        ]
        return f"{name}: invalid arguments: {'; '.join(problems)}"
    return str(cause) if isinstance(cause, ToolError) else str(error)


class MemoryServer(MCPServer):
    """The MCP server of one project's memory; with `read_only`, only the reading tools."""

    def __init__(self, *, read_only: bool = False) -> None:
        super().__init__("sessiontui", instructions=INSTRUCTIONS, log_level="WARNING")
        self.read_only = read_only
        for fn, description in READING.items():
            self.add_tool(fn, description=description, annotations=_READS, structured_output=False)
        if not read_only:
            for fn, description in WRITING.items():
                self.add_tool(fn, description=description, annotations=_WRITES, structured_output=False)

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        """Run a tool; every anticipated failure comes back as one sentence."""
        if self.read_only and name in {fn.__name__ for fn in WRITING}:
            raise ToolError(f"{name} is not available: this server was started with --read-only")
        tool = self._tool_manager.get_tool(name)
        if tool is not None:
            known = set(tool.parameters.get("properties", {}))
            if unknown := [key for key in arguments or {} if key not in known]:
                hint = did_you_mean(unknown[0], known)
                raise ToolError(f"{name}: unknown argument(s) {', '.join(unknown)}{hint}; "
                                f"it takes {', '.join(sorted(known)) or 'none'}")
        try:
            return await super().call_tool(name, arguments, context)
        except UnexpectedToolError:
            raise
        except ToolError as exc:
            raise ToolError(_one_sentence(name, exc)) from None


_server_read_only = False  # set once by serve(): the tools a read-only server runs write nothing


def serve(*, read_only: bool = False) -> None:
    """Serve the memory of the project in the current directory on stdin/stdout until EOF."""
    global _server_read_only
    _server_read_only = read_only
    MemoryServer(read_only=read_only).run("stdio")
