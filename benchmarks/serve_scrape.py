"""`sessiontui serve` under a scrape storm: scrape latency and the follower's CPU and freshness,
quiet and with 100 clients scraping back to back.

A job stand-in appends a SpecForge step line every 0.1 s to a log that serve follows (1 s
cadence, GPUs sampled through NVML when there are any). In each window a probe scrapes every
0.37 s and notes the latency and how old the newest served step is (its write time vs now);
the follower is serve's main thread, whose CPU time psutil reads per thread. Everything runs on
127.0.0.1; every loop is bounded in count and time. `--gpu-load` runs the PyTorch matmul load of
gpu_live.py on GPU 0 throughout (a GPU host). Issue 17: the storm must not slow the followers.
Run: `.venv/bin/python benchmarks/serve_scrape.py [--seconds 20] [--clients 100] [--gpu-load]`.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

import psutil
from tui_cpu import SESSIONTUI

STEP_EVERY_S = 0.1
PROBE_EVERY_S = 0.37  # not a divisor of serve's 1 s cadence: probes see every phase of it
TOTAL_STEPS = 1_000_000
MAX_SCRAPES_PER_CLIENT = 100_000
STEP = re.compile(rb'^sessiontui_train_step\{[^}]*\} ([0-9.e+]+)$', re.M)


class Job(threading.Thread):
    """Appends a step line every STEP_EVERY_S and remembers when each step was written."""

    def __init__(self, log: Path) -> None:
        super().__init__(daemon=True)
        self.log, self.written, self.stop = log, {}, threading.Event()

    def run(self) -> None:
        with self.log.open("a", buffering=1) as out:
            for step in range(1, TOTAL_STEPS):
                if self.stop.wait(STEP_EVERY_S):
                    return
                out.write(f"Training: |#| {step}/{TOTAL_STEPS} [00:01<99:00, 10.0it/s]\n"
                          f"step {step}: {{'acc_0': 0.8, 'acc_1': 0.6, 'loss': 2.1, 'lr': 1e-4}}\n")
                self.written[step] = time.time()


@dataclass
class Window:
    latencies_ms: list[float] = field(default_factory=list)
    staleness_s: list[float] = field(default_factory=list)
    storm_scrapes: int = 0
    storm_errors: int = 0
    follower_cpu_pct: float = 0.0
    process_cpu_pct: float = 0.0


def scrape(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=10) as response:
        return bytes(response.read())


def storm(url: str, until: float, counts: list[int], errors: list[int], slot: int) -> None:
    """One client: scrape back to back until `until` (or MAX_SCRAPES_PER_CLIENT)."""
    for _ in range(MAX_SCRAPES_PER_CLIENT):
        if time.monotonic() >= until:
            return
        try:
            scrape(url)
            counts[slot] += 1
        except OSError:
            errors[slot] += 1


def cpu_seconds(process: psutil.Process) -> tuple[float, float]:
    """(follower thread, whole process) user+system CPU seconds."""
    follower = next(t for t in process.threads() if t.id == process.pid)
    times = process.cpu_times()
    return follower.user_time + follower.system_time, times.user + times.system


def measure(url: str, process: psutil.Process, job: Job, seconds: float, clients: int) -> Window:
    window = Window()
    until = time.monotonic() + seconds
    counts, errors = [0] * clients, [0] * clients
    threads = [threading.Thread(target=storm, args=(url, until, counts, errors, i), daemon=True)
               for i in range(clients)]
    for thread in threads:
        thread.start()
    start_cpu, start = cpu_seconds(process), time.monotonic()
    while time.monotonic() < until:
        began = time.perf_counter()
        body = scrape(url)
        window.latencies_ms.append(1000 * (time.perf_counter() - began))
        found = STEP.search(body)
        if found and int(float(found.group(1))) in job.written:
            window.staleness_s.append(time.time() - job.written[int(float(found.group(1)))])
        time.sleep(max(0.0, PROBE_EVERY_S - (time.perf_counter() - began)))
    end_cpu, wall = cpu_seconds(process), time.monotonic() - start
    for thread in threads:
        thread.join(15)
    window.follower_cpu_pct = 100 * (end_cpu[0] - start_cpu[0]) / wall
    window.process_cpu_pct = 100 * (end_cpu[1] - start_cpu[1]) / wall
    window.storm_scrapes, window.storm_errors = sum(counts), sum(errors)
    return window


def report(name: str, window: Window, seconds: float) -> None:
    lat = sorted(window.latencies_ms)
    p95 = lat[min(len(lat) - 1, int(0.95 * len(lat)))]
    print(f"{name:<22} probe latency median {statistics.median(lat):7.1f} ms  p95 {p95:7.1f} ms  "
          f"| newest step age median {statistics.median(window.staleness_s or [float('nan')]):.2f} s"
          f"  | follower thread CPU {window.follower_cpu_pct:5.1f}%  serve process CPU "
          f"{window.process_cpu_pct:6.1f}%  | storm {window.storm_scrapes / seconds:7.0f} "
          f"scrapes/s, {window.storm_errors} errors")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="length of each window")
    parser.add_argument("--clients", type=int, default=100, help="concurrent scrapers in the storm")
    parser.add_argument("--gpu-load", action="store_true", help="a PyTorch matmul load on GPU 0")
    args = parser.parse_args()
    load = None
    if args.gpu_load:
        from gpu_live import start_load

        load = start_load(seconds=3 * args.seconds + 60)
        print(f"PyTorch matmul load running (pid {load.pid})")
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "drafter" / "train.log"
        log.parent.mkdir()
        log.touch()
        job = Job(log)
        job.start()
        env = {**os.environ, "SESSIONTUI_DIR": str(Path(folder) / "memory"),
               "PYTHONUNBUFFERED": "1"}
        serve = subprocess.Popen([str(SESSIONTUI), "serve", "--log", str(log), "--listen",
                                  "127.0.0.1:0", "--interval", "1"], cwd=folder, env=env,
                                 stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            line = serve.stdout.readline() if serve.stdout else ""
            found = re.search(r"http://127\.0\.0\.1:\d+/metrics", line)
            if not found:
                raise SystemExit(f"serve did not start: {line!r}")
            url = found.group(0)
            time.sleep(3)  # caught up and following
            process = psutil.Process(serve.pid)
            print(f"serve {url}; job writes a step every {STEP_EVERY_S} s; "
                  f"{args.seconds:.0f} s per window; {os.cpu_count()} CPUs")
            quiet = measure(url, process, job, args.seconds, 0)
            report("quiet (probe only)", quiet, args.seconds)
            loud = measure(url, process, job, args.seconds, args.clients)
            report(f"{args.clients} concurrent clients", loud, args.seconds)
            ratio = statistics.median(loud.latencies_ms) / statistics.median(quiet.latencies_ms)
            print(f"probe latency under the storm: {ratio:.1f}x quiet; newest step age "
                  f"{statistics.median(loud.staleness_s):.2f} s vs "
                  f"{statistics.median(quiet.staleness_s):.2f} s quiet (1 s cadence)")
        finally:
            job.stop.set()
            serve.terminate()
            serve.wait(30)
            if load is not None:
                load.kill()


if __name__ == "__main__":
    main()
