"""`record --sweep concurrency=1,2,4 -- CMD`: one benchmark run per value, recorded as one sweep.

Each value goes into the command's own concurrency flag (`--max-concurrency 4`, `--concurrency=4`)
or an explicit `{concurrency}` placeholder; every result is tagged `sweep:<id>` so the points are
read back together (`project_memory/sweeps.py`). A ctrl+c stops the sweep and keeps what finished.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import BinaryIO

from sessiontui.collectors.recording import INTERRUPTED, RecordOutcome, record_command
from sessiontui.project_memory.records import Record
from sessiontui.project_memory.store import Store
from sessiontui.project_memory.sweeps import SWEEP_TAG

PLACEHOLDER = "{concurrency}"
# The flags benchmark tools take a concurrency by: SGLang/vLLM bench serve, genai-perf, trtllm-bench.
CONCURRENCY_FLAGS = ("--max-concurrency", "--max_concurrency", "--concurrency")
MAX_POINTS = 64  # a sweep is a handful of runs of minutes each, not a grid search
_SPEC = re.compile(r"^\s*concurrency\s*=\s*([\d\s,]+)$")


class SweepError(ValueError):
    """A sweep that cannot run as asked, in one line."""


def parse_sweep(spec: str) -> list[int]:
    """`concurrency=1,2,4,8` → [1, 2, 4, 8] (ascending, no repeats); SweepError otherwise."""
    match = _SPEC.match(spec)
    if not match:
        raise SweepError(f"--sweep takes concurrency=1,2,4,8 (got {spec!r})")
    try:
        values = sorted({int(v) for v in match[1].split(",") if v.strip()})
    except ValueError:
        raise SweepError(f"--sweep values must be whole numbers: {spec!r}") from None
    if not values or values[0] < 1:
        raise SweepError(f"--sweep concurrencies must be 1 or more: {spec!r}")
    if len(values) > MAX_POINTS:
        raise SweepError(f"--sweep takes at most {MAX_POINTS} values (got {len(values)})")
    return values


def command_for(command: Sequence[str], value: int) -> list[str]:
    """The command with `value` as its concurrency: the placeholder, else the concurrency flag."""
    if any(PLACEHOLDER in arg for arg in command):
        return [arg.replace(PLACEHOLDER, str(value)) for arg in command]
    result = list(command)
    for index, arg in enumerate(result):
        name, equals, _ = arg.partition("=")
        if name in CONCURRENCY_FLAGS:
            if equals:
                result[index] = f"{name}={value}"
                return result
            if index + 1 < len(result):
                result[index + 1] = str(value)
                return result
    raise SweepError("the command has no " + " / ".join(CONCURRENCY_FLAGS)
                     + f" flag and no {PLACEHOLDER} placeholder to put each concurrency in")


@dataclass(frozen=True)
class SweepProgress:
    """Where a sweep stands, for the line printed before each run."""

    index: int  # 1-based: the run about to start
    total: int
    concurrency: int
    elapsed_s: float
    eta_s: float | None  # from the mean time of the runs finished so far


@dataclass
class SweepOutcome:
    """What a sweep stored, each run's outcome, and whether it was stopped early."""

    sweep_id: str
    outcomes: list[tuple[int, RecordOutcome]] = field(default_factory=list)
    interrupted: bool = False

    @property
    def records(self) -> list[Record]:
        """Every record stored, in the order the runs finished."""
        return [record for _, outcome in self.outcomes for record in outcome.records]


def run_sweep(
    store: Store,
    command: Sequence[str],
    values: Sequence[int],
    sink: BinaryIO,
    *,
    config: str | None = None,
    baseline: bool = False,
    tags: Sequence[str] = (),
    progress: Callable[[SweepProgress], None] = lambda _: None,
    clock: Callable[[], float] = time.monotonic,
) -> SweepOutcome:
    """Run and record the command once per concurrency; ctrl+c keeps the runs that finished."""
    commands = [command_for(command, value) for value in values]  # every value checked first
    outcome = SweepOutcome(os.urandom(4).hex())
    started = clock()
    for index, (value, run) in enumerate(zip(values, commands, strict=True), 1):
        elapsed = clock() - started
        done = index - 1
        progress(SweepProgress(index, len(values), value, elapsed,
                               elapsed / done * (len(values) - done) if done else None))
        try:
            result = record_command(store, run, sink, config=config, baseline=baseline,
                                    tags=[*tags, f"{SWEEP_TAG}{outcome.sweep_id}"],
                                    concurrency=value)
        except KeyboardInterrupt:
            outcome.interrupted = True
            break
        outcome.outcomes.append((value, result))
        if result.exit_code == 130 or any(r.notes == INTERRUPTED for r in result.records):
            outcome.interrupted = True  # ctrl+c reached the benchmark: no more runs
            break
    return outcome
