"""Each recognised training-log format, read whole from a fixture written from the tool's layout."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from sessiontui.collectors.trainlog import read_log
from sessiontui.collectors.trainlog.parsers import parse_record
from sessiontui.collectors.trainlog.progress import parse_bar
from tests.collectors.test_trainlog_formats_pastes import as_written

FIXTURES = Path(__file__).parent.parent / "fixtures" / "trainlog"


def test_specforge_v2_bar_redraws_and_glued_eval_lines() -> None:
    snap = as_written(FIXTURES / "specforge_v2.log")
    assert snap.format == "specforge-v2"
    assert (snap.step, snap.total_steps) == (6, 6)
    assert snap.loss == pytest.approx(2.6)
    assert snap.grad_norm == pytest.approx(0.6)
    # Step 6 group: Acc at position i is 0.74 - 0.05 i + 0.006, conditional per position.
    assert snap.acc == pytest.approx([0.746 - 0.05 * i for i in range(7)])
    assert snap.metrics["acceptance_rate_6"] == pytest.approx(0.70 - 0.30 + 0.006)
    assert snap.metrics["ploss_0"] == pytest.approx(1.106)
    assert snap.steps_per_s == pytest.approx(1 / 1.96)  # `1.96s/it`
    # The acc_0 line glued after the bar counts as much as the others: two groups in history.
    assert [step for step, _ in snap.history["acc_0"]] == [2, 4, 6]
    assert [step for step, _ in snap.history["loss"]] == [1, 2, 3, 4, 5, 6]


def test_specforge_v1_per_epoch_position_lines() -> None:
    snap = read_log(FIXTURES / "specforge_v1.log")
    assert snap.format == "specforge-v1"
    assert snap.epoch == 2.0
    assert snap.acc == pytest.approx([0.72, 0.62, 0.52])
    assert snap.metrics["ploss_2"] == pytest.approx(1.7)
    assert snap.metrics["eval_acc_0"] == pytest.approx(0.68)


def test_specforge_v3_dicts_strip_train_prefix_and_keep_eval_figures() -> None:
    snap = as_written(FIXTURES / "specforge_v3.log")
    assert snap.format == "specforge-v3"
    assert snap.step == 300
    assert snap.loss == pytest.approx(2.2)
    assert snap.lr == pytest.approx(1e-4)
    assert snap.acc == pytest.approx([0.83, 0.71, 0.59, 0.47])
    assert snap.metrics["simulated_acc_len"] == pytest.approx(2.41)
    assert snap.metrics["eval_per_position_acc_1"] == pytest.approx(0.66)
    assert snap.metrics["eval_loss"] == pytest.approx(2.31)
    assert snap.metrics["acc"] == pytest.approx(0.61)  # the mean, not a position
    assert snap.steps_per_s == pytest.approx(0.5)  # perf/optimizer_steps_per_hour 1800


def test_hf_trainer_dicts_bar_and_end() -> None:
    snap = read_log(FIXTURES / "hf_trainer.log")
    assert snap.format == "hf-trainer"
    assert (snap.step, snap.total_steps) == (40, 40)
    assert snap.loss == pytest.approx(1.6)
    assert snap.metrics["eval_loss"] == pytest.approx(1.9876)
    assert snap.metrics["train_runtime"] == pytest.approx(20.5)
    assert snap.epoch == 1.0
    assert snap.status == "finished"
    assert [e.kind for e in snap.events] == ["finished"]


def test_hf_trainer_dict_with_nan_and_inf() -> None:
    (reading,) = parse_record("{'loss': nan, 'grad_norm': inf, 'learning_rate': 1e-05, 'epoch': 0.2}")
    assert math.isnan(reading.metrics["loss"])
    assert reading.metrics["grad_norm"] == math.inf
    assert reading.metrics["lr"] == 1e-05
    assert reading.epoch == 0.2


def test_trainer_state_json(tmp_path: Path) -> None:
    # transformers 4.46 trainer_state.json layout (checkpoint-*/trainer_state.json).
    path = tmp_path / "trainer_state.json"
    path.write_text(
        '{"best_metric": null, "epoch": 0.5, "eval_steps": 500, "global_step": 200,'
        ' "is_hyper_param_search": false, "log_history": ['
        '{"epoch": 0.25, "grad_norm": 1.1, "learning_rate": 4e-05, "loss": 2.2, "step": 100},'
        '{"epoch": 0.5, "grad_norm": 0.9, "learning_rate": 3e-05, "loss": 2.0, "step": 200},'
        '{"epoch": 0.5, "eval_loss": 1.95, "eval_runtime": 3.2, "step": 200}],'
        ' "logging_steps": 100, "max_steps": 400, "num_train_epochs": 1, "save_steps": 200}'
    )
    snap = read_log(path)
    assert (snap.step, snap.total_steps, snap.epoch) == (200, 400, 0.5)
    assert snap.loss == 2.0 and snap.lr == 3e-05
    assert snap.metrics["eval_loss"] == 1.95
    assert snap.history["loss"] == ((100, 2.2), (200, 2.0))


def test_lightning_bar_with_slash_keys_and_fit_end() -> None:
    snap = as_written(FIXTURES / "lightning.log")
    assert snap.format == "lightning"
    assert (snap.step, snap.total_steps, snap.epoch) == (300, 300, 1.0)  # epoch 0's bar at 100%
    assert snap.loss == pytest.approx(1.2)  # train/loss_step
    assert snap.metrics["val_loss"] == pytest.approx(1.31)
    assert "v_num" not in snap.metrics
    assert snap.steps_per_s == 10.0
    assert snap.status == "finished"


def test_deepspeed_step_lines() -> None:
    snap = read_log(FIXTURES / "deepspeed.log")
    assert snap.step == 20
    assert snap.lr == pytest.approx(9.0e-05)
    assert snap.metrics["runningavgsamplespersec"] == pytest.approx(121.5)


def test_megatron_iteration_lines() -> None:
    snap = as_written(FIXTURES / "megatron.log")
    assert snap.format == "megatron"
    assert (snap.step, snap.total_steps) == (200, 1000)
    assert snap.loss == pytest.approx(6.54321)
    assert snap.lr == pytest.approx(1.49e-4)
    assert snap.grad_norm == pytest.approx(1.1)
    assert snap.steps_per_s == pytest.approx(1000 / 1240)
    assert snap.eta_s == pytest.approx(800 * 1.24)


def test_torchrun_prefixes_count_rank_zero_only() -> None:
    snap = read_log(FIXTURES / "torchrun_ranks.log")
    assert snap.step == 20
    assert snap.loss == pytest.approx(2.4)
    assert snap.acc == pytest.approx([0.72])
    assert snap.history["loss"] == ((10, 2.5), (20, 2.4))


def test_json_lines_metrics() -> None:
    snap = read_log(FIXTURES / "metrics.jsonl")
    assert snap.format == "jsonl"
    assert snap.step == 3
    assert snap.acc == pytest.approx([0.63])
    assert math.isnan(snap.loss)
    assert snap.status == "diverged"


def test_plain_key_value_and_eagle_prints() -> None:
    snap = read_log(FIXTURES / "keyvalue.log")
    assert (snap.step, snap.loss, snap.lr, snap.grad_norm) == (2, 2.4, 1e-4, 0.85)
    eagle = read_log(FIXTURES / "eagle_v2.log")
    assert eagle.epoch == 2.0
    assert eagle.loss == pytest.approx(2.1)
    assert eagle.metrics["train_accuracy"] == pytest.approx(0.645)  # printed as a percentage


@pytest.mark.parametrize(
    ("bar", "step", "total", "rate", "remaining"),
    [
        # tqdm 4.66: it/s at >= 1 per second, s/it below, custom units, H:MM:SS past 24 hours.
        (" 45%|████▌     | 450/1000 [01:23<01:42,  5.38it/s]", 450, 1000, 5.38, 102),
        ("Training Epoch 0:  42%|████▏     | 2100/5000 [35:01<48:22,  1.75s/it]", 2100, 5000,
         1 / 1.75, 2902),
        ("train: 10%|█         | 10/100 [00:03<00:27,  2.94step/s, loss=1.2]", 10, 100, 2.94, 27),
        ("  1%|          | 100/9000 [1:00:00<26:40:00,  2.00s/it]", 100, 9000, 0.5, 96000),
        ("1234it [00:10, 123.40it/s]", 1234, None, 123.4, None),
    ],
)
def test_tqdm_rates_and_times(bar: str, step: int, total: int | None, rate: float,
                              remaining: float | None) -> None:
    reading, rest = parse_bar(bar)
    assert (reading.step, reading.total, rest) == (step, total, "")
    assert reading.steps_per_s == pytest.approx(rate)
    assert reading.remaining_s == remaining


def test_evaluation_bars_are_not_training_progress() -> None:
    assert parse_record("Evaluating: 100%|██████████| 50/50 [00:05<00:00,  9.80it/s]") == []


def test_long_bar_history_is_dense_from_the_start_and_bounded(tmp_path: Path) -> None:
    # 60,000 tqdm redraws on one physical line (~6 MB): most are dropped, enough are sampled.
    path = tmp_path / "long.log"
    path.write_text("".join(
        f"\rTraining: {s * 100 // 60000:3d}%|#         | {s}/60000 [00:10<01:00,  9.00it/s, "
        f"loss={10 - s / 10000:.4f}]" for s in range(1, 60001)
    ) + "\n")
    snap = read_log(path)
    steps = [step for step, _ in snap.history["loss"]]
    assert snap.step == 60000 and snap.loss == pytest.approx(4.0)
    assert 200 <= len(steps) <= 513 and steps == sorted(steps)
    assert steps[0] < 500 and steps[-1] > 59000  # covers the whole run
    assert all(value == pytest.approx(10 - step / 10000, abs=1e-4)
               for step, value in snap.history["loss"])  # each point is its own step's value


@pytest.mark.parametrize(
    ("header", "step", "total"),
    [
        ("[rank0]: Auto-calculated total_steps: 200 (num_epochs=2 * steps_per_epoch=100)", 150, 200),
        ("total_steps: 300", 150, 300),
        ("", 50, 100),  # epoch count unknown: the bar's own numbers, nothing invented
    ],
)
def test_per_epoch_bars_count_across_the_run(tmp_path: Path, header: str, step: int, total: int) -> None:
    bars = "".join(
        f"\rTraining Epoch {epoch}: {n}%|#    | {n}/100 [00:10<00:10,  1.50it/s, loss=3.1]"
        for epoch, n in ((0, 99), (0, 100), (1, 49), (1, 50))
    )
    log = tmp_path / "train.log"
    log.write_text(f"{header}\n{bars}\n")
    snapshot = read_log(log)
    assert (snapshot.step, snapshot.total_steps) == (step, total)


def test_trainer_state_pasted_as_a_log_finishes_when_max_steps_is_reached(tmp_path: Path) -> None:
    # transformers' trainer_callback.py `TrainerState.save_to_json`: `json.dumps(dataclasses.asdict(self),
    # indent=2, sort_keys=True)`, so `max_steps` comes below a `log_history` too long to read whole.
    history = [{"epoch": i / 10, "learning_rate": 0.02 * (1 - i / 300), "loss": 1 / i, "step": 10 * i}
               for i in range(1, 301)]
    state = {"epoch": 30.0, "global_step": 3000, "log_history": history, "max_steps": 3000,
             "num_train_epochs": 30}
    log = tmp_path / "train.log"
    log.write_text(json.dumps(state, indent=2, sort_keys=True) + "\n")
    snap = read_log(log)
    assert (snap.step, snap.total_steps, snap.status) == (3000, 3000, "finished")
    state["max_steps"] = 6000  # stopped half-way: the same total announced later does not end it
    log.write_text(json.dumps(state, indent=2, sort_keys=True) + "\n")
    assert read_log(log).status != "finished"
