"""Recording a benchmark: parse its output, name the results, keep a failed attempt, flag the
baseline, check, stamp and store. One flow for the CLI, the app and the MCP server. The output
readers are imported by the functions that read output: adding a record by hand needs none."""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import BinaryIO

from sessiontui.project_memory.records import Record, record_problems
from sessiontui.project_memory.stamp import stamp_all, start_git_state
from sessiontui.project_memory.store import Store

OUTPUTS_DIR = "outputs"  # inside the memory folder: where captured outputs are kept
INTERRUPTED = "interrupted with Ctrl-C; results are from the output captured until then"
MAX_LINE = 300  # characters of a problem line: 499 cut blocks are named by the first of them


@dataclass
class RecordOutcome:
    """What recording did: the records stored, or why none was (`problem`, one line)."""

    records: list[Record] = field(default_factory=list)
    output_path: Path | None = None
    exit_code: int = 0  # the benchmark command's own exit code (0 for saved output)
    problem: str | None = None
    warning: str | None = None  # stored, but partly: what the output did not print whole

    @property
    def stored(self) -> bool:
        return self.problem is None


def output_path(store: Store, command: Sequence[str] = ()) -> Path:
    """A fresh file name for one capture: UTC time, program name and a short random suffix."""
    import secrets

    program = re.sub(r"[^A-Za-z0-9_.-]+", "_", Path(command[0]).name if command else "stdin")
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    return store.path.parent / OUTPUTS_DIR / f"{stamp}-{program[:40]}-{secrets.token_hex(2)}.log"


def nothing_found(where: str) -> str:
    """The one line for output that holds no result of a known format."""
    from sessiontui.collectors.bench_output import KNOWN_FORMATS

    return f"no benchmark result found in {where} (known formats: {', '.join(KNOWN_FORMATS)})"


def first_of(found: Sequence[str], noun: str) -> str:
    """One line for many findings, however many: the count and the first (cut to a line)."""
    first = found[0] if len(found) == 1 else f"{len(found)} {noun}; first: {found[0]}"
    return first if len(first) <= MAX_LINE else first[: MAX_LINE - 1] + "…"


def implausible(records: Sequence[Record]) -> str | None:
    """Why some parsed result may not be stored (each result's problems), or None."""
    found = [
        f"result {number} ({record.config or record.source_format or 'unnamed'}): "
        + "; ".join(str(problem) for problem in problems)
        for number, record in enumerate(records, 1)
        if (problems := record_problems(record))
    ]
    return f"implausible values, nothing stored: {first_of(found, 'results')}" if found else None


def partly_read(records: Sequence[Record], left_out: Sequence[str]) -> str | None:
    """The one line saying what stored results lack and which results were left out, or None."""
    parts = [f"result {number} ({record.source_format}) is partial, missing "
             f"{', '.join(record.partial)}" for number, record in enumerate(records, 1)
             if record.partial]
    said = [first_of(parts, "results partial")] if parts else []
    if left_out:
        said.append("left out: " + first_of(left_out, "results incomplete"))
    return "; ".join(said) or None


def failed_attempt(parsed: Sequence[Record]) -> Record:
    """The one record of a failed command: what it was running, with no value."""
    if parsed:
        return replace(parsed[0], value=None, figures={}, status="failed")
    return Record(kind="benchmark", status="failed")


def stamp_by_hand(records: Sequence[Record], *, gpus: Sequence[str] = (),
                  path: Path | None = None) -> None:
    """Stamp new records with host, GPU models, NVIDIA driver, CUDA and the git state of `path`
    (default: the current directory), each looked up once for all of them; `gpus` are the GPU
    models already known (the app's sample), else NVML's."""
    from sessiontui.collectors.gpu_env import gpu_environment  # NVML: only when storing

    start_git_state(path)  # git runs while NVML is asked
    env = gpu_environment()
    stamp_all(records, gpus=list(gpus) or env.names, path=path, driver=env.driver, cuda=env.cuda)


def add_by_hand(store: Store, record: Record, *, gpus: Sequence[str] = (),
                path: Path | None = None) -> Record:
    """The one way a record typed by a person or an agent is added (the CLI's `add` commands,
    the app's forms, the MCP tools): stamped as `stamp_by_hand` says, checked and stored."""
    stamp_by_hand([record], gpus=gpus, path=path)
    return store.add(record)


def store_results(
    store: Store,
    records: list[Record],
    *,
    fallback_name: str,
    config: str | None = None,
    baseline: bool = False,
    tags: Sequence[str] = (),
    gpus: list[str] | None = None,
    **common: object,
) -> str | None:
    """Name, flag, tag and annotate records, check them, then stamp and store them all (one
    transaction); returns why nothing was stored, or None."""
    from sessiontui.collectors.bench_output import derive_config_name

    for record in records:
        for name, value in common.items():
            setattr(record, name, value)
        record.config = config or derive_config_name(record) or fallback_name
        record.baseline = baseline
        record.tags = [*record.tags, *tags]
    problem = implausible(records)
    if problem:
        return problem
    if gpus is None:
        stamp_by_hand(records)
    else:
        stamp_all(records, gpus=gpus)  # git state of the current directory's project
    store.add_all(records)
    return None


def record_text(
    store: Store,
    data: str | bytes,
    *,
    source: Path | None = None,
    pasted_from: str = "the given text",
    config: str | None = None,
    baseline: bool = False,
    tags: Sequence[str] = (),
    gpus: list[str] | None = None,
) -> RecordOutcome:
    """Store the results in saved benchmark output: from the file `source`, or pasted text (kept
    under the memory's outputs folder; `pasted_from` names it in messages). A result cut short
    is stored with what it printed whole and marked partial; nothing is stored when a result is
    implausible or no result printed its headline figure whole."""
    from sessiontui.collectors.bench_output import read_benchmark_output

    parsed = read_benchmark_output(data)
    records = parsed.records
    where = str(source) if source else pasted_from
    if not records and parsed.problems:  # no headline figure printed whole
        return RecordOutcome(problem=f"incomplete output in {where}, nothing stored: "
                             + first_of(parsed.problems, "results incomplete"))
    if not records:
        return RecordOutcome(problem=nothing_found(where))
    if source is None:
        source = output_path(store)
        source.parent.mkdir(parents=True, exist_ok=True)
        source.write_bytes(data.encode() if isinstance(data, str) else data)
    path = source.resolve()
    problem = store_results(
        store, records, fallback_name=path.name, config=config, baseline=baseline, tags=tags,
        gpus=gpus, output_path=str(path),
    )
    return RecordOutcome(records if problem is None else [], path, problem=problem,
                         warning=partly_read(records, parsed.problems))


def record_command(
    store: Store,
    command: Sequence[str],
    sink: BinaryIO,
    *,
    config: str | None = None,
    baseline: bool = False,
    tags: Sequence[str] = (),
    gpus: list[str] | None = None,
    concurrency: int | None = None,
) -> RecordOutcome:
    """Run `command` (no shell), stream its output to `sink`, save it, and store its results, or
    one failed attempt when it failed; the outcome carries the command's exit code."""
    import shlex

    from sessiontui.collectors.bench_output import read_benchmark_output
    from sessiontui.collectors.bench_output.capture import run_and_capture
    from sessiontui.collectors.ran_on import command_flags, engine_version

    capture = run_and_capture(list(command), sink, output_path(store, command))
    read = read_benchmark_output(capture.output)
    parsed = read.records
    failed = capture.exit_code != 0 and not (capture.interrupted and parsed)
    outcome = RecordOutcome(output_path=capture.path, exit_code=capture.exit_code)
    if not failed and not parsed:
        outcome.problem = nothing_found(f"the output of {command[0]} (saved at {capture.path})")
        return outcome
    records = [failed_attempt(parsed)] if failed else parsed
    for record in records:  # what the engine ran as, asked of the command's own Python
        record.engine_version = record.engine_version or engine_version(record.engine, command)
        if record.concurrency is None:  # the output did not say it: the caller knows it (a sweep)
            record.concurrency = concurrency
    outcome.problem = store_results(
        store, records, fallback_name=" ".join(command)[:60], config=config, baseline=baseline,
        tags=tags, gpus=gpus, command=shlex.join(command), flags=command_flags(command),
        exit_code=capture.exit_code,
        duration_s=round(capture.duration_s, 3), output_path=str(capture.path),
        notes=INTERRUPTED if capture.interrupted else "",
    )
    outcome.records = records if outcome.problem is None else []
    outcome.warning = None if failed else partly_read(records, read.problems)
    return outcome
