"""A step's own figure wins over its running mean when a record prints both (DLLogger's
`average_loss` beside `step_loss`, DeepSpeed's `RunningAvgSamplesPerSec` beside `CurrSamplesPerSec`,
Lightning's `train_loss_epoch` beside `train_loss_step`); a record that prints only the mean keeps it."""

from __future__ import annotations

from pathlib import Path

import pytest

from sessiontui.collectors.trainlog import read_log
from sessiontui.collectors.trainlog.normalize import normalize
from sessiontui.collectors.trainlog.parsers import parse_record
from sessiontui.collectors.trainlog.vocabulary import canonical, running_mean


def _metrics(line: str) -> dict[str, float]:
    """The metrics of the one reading a line gives."""
    [reading] = parse_record(normalize(line))
    return dict(reading.metrics)


@pytest.mark.parametrize(("key", "mean"), [
    ("average_loss", True), ("loss_avg", True), ("smoothed_loss", True), ("running_loss", True),
    ("loss (mean)", True), ("RunningAvgSamplesPerSec", True), ("avg_loss", True),
    ("step_loss", False), ("loss", False), ("CurrSamplesPerSec", False), ("train_loss_step", False),
])
def test_running_mean_names(key: str, mean: bool) -> None:
    assert running_mean(key) is mean


def test_dllogger_step_loss_wins_over_average_loss() -> None:
    """NVIDIA BERT pretraining via DLLogger (NVIDIA/DeepLearningExamples#543, corpus b29)."""
    metrics = _metrics("DLL 2020-06-03 19:09:16.152193 - Training Epoch: 0 Training Iteration: 2185  "
                       "average_loss : 1.487750015258789  step_loss : 1.8232421875  "
                       "learning_rate : 0.003395498750508662 ")
    assert (metrics["loss"], metrics["average_loss"]) == (1.8232421875, 1.487750015258789)


def test_deepspeed_current_rate_wins_over_running_average() -> None:
    """DeepSpeed's timer line (deepspeedai/DeepSpeed#3742, corpus b02): the running average comes first."""
    metrics = _metrics("[2023-07-25 21:03:17,269] [INFO] [timer.py:215:stop] epoch=0/micro_step=34/"
                       "global_step=34, RunningAvgSamplesPerSec=7.864669709950182, "
                       "CurrSamplesPerSec=8.00912418308922, MemAllocated=59.65GB, MaxMemAllocated=63.31GB")
    assert metrics["samples_per_s"] == 8.00912418308922


@pytest.mark.parametrize(("line", "loss"), [
    # corpus b12 (YOLOv1, `Loss:` then `average_loss:`) and b19 (geoelements/gns#79, a bar's postfix
    # with the smoothed `avg_loss` first)
    ("Epoch [57/100], Iter [980/1070] Loss: 1.2025, average_loss: 1.1433", 1.2025),
    ("Epoch 0: 100%|#####| 994/994 [03:44<00:00,  4.42batch/s, avg_loss=0.34, loss=0.06, lr=1.00e-04]", 0.06),
])
def test_the_plain_loss_wins_over_its_average(line: str, loss: float) -> None:
    assert _metrics(line)["loss"] == loss


def test_a_record_with_only_the_average_keeps_it_as_the_loss() -> None:
    """An epoch's summary printing only its mean (AnshDhalla1/PyTorch_finetune_GPT2 train.log, corpus b08)."""
    assert _metrics("INFO:__main__:✅ Epoch 1 completed in 4730.85s | Avg Loss: 0.4735")["loss"] == 0.4735


def test_lightning_epoch_aggregate_is_not_the_loss() -> None:
    """`self.log(..., on_step=True, on_epoch=True)` forks a name into `_step` and `_epoch` (Lightning's
    result.py `_Metadata.forked_name`): the `_epoch` figure is the epoch's mean, kept under its own name."""
    assert canonical("train_loss_epoch") == "train_loss_epoch"
    assert canonical("train_loss_step") == "loss"
    assert canonical("cur_epoch") == "epoch"


@pytest.mark.parametrize(("key", "name"), [
    # a TensorBoard-style `metric/split` name forked so (corpus b32, a Lightning Colab's bar):
    # the split's position word is no step, the held-out split is the validation figure
    ("loss/train_step", "loss"), ("acc/train_step", "acc"), ("loss/train_epoch", "loss/train_epoch"),
    ("loss/val", "val_loss"), ("acc/valid", "val_acc"), ("loss/val_step", "val_loss"),
])
def test_lightning_fork_of_a_slash_split_name(key: str, name: str) -> None:
    assert canonical(key) == name


def test_lightning_metrics_csv_epoch_row_keeps_the_last_step_loss(tmp_path: Path) -> None:
    """A CSVLogger metrics.csv's tail (0Xero7/slm_training lightning_logs/version_0, corpus b29): the
    epoch row's `train_loss_epoch` does not replace the last step's loss."""
    log = tmp_path / "metrics.csv"
    log.write_text(
        "epoch,epoch_time,step,train_epoch_perplexity,train_loss_epoch,train_loss_step,"
        "train_perplexity_epoch,train_perplexity_step,val_epoch_perplexity,val_loss,val_perplexity\n"
        "9,,140649,,,3.64223575592041,,38.17709732055664,,,\n"
        "9,,140699,,,3.565943479537964,,35.37281036376953,,,\n"
        "9,,140739,,,,,,35.53385925292969,3.570486068725586,36.68146514892578\n"
        "9,2419.625244140625,140739,39.934356689453125,3.687237024307251,,40.125675201416016,,,,\n")
    snap = read_log(log)
    assert (snap.step, snap.loss, snap.metrics["val_loss"]) == (140739, 3.565943479537964, 3.570486068725586)


def test_fairseq_hydra_config_announces_the_total() -> None:
    """fairseq's hydra train prints its config as one dict (mailong25/self-supervised-speech-recognition
    examples/hydra_train_finetune.log, corpus b29): `'max_update': 80000` is the run's length."""
    [reading] = parse_record(normalize(
        "[2020-12-19 17:31:51,967][fairseq_cli.train][INFO] - {'_name': None, 'optimization': "
        "{'_name': None, 'max_epoch': 0, 'max_update': 80000, 'stop_time_hours': 0.0, 'clip_norm': 0.0}}"))
    assert reading.total == 80000


def test_mmf_current_losses_win_over_their_avg_and_max_updates_is_the_total() -> None:
    """MMF's logistics line (facebookresearch/mmf#870, 2021): each loss then its `/avg`; the run's length
    is `max_updates`, not the `num_updates: 200, iterations: 200` before it."""
    [reading] = parse_record(normalize(
        "2021-04-12T20:21:22 | mmf.trainers.callbacks.logistics: progress: 200/22000, "
        "train/hateful_memes/cross_entropy: 0.6094, train/hateful_memes/cross_entropy/avg: 0.6476, "
        "train/total_loss: 0.6094, train/total_loss/avg: 0.6476, max mem: 3788.0, experiment: run, "
        "epoch: 1, num_updates: 200, iterations: 200, max_updates: 22000, lr: 0., ups: 0.80, "
        "time: 02m 05s 360ms, time_since_start: 04m 27s 558ms, eta: 08h 36m 58s 002ms"))
    assert (reading.step, reading.total, reading.metrics["loss"]) == (200, 22000, 0.6094)


def test_lightning_bar_takes_the_step_fork_whatever_the_order() -> None:
    """A Lightning bar's postfix (Delve-ERAV1/S18 README): `train_loss_epoch` is the last epoch's mean."""
    metrics = _metrics("Epoch 7:   5%|▌         | 3/58 [00:08<02:34,  2.82s/it, v_num=0, "
                       "train_loss_step=0.148, val_loss=0.190, train_loss_epoch=0.152] ")
    assert (metrics["loss"], metrics["val_loss"], metrics["train_loss_epoch"]) == (0.148, 0.190, 0.152)
