"""What one recognised log record says: the common shape every recogniser returns."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from functools import lru_cache

from sessiontui.collectors.trainlog.vocabulary import (
    STEP_RANK,
    TOTAL_KEYS,
    canonical,
    plain_name,
    step_values_first,
)

_POSITION = frozenset({"step", "epoch"})
_NAMING_KEYS = frozenset({"name", "metric", "tag"})  # a record's keys naming the figure in its `value`
_COUNT_OF = re.compile(r"\s*['\"]?(\d+)\s*/\s*(\d+)['\"]?\s*")  # ms-swift `'global_step/max_steps': '78/176'`
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?|nan|inf|infinity)",
                     re.IGNORECASE)
# A name that carries the scale of its figure: verl's fsdp_sft_trainer.py `metrics["train/lr(1e-3)"] = lr * 1e3`.
_SCALED = re.compile(r"(?P<name>.+?)\s*\((?P<scale>1e[-+]?\d{1,2})\)")
# Lightning's bar pads a float to five characters, a non-finite one too: `nan.0`, `inf.0`, `-inf.`.
_PADDED = re.compile(r"([-+]?(?:nan|inf))\.0*", re.IGNORECASE)


@dataclass(slots=True)
class Reading:
    """One record's figures (transient, so not frozen: frozen costs 2x to build per log line);
    `metrics` uses the snapshot's names (loss, lr, acc_0, ...); `logged_at` is the time stamped
    on the record itself, when it carries one (rates of logs read after the fact)."""

    format: str
    metrics: dict[str, float] = field(default_factory=dict)
    step: int | None = None
    total: int | None = None
    epoch: float | None = None
    steps_per_s: float | None = None
    remaining_s: float | None = None
    done: bool = False  # the tool said training is over (100% bar, HF train_runtime)
    logged_at: float | None = None
    rounded: bool = False  # a run summary's repeat, its floats rounded to 5 places (ROUNDING)


def to_float(text: str) -> float | None:
    """A number as tools print it (`1.2e-05`, `nan`, `-inf`, `72.3%`, `tensor(0.5)`), else None."""
    try:
        return float(text)
    except ValueError:
        pass
    text = text.strip().strip("'\"[](),")
    if text.startswith("tensor("):
        text = text[7:].split(",", 1)[0].rstrip(")")
    if padded := _PADDED.fullmatch(text):
        return float(padded[1])
    percent = text.endswith("%")
    match = _NUMBER.fullmatch(text[:-1] if percent else text)
    if not match:
        return None
    value = float(match.group(0))
    return value / 100 if percent and math.isfinite(value) else value


def add_metric(metrics: dict[str, float], key: str, value: float) -> None:
    """Store a figure under the snapshot's name; an aliased loss/lr/grad_norm keeps its own name
    too, and never replaces the canonical figure the same record printed explicitly. A name that
    states its figure's scale (`train/lr(1e-3)`: the rate printed in thousandths) stores the figure
    itself."""
    if key.endswith(")") and (scaled := _SCALED.fullmatch(key)):
        key, value = scaled["name"], value * float(scaled["scale"])
    name, original = _names(key)
    if original is None:
        metrics[name] = value
    else:
        metrics[original] = value
        metrics.setdefault(name, value)


@lru_cache(maxsize=4096)
def _names(key: str) -> tuple[str, str | None]:
    """(the snapshot's name, the tool's own name when an alias of a figure renames it)."""
    name, original = canonical(key), plain_name(key)
    return name, original if original != name and name not in _POSITION else None


def _named_values(pairs: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The pairs of a record that names its figure (`"name": "loss", "value": 4.49`, a TensorBoard
    export's `tag`/`value`), its `value` under that name."""
    named = next((raw for key, raw in pairs if key in _NAMING_KEYS and to_float(raw) is None), None)
    if named is None:
        return pairs
    return [(named if key == "value" else key, raw) for key, raw in pairs]


def from_pairs(fmt: str, pairs: list[tuple[str, str]], *, step: int | None = None,
               epoch: float | None = None, done: bool = False) -> Reading | None:
    """Build a reading from (key, value text) pairs: numbers kept, step/epoch/total lifted out, an
    HF `train_runtime` summary marks the end (the keyword arguments are what the record said outside the pairs)."""
    metrics: dict[str, float] = {}
    paired: tuple[int, float] | None = None  # (rank, step): the most trusted position name wins
    for key, raw in step_values_first(_named_values(pairs)):
        if (of := _COUNT_OF.fullmatch(raw)) and canonical(key.split("/", 1)[0]) == "step":
            step, metrics["total_steps"] = int(of[1]), float(of[2])
            continue
        value = to_float(raw)
        if value is not None and canonical(key) == "step":
            rank = STEP_RANK.get(plain_name(key), 1)
            paired = (rank, value) if paired is None or rank <= paired[0] else paired
        elif value is not None:
            add_metric(metrics, key, value)
    paired_step = paired[1] if paired else None
    paired_epoch = metrics.pop("epoch", None)
    totals = [metrics.pop(key) for key in [key for key in metrics if key.endswith(TOTAL_KEYS)]]
    total = next((value for value in totals if value > 0), None)
    if paired_step is not None and math.isfinite(paired_step):
        step = int(paired_step)
    if paired_epoch is not None:
        epoch = paired_epoch
    # HF Trainer's end-of-run summary: `train_runtime` beside the run's mean `train_loss`; a record
    # with a step's own `loss` beside it is still running (Unsloth Studio adds the runtime to each log)
    summary = any(key == "train_runtime" for key, _ in pairs) and all(key != "loss" for key, _ in pairs)
    if summary:
        metrics.pop("loss", None)
    if not metrics and step is None and epoch is None and not total:
        return None
    return Reading(fmt, metrics, step=step, epoch=epoch, done=done or summary,
                   total=int(total) if total and math.isfinite(total) else None)


def merge(pending: Reading, reading: Reading) -> bool:
    """Fold `reading` into `pending` when it only adds metrics for the same step (a SpecForge
    per-position group), so the state is updated once per group rather than once per line."""
    if (reading.format != pending.format or reading.step != pending.step
            or reading.epoch != pending.epoch or reading.total is not None or reading.done
            or reading.steps_per_s is not None or reading.remaining_s is not None):
        return False
    pending.metrics.update(reading.metrics)
    return True
