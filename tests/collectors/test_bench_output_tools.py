"""Result blocks built from each tool's own printing code (format strings across versions), read
as `record --from` reads them: the headline figure, concurrency, accept length and named figures.

Each case names the source its text was built from; the numbers are made up, the layout is the
tool's. A miss here is fixed by a general rule in the generic reader, not a per-tool recogniser.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any

import pytest

from sessiontui.collectors.bench_output import derive_config_name, read_benchmark_output
from sessiontui.collectors.recording import implausible


@dataclass(frozen=True)
class Case:
    """One tool's printed result and what a careful engineer reads from it."""

    tool: str
    source: str  # the printing code the text follows
    text: str
    value: float
    metric: str = "output_tok_s"
    index: int = 0  # which record holds the headline (llama-bench prints pp then tg)
    concurrency: int | None = None
    accept_length: float | None = None
    figures: dict[str, float] = field(default_factory=dict)


# vllm/benchmarks/serve.py print_metrics: `{:<40} {:<10}` / `{:<40} {:<10.2f}` lines
_VLLM_SERVE = (
    '============ Serving Benchmark Result ============\n'
    'Successful requests:                     1000      \n'
    'Maximum request concurrency:             64        \n'
    'Benchmark duration (s):                  52.31     \n'
    'Total input tokens:                      215196    \n'
    'Total generated tokens:                  197034    \n'
    'Request throughput (req/s):              19.12     \n'
    'Request goodput (req/s):                 10.05     \n'
    'Output token throughput (tok/s):         3766.80   \n'
    'Peak output token throughput (tok/s):    5012.00   \n'
    'Peak concurrent requests:                128.00    \n'
    'Total Token throughput (tok/s):          7880.79   \n'
    '---------------Time to First Token----------------\n'
    'Mean TTFT (ms):                          1234.56   \n'
    'Median TTFT (ms):                        1100.00   \n'
    'P99 TTFT (ms):                           3000.00   \n'
    '-----Time per Output Token (excl. 1st token)------\n'
    'Mean TPOT (ms):                          50.00     \n'
    'Median TPOT (ms):                        48.00     \n'
    'P99 TPOT (ms):                           90.00     \n'
    '---------------Inter-token Latency----------------\n'
    'Mean ITL (ms):                           45.00     \n'
    'Median ITL (ms):                         40.00     \n'
    'P99 ITL (ms):                            120.00    \n'
    '==================================================\n'
)
_VLLM_SPEC_SECTION = (
    '---------------Speculative Decoding---------------\n'
    'Acceptance rate (%):                     61.20     \n'
    'Acceptance length:                       2.84      \n'
    'Drafts:                                  40000     \n'
    'Draft tokens:                            120000    \n'
    'Accepted tokens:                         73440     \n'
    'Per-position acceptance (%):\n'
    '  Position 0:                            80.10     \n'
    '  Position 1:                            60.20     \n'
    '  Position 2:                            43.30     \n'
    '==================================================\n'
)

CASES = [
    Case('vllm-serve',
         'vllm/benchmarks/serve.py print_metrics {:<40} {:<10.2f}',
         _VLLM_SERVE,
         value=3766.8, concurrency=64, figures={'request_throughput': 19.12, 'total_tok_s': 7880.79, 'ttft_ms_p99': 3000.0}),
    Case('vllm-serve-spec',
         'vllm/benchmarks/serve.py spec decode section',
         _VLLM_SERVE.replace("=" * 50 + "\n", _VLLM_SPEC_SECTION),
         value=3766.8, concurrency=64, accept_length=2.84),
    Case('vllm-throughput-new',
         "vllm benchmarks/benchmark_throughput.py f'Throughput: {:.2f} requests/s, {:.2f} total tokens/s, {:.2f} output tokens/s'",
         (
        'Processed prompts: 100%|██████████| 1000/1000 [00:30<00:00, 33.00it/s]\n'
        'Throughput: 32.95 requests/s, 15234.56 total tokens/s, 7123.45 output tokens/s\n'
        'Total num prompt tokens:  215196\n'
        'Total num output tokens:  197034\n'
    ),
         value=7123.45, figures={'request_throughput': 32.95, 'total_tok_s': 15234.56}),
    Case('vllm-throughput-old',
         "vllm benchmarks/benchmark_throughput.py (0.2-0.5) f'Throughput: {:.2f} requests/s, {:.2f} tokens/s'",
         (
        'Throughput: 8.04 requests/s, 3850.71 tokens/s\n'
    ),
         value=3850.71, metric='total_tok_s', figures={'request_throughput': 8.04}),
    Case('vllm-latency',
         "vllm benchmarks/benchmark_latency.py f'Avg latency: {np.mean(latencies)} seconds' + f'{percentage}% percentile latency: {percentile} seconds'",
         (
        'Profiling iterations: 100%|██████████| 30/30 [00:40<00:00,  1.35s/it]\n'
        'Avg latency: 1.3512345678901234 seconds\n'
        '10% percentile latency: 1.3401 seconds\n'
        '25% percentile latency: 1.3456 seconds\n'
        '50% percentile latency: 1.3500 seconds\n'
        '75% percentile latency: 1.3560 seconds\n'
        '90% percentile latency: 1.3600 seconds\n'
        '99% percentile latency: 1.3700 seconds\n'
    ),
         value=1.3512345678901234, metric='latency_s'),
    Case('vllm-v0-spec',
         "vllm/engine/metrics.py (0.4-0.6) logger.info('Speculative metrics: Draft acceptance rate: %.3f, System efficiency: %.3f, Number of speculative tokens: %d, ...')",
         (
        'INFO 08-02 10:00:00 metrics.py:396] Speculative metrics: Draft acceptance rate: 0.650, System efficiency: 0.550, Number of speculative tokens: 4, Number of accepted tokens: 6500, Number of draft tokens: 10000, Number of emitted tokens: 11000.\n'
    ),
         value=4.4, metric='accept_length', accept_length=4.4),
    Case('vllm-v1-spec-0.8',
         "vllm/v1/spec_decode/metrics.py (0.8) 'SpecDecoding metrics: Draft acceptance rate: %.1f%%, Mean acceptance length: %.2f, Accepted: %d tokens, Drafted: %d tokens, Per-position acceptance rate: %s'",
         (
        'INFO 04-10 12:00:01 [metrics.py:82] SpecDecoding metrics: Draft acceptance rate: 61.3%, Mean acceptance length: 2.84, Accepted: 1839 tokens, Drafted: 3000 tokens, Per-position acceptance rate: 0.800, 0.613, 0.426\n'
        'INFO 04-10 12:00:11 [metrics.py:82] SpecDecoding metrics: Draft acceptance rate: 61.3%, Mean acceptance length: 2.84, Accepted: 1839 tokens, Drafted: 3000 tokens, Per-position acceptance rate: 0.800, 0.613, 0.426\n'
    ),
         value=2.84, metric='accept_length', accept_length=2.84),
    Case('vllm-v1-spec-0.10',
         'vllm/v1/spec_decode/metrics.py (0.9+) Mean acceptance length / Accepted throughput / Drafted throughput / Avg Draft acceptance rate',
         (
        '(APIServer pid=1) INFO 09-01 12:00:01 [metrics.py:96] SpecDecoding metrics: Mean acceptance length: 2.84, Accepted throughput: 120.50 tokens/s, Drafted throughput: 196.20 tokens/s, Accepted: 1205 tokens, Drafted: 1962 tokens, Per-position acceptance rate: 0.800, 0.613, 0.426, Avg Draft acceptance rate: 61.4%\n'
        '(APIServer pid=1) INFO 09-01 12:00:11 [metrics.py:96] SpecDecoding metrics: Mean acceptance length: 2.84, Accepted throughput: 120.50 tokens/s, Drafted throughput: 196.20 tokens/s, Accepted: 1205 tokens, Drafted: 1962 tokens, Per-position acceptance rate: 0.800, 0.613, 0.426, Avg Draft acceptance rate: 61.4%\n'
    ),
         value=2.84, metric='accept_length', accept_length=2.84),
    Case('sglang-serve',
         'sglang/bench_serving.py {:<40} {:<10.2f} incl. Accept length',
         (
        '============ Serving Benchmark Result ============\n'
        'Backend:                                 sglang    \n'
        'Traffic request rate:                    inf       \n'
        'Max request concurrency:                 16        \n'
        'Successful requests:                     80        \n'
        'Benchmark duration (s):                  30.12     \n'
        'Total input tokens:                      20000     \n'
        'Total generated tokens:                  40000     \n'
        'Total generated tokens (retokenized):    39990     \n'
        'Request throughput (req/s):              2.66      \n'
        'Input token throughput (tok/s):          664.01    \n'
        'Output token throughput (tok/s):         1328.02   \n'
        'Total token throughput (tok/s):          1992.03   \n'
        'Concurrency:                             15.80     \n'
        'Accept length:                           3.21      \n'
        '----------------End-to-End Latency----------------\n'
        'Mean E2E Latency (ms):                   5900.00   \n'
        'Median E2E Latency (ms):                 5800.00   \n'
        '---------------Time to First Token----------------\n'
        'Mean TTFT (ms):                          100.00    \n'
        'Median TTFT (ms):                        90.00     \n'
        'P99 TTFT (ms):                           300.00    \n'
        '==================================================\n'
    ),
         value=1328.02, concurrency=16, accept_length=3.21),
    Case('sglang-one-batch',
         "sglang/bench_one_batch.py rank_print(f'Decode.  median latency: ... median throughput: {:9.2f} token/s')",
         (
        'Prefill. latency: 0.03456 s, throughput:   3703.70 token/s\n'
        'Decode 0. Batch size: 1, latency: 0.01050 s, throughput:     95.24 token/s\n'
        'Decode 1. Batch size: 1, latency: 0.00806 s, throughput:    124.07 token/s\n'
        'Decode.  median latency: 0.00806 s, median throughput:    124.03 token/s\n'
        'Total. latency:  1.066 s, throughput:    240.12 token/s\n'
    ),
         value=124.03),
    Case('sglang-offline',
         'sglang/bench_offline_throughput.py Offline Throughput Benchmark Result',
         (
        '====== Offline Throughput Benchmark Result =======\n'
        'Backend:                                 engine    \n'
        'Successful requests:                     1000      \n'
        'Benchmark duration (s):                  60.00     \n'
        'Total input tokens:                      300000    \n'
        'Total generated tokens:                  200000    \n'
        'Last generation throughput (tok/s):      3000.00   \n'
        'Request throughput (req/s):              16.67     \n'
        'Input token throughput (tok/s):          5000.00   \n'
        'Output token throughput (tok/s):         3333.33   \n'
        'Total token throughput (tok/s):          8333.33   \n'
        '==================================================\n'
    ),
         value=3333.33, figures={'request_throughput': 16.67}),
    Case('sglang-server-decode',
         "sglang/srt/managers/scheduler.py f'Decode batch. #running-req: {}, #token: {}, token usage: {:.2f}, accept len: {:.2f}, gen throughput (token/s): {:.2f}, #queue-req: {}'",
         (
        '[2025-03-01 10:00:00 TP0] Decode batch. #running-req: 8, #token: 5000, token usage: 0.05, accept len: 3.10, gen throughput (token/s): 400.00, #queue-req: 0\n'
        '[2025-03-01 10:00:01 TP0] Decode batch. #running-req: 8, #token: 5300, token usage: 0.05, accept len: 3.20, gen throughput (token/s): 410.00, #queue-req: 0\n'
        '[2025-03-01 10:00:02 TP0] Decode batch. #running-req: 8, #token: 5600, token usage: 0.05, accept len: 3.30, gen throughput (token/s): 420.00, #queue-req: 0\n'
    ),
         value=410.0, concurrency=8, accept_length=3.2),
    Case('sglang-server-decode-new',
         "sglang scheduler (0.4.6+) 'Decode batch, #running-req: ..., accept len: ..., accept rate: ..., cuda graph: True, gen throughput (token/s): ...'",
         (
        '[2025-08-01 10:00:00 DP0 TP0] Decode batch, #running-req: 8, #token: 5000, token usage: 0.05, accept len: 3.10, accept rate: 0.52, cuda graph: True, gen throughput (token/s): 400.00, #queue-req: 0, \n'
        '[2025-08-01 10:00:01 DP0 TP0] Decode batch, #running-req: 8, #token: 5300, token usage: 0.05, accept len: 3.20, accept rate: 0.55, cuda graph: True, gen throughput (token/s): 410.00, #queue-req: 0, \n'
        '[2025-08-01 10:00:02 DP0 TP0] Decode batch, #running-req: 8, #token: 5600, token usage: 0.05, accept len: 3.30, accept rate: 0.57, cuda graph: True, gen throughput (token/s): 420.00, #queue-req: 0, \n'
    ),
         value=410.0, concurrency=8, accept_length=3.2),
    Case('sglang-mtbench-eagle',
         "sglang benchmark/mtbench/bench_sglang_eagle.py print(f'Latency: {latency:.3f} s') ... Output throughput ... Accept length",
         (
        'Latency: 50.123 s\n'
        'Output throughput: 654.321 token/s\n'
        'Accept length: 3.456\n'
    ),
         value=654.321, accept_length=3.456),
    Case('llama-perf',
         "llama.cpp src/llama-context.cpp llama_perf_context_print LLAMA_LOG_INFO('%s:        eval time = %10.2f ms / %5d runs   (%8.2f ms per token, %8.2f tokens per second)')",
         (
        'llama_perf_sampler_print:    sampling time =       5.10 ms /   128 runs   (    0.04 ms per token, 25098.04 tokens per second)\n'
        'llama_perf_context_print:        load time =    1000.00 ms\n'
        'llama_perf_context_print: prompt eval time =     120.00 ms /    24 tokens (    5.00 ms per token,   200.00 tokens per second)\n'
        'llama_perf_context_print:        eval time =    2540.00 ms /   127 runs   (   20.00 ms per token,    50.00 tokens per second)\n'
        'llama_perf_context_print:       total time =    2700.00 ms /   151 tokens\n'
    ),
         value=50.0, figures={'prompt_tok_s': 200.0}),
    Case('llama-print-timings',
         'llama.cpp (2023) llama_print_timings',
         (
        'llama_print_timings:        load time =   1000.00 ms\n'
        'llama_print_timings:      sample time =      5.10 ms /   128 runs   (    0.04 ms per token, 25098.04 tokens per second)\n'
        'llama_print_timings: prompt eval time =    120.00 ms /    24 tokens (    5.00 ms per token,   200.00 tokens per second)\n'
        'llama_print_timings:        eval time =   2540.00 ms /   127 runs   (   20.00 ms per token,    50.00 tokens per second)\n'
        'llama_print_timings:       total time =   2700.00 ms\n'
    ),
         value=50.0, figures={'prompt_tok_s': 200.0}),
    Case('llama-server-timings',
         "llama.cpp tools/server print_timings: 'prompt eval time = %10.2f ms / %5d tokens (%8.2f ms per token, %8.2f tokens per second)'",
         (
        'slot print_timing: id  0 | task 0 | \n'
        'prompt eval time =     120.00 ms /    24 tokens (    5.00 ms per token,   200.00 tokens per second)\n'
        '       eval time =    2540.00 ms /   127 tokens (   20.00 ms per token,    50.00 tokens per second)\n'
        '      total time =    2660.00 ms /   151 tokens\n'
    ),
         value=50.0),
    Case('llama-batched-bench',
         "llama.cpp batched-bench '|%6d | %6d | %4d | %6d | %8.3f | %8.2f | ...'",
         (
        'main: n_kv_max = 4096, n_batch = 2048, n_ubatch = 512, flash_attn = 0, is_pp_shared = 0, n_gpu_layers = 99, n_threads = 8, n_threads_batch = 8\n'
        '\n'
        '|    PP |     TG |    B |   N_KV |   T_PP s | S_PP t/s |   T_TG s | S_TG t/s |      T s |    S t/s |\n'
        '|-------|--------|------|--------|----------|----------|----------|----------|----------|----------|\n'
        '|   512 |    128 |    1 |    640 |    0.250 |  2048.00 |    1.280 |   100.00 |    1.530 |   418.30 |\n'
    ),
         value=100.0, concurrency=1),
    Case('llama-bench-md',
         'llama.cpp llama-bench markdown printer',
         (
        '| model                          |       size |     params | backend    | ngl |          test |                  t/s |\n'
        '| ------------------------------ | ---------: | ---------: | ---------- | --: | ------------: | -------------------: |\n'
        '| llama 8B Q4_K - Medium         |   4.58 GiB |     8.03 B | CUDA       |  99 |         pp512 |      5000.12 ± 20.00 |\n'
        '| llama 8B Q4_K - Medium         |   4.58 GiB |     8.03 B | CUDA       |  99 |         tg128 |        120.34 ± 0.50 |\n'
        '\n'
        'build: 1234abcd (4000)\n'
    ),
         value=120.34, index=1, concurrency=1),
    Case('ollama-verbose',
         "ollama cmd/cmd.go displayResponse/Summary: 'eval rate:            %.2f tokens/s'",
         (
        'total duration:       5.6123s\n'
        'load duration:        12.345ms\n'
        'prompt eval count:    26 token(s)\n'
        'prompt eval duration: 123.456ms\n'
        'prompt eval rate:     210.60 tokens/s\n'
        'eval count:           298 token(s)\n'
        'eval duration:        5.4s\n'
        'eval rate:            55.19 tokens/s\n'
    ),
         value=55.19, figures={'prompt_tok_s': 210.6}),
    Case('lmdeploy-profile-throughput',
         "lmdeploy benchmark/profile_throughput.py print(f'token throughput (completion token): {:.3f} token/s')",
         (
        '--------------------------------------------------\n'
        'concurrency: 256\n'
        'elapsed_time: 125.934s\n'
        '\n'
        'first token latency(s)(min, max, ave): 0.042, 8.452, 1.253\n'
        'per-token latency(s) percentile(50, 75, 95, 99): [0.06, 0.07, 0.13, 0.35]\n'
        '\n'
        'number of prompt tokens: 248339\n'
        'number of completion tokens: 240582\n'
        'token throughput (completion token): 1910.396 token/s\n'
        'token throughput (prompt + completion token): 3882.387 token/s\n'
        'RPS (request per second): 7.940 req/s\n'
        'RPM (request per minute): 476.405 req/min\n'
        '--------------------------------------------------\n'
    ),
         value=1910.396, concurrency=256, figures={'total_tok_s': 3882.387, 'request_throughput': 7.94}),
    Case('jetstream',
         "JetStream benchmarks/benchmark_serving.py print(f'Output token throughput: {metrics.output_throughput:.2f} tokens/s')",
         (
        'Successful requests: 1000\n'
        'Benchmark duration: 123.45 s\n'
        'Total input tokens: 220000\n'
        'Total generated tokens: 190000\n'
        'Request throughput: 8.10 requests/s\n'
        'Input token throughput: 1782.10 tokens/s\n'
        'Output token throughput: 1539.08 tokens/s\n'
        'Mean TTFT: 1234.50 ms\n'
        'Median TTFT: 1100.20 ms\n'
        'P99 TTFT: 3000.10 ms\n'
        'Mean TPOT: 50.10 ms\n'
        'Median TPOT: 48.20 ms\n'
        'P99 TPOT: 90.30 ms\n'
    ),
         value=1539.08, figures={'request_throughput': 8.1, 'ttft_ms_p99': 3000.1}),
    Case('genai-perf-table',
         'genai-perf export console (rich table, 0.0.x)',
         (
        '                                 LLM Metrics                                  \n'
        '┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━┳━━━━━━━━┳━━━━━━━━┳━━━━━━━━┳━━━━━━━━┳━━━━━━━━┓\n'
        '┃                         Statistic ┃    avg ┃    min ┃    max ┃    p99 ┃    p90 ┃    p75 ┃\n'
        '┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━╇━━━━━━━━╇━━━━━━━━╇━━━━━━━━╇━━━━━━━━╇━━━━━━━━┩\n'
        '│          Time to first token (ms) │  16.26 │  12.39 │  17.25 │  17.09 │  16.68 │  16.56 │\n'
        '│          Inter token latency (ms) │   1.85 │   1.55 │   2.04 │   2.02 │   1.97 │   1.92 │\n'
        '│              Request latency (ms) │ 499.20 │ 451.01 │ 554.61 │ 548.69 │ 526.13 │ 514.19 │\n'
        '│            Output sequence length │ 261.90 │ 256.00 │ 298.00 │ 296.60 │ 270.00 │ 265.00 │\n'
        '│             Input sequence length │ 550.06 │ 550.00 │ 553.00 │ 551.60 │ 550.00 │ 550.00 │\n'
        '│ Output token throughput (per sec) │ 520.87 │    N/A │    N/A │    N/A │    N/A │    N/A │\n'
        '│      Request throughput (per sec) │   1.99 │    N/A │    N/A │    N/A │    N/A │    N/A │\n'
        '└───────────────────────────────────┴────────┴────────┴────────┴────────┴────────┴────────┘\n'
    ),
         value=520.87, figures={'request_throughput': 1.99}),
    Case('genai-perf-table-new',
         "genai-perf (0.0.8+) 'NVIDIA GenAI-Perf | LLM Metrics', Output Token Throughput (tokens/sec)",
         (
        '                              NVIDIA GenAI-Perf | LLM Metrics                              \n'
        '┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━┳━━━━━━━━┳━━━━━━━━┳━━━━━━━━┳━━━━━━━━┳━━━━━━━━┓\n'
        '┃                            Statistic ┃    avg ┃    min ┃    max ┃    p99 ┃    p90 ┃    p75 ┃\n'
        '┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━╇━━━━━━━━╇━━━━━━━━╇━━━━━━━━╇━━━━━━━━╇━━━━━━━━┩\n'
        '│             Time To First Token (ms) │  16.26 │  12.39 │  17.25 │  17.09 │  16.68 │  16.56 │\n'
        '│            Inter Token Latency (ms) │   1.85 │   1.55 │   2.04 │   2.02 │   1.97 │   1.92 │\n'
        '│                 Request Latency (ms) │ 499.20 │ 451.01 │ 554.61 │ 548.69 │ 526.13 │ 514.19 │\n'
        '│     Output Sequence Length (tokens) │ 261.90 │ 256.00 │ 298.00 │ 296.60 │ 270.00 │ 265.00 │\n'
        '│      Input Sequence Length (tokens) │ 550.06 │ 550.00 │ 553.00 │ 551.60 │ 550.00 │ 550.00 │\n'
        '│ Output Token Throughput (tokens/sec) │ 520.87 │    N/A │    N/A │    N/A │    N/A │    N/A │\n'
        '│         Request Throughput (per sec) │   1.99 │    N/A │    N/A │    N/A │    N/A │    N/A │\n'
        '│                Request Count (count) │  40.00 │    N/A │    N/A │    N/A │    N/A │    N/A │\n'
        '└──────────────────────────────────────┴────────┴────────┴────────┴────────┴────────┴────────┘\n'
    ),
         value=520.87, figures={'request_throughput': 1.99}),
    Case('genai-perf-csv',
         'genai-perf profile_export_genai_perf.csv',
         (
        'Metric,avg,min,max,p99,p95,p90,p75,p50,p25\n'
        'Time To First Token (ms),16.26,12.39,17.25,17.09,16.98,16.68,16.56,16.26,15.85\n'
        'Inter Token Latency (ms),1.85,1.55,2.04,2.02,1.99,1.97,1.92,1.86,1.80\n'
        'Request Latency (ms),499.20,451.01,554.61,548.69,540.00,526.13,514.19,498.00,480.00\n'
        '\n'
        'Metric,Value\n'
        'Output Token Throughput (tokens/sec),520.87\n'
        'Request Throughput (per sec),1.99\n'
    ),
         value=520.87, figures={'request_throughput': 1.99}),
    Case('aiperf-csv',
         "aiperf csv_exporter.py: Metric + STAT_KEYS (with sum) rows, then Metric,Value "
         "(ai-dynamo/aiperf tests/_artifacts/audit/baseline-chat/bare/profile_export_aiperf.csv)",
         (
        'Metric,avg,sum,min,max,p1,p5,p10,p25,p50,p75,p90,p95,p99,std\n'
        'Output Sequence Length (tokens),551.20,35277.00,440.00,653.00,440.00,450.35,459.90,498.50,562.50,'
        '601.00,634.30,644.55,649.22,62.84\n'
        'Request Latency (ms),1.52,97.04,0.38,15.15,0.38,0.40,0.44,0.63,0.67,0.84,0.91,10.87,15.14,3.24\n'
        '\n'
        'Metric,Value\n'
        'Benchmark Duration (sec),0.03\n'
        'Output Token Throughput (tokens/sec),1022443.06\n'
        'Request Count,64.00\n'
        'Request Throughput (requests/sec),1854.93\n'
        'Total Token Throughput (tokens/sec),2042654.40\n'
    ),
         value=1022443.06, figures={'request_throughput': 1854.93, 'total_tok_s': 2042654.40,
                                    'e2e_ms_mean': 1.52, 'e2e_ms_p99': 15.14}),
    Case('aiperf-csv-goodput',
         "aiperf profile_export_aiperf.csv rows with per-user decode/prefill rates, a signed OSL diff and Goodput "
         "(hpcac/2026-APAC-HPC-AI 3.2-aspire2p-logs/pd235b-217834, corpus bench/b22)",
         (
        'Metric,avg,min,max,sum,p1,p5,p10,p25,p50,p75,p90,p95,p99,std\n'
        'Active Decode Throughput Per User (tokens/sec/user),47.92,0.00,37460.49,,,,,,47.29,,49.36,51.68,64.75,39.95\n'
        'Active Prefill Throughput Per User (tokens/sec/user),1758.94,425.53,2930.94,,,,,,1788.26,,2157.53,2256.41,'
        '2443.73,358.57\n'
        'OSL Mismatch Diff % (%),-0.00,-0.50,0.00,-1.00,0.00,0.00,0.00,0.00,0.00,0.00,0.00,0.00,0.00,0.02\n'
        'Output Token Throughput Per User (tokens/sec/user),47.46,42.51,71.88,57332.09,44.38,45.29,45.86,46.28,47.03,'
        '48.31,49.73,50.63,52.83,1.92\n'
        'Prefill Throughput Per User (tokens/sec/user),2262.96,411.30,14775.15,2733657.79,471.59,1092.94,1184.83,'
        '1348.93,1771.40,2711.00,3802.74,4722.11,9194.76,1582.24\n'
        '\n'
        'Metric,Value\n'
        'Goodput (requests/sec),0.77\n'
        'Output Token Throughput (tokens/sec),1909.85\n'
        'Request Throughput (requests/sec),9.55\n'
    ),
         value=1909.85, figures={'request_throughput': 9.55, 'request_goodput': 0.77, 'per_user_output_tok_s': 47.46,
                                 'per_user_prompt_tok_s': 2262.96}),
    Case('aiperf-table',
         "aiperf console exporter 'NVIDIA AIPerf | LLM Metrics'",
         (
        '                                    NVIDIA AIPerf | LLM Metrics                                     \n'
        '┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━┳━━━━━━━━┳━━━━━━━━┳━━━━━━━━┳━━━━━━━━┳━━━━━━━━┳━━━━━━━━┓\n'
        '┃                                Metric ┃    avg ┃    min ┃    max ┃    p99 ┃    p90 ┃    p50 ┃    std ┃\n'
        '┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━╇━━━━━━━━╇━━━━━━━━╇━━━━━━━━╇━━━━━━━━╇━━━━━━━━╇━━━━━━━━┩\n'
        '│              Time to First Token (ms) │  45.12 │  30.10 │  90.00 │  88.00 │  60.00 │  44.00 │   8.00 │\n'
        '│              Inter Token Latency (ms) │  10.20 │   9.00 │  12.00 │  11.90 │  11.00 │  10.10 │   0.50 │\n'
        '│ Output Token Throughput (tokens/sec) │ 1,234.56 │    N/A │    N/A │    N/A │    N/A │    N/A │    N/A │\n'
        '│    Request Throughput (requests/sec) │   4.56 │    N/A │    N/A │    N/A │    N/A │    N/A │    N/A │\n'
        '└───────────────────────────────────────┴────────┴────────┴────────┴────────┴────────┴────────┴────────┘\n'
    ),
         value=1234.56, figures={'request_throughput': 4.56}),
    Case('llmperf',
         "ray-project/llmperf token_benchmark_ray.py print(f'Overall Output Throughput: {overall_output_throughput}')",
         (
        'Results for token benchmark for meta-llama/Llama-2-7b-chat-hf queried with the openai api.\n'
        '\n'
        'inter_token_latency_s\n'
        '    p25 = 0.0513\n'
        '    p50 = 0.0520\n'
        '    p99 = 0.0601\n'
        '    mean = 0.0525\n'
        '    min = 0.0490\n'
        '    max = 0.0700\n'
        '    stddev = 0.0020\n'
        'ttft_s\n'
        '    p25 = 0.2500\n'
        '    p50 = 0.2600\n'
        '    p99 = 0.5000\n'
        '    mean = 0.2700\n'
        '    min = 0.2000\n'
        '    max = 0.6000\n'
        '    stddev = 0.0300\n'
        'request_output_throughput_token_per_s\n'
        '    p25 = 19.00\n'
        '    p50 = 19.50\n'
        '    mean = 19.40\n'
        '    min = 15.00\n'
        '    max = 21.00\n'
        '    stddev = 1.00\n'
        'Number Of Errored Requests: 0\n'
        'Overall Output Throughput: 45.17123456\n'
        'Number Of Completed Requests: 150\n'
        'Completed Requests Per Minute: 36.12345\n'
    ),
         value=45.17123456),
    Case('evalscope-perf',
         'evalscope perf/utils/db_util.py summary table (tabulate grid)',
         (
        'Benchmarking summary:\n'
        '+-----------------------------------+-----------+\n'
        '| Key                               |     Value |\n'
        '+===================================+===========+\n'
        '| Time taken for tests (s)          |   62.5012 |\n'
        '+-----------------------------------+-----------+\n'
        '| Number of concurrency             |    8      |\n'
        '+-----------------------------------+-----------+\n'
        '| Total requests                    |  100      |\n'
        '+-----------------------------------+-----------+\n'
        '| Succeed requests                  |  100      |\n'
        '+-----------------------------------+-----------+\n'
        '| Output token throughput (tok/s)   |  245.321  |\n'
        '+-----------------------------------+-----------+\n'
        '| Total token throughput (tok/s)    |  480.123  |\n'
        '+-----------------------------------+-----------+\n'
        '| Request throughput (req/s)        |    1.6    |\n'
        '+-----------------------------------+-----------+\n'
        '| Average latency (s)               |    4.9812 |\n'
        '+-----------------------------------+-----------+\n'
        '| Average time to first token (s)   |    0.0512 |\n'
        '+-----------------------------------+-----------+\n'
        '| Average time per output token (s) |    0.0321 |\n'
        '+-----------------------------------+-----------+\n'
    ),
         value=245.321, concurrency=8, figures={'total_tok_s': 480.123, 'request_throughput': 1.6}),
    Case('mlx-generate',
         "mlx_lm/generate.py print(f'Prompt: {prompt_tokens} tokens, {prompt_tps:.3f} tokens-per-sec')",
         (
        '==========\n'
        'Prompt: 13 tokens, 77.283 tokens-per-sec\n'
        'Generation: 100 tokens, 34.212 tokens-per-sec\n'
        'Peak memory: 4.521 GB\n'
    ),
         value=34.212, figures={'prompt_tok_s': 77.283}),
    Case('openvino-benchmark-genai',
         "openvino.genai samples/python/text_generation/benchmark_genai.py print(f'Throughput: {perf_metrics.get_throughput().mean:.2f} ± ... tokens/s')",
         (
        'Load time: 1234.00 ms\n'
        'Generate time: 567.00 ± 1.23 ms\n'
        'Tokenization time: 0.50 ± 0.01 ms\n'
        'Detokenization time: 0.20 ± 0.00 ms\n'
        'TTFT: 45.00 ± 2.00 ms\n'
        'TPOT: 12.00 ± 0.50 ms\n'
        'Throughput : 83.33 ± 3.00 tokens/s\n'
    ),
         value=83.33),
    Case('tgi-benchmark',
         'text-generation-inference benchmark/src/table.rs (tabled markdown)',
         (
        '| Parameter          | Value                                         |\n'
        '|--------------------|-----------------------------------------------|\n'
        '| Model              | meta-llama/Llama-2-7b-hf                      |\n'
        '| Sequence Length    | 10                                            |\n'
        '| Decode Length      | 8                                             |\n'
        '| N Runs             | 10                                            |\n'
        '| Warmups            | 1                                             |\n'
        '\n'
        '| Step           | Batch Size | Average   | Lowest    | Highest   | p50       | p90       | p99       |\n'
        '|----------------|------------|-----------|-----------|-----------|-----------|-----------|-----------|\n'
        '| Prefill        | 1          | 23.88 ms  | 23.50 ms  | 24.50 ms  | 23.80 ms  | 24.40 ms  | 24.50 ms  |\n'
        '| Decode (token) | 1          | 20.58 ms  | 20.40 ms  | 21.00 ms  | 20.55 ms  | 20.90 ms  | 21.00 ms  |\n'
        '| Decode (total) | 1          | 144.06 ms | 142.80 ms | 147.00 ms | 143.85 ms | 146.30 ms | 147.00 ms |\n'
        '\n'
        '| Step    | Batch Size | Average           | Lowest            | Highest           |\n'
        '|---------|------------|-------------------|-------------------|-------------------|\n'
        '| Prefill | 1          | 41.88 tokens/secs | 40.82 tokens/secs | 42.55 tokens/secs |\n'
        '| Decode  | 1          | 48.59 tokens/secs | 47.62 tokens/secs | 49.02 tokens/secs |\n'
    ),
         value=48.59),
    Case('optimum-benchmark',
         "optimum-benchmark trackers/latency.py LOGGER.info(f'\\t\\t+ {name} throughput: {value:f} {unit}')",
         (
        '[PROC-0][2024-05-20 12:00:00,000][inference][INFO] - + Running Text Generation latency tracking\n'
        '[PROC-0][2024-05-20 12:00:10,000][latency][INFO] - \t\t+ prefill latency: 0.012345 ± 2 x 0.000100 (s)\n'
        '[PROC-0][2024-05-20 12:00:10,000][latency][INFO] - \t\t+ prefill throughput: 1234.560000 tokens/s\n'
        '[PROC-0][2024-05-20 12:00:20,000][latency][INFO] - \t\t+ decode latency: 1.234560 ± 2 x 0.010000 (s)\n'
        '[PROC-0][2024-05-20 12:00:20,000][latency][INFO] - \t\t+ decode throughput: 102.345600 tokens/s\n'
    ),
         value=102.3456, figures={'prompt_tok_s': 1234.56}),
    Case('trtllm-gptmanager',
         "TensorRT-LLM benchmarks/cpp/gptManagerBenchmark.cpp printf('[BENCHMARK] token_throughput(token/sec) %.2f')",
         (
        '[BENCHMARK] num_samples 100\n'
        '[BENCHMARK] num_error_samples 0\n'
        '\n'
        '[BENCHMARK] num_samples 100\n'
        '[BENCHMARK] total_latency(ms) 34834.75\n'
        '[BENCHMARK] seq_throughput(seq/sec) 2.87\n'
        '[BENCHMARK] token_throughput(token/sec) 2870.80\n'
        '[BENCHMARK] avg_acceptance_rate(tokens/decoding steps) 2.50\n'
        '\n'
        '[BENCHMARK] avg_sequence_latency(ms) 17000.00\n'
        '[BENCHMARK] max_sequence_latency(ms) 34000.00\n'
    ),
         value=2870.8, accept_length=2.5),
    Case('exllamav2-test-inference',
         "exllamav2 test_inference.py -s: print(f' ** Position {..:5} + {..:3} tokens: {..:.4f} t/s')",
         (
        ' -- Measuring token speed...\n'
        ' ** Position     1 + 127 tokens:   45.2069 t/s\n'
    ),
         value=45.2069),
    Case('mlc-stats',
         "mlc-llm chat /stats: 'prefill: %.1f tok/s, decode: %.1f tok/s'",
         (
        'prefill: 150.5 tok/s, decode: 30.2 tok/s\n'
    ),
         value=30.2, figures={'prompt_tok_s': 150.5}),
    Case('guidellm-old',
         "guidellm 0.1 'Request Throughput' etc summary",
         (
        'Overall Request Throughput: 5.12 req/s\n'
        'Overall Output Token Throughput: 612.34 tokens/s\n'
    ),
         value=612.34),
    Case('vllm-serving-2023',
         "vllm benchmarks/benchmark_serving.py (v0.2) print(f'Throughput: {len(REQUEST_LATENCY) / benchmark_time:.2f} requests/s')",
         (
        'Total time: 123.45 s\n'
        'Throughput: 8.10 requests/s\n'
        'Average latency: 12.34 s\n'
        'Average latency per token: 0.05 s\n'
        'Average latency per output token: 0.10 s\n'
    ),
         value=8.1, metric='request_throughput'),
    Case('vllm-throughput-mid',
         "vllm benchmarks/benchmark_throughput.py (0.5-0.6) f'Throughput: {:.2f} requests/s, {:.2f} tokens/s' with input+output total",
         (
        'Throughput: 32.95 requests/s, 15234.56 tokens/s\n'
    ),
         value=15234.56, metric='total_tok_s', figures={'request_throughput': 32.95}),
    Case('lmdeploy-restful-old',
         'lmdeploy benchmark/profile_restful_api.py (0.2-0.4)',
         (
        '--------------------------------------------------\n'
        'concurrency: 128\n'
        'elapsed_time: 200.000s\n'
        '\n'
        'first token latency(s)(min, max, ave): 0.100, 5.000, 1.000\n'
        'per-token latency(s) percentile(50, 75, 95, 99): [0.03, 0.04, 0.05, 0.10]\n'
        '\n'
        'number of prompt tokens: 100000\n'
        'number of completion tokens: 200000\n'
        'token throughput (completion token): 1000.000 token/s\n'
        'token throughput (prompt + completion token): 1500.000 token/s\n'
        'RPS (request per second): 5.000 req/s\n'
        'RPM (request per minute): 300.000 req/min\n'
        '--------------------------------------------------\n'
    ),
         value=1000.0, concurrency=128),
    Case('evalscope-perf-multi',
         'evalscope perf rich summary table: two-line headers, one row per concurrency',
         (
        '                                    Detailed Performance Metrics                                    \n'
        '┏━━━━━━┳━━━━━━┳━━━━━━━━━━┳━━━━━━━━━━┳━━━━━━━━━━┳━━━━━━━━━━┳━━━━━━━━━━┳━━━━━━━━━━┳━━━━━━━━━━┳━━━━━━━━━┓\n'
        '┃      ┃      ┃      Avg ┃      P99 ┃     Gen. ┃      Avg ┃      P99 ┃      Avg ┃      P99 ┃ Success ┃\n'
        '┃Conc. ┃  RPS ┃  Lat.(s) ┃  Lat.(s) ┃   toks/s ┃  TTFT(s) ┃  TTFT(s) ┃  TPOT(s) ┃  TPOT(s) ┃    Rate ┃\n'
        '┡━━━━━━╇━━━━━━╇━━━━━━━━━━╇━━━━━━━━━━╇━━━━━━━━━━╇━━━━━━━━━━╇━━━━━━━━━━╇━━━━━━━━━━╇━━━━━━━━━━╇━━━━━━━━━┩\n'
        '│    1 │ 0.74 │    1.352 │    2.012 │   245.61 │    0.026 │    0.042 │    0.004 │    0.005 │  100.0% │\n'
        '│   10 │ 4.21 │    2.372 │    3.551 │  1390.55 │    0.078 │    0.157 │    0.007 │    0.010 │  100.0% │\n'
        '└──────┴──────┴──────────┴──────────┴──────────┴──────────┴──────────┴──────────┴──────────┴─────────┘\n'
    ),
         value=245.61, concurrency=1, figures={'request_throughput': 0.74}),
    Case('tabulate-grid-rows',
         "tabulate tablefmt='grid': `+===+` under the header, `+---+` between rows, one run a row",
         (
        '+---------------+-------------+----------------------+\n'
        '| concurrency   |   req/s     |   output tok/s       |\n'
        '+===============+=============+======================+\n'
        '| 8             |   3.10      |   812.40             |\n'
        '+---------------+-------------+----------------------+\n'
        '| 16            |   5.20      |   1402.70            |\n'
        '+---------------+-------------+----------------------+\n'
    ),
         value=812.4, concurrency=8, figures={'request_throughput': 3.1}),
    Case('guidellm-stats',
         'guidellm benchmark/output.py Benchmarks Stats (0.2): no outer bars, a `||`-grouped header '
         'over per-column statistics',
         (
        'Benchmarks Stats:\n'
        '=======================================================================================================================================================\n'
        'Metadata     | Request Stats         || Out Tok/sec| Tot Tok/sec| Req Latency (sec)  ||| TTFT (ms)                ||| ITL (ms)          ||| TPOT (ms)          ||\n'
        '    Benchmark| Per Second| Concurrency|        mean|        mean|  mean| median|   p99|   mean| median|    p99|  mean| median|  p99|  mean| median|  p99\n'
        '-------------|-----------|------------|------------|------------|------|-------|------|-------|-------|-------|------|-------|-----|------|-------|-----\n'
        '  synchronous|       0.43|        1.00|       111.4|       222.6|  2.32|   2.32|  2.34|   45.0|   44.6|   50.9|   8.9|    8.9|  9.0|   8.8|    8.8|  8.9\n'
        ' constant@1.0|       0.99|        2.31|       254.7|       508.5|  2.33|   2.33|  2.35|   46.2|   45.9|   53.2|   9.0|    9.0|  9.1|   8.9|    8.9|  9.0\n'
        '=======================================================================================================================================================\n'
    ),
         value=111.4, concurrency=1, figures={'request_throughput': 0.43, 'total_tok_s': 222.6, 'ttft_ms_p99': 50.9}),
    Case('lmdeploy-csv',
         "lmdeploy benchmark/profile_throughput.py --csv: writer.writerow(['batch','num_promts','RPS','RPM','throughput(out tok/s)','throughput(total tok/s)'])",
         (
        'batch,num_promts,RPS,RPM,throughput(out tok/s),throughput(total tok/s)\n'
        '128,1000,5.000,300.000,1000.000,1500.000\n'
    ),
         value=1000.0, figures={'request_throughput': 5.0, 'total_tok_s': 1500.0}),
    Case('lmdeploy-restful-csv',
         "lmdeploy benchmark/profile_restful_api.py --csv: writer.writerow(['batch','num_prompts','RPS','RPM',"
         "'FTL(ave)(s)','FTL(min)(s)','FTL(max)(s)','throughput(out tok/s)','throughput(total tok/s)'])",
         (
        'batch,num_prompts,RPS,RPM,FTL(ave)(s),FTL(min)(s),FTL(max)(s),throughput(out tok/s),throughput(total tok/s)\n'
        '64,1000,8.100,486.000,0.512,0.051,2.310,1795.330,3880.402\n'
    ),
         value=1795.33, figures={'request_throughput': 8.1, 'total_tok_s': 3880.402,
                                 'ttft_ms_mean': 512.0, 'ttft_ms_max': 2310.0}),
    Case('vllm-offline-bar',
         "vllm/entrypoints/llm.py _run_engine tqdm postfix f'est. speed input: {in_spd:.2f} toks/s, output: {out_spd:.2f} toks/s'",
         (
        'Processed prompts: 100%|██████████| 100/100 [00:05<00:00, 18.20it/s, est. speed input: 1823.45 toks/s, output: 3642.12 toks/s]\n'
    ),
         value=3642.12, figures={'prompt_tok_s': 1823.45}),
    Case('vllm-bench-throughput-new',
         "vllm/benchmarks/throughput.py (0.9+) adds 'Total num prompt tokens:' / 'Total num output tokens:'",
         (
        'Throughput: 12.34 requests/s, 5678.90 total tokens/s, 2345.67 output tokens/s\n'
        'Total num prompt tokens:  409600\n'
        'Total num output tokens:  204800\n'
    ),
         value=2345.67, figures={'request_throughput': 12.34, 'total_tok_s': 5678.9}),
    Case('python-dict-result',
         "vLLM/SGLang benchmark result dict printed with print(result) (keys of serve.py's result dict)",
         (
        "{'duration': 52.31, 'completed': 1000, 'total_input_tokens': 215196, 'total_output_tokens': 197034, 'request_throughput': 19.12, 'output_throughput': 3766.8, 'total_token_throughput': 7880.79, 'mean_ttft_ms': 1234.56, 'p99_ttft_ms': 3000.0, 'max_concurrency': 64}\n"
    ),
         value=3766.8, concurrency=64, figures={'request_throughput': 19.12, 'total_tok_s': 7880.79, 'ttft_ms_p99': 3000.0}),
    Case('k-suffixed-rate',
         'a summary line with SI-prefixed rates (`12.3k tok/s`)',
         (
        'Output throughput: 12.3k tok/s\n'
        'Request throughput: 4.1 req/s\n'
    ),
         value=12300.0, figures={'request_throughput': 4.1}),
    Case('perf-analyzer',
         "triton-inference-server/perf_analyzer inference_profiler / report_writer: 'Throughput: N infer/sec', 'Concurrency: N, throughput: N infer/sec, latency N usec'",
         (
        '*** Measurement Settings ***\n'
        '  Batch size: 1\n'
        '  Service Kind: Triton\n'
        '  Using "time_windows" mode for stabilization\n'
        '  Measurement window: 5000 msec\n'
        '  Using synchronous calls for inference\n'
        '  Stabilizing using average latency\n'
        '\n'
        'Request concurrency: 1\n'
        '  Client: \n'
        '    Request count: 3608\n'
        '    Throughput: 200.364 infer/sec\n'
        '    Avg latency: 4979 usec (standard deviation 1089 usec)\n'
        '    p50 latency: 4877 usec\n'
        '    p90 latency: 5440 usec\n'
        '    p95 latency: 5748 usec\n'
        '    p99 latency: 8044 usec\n'
        '    Avg HTTP time: 4966 usec (send/recv 36 usec + response wait 4930 usec)\n'
        '  Server: \n'
        '    Inference count: 3608\n'
        '    Execution count: 3608\n'
        '    Successful request count: 3608\n'
        '    Avg request latency: 4586 usec (overhead 29 usec + queue 21 usec + compute input 24 usec + compute infer 4498 usec + compute output 13 usec)\n'
        '\n'
        'Inferences/Second vs. Client Average Batch Latency\n'
        'Concurrency: 1, throughput: 200.364 infer/sec, latency 4979 usec\n'
    ),
         value=200.364, metric='request_throughput', concurrency=1, figures={'latency_s': 0.004979, 'latency_s_p95': 0.005748, 'e2e_ms_mean': 4.586}),
    Case('llmperf-with-command',
         'llmperf README command (--num-concurrent-requests) above token_benchmark_ray.py summary',
         "$ python token_benchmark_ray.py --model meta-llama/Llama-2-7b-chat-hf --mean-input-tokens 550"
         " --num-concurrent-requests 8 --results-dir result_outputs --llm-api openai\n"
         "Number Of Errored Requests: 0\nOverall Output Throughput: 45.17123456\n"
         "Number Of Completed Requests: 150\nCompleted Requests Per Minute: 36.12345\n",
         value=45.17123456, concurrency=8),
]


@pytest.mark.parametrize("case", CASES, ids=[case.tool for case in CASES])
def test_each_tool_reads_right(case: Case) -> None:
    parsed = read_benchmark_output(case.text)
    for record in parsed.records:
        record.config = derive_config_name(record) or case.tool
    assert parsed.records and implausible(parsed.records) is None, parsed.problems
    record = parsed.records[case.index]
    assert (record.metric, record.concurrency) == (case.metric, case.concurrency)
    assert math.isclose(record.value, case.value, rel_tol=1e-3)
    if case.accept_length is not None:
        assert record.accept_length is not None
        assert math.isclose(record.accept_length, case.accept_length, rel_tol=1e-3)
    read: dict[str, Any] = {name: record.figures.get(name) for name in case.figures}
    assert all(read[name] is not None and math.isclose(read[name], want, rel_tol=1e-3)
               for name, want in case.figures.items()), read


def test_a_trtllm_bench_report_json_is_one_run_headed_by_its_system_output_throughput() -> None:
    """NVIDIA/TensorRT-LLM tensorrt_llm/bench/dataclasses/reporting.py get_statistics_dict (json.dump
    of `--report_json`): the streaming per-user speed and its percentiles are figures of the one run."""
    stats = {"p50": 30.0, "p90": 40.0, "minimum": 10.0, "maximum": 50.0, "average": 31.0}
    report = {
        "engine": {"model": "meta-llama/Llama-3.1-8B", "model_path": "None", "version": "1.0.0", "backend": "Pytorch"},
        "world_info": {"tp_size": 2, "pp_size": 1, "ep_size": 1, "world_size": 2, "max_batch_size": 64},
        "request_info": {"num_requests": 100, "avg_num_concurrent_requests": 7.9,
                         "avg_input_length": 128.0, "avg_output_length": 256.0},
        "performance": {"total_latency_ms": 9000.0, "avg_request_latency_ms": 700.0,
                        "request_throughput_req_s": 11.1, "system_output_throughput_tok_s": 2844.4,
                        "system_total_throughput_tok_s": 4266.6, "output_throughput_per_user_tok_s": 365.7,
                        "output_throughput_per_gpu_tok_s": 1422.2, "request_latency_percentiles_ms": stats},
        "streaming_metrics": {"token_output_speed_tok_s": 412.5, "avg_ttft_ms": 31.0, "avg_tpot_ms": 2.4,
                              "ttft_percentiles": stats, "gen_tps_percentiles": stats},
        "dataset": {"isl_stats": stats, "num_requests": 100},
    }
    records = read_benchmark_output(json.dumps(report, indent=4)).records
    assert len(records) == 1
    record = records[0]
    assert (record.value, record.model, record.input_len) == (2844.4, "meta-llama/Llama-3.1-8B", 128)
    assert (record.figures["total_tok_s"], record.figures["per_user_output_tok_s"]) == (4266.6, 412.5)
    assert (record.figures["ttft_ms_median"], record.figures["request_throughput"]) == (30.0, 11.1)


# AISBench/benchmark docs/source_en/base_tutorials/scenes_intro/performance_benchmark.md: `ais_bench --mode perf`
# prints a per-request statistics grid, then the run's `Common Metric | Stage | Value` grid
AISBENCH = """\
[2026-04-08 05:27:40,180] [ais_bench] [INFO] Performance Results of task [vllm-api-stream-chat/demo_gsm8k]:
╒══════════════════════════╤═════════╤═════════════════╤═════════════════╤═════════════════╤═════╕
│ Performance Parameters   │ Stage   │ Average         │ Min             │ P99             │  N  │
╞══════════════════════════╪═════════╪═════════════════╪═════════════════╪═════════════════╪═════╡
│ TTFT                     │ total   │ 238.6 ms        │ 107.9 ms        │ 276.3 ms        │  8  │
├──────────────────────────┼─────────┼─────────────────┼─────────────────┼─────────────────┼─────┤
│ OutputTokenThroughput    │ total   │ 16.5261 token/s │ 16.2402 token/s │ 17.2202 token/s │  8  │
╘══════════════════════════╧═════════╧═════════════════╧═════════════════╧═════════════════╧═════╛
╒══════════════════════════╤═════════╤═══════════════════╕
│ Common Metric            │ Stage   │ Value             │
╞══════════════════════════╪═════════╪═══════════════════╡
│ Benchmark Duration       │ total   │ 41161.2934 ms     │
├──────────────────────────┼─────────┼───────────────────┤
│ Concurrency              │ total   │ 5.8273            │
├──────────────────────────┼─────────┼───────────────────┤
│ Max Concurrency          │ total   │ 16                │
├──────────────────────────┼─────────┼───────────────────┤
│ Request Throughput       │ total   │ 0.1944 req/s      │
├──────────────────────────┼─────────┼───────────────────┤
│ Output Token Throughput  │ total   │ 96.6928 token/s   │
├──────────────────────────┼─────────┼───────────────────┤
│ Total Token Throughput   │ total   │ 379.9686 token/s  │
╘══════════════════════════╧═════════╧═══════════════════╛
"""


def test_aisbench_perf_result_is_one_run_headed_by_its_common_metric_output_rate() -> None:
    parsed = read_benchmark_output(AISBENCH)
    [record] = parsed.records
    assert (record.source_format, record.value, record.concurrency) == ("aisbench.perf", 96.6928, 16)
    assert record.figures["request_throughput"] == 0.1944 and record.figures["total_tok_s"] == 379.9686
    assert record.figures["ttft_ms_p99"] == 276.3 and record.figures["per_user_output_tok_s_mean"] == 16.5261
    assert record.figures["bench_duration_s"] == pytest.approx(41.1612934)


def test_aisbench_perf_result_cut_before_its_output_rate_is_not_stored() -> None:
    cut = AISBENCH[: AISBENCH.index("│ Output Token Throughput")]
    parsed = read_benchmark_output(cut)
    assert parsed.records == [] and parsed.problems == [
        "aisbench.perf: a result without its Output Token Throughput (cut), not stored"]


# evalscope perf's summary as modelscope/evalscope evalscope/perf/utils/rich_display.py print_summary()
# prints it: a `Basic Information` box whose `Avg Output Rate` is every run's tokens over their summed
# time, then one `Conc.` row per load (`Gen. toks/s` the run's output rate)
_EVALSCOPE_BOX = """Basic Information:
┌───────────────────────┬──────────────────────────────────┐
│ Model                 │ qwen2.5                          │
│ Total Generated       │ {total:,.1f} tokens                 │
│ Total Test Time       │ {time:.2f} seconds                   │
│ Avg Output Rate       │ {rate:.2f} tokens/sec               │
└───────────────────────┴──────────────────────────────────┘

                        Detailed Performance Metrics
┏━━━━━━┳━━━━━━┳━━━━━━┳━━━━━━━━━━━━━┳━━━━━━━━━━━━━┳━━━━━━━━━━━━━┳━━━━━━━━━━━━━┓
┃Conc. ┃ Rate ┃  RPS ┃ Avg Lat.(s) ┃ Avg TTFT(s) ┃ Gen. toks/s ┃ Success Rate┃
┡━━━━━━╇━━━━━━╇━━━━━━╇━━━━━━━━━━━━━╇━━━━━━━━━━━━━╇━━━━━━━━━━━━━╇━━━━━━━━━━━━━┩
"""


@pytest.mark.parametrize("rows", [
    [(1, 0.15, 6.650, 0.051, 150.34)],
    [(1, 0.15, 6.650, 0.051, 150.34), (10, 0.96, 10.39, 0.120, 986.63), (100, 3.37, 29.60, 0.900, 3455.61)],
])
def test_evalscope_summary_box_is_the_sweeps_total_and_each_concurrency_row_a_result(rows: list[tuple]) -> None:
    table = "".join(f"│{c:>5} │  INF │ {rps:4.2f} │ {lat:11.3f} │ {ttft:11.3f} │ {gen:11.2f} │      100.0% │\n"
                    for c, rps, lat, ttft, gen in rows)
    text = _EVALSCOPE_BOX.format(total=332800.0, time=154.57, rate=2153.10) + table
    records = read_benchmark_output(text).records
    assert [(r.concurrency, r.value, r.metric) for r in records] == [(c, gen, "output_tok_s") for c, *_, gen in rows]


# vllm-project/guidellm src/guidellm/benchmark/output.py @ 0d8c8bf7d1483f8ddd244fad50709780241cdc15,
# _print_benchmarks_stats / _print_table / _print_table_sections (0.2/0.3): a `Benchmarks Stats:` title, a section
# row whose names end in one bar per column spanned (the last one's closing bar dropped), a statistic row, a `-|-`
# rule, one row per strategy with no outer bars; figures made up, cells glued to bars as a narrow header leaves them.
GUIDELLM_STATS = """Benchmarks Stats:
==========================================================================================================
Metadata    | Request Stats         || Out Tok/sec | Tot Tok/sec | Req Latency (sec) ||| TTFT (ms)       ||| ITL (ms)  ||| TPOT (ms) ||
Benchmark   | Per Second | Concurrency | mean        | mean        | mean | median | p99  | mean | median | p99 | mean | median | p99 | mean | median | p99
------------|------------|-------------|-------------|-------------|------|-------|------|------|------|------|-----|-----|-----|-----|-----|-----
concurrent@4| 0.50       | 3.98        | 60.3        | 180.9       | 15.40| 15.20 | 18.41| 686.5| 685.4| 694.1| 8.0 | 8.1 | 9.1 | 7.1 | 7.1 | 7.2
constant@2.00| 1.98      | 9.70        | 240.1       | 720.4       | 4.91 | 4.80  | 6.02 | 90.5 | 88.0 | 120.0| 9.0 | 9.1 | 9.9 | 8.1 | 8.2 | 8.3
==========================================================================================================
"""


def test_guidellm_02_stats_table_one_record_per_strategy_row() -> None:
    first, second = read_benchmark_output(GUIDELLM_STATS).records
    assert (first.value, first.concurrency, first.config) == (60.3, 4, "concurrent@4")
    assert (first.figures["total_tok_s"], first.figures["request_throughput"]) == (180.9, 0.5)
    assert (first.figures["e2e_ms_median"], first.figures["ttft_ms_p99"], first.figures["tpot_ms_mean"]) == (
        15200.0, 694.1, 7.1)
    assert (second.value, second.concurrency, second.figures["request_rate"]) == (240.1, None, 2.0)
    assert second.figures["itl_ms_median"] == 9.1
    # a Go load tester's own `Benchmark Stats:` heading over labelled lines is not guidellm's table
    go = "Benchmark Stats:\n  Throughput: 5000 msgs/sec ~ 2.50 MB/sec\n  Errors:     0\n"
    assert all(r.source_format != "guidellm.console" for r in read_benchmark_output(go).records)


# vllm-project/guidellm's JSON report (`--output-path benchmarks.json`, GenerativeBenchmark.model_dump): each
# `benchmarks[]` entry's `metrics.<name>.successful` distribution (`mean`, `median`, `percentiles.p99`) of the
# figures the console prints (output_tokens_per_second, tokens_per_second, requests_per_second, request_latency
# in s, time_to_first_token_ms ...) and its scheduling `strategy` ({"type_": "concurrent", "streams": 4}); made up.
def test_guidellm_json_report_one_record_per_benchmark() -> None:
    def dist(mean: float, **more: Any) -> dict[str, Any]:
        return {"successful": {"mean": mean, **more}, "errored": {"mean": 0.0}}
    report = {"benchmarks": [
        {"args": {"strategy": {"type_": "concurrent", "streams": 4}}, "metrics": {
            "requests_per_second": dist(1.5), "output_tokens_per_second": dist(300.2), "tokens_per_second": dist(900.1),
            "request_latency": dist(2.5, median=2.4, percentiles={"p99": 3.1}),
            "time_to_first_token_ms": dist(120.0, median=110.0, percentiles={"p99": 300.0, "p001": 50.0})}},
        {"scheduler": {"strategy": {"type_": "constant", "rate": 2.0}}, "metrics": {
            "output_tokens_per_second": dist(500.2)}}]}
    first, second = read_benchmark_output(json.dumps(report, indent=2)).records
    assert (first.value, first.concurrency, first.source_format) == (300.2, 4, "guidellm.json")
    assert (first.figures["total_tok_s"], first.figures["request_throughput"]) == (900.1, 1.5)
    assert (first.figures["e2e_ms_median"], first.figures["ttft_ms_p99"]) == (2400.0, 300.0)
    assert (second.value, second.concurrency, second.figures["request_rate"]) == (500.2, None, 2.0)


# neuralmagic/guidellm src/guidellm/core/report.py (0.1): a `GuideLLM Benchmarks Report` panel around a `Benchmark
# Report N` panel of rich tables; the summary's cells carry their units (`{:.2f} req/sec`, request latency `sec`, TTFT
# and ITL `ms`, `tokens/sec`), the stats table lists seven percentiles per cell, wrapped onto a continuation row on a
# narrow terminal; a copy that lost the panels' right padding (the corpus's b40 optimum-neuron guide) reads the same.
GUIDELLM_01 = """\
│ │ Performance Stats by Benchmark │ │
│ │ ┏━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━┓ │ │
│ │ ┃ Benchmark ┃ Request Latency [1%, 5%, 10%, 50%, 90%, 95%, 99%] (sec) ┃ Time to First Token [...] (ms) ┃ Inter Token Latency ┃ │ │
│ │ ┡━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━┩ │ │
│ │ │ synchronous │ 3.68, 5.13, 6.94, 10.91, 13.51, 14.26, 14.87 │ 1563.3, 1569.2, 1576.5, 1589.4, 1594.0, 1595.3, │ 23.2, 28.2, 29.4, 29.8, 30.3, 31.7, 36.5 │ │ │
│ │ │ │ │ 1596.4 │ │ │ │
│ │ │ constant@0.85 req/sec │ 2.62, 6.55, 9.40, 20.66, 30.60, 32.78, 35.07 │ 1594.1, 1602.5, 1605.7, 1629.7, 4650.1, 4924.1, 5345.6 │ 0.2, 0.2, 0.2, 34.3, 44.9, 54.5, 1613.9 │ │ │
│ │ └─────────────────────┴─────────────────────────────────────┴────────────────────────────────┴────────────────────────┘ │ │
│ │ │ │
│ │ Performance Summary by Benchmark │ │
│ │ ┏━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━┳━━━━━━━━━━━━━┳━━━━━━━━━━━━━┳━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━┓ │ │
│ │ ┃ Benchmark ┃ Requests per Second ┃ Request Latency ┃ Time to First Token ┃ Inter Token Latency ┃ Output Token Throughput ┃ │ │
│ │ ┡━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━╇━━━━━━━━━━━━━╇━━━━━━━━━━━━━╇━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━┩ │ │
│ │ │ synchronous │ 0.10 req/sec │ 10.32 sec │ 1585.08 ms │ 29.81 ms │ 28.39 tokens/sec │ │ │
│ │ │ constant@0.85 req/sec │ 0.77 req/sec │ 20.77 sec │ 2401.32 ms │ 63.69 ms │ 221.75 tokens/sec │ │ │
│ │ └─────────────────────┴─────────────┴─────────────┴─────────────┴─────────────┴──────────────────┘ │ │
│ ╰──────────────────────────────────────────────────────────────────────────────────────────────────╯ │
"""


def test_guidellm_01_report_one_record_per_summary_row_with_its_stats_rows_percentiles() -> None:
    first, second = read_benchmark_output(GUIDELLM_01).records
    assert (first.value, first.config, first.concurrency, first.source_format) == (
        28.39, "synchronous", 1, "guidellm.console")
    assert (first.figures["request_throughput"], first.figures["e2e_ms_mean"]) == (0.10, 10320.0)
    assert (first.figures["ttft_ms_median"], first.figures["ttft_ms_p99"]) == (1589.4, 1596.4)  # the wrapped cell
    assert (second.value, second.figures["request_rate"], second.figures["itl_ms_p99"]) == (221.75, 0.85, 1613.9)


def test_guidellm_01_report_cut_before_its_summary_is_refused_not_read_from_its_other_tables() -> None:
    # the Tokens Data table's `constant@0.85 req/sec` name is no request rate measured; cut above the summary,
    # the report (neuralmagic/guidellm core/report.py) holds no result
    cut = "╭─ GuideLLM Benchmarks Report (report.json) ───╮\n" + GUIDELLM_01.split("│ │ Performance Summary")[0]
    parsed = read_benchmark_output(cut)
    assert parsed.records == [] and "Performance Summary by Benchmark" in parsed.problems[0]
