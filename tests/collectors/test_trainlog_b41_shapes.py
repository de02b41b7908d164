"""Line shapes and structures first met in corpus batch train/b41: each test cites the tool's
printing code or the real line it reads."""

from __future__ import annotations

from pathlib import Path

import pytest

from sessiontui.collectors.trainlog import read_log
from sessiontui.collectors.trainlog.normalize import normalize
from sessiontui.collectors.trainlog.parsers import parse_record


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

