"""First-sight accuracy of the readers on the real-output corpus (tests/fixtures/corpus/).

Loads every `index.toml` under `train/`, `bench/` and `crash/`, scores each entry against the
figures written down for it, and prints right/total per batch, per format family and overall.

    python benchmarks/format_accuracy.py                  # every batch
    python benchmarks/format_accuracy.py --batch b03      # one batch
    python benchmarks/format_accuracy.py --batch b03 --first-sight   # record first_sight flags
    python benchmarks/format_accuracy.py -v               # one line per wrong entry, with why

Training logs are read exactly as `sessiontui train status --log FILE --json` reads them; the
bench and crash families are scored by `benchmarks/format_accuracy_bench.py` when it exists.
"""

from __future__ import annotations

import argparse
import math
import re
import sys
import tomllib
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "corpus"
KINDS = ("train", "bench", "crash")
REL_TOL = 1e-3  # loss, lr and other figures: relative tolerance
EPOCH_TOL = 0.01  # an epoch fraction is right to two decimals
Scorer = Callable[[dict, Path], tuple[bool, str]]


def _close(got: object, want: object, key: str) -> bool:
    """Whether a read figure matches the expected one (numbers within tolerance)."""
    if isinstance(want, bool | str):
        return got == want
    if not isinstance(got, int | float) or not isinstance(want, int | float):
        return False
    if key == "epoch":
        return abs(got - want) <= EPOCH_TOL
    if key in ("step", "total"):
        return got == want
    if math.isnan(want):
        return math.isnan(got)
    return math.isclose(got, want, rel_tol=REL_TOL, abs_tol=1e-12)


def train_figures(path: Path) -> dict:
    """What `train status --log FILE --json` says about a log, under the corpus's key names."""
    from sessiontui.collectors.trainlog import read_log

    snap = read_log(path)
    return {"step": snap.step, "total": snap.total_steps, "loss": snap.loss, "lr": snap.lr,
            "epoch": snap.epoch, "status": snap.status, "grad_norm": snap.grad_norm,
            "metrics": dict(snap.metrics)}


def score_train(entry: dict, path: Path) -> tuple[bool, str]:
    """(right, why not) for one training log: every expected key must match what is read."""
    figures = train_figures(path)
    wrong = []
    for key, want in entry.get("expect", {}).items():
        got = figures.get(key, figures["metrics"].get(key))
        if got is None and key.startswith("val_"):  # HF keeps its own `eval_loss` for the figure
            got = figures["metrics"].get("eval_" + key[4:])
        if key == "status" and want == "running" and got == "stalled":
            got = want  # a log at rest, read after the fact, is stalled by the clock: not a misread
        if not _close(got, want, key):
            wrong.append(f"{key}={got!r} (want {want!r})")
    return not wrong, ", ".join(wrong)


def _bench_scorers() -> dict[str, Scorer]:
    """The bench/crash scorers from reader-bench's module, when it is present."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    try:
        import format_accuracy_bench as bench  # type: ignore[import-not-found]
    except ImportError:
        return {}
    return {"bench": bench.score_bench, "crash": bench.score_crash}


def load_batches(kind: str, only: str | None = None) -> list[tuple[Path, dict]]:
    """(index path, parsed index) of every batch of one kind, in batch order."""
    folder = CORPUS / kind
    found = []
    for index in sorted(folder.glob("b*/index.toml")) if folder.is_dir() else []:
        if only is None or index.parent.name == only:
            found.append((index, tomllib.loads(index.read_text())))
    return found


def score_batch(index: Path, data: dict, scorer: Scorer) -> list[tuple[dict, bool, str]]:
    """Score every entry of one batch; a scorer that raises counts the entry wrong."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from format_accuracy_bench import score_entries  # type: ignore[import-not-found]

    return score_entries(index, data.get("output", []), scorer)


def write_first_sight(index: Path, results: list[tuple[dict, bool, str]]) -> None:
    """Record each entry's first-sight result in its index, unless the batch has them already."""
    text = index.read_text()
    if "first_sight" in text:
        print(f"{index.parent.name}: first_sight already recorded, left as is")
        return
    verdicts = iter(right for _, right, _ in results)
    text = re.sub(r'(\[\[output\]\]\nfile = "[^"]+"\n)',
                  lambda m: f"{m[1]}first_sight = {str(next(verdicts)).lower()}\n", text)
    index.write_text(text)


def main(argv: list[str] | None = None) -> int:
    """Print right/total per batch and per family, and overall."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--batch", help="score one batch (bNN) only")
    parser.add_argument("--first-sight", action="store_true",
                        help="write first_sight flags into the batch's index.toml")
    parser.add_argument("-v", "--verbose", action="store_true", help="list wrong entries")
    args = parser.parse_args(argv)
    scorers: dict[str, Scorer] = {"train": score_train, **_bench_scorers()}
    overall = [0, 0]
    for kind in KINDS:
        batches = load_batches(kind, args.batch)
        if not batches:
            continue
        scorer = scorers.get(kind)
        if scorer is None:
            print(f"{kind}: no scorer")
            continue
        families: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for index, data in batches:
            results = score_batch(index, data, scorer)
            right = sum(ok for _, ok, _ in results)
            first = [e.get("first_sight") for e, _, _ in results if "first_sight" in e]
            seen = f"  first sight {sum(first)}/{len(first)}" if first else ""
            print(f"{kind}/{index.parent.name}: {right}/{len(results)} right{seen}")
            for entry, ok, why in results:
                families[entry.get("tool", "?")][0] += ok
                families[entry.get("tool", "?")][1] += 1
                if args.verbose and not ok:
                    print(f"    wrong {entry['file']}: {why}")
            overall[0] += right
            overall[1] += len(results)
            if args.first_sight:
                write_first_sight(index, results)
        for tool, (right, total) in sorted(families.items()):
            print(f"  {kind} {tool}: {right}/{total}")
    print(f"overall: {overall[0]}/{overall[1]} right")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
