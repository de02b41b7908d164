"""Every training log of the real-output corpus reads as written down in its index (regressions
in the reader fail here); first-sight scores live in the index and in docs/formats.md."""

from __future__ import annotations

import functools
import importlib.util
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "fixtures" / "corpus" / "train"
KNOWN_MISSES: dict[str, str] = {  # "bNN/file": why it is still read wrong
    # scored on first sight on 2026-12-02 (round 1 of this stop), not yet fixed
    "b39/chatglm_ptuning_2023_trainer_state_json_step_3000_of_3000_epoch_130.log":
        "first sight, not yet fixed: status='running' (want 'finished')",
    "b39/tf_estimator_2019_bert_similarity_nohup_loss_step_loss_for_final_step_eval_results.log":
        "first sight, not yet fixed: loss=0.7218847 (want 0.0025181356)",
    "b39/verl_fsdp_sft_trainer_readme_epoch_bars_glued_step_lines_step_105_of_105_val_loss.log":
        "first sight, not yet fixed: lr=1e-05 (want 0.0)",
    "b39/minllama_sst_finetune_log_double_colon_epoch_0_train_loss_dev_test_acc.log":
        "first sight, not yet fixed: loss=None (want 1.696)",
    "b40/mmengine_debug_tricks_doc_num_batch_per_epoch_5_two_epochs_val_accuracy.log":
        "first sight, not yet fixed: val_accuracy=7.5 (want 12.5)",
    "b40/fairseq_json_log_line_html_entities_quot_pre_epoch_27_num_updates_33700.log":
        "first sight, not yet fixed: step=None (want 33700), loss=None (want 8.206), lr=None (want 0.00017226), grad_norm=None (want 1.833)",
    "b40/custom_logging_cp1251_russian_epoch_table_train_val_loss_recall_reruns.log":
        "first sight, not yet fixed: epoch=1.0 (want 3), loss=0.7164 (want 1.077), val_loss=27.0856 (want 0.7093)",
    "b40/yolov5_kaggle_notebook_wandb_timeout_box_obj_cls_row_cut_1_epoch_completed.log":
        "first sight, not yet fixed: epoch=0.0 (want 1.0)",
    "b40/hrnet_style_seg_camvid_nohup_epoch_999_of_1000_iter_lr_list_loss_bare_counters_done.log":
        "first sight, not yet fixed: loss=0.984 (want 0.745167)",
    "b30/nemo_launcher_tail_f_sanity_check_then_epoch_bar.log":
        "expectation disputed: the bar's 13/20 counts finished steps; NeMo logs global_step=12 "
        "(0-based, before the 13th step's increment), and b22 scores the bar's count",
}


@functools.cache
def _scorer():  # the benchmark's own scorer, so the test and the table can never disagree
    spec = importlib.util.spec_from_file_location("format_accuracy", ROOT / "benchmarks" /
                                                  "format_accuracy.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("format_accuracy", module)
    spec.loader.exec_module(module)
    return module


def _entries() -> list[tuple[str, dict, Path]]:
    found = []
    for index in sorted(CORPUS.glob("b*/index.toml")):
        for entry in tomllib.loads(index.read_text())["output"]:
            found.append((f"{index.parent.name}/{entry['file']}", entry, index.parent / entry["file"]))
    return found


ENTRIES = _entries()


def test_corpus_is_large_and_sourced() -> None:
    assert len(ENTRIES) >= 80
    assert all(entry["source"].startswith("https://") and entry["expect"] for _, entry, _ in ENTRIES)
    assert len({entry["tool"] for _, entry, _ in ENTRIES}) >= 25


@pytest.mark.parametrize(("name", "entry", "path"), ENTRIES, ids=[name for name, _, _ in ENTRIES])
def test_corpus_entry_reads_as_expected(name: str, entry: dict, path: Path) -> None:
    if name in KNOWN_MISSES:
        pytest.xfail(KNOWN_MISSES[name])
    right, why = _scorer().score_train(entry, path)
    assert right, f"{name}: {why}"
