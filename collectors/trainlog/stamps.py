"""The timestamps a log prints (`2026-01-02 03:04:05,678`, ISO 8601), to date the run it records."""

from __future__ import annotations

import re
from datetime import datetime

_STAMP = re.compile(
    r"(?<!\d)(\d{4}-\d\d-\d\d)[T ](\d\d:\d\d:\d\d)(?:[.,](\d{1,6}))?(Z|[+-]\d\d:?\d\d)?(?!\d)"
)


def first_timestamp(text: str) -> float | None:
    """The unix time of the first timestamp in the text (naive ones are local time), or None."""
    for found in _STAMP.finditer(text):
        date, clock, fraction, zone = found.groups()
        iso = f"{date}T{clock}" + (f".{fraction}" if fraction else "")
        if zone:
            iso += "+00:00" if zone == "Z" else zone
        try:
            return datetime.fromisoformat(iso).timestamp()
        except ValueError:
            continue
    return None
