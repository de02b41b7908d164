"""Summaries that repeat a run's last report (W&B's run summary, Ray's result box, a bar's closing
redraw), numbers in prose that are no position, and step counts that are a run's length (first met
in corpus batch train/b41): each test cites the tool's printing code or the real line it reads."""

from __future__ import annotations

from pathlib import Path

import pytest

from sessiontui.collectors.trainlog import read_log
from sessiontui.collectors.trainlog.normalize import normalize
from sessiontui.collectors.trainlog.parsers import parse_record
from sessiontui.collectors.trainlog.progress import seconds


@pytest.mark.parametrize(("line", "step", "figures"), [
    # karpathy/llm.c llmc/logger.h `logger_log_train`: "s:%d trl:%.4f lr:%.6f norm:%.2f\n"
    ("s:19559 trl:3.2217 lr:0.000000 norm:0.22", 19559, {"loss": 3.2217, "lr": 0.0, "grad_norm": 0.22}),
    # modded-nanogpt's first record keeps only the loss: "s:9535 trl:3.340180"
    ("s:9535 trl:3.340180", 9535, {"loss": 3.34018}),
    # `logger_log_eval`: "s:%d tel:%.4f\n"
    ("s:9536 tel:3.275959", 9536, {"val_loss": 3.275959}),
])
def test_llmc_main_logs_s_is_the_step(line: str, step: int, figures: dict[str, float]) -> None:
    [reading] = parse_record(normalize(line))
    assert reading.step == step
    assert {name: reading.metrics[name] for name in figures} == figures
    assert "s" not in reading.metrics


def test_an_s_before_other_figures_is_no_step() -> None:
    # only llm.c's shape names the step `s`: a figure called `s` elsewhere stays a figure
    [reading] = parse_record(normalize("s:5 loss:2.5"))
    assert reading.step is None


@pytest.mark.parametrize(("line", "total"), [
    # NVIDIA/NeMo nemo/core/optim/lr_scheduler.py `prepare_lr_scheduler`: 'Scheduler "%s" \nwill be used
    # during training (effective maximum steps = %d) - \nParameters : \n(%s)'
    ("    will be used during training (effective maximum steps = 15) - ", 15),
    ("Total training steps: 1000", 1000),  # verl: the count word first, as before
])
def test_a_qualified_count_of_steps_is_the_runs_length_not_its_step(line: str, total: int) -> None:
    [reading] = parse_record(normalize(line))
    assert (reading.step, reading.total) == (None, total)


def test_a_bar_drawn_full_after_fit_stopped_is_its_closing_redraw(tmp_path: Path) -> None:
    # Lightning fit_loop.py `rank_zero_info(f"`Trainer.fit` stopped: `max_steps={self.max_steps!r}` reached.")`
    # prints before tqdm's last draw of the bar (NeMo on GKE, corpus b41): the run is over
    log = tmp_path / "pod.log"
    log.write_text("`Trainer.fit` stopped: `max_steps=10` reached.\n"
                   "Epoch 0: : 100%|##########| 10/10 [07:57<00:00, reduced_train_loss=9.790, global_step=9.000]\n"
                   "Waiting on Torch PID 673\n")
    snap = read_log(log)
    assert (snap.status, snap.loss, snap.total_steps) == ("finished", 9.79, 10)


def test_a_bar_short_of_its_total_after_a_stop_is_more_training(tmp_path: Path) -> None:
    log = tmp_path / "resumed.log"
    log.write_text("`Trainer.fit` stopped: `max_steps=10` reached.\n"
                   "Epoch 0: :  50%|#####     | 10/20 [07:57<07:57, reduced_train_loss=9.790, global_step=9.000]\n")
    assert read_log(log).status != "finished"


def test_wandbs_run_summary_closes_a_table_and_repeats_the_position(tmp_path: Path) -> None:
    # wandb/sdk/wandb_run.py `_footer_history_summary_info` prints "Run summary:" over `name value` rows;
    # saforem2/wordplay prints a two-column legend table before training and logs `step=N loss=X`
    log = tmp_path / "wordplay.log"
    log.write_text("step   Current training iteration\n"
                   "loss   Loss value\n"
                   "[2024-11-09 20:11:15.959949][INFO][trainer.py:892] - step=1000 loss=0.0347885 dt=0.549696\n"
                   "wandb: Run summary:\n"
                   "wandb:                       Loss/val 3.97037\n"
                   "wandb:                  Training/iter 999\n"
                   "wandb:                    Training/lr 0.0006\n")
    snap = read_log(log)
    assert (snap.step, snap.lr, snap.metrics.get("val_loss")) == (1000, 0.0006, 3.97037)
    assert "val_current_training_iteration" not in snap.metrics
    assert snap.run_index == 0  # the history's `iter 999` is no second run


def test_wandbs_summary_rounding_a_figure_keeps_the_precise_one_read(tmp_path: Path) -> None:
    # wandb/sdk/wandb_run.py `_show_summary`: floats `round(v, 5)`, strings `v[:20] + "..."`; the last dict of
    # an Unsloth GRPO run (johnson7788/RLDecisionAgent docs/Unsloth/train_grpo.log, corpus b58) logs lr 1.1e-07
    rows = ("sample/question 【用药题】猫狗咬伤新鲜伤口的经验用药:[...", "train/grad_norm 0.2097",
            "train/learning_rate 0.0", "train/reward -4.875")
    log = tmp_path / "grpo.log"
    log.write_text("{'loss': 0.0, 'grad_norm': 0.20969897508621216, 'learning_rate': 1.1111111111111112e-07, "
                   "'epoch': 1.52}\nwandb: Run summary:\n" + "".join(f"wandb: {row:>40}\n" for row in rows))
    snap = read_log(log)
    assert (snap.lr, snap.grad_norm, snap.metrics["reward"]) == (1.1111111111111112e-07, 0.20969897508621216, -4.875)


@pytest.mark.parametrize("line", [
    # a GRPO reward function's printed responses (unslothai/notebooks Mistral_v0.3_(7B)-GRPO.ipynb, corpus
    # b41): a model's worked arithmetic between the trainer's lines
    "They traveled 200 miles on the first day, so 3/4 of that is 200 * (3/4) = 150 miles on the second day.",
    "1/6 of the remaining kids take more than 14 minutes. So, (1/6) * 24 = 24 / 6 = 4 kids take more.",
    "That means, if Carlos has $x dollars worth of gold quarters, he has (4/5)x ounces of gold.",
    "The pirate wants to distribute 3500 gold coins equally across 5 chests, so each chest will contain 700 (3500 / 5).",
    "In 60 minutes, Rene reads 30 pages, so his rate is 0.5 pages per minute (30/60).",
])
def test_a_bracketed_quotient_in_arithmetic_or_prose_is_no_position(line: str) -> None:
    readings = parse_record(normalize(line))
    assert all(reading.step is None and reading.total is None for reading in readings)


@pytest.mark.parametrize(("line", "step", "total"), [
    ("[30/1504] loss: 2.1", 30, 1504),
    ("Epoch 1 (1800/24681) loss 2.3", 1800, 24681),
    ("[ 30/1504] - loss: 0.5", 30, 1504),  # a dash after the count separates fields, no arithmetic
])
def test_a_bracketed_count_beside_figures_stays_the_position(line: str, step: int, total: int) -> None:
    [reading] = parse_record(normalize(line))
    assert (reading.step, reading.total) == (step, total)


def _ray_result_box(step: int, lr: str) -> str:
    """Ray Train's box after a report (ray/tune/experimental/output.py), as the Azure-Samples/aks-anyscale
    KTO notebook prints it: `training_iteration` counts reports, each float `f"{value:.5f}".rstrip("0")`."""
    return ("Training finished iteration 1 at 2026-02-08 17:38:19. Total running time: 2min 14s\n"
            "\u256d\u2500\u2500\u2500\u2500\u256e\n"
            "\u2502 Training result                         \u2502\n"
            "\u251c\u2500\u2500\u2500\u2500\u2524\n"
            "\u2502 training_iteration                    1 \u2502\n"
            "\u2502 logits/chosen                -23750568. \u2502\n"
            f"\u2502 learning_rate                        {lr} \u2502\n"
            "\u2502 loss                             0.4875 \u2502\n"
            f"\u2502 step                                {step} \u2502\n"
            "\u2570\u2500\u2500\u2500\u2500\u256f\n"
            "Training saved a checkpoint for iteration 1 at: (local)/mnt/cluster_storage/run/checkpoint_000000\n")


def test_rays_result_box_repeats_the_workers_report(tmp_path: Path) -> None:
    log = tmp_path / "ray.log"
    log.write_text("(RayTrainWorker pid=4171, ip=10.128.6.27) {'loss': 0.4875, 'grad_norm': 3.45, "
                   "'learning_rate': 2.958631979685156e-08, 'epoch': 2.91}\n"
                   " 97%|#########7| 111/114 [02:30<00:04,  1.34s/it]\n" + _ray_result_box(110, "0."))
    snap = read_log(log)
    assert (snap.step, snap.run_index, snap.loss, snap.lr) == (111, 0, 0.4875, 2.958631979685156e-08)


def test_a_ray_box_alone_still_gives_the_workers_figures(tmp_path: Path) -> None:
    log = tmp_path / "ray_only.log"
    log.write_text(_ray_result_box(50, "0.0002"))
    snap = read_log(log)
    assert (snap.step, snap.loss, snap.lr) == (50, 0.4875, 0.0002)


def test_a_clock_too_long_for_a_float_is_no_time() -> None:
    # found by test_trainlog_properties' mutated tqdm bar: `[00:02<00:1000...0008, 2.00it/s]`
    assert seconds("00:1" + "0" * 400 + "8") is None
    assert seconds("01:02:03") == 3723
