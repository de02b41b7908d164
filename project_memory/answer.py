"""The Answer every front end renders, and the small text helpers answers are written with."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sessiontui.project_memory.records import Record


@dataclass
class Answer:
    """What a question resolved to: the intent, a readable text, and the data behind it."""

    intent: str
    text: str
    records: list[Record] = field(default_factory=list)
    figures: dict[str, Any] = field(default_factory=dict)
    confidence: float = 1.0
    conditions: dict[str, Any] = field(default_factory=dict)
    alternatives: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """The `sessiontui ask --json` object."""
        return {
            "intent": self.intent,
            "text": self.text,
            "records": [r.to_dict() for r in self.records],
            "figures": self.figures,
            "confidence": round(self.confidence, 3),
            "conditions": self.conditions,
            "alternatives": self.alternatives,
        }


def fmt(value: float | None, digits: int = 1) -> str:
    """A figure for people: fixed decimals, or n/a."""
    return "n/a" if value is None else f"{value:,.{digits}f}"


def describe(record: Record) -> str:
    """One line naming a benchmark result with its conditions, date and commit."""
    conditions = [
        record.engine or "",
        f"c={record.concurrency}" if record.concurrency is not None else "",
        f"bs={record.batch_size}" if record.batch_size is not None else "",
        f"in={record.input_len}" if record.input_len else "",
        f"out={record.output_len}" if record.output_len else "",
        record.dataset or "",
        f"accept {record.accept_length:.2f}" if record.accept_length is not None else "",
        "FAILED" if record.status == "failed" else "",
    ]
    where = " ".join(c for c in conditions if c)
    commit = f" @{record.git_commit[:8]}" if record.git_commit else ""
    value = f": {fmt(record.value)} {record.unit or ''}".rstrip() if record.value is not None else ""
    return (
        f"{record.config or record.label}{value}"
        + (f" ({where})" if where else "")
        + f" [{record.id}, {record.created_at[:10]}{commit}]"
    )


def verdict_word(speedup: float) -> str:
    """A plain verdict for a ratio against the baseline."""
    if abs(speedup - 1) < 0.005:
        return "level with the baseline"
    return "faster than the baseline" if speedup > 1 else "slower than the baseline"


def lesson_lines(lessons: Sequence[Record]) -> list[str]:
    """Each lesson's title, then its symptom, cause and fix."""
    lines = []
    for r in lessons:
        lines.append(f"{r.title} [{r.id}, {r.created_at[:10]}]")
        for label, value in (("symptom", r.symptom), ("cause", r.cause), ("fix", r.fix)):
            if value:
                lines.append(f"  {label}: {value}")
    return lines


def shell_words(command: str) -> list[str]:
    """A stored command line as the words a shell would pass (an unbalanced quote: split on spaces)."""
    import shlex  # only when a command is shown

    try:
        return shlex.split(command)
    except ValueError:
        return command.split()


def pasteable(prefix: Sequence[str], record: Record) -> str:
    """A command to copy and paste, shell-quoted word by word (`;`, `$(…)` and the like stay
    inert), and where it came from: a stored command can arrive through sync or import."""
    import shlex

    words = [*prefix, *shell_words(record.command or "")]
    where = f"on {record.host}" if record.host else "on an unrecorded host"
    return (f"`{shlex.join(words)}` (the command stored in {record.id}, recorded {where} "
            f"{record.created_at[:10]}; it may have come through sync or import: read it before "
            "running it)")
