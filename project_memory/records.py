"""The records the project memory keeps: one plain dataclass shared by every kind."""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass, field, fields
from datetime import UTC, datetime
from typing import Any

KINDS = ("benchmark", "lesson", "note", "run")
DEFAULT_METRIC = "output_tok_s"
DEFAULT_UNIT = "tok/s"
_ID_PREFIX = {"benchmark": "b", "lesson": "l", "note": "n", "run": "r"}


def now_iso() -> str:
    """Current UTC time as ISO 8601 with seconds, the one timestamp format records use."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def new_id(kind: str) -> str:
    """A short random id with a kind prefix, stable across export and import."""
    return f"{_ID_PREFIX[kind]}-{os.urandom(5).hex()}"


@dataclass
class Record:
    """One remembered thing; fields that do not apply to a kind stay None or empty."""

    kind: str
    id: str = ""
    created_at: str = ""
    updated_at: str = ""
    # Where and when: stamped when the record is first stored.
    host: str = ""
    gpus: list[str] = field(default_factory=list)
    git_commit: str | None = None
    git_branch: str | None = None
    git_dirty: bool | None = None
    tags: list[str] = field(default_factory=list)
    notes: str = ""
    status: str | None = None  # benchmark: ok/failed; run: running/finished/crashed/stalled/diverged
    # benchmark
    config: str | None = None
    metric: str | None = None
    value: float | None = None
    unit: str | None = None
    baseline: bool = False
    concurrency: int | None = None
    batch_size: int | None = None
    input_len: int | None = None
    output_len: int | None = None
    dataset: str | None = None
    spec_algorithm: str | None = None
    accept_length: float | None = None
    num_draft_tokens: int | None = None
    num_steps: int | None = None
    topk: int | None = None
    draft_model: str | None = None
    engine: str | None = None
    engine_version: str | None = None
    model: str | None = None
    command: str | None = None
    exit_code: int | None = None
    duration_s: float | None = None
    output_path: str | None = None
    source_format: str | None = None
    figures: dict[str, float] = field(default_factory=dict)  # ttft_ms, itl_ms, per-position rates...
    # lesson
    title: str | None = None
    symptom: str | None = None
    cause: str | None = None
    fix: str | None = None
    signature: str | None = None
    # note
    text: str | None = None
    # run
    name: str | None = None
    log_path: str | None = None
    step: int | None = None
    total_steps: int | None = None
    epoch: float | None = None
    loss: float | None = None
    lr: float | None = None
    acc: list[float] = field(default_factory=list)
    eta_s: float | None = None
    started_at: str | None = None
    started_from: str | None = None  # how started_at is known: log timestamps, file times, first sight
    log_run: int | None = None  # which run of its log this is: 0, then 1 after a restart, ...
    previous_run: str | None = None  # the run of the same log before this restart
    last_update: str | None = None
    milestones: list[dict[str, Any]] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    deleted_at: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown record kind {self.kind!r} (expected one of {', '.join(KINDS)})")
        if self.kind == "benchmark":
            self.metric = self.metric or DEFAULT_METRIC
            if self.unit is None and self.metric == DEFAULT_METRIC:
                self.unit = DEFAULT_UNIT

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready dict with every field, the record object of the CLI's JSON output."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Record:
        """Build a record from a dict, ignoring keys this version does not know."""
        return cls(**{k: v for k, v in data.items() if k in _FIELD_SET})

    @property
    def label(self) -> str:
        """A short human name for lists: config, title, run name or the note's first line."""
        for candidate in (self.config, self.title, self.name):
            if candidate:
                return candidate
        return (self.text or self.notes or "").splitlines()[0] if (self.text or self.notes) else ""

    def search_text(self) -> str:
        """All free text of the record, for full-text search."""
        parts = [
            self.config, self.title, self.symptom, self.cause, self.fix, self.signature,
            self.text, self.notes, self.name, self.log_path, self.engine, self.model,
            self.spec_algorithm, self.draft_model, self.dataset, self.command, " ".join(self.tags),
        ]
        return "\n".join(p for p in parts if p)


FIELD_NAMES = tuple(f.name for f in fields(Record))
_FIELD_SET = frozenset(FIELD_NAMES)
