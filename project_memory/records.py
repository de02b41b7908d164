"""The records the project memory keeps: one plain dataclass shared by every kind."""

from __future__ import annotations

import math
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import MISSING, asdict, dataclass, field, fields
from datetime import UTC, date, datetime, time, timedelta
from functools import cache
from types import NoneType, UnionType
from typing import Any, Literal, NamedTuple, Union, get_args, get_origin, get_type_hints

KINDS = ("benchmark", "lesson", "note", "run", "target")
DEFAULT_METRIC = "output_tok_s"
DEFAULT_UNIT = "tok/s"
_ID_PREFIX = {"benchmark": "b", "lesson": "l", "note": "n", "run": "r", "target": "t"}
INVALID = "invalid"  # a stored row that is not a valid record: status "invalid: <why>" (shown, never used)
TIMESTAMPS = ("created_at", "updated_at", "deleted_at", "started_at", "last_update")
CLOCK_SKEW = timedelta(minutes=10)  # how far in the future an imported timestamp may lie


def now_iso() -> str:
    """Current UTC time as ISO 8601 to the microsecond (sync orders concurrent edits by it)."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


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
    # benchmark (a target uses metric, value and the conditions: the threshold to reach)
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
    flags: dict[str, str] = field(default_factory=dict)  # the command's flags and engine env settings
    driver_version: str | None = None  # NVIDIA driver and CUDA the measurement ran on
    cuda_version: str | None = None
    exit_code: int | None = None
    duration_s: float | None = None
    output_path: str | None = None
    source_format: str | None = None
    figures: dict[str, float] = field(default_factory=dict)  # ttft_ms, itl_ms, per-position rates...
    partial: list[str] = field(default_factory=list)  # what a result cut short is missing
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
    revision: int = 0  # advanced by every local edit; import takes a version only when it is newer
    # Versions that lost a concurrent edit in `sessiontui sync` (set fields, oldest first).
    history: list[dict[str, Any]] = field(default_factory=list)

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
        """Build a record from a dict, ignoring keys this version does not know (no checks)."""
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


# -- the field table: what each field holds, its bounds, who needs it, its words and flag ------
LARGEST = 1e12  # above this nothing is measured: 1e308 tok/s or an accept length of 5,000 is a typo
MAX_REVISION = 2**62  # a record's edit count, the merge clock of imports


# The table's rows are NamedTuples, not frozen dataclasses: every command imports this module, and
# a NamedTuple is defined in a tenth of the time (a frozen dataclass generates six methods, ~0.5 ms).
class FieldRule(NamedTuple):
    """What a record field accepts beyond its Python type, and how people type it."""

    low: float | None = None  # smallest plausible value
    above: float | None = None  # the value must be larger than this (throughputs, rates, times)
    high: float | None = None  # largest plausible value
    required: tuple[str, ...] = ()  # the kinds that must have it (a benchmark's value: unless failed)
    help: str = ""
    flag: str | None = None  # its option on the command line (`edit`, and `add` of the kinds below)
    added_with: tuple[str, ...] = ()  # the kinds whose `add` command takes the flag
    by_hand: bool = True  # False: kept by the store (id, times, revision), never typed


def _bench(flag: str, help: str = "", *, low: float | None = None,
           high: float | None = None) -> FieldRule:
    return FieldRule(low=low, high=high, flag=flag, help=help, added_with=("benchmark",))


def _lesson(flag: str, help: str, *, required: tuple[str, ...] = ()) -> FieldRule:
    return FieldRule(flag=flag, help=help, added_with=("lesson",), required=required)


_KEPT = FieldRule(by_hand=False)
_RULES: dict[str, FieldRule] = {  # the flags' order is `--help`'s
    "kind": _KEPT, "id": _KEPT, "created_at": _KEPT, "updated_at": _KEPT, "deleted_at": _KEPT,
    "revision": FieldRule(low=0, high=MAX_REVISION, by_hand=False),
    "config": FieldRule(required=("benchmark",), flag="--config", added_with=("benchmark",),
                        help="the configuration's name, e.g. 'eagle3 steps5 topk4'"),
    "value": FieldRule(above=0, high=LARGEST, required=("benchmark", "target"), flag="--value",
                       added_with=("benchmark",), help="the measured number"),
    "metric": FieldRule(required=("benchmark", "target"), flag="--metric",
                        added_with=("benchmark",), help="what was measured (default output_tok_s)"),
    "unit": _bench("--unit", "the value's unit (tok/s for output_tok_s)"),
    "accept_length": _bench("--accept-length", "mean accepted tokens per step", low=1, high=1000),
    "num_draft_tokens": _bench("--draft-tokens", "draft tokens per step", low=1, high=10**6),
    "num_steps": _bench("--num-steps", "speculative steps", low=1, high=10**6),
    "topk": _bench("--topk", "draft tree width", low=1, high=10**6),
    "concurrency": _bench("--concurrency", "requests in flight", low=1, high=10**9),
    "batch_size": _bench("--batch-size", "batch size", low=1, high=10**9),
    "input_len": _bench("--input-len", "prompt tokens", low=0, high=10**12),
    "output_len": _bench("--output-len", "generated tokens", low=0, high=10**12),
    "dataset": _bench("--dataset", "the prompts' dataset"),
    "spec_algorithm": _bench("--spec-algorithm", "EAGLE3, NGRAM, ..."),
    "draft_model": _bench("--draft-model", "the draft model"),
    "engine": _bench("--engine", "vllm, sglang, trtllm, llama.cpp"),
    "engine_version": _bench("--engine-version", "the engine's version"),
    "driver_version": _bench("--driver", "NVIDIA driver (default: this host's)"),
    "cuda_version": _bench("--cuda", "CUDA version (default: this host's)"),
    "model": _bench("--model", "the served model"),
    "command": _bench("--command", "the command that measured it"),
    "notes": _bench("--notes", "free text"),
    "duration_s": FieldRule(low=0, high=LARGEST),
    "title": _lesson("--title", "one line naming the failure", required=("lesson",)),
    "symptom": _lesson("--symptom", "what was seen"),
    "cause": _lesson("--cause", "why it happened"),
    "fix": _lesson("--fix", "what fixed it"),
    "signature": _lesson("--signature", "a log line that identifies it"),
    "text": FieldRule(required=("note",)),
}


def _without_none(declared: Any) -> Any:
    """`int | None` as `int`; other types as they are."""
    if get_origin(declared) in (Union, UnionType):
        rest = [arg for arg in get_args(declared) if arg is not NoneType]
        return rest[0] if len(rest) == 1 else Union[tuple(rest)]  # noqa: UP007
    return declared


@cache
def _declared_types() -> dict[str, Any]:
    """Every record field's declared type, resolved on first need (validation, a form, a typed
    value): `ask` reads trusted rows and never needs them."""
    return get_type_hints(Record)


class FieldSpec(NamedTuple):
    """One record field as the table declares it: its type (the dataclass's) and its rule."""

    name: str
    rule: FieldRule

    @property
    def type(self) -> Any:
        """The declared type, such as `int | None`."""
        return _declared_types()[self.name]

    @property
    def base(self) -> Any:
        """The type without None: what a set value must be."""
        return _without_none(self.type)

    def empty(self) -> Any:
        """What the field holds when nothing is typed: its default (None, "", [] or False)."""
        declared = Record.__dataclass_fields__[self.name]
        if declared.default_factory is not MISSING:
            return declared.default_factory()
        return declared.default

    def required_for(self, kind: str) -> bool:
        """Whether a record of `kind` must have this field set."""
        return kind in self.rule.required

    def parse(self, text: str) -> Any:
        """Text a person typed (a flag, `edit --set`, a form field) as this field's value; raises
        ValueError saying why not. Bounds and required fields are the validation's, for all."""
        text = text.strip()
        base = self.base
        if not text:
            return self.empty()
        if base is bool:
            if text.lower() not in ("true", "false", "1", "0", "yes", "no"):
                raise ValueError(f"takes true or false, not {text!r}")
            return text.lower() in ("true", "1", "yes")
        if base is int:
            try:
                return int(text)
            except ValueError:
                raise ValueError(f"{text!r} is not a whole number") from None
        if base is float:
            try:
                number = float(text)
            except ValueError:
                raise ValueError(f"{text!r} is not a number") from None
            if not math.isfinite(number):
                raise ValueError(f"{text!r} is not a finite number")
            return number
        if base == list[str]:
            return [part.strip() for part in text.split(",") if part.strip()]
        if base is str or get_origin(base) is Literal:
            return text
        raise ValueError("cannot be typed as text")


FIELDS: dict[str, FieldSpec] = {name: FieldSpec(name, _RULES.get(name, FieldRule())) for name in FIELD_NAMES}


@cache
def _table_lists() -> frozenset[str]:
    """The fields holding list[dict[...]]: a run's milestones and events, a sync's history."""
    return frozenset(name for name, spec in FIELDS.items()
                     if get_origin(spec.base) is list and get_origin(get_args(spec.base)[0]) is dict)


def flagged(kind: str) -> list[FieldSpec]:
    """The fields whose flags `add` of this kind takes, in the table's order."""
    return [FIELDS[name] for name, rule in _RULES.items() if kind in rule.added_with]


def typed_fields() -> list[str]:
    """The fields a person may set by name (`edit --set`), in the record's order."""
    return [name for name, spec in FIELDS.items() if spec.rule.by_hand and name != "kind"]


def closest(word: str, choices: Iterable[str]) -> str | None:
    """The choice nearest a mistyped word (`valu` → `value`, `lst` → `list`), or None: the one
    rule behind every "did you mean" (fields, commands, options, MCP arguments)."""
    from rapidfuzz import fuzz, process, utils  # only when a word is wrong

    best = process.extractOne(word, list(choices), scorer=fuzz.ratio, processor=utils.default_process,
                              score_cutoff=60)
    return best[0] if best else None


# -- validation: the one set of rules for forms, CLI, import, parsers and the store -------------
class Problem(NamedTuple):
    """One thing wrong with a record: the field and what is wrong with it."""

    field: str
    message: str

    def __str__(self) -> str:
        return f"{self.field}: {self.message}"


class RecordError(ValueError):
    """A record that may not be stored; carries every problem found."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        super().__init__("; ".join(str(p) for p in problems))
        self.problems = list(problems)


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _nested_problem(value: object) -> str | None:
    """Why a table inside a record (milestones, events) cannot be stored as JSON, if it can't."""
    if isinstance(value, float) and not math.isfinite(value):
        return f"holds {value}, not a finite number"
    if isinstance(value, Mapping):
        bad = [k for k in value if not isinstance(k, str)]
        if bad:
            return f"has a key that is not text: {bad[0]!r}"
        return next((p for p in map(_nested_problem, value.values()) if p), None)
    if isinstance(value, list):
        return next((p for p in map(_nested_problem, value) if p), None)
    if value is None or isinstance(value, str | int | float | bool):
        return None
    return f"holds a {type(value).__name__}, which a record cannot keep"


def _type_problem(name: str, value: object) -> str | None:
    """Why `value` does not fit the declared type of field `name`, or None when it does."""
    if name not in _table_lists() or value is None:
        return _declared_problem(FIELDS[name].type, value)
    if not (isinstance(value, list) and all(isinstance(v, dict) for v in value)):
        return "must be a list of tables"
    if not all(isinstance(v.get("kind"), str) for v in value):
        return "each table must have a text `kind`"
    return next((p for p in (_table_problem(name, v) for v in value) if p), None)


# The keys of a run's milestones and events that its readers use, with their types (others kept).
_MILESTONE_KEYS: dict[str, Any] = {
    "step": int, "pct": int | None, "at": str | None, "loss": float | None,
    "accept_length": float | None, "acc": list[float] | None, "metrics": dict[str, float] | None}
_EVENT_KEYS: dict[str, Any] = {
    "message": str | None, "line": str | None, "signature": str | None, "step": int | None,
    "at": str | None, "context": list[str] | None, "lessons": list[str] | None}
_MILESTONE_NEEDS = {"progress": "pct", "eval": "metrics"}


def _table_problem(name: str, table: Mapping[str, Any]) -> str | None:
    """Why one milestone or event cannot be read back by the run's readers, or None."""
    kind = table["kind"]
    if name == "milestones" and kind not in _MILESTONE_NEEDS:
        return f"has a milestone of kind {kind!r}, not one of {', '.join(_MILESTONE_NEEDS)}"
    if name == "milestones" and table.get(_MILESTONE_NEEDS[kind]) is None:
        return f"has a {kind} milestone without `{_MILESTONE_NEEDS[kind]}`"
    keys = _MILESTONE_KEYS if name == "milestones" else _EVENT_KEYS if name == "events" else {}
    for key, declared in keys.items():
        if (key in table or NoneType not in get_args(declared)) and (
                problem := _declared_problem(declared, table.get(key))):
            return f"has `{key}` that {problem}"
    return _nested_problem(table)


def _declared_problem(declared: Any, value: object) -> str | None:
    """Why `value` does not fit a declared type such as `int | None`, or None when it does."""
    if value is None:
        return None if NoneType in get_args(declared) else "must be set"
    base = _without_none(declared)
    origin, args = get_origin(base), get_args(base)
    if base is str:
        return None if isinstance(value, str) else f"must be text, not {value!r}"
    if base is bool:
        return None if isinstance(value, bool) else f"must be true or false, not {value!r}"
    if base is int:
        if not isinstance(value, int) or isinstance(value, bool):
            return f"must be a whole number, not {value!r}"
        return None if abs(value) < 2**63 else f"is out of range: {value}"
    if base is float:
        if not isinstance(value, int | float) or isinstance(value, bool):
            return f"must be a number, not {value!r}"
        return None if math.isfinite(value) else f"must be a finite number, not {value}"
    if origin is Literal:
        return None if value in args else f"must be one of {', '.join(map(str, args))}, not {value!r}"
    if origin in (list, dict):
        container = "list" if origin is list else "table"
        if not isinstance(value, list | dict):
            return f"must be a {container}, not {value!r}"
        items = (value if origin is list and isinstance(value, list)
                 else list(value.values()) if origin is dict and isinstance(value, dict)
                 and all(isinstance(k, str) for k in value) else None)
        return _items_problem(args[-1], items, container)
    return None


def _items_problem(item: Any, values: list[Any] | None, container: str) -> str | None:
    """Why the items of a list or table do not fit `item` (`values` None: the wrong container,
    or a table with a key that is not text)."""
    if item is str:
        ok = values is not None and all(isinstance(v, str) for v in values)
        return None if ok else f"must be a {container} of text"
    if item is float:
        ok = values is not None and all(_is_number(v) and math.isfinite(v) for v in values)
        return None if ok else f"must be a {container} of finite numbers"
    return None


def parse_time(text: str) -> datetime | None:
    """An ISO 8601 timestamp as an aware datetime (UTC when it names no zone), or None; also
    None when it has no UTC equivalent (0001-01-01T00:00+01:00 lies before year 1 in UTC)."""
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return None
    return _in_utc(moment if moment.tzinfo else moment.replace(tzinfo=UTC))


def _in_utc(moment: datetime) -> datetime | None:
    """An aware datetime in UTC, or None when that falls outside the years 1..9999."""
    try:
        return moment.astimezone(UTC)
    except OverflowError:
        return None


MAX_ID_CHARS = 200  # an id is typed in `show ID` and printed in lists: one short word


def bound_problem(spec: FieldSpec, value: float) -> str | None:
    """Why a number lies outside the field's plausible range, or None."""
    rule = spec.rule
    if rule.above is not None and value <= rule.above:
        return f"must be > {rule.above:g}, not {value:g}"
    if rule.low is not None and value < rule.low:
        return f"must be >= {rule.low:g}, not {value:g}"
    if rule.high is not None and value > rule.high:
        return f"is implausibly large: {value:g} (at most {rule.high:g})"
    return None


def _missing(record: Record, spec: FieldSpec) -> str | None:
    """Why a field the record's kind needs is not there, or None."""
    if not spec.required_for(record.kind):
        return None
    value = getattr(record, spec.name)
    if isinstance(value, str) or (value is None and spec.base is str):
        return None if (value or "").strip() else "must not be empty"
    if value is not None:
        return None
    if record.kind == "benchmark":  # a failed attempt keeps what it ran, with no value
        ok = record.status in (None, "ok")
        return "must be set for a result that did not fail" if ok else None
    return "must be set"


def needs(record: Record, name: str) -> bool:
    """Whether the record would be refused with field `name` left empty (a form's `*`)."""
    spec = FIELDS[name]
    empty = Record.from_dict({**record.__dict__, name: spec.empty()})
    return _missing(empty, spec) is not None


def _bounded() -> list[FieldSpec]:
    """The fields with a plausible range (about ten of the table's sixty)."""
    return [spec for spec in FIELDS.values() if (spec.rule.low, spec.rule.above, spec.rule.high)
            != (None, None, None)]


def _required() -> dict[str, list[FieldSpec]]:
    """Each kind's fields that must be set."""
    return {kind: [spec for spec in FIELDS.values() if spec.required_for(kind)] for kind in KINDS}


def _range_problems(record: Record, now: datetime | None) -> list[Problem]:
    """Values of the right type that are still implausible (see issue 16's bounds)."""
    problems = []
    # A run mirrors its log: an odd figure there (a negative lr, a step counter gone back) is
    # kept as read, since refusing it would stop the following of the run.
    for spec in () if record.kind == "run" else _BOUNDED:  # every write is checked: the few only
        value = getattr(record, spec.name)
        if _is_number(value) and (problem := bound_problem(spec, value)):
            problems.append(Problem(spec.name, problem))
    if record.id and (len(record.id) > MAX_ID_CHARS or not record.id.isprintable()
                      or any(c.isspace() for c in record.id)):
        problems.append(Problem("id", f"must be up to {MAX_ID_CHARS} printable characters "
                                      f"without spaces, not {record.id!r}"))
    problems += [Problem(spec.name, why) for spec in _REQUIRED.get(record.kind, ())
                 if (why := _missing(record, spec))]
    if record.kind == "target" and record.metric == "accept_length" and 0 < (record.value or 1) < 1:
        problems.append(Problem("value", f"must be >= 1 for an accept length, not {record.value:g}"))
    implausible = {k: v for k, v in record.figures.items() if not 0 <= v <= LARGEST}
    if implausible:
        problems.append(Problem("figures", f"must lie in 0..{LARGEST:g}: {implausible}"))
    for name in TIMESTAMPS:
        text = getattr(record, name)
        if text is None or (text == "" and name in ("created_at", "updated_at")):
            continue
        moment = parse_time(text)
        if moment is None:
            problems.append(Problem(name, f"not a date and time: {text!r}"))
        elif now is not None and name in ("created_at", "updated_at") and moment > now + CLOCK_SKEW:
            problems.append(Problem(name, f"lies in the future: {text}"))
    return problems


_BOUNDED = _bounded()
_REQUIRED = _required()


def record_problems(record: Record, *, now: datetime | None = None) -> list[Problem]:
    """Everything wrong with a record; timestamps later than `now` count when it is given."""
    data = record.__dict__
    problems = [Problem(n, p) for n in FIELD_NAMES if (p := _type_problem(n, data[n]))]
    if record.kind not in KINDS:
        problems.append(Problem("kind", f"must be one of {', '.join(KINDS)}, not {record.kind!r}"))
    if problems:  # ranges compare values, which needs the right types first
        return problems
    return _range_problems(record, now)


def validate(record: Record, *, now: datetime | None = None) -> Record:
    """The record itself when it may be stored; raises RecordError listing every problem."""
    problems = record_problems(record, now=now)
    if problems:
        raise RecordError(problems)
    return record


def _normalised(value: Any) -> Any:
    """TOML's native dates and times as the ISO text records keep; containers walked through."""
    if isinstance(value, datetime):
        moment = value if value.tzinfo else value.replace(tzinfo=UTC)
        utc = _in_utc(moment)  # none: kept as written, and reported as no date by parse_time
        return (utc or moment).isoformat(timespec="seconds")
    if isinstance(value, date | time):
        return value.isoformat()
    if isinstance(value, Mapping):
        return {k: _normalised(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_normalised(v) for v in value]
    return value


def record_from_data(data: object, *, now: datetime | None = None) -> Record:
    """A checked record from outside data (an import): unknown keys, wrong types, implausible
    values and unparseable or future timestamps are all reported in one RecordError."""
    if not isinstance(data, Mapping):
        raise RecordError([Problem("record", f"must be a table, not {data!r}")])
    tables = _table_lists()
    values = {  # TOML dates where records keep ISO text: timestamps, and inside run tables
        name: _normalised(value) if name in TIMESTAMPS or name in tables else value
        for name, value in data.items()
    }
    problems = [Problem(str(k), "is not a record field") for k in values if k not in _FIELD_SET]
    kind = values.get("kind")
    if kind not in KINDS:
        problems.append(Problem("kind", f"must be one of {', '.join(KINDS)}, not {kind!r}"))
    for name, value in values.items():
        if name in _FIELD_SET and name != "kind" and (problem := _type_problem(name, value)):
            problems.append(Problem(name, problem))
    for name in TIMESTAMPS:
        if isinstance(values.get(name), str) and (moment := parse_time(values[name])):
            values[name] = moment.isoformat()  # a fraction of a second, when given, is kept
    for name, value in list(values.items()):
        if name in FIELDS and FIELDS[name].base is float and _is_number(value):
            values[name] = float(value)  # TOML writes 50.0 as 50 when edited by hand
    if kind in KINDS:  # the well-typed fields' ranges and times, so one message tells all
        wrong = {problem.field for problem in problems}
        typed = Record.from_dict({k: v for k, v in values.items() if k not in wrong})
        problems += [p for p in _range_problems(typed, now) if p.field not in wrong]
    if problems:
        raise RecordError(problems)
    return Record.from_dict(values)


def record_from_row(data: object) -> Record:
    """A stored row as a record; one this version cannot use is shown as invalid, never raised."""
    values = dict(data) if isinstance(data, Mapping) else {}
    if values.get("kind") in KINDS:
        record = Record.from_dict(values)
        problems = record_problems(record)
        if not problems:
            return record
    else:
        problems = [Problem("kind", f"must be one of {', '.join(KINDS)}, not {values.get('kind')!r}")]
    record = Record(kind=values["kind"] if values.get("kind") in KINDS else "note")
    for name in FIELD_NAMES:
        if name != "kind" and name in values and _type_problem(name, values[name]) is None:
            setattr(record, name, values[name])
    record.status = f"{INVALID}: " + "; ".join(str(p) for p in problems)
    return record


def is_invalid(record: Record) -> bool:
    """Whether the record is a stored row this version could not use (see record_from_row)."""
    return (record.status or "").startswith(INVALID)
