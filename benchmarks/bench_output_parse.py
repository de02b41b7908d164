"""Cost of reading benchmark results out of captured output, against `grep -c` on the same text.

Builds an SGLang server log of N `Decode batch,` lines (sglang 0.5.x layout, DP prefixes) with an
access-log line after each, the worst case for `record` (every line is looked at by every format),
then times `parse_benchmark_output` on it and on one `vllm bench serve` block, and prints MB/s;
then time and peak memory of a periodic log the generic reader reads (vLLM engine lines, a fifth as
many), then the time per block of outputs holding 100, 1k and 10k result blocks (linear: flat
ms/block).
Usage: python benchmarks/bench_output_parse.py [--lines 100000] [--blocks 100 1000 10000]
"""

from __future__ import annotations

import argparse
import subprocess
import tempfile
import time
import tracemalloc
from pathlib import Path

from sessiontui.collectors.bench_output import parse_benchmark_output

FIXTURES = Path(__file__).parents[1] / "tests" / "fixtures" / "bench"
REPEATS = 3
BLOCK_FIXTURES = ("sglang_bench_serving.txt", "vllm_bench_serve.txt", "trtllm_bench_streaming.txt")


def server_log(lines: int) -> bytes:
    """A busy SGLang server log: decode lines with varying figures, each followed by an access line."""
    rows = []
    for i in range(lines):
        rows.append(
            f"[2026-03-04 15:{i // 3600 % 60:02d}:{i % 60:02d} DP{i % 2} TP0] Decode batch, "
            f"#running-req: {1 + i % 8}, #token: {1000 + i % 5000}, token usage: 0.01, "
            f"accept len: {2.5 + (i % 10) / 10:.2f}, accept rate: 0.55, cuda graph: True, "
            f"gen throughput (token/s): {170 + i % 30:.2f}, #queue-req: 0, \n"
            '[2026-03-04 15:13:30] INFO:     127.0.0.1:51234 - "POST /generate HTTP/1.1" 200 OK\n'
        )
    return "".join(rows).encode()


def best_of(run, repeats: int = REPEATS) -> float:
    """Fastest wall time of `repeats` calls, in seconds."""
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=100_000)
    parser.add_argument("--blocks", type=int, nargs="+", default=[100, 1000, 10000],
                        help="numbers of result blocks to time (issue 29: linear growth)")
    args = parser.parse_args()
    data = server_log(args.lines)
    megabytes = len(data) / 1e6
    ours = best_of(lambda: parse_benchmark_output(data))
    with tempfile.NamedTemporaryFile(suffix=".log") as tmp:
        tmp.write(data)
        tmp.flush()
        grep = best_of(
            lambda: subprocess.run(
                ["grep", "-c", "Decode batch", tmp.name], capture_output=True, check=False
            )
        )
    print(f"server log: {megabytes:.1f} MB, {args.lines} decode lines")
    print(f"  parse_benchmark_output {ours:.2f} s ({megabytes / ours:.1f} MB/s)")
    print(f"  grep -c                {grep:.3f} s ({ours / grep:.0f}x faster than us)")
    block = (FIXTURES / "vllm_bench_serve.txt").read_bytes()
    per_block = best_of(lambda: [parse_benchmark_output(block) for _ in range(100)]) / 100
    print(f"one vllm bench serve block ({len(block)} B): {per_block * 1e3:.2f} ms")
    engine_log(args.lines // 5)
    many_blocks(args.blocks)


def engine_log(lines: int) -> None:
    """Time and peak memory (tracemalloc, a multiple of the input's size) of a periodic log no
    recogniser knows, read line by line by the generic reader: vLLM's `Engine 000:` lines."""
    data = "".join(
        f"(APIServer pid=1) INFO 09-16 05:{i // 60 % 60:02d}:{i % 60:02d} [loggers.py:123] Engine 000:"
        f" Avg prompt throughput: {i % 7 * 10.0:.1f} tokens/s, Avg generation throughput:"
        f" {190 + i % 20:.1f} tokens/s, Running: {1 + i % 4} reqs, Waiting: 0 reqs, GPU KV cache"
        f" usage: 0.4%, Prefix cache hit rate: 0.0%\n" for i in range(lines)).encode()
    seconds = best_of(lambda: parse_benchmark_output(data), repeats=1)
    tracemalloc.start()
    parse_benchmark_output(data)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    megabytes = len(data) / 1e6
    print(f"engine log (generic reader): {megabytes:.1f} MB, {lines} lines: {seconds:.2f} s "
          f"({megabytes / seconds:.1f} MB/s), peak memory {peak / len(data):.1f}x its size")


def many_blocks(sizes: list[int]) -> None:
    """Time per result block for outputs of N blocks of each layout: it must not grow with N (a
    search from the start of the output for every block made 5,000 blocks take 187 s)."""
    for name in BLOCK_FIXTURES:
        block = (FIXTURES / name).read_bytes()
        timings = []
        for count in sizes:
            data = block * count
            seconds = best_of(lambda data=data: parse_benchmark_output(data), repeats=1)
            timings.append(f"{count} blocks {seconds / count * 1e3:.2f} ms/block")
        print(f"{name}: " + ", ".join(timings))


if __name__ == "__main__":
    main()
