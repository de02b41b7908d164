"""Device proof for issue 5: the GPU collector watching a PyTorch matmul load, or recording a trace.

python benchmarks/gpu_live.py                       # prove: util > 0 and the load's PID listed
python benchmarks/gpu_live.py --trace T.jsonl       # record ~60 s of snapshots while loads come
                                                    # and go (the demo replays it)
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

from sessiontui.collectors.gpu import GpuCollector
from sessiontui.tui.commands.gpu import render_table

# A bf16 matmul loop busy `duty` of the time, holding `hold_gib` extra memory, for `seconds`.
_LOAD = r"""
import sys, time, torch
size, seconds, duty, hold_gib = int(sys.argv[1]), float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
a = torch.randn(size, size, device="cuda", dtype=torch.bfloat16)
b = torch.randn_like(a)
held = torch.empty(int(hold_gib * 2**30), dtype=torch.uint8, device="cuda")
torch.cuda.synchronize()
print("ready", flush=True)
end = time.time() + seconds
while time.time() < end:
    start = time.time()
    for _ in range(10):
        c = a @ b
    torch.cuda.synchronize()
    busy = time.time() - start
    time.sleep(busy * (1 - duty) / duty)
"""


def start_load(
    seconds: float, *, size: int = 8192, duty: float = 1.0, hold_gib: float = 0.0, wait: bool = True
) -> subprocess.Popen:
    """Start one load process; with `wait`, return only once its tensors are on the GPU."""
    load = subprocess.Popen(
        [sys.executable, "-c", _LOAD, str(size), str(seconds), str(duty), str(hold_gib)],
        stdout=subprocess.PIPE,
        text=True,
    )
    if wait and load.stdout.readline().strip() != "ready":
        raise SystemExit(f"load process {load.pid} did not start (exit {load.wait()})")
    return load


def prove(samples: int = 10, every_s: float = 0.5) -> int:
    """Sample while a load runs; exit 0 only if util > 0 and the load's PID is listed by name."""
    collector = GpuCollector()
    print("idle:", render_table(collector.sample()))
    load = start_load(seconds=samples * every_s + 5)
    best_util, listed = 0.0, None
    for _ in range(samples):
        time.sleep(every_s)
        snapshot = collector.sample()
        print(f"t={snapshot.at:.1f}", render_table(snapshot), sep="\n")
        for gpu in snapshot.gpus:
            best_util = max(best_util, gpu.util_pct or 0.0)
            listed = listed or next((p for p in gpu.processes if p.pid == load.pid), None)
    load.kill()
    load.wait()
    collector.close()
    ok = best_util > 0 and listed is not None
    print(f"load pid={load.pid}; max util={best_util}%; listed as {listed}")
    print("PROOF OK" if ok else "PROOF FAILED")
    return 0 if ok else 1


# (start s, seconds, matmul size, duty, extra GiB held): two loads overlap in the second half.
_SCHEDULE = ((5, 20, 8192, 1.0, 24.0), (32, 20, 4096, 0.4, 8.0), (40, 14, 8192, 1.0, 48.0))


def record(path: Path, seconds: float, every_s: float) -> int:
    """Write a JSONL trace of snapshots at `every_s` while the scheduled loads start and stop."""
    collector = GpuCollector()
    began = time.monotonic()
    pending, running = list(_SCHEDULE), []
    with path.open("w") as trace:
        for tick in range(int(seconds / every_s)):
            now = time.monotonic() - began
            while pending and pending[0][0] <= now:
                _, length, size, duty, hold = pending.pop(0)
                running.append(start_load(length, size=size, duty=duty, hold_gib=hold, wait=False))
            snapshot = collector.sample()
            trace.write(json.dumps(snapshot.to_dict()) + "\n")
            if tick % 5 == 0:
                print(f"{now:5.1f}s", render_table(snapshot), sep="\n", flush=True)
            time.sleep(max(0.0, began + (tick + 1) * every_s - time.monotonic()))
    for load in running:
        load.kill()
        load.wait()
    collector.close()
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trace", type=Path, help="record a JSONL trace here instead of proving")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--every", type=float, default=1.0)
    args = parser.parse_args()
    return record(args.trace, args.seconds, args.every) if args.trace else prove()


if __name__ == "__main__":
    sys.exit(main())
