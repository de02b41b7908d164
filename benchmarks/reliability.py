"""Prints what the store keeps under attack: concurrent writers SIGKILLed at random moments.

Each writer process adds benchmark records in a loop and prints a record's id only after `add`
returned (the write is acknowledged). The parent kills a random writer every `--kill-every`
seconds and starts a fresh one in its place, until the writers have acknowledged
`--writers x --records` writes. Then it counts acknowledged writes missing from the store (the
target is 0), runs SQLite's integrity check, and prints the throughput. It also prints what the
integrity check on the writer path (`PRAGMA quick_check`, once per connection's first write)
costs at 100 and 10,000 records. Run: `.venv/bin/python benchmarks/reliability.py`.
"""

from __future__ import annotations

import argparse
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from sessiontui.project_memory.records import Record
from sessiontui.project_memory.store import Store

WRITER = """
import sys
from sessiontui.project_memory.records import Record
from sessiontui.project_memory.store import Store
store = Store(sys.argv[1])
name = sys.argv[2]
i = 0
while True:
    i += 1
    record = store.add(Record(kind="benchmark", config=f"{name} #{i}", value=float(i), concurrency=1))
    print(record.id, flush=True)
"""


class Writer:
    """One writer process and a thread collecting the ids it acknowledged."""

    def __init__(self, path: Path, name: str, acked: list[str], lock: threading.Lock) -> None:
        self.proc = subprocess.Popen([sys.executable, "-c", WRITER, str(path), name],
                                     stdout=subprocess.PIPE, text=True)
        self.thread = threading.Thread(target=self._collect, args=(acked, lock), daemon=True)
        self.thread.start()

    def _collect(self, acked: list[str], lock: threading.Lock) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            if line.strip():
                with lock:
                    acked.append(line.strip())

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()
        self.thread.join()


def attack(path: Path, writers: int, target: int, kill_every: float, seed: int) -> dict:
    """Run the writers with random kills until `target` writes were acknowledged."""
    rng = random.Random(seed)
    acked: list[str] = []
    lock = threading.Lock()
    Store(path).close()  # schema first, as any project has it before writers start
    started = time.perf_counter()
    pool = [Writer(path, f"w{n}", acked, lock) for n in range(writers)]
    kills = 0
    while True:
        time.sleep(rng.uniform(0, 2 * kill_every))
        with lock:
            if len(acked) >= target:
                break
        victim = rng.randrange(writers)
        pool[victim].kill()
        kills += 1
        pool[victim] = Writer(path, f"w{victim}-{kills}", acked, lock)
    for writer in pool:
        writer.kill()
    elapsed = time.perf_counter() - started
    with Store(path) as store:
        stored = {r.id for r in store.list()}
        integrity = store.integrity_check()
    return {"acked": len(acked), "lost": len(set(acked) - stored), "stored": len(stored),
            "integrity": integrity, "kills": kills, "seconds": elapsed}


def quick_check_ms(count: int, rounds: int = 7) -> tuple[float, float]:
    """Median cost of `PRAGMA quick_check` on a memory of `count` records, and the file's MB."""
    folder = Path(tempfile.mkdtemp(prefix=f"quickcheck{count}-"))
    path = folder / "memory.db"
    with Store(path) as store:
        store.add_all([Record(kind="benchmark", config=f"config {i}", value=50.0 + i % 7,
                              concurrency=1, notes="tp1 cuda graphs " * 4) for i in range(count)])
    times = []
    for _ in range(rounds):
        with Store(path) as store:
            start = time.perf_counter()
            store._db.execute("PRAGMA quick_check").fetchall()
            times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000, path.stat().st_size / 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--writers", type=int, default=8)
    parser.add_argument("--records", type=int, default=200, help="acknowledged writes per writer")
    parser.add_argument("--kill-every", type=float, default=0.2, help="mean seconds between kills")
    parser.add_argument("--seed", type=int, default=16)
    args = parser.parse_args()
    path = Path(tempfile.mkdtemp(prefix="reliability-")) / "memory.db"
    result = attack(path, args.writers, args.writers * args.records, args.kill_every, args.seed)
    print(f"{args.writers} writers, a random one SIGKILLed every ~{args.kill_every:g} s "
          f"({result['kills']} kills)")
    print(f"acknowledged writes: {result['acked']}, stored: {result['stored']}, "
          f"acknowledged writes lost: {result['lost']} (target 0)")
    print(f"integrity_check: {result['integrity']}")
    print(f"throughput: {result['acked'] / result['seconds']:.0f} acknowledged writes/s "
          f"over {result['seconds']:.1f} s (each a synchronous commit, plus process restarts)")
    for count in (100, 10_000):
        ms, mb = quick_check_ms(count)
        print(f"quick_check on {count:>6} records ({mb:.1f} MB): {ms:.1f} ms, paid once per "
              f"writing connection (never by read-only commands such as ask)")


if __name__ == "__main__":
    main()
