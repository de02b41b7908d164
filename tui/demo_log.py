"""A live SpecForge drafter-training log for the demo: realistic curves in the tools' real formats.

Formats follow SpecForge `scripts/train_eagle3.py` (a tqdm bar with `loss, acc, time, grad_norm`
in its postfix, no learning rate; the per-position `Eval - Step N [e/E], position i,  Acc: x` /
`pLoss: x` lines; tqdm 4.67 layout) and `specforge train` (2026: `step N: {...}` dict reprs with
`lr`), as described in FORMATS.md.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

STYLES = ("train_eagle3", "specforge")
TTT_LENGTH = 7
FINAL_ACC = (0.82, 0.72, 0.64, 0.58, 0.53, 0.49, 0.46)
FIRST_ACC = (0.22, 0.09, 0.04, 0.02, 0.01, 0.01, 0.0)
_BAR_PARTS = " ▏▎▍▌▋▊▉"
_BAR_WIDTH = 10  # tqdm's bar width when it writes to a file and cannot ask for the terminal's


@dataclass(frozen=True)
class Curve:
    """The shape of one training run: how fast accuracies rise and losses fall."""

    total_steps: int = 12_000
    epochs: int = 2
    seconds_per_step: float = 0.66
    acc_tau: float = 900.0
    loss_tau: float = 700.0
    peak_lr: float = 1e-4
    warmup_steps: int = 240
    seed: int = 7


DEFAULT_CURVE = Curve()

@dataclass(frozen=True)
class StepMetrics:
    """What one training step reports."""

    step: int
    acc: tuple[float, ...]
    ploss: tuple[float, ...]
    lr: float
    grad_norm: float
    seconds: float

    @property
    def loss(self) -> float:
        return sum(self.ploss) / len(self.ploss)

    @property
    def mean_acc(self) -> float:
        return sum(self.acc) / len(self.acc)


def metrics_at(curve: Curve, step: int) -> StepMetrics:
    """The metrics of `step`: a pure function of the curve and step, noise included."""
    noise = random.Random(curve.seed * 1_000_003 + step)
    rise = 1.0 - math.exp(-step / curve.acc_tau)
    acc = tuple(
        min(1.0, max(0.0, first + (final - first) * rise + noise.gauss(0, 0.012)))
        for first, final in zip(FIRST_ACC, FINAL_ACC, strict=True)
    )
    decay = math.exp(-step / curve.loss_tau)
    ploss = tuple(
        max(0.05, (0.85 + 0.22 * i) + (6.2 - 0.85) * decay + noise.gauss(0, 0.04))
        for i in range(TTT_LENGTH)
    )
    if step <= curve.warmup_steps:
        lr = curve.peak_lr * step / curve.warmup_steps
    else:
        done = (step - curve.warmup_steps) / max(1, curve.total_steps - curve.warmup_steps)
        lr = curve.peak_lr * 0.5 * (1 + math.cos(math.pi * min(1.0, done)))
    grad_norm = max(0.05, 0.45 + 3.2 * decay + abs(noise.gauss(0, 0.08)))
    seconds = curve.seconds_per_step * (1 + noise.gauss(0, 0.04))
    return StepMetrics(step, acc, ploss, lr, grad_norm, seconds)


def _interval(seconds: float) -> str:
    """tqdm's `format_interval`: M:SS below an hour's worth of minutes, else H:MM:SS."""
    minutes, secs = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours:d}:{minutes:02d}:{secs:02d}" if hours else f"{minutes:02d}:{secs:02d}"


def _bar(fraction: float) -> str:
    filled, partial = divmod(int(fraction * _BAR_WIDTH * 8), 8)
    if filled >= _BAR_WIDTH:
        return "█" * _BAR_WIDTH
    return ("█" * filled + _BAR_PARTS[partial]).ljust(_BAR_WIDTH)


def tqdm_line(curve: Curve, metrics: StepMetrics) -> str:
    """One redraw of the `Training Epoch e` bar, `\\r` first as tqdm writes it to a file."""
    per_epoch = curve.total_steps // curve.epochs
    epoch, done = divmod(metrics.step - 1, per_epoch)
    done += 1
    rate = 1.0 / metrics.seconds
    rate_text = f"{rate:5.2f}it/s" if rate >= 1 else f"{1 / rate:5.2f}s/it"
    elapsed = done * curve.seconds_per_step
    remaining = (per_epoch - done) / rate
    postfix = (f"loss={metrics.loss:.2f}, acc={metrics.mean_acc:.2f}, "
               f"time={metrics.seconds:.2f}s, grad_norm={metrics.grad_norm:.2f}")
    return (
        f"\rTraining Epoch {epoch}: {100 * done / per_epoch:3.0f}%|{_bar(done / per_epoch)}| "
        f"{done}/{per_epoch} [{_interval(elapsed)}<{_interval(remaining)}, {rate_text}, {postfix}]"
    )


def eval_lines(curve: Curve, metrics: StepMetrics) -> str:
    """The per-position lines `train_eagle3.py` prints every log interval (glued after the bar)."""
    epoch = (metrics.step - 1) // (curve.total_steps // curve.epochs)
    head = f"Eval - Step {metrics.step} [{epoch + 1}/{curve.epochs}], position"
    acc = [f"{head} {i},  Acc: {a:.2f}\n" for i, a in enumerate(metrics.acc)]
    ploss = [f"{head} {i}, pLoss: {p:.2f}\n" for i, p in enumerate(metrics.ploss)]
    return "".join(acc + ploss)


def specforge_line(curve: Curve, metrics: StepMetrics) -> str:
    """One `specforge train` log line: `step N: {...}` with per-position and summary keys."""
    values: dict[str, float] = {f"acc_{i}": round(a, 4) for i, a in enumerate(metrics.acc)}
    values |= {f"ploss_{i}": round(p, 4) for i, p in enumerate(metrics.ploss)}
    values |= {
        "acc": round(metrics.mean_acc, 4),
        "loss": round(metrics.loss, 4),
        "lr": float(f"{metrics.lr:.6g}"),
        "perf/optimizer_steps_per_hour": round(3600 / metrics.seconds, 1),
    }
    return f"step {metrics.step}: {values!r}\n"


def header(curve: Curve, style: str) -> str:
    """The start-up lines a real run prints before its first step."""
    per_epoch = curve.total_steps // curve.epochs
    return (
        "[rank0]: Initialized distributed environment\n"
        "[rank0]: Loaded vocab mapping\n"
        f"[rank0]: Auto-calculated total_steps: {curve.total_steps} "
        f"(num_epochs={curve.epochs} * steps_per_epoch={per_epoch})\n"
        "[rank0]: Initialized Eagle3 FSDP model\n"
        "[rank0]: Initialized optimizer and scheduler\n"
        + ("Starting training from epoch 0\n" if style == "train_eagle3" else "")
    )


def render_step(curve: Curve, style: str, step: int, log_interval: int) -> str:
    """Everything the run writes for one step in the given style."""
    metrics = metrics_at(curve, step)
    if style == "specforge":
        return specforge_line(curve, metrics) if step % log_interval == 0 else ""
    text = tqdm_line(curve, metrics)
    return text + eval_lines(curve, metrics) if step % log_interval == 0 else text


class TrainingLogWriter:
    """Appends steps to a log file: all at once for history, then live (see `keep_growing`)."""

    def __init__(
        self,
        path: Path,
        *,
        curve: Curve = DEFAULT_CURVE,
        style: str = "train_eagle3",
        log_interval: int = 10,
        steps_per_s: float = 1.5,
    ) -> None:
        if style not in STYLES:
            raise ValueError(f"unknown log style {style!r} (expected one of {', '.join(STYLES)})")
        self.path = Path(path)
        self.curve = curve
        self.style = style
        self.log_interval = log_interval if style == "train_eagle3" else 1
        self.steps_per_s = steps_per_s
        self.step = 0

    def write_history(self, steps: int) -> None:
        """Start the log with its header and the first `steps` steps, as a run already under way."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.write_text(header(self.curve, self.style), encoding="utf-8")
        self.append(steps)

    def append(self, steps: int) -> None:
        """Write the next `steps` steps (never past the curve's last step) in one flush."""
        last = min(self.curve.total_steps, self.step + steps)
        chunk = "".join(
            render_step(self.curve, self.style, s, self.log_interval)
            for s in range(self.step + 1, last + 1)
        )
        with self.path.open("a", encoding="utf-8") as out:
            out.write(chunk)
        self.step = last

    def keep_growing(self, wanted: Callable[[], bool]) -> None:
        """Append about `steps_per_s` steps a second while `wanted()` holds and steps remain."""
        while self.step < self.curve.total_steps and wanted():
            time.sleep(1.0 / self.steps_per_s)
            self.append(1)
