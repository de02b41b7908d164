"""The memory issue 12 describes, built through the real Store, with a followed drafter run.

vLLM baseline 82.5 and SGLang baseline 90.0 tok/s, SGLang + EAGLE3 10K drafter 82.3 tok/s at
accept length 2.1 (all single stream), a throughput baseline of 1450 tok/s at concurrency 32, a
failed benchmark, four lessons, three notes (the last on how the 100k drafter was launched), a
drafter run at step 4216 whose full (unconditional) per-position accuracies are 0.742, 0.47, 0.29,
0.15, 0.097, an earlier run that crashed at step 66 (CUDA OOM), and a 100k-sample drafter run
that is not followed, last seen 18 h ago at step 4000.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from sessiontui.project_memory.records import Record
from sessiontui.project_memory.specdec import conditional_from_full
from sessiontui.project_memory.store import Store

MODEL = "moonshotai/Kimi-K2.5"
FULL_ACC = (0.742, 0.47, 0.29, 0.15, 0.097)
LIVE_ACC = tuple(conditional_from_full(FULL_ACC))  # the follower's conditional acc_i
LIVE_STEP = 4216
RUN_LOG = "/data/runs/eagle3-kimi-drafter-v2/train.log"
NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def _ago(days: float) -> str:
    return (NOW - timedelta(days=days)).isoformat(timespec="seconds")


@dataclass(frozen=True)
class LiveSnapshot:
    """The fields of a training snapshot that answers read (see project_memory.live.LiveRun)."""

    source: str = RUN_LOG
    step: int | None = LIVE_STEP
    total_steps: int | None = 12000
    epoch: float | None = 0.7
    loss: float | None = 3.12
    lr: float | None = 8e-5
    acc: tuple[float, ...] = LIVE_ACC
    metrics: dict[str, float] = field(default_factory=dict)
    eta_s: float | None = 3520.0
    steps_per_s: float | None = 2.2
    last_update: float | None = NOW.timestamp()
    status: str = "running"
    events: tuple = ()
    run_index: int = 0
    ended_runs: tuple = ()
    started_at: float | None = None
    started_from: str | None = None
    history: dict[str, tuple[tuple[int, float], ...]] = field(default_factory=lambda: {
        "loss": ((3800, 3.41), (4000, 3.27), (4216, 3.12)),
        "acc_0": ((3800, 0.721), (4000, 0.733), (4216, 0.742)),
    })


@dataclass(frozen=True)
class Gpu:
    index: int
    name: str = "NVIDIA H200"
    util_pct: float | None = 97.0
    mem_used_mib: float | None = 120_000.0
    mem_total_mib: float | None = 143_771.0
    temp_c: float | None = 61.0
    power_w: float | None = 612.0


@dataclass(frozen=True)
class GpuReadings:
    available: bool = True
    reason: str | None = None
    gpus: tuple[Gpu, ...] = tuple(Gpu(i, util_pct=95.0 + i) for i in range(4))


def bench(store: Store, days: float, **fields) -> Record:
    fields.setdefault("status", "ok")
    fields.setdefault("model", MODEL)
    return store.add(Record(kind="benchmark", created_at=_ago(days), **fields))


def seed(store: Store) -> dict[str, Record]:
    """Store the issue's memory; returns its records by a short name."""
    r = {}
    r["vllm"] = bench(
        store, 6.0, config="vllm kimi-k2.5 tp8 no-spec c=1", baseline=True, engine="vllm",
        engine_version="0.11.0", value=82.5, concurrency=1, dataset="sharegpt",
        command="vllm bench serve --model moonshotai/Kimi-K2.5 --dataset-name sharegpt "
                "--num-prompts 80 --max-concurrency 1", git_commit="4f1c2a9e7b3d5c8a",
        notes="tp 8, cuda graphs on")
    r["sglang"] = bench(
        store, 5.0, config="sglang kimi-k2.5 tp8 no-spec c=1", baseline=True, engine="sglang",
        engine_version="0.5.6", value=90.0, concurrency=1, dataset="sharegpt",
        command="python -m sglang.bench_serving --backend sglang --dataset-name sharegpt "
                "--num-prompts 80 --max-concurrency 1", git_commit="9a3e5d1c7f2b4a6e",
        notes="--tp 8 --cuda-graph-max-bs 8, 10 warm-up prompts")
    r["c32"] = bench(
        store, 4.0, config="sglang kimi-k2.5 tp8 no-spec c=32", baseline=True, engine="sglang",
        value=1450.0, concurrency=32, dataset="sharegpt",
        command="python -m sglang.bench_serving --backend sglang --dataset-name sharegpt "
                "--num-prompts 640 --max-concurrency 32", notes="throughput baseline")
    r["failed"] = bench(
        store, 2.5, config="sglang eagle3 5k drafter topk=8 draft=64 triton", engine="sglang",
        status="failed", exit_code=1, concurrency=1, spec_algorithm="EAGLE3",
        command="python -m sglang.launch_server --model moonshotai/Kimi-K2.5 --speculative-algorithm "
                "EAGLE3 --speculative-num-steps 7 --speculative-eagle-topk 8 "
                "--speculative-num-draft-tokens 64 --attention-backend triton",
        notes="Server died at the first verify step: Triton OutOfResources (shared memory).")
    r["eagle"] = bench(
        store, 1.0, config="sglang kimi-k2.5 eagle3 10k drafter c=1", engine="sglang",
        spec_algorithm="EAGLE3", draft_model="checkpoints/eagle3-kimi/step_10000",
        accept_length=2.1, value=82.3, concurrency=1, dataset="sharegpt",
        command="python -m sglang.bench_serving --backend sglang --dataset-name sharegpt "
                "--num-prompts 80 --max-concurrency 1", git_commit="b7d2f4a6c8e0a2c4")
    lessons = [
        ("triton", 2.4, "Triton OutOfResources (shared memory) with a 64-token draft tree",
         "triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 262144, "
         "Hardware limit: 232448", "Tree attention kernel blocks too large for 64 draft tokens",
         "Use --attention-backend fa3, or keep --speculative-num-draft-tokens <= 32 on triton"),
        ("packing", 4.3, "Sequence packing let the drafter attend across samples",
         "Training acc_0 reached 0.93 yet SGLang measured accept length 1.4",
         "Packed samples kept running position_ids", "Reset position_ids per sample, cu_seqlens"),
        ("nccl", 3.6, "NCCL watchdog timeout while rank 0 ran evaluation alone",
         "Watchdog caught collective operation timeout: WorkNCCL(OpType=ALLREDUCE) ran for 600046 ms",
         "Evaluation on rank 0 only", "Shard evaluation over every rank"),
        ("oom", 5.8, "CUDA OOM building the target's hidden states at max-length 8192",
         "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 7.83 GiB",
         "Online training keeps three hidden layers for 8192 tokens",
         "--max-length 4096 with --target-batch-size 1"),
    ]
    for name, days, title, symptom, cause, fix in lessons:
        r[name] = store.add(Record(kind="lesson", created_at=_ago(days), title=title,
                                   symptom=symptom, cause=cause, fix=fix))
    r["plan"] = store.add(Record(kind="note", created_at=_ago(6.5), tags=["plan"], text=(
        "Project goal: EAGLE-3 drafter for Kimi-K2.5, 2x single-stream output tok/s over the "
        "SGLang baseline, trained with SpecForge on regenerated ShareGPT answers.")))
    r["recipe"] = store.add(Record(kind="note", created_at=_ago(6.1), tags=["recipe"], text=(
        "Benchmark recipe: bench_serving on sharegpt, 80 prompts, max concurrency 1, after 10 "
        "warm-up prompts. Only compare numbers from the same recipe.")))
    r["launch"] = store.add(Record(kind="note", created_at=_ago(2.0), tags=["infra"], text=(
        "100k drafter: launched with torchrun --nproc_per_node 8 on gpu-node-07 (deepspeed zero3 "
        "kept hanging at init). Hidden states regenerated to /data/hs/kimi-k2.5-100k (2.1 TB).")))
    r["crashed"] = store.add(Record(
        kind="run", created_at=_ago(3.0), name="eagle3-kimi-drafter-v1",
        log_path="/data/runs/eagle3-kimi-drafter-v1/train.log", status="crashed", step=66,
        total_steps=12000, loss=6.8, last_update=_ago(2.9),
        events=[{"kind": "crashed", "step": 66, "message": "CUDA OOM",
                 "line": "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 7.83 GiB"}]))
    r["run100k"] = store.add(Record(
        kind="run", created_at=_ago(1.5), name="eagle3-kimi-100k",
        log_path="/data/runs/eagle3-kimi-100k/train.log", status="running", step=4000,
        total_steps=25000, loss=3.4, eta_s=9.5 * 3600, last_update=_ago(0.75)))
    r["run"] = store.add(Record(
        kind="run", created_at=_ago(0.5), name="eagle3-kimi-drafter-v2", log_path=RUN_LOG,
        status="running", step=LIVE_STEP, total_steps=12000, epoch=0.7, loss=3.12, lr=8e-5,
        acc=list(LIVE_ACC), eta_s=3520.0, last_update=_ago(0.01),
        milestones=[{"kind": "progress", "pct": 25, "step": 3000, "loss": 3.6, "acc": [0.7]}]))
    return r
