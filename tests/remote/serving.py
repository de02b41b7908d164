"""Helpers for tests that start real `sessiontui serve` processes on loopback ports."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.conftest import sessiontui_command

WAIT_S = 30  # upper bound for a serve process to start or to pick a change up; never timed


def specforge(first: int, last: int, total: int) -> str:
    """`specforge train` step dicts with a tqdm bar carrying the total."""
    return "".join(
        f"Training: {step * 100 // total:3d}%|##   | {step}/{total} [00:{step % 60:02d}<01:00, "
        f"2.50it/s, loss={3 - step / 100:.3f}]\n"
        f"step {step}: {{'acc_0': {0.7 + step / 1000:.4f}, 'acc_1': 0.5, 'loss': "
        f"{3 - step / 100:.4f}, 'lr': 0.0002}}\n"
        for step in range(first, last + 1)
    )


class Served:
    """One `sessiontui serve` process and the address it listens on."""

    def __init__(self, process: subprocess.Popen, port: int) -> None:
        self.process, self.port = process, port
        self.url = f"http://127.0.0.1:{port}/metrics"

    def text(self) -> str:
        with urllib.request.urlopen(self.url, timeout=5) as response:
            return response.read().decode()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(WAIT_S)


def wait_for(condition: Callable[[], object], what: str) -> object:
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.fixture
def serve(memory_dir: Path, tmp_path: Path) -> Iterator[Callable[..., Served]]:
    started: list[Served] = []

    def start(*logs: Path, port: int = 0) -> Served:
        args = [f"--log={log}" for log in logs]
        env = {**os.environ, "SESSIONTUI_DIR": str(memory_dir), "PYTHONUNBUFFERED": "1"}
        process = subprocess.Popen(
            [*sessiontui_command(), "serve", *args, "--listen", f"127.0.0.1:{port}",
             "--interval", "0.2", "--no-gpu"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path,
        )
        line = process.stdout.readline() if process.stdout else ""
        found = re.search(r"http://127\.0\.0\.1:(\d+)/metrics", line)
        assert found, f"serve did not start: {line!r} {process.stderr.read() if process.stderr else ''}"
        served = Served(process, int(found.group(1)))
        started.append(served)
        return served

    yield start
    for served in started:
        served.stop()


