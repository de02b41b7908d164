"""`sessiontui ask`: an answer from the memory and the followed log, in its own module so a
question registers one command and imports nothing the other memory commands need."""

from __future__ import annotations

import contextlib
import sys
from typing import TYPE_CHECKING

from sessiontui.tui.commands.common import (
    add_command,
    add_json_options,
    compact,
    open_reader,
    print_json,
)

if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable

    from sessiontui.project_memory.answer import Answer
    from sessiontui.project_memory.live import GpuReadings, LiveRun

_ASK_STATE = "ask_state.json"


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


def answer_question(question: str, *, remember: bool = True) -> tuple[Answer, list[str]]:
    """Answer from the project's memory and its followed log (`ask` and the mcp tool give the
    same answer), keeping a speedup answer's live figures for the next one's trend line (unless
    not to `remember`: a read-only MCP server writes nothing); also
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
    if remember and answer.intent == "speedup" and answer.figures.get("accept_length") is not None:
        _remember_answer(answer.figures)
    return answer, config.problems


def answer_json(answer: Answer, *, full: bool = False) -> dict:
    """`ask --json` (and the mcp tool): the answer, its source records compact unless `full`."""
    data = answer.to_dict()
    data["records"] = data["records"] if full else [compact(record) for record in data["records"]]
    return data


def cmd_ask(args: argparse.Namespace) -> int:
    return print_answer(" ".join(args.question), as_json=args.json, full=args.full)


def print_answer(question: str, *, as_json: bool = False, full: bool = False) -> int:
    """Print the answer to a question (cli.py calls this directly for a question without options)."""
    question = question.strip()
    if not question:
        print("sessiontui: ask needs a question, e.g. sessiontui ask \"what's the baseline?\"",
              file=sys.stderr)
        return 2
    answer, problems = answer_question(question)
    for problem in problems:
        print(f"sessiontui: {problem}", file=sys.stderr)
    if as_json:
        print_json(answer_json(answer, full=full))
    else:
        print(answer.text)
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `ask` command."""
    p = add_command(sub, "ask", "answer a question from the memory", "sessiontui ask \"what's the baseline?\"",
                    "sessiontui ask current speedup --json")
    p.add_argument("question", nargs="+", help="the question, in plain words")
    add_json_options(p)
    p.set_defaults(func=cmd_ask)
