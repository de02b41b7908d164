"""The generalising reader: one normalisation, one vocabulary, positions and totals in any shape,
epoch fractions, and bars that are not the run's."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from sessiontui.collectors.trainlog import read_log
from sessiontui.collectors.trainlog.normalize import normalize
from sessiontui.collectors.trainlog.parsers import parse_record
from sessiontui.collectors.trainlog.reader import LineReader
from sessiontui.collectors.trainlog.vocabulary import canonical

PAYLOAD = "step: 250  loss: 2.5"


def _one(line: str):
    readings = LineReader().read(line)
    assert len(readings) == 1, readings
    return readings[0]


def _snapshot(tmp_path: Path, text: str, name: str = "train.log"):
    log = tmp_path / name
    log.write_text(text)
    return read_log(log)


def test_total_steps_in_the_metrics_line_keeps_step_loss_and_lr() -> None:
    reading = _one("step=5 total_steps=1000 loss=2.5 lr=1e-4")
    assert (reading.step, reading.total) == (5, 1000)
    assert reading.metrics["loss"] == 2.5 and reading.metrics["lr"] == 1e-4


@pytest.mark.parametrize("prefix", [
    "root - INFO - ",
    "[rank0]:",
    "[05:27:23.812437] ",
    "2024-05-01 10:00:00,123 - INFO - module - ",
    "INFO:__main__:",
    "[1,mpirank:0,algo-1]<stdout>:",
    "[rank0]:[titan] 2025-06-16 22:30:48,735 - root - INFO - ",
    "04/21 21:03:53 - mmengine - INFO - ",
    "20:39:20 ",
    "[11/01 11:27:04 d2.utils.events]: ",
    "10/17/2025 16:31:56 [INFO|DP=0|PP=0|TP=0]: ",
    "[0434:0]:",
    "DLL 2022-04-05 05:10:36.324733 - ",
    "2021/08/16 14:12:09 | ",
])
def test_logger_prefixes_are_stripped(prefix: str) -> None:
    assert normalize(prefix + PAYLOAD) == PAYLOAD
    reading = _one(prefix + PAYLOAD)
    assert (reading.step, reading.metrics["loss"]) == (250, 2.5)


def test_sagemaker_015_is_a_carriage_return() -> None:
    line = "[1,mpirank:0,algo-1]<stdout>:#015Epoch 0:   0% 0/2 [00:00<?, ?it/s]  #015" + PAYLOAD
    assert normalize(line) == PAYLOAD


@pytest.mark.parametrize(("line", "name", "value"), [
    ("tps: 5,856  loss: 2.0", "tps", 5856.0),
    ("iter 3: loss 4.0, time 561.94ms, mfu 15.34%", "mfu", 0.1534),
    ("iter 3: loss 4.0, time 561.94ms, mfu 15.34%", "time", 561.94),
    ("iteration: 9 | tokens_per_sec: 11.5K | lm_loss: 2.3", "tokens_per_sec", 11500.0),
    ("step: 4  memory: 66.91GiB(37.51%)  loss: 7.6", "memory", 66.91),
])
def test_thousands_and_units(line: str, name: str, value: float) -> None:
    assert _one(line).metrics[name] == pytest.approx(value)


@pytest.mark.parametrize(("line", "step", "total"), [
    ("step 250 loss 2.1", 250, None),
    ("step: 250 loss: 2.1", 250, None),
    ("step=5/1000 loss=2.1", 5, 1000),
    ("iter 1641: loss 3.9748, time 567.31ms", 1641, None),
    ("Iteration 3 loss 2.1", 3, None),
    ("[30/1504] loss: 2.1", 30, 1504),
    ("it 20 loss 2.1", 20, None),
    ("iter 76 step 38: loss 10.8259, iter time: 197.87ms", 38, None),
    ("| epoch 011 | 500 updates | loss 2.1", 500, None),
    ("Starting training..., iters: 100", None, 100),
    ("Total optimization steps = 564", None, 564),
    ("current step: 58036th step", 58036, None),
    ("Training for 3000 steps ...", None, 3000),
])
def test_positions_and_totals_in_all_shapes(line: str, step: int | None, total: int | None) -> None:
    reading = _one(line)
    assert (reading.step, reading.total) == (step, total)


def test_an_epoch_of_a_total_is_not_a_step() -> None:
    reading = _one("Training Epoch:[137/1500]\t loss=10.33924\t lr=0.000100")
    assert reading.step is None and reading.metrics["loss"] == pytest.approx(10.33924)


@pytest.mark.parametrize(("key", "name"), [
    ("gradnorm", "grad_norm"), ("learning rate", "lr"), ("reduced_train_loss", "loss"),
    ("loss train", "loss"), ("closs", "loss"), ("xent", "loss"), ("Vali Loss", "val_loss"),
    ("valid_loss", "val_loss"), ("global step", "step"), ("Training Iteration", "step"),
    ("ploss", "ploss"), ("acc_0", "acc_0"), ("eval_loss", "eval_loss"), ("total_steps", "total_steps"),
    ("grdn", "grad_norm"), ("norm", "grad_norm"), ("Final training loss", "loss"), ("Final eval loss", "eval_loss"),
])
def test_one_vocabulary_with_fuzzy_fallback(key: str, name: str) -> None:
    assert canonical(key) == name


def test_a_validation_line_never_sets_the_training_loss() -> None:
    reading = _one("| epoch 010 | valid on 'valid' subset  1000 / 1311 loss=1.60")
    assert "loss" not in reading.metrics and reading.metrics["val_loss"] == pytest.approx(1.6)


def test_a_remark_in_parentheses_is_not_part_of_the_name() -> None:
    reading = _one("Stage 1, Epoch 1, Batch 750, Training Loss (avg over last 100): 0.2409")
    assert reading.metrics["loss"] == pytest.approx(0.2409)


def test_trainer_dict_values_printed_as_strings() -> None:
    (reading,) = parse_record("{'eval_loss': '0.7206', 'eval_runtime': '29.78', 'epoch': '3'}")
    assert reading.metrics["eval_loss"] == pytest.approx(0.7206) and reading.epoch == 3


def test_a_notebook_widget_bar_copied_over_two_lines_is_one_bar() -> None:
    """tqdm/notebook.py draws the description and percentage apart from the count and postfix: copied
    as text they are two lines (a Lightning Colab output, corpus b32)."""
    reader = LineReader()
    reader.read("Epoch 23: 100%")
    (reading,) = reader.read("98/98 [00:20<00:00, 4.86it/s, v_num=0, loss/train_step=0.133, loss/val=0.307]")
    assert (reading.step, reading.total, reading.epoch) == (98, 98, 24.0)
    assert (reading.metrics["loss"], reading.metrics["val_loss"]) == (0.133, 0.307)


@pytest.mark.parametrize(("repeat", "val_loss"), [("Loss: 22.111196517944336", 22.111196517944336),
                                                  ("Loss: 22.3", None)])
def test_a_bare_loss_repeating_the_validation_loss_in_full_is_the_validations(repeat: str,
                                                                                val_loss: float | None) -> None:
    """luxonis-train logs `Validation loss: 22.1112`, then its print_results `Loss: {loss}` in full
    (luxonis/luxonis-train luxonis_train/callbacks/luxonis_progress_bar.py, corpus b32): the same
    figure; a bare loss that differs stays the training's."""
    reader = LineReader()
    reader.read("[INFO] [Epoch 8/300] Duration: 0.45s | Train Loss: 24.4299")
    reader.read("[INFO] Validation loss: 22.1112")
    (reading,) = reader.read(repeat)
    assert reading.metrics.get("val_loss") == val_loss
    assert ("loss" in reading.metrics) == (val_loss is None)


def test_keras_verbose_2_lines_complete_the_epoch() -> None:
    reader = LineReader()
    reader.read("Epoch 100/100")
    (reading,) = reader.read("19/19 - 12s - loss: 0.0275 - accuracy: 0.9623")
    assert reading.epoch == 100 and reading.metrics["loss"] == pytest.approx(0.0275)


def test_bar_epoch_is_a_fraction() -> None:
    (reading,) = parse_record("Epoch 0:  28%|██▊       | 5/18 [00:20<00:53,  4.14s/it, loss=9.847]")
    assert reading.epoch == pytest.approx(5 / 18)


def test_steps_per_epoch_announced_gives_the_epoch(tmp_path: Path) -> None:
    snap = _snapshot(tmp_path, "Auto-calculated total_steps: 12000 (num_epochs=2 * steps_per_epoch=6000)\n"
                     "step=1633 loss=2.5\n")
    assert (snap.step, snap.total_steps) == (1633, 12000)
    assert snap.epoch == pytest.approx(1633 / 6000)


def test_a_bar_that_completes_before_training_lines_is_not_the_run(tmp_path: Path) -> None:
    snap = _snapshot(tmp_path, "100%|██████████| 7/7 [00:00<00:00, 250.31it/s]\n"
                     "{'loss': 2.1, 'learning_rate': 5e-05, 'epoch': 0.12}\n"
                     "{'loss': 1.9, 'learning_rate': 4e-05, 'epoch': 0.35}\n")
    assert snap.status == "running" and snap.step is None and snap.total_steps is None
    assert snap.epoch == pytest.approx(0.35) and not snap.events


def test_data_bars_never_count_as_training() -> None:
    assert parse_record("Map: 100%|██████████| 7/7 [00:00<00:00, 1234.56 examples/s]") == []
    assert parse_record("100%|██████████| 7/7 [00:00<00:00, 1234.56 examples/s]") == []


def test_column_rows_read_under_their_header() -> None:
    reader = LineReader()
    assert reader.read("      Epoch    GPU_mem   box_loss   cls_loss   dfl_loss  Instances       Size") == []
    (row,) = reader.read("    151/200      10.4G     0.4635     0.2344      0.805       1578        640: "
                         "100%|██████████| 99/99 [01:52<00:00,  1.14s/it]")
    assert row.epoch == 151 and row.metrics["box_loss"] == pytest.approx(0.4635)  # its bar is full: epoch 151 done
    assert row.metrics["total_epochs"] == 200


def test_keras_epoch_headers_give_the_epoch_fraction() -> None:
    reader = LineReader()
    reader.read("Epoch 3/12")
    (reading,) = reader.read("29312/60000 [=============>................] - ETA: 2s - loss: 0.0891")
    assert reading.epoch == pytest.approx(2 + 29312 / 60000)
    assert reading.metrics["loss"] == pytest.approx(0.0891)


def test_espnet_batch_ranges_are_run_wide_steps() -> None:
    reader = LineReader()
    first = reader.read("1epoch:train:1365-2046batch: loss=61.936, lr_0=1.710e-05")[0]
    second = reader.read("2epoch:train:1-682batch: loss=50.1, lr_0=1.8e-05")[0]
    assert (first.step, second.step) == (2046, 2046 + 682)


@pytest.mark.parametrize("line", ["", "   ", "loss", "step:", "eta: 0:00:25", "Python 3.11.10",
                                  "[GC] Peforming periodical GC collection. 0.06 seconds."])
def test_lines_without_figures_give_nothing(line: str) -> None:
    readings = LineReader().read(line)
    assert all(not math.isnan(v) for r in readings for v in r.metrics.values())
    assert not any(r.step or r.metrics for r in readings)


def test_bare_train_and_val_beside_a_step_are_the_losses() -> None:
    reading = _one("  step  3000 | train 0.921 | val 1.532 | 292s elapsed")
    assert reading.step == 3000
    assert (reading.metrics["loss"], reading.metrics["val_loss"]) == (0.921, 1.532)


def test_an_epoch_summary_of_a_total_gives_the_epoch() -> None:
    reading = _one("Epoch 100/100 [129.9s] | LR: 1.000000e-06 | Train Loss: 0.9146 | Val Loss: 0.6161")
    assert reading.epoch == 100 and reading.metrics["loss"] == pytest.approx(0.9146)


def test_keras_csv_logger_rows_under_their_header(tmp_path: Path) -> None:
    snap = _snapshot(tmp_path, "epoch,acc,loss,val_acc,val_loss\n0,0.85,0.39,0.83,0.46\n1,0.86,0.36,0.87,0.38\n", "training.log")
    assert snap.loss == pytest.approx(0.36) and snap.metrics["val_loss"] == pytest.approx(0.38)


def test_an_evaluation_bar_after_the_run_finished_is_not_its_position(tmp_path: Path) -> None:
    snap = _snapshot(tmp_path, "{'train_runtime': 332.9, 'train_loss': 0.0429, 'epoch': 10.0}\n"
                     "100%|██████████| 2260/2260 [05:32<00:00,  6.79it/s]\n"
                     "100%|██████████| 57/57 [00:00<00:00, 57.63it/s]\n")
    assert (snap.step, snap.total_steps) == (2260, 2260)


@pytest.mark.parametrize("line", [
    "[Epoch: 50] Valid acc: 0.5452 | loss: 1.3283",
    "Epoch 500: Train Loss=0.0010, Val Loss=1.3283",
    "Evaluation Epoch 49 - Average Loss: 1.3283, Average Accuracy: 0.8078",
])
def test_a_validation_phase_named_after_a_prefix_or_glued_to_equals(line: str) -> None:
    reading = _one(line)
    assert reading.metrics["val_loss"] == pytest.approx(1.3283)
    assert reading.metrics.get("loss") != pytest.approx(1.3283)


def test_a_name_ending_a_line_takes_the_bare_number_on_the_next() -> None:
    reader = LineReader()
    reader.read("total train:   2%|▏         | 3/200 [01:45<1:53:16, 34.50s/it]lrs:")
    (reading,) = reader.read("4.4999999999999996e-05")
    assert reading.metrics["lr"] == pytest.approx(4.5e-05)


def test_a_bar_description_epoch_with_a_colon_gives_the_fraction() -> None:
    (reading,) = parse_record("L: 7.94, L_crf: 7.07, epoch: 0/50::  22%|██▏       | 318/1419 [02:07<07:22,  2.49it/s]")
    assert reading.metrics["loss"] == pytest.approx(7.94)
    assert reading.epoch == pytest.approx(318 / 1419)


@pytest.mark.parametrize("line, value", [
    ("Epoch 00000: val_loss reached 0.67374 (best 0.67374), saving model to epoch=0.ckpt", 0.67374),
    ("Epoch 0, global step 1000: 'val_loss' reached 0.41 (best 0.41), saving model to 'x.ckpt'", 0.41),
    ("Epoch 00004: val_loss improved from 0.41000 to 0.38000, saving model to model.h5", 0.38),
])
def test_a_checkpoint_callback_verb_between_name_and_value(line: str, value: float) -> None:
    assert _one(line).metrics["val_loss"] == value


def test_a_step_of_total_printed_as_a_string_in_a_dict() -> None:
    reading = _one("{'loss': 0.2193, 'epoch': 0.9, 'global_step/max_steps': '79/176', 'percentage': '44.89%'}")
    assert (reading.step, reading.total, reading.metrics["loss"]) == (79, 176, 0.2193)


def test_g_step_is_the_global_step_over_a_step_within_the_epoch() -> None:
    reading = _one("g_step 2000, step 152, avg_time 0.874, loss:51.5502")
    assert (reading.step, reading.metrics["loss"]) == (2000, 51.5502)


@pytest.mark.parametrize("line, name, value", [
    ("eval_ppl=tensor(975.5518, device='cuda:2') eval_epoch_loss=tensor(6.8830, device='cuda:2')",
     "eval_loss", 6.883),
    ("step 5 loss: tensor(0.5123, device='cuda:0', grad_fn=<NllLossBackward0>)", "loss", 0.5123),
])
def test_a_tensor_printed_as_is_reads_as_its_number(line: str, name: str, value: float) -> None:
    assert _one(line).metrics[name] == value


@pytest.mark.parametrize(("line", "step"), [
    # CLU's metric writer behind absl's prefix (corpus train/b07 flax_imagenet_clu_writer.log)
    ("I1002 21:43:51.424899 140400640460352 logging_writer.py:35] [1000] train_loss=6.52", 1000),
    # DCGAN-tensorflow's run-wide counter before the epoch's batch (corpus train/b14)
    ("[   32622 Epoch:[ 1/25] [12603/20018] time: 125602.7393, d_loss: 2.16, g_loss: 0.18", 32622),
    ("[1745] loss=2.5", None),  # a launcher's process id opening the line is no step
])
def test_a_bracketed_counter_leading_the_payload_is_the_step(line: str, step: int | None) -> None:
    assert _one(line).step == step


@pytest.mark.parametrize(("key", "name"), [
    ("lr-AdamW", "lr"),  # Lightning LearningRateMonitor
    ("lr_scale", "lr_scale"),  # MAE's per-layer scale is not the rate
    ("learning_rate_0", "lr"),
    ("tokens/sec", "tokens_per_s"),  # mlx-lm `Tokens/sec`
    ("cur_epoch", "epoch"),
    ("epoch_num", "epoch"),
    ("train.loss", "loss"),  # DLLogger
    ("val.loss", "val_loss"),
    ("loss/train/total", "loss"),  # Composer
    ("optim/learning_rate_group0", "lr"),  # OLMo
    ("trl", "loss"),  # karpathy/llm.c llmc/logger.h `s:%d trl:%.4f lr:%.6f norm:%.2f`
    ("tel", "val_loss"),  # and `s:%d tel:%.4f` (corpus b38)
    # huggingface/peft examples/image_classification/image_classification_timm_peft_lora.ipynb
    # prints `epoch={epoch}  train_loss_total={...}  valid_loss_total={...}` (corpus b38)
    ("train_loss_total", "loss"),
    ("valid_loss_total", "val_loss"),
    ("total_step", "total_step"),  # a total of positions is the run's length, never its position
])
def test_spellings_from_framework_code_land_on_the_vocabulary(key: str, name: str) -> None:
    assert canonical(key) == name
