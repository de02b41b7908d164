"""What a log printed that the reader did not map to the figures a user looks for, so a blank
field is reported ("no loss read") rather than trusted."""

from __future__ import annotations

import re
from collections.abc import Mapping

from sessiontui.collectors.trainlog.vocabulary import LEXICON, canonical

_LOSS_HINTS = ("loss", "xent", "nll", "entropy", "ppl", "perplexity")
_ACC_HINTS = ("acc", "accept")
# A per-position accuracy under any spelling (`acc_0`, SpecForge-style `pacc_0`, `top1_acc_2`,
# `train/acc_1`) or an acceptance figure: the log is a speculative-decoding draft's training.
_POSITION_ACC = re.compile(r"(?:eval_|val_)?[\w/]*acc\w*_\d+|.*accept.*")
_PHASE = re.compile(r"^(?:val|eval|test)_")
MAX_KEYS = 3  # unread keys named in one note


def unread_notes(metrics: Mapping[str, float], loss: float | None, acc: tuple[float, ...],
                 fmt: str | None) -> list[str]:
    """One line per figure the log printed but the reader did not map, naming up to three of
    the keys it printed instead: `no loss read (box_loss, cls_loss, dfl_loss printed)`."""
    notes = []
    if loss is None and metrics:
        keys = _keys(metrics, _LOSS_HINTS) or _keys(metrics, ())
        notes.append(f"no loss read ({', '.join(keys)} printed)" if keys else "no loss read")
    speculative = (fmt or "").startswith("specforge") or any(
        _POSITION_ACC.fullmatch(key) for key in metrics)
    if not acc and speculative:
        keys = _keys(metrics, _ACC_HINTS)
        notes.append("no acceptance rates read" + (f" ({', '.join(keys)} printed)" if keys else ""))
    return notes


def _keys(metrics: Mapping[str, float], hints: tuple[str, ...]) -> list[str]:
    """Up to three printed keys the reader did not map (not `lr`, not `eval_loss`), containing one
    of the hints (any such keys when there are none)."""
    return [key for key in metrics if not _mapped(key)
            and (not hints or any(hint in key for hint in hints))][:MAX_KEYS]


def _mapped(key: str) -> bool:
    """Whether the reader took a printed key for a figure it knows (`learning_rate` is the rate,
    `eval_loss` the evaluation's loss): such a key is read, never named as unread."""
    return _PHASE.sub("", canonical(key)) in LEXICON
