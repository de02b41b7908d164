"""What one recognised log record says: the common shape every recogniser returns."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from functools import lru_cache

# The one alias table: spellings tools print (lower case, spaces as `_`) -> the snapshot's names.
# A loss, lr or grad_norm alias keeps its original name in `metrics` too (the snapshot's `loss`
# comes from it unless the record also printed `loss` itself); position aliases are renamed.
ALIASES = {
    # training loss: Lightning, DETR log.txt, ESPnet, Megatron, tqdm descriptions
    "lm_loss": "loss",
    "train_loss": "loss",
    "train_loss_step": "loss",
    "loss_step": "loss",
    "train_closs": "loss",
    "total_loss": "loss",
    "loss_(batch)": "loss",
    "training_loss": "loss",
    # learning rate: HF Trainer, DETR, ESPnet (`lr_0`, `optim0_lr0`), Megatron without colons
    "learning_rate": "lr",
    "train_lr": "lr",
    "lr_0": "lr",
    "optim0_lr0": "lr",
    # gradient norm: fairseq `gnorm`, Megatron `grad norm`
    "gradient_norm": "grad_norm",
    "grad_norm_total": "grad_norm",
    "gnorm": "grad_norm",
    # position: lifted out of the metrics as the step
    "iteration": "step",
    "global_step": "step",
    "_step": "step",
    "trainer/global_step": "step",
    "num_updates": "step",
    "steps": "step",
}
_POSITION = frozenset({"step", "epoch"})
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?|nan|inf|infinity)",
                     re.IGNORECASE)


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


def to_float(text: str) -> float | None:
    """A number as tools print it (`1.2e-05`, `nan`, `-inf`, `72.3%`, `tensor(0.5)`), else None."""
    try:
        return float(text)
    except ValueError:
        pass
    text = text.strip().strip("'\"[](),")
    if text.startswith("tensor("):
        text = text[7:].split(",", 1)[0].rstrip(")")
    percent = text.endswith("%")
    match = _NUMBER.fullmatch(text[:-1] if percent else text)
    if not match:
        return None
    value = float(match.group(0))
    return value / 100 if percent and math.isfinite(value) else value


def add_metric(metrics: dict[str, float], key: str, value: float) -> None:
    """Store a figure under the snapshot's name; an aliased loss/lr/grad_norm keeps its own name
    too, and never replaces the canonical figure the same record printed explicitly."""
    name, original = _names(key)
    if original is None:
        metrics[name] = value
    else:
        metrics[original] = value
        metrics.setdefault(name, value)


@lru_cache(maxsize=4096)
def _names(key: str) -> tuple[str, str | None]:
    """(the snapshot's name, the tool's own name when an alias of a figure renames it)."""
    name, original = metric_name(key), _plain_name(key)
    return name, original if original != name and name not in _POSITION else None


@lru_cache(maxsize=4096)
def _plain_name(key: str) -> str:
    """A tool's key in the snapshot's spelling, without aliasing."""
    key = key.strip().strip("'\"").lower().replace(" ", "_").replace("-", "_")
    if key.startswith("train/"):
        key = key[6:]
    elif key.startswith("eval/"):
        key = "eval_" + key[5:]
    return key


@lru_cache(maxsize=4096)
def metric_name(key: str) -> str:
    """The snapshot's name for a tool's key: `train/` dropped, `eval/x` -> `eval_x`, aliases."""
    key = _plain_name(key)
    if key.endswith("simulated_acc_len"):
        return "simulated_acc_len"
    return ALIASES.get(key, key)


def from_pairs(fmt: str, pairs: list[tuple[str, str]], *, step: int | None = None,
               epoch: float | None = None, done: bool = False) -> Reading | None:
    """Build a reading from (key, value text) pairs: numbers kept, step/epoch/total lifted out
    (the keyword arguments are what the record said outside the pairs)."""
    metrics: dict[str, float] = {}
    for key, raw in pairs:
        value = to_float(raw)
        if value is not None:
            add_metric(metrics, key, value)
    paired_step = metrics.pop("step", None)
    paired_epoch = metrics.pop("epoch", None)
    total = metrics.pop("max_steps", None) or metrics.pop("total_steps", None)
    if paired_step is not None and math.isfinite(paired_step):
        step = int(paired_step)
    if paired_epoch is not None:
        epoch = paired_epoch
    if not metrics and step is None and epoch is None and not total:
        return None
    return Reading(fmt, metrics, step=step, epoch=epoch, done=done,
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
