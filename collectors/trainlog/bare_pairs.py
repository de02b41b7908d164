"""Logs whose progress lines are a bare step and its loss (`76930 2.6496577`, a print of the two and
nothing else): read once three of them rise by one stride, so a two-column table is not taken."""

from __future__ import annotations

import re

from sessiontui.collectors.trainlog.readings import Reading

# the count, then one figure with a decimal point or an exponent (a loss, never a second count), or nan/inf
_BARE_PAIR = re.compile(r"\s*(\d+)\s+([-+]?(?:\d*\.\d+(?:[eE][-+]?\d+)?|\d+[eE][-+]?\d+)|nan|inf)\s*",
                        re.IGNORECASE)
CONFIRMING_PAIRS = 3  # pairs rising by one stride before the shape is trusted


class BarePairs:
    """The bare `step loss` lines of one log: held back until three rise by one stride (a log
    printing every N steps), then read as the step and the loss, each later one at once."""

    def __init__(self) -> None:
        self._held: list[tuple[int, str]] = []  # the latest pairs, not yet trusted
        self._trusted = False

    def read(self, text: str) -> list[Reading]:
        """The readings a line gives as a bare pair: [] until the shape is trusted (then those held)."""
        match = _BARE_PAIR.fullmatch(text)
        if match is None:
            return []
        pair = (int(match[1]), match[2])
        if self._trusted:
            return [_reading(pair)]
        held = [*self._held, pair][-CONFIRMING_PAIRS:]
        strides = {after[0] - before[0] for before, after in zip(held, held[1:], strict=False)}
        if len(held) == CONFIRMING_PAIRS and len(strides) == 1 and min(strides) > 0:
            self._held, self._trusted = [], True
            return [_reading(each) for each in held]
        self._held = held[-2:] if len(held) > 1 and held[-1][0] > held[-2][0] else [pair]
        return []


def _reading(pair: tuple[int, str]) -> Reading:
    """A bare pair's reading: the step and the loss."""
    return Reading("key-value", {"loss": float(pair[1])}, step=pair[0])
