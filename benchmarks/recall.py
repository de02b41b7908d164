"""Prints how fast `sessiontui ask "what's the baseline?"` is against `python3 -c pass`.

Targets (issue 2): ask <= 3x `python3 -c pass` (median of 7), and with 10,000 records <= 1.3x the
cost with 100 records. Run: `.venv/bin/python benchmarks/recall.py`.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

from scale import median_walls, mixed_records  # benchmarks/ is this script's folder

from sessiontui.project_memory.store import Store

RUNS = 7
QUESTION = "what's the baseline?"


def seed(path: Path, count: int) -> None:
    """The realistic mix of `scale.py`: 2% of the records baselines over a dozen conditions."""
    with Store(path) as store:
        store.merge(mixed_records(count))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=RUNS, help="rounds (median reported)")
    runs = parser.parse_args().runs
    script = str(Path(sys.executable).with_name("sessiontui"))
    commands = {"pass": ([sys.executable, "-c", "pass"], dict(os.environ))}
    for count in (100, 10_000):
        folder = Path(tempfile.mkdtemp(prefix=f"recall{count}-"))
        seed(folder / "memory.db", count)
        commands[str(count)] = ([script, "ask", QUESTION], dict(os.environ, SESSIONTUI_DIR=str(folder)))
    # The interpreter itself, not a `python3` wrapper script (pyenv shims cost ~100 ms on their own).
    result = median_walls(commands, runs)
    base = result["pass"]
    print(f"{sys.executable} -c pass: {base * 1000:.1f} ms (median of {runs})")
    for count in ("100", "10000"):
        print(f"ask, {count:>6} records: {result[count] * 1000:7.1f} ms = {result[count] / base:.2f}x python -c pass")
    print(f"10,000 vs 100 records: {result['10000'] / result['100']:.2f}x (target <= 1.3x)")
    print(f"ask vs python -c pass: {result['100'] / base:.2f}x (target <= 3x)")


if __name__ == "__main__":
    main()
