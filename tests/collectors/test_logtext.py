"""Log text: signatures of real crash tails (OOM, Triton, NCCL, signals, launchers), excerpts."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sessiontui.collectors.logtext import (
    clean,
    excerpt,
    failure_kind,
    failure_signature,
    is_exception_line,
)

CRASH = Path(__file__).parent.parent / "fixtures" / "crash"


def crash_tail(name: str) -> str:
    """A fixture's log lines without its header comment."""
    lines = (CRASH / name).read_text().splitlines(keepends=True)
    return "".join(line for line in lines if not line.startswith("#"))


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("cuda_oom.log",
         "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate <size>. GPU <n> has a total "
         "capacity of <size> of which <size> is free. Process <n> has <size> memory in use."),
        ("cuda_oom_legacy.log",
         "RuntimeError: CUDA out of memory. Tried to allocate <size> (GPU <n>; <size> total capacity;"),
        ("triton_shared_memory.log",
         "triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: <n>, "
         "Hardware limit: <n>."),
        ("nccl_watchdog.log",
         "ProcessGroupNCCL: Watchdog caught collective operation timeout: WorkNCCL(SeqNum=<n>, "
         "OpType=ALLREDUCE, NumelIn=<n>, NumelOut=<n>, Timeout(ms)=<n>) ran for <n> milliseconds"),
        ("killed.log", "Killed"),
        ("segfault_core_dumped.log", "SegmentationFault"),
        ("segfault_faulthandler.log", "SegmentationFault"),
        ("segfault_exit_139.log", "SegmentationFault"),
        ("segfault_torchrun.log", "SegmentationFault"),  # not torchrun's ChildFailedError
        ("segfault_launch.log", "SegmentationFault"),  # not the launcher's CalledProcessError
        ("bus_error_plain.log", "BusError"),
        ("illegal_memory_access.log",
         "RuntimeError: CUDA error: an illegal memory access was encountered"),
        ("illegal_memory_access_grad.log",
         "RuntimeError: CUDA error: an illegal memory access was encountered"),
        ("device_side_assert.log", "RuntimeError: CUDA error: device-side assert triggered"),
        ("child_failed_sigkill.log", "Killed"),
        ("child_failed_exit1.log", "torch.distributed.elastic.multiprocessing.errors.ChildFailedError"),
        ("no_space_torch_save.log", "OSError: [Errno <n>] No space left on device"),
    ],
)
def test_signature_of_each_crash_tail(name: str, expected: str) -> None:
    signature = failure_signature(crash_tail(name))
    assert signature.startswith(expected)
    assert not re.search(r"\d", signature.replace("Timeout(ms)", ""))


def test_same_failure_with_other_numbers_has_the_same_signature() -> None:
    assert failure_signature(crash_tail("cuda_oom.log")) == failure_signature(
        crash_tail("cuda_oom_later.log"))


def test_the_failure_wins_over_the_launcher_that_reports_it() -> None:
    # torchrun's ChildFailedError comes last, but the watchdog timeout is the failure.
    assert failure_signature(crash_tail("nccl_watchdog.log")).startswith("ProcessGroupNCCL:")


def test_abstractions() -> None:
    signature = failure_signature(
        "[default3]:2026-03-01 10:11:12,345 - ERROR - FileNotFoundError: [Errno 2] No such file: "
        "'/data/shard-00017.arrow' at 0x7f3b8c5b6f86 rank 3 pid 4411 after 12:30:01"
    )
    assert signature == (
        "FileNotFoundError: [Errno <n>] No such file: '<path>' at <addr> rank <n> pid <n> "
        "after <time>"
    )


def test_prefixes_do_not_change_the_signature() -> None:
    line = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB."
    assert failure_signature(f"[default0]:{line}") == failure_signature(line)
    assert failure_signature(f"[rank5]: {line}") == failure_signature(line)
    assert clean(f"ERROR 01-11 13:09:40 engine.py:366] {line}") == line


def test_exception_lines_behind_an_unknown_bracketed_tag() -> None:
    assert is_exception_line("[177/train/578 (pid 28936)] OSError: [Errno 28] No space left")
    assert not is_exception_line("[177/train/578 (pid 28936)] saving checkpoint")
    # a few tags stacked (a task's own id tag after a launcher's)
    assert is_exception_line("[worker 3] [09c561ee-a44c-4795-967c-7183a83b3160] OSError: [Errno 28] No space left")
    assert not is_exception_line("[worker 3] [09c561ee-a44c-4795-967c-7183a83b3160] saving checkpoint")


@settings(deadline=None)  # robustness, not speed: a loaded CI runner must not fail it
@given(st.text(max_size=2000))
def test_any_text_gives_a_one_line_signature(text: str) -> None:
    signature = failure_signature(text)
    assert "\n" not in signature and "\r" not in signature


def test_empty_text_has_no_signature() -> None:
    assert failure_signature("") == ""


def test_excerpt_is_the_failure_without_bars_prefixes_or_repeats() -> None:
    bars = [f"[rank0]:Training:  {i}%|##  | {i}/100 [00:0{i % 10}<01:00,  2.50it/s]" for i in range(12)]
    frames = [f'[rank0]:  File "/w/train.py", line {n}, in step{n}\n[rank0]:    out = f{n}(x)'
              for n in range(8)]
    error = "[rank0]:torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB."
    lines = [*bars, "[rank0]:Traceback (most recent call last):", *frames, error, error,
             "[rank1]:torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB."]
    cut = excerpt(lines)
    assert len(cut) <= 15
    assert cut[0] == "Traceback (most recent call last):"
    assert cut[-1] == "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB."
    assert cut.count(cut[-1]) == 1
    assert not any("%|" in line or line.startswith("[rank") for line in cut)
    assert 'File "/w/train.py", line 7, in step7' in cut  # the innermost frames are kept
    assert 'File "/w/train.py", line 0, in step0' not in cut


PAYLOAD = "step: 250  loss: 2.5"


# One line per prefix shape, the payload behind it; each comment names the code or the real log
# that prints the shape.
@pytest.mark.parametrize("prefix", [
    "root - INFO - ",  # logging `%(name)s - %(levelname)s - %(message)s` (torchtitan's handler)
    "[rank0]:",  # torch.distributed.elastic `--local-ranks-filter` line prefix `[rank{rank}]:`
    "[default0]:",  # torchrun --tee (torch < 2.2) prefix `[{role}{local_rank}]:`
    "[05:27:23.812437] ",  # MAE/DeiT misc.py `builtin_print('[{}] '.format(now.time()), ...)`
    # detectron2/utils/logger.py setup_logger's file handler `[%(asctime)s] %(name)s %(levelname)s: `
    # with datefmt `%m/%d %H:%M:%S` (corpus train/b34 detectron2_mask2former_log_txt_tail_*), and the
    # same logging format with the default asctime
    "[08/30 23:53:52] d2.engine.hooks INFO: ",
    "[2024-01-01 10:00:00,123] benchmark.runner WARNING: ",
    # logging `%(asctime)s %(levelname).1s [%(filename)s:%(lineno)d] %(message)s` (aws-samples/
    # awsome-distributed-training FSDP train.py: corpus train/b33 fsdp_llama3_8b_*)
    "2025-06-17 16:25:08 I [train.py:103] ",
    "0: 2025-06-17 16:25:08 W [train.py:103] ",  # the same behind srun's `--label`
    "2024-05-01 10:00:00,123 - INFO - module - ",  # logging `%(asctime)s - %(levelname)s - %(name)s - `
    "INFO:__main__:",  # logging.basicConfig default `%(levelname)s:%(name)s:%(message)s`
    "INFO     root:vllm_bench.py:126 ",  # pytest's log_format (corpus bench/b22 vllm_bench_serve_ascend_e2e_*)
    "I1201 10:00:00.123456 140 train.py:12] ",  # absl/glog `LMMDD hh:mm:ss.uuuuuu thread file:line]`
    "[1,mpirank:0,algo-1]<stdout>:",  # SageMaker mpirun --tag-output (corpus train/b02 sagemaker_*)
    "(APIServer pid=1) INFO 08-12 10:00:00 [loggers.py:271] ",  # vllm/logger.py `_FORMAT` + process prefix
    "ERROR 01-11 13:09:40 engine.py:366] ",  # vLLM < 0.8 `%(levelname)s %(asctime)s %(filename)s:%(lineno)d]`
    "2021-01-01 10:00:00 | INFO | fairseq_cli.train | ",  # fairseq_cli/train.py logging.basicConfig format
    "2024-01-01 10:00:00.123 | INFO     | __main__:main:12 - ",  # loguru's default format
    "[12/01/24 10:00:00] INFO     ",  # rich.logging.RichHandler (time, level, ... source at the end)
    "[rank3]:[W1201 10:00:00.123456789 ProcessGroupNCCL.cpp:1234] ",  # torch c10 warning behind elastic
    "0: INFO:__main__:",  # srun --label before a logger prefix
    "srun: ",  # srun's own messages
    "(RayTrainWorker pid=123) ",  # Ray's worker-output prefix
    "[2024-01-01 10:00:00,123] [INFO] [logging.py:96:log_dist] [Rank 0] ",  # deepspeed/utils/logging.py
    "wandb: ",  # wandb's terminal output (corpus train/b17 lightning_it_bar_glued_wandb_fit_stopped)
    "trainer-1  | ",  # docker compose v2 `service-N  | ` output
    "2024-01-01T10:00:00.123456789Z ",  # kubectl logs --timestamps (corpus bench/b12 vllm_engine_log_iso)
    "Dec 01 10:00:00 gpu-host python[1234]: ",  # journalctl's short format
    "[INFO|trainer.py:1234] 2024-01-01 10:00:00,123 >> ",  # transformers' examples logging format
    "[2024-01-01 10:00:00,123][__main__][INFO] - ",  # Hydra's job-logging default
    "[NeMo I 2024-01-01 10:00:00 exp_manager:123] ",  # NeMo's logging formatter
    "2024-01-01 10:00:00.123456: I tensorflow/core/platform/cpu_feature_guard.cc:193] ",  # TF C++ log
    # the same, pasted where the page linked the `.cc` file name as a domain (corpus crash/b12)
    "2017-07-02 15:57:33.230281: W tensorflow/core/common_runtime/http://bfc_allocator.cc:217] ",
    "12/01/2024 10:00:00 - INFO - __main__ - ",  # accelerate/transformers no_trainer examples
    "2024/01/01 10:00:00 - mmengine - INFO - ",  # MMEngine's MMFormatter
    "DLL 2022-04-05 05:10:36.324733 - ",  # NVIDIA DLLogger StdOutBackend
    "worker-1: ",  # pdsh (DeepSpeed multi-node launcher) host prefix
    "#015",  # SageMaker writes each `\r` as `#015`
    "[host] 2020-11-11 16:36:33,446 (trainer:328) INFO: ",  # espnet2/utils logging format
    # Netflix/metaflow cli.py logger's `%Y-%m-%d %H:%M:%S.%f`[:-3] stamp and runtime.py Worker.log's
    # `[run/step/task (pid N)] ` (`[run/step/task] ` without a pid)
    "2023-04-29 06:01:12.977 [177/train/578 (pid 28936)] ",
    "2023-04-29 06:01:12.977 [sfn-1a2b/start/1] ",
    # saforem2/ezpz src/ezpz/log/handler.py `FluidLogRender`: `[date time][L][parent/module:line:fn] `
    "[2025-12-31 12:16:49,364806][I][ezpz/launch:448:launch] ",
    "[2025-12-31 12:16:47,618825][I][examples/vit:544:<module>] ",
])
def test_each_logger_prefix_shape_is_stripped(prefix: str) -> None:
    assert clean(prefix + PAYLOAD) == PAYLOAD


def test_rich_source_column_at_the_end_is_not_a_figure() -> None:
    # corpus train/b03 kohya_avr_loss_nan.log: rich prints `train_util.py:779` right-aligned
    line = "2025-06-29 11:57:32 INFO     epoch is incremented. epoch: 2                 train_util.py:779"
    assert clean(line) == "epoch is incremented. epoch: 2"


@pytest.mark.parametrize(("line", "payload"), [
    # CLU's metric writer (corpus train/b07): `[1000]` after the absl prefix is the step
    ("I1002 21:43:51.424899 140400640460352 logging_writer.py:35] [1000] train_loss=6.52",
     "[1000] train_loss=6.52"),
    # ProcessGroupNCCL's own message names the rank that timed out
    ("[Rank 1] Watchdog caught collective operation timeout",
     "[Rank 1] Watchdog caught collective operation timeout"),
    ("1000: loss 2.5", "1000: loss 2.5"),  # a script's own step, not srun's task label
])
def test_what_is_not_a_prefix_stays(line: str, payload: str) -> None:
    assert clean(line) == payload


@pytest.mark.parametrize("line", [
    "slurmstepd: error: *** JOB 12345 ON node01 CANCELLED AT 2024-01-01T10:00:00 DUE TO TIME LIMIT ***",
    "slurmstepd: error: *** STEP 12345.0 ON gpu-17 CANCELLED AT 2024-01-01T10:00:00 ***",
])
def test_a_slurm_cancellation_is_a_failure(line: str) -> None:
    assert failure_signature("step 100 loss 2.5\n" + line + "\n") == "SlurmCancelled"


@pytest.mark.parametrize(("tail", "kind"), [
    # torchrun's report (hpcaitech/ColossalAI#3677) in a coloured console
    ("ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: \x1b[31m-9\x1b[0m) "
     "local_rank: 1 (pid: 1168) of binary: /opt/conda/bin/python\n", "host_oom"),
    # the shell's `Killed` (equinor/ert#7797) under SageMaker's prefix, no space after it
    ("[1,mpirank:0,algo-1]<stderr>:Killed\n", "host_oom"),
    # Python's own report of Ctrl-C: the exception's name alone on the traceback's last line
    ('  File "train.py", line 10, in <module>\n    trainer.train()\nKeyboardInterrupt\n', "interrupted"),
    # torchrun's handler: `raise SignalException(f"Process {os.getpid()} got signal: {sigval}", ...)`
    # (pytorch/pytorch torch/distributed/elastic/multiprocessing/api.py)
    ("torch.distributed.elastic.multiprocessing.api.SignalException: Process 2471 got signal: 2\n",
     "interrupted"),
    # a failure the tail names before the interrupt wins
    ("torch.OutOfMemoryError: CUDA out of memory.\nKeyboardInterrupt\n", "cuda_oom"),
    # a web page's copy keeps the space after a colon as `&nbsp;` (torch/utils/data/_utils/signal_handling.py)
    ("RuntimeError: DataLoader worker (pid 22358) is killed by signal:\u00a0Killed.\n", "host_oom"),
    ("C:\\Python311\\python.exe:\u00a0Error while finding module specification for 'accelerate.commands.launch'"
     " (ModuleNotFoundError:\u00a0No module named 'accelerate')\n", "import_error"),
])
def test_failure_kind_through_colour_glued_prefixes_and_ctrl_c(tail: str, kind: str) -> None:
    assert failure_kind(tail) == kind
