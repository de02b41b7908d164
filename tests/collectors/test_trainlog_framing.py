"""A training log reads the same however a paste frames its lines: quoted, labelled, prefixed."""

from __future__ import annotations

from pathlib import Path

import pytest

from sessiontui.collectors.logtext import clean
from sessiontui.collectors.trainlog import read_log
from sessiontui.collectors.trainlog.normalize import paste_mark

# tqdm's bar as tqdm/std.py format_meter prints it, redrawn after `\r` on one line (a log saved with
# `nohup`, or `script`), then the Trainer's closing dict: transformers/trainer.py `self.log(...)`.
REDRAWN = ("Loading model...\n"
           + "".join(f"\r{pct:3d}%|##########| {step}/1677 [49:1{step % 10}<00:00,  1.56s/it]"
                     for pct, step in ((99, 1675), (99, 1676), (100, 1677)))
           + "\n{'train_runtime': 2951.2, 'train_loss': 0.6124, 'epoch': 3.0}\nDone.\n")


def test_a_quote_marks_a_line_not_each_bar_it_redraws(tmp_path: Path) -> None:
    # a quoted log whose lines redraw a bar after `\r`: the segments are not unquoted lines
    log = tmp_path / "issue.md"
    log.write_text("".join("> " + line for line in REDRAWN.splitlines(keepends=True)), newline="")
    assert paste_mark(log.read_bytes().decode()) is not None
    snap = read_log(log)
    assert (snap.step, snap.total_steps) == (1677, 1677)


@pytest.mark.parametrize("line", [
    # ms-swift's GRPO dict printed as is (modelscope/ms-swift swift/trainers mixin `self.log(logs)`)
    "'loss': -0.0, 'grad_norm': 0.0, 'learning_rate': 2.6e-07, 'global_step/max_steps': '5/3766'}",
    # YOLACT's iteration line (dbolya/yolact train.py: `('[%3d] %7d ||' + (' %s: %.3f |' * len(loss_types))
    # + ' T: %.3f || ETA: %s || timer: %.3f')`), cut before its epoch
    "4860 || B: 2.244 | C: 7.247 | M: 58.298 | S: 2.076 | T: 69.865 || ETA: 5 days, 1:07:34 || timer: 0.364",
])
def test_a_one_line_paste_in_a_quote_reads_as_the_line(tmp_path: Path, line: str) -> None:
    plain, quoted = tmp_path / "plain.log", tmp_path / "quoted.md"
    plain.write_text(line + "\n")
    quoted.write_text("> " + line + "\n")
    assert read_log(plain).step is not None
    assert (read_log(quoted).step, read_log(quoted).total_steps) == (read_log(plain).step, read_log(plain).total_steps)


def test_a_lone_line_is_no_task_label() -> None:
    # a script's own step before a colon (`100: loss 2.5`) on the only line: srun's `0: ` needs more
    assert paste_mark("100: loss 2.5\n") is None


# Keras 1/2 with verbose=2 ends each epoch with `3105s - loss: ...` (keras-team/keras
# keras/utils/generic_utils.py Progbar.update, verbose 2; corpus train/b45, b47) under Python
# logging's `%(asctime)s - %(levelname)s - %(message)s` (and HF examples' `... - %(name)s - `).
KERAS_VERBOSE_2 = "Epoch 5/10\n3105s - loss: 0.0146 - acc: 0.9959\nEpoch 6/10\n3122s - loss: 0.0134 - acc: 0.9962\n"


@pytest.mark.parametrize("prefix", ["2024-05-01 10:00:00,123 - INFO - ", "12/01/2024 10:00:00 - INFO - __main__ - "])
def test_a_logger_name_is_not_the_duration_a_message_starts_with(prefix: str) -> None:
    assert clean(prefix + "3105s - loss: 0.0146") == "3105s - loss: 0.0146"


def test_a_keras_epoch_line_behind_a_logger_prefix_ends_its_epoch(tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    log.write_text("".join("2024-05-01 10:00:00,123 - INFO - " + line for line in KERAS_VERBOSE_2.splitlines(True)))
    snap = read_log(log)
    assert (snap.epoch, snap.loss) == (6.0, 0.0134)


# YOLOv7's table (WongKinYiu/yolov7 train.py: `('\n' + '%10s' * 8) % ('Epoch', 'gpu_mem', 'box', ...)`
# over `('%10s' * 2 + '%10.4g' * 6) % (...)`), its row cut before `img_size` (corpus train/b47).
YOLOV7_HEADER = ("%10s" * 8) % ("Epoch", "gpu_mem", "box", "obj", "cls", "total", "labels", "img_size")
YOLOV7_ROW = (("%10s" * 2 + "%10.4g" * 6) % ("0/99", "7.99G", 0.09067, 0.0189, 0.02807, 0.1376, 665, 640))[:-10]


@pytest.mark.parametrize("prefix", ["", "[rank0]: ", "2024-05-01 10:00:00,123 - INFO - ", "trainer-1  | "])
def test_a_right_aligned_table_keeps_its_columns_behind_a_prefix(tmp_path: Path, prefix: str) -> None:
    log = tmp_path / "train.log"
    log.write_text(f"{prefix}{YOLOV7_HEADER}\n{prefix}{YOLOV7_ROW}\n")
    metrics = read_log(log).metrics
    assert (metrics.get("box"), metrics.get("obj"), metrics.get("cls")) == (0.09067, 0.0189, 0.02807)


def test_a_message_keeps_its_indentation_and_a_level_its_padding() -> None:
    assert clean("[rank0]:       0/99     7.99G") == "      0/99     7.99G"
    # rich.logging.RichHandler pads the level to its column: padding, not the message's
    assert clean("[12/01/24 10:00:00] INFO     epoch 2") == "epoch 2"


@pytest.mark.parametrize(("line", "payload"), [
    # srun --label's task behind docker compose's service prefix, before the FSDP example's logging
    # format (aws-samples/awsome-distributed-training train.py: corpus train/b33)
    ("trainer-1  | 0: 2025-06-17 16:25:08 I [train.py:103] Batch 5 Loss: 14.34635",
     "Batch 5 Loss: 14.34635"),
    ("[rank0]: 100: loss 2.5", "100: loss 2.5"),  # a script's own step stays a step behind a frame
])
def test_a_task_label_behind_a_frame_goes_with_it(line: str, payload: str) -> None:
    assert clean(line) == payload
