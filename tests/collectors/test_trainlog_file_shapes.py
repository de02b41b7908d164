"""`train status --log` on the shapes real log files come in: line endings, colour codes, redraws,
NUL bytes, other encodings, huge lines, interleaved warnings, N ranks, restarts, binary files."""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest

from sessiontui.collectors.trainlog import read_log
from sessiontui.collectors.trainlog.encoding import NOT_TEXT, utf16_order

STEPS = 50
LINES = [f"step {i} loss {3 - i / 100:.4f} lr 1e-4" for i in range(1, STEPS + 1)]
TEXT = "\n".join(LINES) + "\n"
WARNING = ("/usr/lib/python3/site-packages/torch/utils/checkpoint.py:429: UserWarning: "
           "torch.utils.checkpoint: please pass in use_reentrant=True or use_reentrant=False.\n"
           "  warnings.warn(\n")

SHAPES = {
    "crlf": TEXT.replace("\n", "\r\n").encode(),
    "ansi": "".join(f"\x1b[32mINFO\x1b[0m \x1b[1m{line}\x1b[0m\n" for line in LINES).encode(),
    "latin-1": ("Epoch 1 pérdida\n" + TEXT).encode("latin-1"),
    "nul-bytes": b"\x00" * 5000 + TEXT.encode().replace(b"step 25", b"step 25\x00") + b"\x00" * 100,
    "very-long-line": ("x" * 3_000_000 + "\n" + TEXT).encode(),
    "warnings-between": "".join(line + "\n" + WARNING for line in LINES).encode(),
    "eight-ranks": "".join(f"[rank{r}]:{line}\n" for line in LINES for r in range(8)).encode(),
    "utf-16-bom": codecs.BOM_UTF16_LE + TEXT.encode("utf-16-le"),
    "utf-16-no-bom": TEXT.encode("utf-16-le"),
    "utf-16-be": codecs.BOM_UTF16_BE + TEXT.encode("utf-16-be"),
    "utf-8-bom": codecs.BOM_UTF8 + TEXT.encode(),
}


@pytest.mark.parametrize("shape", SHAPES)
def test_each_file_shape_reads_the_last_step_and_loss(tmp_path: Path, shape: str) -> None:
    log = tmp_path / "train.log"
    log.write_bytes(SHAPES[shape])
    snap = read_log(log)
    assert (snap.step, snap.loss, snap.problem) == (STEPS, pytest.approx(2.5), None)


def test_tqdm_redraws_in_one_physical_line_read_as_the_last(tmp_path: Path) -> None:
    log = tmp_path / "bar.log"
    log.write_text("".join(f"\r{2 * i}%|#| {i}/{STEPS} [00:01<00:01, 1.0it/s, loss={3 - i / 100:.3f}]"
                           for i in range(1, STEPS + 1)) + "\n")
    snap = read_log(log)
    assert (snap.step, snap.total_steps, snap.loss) == (STEPS, STEPS, pytest.approx(2.5))


def test_a_restarted_run_reads_from_its_restart(tmp_path: Path) -> None:
    log = tmp_path / "restart.log"
    log.write_text(TEXT + "".join(f"step {i} loss {2 - i / 100:.4f}\n" for i in range(1, 11)))
    snap = read_log(log)
    assert (snap.step, snap.loss, snap.run_index) == (10, pytest.approx(1.9), 1)


def test_a_binary_file_says_so_in_one_line(tmp_path: Path) -> None:
    log = tmp_path / "model.pt"
    log.write_bytes(bytes(range(256)) * 100)
    snap = read_log(log)
    assert snap.problem == NOT_TEXT and snap.step is None


@pytest.mark.parametrize(("head", "order"), [
    (codecs.BOM_UTF16_LE + "step".encode("utf-16-le"), "utf-16-le"),
    ("step 1 loss 2.5".encode("utf-16-be"), "utf-16-be"),
    (b"step 1 loss 2.5", None),
    (b"\x00" * 600, None),  # a copytruncate hole is not UTF-16
])
def test_utf16_is_told_by_its_bom_or_its_nul_pattern(head: bytes, order: str | None) -> None:
    assert utf16_order(head) == order


def test_a_utf16_log_followed_as_it_grows_keeps_its_byte_pairs(tmp_path: Path) -> None:
    from sessiontui.collectors.trainlog.follower import LogFollower

    data = codecs.BOM_UTF16_LE + TEXT.encode("utf-16-le")
    log = tmp_path / "train.log"
    follower = LogFollower(log)
    try:
        for end in (101, 1001, len(data)):  # odd cuts: a UTF-16 pair split across reads
            with log.open("ab") as out:
                out.write(data[log.stat().st_size if log.exists() else 0:end])
            snap = follower.poll()
        assert (snap.step, snap.loss) == (STEPS, pytest.approx(2.5))
        assert [step for step, _ in snap.history["loss"]] == list(range(1, STEPS + 1))  # none garbled
    finally:
        follower.close()


# Keras CSVLogger's file as committed (github.com/AhmedImtiazPrio/irfanet-10, training.log at
# dc07fd5): its header is the first line, where a UTF-8 BOM (Notepad, PowerShell 7) sits.
CSV_LOG = ("epoch,acc,loss,val_acc,val_loss\n"
           "0,0.853882631891,0.390387876078,0.83830814175,0.464145494528\n"
           "1,0.863875010585,0.364386106274,0.875312248613,0.387723388437\n")


def test_a_utf8_bom_does_not_hide_a_header_on_the_first_line(tmp_path: Path) -> None:
    log = tmp_path / "training.log"
    log.write_bytes(codecs.BOM_UTF8 + CSV_LOG.encode())
    snap = read_log(log)
    assert snap.loss == pytest.approx(0.364386106274)
    assert snap.metrics["val_loss"] == pytest.approx(0.387723388437)


# Ultralytics' table (github.com/ultralytics/ultralytics/issues/2023) run under `srun -l`, which
# labels every line with its task (`0: `): a row that starts with a number keeps its columns.
ULTRALYTICS = (
    "      Epoch    GPU_mem   box_loss   cls_loss   dfl_loss  Instances       Size\n"
    "    151/200      10.4G     0.4635     0.2344      0.805       1578        640: 100%|"
    "██████████| 99/99 [01:52<00:00,  1.14s/it]\n")


def test_srun_task_labels_on_every_line_are_not_read_as_figures(tmp_path: Path) -> None:
    log = tmp_path / "slurm-123.out"
    log.write_text("".join("0: " + line for line in ULTRALYTICS.splitlines(keepends=True)) * 3)
    snap = read_log(log)
    assert snap.metrics["box_loss"] == pytest.approx(0.4635)
    assert snap.epoch == pytest.approx(150, abs=1)


def test_a_script_printing_its_step_first_is_not_task_labelled(tmp_path: Path) -> None:
    # the shape `_LAUNCHER` in logtext.py keeps: each line's own step before the colon
    log = tmp_path / "train.log"
    log.write_text("".join(f"{step}: loss {3 - step / 1000:.3f}\n" for step in range(100, 900, 100)))
    assert read_log(log).step == 800


# Lightning's closing line (github.com/Lightning-AI/pytorch-lightning/issues/14428) copied from a
# web page: `&nbsp;` comes back as U+00A0, and a terminal copy leaves trailing blanks.
def test_no_break_spaces_and_trailing_blanks_read_as_plain_spaces(tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    log.write_text("step\u00a010 loss\u00a02.5   \n`Trainer.fit`\u00a0stopped:\u00a0`max_epochs=1`\u00a0reached.   \n")
    snap = read_log(log)
    assert (snap.step, snap.loss, snap.status) == (10, 2.5, "finished")


# Lines as real logs print them, pasted as a Markdown indented block (four spaces or a tab):
# YOLOv5's closing lines (corpus b18), Keras 3's early stop (b22), DCGAN's bracketed counter (b14),
# nerfstudio's table (b25, nerfstudio-project/nerfstudio), whose first column starts after the indent.
INDENTED = {
    "yolov5-end": ("      1/300      1.2G    0.04   0.02   0.01   12   640\n"
                   "300 epochs completed in 8.675 hours.\n", {"status": "finished"}),
    "keras-early-stop": ("Epoch 8/100\n1/1 ━━━━━━━━━━━━━━━━━━━━ 0s 167ms/step - loss: 48.5781\n"
                         "Epoch 8: early stopping\n"
                         "Restoring model weights from the end of the best epoch: 6.\n",
                         {"status": "finished"}),
    "dcgan-counter": ("[   32622 Epoch:[ 1/25] [12603/20018] time: 125602.7393, d_loss: 2.16344237,"
                      " g_loss: 0.18220791\n", {"step": 32622}),
    "nerfstudio-table": ("Step (% Done)       Train Iter (time)    ETA (time)           Train Rays / Sec\n"
                         "3790 (1.26%)        31.544 ms            2 h, 35 m, 43 s      1.02 K\n"
                         "3800 (1.27%)        31.634 ms            2 h, 36 m, 9 s       1.01 K\n",
                         {"step": 3800}),
}


@pytest.mark.parametrize("indent", ["    ", "\t"], ids=["spaces", "tab"])
@pytest.mark.parametrize("case", INDENTED)
def test_an_indented_paste_reads_as_the_log_itself(tmp_path: Path, case: str, indent: str) -> None:
    text, expected = INDENTED[case]
    log = tmp_path / "train.log"
    log.write_text("".join(indent + line for line in text.splitlines(keepends=True)))
    snap = read_log(log)
    assert {key: getattr(snap, key) for key in expected} == expected


def test_a_tab_after_a_separator_reads_as_its_space(tmp_path: Path) -> None:
    # Unsloth's bar with the step and loss glued after it (corpus b24, unslothai/unsloth#1169)
    log = tmp_path / "train.log"
    log.write_text("  2%|▏         | 12/600 [01:54<1:28:28,  9.03s/it]11,\t4.3969\n")
    assert read_log(log).loss == pytest.approx(4.3969)


@pytest.mark.parametrize("mark", ["> ", "# ", "// ", "+", "> +"])
def test_a_paste_kept_in_a_quote_reads_as_the_log_itself(tmp_path: Path, mark: str) -> None:
    # a Markdown quote (`> `, a blank line a bare `>`), shell comments, or a diff's added lines (a log
    # committed in a pull request, corpus b32), also kept in a quote, around Ultralytics' table
    log = tmp_path / "issue.md"
    quoted = "".join(mark + line for line in ULTRALYTICS.splitlines(keepends=True))
    log.write_text(quoted + mark.rstrip() + "\n" + quoted)
    assert read_log(log).metrics["box_loss"] == pytest.approx(0.4635)


@pytest.mark.parametrize(("name", "text"), [
    # a short diff-marked paste (corpus b32's Keras log in a PR) inside `<details>` and a fence: the
    # wrapping lines are not the log's, so they do not dilute the share of lines that carry the `+`
    ("issue.md", "<details><summary>full log</summary>\n\n```\n+Epoch 2/2\n"
     "+768/768 [==============================] - 0s - loss: 0.5416 - acc: 0.7331\n```\n</details>\n"),
    # `git diff --color` prints each added line as `ESC[32m+...ESC[m`: the colour comes before the `+`
    ("pr.diff", "\x1b[32m+Epoch 2/2\x1b[m\n"
     "\x1b[32m+768/768 [==============================] - 0s - loss: 0.5416 - acc: 0.7331\x1b[m\n"),
], ids=["fence-and-details", "colour"])
def test_a_diff_marked_paste_keeps_its_mark(tmp_path: Path, name: str, text: str) -> None:
    log = tmp_path / name
    log.write_text(text)
    snap = read_log(log)
    assert (snap.epoch, snap.loss) == (2.0, 0.5416)


def test_a_step_only_another_rank_prints_moves_the_run_on(tmp_path: Path) -> None:
    """torchtitan's run_train.sh filters ranks (`--local-ranks-filter ${LOG_RANK}`): a log that
    kept every rank's step 1, then only rank 2's step 10, is at step 10 with rank 2's figures;
    another rank's copy of a step rank 0 printed, or its own evaluation bar, moves nothing."""
    titan = "[titan] 2025-10-15 10:37:01,390 - root - INFO - "
    lines = [f"[rank{r}]:{titan}step:  1  loss: 12.2465  grad_norm:  4.5253  memory: 33.21GiB(34.95%)  tps: 8{r}"
             for r in (3, 0, 1, 2)]
    lines.append(f"[rank2]:{titan}step: 10  loss: 10.2391  grad_norm: 16.1413  memory: 44.84GiB(47.19%)  tps: 5,615")
    lines.append(f"[rank1]:{titan}step: 10  loss: 10.9  grad_norm: 9.0  memory: 44.84GiB(47.19%)  tps: 5,000")
    lines.append("[rank1]:Evaluating: 100%|##########| 500/500 [00:10<00:00, 50.0it/s]")
    lines.append("```")  # the paste's closing fence, no rank's line
    log = tmp_path / "titan.log"
    log.write_text("\n".join(lines) + "\n")
    snap = read_log(log)
    assert (snap.step, snap.loss, snap.grad_norm) == (10, 10.2391, 16.1413)
    assert snap.metrics["tokens_per_s_per_device"] == 5615


def test_a_log_only_a_later_rank_prints_reads_that_rank(tmp_path: Path) -> None:
    """Megatron prints its iteration line from the last rank (`print_rank_last`), so a torchrun
    log of 8 GPUs carries `[default7]:` on every progress line; a wrapped rest has no prefix."""
    log = tmp_path / "megatron.log"
    log.write_text("".join(
        f"[default7]: iteration {i:7d}/ 115311 | consumed samples: {i * 2048:11d} | learning\n"
        f" rate: 4.475E-05 | global batch size: 2048 | lm loss: {2.1 + i / 1e6:.6E} | grad norm: 0.127 |\n"
        for i in range(42780, 42785)))
    snap = read_log(log)
    assert (snap.step, snap.total_steps, snap.lr) == (42784, 115311, 4.475e-05)
    assert snap.loss == pytest.approx(2.142784)
