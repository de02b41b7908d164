"""Training-log formats read from real pastes (tests/fixtures/trainlog/INDEX.md names each source):
MetricLogger, DeepSpeed pipeline steps, ESPnet, old Megatron, validation lines, the alias table,
loss in tqdm descriptions, non-finite values, and steps/s from the lines' own time stamps."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from sessiontui.collectors.trainlog import read_log
from sessiontui.collectors.trainlog.parsers import logged_time, parse_record
from sessiontui.collectors.trainlog.progress import parse_bar
from sessiontui.collectors.trainlog.vocabulary import ALIASES

FIXTURES = Path(__file__).parent.parent / "fixtures" / "trainlog"


def as_written(path: Path):
    """The log read as of its last write (a fixture's age would make any run stalled)."""
    return read_log(path, clock=lambda: path.stat().st_mtime)


def test_detr_metric_logger_line() -> None:
    snap = as_written(FIXTURES / "detr_metriclogger.log")
    assert (snap.format, snap.step, snap.total_steps, snap.epoch) == ("metriclogger", 210, 225, 0.0)
    assert (snap.loss, snap.lr, snap.eta_s) == (18.054, 0.001, 4.0)  # the value, not the (avg)
    assert snap.metrics["loss_giou_4"] == 1.3233


def test_metric_logger_time_eta_days_and_test_lines() -> None:
    [reading] = parse_record("Epoch: [3]  [ 100/7393]  eta: 1 day, 2:03:04  lr: 0.000100  "
                             "loss: 41.4546 (41.4546)  time: 0.5000  data: 0.0012  max mem: 5214")
    assert (reading.step, reading.total, reading.epoch) == (100, 7393, 3.0)
    assert reading.remaining_s == 86400 + 2 * 3600 + 3 * 60 + 4 and reading.steps_per_s == 2.0
    [test] = parse_record("Test:  [ 0/50]  eta: 0:01:10  class_error: 0.00  loss: 0.5 (0.5)  "
                          "time: 1.4000  data: 0.9")
    assert test.metrics == {"val_class_error": 0.0, "val_loss": 0.5} and test.step is None


def test_diffusion_pipe_steps_and_rate_from_iteration_time() -> None:
    snap = as_written(FIXTURES / "diffusion_pipe.log")
    assert (snap.format, snap.step, snap.loss) == ("deepspeed", 4, 0.1193)
    assert snap.steps_per_s == pytest.approx(1 / 533.263)
    assert snap.lr == pytest.approx(3.9872000000000007e-07)


def test_espnet_epoch_loss_and_lr() -> None:
    snap = read_log(FIXTURES / "espnet_lm.log")
    assert (snap.format, snap.epoch, snap.loss, snap.lr) == ("espnet", 5.0, 1.717, 0.1)
    assert snap.metrics["lr_0"] == 0.1  # the original name is kept
    [valid] = parse_record("6epoch:valid:1-100batch: loss=1.901, acc=0.61")
    assert valid.metrics == {"val_loss": 1.901, "val_acc": 0.61}


def test_old_megatron_lines_without_colons() -> None:
    snap = as_written(FIXTURES / "megatron_old.log")
    assert (snap.format, snap.step, snap.total_steps) == ("megatron", 100, 300)
    assert (snap.loss, snap.lr) == (4.799004, 1.258e-4)
    assert snap.metrics["loss_scale"] == 32768.0
    assert snap.steps_per_s == pytest.approx(1000 / 1048.5)


def test_megatron_deepspeed_line_led_by_samples_per_second() -> None:
    snap = as_written(FIXTURES / "deepspeed_megatron_bf16.log")
    assert (snap.step, snap.total_steps, snap.loss) == (34, 10000, 11.18665)
    assert snap.lr == 2.111e-06 and snap.steps_per_s == pytest.approx(1000 / 4103.1)


def test_validation_never_overwrites_the_training_loss(tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    log.write_text(
        " iteration      100/     300 | elapsed time per iteration (ms): 1048.5 | learning rate "
        "1.258E-04 | lm loss 4.799004E+00 | loss scale 32768.0 |\n"
        " validation loss at iteration 100 | lm loss value: 2.724416E+00 | lm loss PPL: "
        "1.524659E+01 | \n"
        "Validation: loss=2.5 acc=0.5\n"
    )
    snap = read_log(log)
    assert snap.loss == 4.799004 and snap.metrics["val_loss"] == 2.5
    assert snap.metrics["val_lm_loss_ppl"] == pytest.approx(15.24659)


@pytest.mark.parametrize(
    ("line", "loss", "lr", "grad_norm"),
    [
        ("{'train_loss': 2.5, 'train_lr': 1e-4, 'epoch': 0.5}", 2.5, 1e-4, None),
        ("step=3 train_closs=1.25 lr_0=3e-4 gnorm=0.9", 1.25, 3e-4, 0.9),
        ("epoch 001:    100 / 3000 loss=9.123, nll_loss=8.9, ups=2.1, num_updates=100, "
         "lr=1.2e-05, gnorm=1.85", 9.123, 1.2e-05, 1.85),
        ("Epoch 2 | loss (batch): 0.75 | learning_rate: 5e-5 | grad_norm: 2.0", 0.75, 5e-5, 2.0),
    ],
)
def test_alias_table_maps_and_keeps_original_names(line, loss, lr, grad_norm) -> None:
    [reading] = parse_record(line)
    metrics = reading.metrics
    assert (metrics.get("loss"), metrics.get("lr"), metrics.get("grad_norm")) == (loss, lr, grad_norm)
    originals = {key for key in metrics if key in ALIASES}
    assert originals  # the tool's own spelling stays in metrics


def test_explicit_loss_wins_over_an_alias_and_fairseq_updates_rate() -> None:
    [reading] = parse_record("step=5 train_loss=3.0 loss=2.0")
    assert reading.metrics["loss"] == 2.0 and reading.metrics["train_loss"] == 3.0
    [fairseq] = parse_record("epoch 001:    100 / 3000 loss=9.1, ups=2.1, num_updates=100")
    assert (fairseq.step, fairseq.steps_per_s) == (100, 2.1)


def test_hf_summary_train_loss_is_not_the_current_loss() -> None:
    [reading] = parse_record("{'train_runtime': 20.5, 'train_loss': 1.95, 'epoch': 1.0}")
    assert "loss" not in reading.metrics and reading.metrics["train_loss"] == 1.95


def test_a_running_dict_carrying_train_runtime_is_no_end() -> None:
    """Unsloth Studio's dicts carry `train_runtime` in every log beside the step's own `loss`
    (unslothai/unsloth#4547, corpus b31); only the summary, with the run's `train_loss`, ends it."""
    [running] = parse_record("{'loss': '14.64', 'grad_norm': '2.938', 'learning_rate': '0.000144', "
                             "'epoch': '0.007895', 'train_runtime': '112.2', 'train_tokens_per_second': '2695'}")
    [summary] = parse_record("{'train_runtime': 20.5, 'train_loss': 1.95, 'epoch': 1.0}")
    assert (running.done, running.metrics["loss"], summary.done) == (False, 14.64, True)


def test_loss_in_the_tqdm_description_and_postfix() -> None:
    reading, _ = parse_bar("Loss: 4.38811e+02: 100%|##########| 10/10 [00:01<00:00,  9.10it/s]")
    assert reading.metrics["loss"] == pytest.approx(438.811) and reading.step == 10
    reading, _ = parse_bar("train loss=nan:  45%|####5     | 45/100 [00:05<00:06,  9.1it/s, "
                           "train_loss=2.1, lr=1e-4]")
    assert math.isnan(reading.metrics["loss"]) and reading.metrics["train_loss"] == 2.1


@pytest.mark.parametrize("raw", ["nan", "NaN", "Infinity", "-Infinity", "inf"])
def test_non_finite_loss_is_kept_and_raises_divergence(tmp_path: Path, raw: str) -> None:
    log = tmp_path / "train.log"
    log.write_text(f"step=1 loss=2.0\nstep=2 loss={raw}\n")
    snap = read_log(log)
    assert not math.isfinite(snap.loss) and snap.status == "diverged"
    assert [e.kind for e in snap.events] == ["diverged"]


def test_scientific_notation_values() -> None:
    [reading] = parse_record("step: 7 | loss: 4.38811e+02 | lr: 1.0E-05")
    assert (reading.step, reading.metrics["loss"], reading.metrics["lr"]) == (7, 438.811, 1e-05)


def test_steps_per_second_from_the_lines_time_stamps(tmp_path: Path) -> None:
    log = tmp_path / "train.log"  # written just now: a long-silent log has no rate
    log.write_bytes((FIXTURES / "deepspeed_timestamps.log").read_bytes())
    snap = read_log(log)
    assert snap.step == 60 and snap.lr == 5e-05
    assert snap.steps_per_s == pytest.approx(10 / 15.144, rel=0.05)


def test_key_value_log_with_time_stamps_and_no_rate(tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    log.write_text("".join(f"2026-01-02 03:04:{2 * i:02d},000 INFO step={10 * i} loss={3 - i / 10}\n"
                           for i in range(1, 9)))
    snap = read_log(log)
    assert snap.step == 80 and snap.steps_per_s == pytest.approx(5.0)  # 10 steps per 2 s


def test_logged_time_prefixes() -> None:
    assert logged_time("[2025-09-04 15:18:01,200] [INFO] step=1") is not None
    assert logged_time("[PC] 2020-11-11 16:36:33,446 (trainer:486) INFO: x") is not None
    assert logged_time("2026-01-02T03:04:05.678 step=3") is not None
    assert logged_time("step=3 loss=1") is None


def test_torchvision_metric_logger_variants() -> None:
    [reading] = parse_record("Epoch: [0]  [   0/5005]  eta: 8:01:12  lr: 0.1  img/s: 28.4  "
                             "loss: 6.9 (6.9)  acc1: 0.0 (0.0)  time: 5.77  data: 4.8  max mem: 10000")
    assert reading.metrics["img/s"] == 28.4 and "s" not in reading.metrics
    assert reading.remaining_s == 8 * 3600 + 60 + 12
    [named] = parse_record("Train Epoch: [3]  [ 10/100]  eta: 0:01:00  lr: 0.01  loss: 1.5 (1.6)")
    assert (named.epoch, named.step, named.total, named.metrics["loss"]) == (3.0, 10, 100, 1.5)


def test_espnet_epoch_results_keep_validation_apart() -> None:
    [reading] = parse_record(
        "[PC] 2020-11-11 16:40:00,000 (trainer:243) INFO: 5epoch results: [train] "
        "iter_time=0.001, loss=1.733, lr_0=0.100, train_time=0.014, [valid] loss=1.901, "
        "acc=0.61, time=2.04 seconds")
    assert (reading.epoch, reading.metrics["loss"], reading.metrics["val_loss"]) == (5.0, 1.733, 1.901)
    assert reading.metrics["lr"] == 0.1


@pytest.mark.parametrize(("postfix", "loss"), [("loss 0.0000", 0.0), ("loss 2.5, lr 1e-4", 2.5)])
def test_a_postfix_string_of_a_name_then_its_number(postfix: str, loss: float) -> None:
    """`pbar.set_postfix_str(f"loss {loss:.4f}")` (tqdm/std.py `set_postfix_str`: `self.postfix = str(s)`,
    printed after the rate): `SFT: 100%|...| 375/375 [55:03<00:00,  8.81s/it, loss 0.0000]` (corpus b43)."""
    reading, _ = parse_bar(f"SFT: 100%|██████████| 375/375 [55:03<00:00,  8.81s/it, {postfix}]")
    assert reading is not None and reading.metrics["loss"] == loss and reading.step == 375
