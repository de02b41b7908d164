"""Record splitting: both terminators, incomplete tails, redraw collapsing, prefix stripping."""

from __future__ import annotations

import pytest

from sessiontui.collectors.logtext import clean, rank_of
from sessiontui.collectors.trainlog.lines import MAX_RECORD_BYTES, LineBuffer, collapse_redraws


def test_half_written_record_waits_for_its_terminator() -> None:
    buffer = LineBuffer()
    assert buffer.feed(b"step=1 loss=2.5\nstep=2 lo") == b"step=1 loss=2.5\n"
    assert buffer.pending == len(b"step=2 lo")
    assert buffer.feed(b"ss=2.") == b""
    assert buffer.feed(b"4\n") == b"step=2 loss=2.4\n"
    assert buffer.pending == 0


def test_carriage_return_ends_a_record_too() -> None:
    buffer = LineBuffer()
    assert buffer.feed(b"\r 10%|#| 1/10\r 20%|##| 2/1") == b"\r 10%|#| 1/10\r"
    assert buffer.flush() == b" 20%|##| 2/1"


def test_a_runaway_record_is_capped() -> None:
    buffer = LineBuffer()
    buffer.feed(b"x" * (MAX_RECORD_BYTES + 10))
    buffer.feed(b"y" * 10)
    assert buffer.pending == MAX_RECORD_BYTES


def test_redraws_collapse_to_the_last_segment_of_each_line() -> None:
    block = b"\rbar 1\rbar 2\rbar 3 Eval glued\nplain\r\n\rbar 4\r"
    text, seen = collapse_redraws(block, keep_every=1 << 30, seen=1)
    assert text.split(b"\n") == [b"bar 3 Eval glued", b"plain", b"bar 4"]
    assert seen > 1  # redraws were counted for sampling


def test_every_kth_redraw_is_kept_for_history() -> None:
    block = b"".join(b"\rbar %d" % i for i in range(10)) + b"\n"
    text, _ = collapse_redraws(block, keep_every=3, seen=0)
    lines = text.split(b"\n")
    assert lines[-2] == b"bar 9"  # the final redraw, always
    assert 2 <= len(lines[:-2]) <= 4 and set(lines[:-2]) < {b"bar %d" % i for i in range(9)}


def test_tqdm_write_keeps_the_bar_that_dates_the_message() -> None:
    # tqdm.write on a file: `\r` + spaces + `\r` before the message, the bar redrawn after.
    block = (b"\r 40%|####| 4/10 [00:04<00:06]\r 50%|#####| 5/10 [00:05<00:05]\r" + b" " * 40
             + b"\r{'loss': 1.0}\n\r 60%|######| 6/10 [00:06<00:04]\r")
    text, _ = collapse_redraws(block, keep_every=1 << 30, seen=1)
    assert text.split(b"\n") == [b" 50%|#####| 5/10 [00:05<00:05]", b"{'loss': 1.0}",
                                  b" 60%|######| 6/10 [00:06<00:04]"]


def test_a_bar_line_superseded_by_a_later_bar_keeps_only_its_glued_text() -> None:
    block = (b"\rA:  10%|#| 1/10 [00:01<00:09]\rA:  20%|##| 2/10 [00:02<00:08]Eval glued\n"
             b"other\n\rA:  30%|###| 3/10 [00:03<00:07]\rA: 100%|###| 10/10 [00:10<00:00]\n"
             b"\rA:  40%|####| 4/10 [00:04<00:06]\n")
    text, _ = collapse_redraws(block, keep_every=1 << 30, seen=1)
    assert text.split(b"\n") == [b"Eval glued", b"other", b"A: 100%|###| 10/10 [00:10<00:00]",
                                  b"A:  40%|####| 4/10 [00:04<00:06]", b""]


@pytest.mark.parametrize(
    ("raw", "payload"),
    [
        ("[default0]:step 10: {'loss': 1.0}", "step 10: {'loss': 1.0}"),
        ("[rank3]: Traceback (most recent call last):", "Traceback (most recent call last):"),
        ("[1745] loss=2.5", "loss=2.5"),
        ("2026-01-02 03:04:05,678 INFO loss=2.5", "loss=2.5"),
        ("[2026-01-02 03:04:05] iteration 5/ 10 |", "iteration 5/ 10 |"),
        ("\x1b[32mINFO:root:\x1b[0mstep=3", "step=3"),
        ("[rank1]:[E1102 14:03:27.419529455 ProcessGroupNCCL.cpp:607] [Rank 1] Watchdog",
         "[Rank 1] Watchdog"),
        ("Eval - Step 5 [6/9], position 0,  Acc: 0.7", "Eval - Step 5 [6/9], position 0,  Acc: 0.7"),
    ],
)
def test_prefixes_and_ansi_codes_are_stripped(raw: str, payload: str) -> None:
    assert clean(raw) == payload


def test_rank_of_prefixed_lines() -> None:
    assert rank_of("[default1]:step 1") == 1
    assert rank_of("[rank0]: x") == 0
    assert rank_of("step 1") is None


def test_a_record_the_bar_redrew_over_is_kept_when_redraws_are_sampled() -> None:
    """TRL's GRPO run (corpus b35) printed its last `{'loss': ...}` without a newline, then tqdm
    redrew its bar over the same line with `\\r`: the record is kept whichever redraws are."""
    bars = b"".join(f"\r 99%|#########9| {step}/1875 [38:31:43<15:34, 62.31s/it]".encode() for step in range(1860, 1875))
    block = b"{'loss': 0.0215, 'epoch': 0.99}" + bars + b"\n"
    for seen in range(4):
        text, _ = collapse_redraws(block, keep_every=5, seen=seen)
        assert text.count(b"{'loss': 0.0215, 'epoch': 0.99}") == 1
        assert text.rstrip().endswith(b"1874/1875 [38:31:43<15:34, 62.31s/it]")
