"""Several writers at once, a writer killed mid-stream: nothing that was acknowledged is lost."""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
from pathlib import Path

from sessiontui.project_memory.records import Record
from sessiontui.project_memory.store import Store

WRITER = """
import sys
from sessiontui.project_memory.records import Record
from sessiontui.project_memory.store import Store
store = Store(sys.argv[1])
i = 0
while True:
    record = store.add(Record(kind="benchmark", config=f"w{i}", value=float(i + 1)))
    print(record.id, flush=True)
    i += 1
"""


def _add_many(path: str, worker: int, count: int) -> None:
    with Store(path) as store:
        for i in range(count):
            store.add(Record(kind="benchmark", config=f"worker {worker} #{i}", value=float(i + 1)))


def test_four_processes_adding_at_once_lose_nothing(tmp_path: Path) -> None:
    path = str(tmp_path / "memory.db")
    ctx = multiprocessing.get_context("spawn")
    workers = [ctx.Process(target=_add_many, args=(path, w, 250)) for w in range(4)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(timeout=300)
        assert w.exitcode == 0
    with Store(path) as store:
        assert store.count() == 1000
        assert len({r.config for r in store.list()}) == 1000
        assert store.integrity_check() == "ok"


def test_writer_killed_with_sigkill_keeps_every_acknowledged_record(tmp_path: Path) -> None:
    path = str(tmp_path / "memory.db")
    proc = subprocess.Popen([sys.executable, "-c", WRITER, path], stdout=subprocess.PIPE, text=True)
    acknowledged = [proc.stdout.readline().strip() for _ in range(200)]
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    with Store(path) as store:
        stored = {r.id for r in store.list()}
        assert set(acknowledged) <= stored
        assert store.integrity_check() == "ok"
