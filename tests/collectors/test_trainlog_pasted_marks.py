"""What a user's paste adds to a trainer's printed line (Markdown emphasis, inline code, a dict
missing a brace, a mail client's wrapping) does not stop the line from reading (corpus b45, b46)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sessiontui.collectors.trainlog import read_log
from sessiontui.collectors.trainlog.normalize import normalize
from sessiontui.collectors.trainlog.parsers import parse_record
from sessiontui.collectors.trainlog.snapshot import TrainSnapshot
from sessiontui.collectors.trainlog.vocabulary import canonical


def _read(tmp_path: Path, text: str, name: str = "train.log") -> TrainSnapshot:
    """What `train status --log` reads from a log holding `text`."""
    path = tmp_path / name
    path.write_text(text)
    return read_log(path)


@pytest.mark.parametrize(("pasted", "bare"), [
    # tqdm/std.py format_meter's `{n_fmt}/{total_fmt} [{elapsed}<{remaining}, {rate_fmt}{postfix}]`,
    # with its ETA and rate set in bold by the user (huggingface/open-r1#161)
    ("  0%|   | 1/1000 [04:41<**78:02:42, 281.24s/it]**", "  0%|   | 1/1000 [04:41<78:02:42, 281.24s/it]"),
    ("`{'loss': 0.5, 'epoch': 1.0}`", "{'loss': 0.5, 'epoch': 1.0}"),
    ("step 5 __loss 0.25__", "step 5 loss 0.25"),
])
def test_emphasis_or_inline_code_around_any_span_reads_bare(pasted: str, bare: str) -> None:
    assert normalize(pasted) == bare


@pytest.mark.parametrize("line", ["File train.py, in __init__", "2**3 and 4**5", "f(**kwargs, **extra)",
                                  "```python"])
def test_names_powers_and_fences_are_no_emphasis(line: str) -> None:
    assert normalize(line) == line


def test_a_bar_with_bold_in_it_reads_its_position() -> None:
    [reading] = parse_record(normalize("  0%|          | 1/1000 [04:41<**78:02:42, 281.24s/it]**"))
    assert (reading.step, reading.total) == (1, 1000)


@pytest.mark.parametrize("line", [
    # ms-swift swift/trainers/mixin.py logs the Trainer's dict with `global_step/max_steps` added;
    # pasted without its `{` (modelscope/ms-swift#5571)
    "'loss': 0.5, 'learning_rate': 2.6e-07, 'epoch': 0.0, 'global_step/max_steps': '5/3766'}",
    "'loss': 0.5, 'learning_rate': 2.6e-07, 'epoch': 0.0, 'global_step/max_steps': '5/3766'",
    # and without its `}` (transformers trainer.py `self.log` prints `{**logs, "step": ...}` as a dict)
    "{'loss': 0.5, 'learning_rate': 2.6e-07, 'epoch': 0.0, 'global_step/max_steps': '5/3766'",
])
def test_a_dict_missing_a_brace_is_the_dict_it_is(line: str) -> None:
    [reading] = parse_record(normalize(line))
    assert (reading.step, reading.total, reading.metrics["loss"], reading.metrics["lr"]) == (5, 3766, 0.5, 2.6e-07)


def test_a_dict_missing_its_closing_brace_at_the_end_of_a_log_reads(tmp_path: Path) -> None:
    snap = _read(tmp_path, "{'loss': 0.61, 'learning_rate': 2e-05, 'epoch': 0.5}\n"
                           "{'loss': 0.55, 'learning_rate': 1e-05, 'epoch': 1.0\n")
    assert (snap.loss, snap.lr, snap.epoch) == (0.55, 1e-05, 1.0)


def test_one_quoted_pair_is_no_dict() -> None:
    assert all(reading.format != "hf-trainer" for reading in parse_record(normalize("'lr': 0.1 was too high")))


@pytest.mark.parametrize(("name", "known"), [
    ("x/lr0", "lr"),  # ultralytics/yolov5 utils/loggers/__init__.py keys `x/lr0`, `x/lr1`, `x/lr2` (param groups)
    ("x/lr2", "x/lr2"),
    ("lr/pg0", "lr"),  # ultralytics/ultralytics engine/trainer.py `lr/pg{i}`
    ("lr0", "lr0"),  # a YOLOv5 hyperparameter (`hyperparameters: lr0=0.01, lrf=0.01`): the start rate, not the run's
])
def test_the_first_parameter_groups_rate_is_the_runs(name: str, known: str) -> None:
    assert canonical(name) == known


def test_a_yolov5_results_csv_gives_its_first_groups_rate(tmp_path: Path) -> None:
    csv = ("  epoch,  train/box_loss,  metrics/mAP_0.5,  x/lr0,  x/lr1,  x/lr2\n"
           "      0,        0.10231,          0.05792, 0.070789, 0.0032456, 0.0032456\n"
           "      1,       0.076394,          0.10851, 0.040659, 0.0064487, 0.0064487\n")
    assert _read(tmp_path, csv, "results.csv").lr == 0.040659


@pytest.mark.parametrize(("line", "step", "epoch"), [
    # a TensorFlow custom loop's `print("Epoch #{} Loss: {} Accuracy: {}")` (tensorflow/tensorflow#26543)
    ("Accuracy: 0.166667 Epoch #5 Loss: nan Accuracy: 0.166667", None, 5.0),
    ("Step #200 loss=0.5", 200, None),
    ("Iteration # 3, loss 0.2", 3, None),
])
def test_a_position_numbered_with_a_hash_is_the_position(line: str, step: int | None, epoch: float | None) -> None:
    [reading] = parse_record(normalize(line))
    assert (reading.step, reading.epoch) == (step, epoch)
    assert "loss" in reading.metrics


@pytest.mark.parametrize("summary", [
    # keras-team/keras keras/utils/generic_utils.py Progbar.update, verbose=2: Keras 1 `'%ds' % elapsed`,
    # Keras 2 `' - %.0fs'`, then ` - name: value` (keras-team/keras#1971)
    "3s - loss: 0.1026 - acc: 0.9667 - val_loss: 0.1384",
    " - 3s - loss: 0.1026 - acc: 0.9667 - val_loss: 0.1384",
    # tf.keras 2.x adds the count and `- 3s/epoch - 2ms/step`; Keras 3 keras/src/utils/progbar.py the per-step time first
    "1875/1875 - 3s - loss: 0.1026 - accuracy: 0.91 - val_loss: 0.1384 - 3s/epoch - 2ms/step",
    "10/10 - 1s - 50ms/step - loss: 0.1026 - val_loss: 0.1384",
])
def test_a_keras_verbose2_line_ends_its_epoch(tmp_path: Path, summary: str) -> None:
    snap = _read(tmp_path, f"Epoch 1/2\n{summary.replace('0.1026', '0.2')}\nEpoch 2/2\n{summary}\n")
    assert (snap.epoch, snap.loss, snap.metrics["val_loss"], snap.status) == (2.0, 0.1026, 0.1384, "finished")


def test_a_keras_epoch_heading_alone_is_not_its_end(tmp_path: Path) -> None:
    snap = _read(tmp_path, "Epoch 1/2\n3s - loss: 0.2 - acc: 0.9\nEpoch 2/2\n")
    assert (snap.epoch, snap.status) == (1.0, "running")


@pytest.mark.parametrize("line", [
    # dbolya/yolact train.py: `('[%3d] %7d ||' + (' %s: %.3f |' * len(losses)) + ' T: %.3f || ETA: %s || timer: %.3f')`
    "[  3]    4860 || B: 2.244 | C: 7.247 | M: 58.298 | S: 2.076 | T: 69.865 || ETA: 5 days, 1:07:34 || timer: 0.364",
    "4860 || B: 2.244 | C: 7.247 | M: 58.298 | S: 2.076 | T: 69.865 || ETA: 5 days, 1:07:34 || timer: 0.364",
    # forks print the sum as `total:`/`Total:` (`' total: %.3f || ETA: %s || time/batch: %.3fs'`)
    "[  3]    4860 || B: 2.244 | C: 7.247 | M: 58.298 | S: 2.076 | total: 69.865 || ETA: 5 days, 1:07:34 || time/batch: 0.364s",
])
def test_a_total_that_sums_the_losses_before_it_is_the_loss(line: str) -> None:
    [reading] = parse_record(normalize(line))
    assert (reading.step, reading.metrics["loss"], reading.metrics["m"]) == (4860, 69.865, 58.298)


@pytest.mark.parametrize(("line", "name"), [
    ("4860 || B: 2.244 | C: 7.247 | T: 19.865 || timer: 0.364", "t"),
    # facebookresearch/detectron2 detectron2/evaluation/evaluator.py `Total: {:.4f} s / iter`: a sum of times
    ("Inference done 112/127. Dataloading: 0.0015 s / iter. Inference: 0.2993 s / iter. Eval: 0.0003 s / iter. "
     "Total: 0.3012 s / iter. ETA=0:00:04", "total"),
])
def test_a_total_that_is_no_sum_of_losses_stays_its_own_figure(line: str, name: str) -> None:
    readings = parse_record(normalize(line))
    assert all("loss" not in reading.metrics for reading in readings)
    assert any(name in reading.metrics for reading in readings)


def test_a_dict_of_numpy2_scalars_reads_their_figures() -> None:
    # numpy 2.0 (NEP 51) reprs a scalar as `np.float64(0.5)`; `print(dict)` shows each value's repr
    [reading] = parse_record(normalize("{'loss': np.float64(0.5), 'learning_rate': np.float32(1e-05), 'step': np.int64(30)}"))
    assert (reading.step, reading.metrics["loss"], reading.metrics["lr"]) == (30, 0.5, 1e-05)


@pytest.mark.parametrize("log", [
    # transformers trainer.py `self.log` prints the Trainer's dict on one line; a terminal or mail client
    # wraps it mid-key, mid-figure, or at a space
    "{'loss': 0.4, 'grad_norm': 0.9, 'learning_rate': 1e-05, 'epo\nch': 0.2}\n",
    "{'loss': 0.4, 'grad_norm': 0.9, 'learning_rate': 1e-\n05, 'epoch': 0.2}\n",
    "{'loss': 0.4, 'grad_norm': 0.9, 'learn\ning_rate': 1e-05, 'epoch': 0\n.2}\n",
    "{'loss': 0.4, 'grad_norm': 0.9, 'learning_rate':\n1e-05, 'epoch': 0.2}\n",
])
def test_a_dict_hard_wrapped_mid_token_reads_whole(tmp_path: Path, log: str) -> None:
    snap = _read(tmp_path, log)
    assert (snap.loss, snap.grad_norm, snap.lr, snap.epoch) == (0.4, 0.9, 1e-05, 0.2)


def test_a_summary_dict_wrapped_between_items_is_read_whole(tmp_path: Path) -> None:
    """`trainer.train()`'s returned TrainOutput (transformers trainer_utils.py) echoed by a notebook and wrapped
    between items (corpus b50): the whole dict says the run ended, its `train_loss` the run's mean, not the loss."""
    snap = _read(tmp_path, "Step Training Loss Validation Loss\n1000 0.621000 0.492266\n10000 0.348800 0.313285\n"
                 "TrainOutput(global_step=10000, training_loss=0.4377235143661499, metrics={'train_runtime': 11359.2176, \n"
                 "'train_samples_per_second': 14.085, 'train_steps_per_second': 0.88, 'total_flos': \n"
                 "3.2205571119087696e+16, 'train_loss': 0.4377235143661499, 'epoch': 9.98})\n")
    assert (snap.step, snap.loss, snap.status, snap.epoch) == (10000, 0.3488, "finished", 9.98)


def test_a_cut_figure_is_read_whole_once_its_rest_comes(tmp_path: Path) -> None:
    assert _read(tmp_path, "{'epoch': 0.2, 'loss': 0.12\n34}\n").loss == 0.1234


def test_a_line_after_a_cut_dict_that_does_not_go_on_with_it_is_its_own(tmp_path: Path) -> None:
    snap = _read(tmp_path, "{'loss': 0.4, 'learning_rate': 1e-05, 'epoch': 0.2\nSaving model checkpoint to out/checkpoint-500\n")
    assert (snap.step, snap.loss, snap.epoch) == (500, 0.4, 0.2)


@pytest.mark.parametrize("log", [
    # tqdm/std.py format_meter `[{elapsed}<{remaining}, {rate_fmt}{postfix}]`, Lightning's postfix, wrapped
    "Epoch 1: 50%|#####     | 16/32 [00:01<00:01, 10.00it/s, loss=0.6\n36, v_num=15]\n",
    "Epoch 1: 50%|#####     | 16/32 [00:01<00:01, 10.00it/s, loss=0.636, v_n\num=15]\n",
])
def test_a_bar_wrapped_inside_its_bracket_reads_whole(tmp_path: Path, log: str) -> None:
    snap = _read(tmp_path, log)
    assert (snap.step, snap.total_steps, snap.loss) == (16, 32, 0.636)


def test_a_bar_cut_inside_its_last_figure_does_not_store_it(tmp_path: Path) -> None:
    snap = _read(tmp_path, "Epoch 1: 50%|#####     | 16/32 [00:01<00:01, 10.00it/s, v_num=15, loss=0.6\n")
    assert (snap.step, snap.loss) == (16, None)


@pytest.mark.parametrize(("log", "name", "want"), [
    # fairseq 0.x's bar cut at the terminal's width after an item's separator (facebookresearch/fairseq
    # issue 247, corpus b57): the comma shows the figure before it whole
    ("| epoch 001:   0%| | 39/11265 [01:55<9:15:41,  2.97s/it, loss=0.000, num_updates=0, lr=1e-07,\n", "lr", 1e-07),
    ("Epoch 1: 50%|#####     | 16/32 [00:01<00:01, 10.00it/s, v_num=15, loss=0.6, \n", "loss", 0.6),
])
def test_a_bar_cut_after_an_items_separator_keeps_that_item(tmp_path: Path, log: str, name: str, want: float) -> None:
    assert getattr(_read(tmp_path, log), name) == want


def test_a_keras_line_wrapped_inside_a_name_reads_whole(tmp_path: Path) -> None:
    # keras-team/keras keras/utils/generic_utils.py Progbar.update prints ` - %s: %.4f` per metric; a
    # terminal wraps the long verbose=1 line inside a name
    snap = _read(tmp_path, "Epoch 1/2\n"
                           "60000/60000 [==============================] - 5s 83us/step - loss: 0.3000 - acc: 0.9000\n"
                           " - val_loss: 0.2000 - val_acc: 0.9000\nEpoch 2/2\n"
                           "60000/60000 [==============================] - 5s 83us/step - loss: 0.2500 - ac\n"
                           "c: 0.9500 - val_loss: 0.1000 - val_acc: 0.9700\n")
    assert (snap.epoch, snap.loss, snap.metrics["acc"], snap.metrics["val_loss"]) == (2.0, 0.25, 0.95, 0.1)
    assert "c" not in snap.metrics


def test_a_two_column_tables_rows_folded_onto_one_line_are_its_rows(tmp_path: Path) -> None:
    """Unsloth's notebook output pasted where newlines were lost (corpus b50): the banner runs into the HF
    notebook table's `Step Training Loss` header, then every row on one line; each (step, loss) pair is a row."""
    snap = _read(tmp_path, "==((====))== Unsloth | Total steps = 30 [30/30 26:26, Epoch 0/1] Step Training Loss\n\n"
                 "1 1.737000 2 1.738000 3 1.384700 29 0.672500 30 0.660900\n")
    assert (snap.step, snap.loss) == (30, 0.6609)


def test_figures_after_a_trailing_header_that_do_not_rise_are_no_rows(tmp_path: Path) -> None:
    snap = _read(tmp_path, "Run 4 [3/30] Step Training Loss\n5 1.5 3 1.2 1 0.9\n")
    assert snap.loss != 0.9
