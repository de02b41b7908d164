"""Line shapes the generic stages read in any tool's log: a bare counter leading delimited
fields, a missing value printed as `N/A`, DeepSpeed's early epoch/step timer (corpus b23)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from sessiontui.collectors.trainlog import read_log
from sessiontui.collectors.trainlog.normalize import normalize
from sessiontui.collectors.trainlog.parsers import parse_record
from sessiontui.collectors.trainlog.reader import LineReader


def _read(line: str) -> tuple[int | None, float | None, dict[str, float]]:
    """(step, epoch, metrics) of the one reading a line gives."""
    [reading] = parse_record(normalize(line))
    return reading.step, reading.epoch, reading.metrics


@pytest.mark.parametrize(("line", "step", "loss"), [
    # modded-llama2 (nwyin/modded-llama2#10): the step, then pipes
    ("250 | loss 4.0938 | lr 3.000000e-04 | 13707.39ms", 250, 4.0938),
    ("  12 │ train_loss 2.5 │ lr 1e-4", 12, 2.5),
    ("7; loss=0.31; acc=0.9", 7, 0.31),
    ("1500: loss=0.54 lr=1e-4", 1500, 0.54),
    ("  200/1000 | loss 3.2 | ppl 24.5", 200, 3.2),
    # a bracketed counter after a logger prefix (CLU) stays the step
    ("I1201 10:00:00.1 123 logging_writer.py:35] [1000] train_loss=0.25, lr=0.1", 1000, 0.25),
    # aws-samples/awsome-distributed-training 3.test_cases/pytorch/FSDP/src/train.py
    # `logger.info("Batch %d Loss: %.5f, Speed: %.2f samples/sec, lr: %.6f", batch_idx, ...)` (corpus b33)
    ("Batch 5 Loss: 14.34635, Speed: 8.98 samples/sec, lr: 0.000099", 5, 14.34635),
])
def test_a_counter_leading_delimited_fields_is_the_step(line: str, step: int, loss: float) -> None:
    got_step, _, metrics = _read(line)
    assert (got_step, metrics["loss"]) == (step, loss)


def test_a_wrapped_tail_without_a_loss_is_no_step() -> None:
    """fairseq's epoch summary cut by the terminal: `...| loss_scale 0.25` then `3 | clip 0.000 | ...`."""
    step, _, metrics = _read("3 | clip 0.000 | oom 0.000 | wall 1860 | train_wall 1647")
    assert step is None and metrics["wall"] == 1860


@pytest.mark.parametrize("missing", ["N/A", "None", "null", "n/a"])
def test_a_missing_value_does_not_rename_the_next_figure(missing: str) -> None:
    """GDR-Net's writer (GDR-Net#109): `total_grad_norm: N/A total_loss: 1.4628e+01 (1.5328e+01)`."""
    line = (f"eta: 15:12:08 iter: 50799/102400[49.6%] time: 1.0606   lr: 1.0000e-04  max_mem: 3611M "
            f"total_grad_norm: {missing} total_loss: 1.4628e+01 (1.5328e+01)  loss_z: 2.9443e-02 (8.6259e-02)")
    step, _, metrics = _read(line)
    assert step == 50799
    assert metrics["loss"] == pytest.approx(14.628)
    assert "grad_norm" not in metrics


def test_deepspeed_2020_throughput_timer_is_epoch_then_step() -> None:
    """DeepSpeed#255: `[INFO 2020-06-08 05:26:34] 0/2700, SamplesPerSec=13.19` (epoch 0, step 2700)."""
    [reading] = parse_record(normalize("[INFO 2020-06-08 05:26:34] 0/2700, SamplesPerSec=13.198177991591365"))
    assert (reading.step, reading.epoch, reading.total) == (2700, 0.0, None)
    assert reading.metrics["samples_per_s"] == pytest.approx(13.198, rel=1e-3)


def test_a_pasted_escape_code_spelled_out_is_dropped() -> None:
    """ESPnet#1138 pasted chainer's redraw as text: `ESC[4AESC[J0   200   677.669`."""
    assert normalize("ESC[4AESC[J0           200         677.669") == "0           200         677.669"
    assert normalize("^[[J     total [....]  0.00%") == "     total [....]  0.00%"


def test_a_colour_code_whose_escape_byte_a_paste_lost_is_dropped(tmp_path: Path) -> None:
    """Keras 3's bar (keras-team/keras keras/src/utils/progbar.py `update`: `\\x1b[1m{bar}\\x1b[0m `,
    `\\33[32m{'━' * prog_width}\\x1b[0m`) pasted without its ESC bytes still reads as the epoch's bar;
    a `[5m` in a line without the reset `[0m` is text."""
    log = tmp_path / "keras3.log"
    log.write_text("Epoch 2/10\n[1m 50/469[0m [32m━━[0m[37m━━━━━━━━━━━━━━━━━━[0m [1m1:23[0m 12ms/step"
                   " - accuracy: 0.8123 - loss: 0.5432\n")
    snap = read_log(log)
    assert snap.epoch == pytest.approx(1 + 50 / 469)
    assert snap.loss == pytest.approx(0.5432)
    assert normalize("[1;31mloss[0m: 0.5") == "loss: 0.5"
    assert normalize("eta [5m 20s] loss 0.5") == "eta [5m 20s] loss 0.5"


def test_a_figure_or_name_set_in_markdown_bold_reads_bare() -> None:
    """unsloth#344 pasted the Trainer's dict with `'loss': **4.7581**`; a name in bold is a name;
    the banner's stars, a product (`2*3*4`) and a dunder are no emphasis."""
    _, _, metrics = _read("{'loss': **4.7581**, 'grad_norm': 3.063769578933716, 'epoch': 0.1}")
    assert metrics["loss"] == pytest.approx(4.7581)
    assert metrics["grad_norm"] == pytest.approx(3.0638, rel=1e-4)
    step, _, metrics = _read("- **Step 200**: **loss**: 1.25, *lr*: 2e-05")
    assert (step, metrics) == (200, {"loss": 1.25, "lr": 2e-05})
    assert normalize("__init__ loss 2") == "__init__ loss 2"
    assert normalize("***** train metrics *****") == "***** train metrics *****"
    assert normalize("batch 2*3*4 tokens") == "batch 2*3*4 tokens"


def test_a_fixed_width_row_with_blank_columns_reads_by_position() -> None:
    """chainer's PrintReport (ESPnet1, ESPnet#1138): validation columns stay blank until the first
    evaluation, so a row has fewer cells than its header; each cell is read under its header."""
    from sessiontui.collectors.trainlog.reader import LineReader

    header = "epoch       iteration   main/loss   main/acc    validation/main/loss  elapsed_time"
    row = "0           200         677.669     0.000181                          152.819"
    full = "1           400         412.5       0.2         398.25                300.1"
    reader = LineReader(formats=[])
    assert reader.read(header) == []
    [blank] = reader.read(row)
    assert (blank.step, blank.epoch, blank.metrics["loss"]) == (200, 0.0, 677.669)
    assert blank.metrics["elapsed_time"] == 152.819 and "val_loss" not in blank.metrics
    [evaluated] = reader.read(full)
    assert (evaluated.step, evaluated.metrics["val_loss"]) == (400, 398.25)


def _read_text(tmp_path: Path, text: str):
    """What `train status --log` reads from a log holding this text."""
    log = tmp_path / "train.log"
    log.write_text(text)
    return read_log(log)


def _reader_lines(lines: list[str]) -> list:
    """Every reading a fresh reader gives for the lines, in order."""
    from sessiontui.collectors.trainlog.reader import LineReader

    reader = LineReader(formats=[])
    return [reading for line in lines for reading in reader.read(line)]


def test_a_json_object_printed_over_lines_is_one_record() -> None:
    """procthor-rl#5 pasted W&B's summary (`json.dumps(indent=2)`): nested members, `_step`."""
    lines = ["{", '  "train-onpolicy-losses/total_loss": 0.3768,', '  "train-onpolicy-misc/lr": 0.0003,',
             '  "training_step": 57104,', '  "_step": 6,', '  "_wandb": {', '    "runtime": 1548', "  }", "}"]
    [reading] = _reader_lines(lines)
    assert (reading.step, reading.metrics["loss"], reading.metrics["lr"]) == (57104, 0.3768, 0.0003)


@pytest.mark.parametrize(("tag", "loss_key"), [("Validation results: ", "val_loss"), ("train stats: ", "loss")])
def test_a_json_object_opened_after_a_tag_is_one_record(tag: str, loss_key: str) -> None:
    """`print("Validation results:", json.dumps(metrics, indent=2))`: an evaluation's tag makes it `val_`."""
    [reading] = _reader_lines([tag + "{", '  "loss": 1.5,', '  "accuracy": 0.7', "}"])
    assert reading.metrics[loss_key] == 1.5 and ("loss" in reading.metrics) == (loss_key == "loss")


def test_a_python_dict_over_lines_is_read_line_by_line() -> None:
    """pprint of a dict is no JSON: its lines are read as they were before the block began."""
    lines = ["{", "  'loss': 2.5,", "  'step': 10,", "}", "step 11 loss 2.4"]
    readings = _reader_lines(lines)
    assert [r.step for r in readings if r.step is not None] == [10, 11]
    assert readings[0].metrics["loss"] == 2.5


@pytest.mark.parametrize("line", [
    '{"_step": 6, "training_step": 57104, "loss": 0.3}',
    '{"training_step": 57104, "_step": 6, "loss": 0.3}',
    "{'_step': 6, 'global_step': 57104, 'loss': 0.3}",
])
def test_wandb_log_counter_never_beats_a_training_step(line: str) -> None:
    """W&B's `_step` counts log calls; the training's own position name is the step."""
    [reading] = parse_record(normalize(line))
    assert reading.step == 57104


def test_a_table_row_glued_to_a_traceback_keeps_its_figures(tmp_path) -> None:
    """yolov7#1124: the row and bar under `Epoch gpu_mem box ...`, then `Traceback` on that line."""
    log = tmp_path / "train.log"
    log.write_text(
        "     Epoch   gpu_mem       box       obj       cls     total    labels  img_size\n"
        "     7/299     31.5G   0.04139   0.06443    0.0327    0.1385      1733       416:  65%|######5   "
        "| 123/190 [01:02<00:34,  1.96it/s]Traceback (most recent call last):\n"
        '  File "train.py", line 365, in train\n'
        "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB\n")
    snap = read_log(log)
    assert snap.status == "crashed"
    # YOLOv7 train.py prints `'%g/%g' % (epoch, epochs - 1)`: 0-based, 65% into epoch 7
    assert snap.metrics["box"] == 0.04139 and snap.epoch is not None and 7 <= snap.epoch < 8


def test_a_counter_of_a_total_before_a_delimiter_gives_the_total() -> None:
    [reading] = parse_record(normalize("  200/1000 | loss 3.2 | ppl 24.5"))
    assert (reading.step, reading.total) == (200, 1000)


@pytest.mark.parametrize(("line", "epoch"), [
    # pytorch/examples imagenet's ProgressMeter: epochs from 0
    ("Epoch: [0][ 10/500]\tTime  0.123 ( 0.456)\tLoss 6.9077e+00 (6.9100e+00)\tAcc@1   0.00 (  0.10)", 0.02),
    ("Epoch: [3][250/500]\tTime  0.123 ( 0.456)\tLoss 2.5 (2.6)", 3.5),
    # mmcv 1.x `Epoch [e][i/n]`: epochs from 1
    ("Epoch [4][250/500]\tlr: 1.000e-02, loss: 0.5", 3.5),
])
def test_an_epoch_bracket_then_its_batch_is_the_epochs_fraction(line: str, epoch: float) -> None:
    [reading] = parse_record(normalize(line))
    assert reading.format == "epoch-batch" and reading.epoch == pytest.approx(epoch)


@pytest.mark.parametrize(("last", "end"), [
    # DETR / DeiT / MAE / LLaMA2-Accessory main.py: `print('Training time {}'.format(total_time_str))`
    ("Epoch: [299]  [1250/1251]  eta: 0:00:00  lr: 0.000010  loss: 2.5 (2.6)  time: 0.5", "Training time 2 days, 3:04:05"),
    ("[07:20:32] Epoch: [0]  [1500/1504]  eta: 0:00:01  lr: 0.000010  closs: 1.1 (1.2)  time: 0.5", "[07:20:32.390498] Training time 5:47:14"),
    # YOLOX's Trainer.after_train
    ("epoch: 300/300, iter: 50/60, mem: 5000Mb, total_loss: 1.1, lr: 7.813e-06",
     "2021-09-03 20:47:31.106 | INFO     | yolox.core.trainer:after_train:184 - Training of experiment is done and the best AP is 90.00"),
    # timm's train.py, its last line
    ("Train: 299 [1250/1251 (100%)]  Loss: 2.5 (2.6)  LR: 1.000e-05", "*** Best metric: 80.123 (epoch 299)"),
    # PyTorch's CIFAR-10 tutorial
    ("[2,  2000] loss: 1.285", "Finished Training"),
    # torchrun's agent once every worker exited 0 (torch/distributed/elastic/agent/server/api.py)
    ("step 100 loss 2.1", "INFO:torch.distributed.elastic.agent.server.api:Local worker group finished "
     "(WorkerState.SUCCEEDED). Waiting 300 seconds for other agents to finish"),
])
def test_a_stacks_own_last_words_finish_the_run(tmp_path, last: str, end: str) -> None:
    from sessiontui.collectors.trainlog import read_log

    log = tmp_path / "train.log"
    log.write_text(f"{last}\n{end}\n")
    assert read_log(log).status == "finished"
    log.write_text(f"{last}\n")
    assert read_log(log).status != "finished"


@pytest.mark.parametrize(("line", "figures"), [
    # DeiT's evaluate(): the loss there is the evaluation's, never the training loss
    ("* Acc@1 81.234 Acc@5 95.123 loss 0.812", {"val_acc@1": 81.234, "val_loss": 0.812}),
    # pytorch/examples imagenet and Swin: ` * Acc@1 {top1.avg:.3f} Acc@5 {top5.avg:.3f}`
    (" * Acc@1 75.932 Acc@5 92.766", {"val_acc@1": 75.932, "val_acc@5": 92.766}),
    # a phase word before an abbreviation stays: `eval ppl` is no training perplexity
    ("step 1000 | eval loss 2.01 | eval ppl 7.4", {"eval_loss": 2.01, "eval_ppl": 7.4}),
])
def test_an_evaluation_summary_gives_evaluation_figures(line: str, figures: dict[str, float]) -> None:
    _, _, metrics = _read(line)
    assert {key: metrics.get(key) for key in figures} == figures
    assert "loss" not in metrics and "perplexity" not in metrics


def test_a_brace_that_never_closes_holds_back_no_more_than_a_block() -> None:
    """A stray `{` line: the lines under it are read once the block is too long to be an object."""
    from sessiontui.collectors.trainlog.reader import MAX_BLOCK_LINES

    readings = _reader_lines(["{"] + [f"step {n} loss 2.0" for n in range(1, MAX_BLOCK_LINES + 5)])
    steps = [reading.step for reading in readings]
    assert steps[0] == 1 and steps[-1] == MAX_BLOCK_LINES + 4 and len(steps) == MAX_BLOCK_LINES + 4


@pytest.mark.parametrize(("line", "step", "total", "epoch", "rate"), [
    # chainer's ProgressBar under ESPnet1's report table (ESPnet#1138)
    ("       200 iter, 0 epoch / 100 epochs", 200, None, 0.0, None),
    ("       200 / 1000 iterations", 200, 1000, None, None),
    ("     2.635 iters/sec. Estimated time to finish: 20 days, 11:28:37.129104.", None, None, None, 2.635),
])
def test_chainer_progress_bar_lines(line: str, step, total, epoch, rate) -> None:
    [reading] = parse_record(normalize(line))
    assert (reading.step, reading.total, reading.epoch, reading.steps_per_s) == (step, total, epoch, rate)


def test_torchruns_worker_failure_line_crashes_a_cut_paste(tmp_path) -> None:
    """A paste cut after torchrun's `failed (exitcode: 1) local_rank: 0 ...`, before its ChildFailedError."""
    from sessiontui.collectors.trainlog import read_log

    log = tmp_path / "train.log"
    log.write_text("step 100 loss 2.1\nERROR:torch.distributed.elastic.multiprocessing.api:failed "
                   "(exitcode: 1) local_rank: 0 (pid: 1234) of binary: /usr/bin/python\n")
    assert read_log(log).status == "crashed"
    log.write_text("step 100 loss 2.1\nINFO:torch.distributed.elastic.agent.server.api:[default] worker "
                   "group successfully finished. Waiting 300 seconds for other agents to finish.\n")
    assert read_log(log).status == "finished"  # every worker exited 0


def test_detectron2_copypaste_results_are_the_evaluations_by_task() -> None:
    """detectron2/evaluation/testing.py `print_csv_format`, under its logger prefix."""
    head = "[11/01 11:27:04 d2.evaluation.testing]: copypaste: "
    lines = [head + "Task: bbox", head + "AP,AP50,AP75,APs,APm,APl", head + "40.2,61.0,43.5,24.1,43.5,52.3",
             head + "Task: segm", head + "AP,AP50,AP75,APs,APm,APl", head + "36.1,58.0,38.6,17.0,38.9,53.0"]
    bbox, segm = _reader_lines(lines)
    assert (bbox.metrics["val_bbox/ap50"], segm.metrics["val_segm/ap"]) == (61.0, 36.1)
    assert "loss" not in bbox.metrics and bbox.step is None


@pytest.mark.parametrize(("line", "key", "value"), [
    # PaddleDetection 2020 (PaddleDetection#1512): the loss as a quoted string among bare figures
    ("2020-09-25 18:44:31,000-INFO: iter: 10, lr: 0.000040, 'loss': '43.708477', eta: 8:12:32", "loss", 43.708477),
    ('step 7 "loss": "3.180" "lr": "1e-4"', "loss", 3.18),
    ("step 7 acc='91.5%' loss=0.2", "acc", 0.915),
])
def test_a_number_quoted_as_a_string_is_read(line: str, key: str, value: float) -> None:
    _, _, metrics = _read(line)
    assert metrics[key] == pytest.approx(value)


def test_a_quote_left_open_is_no_figure() -> None:
    """Only a quote that closes around the number makes it a figure: `'loss': '4.2` is cut text."""
    _, _, metrics = _read("iter: 10, lr: 0.1, 'loss': '4.2")
    assert "loss" not in metrics


@pytest.mark.parametrize(("line", "step", "total", "epoch"), [
    # ms-swift GRPO's JSON line (ms-swift#5890): position and total in one string value
    ('{"loss": 1e-08, "epoch": 0.00045568, "global_step/max_steps": "2/4389", "percentage": "0.05%"}',
     2, 4389, 0.00045568),
    # Kaldi nnet3 (vosk-api#966): the fraction of epochs done over the epochs
    ("Iter: 85/959   Jobs: 1   Epoch: 1.77/20.0 (8.9% complete)   lr: 0.000816", 85, 959, 1.77),
    ("Epoch 3/10, loss: 0.5", None, None, 3.0),
])
def test_a_slash_pair_in_one_value_is_a_position_and_its_total(line: str, step, total, epoch) -> None:
    [reading] = parse_record(normalize(line))
    assert (reading.step, reading.total, reading.epoch) == (step, total, epoch)


@pytest.mark.parametrize(("line", "lr"), [
    # BasicSR (BasicSR#269): each optimizer's rate in a tuple after `lr:`, thousands in the position
    ("[My_ES..][epoch:210, iter:  20,400, lr:(1.000e-04,)] [eta: 1 day, 18:10:02] l_g_pix: 3.3959e-04", 1e-4),
    ("[epoch:  3, iter:   1,200, lr:(2.000e-04,1.000e-04,)] l_pix: 1.0e-02", 2e-4),
    ("step 3 lr= [0.001] loss: 2.0", 1e-3),
])
def test_a_bracketed_list_of_rates_gives_the_first(line: str, lr: float) -> None:
    _, _, metrics = _read(line)
    assert metrics["lr"] == pytest.approx(lr)


def test_a_parenthesised_figure_in_prose_is_no_position() -> None:
    """torchtitan: `Warmup steps (200) exceed total training steps (10).` states settings."""
    [reading] = parse_record(normalize(
        "WARNING - Warmup steps (200) exceed total training steps (10). Adjusting warmup steps to 10."))
    assert reading.step is None


def test_a_step_column_with_its_share_done_is_the_step() -> None:
    """nerfstudio's writer (tetra-nerf#12): `Step (% Done)` over `3800 (1.27%)`, durations with
    their unit and a blank last column; `Train Iter (time)` is a duration, not the position."""
    from sessiontui.collectors.trainlog.reader import LineReader

    reader = LineReader(formats=[])
    assert reader.read("Step (% Done)       Train Iter (time)    ETA (time)           "
                       "Train Rays / Sec     Test Rays / Sec") == []
    [row] = reader.read("3800 (1.27%)        31.634 ms            2 h, 36 m, 9 s       1.01 K")
    assert row.step == 3800
    assert row.metrics["train_iter_(time)"] == pytest.approx(31.634)


@pytest.mark.parametrize(("line", "seconds"), [
    ("Trainer.train_iteration: 0.0300", 0.03),  # nerfstudio's profiling summary after training
    ("avg iteration: 0.512 s", 0.512),
])
def test_a_fractional_position_is_a_duration_not_the_step(line: str, seconds: float) -> None:
    [reading] = parse_record(normalize(line))
    assert reading.step is None and list(reading.metrics.values()) == [pytest.approx(seconds)]


@pytest.mark.parametrize("line", [
    # DeepSpeed ZeRO-3's warning after a patched Trainer's last step (accelerate#2724)
    "Invalidate trace cache @ step 0: expected module 0, but got module 274",
    "step 3: expected 128 tokens but got 127",
    "shape mismatch at iteration 5: expected 4, but found 3",
])
def test_a_mismatch_diagnostic_gives_no_figures(line: str) -> None:
    assert parse_record(normalize(line)) == []


def test_a_position_after_a_bracketed_epoch_is_the_step_of_its_total() -> None:
    """accelerate#2724's patched Trainer: `Epoch: [0],Step [4/5],Elapsed Time: ...,Speed: 15.53 steps/sec`."""
    [reading] = parse_record(normalize(
        "Epoch: [0],Step [4/5],Elapsed Time: 00:01:02,Estimated Remaining Time: 00:00:15,Speed: 15.53 steps/sec"))
    assert (reading.step, reading.total, reading.epoch) == (4, 5, 0.0)


@pytest.mark.parametrize(("line", "step", "total", "loss"), [
    # Dreambooth-Stable-Diffusion#45: the script's print lands inside Lightning's postfix
    ("Epoch 0:   0%| | 1/2020 [00:03<1:44:05,  3.09s/it, loss=0.0359, v_num=0, train/lHere comes the checkpoint...",
     1, 2020, 0.0359),
    ("Epoch 0:  12%|#2        | 120/1000 [01:00<07:20,  2.00it/s, loss=1.25, v_nu", 120, 1000, 1.25),
    ("  5%|▌         | 50/1000 [00:10<03:10,  5.00it/s", 50, 1000, None),
])
def test_a_bar_cut_before_its_closing_bracket_keeps_its_position(line: str, step, total, loss) -> None:
    [reading] = parse_record(normalize(line))
    assert (reading.step, reading.total, reading.metrics.get("loss")) == (step, total, loss)


@pytest.mark.parametrize(("header", "row"), [
    # YOLOv5 before v6.1 (yolov5-deepsparse-blogpost#11), YOLOv7
    ("     Epoch   gpu_mem       box       obj       cls    labels  img_size",
     "   156/239     15.7G   0.02342   0.04807 0.0004876       431       640"),
    # YOLOv5 v6.1 and later
    ("      Epoch    GPU_mem   box_loss   obj_loss   cls_loss  Instances       Size",
     "    156/239     15.7G    0.02342    0.04807  0.0004876        431       640"),
])
def test_yolo_component_losses_have_one_name_across_versions(header: str, row: str) -> None:
    from sessiontui.collectors.trainlog.reader import LineReader

    reader = LineReader(formats=[])
    assert reader.read(header) == []
    [reading] = reader.read(row)
    losses = {name: reading.metrics[name] for name in ("box_loss", "obj_loss", "cls_loss")}
    assert losses == {"box_loss": 0.02342, "obj_loss": 0.04807, "cls_loss": 0.0004876}
    assert reading.epoch == 156.0  # `f'{epoch}/{epochs - 1}'` (YOLOv5 train.py): epochs count from 0


@pytest.mark.parametrize(("header", "row", "epoch", "lr"), [
    ("epoch,loss,lr", "3,0.52,0.001", 3.0, 0.001),  # Keras CSVLogger
    # DySPN (Kyakaka/DySPN#4): cells padded around commas, the rate a one-item list after a resume
    ("Epoch ,FinishTime     ,LR    ,RMSE_Train ,RMSE_Val", "   24 ,04.29_22:48:50 ,[0.001]    ,   590.087 , 782.814",
     24.0, 0.001),
])
def test_a_comma_separated_table_reads_its_rows_under_the_header(header: str, row: str, epoch: float,
                                                                  lr: float) -> None:
    [reading] = _reader_lines([header, row])
    assert (reading.epoch, reading.metrics["lr"]) == (epoch, lr)


def test_a_comma_separated_line_of_phrases_is_no_header() -> None:
    """`Loading model, tokenizer, dataset`: cells holding spaces are prose, so the next row is no table row."""
    assert _reader_lines(["Loading model, tokenizer, dataset", "1,2,3"]) == []


@pytest.mark.parametrize(("line", "step", "metric", "value"), [
    # Tacotron2 / WaveGlow (NVIDIA/tacotron2#368): the iteration between the name and its figure
    ("Train loss 64999 0.314525 Grad Norm 0.615372 4.37s/it", 64999, "loss", 0.314525),
    ("Validation loss 64000:  0.323265  ", 64000, "val_loss", 0.323265),
])
def test_a_whole_number_between_a_metric_and_its_figure_is_the_iteration(line: str, step: int, metric: str,
                                                                          value: float) -> None:
    got_step, _, metrics = _read(line)
    assert (got_step, metrics[metric]) == (step, value)


def test_a_metric_followed_by_one_figure_keeps_it() -> None:
    """`loss 3 epoch 2`: a whole-number figure with no second figure after it is the metric's."""
    step, epoch, metrics = _read("loss 3 epoch 2")
    assert (step, epoch, metrics["loss"]) == (None, 2.0, 3.0)


_LOG_HISTORY = ["{", '"global_step": 3000,', '"log_history": [', "{", '"epoch": 0.42,', '"learning_rate": 0.0,',
                '"loss": 3.2533,', '"step": 3000', "},", "{", '"epoch": 0.42,', '"step": 3000,',
                '"train_loss": 3.418,', '"train_runtime": 30187.6', "}", "],"]


@pytest.mark.parametrize("cut", [len(_LOG_HISTORY) - 1, len(_LOG_HISTORY)])
def test_a_list_entry_inside_an_open_json_block_is_read_as_it_closes(cut: int) -> None:
    """A trainer_state.json pasted and cut before its closing keys (b26): each `log_history`
    entry is read once its own braces close; the summary's `train_loss` is no step's loss."""
    step_entry, summary = [reading for reading in _reader_lines(_LOG_HISTORY[:cut])
                           if reading.format != "hf-trainer-state"]
    assert (step_entry.step, step_entry.epoch, step_entry.metrics["loss"], step_entry.metrics["lr"]) == (
        3000, 0.42, 3.2533, 0.0)
    assert summary.done and "loss" not in summary.metrics


def test_a_trainer_state_cut_inside_its_history_stays_at_the_states_step(tmp_path: Path) -> None:
    """The HF Trainer writes `global_step` and `epoch` above `log_history` (TrainerState.save_to_json,
    transformers/trainer_callback.py, keys sorted): a paste cut after the history's first entries is
    at the state's step (openlm-research/open_llama#63, corpus b31)."""
    log = tmp_path / "trainer_state.log"
    log.write_text("\n".join(["{", '  "best_metric": null,', '  "epoch": 3.887,', '  "global_step": 750,',
                              '  "log_history": [', "    {", '      "epoch": 0.05,', '      "loss": 1.1005,',
                              '      "step": 10', "    },", "    {", '      "epoch": 0.1,', '      "loss": 1.0258,',
                              '      "step": 20', "    },", "    {", '      "epoch": 0.16,']) + "\n")
    snap = read_log(log)
    assert (snap.step, snap.epoch, snap.loss) == (750, 3.887, 1.0258)


def test_a_member_object_inside_an_open_block_waits_for_the_whole_block() -> None:
    """W&B's summary nests `"key": {` members: only the whole object, once closed, is read."""
    lines = ["{", '"_step": 5,', '"system": {', '"gpu": 1.5', "},", '"loss": 0.3', "}"]
    [reading] = _reader_lines(lines)
    assert (reading.step, reading.metrics["loss"]) == (5, 0.3)


def test_an_evaluation_librarys_scores_after_an_epoch_are_validation_figures() -> None:
    # huggingface/accelerate examples/nlp_example.py: `accelerator.print(f"epoch {epoch}:", eval_metric)`
    # after `eval_metric = metric.compute()` (GLUE MRPC: accuracy and f1)
    readings = _reader_lines(["epoch 2: {'accuracy': 0.8602941176470589, 'f1': 0.9018932874354562}"])
    assert readings[-1].metrics == pytest.approx({"val_accuracy": 0.8602941176470589,
                                                  "val_f1": 0.9018932874354562})
    assert readings[-1].epoch == 2


def test_a_bar_without_a_rate_keeps_its_position_total_and_postfix() -> None:
    # NeMo's MegatronProgressBar: `bar_format = "{desc}: {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt}
    # [{elapsed}<{remaining}{postfix}]"` (NVIDIA/NeMo nemo/lightning/pytorch/callbacks/progress_bar.py
    # at cda8681); the line as NVIDIA-NeMo/Speech#7957 pasted it.
    [reading] = parse_record(normalize(
        "Epoch 0: :   3%|▎         | 9000/301500 [1:42:42<55:37:46, v_num=0-56, reduced_train_loss=nan.0,"
        " global_step=9e+3, consumed_samples=6.3e+5, train_step_timing in s=0.615, val_loss=7.040]"))
    assert (reading.step, reading.total) == (9000, 301500)
    assert reading.epoch == pytest.approx(9000 / 301500)
    assert reading.metrics["val_loss"] == pytest.approx(7.04)
    assert reading.metrics["train_step_timing_in_s"] == pytest.approx(0.615)


@pytest.mark.parametrize(("line", "step", "total", "epoch"), [
    ("1|12|Loss: 1.2345:  48%|████▊     | 12/25 [00:15<00:15,  1.2s/it]", 12, 25, 12 / 25),
    ("2|37|Loss: 1.1111:  48%|████▊     | 12/25 [00:15<00:15,  1.2s/it]", 37, 50, 1 + 12 / 25),
    # as meta-pytorch/torchtune#2620 pasted it: the description one step behind the bar
    ("[trainer0|0]:1|25|Loss: 1.2621808052062988:  26%|██▌       | 26/101 [06:45<17:27, 13.96s/it]",
     25, 101, 26 / 101),
])
def test_torchtunes_epoch_and_step_in_the_bar_description_are_the_runs(
        line: str, step: int, total: int, epoch: float) -> None:
    # torchtune recipes: `pbar.set_description(f"{curr_epoch + 1}|{self.global_step}|Loss: {loss_to_log}")`
    # over `tqdm(total=self._steps_per_epoch)` (pytorch/torchtune recipes/full_finetune_single_device.py)
    [reading] = parse_record(normalize(line))
    assert (reading.step, reading.total) == (step, total)
    assert reading.epoch == pytest.approx(epoch)


@pytest.mark.parametrize(("row", "epoch"), [
    # as ultralytics/ultralytics#2023 pasted it: epoch 151 of 200 done
    ("    151/200      10.4G     0.4635     0.2344      0.805       1578        640: 100%|██████████|"
     " 99/99 [01:52<00:00,  1.14s/it]", 151.0),
    # the trainer's `pbar.set_description(("%11s" * 2 + "%11.4g" * (2 + loss_length)) %
    # (f"{epoch + 1}/{self.epochs}", ...))` mid-epoch (ultralytics/engine/trainer.py)
    ("      3/100      4.12G      1.234     0.5678      1.111         45        640:  48%|████▊     |"
     " 48/100 [00:15<00:16,  3.2it/s]", 2.48),
    # the same row cut after the bar's glyphs, as a notebook's output keeps it: the percentage is
    # the share (YOLOv5 classify/train.py prints `f"{epoch + 1}/{epochs}"` so; corpus b32)
    ("        3/3    0.369G      0.626      0.713      0.927      0.992        640: 100%|██████████", 3.0),
    ("      3/100      4.12G      1.234     0.5678      1.111         45        640:  48%|████▊     ", 2.48),
])
def test_a_table_rows_bar_is_the_share_of_its_epoch(row: str, epoch: float) -> None:
    header = "      Epoch    GPU_mem   box_loss   cls_loss   dfl_loss  Instances       Size"
    readings = _reader_lines([header, row])
    assert readings[-1].epoch == pytest.approx(epoch)
    assert readings[-1].metrics["box_loss"] > 0


def test_composers_epoch_and_batch_of_the_epoch_give_the_epoch_fraction() -> None:
    # Composer's ConsoleLogger: `training_progress = f'[epoch={cur_epoch + 1}]{curr_progress}'` with
    # `curr_progress = f'[batch={cur_batch}/{total}]'` (batch_in_epoch), then `\n\t Train {name}: {value}`
    # (mosaicml/composer composer/loggers/console_logger.py at 02c872e)
    readings = _reader_lines(["[epoch=2][batch=100/1000]:", "\t Train loss/train/total: 2.3456"])
    assert readings[0].epoch == pytest.approx(1.1)
    assert (readings[0].step, readings[0].total) == (100, 1000)


@pytest.mark.parametrize(("line", "step", "total"), [
    # fairseq's tqdm bar over one epoch's batches (facebookresearch/fairseq#1955, corpus b27)
    ("81989/88743 [10:51:46<53:53,  2.09it/s, loss=5.7e-14, ups=2.11, num_updates=348000, lr=0.0002]",
     348000, None),
    # NeMo's bar is over the run, its `global_step` logged before the update one behind
    # (NeMo-Framework-Launcher#55): the step is the one the tool names, the total the bar's
    ("Epoch 0:   1%|          | 795/77225 [9:07:58<878:01:48, 41.36s/it, loss=3.1, global_step=794.0]",
     794, 77225),
    # Stability's sgm trainer under Lightning, `self.log("global_step", ...)` in its postfix (corpus b47)
    ("Epoch 0:   2%|█▊        | 87/5087 [01:01<58:27,  1.43it/s, v_num=cond, loss=1.110, "
     "global_step=86.00, lr_abs=8.6e-8]", 86, 5087),
    # the full bar's count says every step is done (NeMo 1 launcher, corpus b33)
    ("Epoch 0: 100%|██████████| 40/40 [00:31<00:00,  1.27it/s, "
     "loss=10.9, v_num=, reduced_train_loss=10.90, global_step=39.00]", 40, 40),
    # a step of total printed as one figure, as ms-swift's dicts print it, in a postfix
    ("Epoch 0:  10%|█         | 10/100 [00:10<01:30,  1.00it/s, loss=2.1, global_step/max_steps=110/1000]",
     110, 1000),
])
def test_a_position_in_a_bars_postfix_is_the_runs_step(line: str, step: int, total: int | None) -> None:
    [reading] = parse_record(normalize(line))
    assert (reading.step, reading.total, "step" in reading.metrics) == (step, total, False)


def test_slashed_names_pair_with_slashed_figures() -> None:
    """GluonNLP's SQuAD script (dmlc/gluon-nlp#1261, corpus b27): the total is the loss."""
    _, _, metrics = _read("Epoch: 1, Batch: 5400/8164, Loss span/answer/total=0.7096/0.1699/0.8795, "
                          "LR=0.00001732, grad_norm=21.2201.")
    assert (metrics["loss"], metrics["span_loss"], metrics["answer_loss"]) == (0.8795, 0.7096, 0.1699)


def test_slashed_names_and_figures_that_do_not_pair_stay_unread() -> None:
    _, _, metrics = _read("acc top1/top5=0.71/0.90/0.95 loss=1.5")
    assert metrics == {"loss": 1.5}


def test_a_known_name_in_brackets_names_the_figure_after_it() -> None:
    """LION's loguru line (nv-tlabs/LION#9, corpus b27): `[step]` beats the epoch's `iter[14/15]`."""
    step, _, metrics = _read("[R0] | E9 iter[ 14/ 15] | [Loss] nan | [exp] ./exp/0125/car | "
                             "[step]   149 | [url] none | [time] 0.4m (~5h) |[best] 0 -100.000x1e-2")
    assert step == 149 and math.isnan(metrics["loss"]) and "best" not in metrics


@pytest.mark.parametrize(("line", "step"), [
    # MaxText/metric_logger.py under `srun -l` (a one-line paste: too short to tell labels apart)
    ("0: completed step: 9, seconds: 5.667, TFLOP/s/device: 134.9, Tokens/s/device: 8672.7, loss: 10.374", 9),
    # PyTorch's ImageNet example ProgressMeter (pytorch/examples imagenet/main.py)
    ("0: Epoch: [0][  400/80073]\tTime  0.315 ( 0.372)\tLoss 6.9802e+00 (7.0827e+00)", 400),
    ("0: epoch: [200/200], iter: 7770, lr: 0.000000, loss: 4.882508", 7770),  # PaddleOCR
])
def test_a_bare_counter_before_a_line_with_its_own_position_is_no_step(line: str, step: int) -> None:
    assert _read(line)[0] == step


_WARNING = ("/usr/lib/python3/dist-packages/torch/utils/data/dataloader.py:558: UserWarning: This "
            "DataLoader will create 8 worker processes in total.\n  warnings.warn(_create_warning_msg(\n"
            "node1:12345:12399 [0] NCCL INFO Connected all rings\n"
            "[W socket.cpp:663] [c10d] The client socket has failed to connect to [localhost]:29500\n")


def test_warnings_printed_inside_a_json_block_leave_it_whole(tmp_path) -> None:
    from sessiontui.collectors.trainlog import read_log

    log = tmp_path / "train.log"
    log.write_text('{\n  "train-misc/pipeline_stage": 0,\n' + _WARNING
                   + '  "train-metrics/loss": 0.377,\n  "train/global_step": 57104\n}\n')
    snap = read_log(log)
    assert (snap.step, snap.loss) == (57104, 0.377)


def test_warnings_printed_inside_the_train_metrics_block_leave_it_a_summary(tmp_path) -> None:
    """transformers#15047: the block's `train_loss` is the run's mean, also with a warning between rows."""
    from sessiontui.collectors.trainlog import read_log

    log = tmp_path / "train.log"
    log.write_text("{'loss': 6.5349, 'learning_rate': 0.000147, 'epoch': 42.65}\n ***** train metrics *****\n"
                   "  epoch                    =       50.0\n" + _WARNING + "  train_loss               =     0.0084\n")
    assert read_log(log).loss == 6.5349


@pytest.mark.parametrize(("header", "row", "figures"), [
    # YOLOv5 (2022): a full column leaves one space, the rest are tabs
    ("\tEpoch\tgpu_mem\tbox\tobj\tcls\tlabels\timg_size",
     "\t155/239\t15.7G\t0.02342\t0.0487 0.0004548\t422\t640: 100% 42/42 [01:11<00:00,  1.71s/it]",
     {"box": 0.02342, "obj": 0.0487, "cls": 0.0004548}),
    # DySPN's padded CSV, its padding turned to tabs
    ("Epoch ,FinishTime\t,LR\t,RMSE_Train ,RMSE_Val", "\t24 ,04.30_10:12:00 ,0.001\t,\t700.1 ,800.2",
     {"lr": 0.001, "rmse_train": 700.1}),
])
def test_a_table_whose_space_runs_became_tabs_reads_by_column(header: str, row: str, figures: dict) -> None:
    [reading] = _reader_lines([header, row])
    assert {name: reading.metrics[name] for name in figures} == figures


@pytest.mark.parametrize(("line", "normal"), [
    ("tps: 7,282  tflops: 1.2", "tps: 7282  tflops: 1.2"),
    ("1,234,567.5 tok/s", "1234567.5 tok/s"),
    ("1,0.001,149,,0.55,,", "1,0.001,149,,0.55,,"),  # a CSV row: a decimal, then the step
    ("12,345,0.5", "12,345,0.5"),  # another cell follows: not one number
    # Lightning CSVLogger's epoch and step before empty cells (lightning/pytorch/loggers/csv_logs.py
    # writes one DictWriter row per log call, blanks for the keys it lacks)
    ("1,125,,0.55,", "1,125,,0.55,"), ("1,125,,,0.52", "1,125,,,0.52"),
    ("Num examples = 5,856, batch 8", "Num examples = 5856, batch 8"),
    # Ultralytics' results.csv: epoch, then the seconds so far, `f"{x:.6g}"` joined by `,` (ultralytics/
    # ultralytics engine/trainer.py save_metrics; corpus b47): a cell after the epoch, not 199100.06
    ("199,100.06,0.59865,0.60914", "199,100.06,0.59865,0.60914"),
])
def test_thousands_separators_go_but_csv_cells_stay(line: str, normal: str) -> None:
    assert normalize(line) == normal


@pytest.mark.parametrize("line", [
    # tqdm's postfix over one epoch's batches (archinetai/audio-diffusion-pytorch-trainer#17, corpus b28)
    " 90%|████████▉ | 4011/4463 [1:02:59<06:41,  1.13it/s, epoch=11.9, loss=0.00942]",
    "4011/4463 [1:02:59<06:41,  1.13it/s, epoch=11.9, loss=0.00942]",
])
def test_an_epoch_in_a_bars_postfix_is_the_runs_epoch(line: str) -> None:
    [reading] = parse_record(normalize(line))
    assert (reading.epoch, reading.metrics.get("epoch"), reading.metrics["loss"]) == (11.9, None, 0.00942)


def test_a_bars_own_epoch_beats_one_in_its_postfix() -> None:
    [reading] = parse_record(normalize("Epoch 3:  50%|█████     | 50/100 [00:10<00:10,  5.00it/s, epoch=9]"))
    assert reading.epoch == pytest.approx(3.5)


@pytest.mark.parametrize(("line", "figures"), [
    # caikit-nlp's training_logs.jsonl (caikit/caikit-nlp#208, corpus b28): the figure is the
    # `value` of a record named by `name`, its position in a nested object
    ('{"name": "loss", "data": {"epoch": 0.01, "step": 2, "value": 4.4904, "timestamp": "2023-09-26"}}',
     {"step": 2, "epoch": 0.01, "loss": 4.4904}),
    # a TensorBoard scalar exported as JSON lines: `tag`, `step`, `value`
    ('{"wall_time": 1695756318.7, "tag": "train/loss", "step": 40, "value": 2.25}',
     {"step": 40, "epoch": None, "loss": 2.25}),
    # a `name` that names no figure leaves the record as it is
    ('{"name": "run-7", "step": 5, "loss": 1.5}', {"step": 5, "epoch": None, "loss": 1.5}),
    # the same records printed as Python dicts
    ("{'name': 'loss', 'value': 0.5, 'step': 100}", {"step": 100, "epoch": None, "loss": 0.5}),
    ("{'step': 100, 'train': {'loss': 0.5, 'lr': 0.0001}}", {"step": 100, "epoch": None, "loss": 0.5}),
])
def test_a_record_that_names_its_value_or_nests_its_figures(line: str, figures: dict) -> None:
    [reading] = _reader_lines([line])
    assert {"step": reading.step, "epoch": reading.epoch, "loss": reading.metrics.get("loss")} == figures


def test_a_markdown_table_without_outer_pipes_reads_by_column() -> None:
    """Unsloth's GRPO notebook table copied as GitHub renders it (unslothai/unsloth#2291, corpus b28)."""
    readings = _reader_lines(["Step | Training Loss | reward | reward_std | kl",
                              "-- | -- | -- | -- | --",
                              "10 | 0.000100 | -11.500000 | 1.732051 | 0.002300",
                              "11 | 0.000200 | -17.250000 | 1.500000 | 0.002576"])
    assert [(reading.step, reading.metrics["loss"]) for reading in readings] == [(10, 0.0001), (11, 0.0002)]
    assert readings[-1].metrics["reward"] == -17.25


def test_a_row_cut_at_the_terminals_width_inside_its_bar_reads_by_column() -> None:
    """Ultralytics' row whose bar the terminal cut after `640: 1` (ultralytics/ultralytics#21123, corpus b28)."""
    [reading] = _reader_lines(["      Epoch    GPU_mem   box_loss   cls_loss   dfl_loss  Instances       Size",
                               "   309/1000      12.8G    0.08753    0.09196     0.7731         14        640: 1"])
    assert (reading.epoch, reading.metrics["box_loss"], reading.metrics["dfl_loss"]) == (308.0, 0.08753, 0.7731)


def test_a_table_drawn_in_box_characters_reads_by_column() -> None:
    """rich's table (`rich.table.Table` printed by a training script), its borders skipped."""
    readings = _reader_lines(["┏━━━━━━┳━━━━━━━━┳━━━━━━━┓", "┃ Step ┃ Loss   ┃ LR    ┃", "┡━━━━━━╇━━━━━━━━╇━━━━━━━┩",
                              "│ 10   │ 2.5000 │ 0.001 │", "│ 20   │ 2.4000 │ 0.001 │", "└──────┴────────┴───────┘"])
    assert [(reading.step, reading.metrics["loss"]) for reading in readings] == [(10, 2.5), (20, 2.4)]


def test_a_dataframes_unnamed_index_column_is_no_figure() -> None:
    """pandas prints a DataFrame's index under a blank header: the row has one cell more."""
    readings = _reader_lines(["   epoch  train_loss  val_loss      lr",
                              "0      1      0.6931    0.6500  0.001",
                              "1      2      0.5123    0.5400  0.001"])
    assert [(reading.epoch, reading.metrics["loss"], reading.metrics["val_loss"]) for reading in readings] == [
        (1.0, 0.6931, 0.65), (2.0, 0.5123, 0.54)]


@pytest.mark.parametrize("postfix", ["loss: 2.1, acc: 0.5", "{'loss': 2.1, 'acc': 0.5}", "loss=2.1, acc=0.5"])
def test_a_postfix_set_as_a_string_reads_its_pairs(postfix: str) -> None:
    """tqdm's `set_postfix_str` prints whatever a loop gives it: `name: value` pairs or a dict."""
    [reading] = parse_record(normalize(f"  45%|####5     | 45/100 [00:05<00:06,  9.1it/s, {postfix}]"))
    assert (reading.step, reading.metrics["loss"], reading.metrics["acc"]) == (45, 2.1, 0.5)


def test_an_epoch_of_total_in_brackets_before_a_bar_counts_from_one() -> None:
    [reading] = parse_record(normalize("Epoch [2/10]:  45%|####5     | 45/100 [00:05<00:06,  9.1it/s, loss=2.1]"))
    assert reading.epoch == pytest.approx(1.45)


def test_a_bar_over_the_epochs_counts_epochs_not_steps(tmp_path: Path) -> None:
    """huggingface/transformers examples/run_glue.py (2019-2020): `train_iterator = trange(
    int(args.num_train_epochs), desc="Epoch")` over `tqdm(train_dataloader, desc="Iteration")`;
    a bar described `Epoch`/`Epochs` alone counts epochs done, and at its total the run is over."""
    log = tmp_path / "glue.log"
    log.write_text("Epoch:   0%|          | 0/3 [00:00<?, ?it/s]\n"
                   "Iteration: 100%|██████████| 1000/1000 [30:00<00:00,  1.8s/it]\n"
                   "Epoch:  33%|███▎      | 1/3 [30:00<60:00, 1800.00s/it]\n"
                   "Iteration:  10%|█         | 100/1000 [03:00<27:00,  1.8s/it]\n")
    snap = read_log(log)
    assert (snap.step, snap.total_steps, snap.epoch) == (100, 1000, 1.0)
    assert snap.metrics["total_epochs"] == 3
    alone = tmp_path / "epochs.log"
    alone.write_text("Epochs: 100%|██████████| 100/100 [10:00<00:00,  6.0s/it, loss=0.123]\n")
    snap = read_log(alone)
    assert (snap.step, snap.epoch, snap.loss, snap.status) == (None, 100.0, 0.123, "finished")


@pytest.mark.parametrize("announced", [
    # verl/trainer/ppo/ray_trainer.py `_create_dataloader`: print(f"Total training steps: {self.total_training_steps}")
    "Total training steps: 1000", "(TaskRunner pid=1) Total training steps: 1000",
    "Total number of training steps: 1000", "Number of training steps: 1000",
    "total_training_steps=1000", "num_train_steps: 1000",
    # the singular: AI-Hypercomputer/torchprime torchprime/torch_xla_models/trainer/base_trainer.py
    # logs `    Max step: {max_step}` under its Hydra-style prefix (corpus b31)
    "[2025-06-06 16:57:39,484][torchprime.torch_xla_models.trainer.base_trainer][INFO] -     Max step: 1000",
    "max_iter=1000", "total_step: 1000",
    # the HF Trainer's model card hyperparameters: transformers/modelcard.py `extract_hyperparameters_from_trainer`
    # sets `hyperparameters["training_steps"] = trainer.args.max_steps` (corpus b58)
    "- training_steps: 1000",
])
def test_a_run_length_named_in_words_is_the_total_not_the_step(tmp_path: Path, announced: str) -> None:
    log = tmp_path / "verl.log"
    log.write_text(f"{announced}\n(TaskRunner pid=1) step:34 - actor/pg_loss:0.01 - actor/lr:1e-06\n")
    snap = read_log(log)
    assert (snap.step, snap.total_steps) == (34, 1000)


@pytest.mark.parametrize("announced", [
    # a user's note between pasted HF Trainer dicts and bar (deepspeedai/DeepSpeed issue 4367, corpus b57)
    "the tqdm print, the total num of epoch is 3",
    "Number of epochs: 3", "Total number of epochs = 3", "max number of epochs: 3", "num of training epochs: 3",
])
def test_an_epoch_count_named_in_words_is_the_total_not_the_epoch(tmp_path: Path, announced: str) -> None:
    log = tmp_path / "hf.log"
    log.write_text(f"{{'loss': 0.0117, 'learning_rate': 6.9e-05, 'epoch': 0.99}}\n{announced}\n"
                   " 33%|███▎      | 1128/3384 [05:28<10:53,  3.45it/s]\n")
    snap = read_log(log)
    assert (snap.step, snap.epoch, snap.metrics["total_epochs"]) == (1128, 0.99, 3)


def test_bars_of_several_workers_joined_on_one_line_read_in_order(tmp_path: Path) -> None:
    """fairseq 0.x's tqdm bars (train.py `desc = '| epoch {:03d}'.format(epoch)`, facebookresearch/fairseq issue
    503, corpus b57), each cut and joined by the next: every postfix ends at the next bar; the last is the latest."""
    cut = ("epoch 001:   0%| | {n}/10127 [00:0{n}<3:22:24,  1.20s/it, loss={loss}, num_updates={n}, lr={lr}, "
           "gnorm={gnorm}, clip=0%, wall=32, trai")
    log = tmp_path / "fairseq.log"
    log.write_text(cut.format(n=1, loss=14.058, lr=2.24975e-07, gnorm=9.477) + "| "
                   + cut.format(n=2, loss=13.988, lr=3.4995e-07, gnorm=10.996)[:-12] + "\n")
    readings = parse_record(normalize(log.read_text().strip()))
    assert [(r.step, r.metrics["grad_norm"]) for r in readings] == [(1, 9.477), (2, 10.996)]
    snap = read_log(log)
    assert (snap.step, snap.loss, snap.lr, snap.grad_norm) == (2, 13.988, 3.4995e-07, 10.996)


def test_a_count_of_skipped_iterations_is_no_run_length() -> None:
    """Megatron-LM's `number of skipped iterations:   5` counts skips, not the run's iterations."""
    [reading] = parse_record(normalize(
        " iteration      100/  500000 | lm loss: 7.1E+00 | number of skipped iterations:   5 |"))
    assert (reading.step, reading.total) == (100, 500000)


@pytest.mark.parametrize("desc", [
    # vLLM inside an RL trainer: vllm/entrypoints/llm.py `_run_engine` (`Processed prompts`),
    # `_validate_and_add_requests` (`Adding requests`), the model runner's `Capturing CUDA graph shapes`
    "Processed prompts", "Adding requests", "Capturing CUDA graph shapes",
    "Generating", "Sampling", "Compiling", "Precomputing",
])
def test_a_longer_bar_of_other_work_does_not_take_the_training_position(tmp_path: Path, desc: str) -> None:
    log = tmp_path / "rl.log"
    log.write_text("{'loss': 1.2, 'epoch': 0.34}\n"
                   " 34%|███▍      | 340/1000 [10:00<20:00,  1.8s/it]\n"
                   f"{desc}: 100%|██████████| 2000/2000 [00:30<00:00, 66.0it/s]\n")
    snap = read_log(log)
    assert (snap.step, snap.total_steps, snap.status) == (340, 1000, "running")


def test_a_training_bar_naming_its_work_otherwise_still_reads() -> None:
    """Only a description opening with other work's verb is set aside: `Training (scoring on)` reads."""
    [reading] = parse_record(normalize("Training (scoring on):  34%|███▍      | 340/1000 [10:00<20:00,  1.8s/it]"))
    assert (reading.step, reading.total) == (340, 1000)


def test_a_fixed_width_row_whose_blank_cells_tabs_erased_keeps_its_step(tmp_path: Path) -> None:
    """nerfstudio's LocalWriter table (nerfstudio/utils/writer.py) leaves `Test Rays / Sec` blank
    before its first evaluation; pasted with tabs for its space runs the blank leaves no trace, so
    only the first cell, the step, is sure of its column (no figure lands under another name)."""
    log = tmp_path / "nerf.log"
    log.write_text("Step (% Done)\tTrain Iter (time)\tETA (time)\tTrain Rays / Sec\tTest Rays / Sec\n"
                   "3790 (1.26%)\t31.544 ms\t2 h, 35 m, 43 s\t1.02 K\n"
                   "3800 (1.27%)\t31.634 ms\t2 h, 36 m, 9 s\t1.01 K\n")
    snap = read_log(log)
    assert snap.step == 3800
    assert not any("rays" in name for name in snap.metrics)


@pytest.mark.parametrize("line", [
    "Saving model checkpoint to swin-tiny-finetuned-eurosat/checkpoint-570",
    "[INFO|trainer.py:2656] 2024-01-01 10:00:00,000 >> Saving model checkpoint to out/checkpoint-570/",
])
def test_the_trainers_checkpoint_folder_gives_the_step(line: str) -> None:
    """transformers trainer.py `_save_checkpoint` names the folder `checkpoint-{global_step}` and
    `_save` logs `Saving model checkpoint to {output_dir}` (corpus b34, a notebook with no dicts)."""
    assert _read(line)[0] == 570


def test_other_checkpoint_lines_give_no_step() -> None:
    """Deleting or loading a checkpoint says nothing of where the run is."""
    for line in ("Deleting older checkpoint [out/checkpoint-500] due to args.save_total_limit",
                 "Loading best model from out/checkpoint-570 (score: 0.97).",
                 "Saving model checkpoint to out"):
        assert all(reading.step is None for reading in parse_record(line))


@pytest.mark.parametrize("line", ["训练次数：1500, Loss：1.2835", "训练次数：1500，Loss：1.2835",
                                  "训练次数: 1500, loss: 1.2835"])
def test_a_chinese_step_name_and_full_width_colons_read(line: str) -> None:
    """xiaotudui/pytorch-tutorial's train.py family: `print("训练次数：{}, Loss: {}".format(
    total_train_step, loss.item()))`, typed with full-width `：` and `，` (corpus b34)."""
    step, _, metrics = _read(line)
    assert (step, metrics["loss"]) == (1500, 1.2835)


def test_a_chinese_phrase_before_a_name_is_not_the_name() -> None:
    """`整体测试集上的Loss` (the whole test set's loss) and `最大精度的训练次数` are not the training's."""
    assert all(reading.step is None and "loss" not in reading.metrics
               for line in ("整体测试集上的Loss: 230.356", "取得最大精度的训练次数：12")
               for reading in parse_record(normalize(line)))


def test_a_batch_count_beside_an_epoch_is_not_the_step() -> None:
    """`Batch 5 ... epoch: 2` counts the epoch's batches; neither is the run's step."""
    assert _read("Batch 5 loss: 2.5 epoch: 2")[0] is None


def test_an_epoch_of_epochs_glued_to_its_bracket_is_the_epoch() -> None:
    """MiniMind's `Logger('Epoch:[{}/{}]({}/{}) loss:...'` (jingyaogong/minimind trainer/train_full_sft.py):
    no space between `Epoch:` and its bracket; the parenthesised count is the epoch's step."""
    step, epoch, metrics = _read("Epoch:[1/2](50/56608), loss: 2.4945, logits_loss: 2.4945, aux_loss: 0.0000, "
                                 "lr: 0.00001000, epoch_time: 116.0min")
    assert (step, epoch, metrics["loss"], metrics["lr"]) == (50, 1.0, 2.4945, 1e-05)


def test_an_epoch_header_alone_on_its_line_sets_the_epoch(tmp_path: Path) -> None:
    """A script's `print(f"=== Epoch {epoch}/{epochs} ===")` over its step lines (corpus b35): the
    header carries no other figure, the step lines under it carry no epoch."""
    log = tmp_path / "grpo.log"
    log.write_text("=== Epoch 1/3 ===\n[step 50] avg_loss=0.0012 acc=0.41\n=== Epoch 2/3 ===\n"
                   "[step 100] avg_loss=-0.0003 acc=0.52\n")
    snap = read_log(log)
    assert (snap.step, snap.epoch) == (100, 2.0)


def test_an_object_repr_names_its_first_field_without_the_class() -> None:
    """`trainer.train()` returns transformers' `TrainOutput` NamedTuple (trainer_utils.py), which a
    notebook echoes as `TrainOutput(global_step=118, training_loss=..., metrics={...})`: its first
    field is the step; a name with a parenthesised part (`Loss(train)=0.5`) keeps it."""
    [reading] = parse_record(normalize(
        "TrainOutput(global_step=118, training_loss=0.3486394861997184, metrics={'train_runtime': 170.8892, "
        "'train_samples_per_second': 0.691, 'train_steps_per_second': 0.691, 'train_loss': 0.3486394861997184})"))
    assert (reading.step, reading.metrics["train_runtime"]) == (118, 170.8892)
    [reading] = parse_record("TrainOutput(global_step=3750, training_loss=0.0719044921875, metrics="  # corpus b34
                             "{'train_runtime': 6384.5833, 'train_loss': 0.0719044921875, 'epoch': 30.0})")
    assert (reading.step, reading.epoch, reading.done) == (3750, 30.0, True)
    assert "loss" not in reading.metrics  # `training_loss` is the run's mean (trainer.py `train`), as `train_loss`
    _, _, metrics = _read("step 3 Loss(train)=0.5")
    assert metrics == {"loss(train)": 0.5, "loss": 0.5}


@pytest.mark.parametrize("line", [
    # slowllama finetune.py: `logging.info(f'backprop done, loss after forward pass = {loss}')`
    "2023-09-29 20:54:22,130 backprop done, loss after forward pass = 1.2744556665420532",
    "loss over last batches: 1.2744556665420532",
])
def test_a_remark_after_a_known_name_does_not_hide_it(line: str) -> None:
    _, _, metrics = _read(line)
    assert metrics == {"loss": 1.2744556665420532}


def test_a_megatron_line_wrapped_at_the_terminal_width_reads_whole() -> None:
    """BigScience's BLOOM chronicles (bigscience-workshop/bigscience tr11-176B-ml) pasted Megatron-
    DeepSpeed's `training_log` line wrapped at its width: `| learning` / ` rate: ... | number of nan`
    / `iterations:  0 | ...`. The wrapped rest is no line of its own (its `iterations:  0` no step);
    a line cut at a field's name reads up to it."""
    readings = _reader_lines([
        "[default7]: iteration   42784/ 115311 | consumed samples:    71463856 | elapsed time per iteration (s): 111.14 | learning",
        " rate: 4.475E-05 | global batch size: 2048 | lm loss: 2.127643E+00 | grad norm: 0.127 | number of nan",
        "iterations:  0 | samples per second: 18.428 | TFLOPs: 141.09 |",
    ])
    assert {reading.step for reading in readings} == {42784}
    last = readings[-1]
    assert (last.total, last.metrics["lr"], last.metrics["loss"]) == (115311, 4.475e-05, 2.127643)
    assert last.metrics["number_of_nan_iterations"] == 0 and last.metrics["samples_per_s"] == 18.428
    assert all("number_of" not in reading.metrics for reading in readings)
    [cut] = _reader_lines([" iteration        1/    24000 | consumed samples:          1024 | learning ra"])
    assert (cut.step, cut.metrics) == (1, {"consumed_samples": 1024})


def test_an_xarray_repr_count_of_rows_shown_is_no_position() -> None:
    """xarray's `_mapping_repr` (xarray core/formatting.py) heads a long mapping `Data variables:
    (12/35)`: the rows it shows of all; ezpz prints its history so after training (corpus b36)."""
    assert parse_record(normalize("Data variables: (12/35)")) == []
    assert parse_record(normalize("Training: (30/100) loss 2.5"))[0].step == 30


def test_a_chart_axis_tick_beside_a_title_is_no_figure() -> None:
    """plotext draws each y tick glued to the axis, `0.0310┤`; ezpz prints two charts side by side,
    so a title of one stands before a tick of the other: `train_loss/mean          0.0310┤   *  **`."""
    assert parse_record(normalize("               train_loss/mean          0.0310┤   *   ****  * ****** │")) == []
    _, _, metrics = _read("train_loss 0.0310 | lr 1e-4")
    assert metrics["loss"] == 0.031


def test_an_epoch_heading_under_its_own_full_bar_is_the_epochs_summary(tmp_path: Path) -> None:
    # a script's tqdm bar `desc=f"Epoch {epoch+1}/{num_epochs}"`, then its summary printed under the
    # same heading (0Xero7/slm_training classic.txt, corpus train/b38): epoch 2 of 2 is over, not
    # starting as Keras's heading before an epoch's bar would say
    log = tmp_path / "train.log"
    log.write_text(
        "Epoch 1/2: 100%|██████████| 935/935 [01:11<00:00, 13.09it/s, loss=5.41]\n"
        "Epoch 1/2\nTrain Loss: 5.4153 - Train Perplexity: 224.82\n"
        "Epoch 2/2: 100%|██████████| 935/935 [01:11<00:00, 13.09it/s, loss=5.39]\n"
        "Epoch 2/2\nTrain Loss: 5.4095 - Train Perplexity: 223.52\n")
    assert read_log(log).epoch == 2.0


def test_a_keras_heading_before_its_epochs_bar_still_starts_the_epoch(tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    log.write_text("Epoch 1/3\n10/10 [==============================] - 1s - loss: 0.50\n"
                   "Epoch 2/3\n5/10 [==============>...............] - ETA: 0s - loss: 0.40\n")
    assert read_log(log).epoch == pytest.approx(1.5)


@pytest.mark.parametrize("line", ["[1/6] Loading tokenizer...", "[6/6] Saving model...",
                                  "[3/4] Evaluating on the test set"])
def test_a_scripts_counted_stage_heading_is_no_position(line: str) -> None:
    # Ishihara-Masabumi/Llama_SFT train_completion_only_log.txt (corpus train/b38): a TRL SFT script
    # counts its own stages `[k/6]`; its `[6/6] Saving model...` after the run is not step 6 of 6
    assert parse_record(normalize(line)) == []
    assert _read("[30/1504] loss: 2.1")[0] == 30  # a bracketed count with figures stays the step


@pytest.mark.parametrize("line", [
    "- From step 3, C is false.",
    "Given A is true (from step 1), let's use these to deduce the values of the other variables:",
    "6. But we know from step 4 that D must be false, which contradicts our assumption.",
])
def test_a_step_named_in_a_sentence_is_prose(line: str) -> None:
    # an RL rollout's reasoning printed between verl's step lines (corpus train/b37, a Logic-RL
    # wandb output.log): a sentence that names a step without a figure is no position
    assert parse_record(normalize(line)) == []
    assert _read("Saving checkpoint at step 500")[0] == 500  # a log line's few words still place it


def test_verls_announced_step_is_the_one_begun(tmp_path: Path) -> None:
    # verl/trainer/ppo/ray_trainer.py RayPPOTrainer.fit: `print(f'epoch {epoch}, step {self.global_steps}')`
    # as the step begins, its figures `step:N - ...` (verl/utils/logger/aggregate_logger.py) as it ends
    log = tmp_path / "output.log"
    log.write_text("epoch 0, step 1\nstep:1 - actor/pg_loss:0.010 - actor/grad_norm:0.400\n"
                   "epoch 0, step 2\nstep:2 - actor/pg_loss:0.020 - actor/grad_norm:0.358\n"
                   "epoch 0, step 3\n- From step 1, C is false.\n")
    snap = read_log(log)
    assert (snap.step, snap.grad_norm) == (2, 0.358)


def test_a_figures_own_name_never_takes_the_next_cells_value() -> None:
    # karpathy/llm.c train_gpt2.cu: printf0("step %4d/%d | loss %7.6f (%+.2fz)| norm %6.4f (%+.2fz)| lr %.2e
    # | %.2f ms | %.1f%% bf16 MFU | %.0f tok/s\n", ...): `ms` and `MFU` name the figures before them
    step, _, metrics = _read("step  100/1000 | loss 3.255900 (+0.12z)| norm 0.2400 (-0.50z)| lr 6.00e-04"
                             " | 120.00 ms | 45.0% bf16 MFU | 163840 tok/s")
    assert (step, metrics["loss"], metrics["lr"]) == (100, 3.2559, 0.0006)
    assert "ms" not in metrics and metrics.get("mfu") != 163840.0
    assert _read("| loss | 2.5 |")[2]["loss"] == 2.5  # a table's name cell still takes its value cell


@pytest.mark.parametrize("escape", ["&quot;", "&#34;"])
def test_a_line_copied_from_a_pages_html_source_reads_with_its_entities_decoded(escape: str) -> None:
    # fairseq/logging/progress_bar.py JsonProgressBar.print: `json.dumps(stats)` with each figure formatted
    # as a string; a paste taken from a page's HTML source keeps `"` as an entity
    line = ('{"epoch": 27, "update": 26.267, "loss": "8.206", "num_updates": "33700", "lr": "0.00017226", '
            '"gnorm": "1.833"}').replace('"', escape)
    assert normalize(line) == line.replace(escape, '"')
    (reading,) = parse_record(normalize(line))
    assert reading.step == 33700
    assert (reading.metrics["loss"], reading.metrics["lr"], reading.metrics["grad_norm"]) == (8.206, 0.00017226, 1.833)
    assert normalize("a &amp b; 5 & 6") == "a &amp b; 5 & 6"  # no entity: left as written


def test_a_double_colon_separates_a_name_from_its_figure() -> None:
    # the minllama assignment's run_llama.py `print(f"epoch {epoch}: train loss :: {train_loss :.3f}, train acc ::
    # {train_acc :.3f}, dev acc :: {dev_acc :.3f}")` (hoanghelloworld/ASM1-Development-LLM-model finetune.log)
    _, _, metrics = _read("epoch 0: train loss :: 1.696, train acc :: 0.412, dev acc :: 0.391")
    assert (metrics["loss"], metrics["train_acc"], metrics["dev_acc"]) == (1.696, 0.412, 0.391)
    _, _, metrics = _read("loss::0.25 lr:: 1e-4")
    assert (metrics["loss"], metrics["lr"]) == (0.25, 1e-4)


def test_a_name_that_states_its_scale_stores_the_figure_itself() -> None:
    # verl/trainer/fsdp_sft_trainer.py `metrics["train/lr(1e-3)"] = lr * 1e3`, printed by its tracking
    # as `step:103 - train/loss:0.0613 - train/lr(1e-3):1.0931863906127327e-05`
    step, _, metrics = _read("step:103 - train/loss:0.061319638043642044 - train/lr(1e-3):1.0931863906127327e-05")
    assert step == 103 and metrics["loss"] == 0.061319638043642044
    assert metrics["lr"] == pytest.approx(1.0931863906127327e-08)


def test_a_header_whose_names_fill_their_width_is_cut_where_the_rows_cells_begin(tmp_path: Path) -> None:
    # KingOfStrongStyle/bottle-defect-detector logs/training.log: `{'Train Recall':<12} {'Val Loss':<12}` leaves
    # one space between the two names; the row's cells start under each name
    snap = _read_text(tmp_path, (
        "2025-12-01 16:21:15,012 - __main__ - INFO - Epoch  Train Loss   Train Recall Val Loss     Val Recall  \n"
        "2025-12-01 16:21:15,012 - __main__ - INFO - ------------------------------------------------------------\n"
        "2025-12-01 16:21:23,001 - __main__ - INFO - 1      1.1197       0.5694       0.8611       0.8333      \n"
        "2025-12-01 16:21:35,066 - __main__ - INFO - 3      1.0770       0.7105       0.7093       1.0000      \n"))
    assert (snap.epoch, snap.loss) == (3, 1.0770)
    assert (snap.metrics["val_loss"], snap.metrics["val_recall"], snap.metrics["train_recall"]) == (0.7093, 1.0, 0.7105)


def test_a_loss_beside_an_overlap_score_is_the_evaluations(tmp_path: Path) -> None:
    # HRNet-Semantic-Segmentation tools/train.py: `'Epoch: [{}/{}] Iter:[{}/{}], ... Loss: {:.6f}'` per batch, then
    # after validate() `msg = 'Loss: {:.3f}, MeanIU: {: 4.4f}, Best_mIoU: {: 4.4f}'.format(valid_loss, mean_IoU, best_mIoU)`
    snap = _read_text(tmp_path, (
        "Epoch: [999/1000] Iter:[70/78], Time: 0.64, lr: [1.027911765896946e-05], Loss: 0.745167, Acc:0.738491\n"
        "=> saving checkpoint to output/camvid/checkpoint.pth.tar\n"
        "Loss: 0.984, MeanIU:  0.7310, Best_mIoU:  0.7391\n"))
    assert snap.loss == 0.745167
    assert (snap.metrics["val_loss"], snap.metrics["val_meaniu"]) == (0.984, 0.731)


@pytest.mark.parametrize(("line", "key", "value"), [
    # an ALCF course MNIST notebook's lines (corpus train/b42): `Epoch 5: val. loss: 0.2213..., val. accuracy: 93.34...`
    ("Epoch 5: val. loss: 0.22132232775290808, val. accuracy: 93.34166666666667", "val_loss", 0.22132232775290808),
    ("Epoch 5: val. loss: 0.22132232775290808, val. accuracy: 93.34166666666667", "val_accuracy", 93.34166666666667),
    ("step 10 | avg. loss 2.5 | lr 1e-4", "loss", 2.5),
])
def test_an_abbreviations_period_stays_in_its_key(line: str, key: str, value: float) -> None:
    assert _read(line)[2][key] == value


def test_a_sentences_period_joins_no_key() -> None:
    # a sentence's end before a key is no abbreviation (`Done. loss` is no name)
    assert _read("Epoch 3 done. Learning Rate: 0.001, loss: 0.5")[2]["loss"] == 0.5


def test_a_pod_workers_tag_is_a_prefix(tmp_path: Path) -> None:
    # a TPU pod's run (PyTorch/XLA, corpus train/b42): every line behind `[worker :11] `, the HF Trainer's
    # end-of-run block after it; read as a figure (`worker: 11`) the tag kept the finished run going
    snap = _read_text(tmp_path, (
        "[worker :11] {'train_runtime': 808.7671, 'train_samples_per_second': 12.661, 'train_steps_per_second': 0.025, "
        "'train_loss': 9.420475006103516, 'epoch': 0.31}\n"
        "[worker :11] ***** train metrics *****\n"
        "[worker :11]   epoch                    =       0.3077\n"
        "[worker :11]   total_flos               = 1548596160GF\n"
        "[worker :11]   train_loss               =       9.4205\n"
        "[worker :11]   train_runtime            =   0:13:28.76\n"
        "[worker :11]   train_samples            =        33541\n"
        "[worker :11]   train_samples_per_second =       12.661\n"
        "[worker :11]   train_steps_per_second   =        0.025\n"))
    assert (snap.status, snap.epoch) == ("finished", 0.3077) and "worker" not in snap.metrics
    assert _read("[step :12] loss=0.5")[0] == 12  # a position in that shape stays one


def test_a_config_dumps_milestones_and_comments_are_no_position(tmp_path: Path) -> None:
    # detectron2/engine/defaults.py logs `"Running with full config:\n{}".format(_highlight(cfg.dump(), ".yaml"))`;
    # detectron2/config/defaults.py `_C.SOLVER.STEPS = (30000,)` (the lr's decay milestones) and `_C.SOLVER.MAX_ITER`,
    # a user's YAML comments kept in the dump (corpus train/b42); read as positions, the first iteration restarted the run
    snap = _read_text(tmp_path, (
        "SOLVER:\n"
        "  # for NYU dataset 30000 labeled images, 1 epoch is 500 (iteration) = 30000 (images) / 60 (images / iterations)\n"
        "  STEPS: (102000, 108000)\n"
        "  MAX_ITER: 111000\n"
        "[11/19 08:55:10] d2.engine.train_loop INFO: Starting training from iteration 0\n"
        "[11/19 08:56:05] d2.utils.events INFO:  eta: 1 day, 10:02:05  iter: 19  total_loss: 1.2  lr: 0.0039  "
        "max_mem: 9000M\n"))
    assert (snap.step, snap.total_steps, snap.epoch, snap.run_index) == (19, 111000, None, 0)
    assert _read("steps: (5)  loss: 0.5")[0] == 5  # one value in brackets is still a position


def test_the_fields_beside_a_printed_dict_count() -> None:
    # a random search's `logging.info(f"Config: {config}, Epoch {e}/{n}, Train Loss: ..., Test Acc: ...%")` and a
    # course GRPO loop's `rl_loss: ..., time: ..., l2_norm: ..., reward_data: {...}` (the real lines, corpus train/b42)
    step, epoch, metrics = _read(
        "Config: {'batch_size': 128, 'num_epochs': 30, 'learning_rate': 0.001}, Epoch 7/30, Train Loss: 38.8265, "
        "Test Acc: 70.59%")
    assert (epoch, metrics["loss"], metrics["batch_size"]) == (7, 38.8265, 128)
    _, _, metrics = _read("rl_loss: 0.0007556527270935476, time: 104.01218128204346, l2_norm: 0.12698744237422943, "
                          "reward_data: {'total_num': 256, 'total_reward': 159.0}")
    assert (metrics["loss"], metrics["total_reward"]) == (0.0007556527270935476, 159.0)
    # accelerate's examples: `accelerator.print(f"epoch {epoch}:", eval_metric)`
    assert _read("epoch 2: {'accuracy': 0.85, 'f1': 0.89}")[1:] == (2, {"accuracy": 0.85, "f1": 0.89})


def test_a_wandb_summary_row_of_words_keeps_the_summary_open(tmp_path: Path) -> None:
    # wandb's run summary (wandb/sdk/internal/... `Run summary:` then one `name value` row each; a string value as
    # `env/gpu_name NVIDIA GeForce RTX 4...`, corpus train/b42): HF's `train_loss` below it is the run's mean, not the loss
    snap = _read_text(tmp_path, (
        "wandb: Run summary:\n"
        "wandb:            env/gpu_mem_gb 23.546\n"
        "wandb:              env/gpu_name NVIDIA GeForce RTX 4...\n"
        "wandb:                    status success\n"
        "wandb:         train/global_step 60\n"
        "wandb:                train/loss 0.0015\n"
        "wandb:                train_loss 0.62473\n"
        "wandb:             train_runtime 533.5162\n"))
    assert (snap.step, snap.loss) == (60, 0.0015)


@pytest.mark.parametrize("line", [
    # a model's worked answers a PPO loop prints as samples (corpus train/b42)
    "   - 60% of 1600 vibrations per second = (60/100) * 1600 = 960 vibrations per second",
    "1. **Calculate the scholarship amount:** 30% of $90 is (30/100) * $90 = $27.",
])
def test_a_bracketed_fraction_in_arithmetic_is_no_position(line: str) -> None:
    assert [reading.step for reading in parse_record(normalize(line))] in ([], [None])
    assert _read("Train: [(1800/24681)] loss: 0.5")[0] == 1800  # a bracketed count alone stays one


def test_a_bare_step_going_back_is_prose_not_a_restart(tmp_path: Path) -> None:
    # a hand-written PPO loop (corpus train/b42): `=== Epoch 2/2 ===`, then a sampled answer's
    # `**Step 1: Calculate how many stickers Riku has in multiples.**` (Markdown bold, a plan's step, no figure)
    # before its `[step 11] avg_loss=0.0004 acc=0.7500`; a run that starts again prints its figures
    snap = _read_text(tmp_path, (
        "=== Epoch 1/2 ===\n"
        "[step 10] avg_loss=0.0005 acc=0.6250\n"
        "=== Epoch 2/2 ===\n"
        "* **Step 1: Calculate how many stickers Riku has in multiples.**\n"
        "[step 11] avg_loss=0.0004 acc=0.7500\n"))
    assert (snap.step, snap.epoch, snap.run_index) == (11, 2, 0)
    restarted = _read_text(tmp_path, "step 10 loss 0.5\nstep 11 loss 0.4\nstep 1 loss 2.3\n")
    assert (restarted.step, restarted.run_index) == (1, 1)


@pytest.mark.parametrize("line", [
    # a GRPO notebook's sampled reasoning (Unsloth's Llama FP8 GRPO notebook, corpus train/b42)
    "So the fourth term is 4004. Then the fifth term is 4014, which is the sum of 2001 and 2002. Then the sixth "
    "and seventh terms would be the sums of the previous two terms and the one before them.",
    "So, the ratio of the areas of triangle ABD and triangle ABC is (1/5)² = 1/25. Now, to find the ratio of the "
    "areas of triangle ABD and triangle ABC:",
])
def test_a_paragraph_or_a_sentences_fraction_is_no_record(line: str) -> None:
    assert all(reading.step is None and reading.total is None for reading in parse_record(normalize(line)))


def test_a_record_of_many_words_is_no_paragraph() -> None:
    # Megatron-LM training.py's report: many words, no sentence
    line = (" iteration      100/    1000 | consumed samples:         3200 | elapsed time per iteration (ms): 1234.5 |"
            " learning rate: 1.000E-04 | global batch size:    32 | lm loss: 5.000000E+00 | loss scale: 1.0 |"
            " number of skipped iterations:   0 | number of nan iterations:   0 |")
    [reading] = parse_record(normalize(line))
    assert (reading.step, reading.total, reading.metrics["loss"]) == (100, 1000, 5.0)


def test_a_checkpoint_saved_behind_the_bar_moves_no_step_back(tmp_path: Path) -> None:
    """The Trainer's `Saving model checkpoint to .../checkpoint-200` (transformers trainer.py `_save`)
    printed after the stderr bar drew 244/8264 (stdout buffered behind it; corpus b43): the save names
    a step the run passed, the bar's 244 stays the position; a checkpoint past the bar still moves it."""
    bar = "  3%|▏| {n}/8264 [39:40<15:39:22,  7.03s/it]"
    snap = _read_text(tmp_path, "\r".join(bar.format(n=n) for n in (243, 244))
                      + "\nSaving model checkpoint to output/run/checkpoint-200\n")
    assert snap.step == 244
    snap = _read_text(tmp_path, bar.format(n=244) + "\nSaving model checkpoint to output/run/checkpoint-300\n")
    assert snap.step == 300


@pytest.mark.parametrize(("line", "loss", "epoch", "step"), [
    # airsplay/lxmert src/pretrain/lxmert_pretrain.py: `print("The training loss for Epoch %d is %0.4f" % ...)`
    ("The training loss for Epoch 2 is 4.8495", 4.8495, 2.0, None),
    ("the loss at step 100 is 2.3", 2.3, None, 100),
])
def test_a_position_between_a_figures_name_and_is(line: str, loss: float, epoch: float | None,
                                                  step: int | None) -> None:
    """`{name} for Epoch N is X`: the position said between the name and `is` (corpus b44) gives the
    epoch or step, the figure after `is` the named one; an unknown name stays as it was."""
    got_step, got_epoch, metrics = _read(line)
    assert (metrics["loss"], got_epoch, got_step) == (loss, epoch, step)
    assert "loss" not in _read("The answer for step 3 is 7")[2]


@pytest.mark.parametrize(("line", "ascii_line"), [
    # the generic reader's substring pre-checks are exact only on ASCII: a line holding any other
    # character (a `ſ`, which IGNORECASE matches as `s`; an en dash) is left to the patterns
    ("Validation – loss 0.25 acc 0.9", "Validation - loss 0.25 acc 0.9"),
    ("Training for 100 steps – loss 2.5", "Training for 100 steps - loss 2.5"),
    ("Epoch [2/5] – loss 1.2", "Epoch [2/5] - loss 1.2"),
])
def test_a_line_with_other_than_ascii_reads_as_its_ascii_twin(line: str, ascii_line: str) -> None:
    [reading], [twin] = parse_record(normalize(line)), parse_record(normalize(ascii_line))
    assert reading == twin


@pytest.mark.parametrize("heading", ["Test Prompt:", "eval example:"])
def test_a_heading_over_a_sample_ends_at_the_first_optimiser_step(tmp_path: Path, heading: str) -> None:
    """Unsloth's notebooks print `Test Prompt:` over a chat sample, LLaMA-Factory `eval example:` over a
    tokenised one (corpus b47, b48), before training; the Trainer's dicts after them print the
    `learning_rate` and `grad_norm` of an optimiser step (transformers trainer.py `_maybe_log_save_evaluate`;
    its evaluation dict has neither), so they are training's, not the heading's evaluation."""
    log = tmp_path / "train.log"
    log.write_text(f"{heading}\nWhat day was I born?\n"
                   "{'loss': 5.1245, 'grad_norm': 22.5, 'learning_rate': 0.0, 'epoch': 0.01}\n"
                   "{'loss': 0.0289, 'grad_norm': 0.108, 'learning_rate': 5.6e-07, 'epoch': 1.0}\n")
    snap = read_log(log)
    assert (snap.loss, snap.grad_norm, snap.lr) == (0.0289, 0.108, 5.6e-07)
    assert "val_loss" not in snap.metrics


@pytest.mark.parametrize("line", [
    # huggingface_hub src/huggingface_hub/utils/_xet_progress_reporting.py: `bar_format="{l_bar}{bar}| {n_fmt:>5}B /
    # {total_fmt:>5}B{postfix:>12}"` under `desc=f"Processing Files ({completed} / {total_files})"`, its count
    # in bytes; a paste cut at the bar's glyphs (corpus b48), or before any total (`total=0`: no percentage)
    "Processing Files (1 / 1)      : 100%|\u2588\u2588\u2588\u2588\u2588\u2588\u2588\u2588",
    "Processing Files (1 / 1)      : 100%|\u2588\u2588\u2588\u2588| 12.8MB / 12.8MB,  1.20MB/s  ",
    "Processing Files (0 / 0)      : |                    |  0.00B /  0.00B            ",
])
def test_an_upload_bars_file_count_is_no_position(line: str) -> None:
    assert parse_record(normalize(line)) == []


def test_a_cut_training_bar_still_reads_from_its_description() -> None:
    """Only other work's bar (its description says so) is dropped when cut before its count."""
    [reading] = parse_record(normalize("Epoch 3: loss=2.31  45%|\u2588\u2588\u2588\u2588"))
    assert reading.metrics["loss"] == 2.31


@pytest.mark.parametrize(("line", "step", "val_loss"), [
    # Megatron's checkpointing.py `print_rank_0('  successfully saved checkpoint from iteration {:7d} to {}'
    # .format(iteration, args.save))` under NeMo 2, saving Lightning ModelCheckpoint files named by their
    # monitored figures (`filename='{epoch}-{val_loss:.4f}'`; corpus b47)
    ("[NeMo I 2025-06-18 22:03:04 nemo_logging:393] Successfully saved checkpoint from iteration       4 to "
     "/home/u/run/evo2/checkpoints/evo2--val_loss=0.0000-epoch=0-consumed_samples=5.0-last.ckpt", 4, None),
    ("Epoch 0, global step 9: 'val_loss' reached 1.26396 (best 1.26396), saving model to "
     "'/home/u/run/checkpoints/evo2--val_loss=1.2640-epoch=0.ckpt' as top 5", 9, 1.26396),
    ("Epoch 3, global step 1000: 'val_loss' reached 0.20345 (best 0.20345), saving model to "
     "'./outputs/run1/epoch=3-step=1000-val_loss=0.20.ckpt' as top 1", 1000, 0.20345),
])
def test_a_file_paths_figures_are_its_name(line: str, step: int, val_loss: float | None) -> None:
    """A file's path is a name: the figures a checkpoint's file name repeats are not the line's."""
    got_step, _, metrics = _read(line)
    assert (got_step, metrics.get("val_loss")) == (step, val_loss)
    assert not any("/" in key or "ckpt" in key for key in metrics)


def test_nemo_progress_printers_test_phase_is_no_training_position(tmp_path: Path) -> None:
    """NeMo 2's ProgressPrinter (nemo/lightning/pytorch/callbacks/progress_printer.py) prints
    `Testing: iteration {n}/{total}` for `trainer.test()` after fit: the test's batches, not the run's step."""
    log = tmp_path / "nemo.log"
    log.write_text("Training epoch 0, iteration 99/100 | lr: 3e-05 | global_step: 99 | reduced_train_loss: 2.1\n"
                   "`Trainer.fit` stopped: `max_steps=100` reached.\nTesting: iteration 3/5\n")
    snap = read_log(log)
    assert (snap.step, snap.total_steps, snap.status) == (99, 100, "finished")


@pytest.mark.parametrize("arrow", ["-->", "->", "=>"])
def test_an_arrow_separates_a_name_from_its_figure(arrow: str) -> None:
    """nanoT5's main.log (corpus b50, huggingface.co/pszemraj/t5e-mini-nl24-flan checkpoints/main.log):
    `[train] Step 150 out of 25000 | Loss --> 8.145 | Grad_l2 --> 47.689 | Lr --> 0.000 |`."""
    line = (f"[train] Step 150 out of 25000 | Loss {arrow} 8.145 | Grad_l2 {arrow} 47.689 | "
            f"Weights_l2 {arrow} 47199.838 | Lr {arrow} 0.000 | Seconds_per_step {arrow} 1.736 | ")
    [reading] = parse_record(normalize(line))
    assert (reading.step, reading.total) == (150, 25000)
    assert (reading.metrics["loss"], reading.metrics["grad_norm"], reading.metrics["lr"]) == (8.145, 47.689, 0.0)
    assert "out_of" not in reading.metrics


def test_out_of_after_a_position_word_is_its_total_and_nothing_else() -> None:
    """`Step N out of M` is a position and its total; an early-stopping count `3 out of 10` is no position."""
    [reading] = parse_record(normalize("Iteration 40 out of 400, loss: 1.25"))
    assert (reading.step, reading.total, reading.metrics["loss"]) == (40, 400, 1.25)
    assert all(r.step is None for r in parse_record(normalize("EarlyStopping counter: 3 out of 10")))


def test_a_bracketed_name_before_a_colon_names_the_figure() -> None:
    """CoupletAI's `logger.info(f"[epoch]: {epoch}, [batch]: {step}, [loss]: {loss}")` (liuslnlp/CoupletAI#2,
    corpus b49): each bracketed name is the name of the figure after its colon; a tag stays a tag."""
    step, epoch, metrics = _read("2019-08-07 02:59:38,017 - __main__ - INFO - [epoch]: 199, [batch]: 24000, "
                                 "[loss]: 4.850643634796143")
    assert (epoch, metrics["loss"]) == (199, 4.850643634796143)
    _, _, tagged = _read("[rank0]: 3 workers, loss: 0.5")
    assert tagged == {"loss": 0.5}


def test_records_glued_on_one_line_are_read_in_turn(tmp_path: Path) -> None:
    """Swin/MoBY's logger (SwinTransformer/Transformer-SSL#19, corpus b50) pasted with `cat -v`'s caret escapes
    and no newlines: each time-stamped record, and the message glued to the last figure, is read in turn."""
    record = ("^[[32m[2023-10-24 17:33:{s} moby]^[[0m^[[33m(moby_main.py 177)^[[0m: INFO Train: [3/300][{i}/625] "
              "eta 0:05:33 lr {lr} time 0.9247 (1.0588) loss {loss} (10.9140) grad_norm 3.8597 (1.6136) mem 45716MB")
    log = tmp_path / "moby.log"
    log.write_text(record.format(s=38, i=300, lr=0.002785, loss=10.7823)
                   + record.format(s=45, i=310, lr=0.002797, loss=10.9386)
                   + "Gradient overflow. Skipping step, loss scaler 0 reducing loss scale to 65536.0" * 3 + "\n")
    snap = read_log(log)
    assert (snap.loss, snap.lr, snap.grad_norm) == (10.9386, 0.002797, 3.8597)


def test_a_time_stamp_after_a_rank_tag_is_no_glued_record(tmp_path: Path) -> None:
    log = tmp_path / "rank.log"
    log.write_text("[rank0]:[2024-01-01 10:00:00] step 5 loss 0.25\n")
    snap = read_log(log)
    assert (snap.step, snap.loss) == (5, 0.25)


@pytest.mark.parametrize(("total", "loss"), [("0.02556", 0.02556), ("0.5", None)])
def test_a_tables_total_column_that_sums_its_loss_columns_is_the_loss(tmp_path: Path, total: str,
                                                                      loss: float | None) -> None:
    """YOLOv5's June 2020 train.py heads `('Epoch', 'gpu_mem', 'GIoU', 'obj', 'cls', 'total', 'targets',
    'img_size')` (ultralytics/yolov5 train.py; corpus b49): `total` is `lbox + lobj + lcls`, the loss;
    a `total` that is no such sum is not."""
    log = tmp_path / "yolo.log"
    log.write_text("     Epoch   gpu_mem      GIoU       obj       cls     total   targets  img_size\n"
                   f"    15/299      6.4G   0.02232  0.002874  0.000371   {total:>7}         7       640\n")
    snap = read_log(log)
    assert (snap.loss, snap.metrics["box_loss"]) == (loss, 0.02232)


def test_a_digit_inside_a_name_glues_no_message(tmp_path: Path) -> None:
    log = tmp_path / "names.log"
    log.write_text("step 7 model=Llama3Model loss=0.25\n")
    snap = read_log(log)
    assert (snap.step, snap.loss) == (7, 0.25)


@pytest.mark.parametrize("sep", [" \t", " | ", ", "])
def test_a_line_naming_its_training_and_validation_figures_apart_keeps_each_split(tmp_path: Path, sep: str) -> None:
    """A custom loop's `Epoch: 100 \\tTraining Loss: ... \\tValidation Loss: ...` (Shridhar7-8/gender-identification
    wandb/latest-run/files/output.log; corpus b54): `Validation` names one figure's split, not the line's, so
    `Training Loss` is the loss and `Validation Loss` the val_loss."""
    log = tmp_path / "output.log"
    log.write_text("".join(f"Epoch: {n}{sep}Training Loss: 0.{n}5{sep}Training Accuracy: 0.9{sep}"
                           f"Validation Loss: 0.{n}7{sep}Validation Accuracy: 0.8\n" for n in (1, 2)))
    snap = read_log(log)
    assert (snap.epoch, snap.loss, snap.metrics["val_loss"]) == (2, 0.25, 0.27)


def test_a_validation_line_with_no_training_name_stays_a_validation(tmp_path: Path) -> None:
    log = tmp_path / "val.log"
    log.write_text("step 10 loss 0.5\nValidation: loss 0.7, accuracy 0.8\n")
    snap = read_log(log)
    assert (snap.loss, snap.metrics["val_loss"]) == (0.5, 0.7)


def test_build_nanogpt_log_txt_step_split_value_lines(tmp_path: Path) -> None:
    """build-nanogpt's log.txt (karpathy/build-nanogpt train_gpt2.py: f"{step} val {val_loss_accum.item():.4f}\\n",
    f"{step} hella {acc_norm:.4f}\\n", f"{step} train {loss_accum.item():.6f}\\n"; corpus b53): the step, then
    the split, then its figure; `train` is the loss, `val` the val_loss."""
    log = tmp_path / "log.txt"
    log.write_text("0 val 10.9512\n0 hella 0.2485\n0 train 10.955598\n1 train 9.841250\n250 val 6.1234\n"
                   "250 hella 0.2510\n250 train 6.100123\n251 train 6.090001\n")
    snap = read_log(log)
    assert (snap.step, snap.loss, snap.metrics["val_loss"]) == (251, 6.090001, 6.1234)


@pytest.mark.parametrize("line", ["3 samples 0.5", "10 step 0.5", "7 train 3"])
def test_a_count_a_word_and_a_figure_is_no_step_line_unless_the_word_is_a_split_or_figure(line: str) -> None:
    step, _, _ = _read(line) if parse_record(normalize(line)) else (None, None, {})
    assert step is None


def test_wandb_upload_progress_is_no_step(tmp_path: Path) -> None:
    """W&B's sync progress as a run finishes (`wandb: uploading history steps 6-6, summary, console lines
    78-93`) counts history rows sent, no step: after nanochat's SFT lines (karpathy/nanochat
    scripts/chat_sft.py `step {step:05d} ({pct_done:.2f}%) | loss: ...`; corpus b53) it starts no new run."""
    log = tmp_path / "run.log"
    log.write_text("step 00048 (98.00%) | loss: 5.566818 | lrm: 0.04 | epoch: 1 | total time: 0.02m\n"
                   "step 00049 (100.00%) | loss: 5.172027 | lrm: 0.00 | epoch: 1 | total time: 0.02m\n"
                   "wandb: uploading config.yaml; uploading output.log; uploading wandb-summary.json\n"
                   "wandb: uploading history steps 6-6, summary, console lines 78-93\n"
                   "wandb: Run summary:\nwandb:                   step 49\n")
    snap = read_log(log)
    assert (snap.step, snap.loss) == (49, 5.172027)


@pytest.mark.parametrize(("line", "step", "total", "epoch", "loss"), [
    # karpathy/char-rnn train.lua: string.format("%d/%d (epoch %.3f), train_loss = %6.8f, grad/param norm = %6.4e,
    # time/batch = %.4fs", i, iterations, epoch, ...) and a tab (corpus b56)
    ("182/9500 (epoch 0.958), train_loss = 2.73258759, grad/param norm = 8.6316e-02, time/batch = 0.1684s\t",
     182, 9500, 0.958, 2.73258759),
    # jcjohnson/torch-rnn train.lua: 'Epoch %.2f / %d, i = %d / %d, loss = %f'
    ("Epoch 1.35 / 50, i = 2400 / 89000, loss = 1.523401", 2400, 89000, 1.35, 1.523401),
])
def test_a_bare_position_before_its_epoch_and_torch_rnns_i_count_a_total(
        line: str, step: int, total: int, epoch: float, loss: float) -> None:
    [reading] = parse_record(normalize(line))
    assert (reading.step, reading.total, reading.epoch, reading.metrics["loss"]) == (step, total, epoch, loss)


@pytest.mark.parametrize("line", ["3/4 of the data (epochs pending) is cached", "pi = 22 / 7, about 3.14"])
def test_a_fraction_without_its_epoch_or_a_count_word_is_no_position(line: str) -> None:
    assert all(reading.total is None for reading in parse_record(normalize(line)))


def test_bare_step_loss_pairs_rising_by_one_stride_are_the_step_and_loss(tmp_path: Path) -> None:
    """YANMTT's pretrain_nmt.py printed `print(ctr, lv)` every 10 batches (prajdabre/yanmtt issue 7; corpus
    b56): a bare step and its loss, nothing else, going nan, with its save/load messages between."""
    log = tmp_path / "train.log"
    log.write_text("...\n76930 2.6496577\n76940 2.59109\n76950 2.596339\n76960 2.735384\n76980 nan\n"
                   "Saving the model\nLoading from checkpoint\n77000 nan\n77010 nan\n")
    snap = read_log(log)
    assert snap.step == 77010 and math.isnan(snap.loss or 0.0)
    assert [step for step, _ in snap.history["loss"]][:3] == [76930, 76940, 76950]  # the held pairs kept


@pytest.mark.parametrize("text", [
    "1 12.5\n2 24.1\n4 47.9\n8 90.2\n",  # a sweep's two columns: batch size, throughput (no one stride)
    "100 0.5\n200 0.4\n",  # two pairs alone: too few to tell
    "3 0.5\n2 0.25\n1 0.125\n",  # falling
    "10 20\n20 30\n30 40\n",  # two counts
])
def test_bare_number_pairs_that_do_not_rise_by_one_stride_are_no_steps(tmp_path: Path, text: str) -> None:
    log = tmp_path / "numbers.log"
    log.write_text(text)
    snap = read_log(log)
    assert (snap.step, snap.loss) == (None, None)


@pytest.mark.parametrize(("line", "val_loss", "ppl"), [
    # argonne-lcf/Megatron-DeepSpeed ALCF/notes/cooldown.md (corpus b56): `key value=x` glued to the next `key PPL=y`
    ("[2025-11-10 12:29:58,134910][I][megatron/training:1693:evaluate_and_print_results]  validation loss at "
     "iteration 137650 on 122880-sample draw from validation set | lm loss value=2.697780lm loss PPL=14.846734",
     2.69778, 14.846734),
    # NVIDIA/Megatron-LM megatron/training.py evaluate_and_print_results: `{key} value: {:.6E} | {key} PPL: {:.6E} | `
    (" validation loss at iteration 200 | lm loss value: 6.571562E+00 | lm loss PPL: 7.144862E+02 | ",
     6.571562, 714.4862),
])
def test_megatron_validation_fields_with_equals_or_glued_to_the_next_name(line: str, val_loss: float, ppl: float) -> None:
    [reading] = parse_record(normalize(line))
    assert (reading.metrics["val_loss"], reading.metrics["val_lm_loss_ppl"], "loss" in reading.metrics) == (
        val_loss, ppl, False)


def _titan_steps(count: int) -> list[str]:
    """torchtitan's step line (pytorch/torchtitan torchtitan/components/metrics.py `log`: `step: {step:2}  loss:
    {loss:7.4f}  grad_norm: ...  memory: ...GiB(...%)  tps: {round(tps):,}  tflops: ...  mfu: ...%`) under its logger."""
    return [f"[rank0]:[titan] 2026-07-16 11:20:4{step},921 - root - INFO - step: {step:2}  loss: {8 - step * 0.68413:7.5f}"
            f"  grad_norm: {4 - step * 0.21357:7.4f}  memory:  4.32GiB(2.42%)  tps: 102,825  tflops: 55.83  mfu: 1.50%"
            for step in range(1, count + 1)]


@pytest.mark.parametrize("width", [60, 72, 76])
def test_step_records_word_wrapped_at_a_fixed_width_read_each_name_with_its_figure(tmp_path: Path, width: int) -> None:
    # a torchtitan run pasted into a commit message wrapped at 72 columns (pytorch/torchtitan PR 3932; corpus b56):
    # the wrap falls between `loss:` and its figure
    import textwrap

    log = tmp_path / "commit.txt"
    log.write_text("\n".join(part for line in _titan_steps(5) for part in textwrap.wrap(line, width)) + "\n")
    snap = read_log(log)
    assert (snap.step, snap.loss, snap.grad_norm) == (5, 4.57935, 2.9322)


def test_a_fixed_width_word_wrap_needs_the_line_above_full_and_no_shared_start() -> None:
    from sessiontui.collectors.logtext import word_wrap

    full = "[rank0]:[titan] 2026-07-16 11:20:42,602 - root - INFO - step:  5  loss:"
    assert word_wrap(full, "4.57767  grad_norm:  2.7557", len(full))
    assert not word_wrap("step:  5  loss:", "4.57767  grad_norm:  2.7557", len(full))  # room for it above
    assert not word_wrap(full, full, len(full))  # records of one shape
    assert not word_wrap(full, "  4.57767", len(full))  # an indented line starts its own


def test_a_name_ending_a_short_line_takes_no_figure_from_the_next_record(tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    log.write_text("step 10 | loss 2.5 | lr 1e-4 | a long line that sets the width of this log\n"
                   "step 20 | loss 2.4 | lr 1e-4 | a long line that sets the width of this log\n"
                   "Results:\n30 steps done, acc 0.5\n")
    assert "results" not in read_log(log).metrics


@pytest.mark.parametrize("width", [43, 50, 64, 72, 76, 77, 78])
def test_step_records_hard_wrapped_mid_figure_below_80_columns_read_the_figure_whole(tmp_path: Path, width: int) -> None:
    # a terminal or pager narrower than 80 columns cuts each torchtitan record wherever the width falls
    # (`loss: 4.57` over `935  grad_norm: ...` at 76, `grad_` over `norm: 2.9322` at 43): the lines of one record share no start
    log = tmp_path / "narrow.log"
    log.write_text("\n".join(line[i:i + width] for line in _titan_steps(5) for i in range(0, len(line), width)) + "\n")
    snap = read_log(log)
    assert (snap.step, snap.loss, snap.grad_norm) == (5, 4.57935, 2.9322)



@pytest.mark.parametrize(("after", "loss"), [
    ("162/162 [==============================] - 0s 781us/step", 2.4),  # a bar's count continues no figure
    ("<Figure size 640x480 with 1 Axes>", 2.4),  # a notebook's figure below (corpus b42)
    ("123  grad_norm: 0.5", 2.4000123),  # the figure's last digits: a hard wrap at the width
])
def test_a_line_continues_a_figure_cut_at_the_width_only_with_digits_that_end_it(after: str, loss: float) -> None:
    reader = LineReader()
    for line in ("step 1 | loss: 2.5000", "step 2 | loss: 2.4000"):  # as wide as each other: the width
        reader.read(line)
    readings = reader.read(after)
    assert [reading.metrics.get("loss", 2.4) for reading in readings] in ([], [loss])


@pytest.mark.parametrize(("line", "name", "value"), [
    # karpathy/char-rnn train.lua: `grad/param norm = %6.4e` is grad_params:norm() / params:norm() (corpus b56)
    ("182/9500 (epoch 0.958), train_loss = 2.73258759, grad/param norm = 8.6316e-02, time/batch = 0.1684s",
     "grad_to_param_norm", 0.086316),
    ("train/val loss: 0.5", "val_loss", 0.5),  # two splits, no ratio: read as before
    # awslabs/sockeye training.py's speedometer (corpus b06): after a figure, the slashed names are its unit
    ("Epoch[0] Batch [850]    Speed: 1233.65 samples/sec 36868.08 tokens/sec 6.31 updates/sec perplexity=1069.412118",
     "perplexity", 1069.412118),
])
def test_a_name_after_two_slashed_names_is_their_ratios(line: str, name: str, value: float) -> None:
    [reading] = parse_record(normalize(line))
    assert reading.metrics[name] == value and "grad_norm" not in reading.metrics
