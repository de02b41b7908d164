"""`sessiontui mcp`: the project memory as Model Context Protocol tools, for coding agents.

Each tool calls the code its CLI command runs and returns the JSON that command prints with
`--json`. Writes are stamped like any record and tagged `via:mcp` for review. Imported only by
`sessiontui mcp`: the MCP SDK is an optional extra and costs the other commands nothing.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field, ValidationError

from sessiontui.project_memory.records import Record
from sessiontui.project_memory.store import StoreError
from sessiontui.tui.commands.common import add_stamped, json_text, open_reader, open_store

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


def _result(data: dict[str, Any], text: object | None = None) -> CallToolResult:
    """A tool result: `text` (default `data`) as the CLI's JSON, `data` as structured content."""
    body = json_text(data if text is None else text)
    return CallToolResult(content=[TextContent(type="text", text=body)], structured_content=data)


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
        return _result(add_stamped(record).to_dict())


# -- reading tools ----------------------------------------------------------------------------
def ask(question: Annotated[str, Field(min_length=1, description="a plain-language question")]) -> CallToolResult:
    from sessiontui.tui.commands.memory import answer_question

    with _as_tool_error():
        answer, _ = answer_question(question)  # (problems reading sessiontui.toml: CLI stderr)
        return _result(answer.to_dict())


def list_records(
    kind: Annotated[Kind | None, Field(description="only this kind")] = None,
    query: Annotated[str | None, Field(description="full-text search, best match first")] = None,
    tag: Annotated[str | None, Field(description="only records carrying this tag")] = None,
    limit: Annotated[int | None, Field(ge=1, description="at most this many (default: all, as the "
                                         "CLI; a search gives 20)")] = None,
) -> CallToolResult:
    from sessiontui.tui.commands.memory import list_records as find

    with _as_tool_error():
        records = [r.to_dict() for r in find(kind, tag=tag, query=query, limit=limit)]
    return _result({"records": records}, records)


def show_record(id: Annotated[str, Field(min_length=1, description="record id or unique prefix")]) -> CallToolResult:
    store = open_reader()
    if store is None:
        raise ToolError(f"no record with id {id}: nothing is recorded in this project yet")
    with _as_tool_error(), store:
        return _result(store.get(id, include_deleted=True).to_dict())


def train_status(
    log: Annotated[str | None, Field(description="log file; default: the first followed log")] = None,
) -> CallToolResult:
    from sessiontui.tui.commands.speedup import settings
    from sessiontui.tui.commands.train import read_status, status_dict

    log = log or settings()[0]  # the first log sessiontui.toml follows
    if not log:
        raise ToolError("no log given and sessiontui.toml follows none: pass log")
    with _as_tool_error():
        return _result(status_dict(*read_status(log)))


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
    depth: Annotated[int | None, Field(ge=1, description="draft tokens per step to project at")] = None,
    log: Annotated[str | None, Field(description="training log to read acceptance from")] = None,
    metric: Annotated[str | None, Field(description="benchmark metric (default: the project's)")] = None,
) -> CallToolResult:
    from sessiontui.tui.commands.speedup import speedup_report

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
    return _result({"records": [record.to_dict() for record in outcome.records]})


READING: dict[Callable[..., CallToolResult], str] = {
    ask: "Answer a question from the memory (baseline, speedup, lessons, runs) with numbers and sources.",
    list_records: "List stored records newest first, or by relevance to a search query.",
    show_record: "Show one record in full by its id (or a unique id prefix).",
    train_status: "Where a training run stands, read from its log: step, loss, acceptance, ETA, events.",
    speedup: "Project the speculative-decoding speedup from acceptance rates, calibrated by stored benchmarks.",
}
WRITING: dict[Callable[..., CallToolResult], str] = {
    add_benchmark: "Store a benchmark result you measured (set baseline for a run without the feature).",
    add_lesson: "Store a failure you diagnosed: its symptom, cause and fix, so it is never re-debugged.",
    add_note: "Store a free-form note about the project.",
    record_output: "Parse the printed output of SGLang, vLLM or llama.cpp benchmarks and store each result.",
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
        try:
            return await super().call_tool(name, arguments, context)
        except UnexpectedToolError:
            raise
        except ToolError as exc:
            raise ToolError(_one_sentence(name, exc)) from None


def serve(*, read_only: bool = False) -> None:
    """Serve the memory of the project in the current directory on stdin/stdout until EOF."""
    MemoryServer(read_only=read_only).run("stdio")
