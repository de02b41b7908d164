"""How a run ends: every row of endings.py's table finishes a run, near-misses do not, and the
lines with which a job dies without a Python traceback header crash it."""

from __future__ import annotations

import math
import re

import pytest

from sessiontui.collectors.trainlog.endings import ROWS, says_run_ended
from sessiontui.collectors.trainlog.snapshot import TrainSnapshot
from sessiontui.collectors.trainlog.state import TrainState


def _snapshot(text: str) -> TrainSnapshot:
    """A log text read in one go."""
    state = TrainState("x")
    state.feed(text.encode(), 1.0)
    return state.snapshot(2.0)


@pytest.mark.parametrize(("marker", "example"), [(marker, example) for marker, _, example in ROWS])
def test_every_ending_in_the_table_finishes_a_run(marker: str, example: str) -> None:
    assert marker in example
    snap = _snapshot(f"step 10 loss 2.5\nstep 20 loss 2.4\n{example}\n")
    assert snap.status == "finished"
    assert [e.kind for e in snap.events] == ["finished"]


@pytest.mark.parametrize("line", [
    "Training done. Best val acc: 0.5000",  # the plain words, after any logger prefix
    "Training Done | Best Dice: 0.9204",
    "[2024-01-01 10:00:00,000][root][INFO] - Training is over",
    "INFO:root:End of training",
    "Ended training after 3 epochs",
    "Maximum number of iterations reached, training stops",
    "max_iters=5000 reached",
    "[INFO] Reached the maximum number of epochs",
    "Early stopping",  # early stopping in any trainer's words
    "2024-01-01 10:00:00 - INFO - Early stopping at epoch 12",
    "Early stopping triggered!",
    "No improvement since epoch 3: early stopping",
    "Time limit reached. Elapsed time is 1 day, 0:00:03. Signaling Trainer to stop.",
    "*** Training finished ***",  # decorated, other stages' words
    "==> Training finished",
    "Model training complete",
    "Pretraining complete",
    "Finished fine-tuning",
    "Training complete in 24m 12s",  # PyTorch's transfer-learning tutorial
])
def test_plain_words_for_the_end_finish_a_run(line: str) -> None:
    assert _snapshot(f"step 10 loss 2.5\n{line}\n").status == "finished"


@pytest.mark.parametrize("line", [
    "Training complete for epoch 3",
    "Training finished for epoch 3, starting validation",
    "Training done epoch 4",
    "Finished training epoch 2",
    "Process finished with exit code 1",
    "Execution finished with 1.",  # ezpz's launcher after a command that failed
    "Saving weights to /home/rtc/darknet/backup//yolo-obj_last.weights",  # darknet's periodic save
    "Saving weights to backup//yolo-obj_1000.weights",
    "If max_steps is given, it will override any value given in num_train_epochs",
    "2020-05-24 21:12:17 Training - Downloading the training image.........",
    "Training time per step: 0.31 s, ETA 1:00:00",
    "Saving final layer norm statistics",
    "Key: lr, Value: 0.001",
    "max_steps=5000, reached step 20",
    "Done!",  # torchvision's MNIST download says it before training starts
    "Loss for step 20: 0.5",
    "Fine-tuning finished for epoch 2",
    "** Training done epoch 4",
    "EarlyStopping counter: 3 out of 10",  # early stopping counting, or set up
    "Early stopping patience: 10",
    "Using early stopping with patience 5",
    "early_stopping: True",
])
def test_lines_near_an_ending_do_not_end_the_run(line: str) -> None:
    assert not says_run_ended(line)
    assert _snapshot(f"step 10 loss 2.5\n{line}\n").status != "finished"


@pytest.mark.parametrize(("tail", "step"), [
    # Hydra's job wrapper (map-anything issue 89), and its closing hint when the tail starts there
    ("[2025-10-31 05:07:11,062][__main__][ERROR] - Error executing job with overrides: "
     "['machine=hpc_train', 'train_params.epochs=100']", 20),
    ("Set the environment variable HYDRA_FULL_ERROR=1 for a complete stack trace.", 20),
    ("terminate called after throwing an instance of 'c10::CUDAError'", 20),
    ("Floating point exception (core dumped)", 20),
    ("Process finished with exit code 1", 20),
    ("[2023-05-01 10:00:00,123] [ERROR] [launch.py:321:sigkill_handler] ['/usr/bin/python', '-u', "
     "'train.py', '--local_rank=0'] exits with return code = 1", 20),
    ("wandb: ERROR Run abc123 errored: RuntimeError('CUDA error')", 20),
    ("srun: error: gpu-node-07: task 0: Exited with exit code 1", 20),
])
def test_a_wrapper_or_runtime_error_line_is_a_crash(tail: str, step: int) -> None:
    snap = _snapshot(f"step 10 loss 2.5\nstep 20 loss 2.4\n{tail}\n")
    assert snap.status == "crashed"
    (event,) = snap.events
    assert event.kind == "crashed" and event.step == step
    assert snap.epoch is None  # the overrides' `epochs=100` is not the run's epoch


@pytest.mark.parametrize("line", [
    "Loss is nan, stopping training", "Loss is inf, stopping training",
    "NaN loss detected at step 21, exiting", "Loss became nan. Aborting.", "[rank0] inf loss, terminating",
])
def test_a_script_that_exits_on_a_non_finite_loss_crashed(line: str) -> None:
    assert _snapshot(f"step 10 loss 2.5\nstep 20 loss 2.4\n{line}\n").status == "crashed"


@pytest.mark.parametrize("line", [
    "Monitored metric loss = nan is not finite. Previous best value was inf. Signaling Trainer to stop.",
    "loss: nan", "Exiting the data loader worker 3",
])
def test_a_non_finite_loss_that_stops_nothing_is_not_a_crash(line: str) -> None:
    assert _snapshot(f"step 10 loss 2.5\n{line}\n").status != "crashed"


def test_a_run_that_stops_on_a_nan_loss_crashed_and_says_the_loss() -> None:
    # DeiT/DETR/MAE: `print("Loss is {}, stopping training".format(loss_value)); sys.exit(1)`
    snap = _snapshot("Epoch: [5]  [19770/26922]  eta: 0:36:55  lr: 0.000311  loss: 12.8984 (12.8393)"
                     "  time: 0.3092  data: 0.0097  max mem: 17167\nLoss is nan, stopping training\n")
    assert snap.status == "crashed"
    assert snap.loss is not None and math.isnan(snap.loss)  # the card shows why it stopped
    assert [e.kind for e in snap.events] == ["diverged", "crashed"]


def test_a_nan_loss_that_goes_on_is_divergence_not_a_crash() -> None:
    snap = _snapshot("step 10 loss 2.5\nLoss is nan, skipping this batch\n")
    assert snap.status == "diverged"


@pytest.mark.parametrize("tail", [
    "RuntimeError: CUDA error: an illegal instruction was encountered",  # the header scrolled away
    "[rank0]: ValueError: Expected input batch_size (16) to match target batch_size (8).",
    "Exception: dataset shard 3 is empty",
])
def test_an_exception_line_without_its_traceback_header_is_a_crash(tail: str) -> None:
    snap = _snapshot(f"step 10 loss 2.5\nstep 20 loss 2.4\n{tail}\n")
    assert snap.status == "crashed"
    (event,) = snap.events
    assert event.step == 20 and tail.split(":")[-1].strip().split()[0] in event.message


@pytest.mark.parametrize("line", [
    "UserWarning: Was asked to gather along dimension 0, but all input tensors were scalars",
    "Caught ValueError: retrying the shard",
    "2024-01-01 10:00:00 WARNING ValueError in the loader was skipped",
])
def test_a_warning_or_a_mention_of_an_exception_is_not_a_crash(line: str) -> None:
    assert _snapshot(f"step 10 loss 2.5\n{line}\n").status == "running"


def test_a_run_that_goes_on_after_a_bare_exception_line_is_running() -> None:
    snap = _snapshot("step 10 loss 2.5\nValueError: bad sample 17, skipped\nstep 20 loss 2.4\n"
                     "step 30 loss 2.3\n")
    assert snap.status == "running" and snap.step == 30


def test_a_wandb_summary_after_the_run_keeps_its_position_and_finishes_it() -> None:
    # wandb/sdk/wandb_run.py `_footer_history_summary_info`: `_step` counts log calls
    snap = _snapshot("step 100 loss 2.0\nstep 200 loss 1.9\n"
                     "wandb: Waiting for W&B process to finish... (success).\n"
                     "wandb: Run summary:\nwandb:   loss 1.9\nwandb:   _step 57\nwandb: \n"
                     "wandb: Synced 5 W&B file(s), 0 media file(s), 0 artifact file(s) and 0 other file(s)\n")
    assert (snap.status, snap.step, snap.loss) == ("finished", 200, 1.9)


@pytest.mark.parametrize("tail", [
    # nanoGPT stopped with Ctrl+C (simonw/public-notes#11, corpus b27)
    'Traceback (most recent call last):\n  File "train.py", line 286, in <module>\n'
    "    loss.backward()\nKeyboardInterrupt\n",
    "KeyboardInterrupt\n",  # the traceback header scrolled away
    # torchrun passing the user's Ctrl-C to its workers (torch/distributed/elastic/agent/server/api.py)
    "torch.distributed.elastic.multiprocessing.api.SignalException: Process 4242 got signal: 2\n",
])
def test_a_run_stopped_with_ctrl_c_ends_with_an_interrupted_event(tail: str) -> None:
    snap = _snapshot(f"step 10 loss 2.5\nstep 20 loss 2.4\n{tail}")
    assert (snap.status, snap.step, [e.label for e in snap.events]) == ("crashed", 20, ["interrupted"])


@pytest.mark.parametrize("tail", [
    # SLURM's time limit (slurmstepd's message, src/slurmd/slurmstepd/req.c)
    "slurmstepd: error: *** JOB 4242 ON gpu-07 CANCELLED AT 2026-11-30T03:00:00 DUE TO TIME LIMIT ***\n",
    # torchelastic passing the scheduler's SIGTERM on (torch/distributed/elastic/agent/server/api.py)
    "torch.distributed.elastic.multiprocessing.api.SignalException: Process 4242 got signal: 15\n",
])
def test_a_run_its_scheduler_stopped_is_a_warning_not_a_failure_to_learn_from(tail: str) -> None:
    snap = _snapshot(f"step 10 loss 2.5\nstep 20 loss 2.4\n{tail}")
    event = snap.events[-1]
    assert (snap.status, snap.step, event.label, event.severity) == ("crashed", 20, "cancelled", "warning")
    interrupted = _snapshot("step 10 loss 2.5\nKeyboardInterrupt\n").events[-1]
    assert (interrupted.label, interrupted.severity) == ("interrupted", "information")


def test_ctrl_c_after_a_crash_leaves_the_run_crashed() -> None:
    snap = _snapshot("step 10 loss 2.5\nTraceback (most recent call last):\n  File \"t.py\", line 1\n"
                     "RuntimeError: CUDA error: an illegal memory access was encountered\n^C\nKeyboardInterrupt\n")
    assert snap.status == "crashed"


@pytest.mark.parametrize("example", [example for _, _, example in ROWS if "  " in example])
def test_every_ending_holds_with_tabs_for_its_space_runs(example: str) -> None:
    """A paste that turned runs of spaces into tabs (the Trainer's `train_runtime\t=\t0:16:13.91`,
    corpus b34's eurosat notebook under benchmarks/format_robustness.py) still ends the run."""
    tabbed = re.sub(r" {2,}", "\t", example)
    assert _snapshot(f"step 10 loss 2.5\nstep 20 loss 2.4\n{tabbed}\n").status == "finished"


def test_steps_after_a_failure_line_read_before_any_step_go_on() -> None:
    # verl's console logger prints `step:N - name:value - ...` (verl/utils/logger/aggregate_logger.py
    # `concat_dict_to_str`) behind Ray's `(main_task pid=N)`; aws-ofi-nccl's failed plugin start is
    # printed as an `NCCL WARN` before the first step and NCCL goes on over sockets (corpus train/b37)
    snap = _snapshot(
        "\x1b[36m(WorkerDict pid=28545)\x1b[0m ip-10-1-2-3:28545:28765 [0] nccl_net_ofi_init:1472 "
        "NCCL WARN NET/OFI aws-ofi-nccl initialization failed\n"
        "\x1b[36m(main_task pid=28294)\x1b[0m step:0 - critic/kl:0.000 - actor/pg_loss:0.010\n"
        "\x1b[36m(main_task pid=28294)\x1b[0m step:1 - critic/kl:0.001 - actor/pg_loss:0.020\n")
    assert (snap.step, snap.status) == (1, "running")


def test_a_job_run_again_after_its_crash_in_one_capture_is_read_as_a_new_run() -> None:
    # Detectron2's events writer (detectron2/utils/events.py CommonMetricPrinter `iter: {iter}  ...`)
    # and train_loop's `Starting training from iteration {}`: a tmux capture where the first run's
    # evaluation died of OOM and the user ran it again (corpus train/b37)
    lines = "".join(f"[12/22 22:29:54 d2.utils.events]:  eta: 0:02:30  iter: {it}  total_loss: {5 - it / 100}"
                    "  lr: 2e-05  max_mem: 2724M\n" for it in (19, 199))
    snap = _snapshot(
        lines + "Traceback (most recent call last):\n  File \"train_net.py\", line 1, in <module>\n"
        "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.84 GiB\n"
        "[12/22 22:40:18 d2.engine.train_loop]: Starting training from iteration 0\n"
        "[12/22 22:41:48 d2.utils.events]:  eta: 0:00:00  iter: 99  total_loss: 3.368  lr: 2e-05\n")
    assert (snap.step, snap.loss, snap.status) == (99, 3.368, "running")
