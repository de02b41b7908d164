"""Several writers at once, a writer killed mid-stream: nothing that was acknowledged is lost."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

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


ADD_MANY = """
import sys
from sessiontui.project_memory.records import Record
from sessiontui.project_memory.store import Store
with Store(sys.argv[1]) as store:
    for i in range(250):
        store.add(Record(kind="benchmark", config=f"worker {sys.argv[2]} #{i}", value=float(i + 1)))
"""


def test_four_processes_adding_at_once_lose_nothing(tmp_path: Path) -> None:
    # Separate interpreters, not multiprocessing: a spawned child would have to import this test
    # module by name, which --import-mode=importlib does not guarantee.
    path = str(tmp_path / "memory.db")
    workers = [subprocess.Popen([sys.executable, "-c", ADD_MANY, path, str(w)]) for w in range(4)]
    for w in workers:
        assert w.wait(timeout=300) == 0
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
