"""Prints what the store keeps under attack: killed writers, concurrent edits, hostile imports.

Each writer process adds benchmark records in a loop and prints a record's id only after `add`
returned (the write is acknowledged). The parent kills a random writer every `--kill-every`
seconds and starts a fresh one in its place, until the writers have acknowledged
`--writers x --records` writes. Then it counts acknowledged writes missing from the store (the
target is 0), runs SQLite's integrity check, and prints the throughput. It also prints what the
integrity check (`PRAGMA quick_check`, before a connection's first write when the file changed
outside sessiontui) costs at 100 and 10,000 records.

Then the attacks of issue 29, each as tries / failed / lost / tracebacks (targets: 0 lost, 0
tracebacks; "failed" counts refusals, which some attacks expect):
- edits of different fields of one record by concurrent processes, through the store API and
  through `sessiontui edit`: lost = fields whose final value is not the last one written;
- imports nested 20 / 300 / 5,000 levels deep and texts past the limit: lost = records of the
  memory changed or gone; export and salvage must still work;
- reads (`list`, `show`, `ask`) on a full disk (a 2 MB tmpfs; needs root, else skipped).
Run: `.venv/bin/python benchmarks/reliability.py [--quick]`.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from sessiontui.project_memory.exchange import export_toml
from sessiontui.project_memory.records import Record
from sessiontui.project_memory.salvage import salvage
from sessiontui.project_memory.store import Store

SESSIONTUI = str(Path(sys.executable).with_name("sessiontui"))
FIELDS = ("concurrency", "batch_size", "input_len", "output_len", "num_steps", "topk", "num_draft_tokens",
          "exit_code")
API_EDITOR = """
import sys
from sessiontui.project_memory.store import Store
path, record_id, field, rounds = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
with Store(path) as store:
    for value in range(1, rounds + 1):
        store.edit(record_id, {field: value})
"""

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


class Tally:
    """One attack's counts."""

    def __init__(self, name: str) -> None:
        self.name, self.tries, self.failed, self.lost, self.tracebacks = name, 0, 0, 0, 0

    def line(self) -> str:
        return (f"{self.name:<50} tries {self.tries:>4}  failed {self.failed:>4}  lost {self.lost:>3}  "
                f"tracebacks {self.tracebacks}")


def concurrent_edits(folder: Path, rounds: int, through_cli: bool) -> Tally:
    """Each process edits its own field of one record `rounds` times, all at once."""
    tally = Tally(f"edits of one record, {len(FIELDS)} {'CLI' if through_cli else 'API'} processes")
    path = folder / ("cli" if through_cli else "api") / "memory.db"
    with Store(path) as store:
        record = store.add(Record(kind="benchmark", config="edited", value=50.0))
    env = {**os.environ, "SESSIONTUI_DIR": str(path.parent)}
    if through_cli:  # each process a loop of `sessiontui edit` calls
        script = 'for v in $(seq 1 "$2"); do "$0" edit "$1" --set "$3=$v" || echo FAILED >&2; done'
        commands = [["sh", "-c", script, SESSIONTUI, record.id, str(rounds), field] for field in FIELDS]
    else:
        commands = [[sys.executable, "-c", API_EDITOR, str(path), record.id, field, str(rounds)]
                    for field in FIELDS]
    editors = [subprocess.Popen(c, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
               for c in commands]
    for editor in editors:
        _, err = editor.communicate()
        tally.tries += rounds
        tally.failed += err.count("FAILED") + (editor.returncode != 0)
        tally.tracebacks += err.count("Traceback")
    with Store(path) as store:
        final = store.get(record.id)
    tally.lost = sum(getattr(final, field) != rounds for field in FIELDS)
    return tally


def hostile_imports(folder: Path) -> Tally:
    """Deep nesting and long texts through `sessiontui import`; the memory must stay as it was."""
    tally = Tally("hostile imports (nesting 20/300/5000, long text)")
    memory = folder / "imports"
    env = {**os.environ, "SESSIONTUI_DIR": str(memory)}
    subprocess.run([SESSIONTUI, "note", "add", "kept"], env=env, check=True, capture_output=True)
    head = '[[record]]\nid = "n-x"\nkind = "note"\ntext = "t"\ncreated_at = 2025-01-01T00:00:00Z\n'
    files = {f"nested{n}": head + "history = " + "[" * n + "]" * n + "\n" for n in (20, 300, 5000)}
    files["long"] = head.replace('text = "t"', f'text = "{"x" * 300_000}"')
    for name, text in files.items():
        target = folder / f"{name}.toml"
        target.write_text(text)
        done = subprocess.run([SESSIONTUI, "import", str(target)], env=env, capture_output=True, text=True)
        tally.tries += 1
        tally.failed += done.returncode != 0
        tally.tracebacks += done.stderr.count("Traceback")
    with Store(memory / "memory.db") as store:
        tally.lost += [r.text for r in store.list()] != ["kept"]
        try:
            export_toml(store, folder / "after.toml")
            salvage(store.path)
        except RecursionError:
            tally.tracebacks += 1
    return tally


def full_disk_reads(folder: Path) -> Tally | None:
    """`list`, `show` and `ask` on a full 2 MB tmpfs; None where it cannot be mounted."""
    disk = folder / "disk"
    disk.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(disk)],
                                           capture_output=True).returncode != 0:
        return None
    tally = Tally("reads on a full disk (list, show, ask)")
    try:
        env = {**os.environ, "SESSIONTUI_DIR": str(disk / "memory")}
        subprocess.run([SESSIONTUI, "bench", "add", "--config", "b", "--value", "50", "--baseline"],
                       env=env, check=True, capture_output=True)
        with (disk / "fill").open("wb") as fill, contextlib.suppress(OSError):
            while True:
                fill.write(b"\0" * 65536)
                fill.flush()
        for args in (["list", "--json"], ["show", "b-"], ["ask", "what's the baseline?"]) * 3:
            done = subprocess.run([SESSIONTUI, *args], env=env, capture_output=True, text=True)
            tally.tries += 1
            tally.failed += done.returncode != 0
            tally.tracebacks += done.stderr.count("Traceback")
            if args[0] == "list" and done.returncode == 0:
                tally.lost += len(json.loads(done.stdout)["records"]) != 1
    finally:
        subprocess.run(["umount", str(disk)], check=False)
    return tally


def symlinked_sync_file(folder: Path) -> Tally:
    """A committed `sessiontui-memory.toml` that links outside the work tree: `sync` must refuse
    and leave the file it points to as it was."""
    tally = Tally("sync through a committed symlink")
    repo, outside = folder / "clone", folder / "private.txt"
    repo.mkdir()
    outside.write_text("private\n")
    outside.chmod(0o600)
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], check=True)
    (repo / "sessiontui-memory.toml").symlink_to(outside)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "link"], check=True)
    env = {**os.environ, "SESSIONTUI_DIR": str(repo / ".sessiontui")}
    subprocess.run([SESSIONTUI, "note", "add", "mine"], cwd=repo, env=env, check=True,
                   capture_output=True)
    done = subprocess.run([SESSIONTUI, "sync"], cwd=repo, env=env, capture_output=True, text=True)
    tally.tries = 1
    tally.failed += done.returncode != 0  # refused, as it must be
    tally.tracebacks += done.stderr.count("Traceback")
    tally.lost += outside.read_text() != "private\n" or (outside.stat().st_mode & 0o777) != 0o600
    return tally


def non_regular_logs(folder: Path) -> Tally:
    """`watch` on /dev/zero and a FIFO, `serve` on a FIFO stopped by SIGTERM: each must end in
    about a second (not spin, not hang) with one line, never a traceback."""
    tally = Tally("non-regular logs (/dev/zero, FIFO; serve SIGTERM)")
    fifo = folder / "fifo"
    os.mkfifo(fifo)
    env = {**os.environ, "SESSIONTUI_DIR": str(folder / "logs-memory")}
    for log in ("/dev/zero", str(fifo)):
        tally.tries += 1
        try:
            done = subprocess.run([SESSIONTUI, "watch", "--log", log], env=env, capture_output=True,
                                  text=True, timeout=10)
            tally.tracebacks += done.stderr.count("Traceback")
        except subprocess.TimeoutExpired:
            tally.failed += 1  # it kept reading what is not a log
    serve = subprocess.Popen([SESSIONTUI, "serve", "--log", str(fifo), "--no-gpu", "--listen",
                              "127.0.0.1:0"], env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    time.sleep(2)  # let it start; a benchmark waits, a test would watch for its first line
    started = time.monotonic()
    serve.send_signal(signal.SIGTERM)
    try:
        _, err = serve.communicate(timeout=10)
        tally.failed += time.monotonic() - started > 1.0
        tally.tracebacks += err.count("Traceback")
    except subprocess.TimeoutExpired:
        serve.kill()
        tally.failed += 1
    tally.tries += 1
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--writers", type=int, default=8)
    parser.add_argument("--records", type=int, default=200, help="acknowledged writes per writer")
    parser.add_argument("--kill-every", type=float, default=0.2, help="mean seconds between kills")
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--edits", type=int, default=10, help="edits per field per process")
    parser.add_argument("--quick", action="store_true", help="the issue-29 attacks only")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="attacks-"))
    tallies = [concurrent_edits(folder, args.edits * 3, through_cli=False),
               concurrent_edits(folder, args.edits, through_cli=True), hostile_imports(folder),
               symlinked_sync_file(folder), non_regular_logs(folder), full_disk_reads(folder)]
    for tally in tallies:
        print(tally.line() if tally else "reads on a full disk: skipped (needs root to mount a tmpfs)")
    if args.quick:
        return
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
        print(f"quick_check on {count:>6} records ({mb:.1f} MB): {ms:.1f} ms, paid before a writing "
              f"connection's first write only when the file changed outside sessiontui")


if __name__ == "__main__":
    main()
