"""Formats a user declares in [[formats]], `sessiontui formats test`, and the notes that say what
a log printed but the reader did not map."""

from __future__ import annotations

from pathlib import Path

import pytest

from sessiontui.collectors.trainlog import read_log
from sessiontui.collectors.trainlog.declared import (
    compile_pattern,
    declared_reading,
    parse_formats,
    use_formats,
)
from sessiontui.collectors.trainlog.reader import LineReader
from sessiontui.collectors.trainlog.unread import unread_notes
from sessiontui.tui.cli import main

CORPUS = Path(__file__).parent.parent / "fixtures" / "corpus" / "train"


def test_a_declared_pattern_reads_its_fields_with_units_and_thousands() -> None:
    formats, problems = parse_formats([{"name": "mine",
                                        "pattern": "it {step}/{total} | loss {loss} | tput {tps}"}])
    assert not problems
    name, reading = declared_reading(formats, "it 10/200 | loss 2.5 | tput 1,234tok/s") or ("", None)
    assert name == "mine" and reading is not None
    assert (reading.step, reading.total) == (10, 200)
    assert reading.metrics["loss"] == 2.5 and reading.metrics["tps"] == 1234


def test_declared_formats_win_over_the_built_in_readers() -> None:
    formats, _ = parse_formats([{"name": "odd", "pattern": "epoch {epoch} ~ {loss}"}])
    (reading,) = LineReader(formats=formats).read("epoch 3 ~ 0.25")
    assert reading.format == "declared:odd" and reading.epoch == 3 and reading.metrics["loss"] == 0.25


@pytest.mark.parametrize(("table", "problem"), [
    ({"name": "x"}, "needs a pattern"),
    ({"name": "x", "pattern": "no fields here"}, "no {field}"),
    ({"name": "x", "pattern": "{loss} and {loss}"}, "appears twice"),
])
def test_unusable_declarations_are_one_line_problems(table: dict, problem: str) -> None:
    formats, problems = parse_formats([table])
    assert formats == [] and len(problems) == 1 and problem in problems[0]


def test_pattern_spaces_are_flexible_and_text_literal() -> None:
    pattern, fields = compile_pattern("Iter {step}: loss {loss} (x)")
    assert fields == ("step", "loss")
    assert pattern.search("Iter 7:   loss 1.5 (x)") and not pattern.search("Iter 7: loss 1.5 [x]")


def test_formats_test_shows_each_reader_line_by_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "sessiontui.toml").write_text(
        '[[formats]]\nname = "mine"\npattern = "it {step}/{total} | loss {loss}"\n')
    log = tmp_path / "train.log"
    log.write_text("it 10/200 | loss 2.5\nnothing here\n")
    monkeypatch.chdir(tmp_path)
    try:
        assert main(["formats", "test", str(log)]) == 0
    finally:
        use_formats([])
    out = capsys.readouterr().out
    assert "declared mine: step=10 total=200 loss=2.5" in out
    assert "1 line(s) with text gave nothing" in out
    assert "read as a whole: declared:mine · step 10/200 · loss 2.5" in out


def test_formats_test_on_a_missing_file_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["formats", "test", str(tmp_path / "absent.log")]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "cannot read" in err[0]


def test_a_log_whose_losses_are_not_mapped_says_so() -> None:
    snap = read_log(CORPUS / "b01" / "ultralytics_table.log")
    notes = unread_notes(snap.metrics, snap.loss, snap.acc, snap.format)
    assert notes == ["no loss read (box_loss, cls_loss, dfl_loss printed)"]


def test_a_spec_decoding_log_without_rates_says_so() -> None:
    notes = unread_notes({"acc_2": 0.5, "loss": 1.0}, 1.0, (), "key-value")
    assert notes == ["no acceptance rates read (acc_2 printed)"]
    assert unread_notes({"loss": 1.0, "accuracy": 0.9}, 1.0, (), "keras") == []


@pytest.mark.parametrize(("metrics", "note"), [
    # a loss under a name the vocabulary has never seen: named, the rate it did read is not
    ({"objective": 2.3, "lr": 1e-4}, "no loss read (objective printed)"),
    # verl/utils/tracking.py's console line `step:N - actor/pg_loss:.. - actor/lr:..`
    ({"actor/pg_loss": 0.01, "actor/lr": 1e-6, "lr": 1e-6}, "no loss read (actor/pg_loss printed)"),
    # the evaluation's loss was read (as the val loss): only what was not read is named
    ({"eval_loss": 1.1, "eval_runtime": 10.0}, "no loss read (eval_runtime printed)"),
    ({"lr": 1e-4, "grad_norm": 0.5}, "no loss read"),
])
def test_the_loss_note_names_only_keys_the_reader_did_not_map(metrics: dict[str, float], note: str) -> None:
    assert unread_notes(metrics, None, (), "key-value") == [note]


@pytest.mark.parametrize("key", ["pacc_0", "top1_acc_0", "train/acc_1"])
def test_per_position_accuracies_under_another_spelling_say_no_rates_were_read(key: str) -> None:
    """A draft's accuracies printed as `pacc_0` (not the `acc_0` the reader maps) are reported."""
    assert unread_notes({key: 0.45, "loss": 1.0}, 1.0, (), "key-value") == [
        f"no acceptance rates read ({key} printed)"]
    assert unread_notes({"acc5": 0.99, "acc_top1": 0.9, "loss": 1.0}, 1.0, (), "key-value") == []


def test_train_status_json_carries_the_unread_notes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["train", "status", "--log", str(CORPUS / "b01" / "ultralytics_table.log"),
                 "--json"]) == 0
    assert '"no loss read (box_loss, cls_loss, dfl_loss printed)"' in capsys.readouterr().out
