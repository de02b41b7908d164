"""The `Answer` every front end renders, and the helpers that write its figures for people."""

from __future__ import annotations

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

    def to_dict(self) -> dict[str, Any]:
        """The `sessiontui ask --json` object."""
        return {
            "intent": self.intent,
            "text": self.text,
            "records": [r.to_dict() for r in self.records],
            "figures": self.figures,
        }


def fmt(value: float | None, digits: int = 1) -> str:
    """A figure for people: fixed decimals, or n/a."""
    return "n/a" if value is None else f"{value:,.{digits}f}"


def describe(record: Record) -> str:
    """One line naming a benchmark result with its conditions, date and commit."""
    conditions = [
        f"c={record.concurrency}" if record.concurrency is not None else "",
        f"bs={record.batch_size}" if record.batch_size is not None else "",
        f"in={record.input_len}" if record.input_len else "",
        f"out={record.output_len}" if record.output_len else "",
        record.dataset or "",
        f"accept {record.accept_length:.2f}" if record.accept_length is not None else "",
    ]
    where = " ".join(c for c in conditions if c)
    commit = f" @{record.git_commit[:8]}" if record.git_commit else ""
    return (
        f"{record.config or record.label}: {fmt(record.value)} {record.unit or ''}".rstrip()
        + (f" ({where})" if where else "")
        + f" [{record.id}, {record.created_at[:10]}{commit}]"
    )
