"""Formats a user declares in `[[formats]]` (sessiontui.toml): a line pattern with named fields,
for the long tail of tools no recogniser knows. Declared formats are tried before the built-in
recognisers, so a declaration always wins for the lines it matches."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from sessiontui.collectors.trainlog.generic import value_in_units
from sessiontui.collectors.trainlog.readings import Reading, add_metric

_FIELD = re.compile(r"\{(\w+)\}")
_NUMBER = r"[-+]?(?:\d[\d,]*\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?|nan|inf)"
_UNIT = r"(?:%|[KMGT]i?B|[kKMGT]\b|ms|us|s|[A-Za-z]{1,12}/s)?"
POSITION_FIELDS = ("step", "total", "epoch")
HEADLINE_FIELD = "value"  # a benchmark's headline figure (its unit in `unit`)
MAX_FORMATS = 64


@dataclass(frozen=True, slots=True)
class DeclaredFormat:
    """One `[[formats]]` table: a name, the compiled pattern and the unit of its headline."""

    name: str
    pattern: re.Pattern[str]
    fields: tuple[str, ...]
    unit: str | None = None


def compile_pattern(pattern: str) -> tuple[re.Pattern[str], tuple[str, ...]]:
    """`Iter {step}: loss {loss}` as a regex: each `{field}` a number (with an optional unit),
    the text between literal, any run of spaces matching any run of spaces."""
    parts, fields, at = [], [], 0
    for match in _FIELD.finditer(pattern):
        parts.append(_literal(pattern[at:match.start()]))
        name = match[1]
        if name in fields:
            raise ValueError(f"field {{{name}}} appears twice")
        fields.append(name)
        parts.append(rf"(?P<{name}>{_NUMBER})\s?(?P<{name}__unit>{_UNIT})")
        at = match.end()
    parts.append(_literal(pattern[at:]))
    if not fields:
        raise ValueError("no {field} in the pattern")
    return re.compile("".join(parts)), tuple(fields)


def _literal(text: str) -> str:
    """Pattern text between fields, matched literally with flexible spaces."""
    return r"\s+".join(re.escape(word) for word in text.split(" ")) if text.strip() else (
        r"\s*" if text else "")


def parse_formats(tables: list[dict]) -> tuple[list[DeclaredFormat], list[str]]:
    """The declared formats of a config, and one problem line for each table that is unusable."""
    formats: list[DeclaredFormat] = []
    problems: list[str] = []
    for index, table in enumerate(tables[:MAX_FORMATS]):
        name = str(table.get("name") or f"format {index + 1}")
        pattern = table.get("pattern")
        if not isinstance(pattern, str) or not pattern.strip():
            problems.append(f"[[formats]] {name}: needs a pattern, e.g. \"Iter {{step}}: loss {{loss}}\"")
            continue
        try:
            compiled, fields = compile_pattern(pattern)
        except (ValueError, re.error) as exc:
            problems.append(f"[[formats]] {name}: {exc}")
            continue
        unit = table.get("unit")
        formats.append(DeclaredFormat(name, compiled, fields, unit if isinstance(unit, str) else None))
    return formats, problems


def declared_reading(formats: list[DeclaredFormat], text: str) -> tuple[str, Reading] | None:
    """(the format's name, what it reads) for the first declared format matching the line."""
    for declared in formats:
        match = declared.pattern.search(text)
        if match is not None:
            reading = _reading(declared, match)
            if reading is not None:
                return declared.name, reading
    return None


def _reading(declared: DeclaredFormat, match: re.Match[str]) -> Reading | None:
    """The reading of one match: position fields lifted out, the rest metrics (named as the
    user named them, through the vocabulary)."""
    reading = Reading(f"declared:{declared.name}")
    for name in declared.fields:
        value = value_in_units(match[name].replace(",", ""), match[f"{name}__unit"], name)
        if value is None or (name in ("step", "total") and not math.isfinite(value)):
            continue
        if name == "step":
            reading.step = int(value)
        elif name == "total":
            reading.total = int(value)
        elif name == "epoch":
            reading.epoch = value
        else:
            add_metric(reading.metrics, name, value)
    return reading


_ACTIVE: list[DeclaredFormat] = []


def use_formats(formats: list[DeclaredFormat]) -> None:
    """Make these the formats every log reader created from now on tries first."""
    _ACTIVE[:] = formats


def active_formats() -> list[DeclaredFormat]:
    """The formats declared by the loaded config (empty when none)."""
    return list(_ACTIVE)
