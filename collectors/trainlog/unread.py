"""What a log printed that the reader did not map to the figures a user looks for, so a blank
field is reported ("no loss read") rather than trusted."""

from __future__ import annotations

import re
from collections.abc import Mapping

_LOSS_HINTS = ("loss", "xent", "nll", "entropy", "ppl", "perplexity")
_ACC_HINTS = ("acc", "accept")
_POSITION_ACC = re.compile(r"(?:eval_|val_)?acc_\d+|.*accept.*")
MAX_KEYS = 3  # unread keys named in one note


def unread_notes(metrics: Mapping[str, float], loss: float | None, acc: tuple[float, ...],
                 fmt: str | None) -> list[str]:
    """One line per figure the log printed but the reader did not map, naming up to three of
    the keys it printed instead: `no loss read (box_loss, cls_loss, dfl_loss printed)`."""
    notes = []
    if loss is None and metrics:
        keys = _keys(metrics, _LOSS_HINTS) or _keys(metrics, ())
        notes.append(f"no loss read ({', '.join(keys)} printed)")
    speculative = (fmt or "").startswith("specforge") or any(
        _POSITION_ACC.fullmatch(key) for key in metrics)
    if not acc and speculative:
        keys = _keys(metrics, _ACC_HINTS)
        notes.append("no acceptance rates read" + (f" ({', '.join(keys)} printed)" if keys else ""))
    return notes


def _keys(metrics: Mapping[str, float], hints: tuple[str, ...]) -> list[str]:
    """Up to three printed keys containing one of the hints (any keys when there are none)."""
    return [key for key in metrics if not hints or any(hint in key for hint in hints)][:MAX_KEYS]
