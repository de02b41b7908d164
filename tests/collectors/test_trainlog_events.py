"""Events: crashes from real crash tails, divergence, the end of training; each said once."""

from __future__ import annotations

from pathlib import Path

import pytest

from sessiontui.collectors.trainlog import LogFollower, read_log
from sessiontui.collectors.trainlog.events import FailureWatcher
from sessiontui.collectors.trainlog.state import TrainState

CRASHES = Path(__file__).parent.parent / "fixtures" / "crash"


@pytest.mark.parametrize(
    ("name", "step", "message", "signature_start"),
    [
        ("cuda_oom.log", 420, "torch.OutOfMemoryError: CUDA out of memory at step 420",
         "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate <size>"),
        ("cuda_oom_legacy.log", None, "RuntimeError: CUDA out of memory",
         "RuntimeError: CUDA out of memory."),
        ("triton_shared_memory.log", 60,
         "triton.runtime.errors.OutOfResources: out of resource: shared memory, Required: 262144, "
         "Hardware limit: 232448 at step 60", "triton.runtime.errors.OutOfResources:"),
        ("nccl_watchdog.log", 3160, "[Rank 1] Watchdog caught collective operation timeout",
         "ProcessGroupNCCL: Watchdog caught"),
        ("killed.log", 2100, "/home/ml/run.sh: line 12: 40213 Killed", "Killed"),
    ],
)
def test_one_crash_event_per_real_crash_tail(name: str, step: int | None, message: str,
                                             signature_start: str) -> None:
    snap = read_log(CRASHES / name)
    assert snap.status == "crashed"
    (event,) = snap.events  # follow-on lines (other ranks, torchrun's summary) add nothing
    assert event.kind == "crashed" and event.step == step
    assert event.message.startswith(message)
    assert event.signature is not None and event.signature.startswith(signature_start)
    assert event.line in (CRASHES / name).read_text()
    assert 1 <= len(event.context) <= 15 and event.context[-1] in event.line
    assert not any("%|" in line for line in event.context)  # the excerpt drops bar redraws


def test_crash_metrics_are_not_polluted_by_the_report() -> None:
    snap = read_log(CRASHES / "nccl_watchdog.log")
    assert set(snap.metrics) == {"acc_0", "loss", "lr"}  # no SeqNum=, exitcode:, pid: figures


def test_traceback_split_across_reads_is_one_event(tmp_path: Path) -> None:
    text = (CRASHES / "triton_shared_memory.log").read_text()
    path = tmp_path / "train.log"
    path.write_text("")
    follower = LogFollower(path)
    for cut in range(0, len(text), 97):  # arrives in small pieces, mid-line
        with open(path, "a") as out:
            out.write(text[cut:cut + 97])
        follower.poll()
    events = follower.poll().events
    assert [e.kind for e in events] == ["crashed"]
    assert "OutOfResources" in events[0].message


def test_a_traceback_is_reported_at_its_exception_line() -> None:
    watcher = FailureWatcher()
    lines = [
        "Traceback (most recent call last):",
        '  File "train.py", line 3, in <module>',
        "KeyError: 'x'",
    ]
    events = [watcher.feed(line, 0.0, 7) for line in lines]
    assert events[:2] == [None, None]
    assert events[2].message == "KeyError: 'x' at step 7"
    assert events[2].context == tuple(line.strip() for line in lines)


def test_a_job_restarted_after_a_crash_runs_again(tmp_path: Path) -> None:
    path = tmp_path / "train.log"
    path.write_text((CRASHES / "killed.log").read_text()
                    + "Training Epoch 0:   1%|          | 50/5000 [00:50<1:22:30,  1.00it/s]\n")
    snap = read_log(path)
    assert snap.status == "running"
    assert snap.run_index == 1 and snap.step == 50 and not snap.events
    [ended] = snap.ended_runs
    assert ended.status == "crashed" and ended.step == 2100
    assert [e.kind for e in ended.events] == ["crashed"]


@pytest.mark.parametrize(
    "line",
    [
        "{'loss': nan, 'grad_norm': nan, 'learning_rate': 2e-05, 'epoch': 0.4}",
        "step 30: {'acc_0': 0.1, 'loss': inf, 'lr': 1e-4}",
        "Training Epoch 0:  30%|███       | 30/100 [00:30<01:10,  1.00it/s, loss=nan, acc=0.1]",
        "step=30 loss=-inf",
    ],
)
def test_non_finite_loss_is_divergence_said_once(line: str) -> None:
    state = TrainState("x")
    state.feed(b"step=29 loss=2.0\n" + (line + "\n").encode() * 3, 5.0)
    snap = state.snapshot(5.0)
    assert snap.status == "diverged"
    assert [e.kind for e in snap.events] == ["diverged"]
    assert "loss is" in snap.events[0].message


def test_divergence_among_sampled_redraws_is_seen() -> None:
    # 5000 redraws on one line: most are dropped, but a nan loss persists into the kept ones.
    bars = "".join(
        f"\rtrain: {s // 50:3d}%|#         | {s}/5000 [00:{s % 60:02d}<01:00,  9.00it/s, "
        f"loss={'nan' if s >= 1234 else 1.0}]" for s in range(1, 4990)
    )
    state = TrainState("x")
    state.feed(bars.encode() + b"\n", 1.0)
    snap = state.snapshot(1.0)
    assert snap.status == "diverged" and snap.step == 4989
    (event,) = snap.events
    assert event.kind == "diverged" and 1234 <= event.step < 1234 + 200


@pytest.mark.parametrize(
    ("text", "step"),
    [
        (" 99%|█████████▉| 99/100 [01:39<00:01,  1.00it/s]\n"
         "100%|██████████| 100/100 [01:40<00:00,  1.00it/s]\n", 100),
        ("{'loss': 1.2, 'learning_rate': 0.0, 'epoch': 3.0}\n"
         "{'train_runtime': 100.5, 'train_samples_per_second': 9.9, 'train_loss': 1.5, "
         "'epoch': 3.0}\n", None),
        (" iteration     1000/    1000 | lm loss: 2.0E+00 |\n", 1000),
    ],
)
def test_finished(text: str, step: int | None) -> None:
    state = TrainState("x")
    state.feed(text.encode(), 1.0)
    snap = state.snapshot(2.0)
    assert snap.status == "finished"
    assert [(e.kind, e.step) for e in snap.events] == [("finished", step)]


def test_a_completed_epoch_bar_then_silence_is_finished_not_stalled() -> None:
    state = TrainState("x", stall_after_s=60)
    state.feed(b"\rTraining Epoch 0: 100%|##########| 10/10 [00:10<00:00,  1.00it/s, loss=1.0]\n", 0.0)
    assert state.snapshot(30.0).status == "running"  # may be the start of another epoch
    snap = state.snapshot(100.0)
    assert snap.status == "finished"
    assert [e.kind for e in snap.events] == ["finished"]


def test_events_serialise_with_lessons_for_the_memory_matcher() -> None:
    event = read_log(CRASHES / "cuda_oom.log").events[0]
    data = event.to_dict()
    assert {"kind", "message", "line", "step", "signature", "lessons", "context"} <= set(data)
    assert data["lessons"] == []


def test_a_tail_cut_inside_a_traceback_is_still_a_crash(tmp_path: Path) -> None:
    log = tmp_path / "tail.log"
    log.write_text(
        "step 120: {'loss': 2.1, 'lr': 0.0001}\n"
        '  File "/usr/lib/python3/site-packages/transformers/tokenization_utils_base.py", line 2936, '
        "in _get_padding_truncation_strategies\n    raise ValueError(\n"
        "ValueError: Asking to pad but the tokenizer does not have a padding token.\n")
    snap = read_log(log)
    assert snap.status == "crashed"
    [event] = snap.events
    assert event.step == 120 and event.signature.startswith("ValueError: Asking to pad")


def test_a_log_that_ends_before_the_exception_line_is_crashed(tmp_path: Path) -> None:
    log = tmp_path / "cut.log"
    log.write_text(
        "Epoch: [0]  [1330/3696]  eta: 0:31:38  lr: 0.000100  loss: 5.0905 (5.4805)  time: 0.8149\n"
        "Traceback (most recent call last):\n"
        '  File "main.py", line 257, in <module>\n'
        "    main(args)\n")
    snap = read_log(log)
    assert snap.status == "crashed" and snap.loss == 5.0905


def test_a_failure_printed_on_a_bar_keeps_the_bar_position(tmp_path: Path) -> None:
    log = tmp_path / "glued.log"
    log.write_text(
        " 99%|█████████▉| 23054/23316 [2:22:47<01:34,  2.79it/s][rank1]:[E1101 17:03:05.82 "
        "ProcessGroupNCCL.cpp:607] [Rank 1] Watchdog caught collective operation timeout: "
        "WorkNCCL(SeqNum=395, OpType=ALLREDUCE, Timeout(ms)=600000) ran for 600083 milliseconds.\n")
    snap = read_log(log)
    assert (snap.status, snap.step, snap.total_steps) == ("crashed", 23054, 23316)
    assert "SeqNum" not in snap.metrics


def test_the_bar_redrawn_after_fit_stopped_keeps_the_run_finished(tmp_path: Path) -> None:
    log = tmp_path / "stopped.log"
    log.write_text(
        "Epoch 2: : 115816it [7:02:37,  4.57it/s, loss=2.1, v_num=3hqp]Epoch 2, global step 400000: "
        "'val/AP' was not in top 1\n"
        "`Trainer.fit` stopped: `max_steps=400000` reached.\n"
        "Epoch 2: : 115816it [7:03:13,  4.56it/s, loss=2.1, v_num=3hqp]\n")
    snap = read_log(log)
    assert (snap.status, snap.step, snap.run_index) == ("finished", 400000, 0)


@pytest.mark.parametrize("last", [
    "300 epochs completed in 8.675 hours.",
    "Training completed. Do not forget to share your model on huggingface.co/models =)",
    "[rank0]:[titan] 2025-06-16 22:30:48,735 - root - INFO - Training completed",
    "[2024-01-01 10:00:00,000] [INFO] [axolotl.train.train:173] [PID:1] [RANK:0] Training Completed!!!",
    "2020-04-05 18:38:34 | INFO | fairseq_cli.train | done training in 39.5 seconds",
    " [after training is done] datetime: 2024-04-06 03:00:00 ",
])
def test_a_line_saying_the_run_is_over_is_finished(tmp_path: Path, last: str) -> None:
    log = tmp_path / "ended.log"
    log.write_text(f"step 10 loss 2.5\nstep 20 loss 2.4\n{last}\n")
    assert read_log(log).status == "finished"


def test_training_complete_for_one_epoch_is_not_the_end(tmp_path: Path) -> None:
    log = tmp_path / "epoch.log"
    log.write_text("step 10 loss 2.5\nTraining complete for epoch 3\n")
    assert read_log(log).status == "running"


@pytest.mark.parametrize("indent", ["", "    "])
def test_a_launcher_stopped_by_ctrl_c_ends_the_run_as_crashed(tmp_path: Path, indent: str) -> None:
    """DeepSpeed's launcher on Ctrl-C (deepspeed/launcher/launch.py `sigkill_handler`) kills its
    workers and says `Main process received SIGINT, exiting`: the run did not finish, also in a
    paste indented as a block, where a line under a warning reads as the warning's wrapped rest."""
    log = tmp_path / "dpo.log"
    stamp = "[2025-02-20 20:27:13,107] [INFO] [launch.py:319:sigkill_handler]"
    lines = ["[2025-02-20 20:25:29,322] [WARNING] [config_utils.py:70:_process_deprecated_field] Config "
             "parameter cpu_offload is deprecated",
             "{'loss': 0.6931, 'grad_norm': 24.79, 'learning_rate': 5e-06, 'epoch': 0.04}",
             f"{stamp} Killing subprocess 2606346", f"{stamp} Killing subprocess 2606347",
             "[2025-02-20 20:27:14,902] [INFO] [launch.py:328:sigkill_handler] Main process received SIGINT, exiting"]
    log.write_text("".join(f"{indent}{line}\n" for line in lines))
    snap = read_log(log)
    assert snap.status == "crashed" and snap.loss == 0.6931
    (event,) = snap.events
    assert "received SIGINT" in event.message
