"""Short number formats shared by the panes; None always reads as a dash."""

from __future__ import annotations

from sessiontui.project_memory.humanize import DASH, duration

__all__ = ["DASH", "compact", "duration", "gib", "num"]


def num(value: float | None, digits: int = 2) -> str:
    """A float with fixed digits, or a dash when unknown."""
    if value is None:
        return DASH
    if value != value:  # nan
        return "nan"
    return f"{value:.{digits}f}"


def compact(value: float | None) -> str:
    """A float in at most ~6 characters (1.23e-04 style for tiny or huge values)."""
    if value is None:
        return DASH
    if value != value or value in (float("inf"), float("-inf")):
        return str(value)
    if value != 0 and (abs(value) < 1e-2 or abs(value) >= 1e5):
        return f"{value:.2e}"
    return f"{value:.4g}"


def gib(mib: float | None) -> str:
    """MiB shown as GiB with one decimal."""
    return DASH if mib is None else f"{mib / 1024:.1f}"
