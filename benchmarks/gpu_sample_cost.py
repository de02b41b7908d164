"""Cost of one `GpuCollector.sample()` of all GPUs against the raw NVML calls it makes (target <= 2x).

    python benchmarks/gpu_sample_cost.py [--iterations 3000] [--no-load]

The raw calls are recorded from a real steady-state sample (every pynvml function it called, with the
same arguments), then replayed directly. Both are timed the same way: alternating, one sample per
timing, median of many. A matmul load runs meanwhile (unless --no-load) so process lists are not empty.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable

import pynvml
from gpu_live import start_load

from sessiontui.collectors.gpu import GpuCollector

Call = tuple[str, Callable, tuple]


def record_calls(collector: GpuCollector) -> list[Call]:
    """Every pynvml function one `sample()` calls (not pynvml's own inner calls), in order."""
    calls: list[Call] = []
    depth = 0
    originals = {
        name: fn for name, fn in vars(pynvml).items() if name.startswith("nvml") and callable(fn)
    }

    def recorder(name: str, fn: Callable) -> Callable:
        def record(*args):
            nonlocal depth
            if depth == 0:
                calls.append((name, fn, args))
            depth += 1
            try:
                return fn(*args)
            finally:
                depth -= 1

        return record

    for name, fn in originals.items():
        setattr(pynvml, name, recorder(name, fn))
    try:
        collector.sample()
    finally:
        for name, fn in originals.items():
            setattr(pynvml, name, fn)
    return calls


def replay(calls: list[Call]) -> None:
    """The raw NVML work of one sample, with nothing of ours around it."""
    for _, fn, args in calls:
        fn(*args)


def timed(action: Callable[[], object]) -> float:
    """Microseconds one call of `action` takes."""
    start = time.perf_counter_ns()
    action()
    return (time.perf_counter_ns() - start) / 1000.0


def summary(label: str, micros: list[float]) -> float:
    """Print median and spread; return the median."""
    q = statistics.quantiles(micros, n=10)
    median = statistics.median(micros)
    print(
        f"{label:<34} median {median:8.1f} us   p10 {q[0]:8.1f}   p90 {q[-1]:8.1f}   n={len(micros)}"
    )
    return median


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=3000)
    parser.add_argument("--no-load", action="store_true")
    args = parser.parse_args()
    load = None if args.no_load else start_load(seconds=300)

    collector = GpuCollector()
    first = timed(collector.sample)
    snapshot = collector.sample()
    if not snapshot.available:
        print(f"NVML not available: {snapshot.reason}")
        return 1
    print(
        f"{len(snapshot.gpus)} GPU(s): {[g.name for g in snapshot.gpus]}, driver {snapshot.driver}"
    )
    print(f"processes: {[(p.pid, p.name) for g in snapshot.gpus for p in g.processes]}")
    print(f"first sample (nvmlInit + handles + slow fields): {first:.0f} us")

    calls = record_calls(collector)
    names: dict[str, int] = {}
    for name, _, _ in calls:
        names[name] = names.get(name, 0) + 1
    print(f"raw calls per sample: {len(calls)} -> {names}")

    ours, raw = [], []
    for _ in range(args.iterations):
        ours.append(timed(collector.sample))
        raw.append(timed(lambda: replay(calls)))
    ours_median = summary("GpuCollector.sample()", ours)
    raw_median = summary("raw NVML calls (same calls)", raw)
    print(f"per raw call: {raw_median / len(calls):.2f} us")
    for name, fn, call_args in calls:  # where the raw time goes
        summary(f"  {name.removeprefix('nvmlDevice')}{call_args[1:]}",
                [timed(lambda fn=fn, call_args=call_args: fn(*call_args)) for _ in range(200)])
    print(f"RATIO sample/raw = {ours_median / raw_median:.2f}x (target <= 2x)")

    refreshing = GpuCollector(slow_every_s=0.0)
    refreshing.sample()
    summary("sample() with slow-field refresh", [timed(refreshing.sample) for _ in range(300)])
    refreshing.close()

    handle = pynvml.nvmlDeviceGetHandleByIndex(0)
    pcie = [
        timed(lambda: pynvml.nvmlDeviceGetPcieThroughput(handle, pynvml.NVML_PCIE_UTIL_TX_BYTES))
        for _ in range(10)
    ]
    summary("nvmlDeviceGetPcieThroughput (opt-in)", pcie)
    collector.close()
    if load is not None:
        load.kill()
        load.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
