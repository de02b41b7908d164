"""Short number formats shared by the panes; None always reads as a dash.

The formatters themselves live in `project_memory.humanize`, so answers write figures the
same way as the panes.
"""

from __future__ import annotations

from sessiontui.project_memory.humanize import DASH, duration, percent, rate, ratio, significant

__all__ = ["DASH", "compact", "duration", "gib", "num", "percent", "rate", "ratio", "significant"]


def num(value: float | None, digits: int = 2) -> str:
    """A float with fixed digits, or a dash when unknown."""
    if value is None:
        return DASH
    if value != value:  # nan
        return "nan"
    return f"{value:.{digits}f}"


def compact(value: float | None) -> str:
    """A loss, lr, grad norm or chart bound: three significant figures, zeros kept."""
    return significant(value, 3)


def gib(mib: float | None) -> str:
    """MiB shown as GiB with one decimal."""
    return DASH if mib is None else f"{mib / 1024:.1f}"
