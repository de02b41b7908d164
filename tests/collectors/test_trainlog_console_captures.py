"""Console captures of vision trainers (W&B's `output.log`, a terminal cut at its width) read by
the printing code's own shapes: right-aligned tables cut short, epochs counted from 0."""

from __future__ import annotations

from sessiontui.collectors.trainlog.reader import LineReader

# YOLOv7 train.py (WongKinYiu/yolov7): `('\n' + '%10s' * 8) % ('Epoch', 'gpu_mem', 'box', 'obj', 'cls',
# 'total', 'labels', 'img_size')` over `('%10s' * 2 + '%10.4g' * 6) % (f'{epoch}/{epochs - 1}', mem,
# *mloss, targets.shape[0], imgs.shape[-1])`; YOLOv5 train.py prints the same columns.
YOLOV7_HEADER = ("%10s" * 8) % ("Epoch", "gpu_mem", "box", "obj", "cls", "total", "labels", "img_size")


def _yolov7_row(epoch: str, *figures: float) -> str:
    return ("%10s" * 2 + "%10.4g" * 6) % (epoch, "7.99G", *figures)


def _read(lines: list[str]) -> list:
    reader = LineReader(formats=[])
    return [reading for line in lines for reading in reader.read(line)]


def test_a_right_aligned_row_cut_before_its_last_cells_reads_the_cells_it_kept() -> None:
    # W&B's output.log of a YOLOv7-tiny run (corpus b47) kept `0/99  7.99G  0.09067 ... 665`, no img_size
    row = _yolov7_row("0/99", 0.09067, 0.0189, 0.02807, 0.1376, 665, 640)
    cut = row[:row.rindex("665") + 3]
    [reading] = _read([YOLOV7_HEADER, cut])
    assert (reading.metrics["box_loss"], reading.metrics["obj_loss"], reading.metrics["cls_loss"]) == (
        0.09067, 0.0189, 0.02807)
    assert "img_size" not in reading.metrics and reading.metrics["labels"] == 665


def test_a_right_aligned_row_cut_inside_a_figure_reads_nothing() -> None:
    row = _yolov7_row("0/99", 0.09067, 0.0189, 0.02807, 0.1376, 665, 640)
    cut = row[:row.rindex("665") + 2]  # `66` of 665: it ends short of the column's edge
    assert _read([YOLOV7_HEADER, cut]) == []


def test_an_epoch_column_that_shows_0_counts_from_0() -> None:
    rows = [_yolov7_row(f"{epoch}/299", 0.05, 0.02, 0.01, 0.08, 12, 640) for epoch in (0, 1, 245)]
    readings = _read([YOLOV7_HEADER, *rows])
    assert [reading.epoch for reading in readings] == [0.0, 1.0, 245.0]
    assert readings[-1].metrics["total_epochs"] == 300.0


def test_an_epoch_column_from_1_stays_one_based() -> None:
    # Ultralytics 8 engine/trainer.py: `f"{epoch + 1}/{self.epochs}"` in `("%11s" * 2 + "%11.4g" * ...)`
    header = ("%11s" * 7) % ("Epoch", "GPU_mem", "box_loss", "cls_loss", "dfl_loss", "Instances", "Size")
    row = ("%11s" * 2 + "%11.4g" * 5) % ("3/100", "4.1G", 1.2, 1.5, 1.1, 123, 640)
    [reading] = _read([header, row])
    assert (reading.epoch, reading.metrics["total_epochs"]) == (2.0, 100.0)


# Ultralytics 8 (ultralytics/ultralytics engine/trainer.py `progress_string`, models/yolo/detect/val.py
# `get_desc`): the training header, then rows ending in the epoch's bar, the validation header on its own bar.
V8_HEADER = ("%11s" * 7) % ("Epoch", "GPU_mem", "box_loss", "cls_loss", "dfl_loss", "Instances", "Size")
V8_CLASS_BAR = (("%22s" + "%11s" * 6) % ("Class", "Images", "Instances", "Box(P", "R", "mAP50", "mAP50-95")
                + ":   0%|          | 0/335 [00:00<?, ?it/s]")


def _v8_row(epoch: int, box: float, cls: float) -> str:
    return ("%11s" * 2 + "%11.4g" * 5) % (f"{epoch}/100", "3.4G", box, cls, 0, 69, 640) + (
        ": 100%|██████████| 6019/6019 [10:46<00:00,  9.31it/s]")


def test_an_epoch_row_after_the_validation_bars_header_reads_under_the_training_header() -> None:
    # W&B's output.log (corpus b47): the rows of every epoch at the end, a Class bar between each two
    readings = _read([V8_HEADER, _v8_row(1, 5.944, 6.374), V8_CLASS_BAR, _v8_row(100, 2.293, 1.66)])
    last = readings[-1]
    assert (last.epoch, last.metrics["box_loss"], last.metrics["cls_loss"]) == (100.0, 2.293, 1.66)
    assert "class" not in last.metrics


def test_a_validation_row_under_the_training_header_reads_nothing() -> None:
    # output.log keeps `all  10700  57824  0.503 ...` under the Epoch header its Class header left
    row = ("%22s" + "%11i" * 2 + "%11.3g" * 4) % ("all", 10700, 57824, 0.503, 0.374, 0.388, 0.205)
    assert _read([V8_HEADER, row]) == []


def test_a_dataset_scanning_bar_is_no_training_bar() -> None:
    # Ultralytics data/dataset.py cache_labels: `desc = f"{self.prefix}Scanning {path.parent / path.stem}..."`
    from sessiontui.collectors.trainlog.progress import parse_bar

    line = ("train: Scanning /data/labels/train.cache... 96300 images, 2 backgrounds, 0 corrupt: "
            "100%|██████████| 96300/96300 [00:00<?, ?it/s]")
    assert parse_bar(line)[0] is None


def test_a_bar_that_ran_its_count_in_under_a_second_after_training_is_not_the_run(tmp_path) -> None:
    # W&B's output.log of a TRL RewardTrainer run (corpus b47): the training's finished bar above its
    # dicts, then two `datasets` bars of the next stage, each drawn once, full, at thousands per second
    from sessiontui.collectors.trainlog import read_log

    log = tmp_path / "output.log"
    log.write_text("\n".join([
        "100%|██████████| 760/760 [26:32<00:00,  2.10s/it]",
        "{'loss': 0.0952, 'grad_norm': 0.73, 'learning_rate': 1.3e-08, 'epoch': 0.38}",
        "{'train_runtime': 1594.9832, 'train_samples_per_second': 243.965, 'train_steps_per_second': 0.476, "
        "'train_loss': 0.269, 'epoch': 0.39}",
        "100%|██████████| 200/200 [00:00<00:00, 53693.96it/s]",
        "100%|██████████| 25000/25000 [00:00<00:00, 26335.95it/s]",
    ]) + "\n")
    snap = read_log(log)
    assert (snap.step, snap.total_steps, snap.loss) == (760, 760, 0.0952)


def test_a_short_training_bar_is_the_run_when_it_is_the_only_one(tmp_path) -> None:
    from sessiontui.collectors.trainlog import read_log

    log = tmp_path / "toy.log"
    log.write_text("100%|██████████| 300/300 [00:00<00:00, 812.40it/s, loss=0.12]\n")
    snap = read_log(log)
    assert (snap.step, snap.total_steps, snap.loss) == (300, 300, 0.12)


def test_a_finished_bar_above_dicts_is_the_runs_only_when_the_summary_counts_its_steps(tmp_path) -> None:
    # transformers trainer_utils.py speed_metrics: `steps_per_second = round(num_steps / runtime, 3)`
    from sessiontui.collectors.trainlog import read_log

    def status(bar_total: int) -> tuple:
        log = tmp_path / f"bar{bar_total}.log"
        log.write_text("\n".join([
            f"100%|██████████| {bar_total}/{bar_total} [00:02<00:00,  3.10it/s]",
            "{'loss': 0.6914, 'grad_norm': 0.27, 'learning_rate': 9.6e-07, 'epoch': 0.5}",
            "{'loss': 0.5012, 'grad_norm': 0.21, 'learning_rate': 1e-07, 'epoch': 1.0}",
            "{'train_runtime': 1000.0, 'train_steps_per_second': 0.5, 'train_loss': 0.6, 'epoch': 1.0}",
        ]) + "\n")
        snap = read_log(log)
        return snap.step, snap.total_steps

    assert status(500) == (500, 500)  # 1000 s x 0.5 steps/s: the bar above was the training's
    assert status(7) == (None, None)  # a data bar above the dicts: the summary counts 500 steps


def test_a_files_name_before_a_number_is_no_metric() -> None:
    # Ultralytics data/utils.py verify_image_label's warning and a Python warning's source location,
    # both in the W&B output.log of corpus b47, then a line of figures as a control
    from sessiontui.collectors.trainlog.normalize import normalize
    from sessiontui.collectors.trainlog.parsers import parse_record

    for line in ("train: WARNING ⚠️ /home/u/datasets/images/train/062776.jpg: 2 duplicate labels removed",
                 "/envs/py38/lib/python3.8/site-packages/torch/nn/functional.py:718: UserWarning: Named tensors"):
        assert parse_record(normalize(line)) == []
    [reading] = parse_record(normalize("loss: 0.5 lr: 1e-4"))
    assert reading.metrics == {"loss": 0.5, "lr": 1e-4}


def test_an_objectness_column_says_the_epochs_count_from_0() -> None:
    # a paste from the middle of a YOLOv7 run: no `0/N` row, yet `f'{epoch}/{epochs - 1}'` is 0-based
    readings = _read([YOLOV7_HEADER, _yolov7_row("45/299", 0.05, 0.02, 0.01, 0.08, 12, 640)])
    assert (readings[0].epoch, readings[0].metrics["total_epochs"]) == (45.0, 300.0)


def test_an_upload_bars_counts_are_not_the_runs_position() -> None:
    # huggingface_hub's upload bars after an Unsloth run (corpus b48): files of files in the description,
    # bytes in the count, and a count out of 0 before anything is queued
    from sessiontui.collectors.trainlog.normalize import normalize
    from sessiontui.collectors.trainlog.parsers import parse_record

    for line in ("Processing Files (1 / 1)      : 100%|██████████| 12.8MB / 12.8MB, 3.77MB/s  ",
                 "Processing Files (0 / 0)      : |                    |  0.00B /  0.00B"):
        assert parse_record(normalize(line)) == []
    [cut] = parse_record(normalize("Epoch 3, loss=2.5:  48%|████▊   |"))  # a training bar cut before its count
    assert (cut.epoch, cut.metrics["loss"]) == (3.0, 2.5)
