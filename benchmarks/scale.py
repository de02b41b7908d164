"""Prints how the memory's costs grow with its size, each against a baseline measured in the same run.

- writes: `Store.add` x N (one transaction each) vs raw sqlite3 inserting the same rows into the
  same schema with the same durability (WAL, synchronous=FULL, one transaction each);
- import: `import_toml` of an export of N records, time per record and its growth between sizes;
- `sessiontui ask` (baseline, speedup) and `sessiontui bench add` vs `python -c pass`, same venv
  (both pay the venv's `site`, with an editable install's import finder: ~13 ms of `pass`);
- lesson matching, cold (a fresh process's first failure) and warm, vs an FTS5 search of the lessons.

Memories hold a realistic mix: 50% benchmarks (2% of all records baselines, over a dozen
conditions), 10% lessons, 10% runs, 30% notes. Targets (issues 29 and 31): Store.add x 10k
<= 1.5x raw, per-record at 10k <= 1.2x at 1k; import linear (per-record growth <= 1.3x), 100k
< 60 s; ask <= 2.0x / 2.5x at 100 records, <= 3x at 100k; bench add <= 3x / 4x; lesson match at 10k
lessons warm <= 10 ms, cold <= 100 ms. Run: `.venv/bin/python benchmarks/scale.py [--full]`
(--full adds the 100,000-record cases: several minutes on a 2-core VM). The CLI cases alone, at
chosen sizes: `--only cli --sizes 100 100000` (ask and bench add, about a minute).
"""

from __future__ import annotations

import argparse
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from sessiontui.project_memory import lessons
from sessiontui.project_memory.events import TrainEvent
from sessiontui.project_memory.exchange import export_toml, import_toml
from sessiontui.project_memory.records import Record
from sessiontui.project_memory.store import Store

RUNS = 7
STAMP = "2026-03-01T00:00:00+00:00"
FAILURES = (  # (lesson title, symptom, the failure's signature)
    ("CUDA OOM in eval", "torch.OutOfMemoryError: CUDA out of memory", "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB"),
    ("NCCL watchdog timeout", "Watchdog caught collective operation timeout", "RuntimeError: [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(OpType=ALLREDUCE)"),
    ("Triton smem", "triton OutOfResources shared memory", "triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 131072"),
    ("DataLoader shm", "bus error, /dev/shm too small in docker", "RuntimeError: DataLoader worker (pid 123) is killed by signal: Bus error"),
    ("disk full on save", "No space left on device while saving checkpoint", "OSError: [Errno 28] No space left on device"),
    ("pad token", "tokenizer has no pad token", "ValueError: Asking to pad but the tokenizer does not have a padding token"),
)
WORDS = "warmup cosine fp8 kvcache eagle3 draft verify prefill decode tp2 tp4 graphs chunked radix".split()


def mixed_records(count: int, seed: int = 0) -> list[Record]:
    """`count` records in the mix above, ids and times fixed so every size is comparable."""
    rng = random.Random(seed)
    records = []
    for i in range(count):
        roll, created = i % 10, f"2025-{1 + i % 12:02d}-{1 + i % 28:02d}T00:{i // 60 % 60:02d}:{i % 60:02d}+00:00"
        conditions = {"concurrency": rng.choice((1, 8, 32, 64)), "model": rng.choice(("llama-8b", "qwen-7b", "dsv3"))}
        if roll < 5:
            records.append(Record(kind="benchmark", id=f"b-{i:08x}", created_at=created, status="ok",
                                  config=f"{rng.choice(WORDS)} {i}", value=rng.uniform(20, 400),
                                  baseline=i % 50 == 0, engine=rng.choice(("sglang", "vllm")),
                                  accept_length=None if i % 50 == 0 else rng.uniform(1.5, 4), **conditions))
        elif roll == 5:
            title, symptom, _ = FAILURES[i % len(FAILURES)]
            records.append(Record(kind="lesson", id=f"l-{i:08x}", created_at=created,
                                  title=f"{title} ({rng.choice(WORDS)} {i})", symptom=symptom,
                                  cause=f"{rng.choice(WORDS)} setting", fix=f"lower {rng.choice(WORDS)}"))
        elif roll == 6:
            records.append(Record(kind="run", id=f"r-{i:08x}", created_at=created, name=f"run {i}",
                                  log_path=f"/runs/{i}/train.log", step=rng.randrange(1, 10_000), status="running"))
        else:
            records.append(Record(kind="note", id=f"n-{i:08x}", created_at=created,
                                  text=f"{' '.join(rng.sample(WORDS, 4))} {i}"))
    for record in records:
        record.updated_at = record.created_at
    return records


def seeded(count: int, folder: Path) -> Path:
    path = folder / f"seed{count}" / "memory.db"
    with Store(path) as store:
        store.merge(mixed_records(count))
    return path


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


# -- writes --------------------------------------------------------------------------------------
class RawWriter:
    """The same rows through plain sqlite3 into the same schema, one transaction each."""

    def __init__(self, path: Path) -> None:
        with Store(path):
            pass  # the schema
        self.db = sqlite3.connect(path, isolation_level=None)
        self.db.execute("PRAGMA synchronous = FULL")

    def add(self, row: tuple, text: str, kind: str) -> None:
        self.db.execute("BEGIN IMMEDIATE")
        rowid = self.db.execute(
            "INSERT INTO records(id, kind, created_at, updated_at, deleted_at, metric, baseline, "
            "status, value, log_path, body, valid) VALUES (?,?,?,?,?,?,?,?,?,?,?,1)", row).lastrowid
        self.db.execute("INSERT INTO records_fts(rowid, id, text) VALUES (?, ?, ?)", (rowid, row[0], text))
        self.db.execute("INSERT INTO revisions VALUES (?, 1) ON CONFLICT(kind) DO UPDATE SET n = n + 1",
                        (kind,))
        self.db.execute("COMMIT")


def adds(folder: Path, count: int) -> dict[str, float]:
    """Wall seconds of `count` Store.add calls and of the raw inserts of the same rows, and the
    CPU seconds of each, interleaved one by one so the disk's noise (fsync under other load)
    hits both alike."""
    records = mixed_records(count, seed=1)
    rows = [(Store._row(r), r.search_text(), r.kind) for r in records]
    raw = RawWriter(folder / f"raw{count}.db")
    spent = dict.fromkeys(("ours", "raw", "ours cpu", "raw cpu"), 0.0)
    with Store(folder / f"add{count}.db") as store:
        for record, row in zip(mixed_records(count, seed=1), rows, strict=True):
            for name, write in (("ours", lambda r=record: store.add(r)), ("raw", lambda w=row: raw.add(*w))):
                cpu, wall = time.process_time(), time.perf_counter()
                write()
                spent[name] += time.perf_counter() - wall
                spent[f"{name} cpu"] += time.process_time() - cpu
    raw.db.close()
    return {name: value / count for name, value in spent.items()}


def writes(folder: Path, sizes: tuple[int, ...]) -> None:
    each = {}
    for count in sizes:
        each[count] = spent = adds(folder, count)
        print(f"Store.add x {count:>6,}: {spent['ours'] * count:6.2f} s vs raw sqlite3 "
              f"{spent['raw'] * count:6.2f} s = {spent['ours'] / spent['raw']:.2f}x wall, "
              f"{spent['ours cpu'] / spent['raw cpu']:.2f}x CPU (target <= 1.5x); "
              f"{spent['ours'] * 1e3:.3f} ms per record")
    for small, large in zip(sizes, sizes[1:], strict=False):
        growth = {name: each[large][name] / each[small][name] for name in each[large]}
        print(f"  per record at {large:,} vs {small:,}: {growth['ours']:.2f}x wall, {growth['ours cpu']:.2f}x "
              f"CPU (target <= 1.2x); raw sqlite3 on the same disk {growth['raw']:.2f}x wall, "
              f"{growth['raw cpu']:.2f}x CPU")


# -- import --------------------------------------------------------------------------------------
def imports(folder: Path, sizes: tuple[int, ...]) -> None:
    per_record: dict[int, tuple[float, float]] = {}
    for count in sizes:
        source = folder / f"export{count}.toml"
        with Store(folder / f"source{count}.db") as store:
            store.merge(mixed_records(count, seed=2))
            export_toml(store, source)
        with Store(folder / f"import{count}.db") as store:
            cpu, wall = time.process_time(), time.perf_counter()
            import_toml(store, source)
            took, cpu = time.perf_counter() - wall, time.process_time() - cpu
        per_record[count] = (took / count, cpu / count)
        print(f"import {count:>7,} records: {took:6.2f} s, {took / count * 1e6:6.1f} us per record "
              f"({cpu / count * 1e6:6.1f} us CPU)")
    for small, large in zip(sizes, sizes[1:], strict=False):
        wall, cpu = (per_record[large][i] / per_record[small][i] for i in (0, 1))
        print(f"  per record at {large:,} vs {small:,}: {wall:.2f}x wall, {cpu:.2f}x CPU (target <= 1.3x)")


# -- the CLI -------------------------------------------------------------------------------------
def run_once(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds (user + system, the child's own) of one run of a command."""
    start = time.perf_counter()
    child = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode:
        raise subprocess.CalledProcessError(child.returncode, cmd)
    return time.perf_counter() - start, usage.ru_utime + usage.ru_stime


def median_times(commands: dict[str, tuple[list[str], dict[str, str]]], runs: int
                 ) -> dict[str, tuple[float, float]]:
    """Median wall and CPU time of each command over `runs` rounds, interleaved so noise hits all
    alike (CPU time moves less than wall time on a machine others load)."""
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
    for round_no in range(runs + 1):  # round 0 warms the page cache and is dropped
        for name, (cmd, env) in commands.items():
            spent = run_once(cmd, env)
            if round_no:
                times[name].append(spent)
    return {name: (statistics.median(w for w, _ in values), statistics.median(c for _, c in values))
            for name, values in times.items()}


def cli(folder: Path, sizes: tuple[int, ...], runs: int) -> None:
    script = str(Path(sys.executable).with_name("sessiontui"))
    # bytecode written (the warm-up round), as an installed package has it: a shell that sets
    # PYTHONDONTWRITEBYTECODE would otherwise time the compiler on every run
    cached = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    commands = {"pass": ([sys.executable, "-c", "pass"], cached)}
    for count in sizes:
        env = dict(cached, SESSIONTUI_DIR=str(seeded(count, folder).parent))
        commands[f"baseline {count}"] = ([script, "ask", "what's the baseline?"], env)
        commands[f"speedup {count}"] = ([script, "ask", "current speedup?"], env)
        commands[f"bench add {count}"] = ([script, "bench", "add", "--config", "scale", "--value", "50"], env)
    spent = median_times(commands, runs)
    wall, cpu = spent["pass"]
    print(f"{sys.executable} -c pass: {wall * 1e3:.1f} ms wall, {cpu * 1e3:.1f} ms CPU (medians of {runs})")
    for name, (took, used) in spent.items():
        if name != "pass":
            print(f"{name:>20} records: {took * 1e3:7.1f} ms = {took / wall:.2f}x python -c pass "
                  f"(CPU {used * 1e3:6.1f} ms = {used / cpu:.2f}x)")
    print("  targets: ask baseline <= 2.0x, speedup <= 2.5x at 100, <= 3x at 100k; bench add <= 3x / <= 4x")


# -- lesson matching -----------------------------------------------------------------------------
def failure(signature: str) -> TrainEvent:
    return TrainEvent(kind="crashed", message=signature, signature=signature, line=signature, at=None, step=1,
                      context=(signature,))


def lesson_matching(folder: Path, sizes: tuple[int, ...]) -> None:
    for count in sizes:
        path = folder / f"lessons{count}.db"
        with Store(path) as store:
            store.merge([r for r in mixed_records(count * 10, seed=3) if r.kind == "lesson"])
        events = [failure(signature) for _, _, signature in FAILURES]
        with Store(path) as store:  # the first match ever derives every lesson's terms once
            first = timed(lambda s=store, e=events[0]: lessons.lessons_for_event(s, e))
        cold, warm, fts = [], [], []
        for event in events:
            lessons._LESSON_TERMS.clear()  # a fresh process's first failure
            lessons._INDEXES.clear()
            with Store(path, readonly=True) as store:
                cold.append(timed(lambda s=store, e=event: lessons.lessons_for_event(s, e)))
                warm.append(timed(lambda s=store, e=event: lessons.lessons_for_event(s, e)))
                fts.append(timed(lambda s=store, e=event: s.search(e.signature or "", kind="lesson")))
        med = {name: statistics.median(values) * 1e3 for name, values in
               (("cold", cold), ("warm", warm), ("fts", fts))}
        print(f"lesson match, {count:>6,} lessons: first ever {first * 1e3:7.1f} ms (index built); "
              f"cold {med['cold']:7.1f} ms, warm {med['warm']:6.1f} ms; "
              f"FTS5 search {med['fts']:5.2f} ms (targets at 10k: warm <= 10 ms, cold <= 100 ms)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="add the 100,000-record cases")
    parser.add_argument("--runs", type=int, default=RUNS, help="rounds of each CLI command (median)")
    parser.add_argument("--only", choices=("writes", "import", "cli", "lessons"), help="one part")
    parser.add_argument("--sizes", type=int, nargs="+", help="memory sizes of the CLI cases (default 100 10000)")
    args = parser.parse_args()
    big = (100_000,) if args.full else ()
    with tempfile.TemporaryDirectory(prefix="scale-") as tmp:
        folder = Path(tmp)
        parts = {
            "writes": lambda: writes(folder, (1_000, 10_000)),
            "import": lambda: imports(folder, (1_000, 10_000, *big)),
            "cli": lambda: cli(folder, tuple(args.sizes or (100, 10_000, *big)), args.runs),
            "lessons": lambda: lesson_matching(folder, (100, 1_000, 10_000)),
        }
        for name, part in parts.items():
            if args.only in (None, name):
                part()


if __name__ == "__main__":
    main()
