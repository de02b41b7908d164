"""Prints how often `ask` understands the corpus of tests/fixtures/ask/corpus.txt: right intent,
and right intent with the right key figure, per intent, on the seeded memory of issue 12.

Run: `.venv/bin/python benchmarks/ask_accuracy.py [-v] [--batch NAME]` (-v lists the misses;
--batch scores one `# batch: NAME` section, the way a new batch is scored on first sight).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "tests" / "project_memory"))

from ask_corpus import check, load  # noqa: E402
from seeds import seed  # noqa: E402

from sessiontui.project_memory.store import Store  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-v", "--verbose", action="store_true", help="list the misses")
    parser.add_argument("--batch", help="score only this batch of the corpus")
    args = parser.parse_args()
    verbose = args.verbose
    cases = load(args.batch)
    total, intent_right, both_right = Counter(), Counter(), Counter()
    with tempfile.TemporaryDirectory() as folder, Store(Path(folder) / "memory.db") as store:
        records = seed(store)
        for case in cases:
            intent_ok, figure_ok, got = check(store, records, case)
            total[case.intent] += 1
            intent_right[case.intent] += intent_ok
            both_right[case.intent] += intent_ok and figure_ok
            if verbose and not (intent_ok and figure_ok):
                print(f"MISS {case.intent:10} got {got.intent:10} ({got.confidence:.2f}) "
                      f"{case.figure}={got.figures.get(case.figure)!r}: {case.question}")
    print(f"{'intent':12} {'questions':>9} {'intent ok':>10} {'+ figure ok':>12}")
    for intent in sorted(total):
        n = total[intent]
        print(f"{intent:12} {n:9d} {intent_right[intent] / n:10.1%} {both_right[intent] / n:12.1%}")
    n = sum(total.values())
    print(f"{'all':12} {n:9d} {sum(intent_right.values()) / n:10.1%} "
          f"{sum(both_right.values()) / n:12.1%}")


if __name__ == "__main__":
    main()
