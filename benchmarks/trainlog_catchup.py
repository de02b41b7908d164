"""Catch-up cost of the training-log follower against `grep -c loss=` on the same generated file.

Generates an ~80 MB SpecForge `train_eagle3.py`-style log (tqdm 4.66 bar redraws separated by `\r`
with a postfix, and every 50 steps the `Eval - Step N [...], position i,  Acc:` lines glued after the
bar, as SpecForge's print does), then times `LogFollower.catch_up()` and `grep -c` in this run
(best of several each, wall and CPU: the machine may be shared) and prints the ratio and peak RSS.
Usage: python benchmarks/trainlog_catchup.py [--steps 400000] [--keep PATH]

`--one-shot [--mb 256]`: the cost of `train status` (a one-shot `read_log`) on an HF Trainer, a
Lightning and a SpecForge log of that size each, against `wc -l` on the same file (target <= 10x).
"""

from __future__ import annotations

import argparse
import random
import resource
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from sessiontui.collectors.trainlog import LogFollower, TrainSnapshot

T = TypeVar("T")
GREP_REPEATS = 5
OURS_REPEATS = 3
POSITIONS = 7  # SpecForge default TTT length
INTERVAL = 50  # --log-interval


def _clock(seconds: int) -> str:
    """tqdm's format_interval: M:SS below an hour, else H:MM:SS."""
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes:02d}:{secs:02d}"


def _bar(step: int, total: int, loss: float, acc: float) -> str:
    """One tqdm redraw of the SpecForge training bar with its postfix."""
    pct = step * 100 // total
    filled = pct // 10
    bar = "█" * filled + ("▏" if filled < 10 else "") + " " * max(0, 9 - filled)
    return (f"Training Epoch 0: {pct:3d}%|{bar}| {step}/{total} "
            f"[{_clock(step // 2)}<{_clock((total - step) // 2)},  1.64it/s, loss={loss:.3g}, "
            f"acc={acc:.3g}, acceptance_rate={acc * 0.9:.3g}, time=0.61, grad_norm=1.23]")


def generate(path: Path, steps: int) -> None:
    """Write the benchmark log."""
    rng = random.Random(0)
    with open(path, "w", encoding="utf-8") as out:
        for step in range(1, steps + 1):
            loss = 3.0 / (1 + step / 1e4) + rng.random() * 0.05
            acc = 0.5 + 0.3 * step / steps
            out.write("\r" + _bar(step, steps, loss, acc))
            if step % INTERVAL == 0:
                for name, base in (("Acc", acc), ("Acceptance Rate", acc * 0.9), ("pLoss", loss)):
                    for pos in range(POSITIONS):
                        out.write(f"Eval - Step {step} [{step + 1}/{steps}], position {pos},  "
                                  f"{name}: {base * 0.95 ** pos:.4f}\n")


def _grep(path: Path) -> tuple[float, str]:
    """CPU seconds and output of one `grep -c loss=` (a child process: counted via rusage)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(["grep", "-c", "loss=", str(path)], capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, out.stdout.strip()


def _catch_up(path: Path, updates: list[float]) -> tuple[float, TrainSnapshot]:
    """CPU seconds and snapshot of one full catch-up of the file."""
    start = time.process_time()
    snap = LogFollower(path).catch_up(updates.append)
    return time.process_time() - start, snap


def _best(run: Callable[[], tuple[float, T]], repeats: int) -> tuple[float, float, T]:
    """Lowest wall and CPU time of several runs (the machine is shared), and the last result."""
    walls, cpus = [], []
    for _ in range(repeats):
        start = time.perf_counter()
        cpu, result = run()
        walls.append(time.perf_counter() - start)
        cpus.append(cpu)
    return min(walls), min(cpus), result


def _hf_trainer(step: int, total: int, rng: random.Random) -> str:
    """HF Trainer: tqdm redraws of the step bar, a `{'loss': ...}` dict every 10 steps."""
    pct = step * 100 // total
    line = (f"\r{pct:3d}%|{'█' * (pct // 10):<10}| {step}/{total} "
            f"[{_clock(step // 4)}<{_clock((total - step) // 4)},  3.85it/s]")
    if step % 10 == 0:
        line += (f"\n{{'loss': {3 / (1 + step / 1e4) + rng.random() * 0.05:.4f}, 'grad_norm': 1.2, "
                 f"'learning_rate': 4.9e-05, 'epoch': {step / total:.2f}}}\n")
    return line


def _lightning(step: int, total: int, rng: random.Random) -> str:
    """Lightning: `Epoch 0:` bar redraws with the logged loss in the postfix."""
    pct = step * 100 // total
    return (f"\rEpoch 0: {pct:3d}%|{'█' * (pct // 10):<10}| {step}/{total} "
            f"[{_clock(step // 10)}<{_clock((total - step) // 10)}, 10.00it/s, v_num=0, "
            f"train/loss_step={3 / (1 + step / 1e4) + rng.random() * 0.05:.3f}]")


def _specforge(step: int, total: int, rng: random.Random) -> str:
    loss = 3.0 / (1 + step / 1e4) + rng.random() * 0.05
    return "\r" + _bar(step, total, loss, 0.5 + 0.3 * step / total)


ONE_SHOT_FORMATS = {"hf-trainer": _hf_trainer, "lightning": _lightning, "specforge": _specforge}


def generate_sized(path: Path, line: Callable[[int, int, random.Random], str], mb: int) -> None:
    """Write a log of about `mb` MB in the given format (its total sized to end there)."""
    rng = random.Random(0)
    per_step = sum(len(line(step, 1000, rng)) for step in range(500, 510)) / 10
    total = int(mb * 1_000_000 / per_step)
    with open(path, "w", encoding="utf-8") as out:
        for first in range(1, total + 1, 10_000):
            out.write("".join(line(step, total, rng)
                              for step in range(first, min(total, first + 9_999) + 1)))


def _timed(run: Callable[[], T]) -> tuple[float, T]:
    start = time.perf_counter()
    result = run()
    return time.perf_counter() - start, result


def _one_shot_times(path: Path) -> tuple[float, float, TrainSnapshot]:
    """Best wall time of `wc -l` and of `read_log` on the file, and the snapshot read."""
    from sessiontui.collectors.trainlog import read_log

    wc = min(_timed(lambda: subprocess.run(["wc", "-l", str(path)], capture_output=True))[0]
             for _ in range(GREP_REPEATS))
    ours, snap = min((_timed(lambda: read_log(path)) for _ in range(OURS_REPEATS)),
                     key=lambda timed: timed[0])
    return wc, ours, snap


def one_shot(mb: int) -> None:
    """`train status` (read_log) against `wc -l` on logs of each format."""
    for name, line in ONE_SHOT_FORMATS.items():
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "train.log"
            generate_sized(path, line, mb)
            wc, ours, snap = _one_shot_times(path)
            size = path.stat().st_size / 1e6
        print(f"{name:<11} {size:7.0f} MB  read_log {ours * 1000:7.0f} ms  wc -l {wc * 1000:6.0f} ms"
              f"  {ours / wc:5.1f}x (target <= 10x)  step {snap.step}/{snap.total_steps} "
              f"loss {snap.loss} {snap.steps_per_s} steps/s, "
              f"{max((len(h) for h in snap.history.values()), default=0)} history points")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=400_000)
    parser.add_argument("--keep", type=Path, help="write the log here and keep it")
    parser.add_argument("--one-shot", action="store_true",
                        help="time `train status` on HF Trainer, Lightning and SpecForge logs")
    parser.add_argument("--mb", type=int, default=256, help="size of each --one-shot log")
    args = parser.parse_args()
    if args.one_shot:
        one_shot(args.mb)
        return
    with tempfile.TemporaryDirectory() as tmp:
        path = args.keep or Path(tmp) / "train.log"
        generate(path, args.steps)
        size_mb = path.stat().st_size / 1e6
        grep_wall, grep_cpu, grep_out = _best(lambda: _grep(path), GREP_REPEATS)
        updates: list[float] = []
        ours_wall, ours_cpu, snap = _best(lambda: _catch_up(path, updates), OURS_REPEATS)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"log: {size_mb:.1f} MB, {args.steps} steps")
    print(f"grep -c loss=: {grep_wall * 1000:.0f} ms wall, {grep_cpu * 1000:.0f} ms CPU "
          f"({grep_out} lines)")
    print(f"catch_up:      {ours_wall * 1000:.0f} ms wall, {ours_cpu * 1000:.0f} ms CPU, "
          f"{len(updates) // OURS_REPEATS} progress reports")
    print(f"ratio:         {ours_wall / grep_wall:.1f}x grep wall, {ours_cpu / grep_cpu:.1f}x grep CPU "
          f"(target <= 20x; best of {OURS_REPEATS} vs best of {GREP_REPEATS})")
    print(f"peak RSS:      {peak_mb:.0f} MB")
    print(f"snapshot:      step {snap.step}/{snap.total_steps} loss {snap.loss} "
          f"acc {snap.acc} steps/s {snap.steps_per_s} history points "
          f"{sum(len(h) for h in snap.history.values())}")


if __name__ == "__main__":
    main()
