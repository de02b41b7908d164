"""Results of tools no recogniser knows: labelled `name: number unit` lines read through one
vocabulary of headline figures, so a tool never seen still reads.

A line is cut into labelled values: `label: 12.3 unit` (also `label = 12.3`, `label 12.3` in a
table row between `│`/`|` bars, several per line separated by commas, and a bare `12.3 unit`
that takes the line's words as its label). Each value is named from its label and unit words
(`eval rate` in tokens/s is the output rate, `prompt eval rate` the prompt rate, `RPS` the
request rate, `Output_tokens/min` an output rate per minute). A result is a run of such values
that holds a headline figure (an output, total or request rate, or an acceptance length); a
name printed again with another value starts the next result. Figures a tool prints as counts
are kept under their own names.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from sessiontui.collectors.bench_output.common import benchmark, slug
from sessiontui.collectors.logtext import clean
from sessiontui.project_memory.records import Record

FORMATS = ("generic", "generic.server_log")
ENGINE = None
_VALUE = re.compile(
    r"(?<![\w.])([-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][-+]?\d+)?)(?![\d/])"
    r"(?:\s*±\s*[\d.]+)?\s*([A-Za-zµ%/][\w/%µ().+ -]{0,30})?"
)
_BARS = re.compile(r"[│┃|]")
_RATE_UNIT = re.compile(
    r"(?<![A-Za-z])(?P<what>tok(?:en)?s?|t|req(?:uest)?s?|queries|q)\s*(?:/|per\s+)\s*"
    r"(?P<per>s|sec|secs|second|seconds|min|minute|minutes)\b", re.IGNORECASE)
_SHORT_RATES = {"rps": ("req", 1.0), "qps": ("req", 1.0), "rpm": ("req", 60.0),
                "tps": ("tok", 1.0), "tpm": ("tok", 60.0)}
_TOTAL = re.compile(r"\btotal\b|prompt\s*\+\s*completion|input\s*\+\s*output|\btokens/min\b", re.I)
_PROMPT = re.compile(r"prompt|prefill|\binput\b|\bpp\d*\b|encode", re.IGNORECASE)
_PER_USER = re.compile(r"per[ _]user|per[ _]request|/user\b", re.IGNORECASE)
_PEAK = re.compile(r"\bpeak\b|\bmax(?:imum)?\b|(?<!/)\bmin(?:imum)?\b|\bp\d+\b|\bstd\b", re.I)
_SETTING = re.compile(r"issue|target|configured|request[ _]rate|traffic|burst", re.IGNORECASE)
_ACCEPT_LENGTH = re.compile(r"accept(?:ance|ed)?[ _]*(?:len(?:gth)?|tokens per step)|acc_length"
                            r"|\btau\b", re.IGNORECASE)
_ACCEPT_RATE = re.compile(r"accept(?:ance)?[ _]rate", re.IGNORECASE)
_CONCURRENCY = re.compile(r"concurren|\bparallel\b|num_clients|\bclients\b", re.IGNORECASE)
_OUTSIDE_PARENS_COMMA = re.compile(r",(?![^()]*\))")
_STAT_LIST = re.compile(r"\(((?:min|max|ave|avg|mean|median|p?\d+)(?:,\s*(?:min|max|ave|avg|mean|median|p?\d+))+)\)",
                        re.IGNORECASE)
# Lines not read: commands (their flags are settings, not results) and JSON, which its tool's
# own recogniser reads whole (a cut JSON line is no result).
_SKIPPED = re.compile(r"(?:^|\s)--[a-z]|^Namespace\(|^\$ |^python|^\[?\{?\s*\"", re.IGNORECASE)
_TRAINING = re.compile(r"\bloss\b|\bepoch\b|\blr\b|learning[ _]rate|\bgrad", re.IGNORECASE)
_COMMAND_CONCURRENCY = re.compile(
    r"--(?:max[-_])?concurrency[= ]+(\d+)|--parallel[= ]+(\d+)|--num[-_]parallel[= ]+(\d+)")
_COMMAND_RATE = re.compile(r"--request[-_]rate[= ]+([\d.]+)")
_LATENCY = (
    (re.compile(r"time to first token|\bttft\b|first[ _]token[ _]latency", re.I), "ttft"),
    (re.compile(r"time to second token|\bttst\b", re.I), "ttst"),
    (re.compile(r"time per output token|\btpot\b|per[- ]token latency", re.I), "tpot"),
    (re.compile(r"inter[- ]token latency|\bitl\b", re.I), "itl"),
    (re.compile(r"request latency|e2e|end[- ]to[- ]end|total latency", re.I), "e2e"),
)
_STATS = (("median", "median"), ("p50", "p50"), ("p90", "p90"), ("p95", "p95"), ("p99", "p99"),
          ("max", "max"), ("min", "min"), ("std", "std"), ("avg", "mean"), ("mean", "mean"),
          ("average", "mean"))
HEADLINES = ("output_tok_s", "throughput_tok_s", "total_tok_s", "request_throughput",
             "accept_length")
_LOGGED = re.compile(r"\b(?:INFO|WARN(?:ING)?|DEBUG|ERROR)\b[^\n]{0,40}\d\d:\d\d:\d\d"
                     r"|^\[?\d{4}-\d\d-\d\d[ T]\d\d:\d\d")
MIN_PERIODIC = 5  # single-line results with the same names: a periodic log line, summarised


@dataclass
class _Reading:
    """One labelled value of a line, named."""

    name: str
    value: float
    line: int
    logged: bool = False  # printed behind a logger prefix: a server's periodic log line


@dataclass
class _Result:
    """Consecutive readings that form one result, first line to last."""

    readings: dict[str, float] = field(default_factory=dict)
    first: int = 0
    last: int = 0
    logged: bool = True
    summary: bool = False  # the median of a periodic log line's results

    def add(self, reading: _Reading) -> None:
        if not self.readings:
            self.first = reading.line
        self.readings.setdefault(reading.name, reading.value)
        self.last = reading.line
        self.logged = self.logged and reading.logged


def _rate(text: str) -> tuple[str, float] | None:
    """(`tok` or `req`, seconds per unit of time) of a rate spelled in `text`, or None."""
    match = _RATE_UNIT.search(text)
    if match:
        what = "req" if match["what"].lower().startswith(("r", "q")) else "tok"
        return what, 60.0 if match["per"].lower().startswith("min") else 1.0
    words = set(re.findall(r"[a-z]+", text.lower()))
    return next((rate for short, rate in _SHORT_RATES.items() if short in words), None)


def _latency_name(label: str, unit: str) -> tuple[str, float] | None:
    """(`ttft_ms_mean`-style name, factor to ms) of a latency statistic, or None."""
    quantity = next((name for pattern, name in _LATENCY if pattern.search(label)), None)
    if quantity is None:
        return None
    words = re.findall(r"[a-z0-9]+", label.lower())
    percentile = next((word for word in words if re.fullmatch(r"p\d+", word)), None)
    stat = percentile or next((name for word, name in _STATS if word in words), "mean")
    seconds = re.fullmatch(r"\(?s(?:ec(?:onds?)?)?\)?", unit.strip().lower()) or "(s)" in label
    return f"{quantity}_ms_{stat}", 1000.0 if seconds else 1.0


def name_of(label: str, unit: str, context: str = "") -> tuple[str, float]:
    """The figure name of a labelled value and the factor that brings it to the figure's unit;
    a rate its label leaves unqualified takes its kind from the line before it (`context`)."""
    both = f"{label} {unit}"
    if context and _rate(unit) and name_of(label, unit)[0] == "throughput_tok_s":
        both = f"{context} {both}"
    rate = _rate(unit) or _rate(label)
    if rate is not None:
        what, per = rate
        if what == "req" and _SETTING.search(label):
            return "request_rate", 1 / per  # the rate asked for, not the one measured
        if what == "req":
            return ("request_throughput" if not _PEAK.search(label) else slug(label)), 1 / per
        if _PER_USER.search(both):
            return "per_user_output_tok_s", 1 / per
        if _PEAK.search(label):
            return f"{slug(label)}_tok_s", 1 / per
        if _TOTAL.search(both):
            return "total_tok_s", 1 / per
        if _PROMPT.search(both):
            return "prompt_tok_s", 1 / per
        if re.search(r"output|eval|decod|generat|complet|\bgen\b|\btg\d*\b", both, re.I):
            return "output_tok_s", 1 / per
        return "throughput_tok_s", 1 / per
    if _ACCEPT_LENGTH.search(label):
        return "accept_length", 1.0
    if _ACCEPT_RATE.search(label):
        return "acceptance_rate", 0.01 if "%" in both else 1.0
    if _CONCURRENCY.search(label) and not re.search(r"peak|mean|avg", label, re.I):
        return "concurrency", 1.0
    latency = _latency_name(label, unit)
    if latency is not None:
        return latency
    return slug(label.split(":")[-1] or label), 1.0


def _segments(line: str) -> Iterator[tuple[str, str, str]]:
    """(label, number, unit) of each value a cleaned line prints, in order."""
    label = ""
    start = 0
    for match in _VALUE.finditer(line):
        if line.count("(", 0, match.start()) > line.count(")", 0, match.start()):
            continue  # a number inside a label's parentheses: `percentile(50, 75, 95, 99)`
        before = line[start : match.start()]
        if ":" in before or "=" in before or not label:
            head = [_OUTSIDE_PARENS_COMMA.split(part)[-1].strip(" ,;([{'\"")
                    for part in re.split(r"[:=]", before)]
            label = (head[-2] if len(head) > 1 and not head[-1] else head[-1]) or label
        unit = (match[2] or "").strip()
        yield label, match[1], unit
        start = match.end()


def _cells(line: str) -> Iterator[tuple[str, str, str]]:
    """(label, number, unit) of a table row: the first cell names it, the first number is it."""
    cells = [cell.strip() for cell in _BARS.split(line) if cell.strip()]
    if len(cells) < 2 or _VALUE.fullmatch(cells[0]):
        return
    number = _VALUE.match(cells[1])
    if number and number.end() == len(cells[1]):
        yield cells[0], number[1], number[2] or ""


def _named(label: str, values: list[tuple[str, str]], context: str) -> Iterator[tuple[str, float]]:
    """(name, value) of a label's values on one line: one per statistic when the label lists
    them (`latency(s)(min, max, ave): 0.6, 12.9, 4.4`), else the first value only."""
    stats = _STAT_LIST.search(label)
    listed = [word.strip() for word in stats[1].split(",")] if stats else []
    if len(listed) != len(values) or len(values) < 2:
        listed, values = [""], values[:1]
    base = label.replace(stats[0], " ") if stats and listed != [""] else label
    for stat, (raw_number, unit) in zip(listed, values, strict=True):
        word = {"ave": "avg"}.get(stat.lower(), stat.lower())
        word = f"p{word}" if word.isdigit() else word
        name, factor = name_of(f"{base} {word}" if word else label, unit, context)
        if name:
            yield name, float(raw_number.replace(",", "")) * factor


def readings(text: str) -> Iterator[_Reading]:
    """Every named value of the text, line by line (command lines and training lines skipped)."""
    for index, raw in enumerate(text.splitlines()):
        line = clean(raw).strip()
        logged = len(line) < len(raw.strip()) or bool(_LOGGED.search(raw))
        if not line or not any(c.isdigit() for c in line) or _TRAINING.search(line) or (
            _SKIPPED.search(line)
        ):
            continue
        found = list(_cells(line)) if _BARS.search(line[:3]) else list(_segments(line))
        by_label: dict[tuple[str, str], list[tuple[str, str]]] = {}
        for label, raw_number, unit in found:
            if label:
                by_label.setdefault((label, unit), []).append((raw_number, unit))
        for (label, _), values in by_label.items():
            for name, value in _named(label, values, line[: max(line.find(label), 0)]):
                yield _Reading(name, value, index, logged)


def _results(found: Iterable[_Reading]) -> list[_Result]:
    """Readings grouped into results: a name printed again with another value starts the next."""
    results = [_Result()]
    for reading in found:
        current = results[-1]
        seen = current.readings.get(reading.name)
        if seen is not None and abs(seen - reading.value) > 1e-3 * max(abs(seen), 1e-9):
            results.append(_Result())
        results[-1].add(reading)
    for result in results:
        result.readings = _derived(result.readings)
    return [result for result in results if _headline(result.readings)]


def _headline(readings: dict[str, float]) -> str | None:
    """The name of a result's headline figure, or None when it has none."""
    return next((name for name in HEADLINES if readings.get(name, 0) > 0), None)


def _summarised(results: list[_Result]) -> list[_Result]:
    """A periodic log line (logged results, or many one-line results, with the same names) as
    one result of their medians."""
    single = [r for r in results if r.first == r.last]
    periodic = [r for r in results if r.logged] or (single if len(single) >= MIN_PERIODIC else [])
    if not periodic or len({frozenset(r.readings) for r in periodic}) != 1:
        return results
    names = periodic[0].readings
    summary = _Result({name: statistics.median(r.readings[name] for r in periodic) for name in names},
                      periodic[0].first, periodic[-1].last, summary=True)
    summary.readings["log_lines"] = float(len(periodic))
    return [summary, *(r for r in results if r not in periodic)]


def _derived(readings: dict[str, float]) -> dict[str, float]:
    """Figures a result implies: vLLM V0's acceptance length from its emitted and draft counts,
    and which tokens an unqualified token rate counts, by the arithmetic of the printed totals."""
    emitted = readings.get("number_of_emitted_tokens")
    drafts = readings.get("number_of_draft_tokens")
    k = readings.get("number_of_speculative_tokens")
    if emitted and drafts and k and "accept_length" not in readings:
        readings["accept_length"] = emitted / (drafts / k)
    rate = readings.get("throughput_tok_s")
    duration = readings.get("total_latency") or readings.get("duration") or readings.get(
        "benchmark_duration_s")
    inputs, outputs = readings.get("total_input_tokens"), readings.get("total_output_tokens")
    if rate and duration and inputs and outputs and "output_tok_s" not in readings:
        if abs((inputs + outputs) / duration - rate) <= 1e-3 * rate:
            readings["total_tok_s"] = readings.pop("throughput_tok_s")
    elif rate and "request_throughput" in readings and readings.get("_same_line_requests"):
        readings["total_tok_s"] = readings.pop("throughput_tok_s")
    return readings


def _command_settings(text: str, end: int) -> dict[str, float]:
    """Concurrency and request rate given on a printed command line before offset `end`."""
    settings: dict[str, float] = {}
    for match in _COMMAND_CONCURRENCY.finditer(text, 0, end):
        settings["concurrency"] = float(next(group for group in match.groups() if group))
    for match in _COMMAND_RATE.finditer(text, 0, end):
        settings["request_rate"] = float(match[1])
    return settings


def _record(result: _Result, text: str, lines: list[str]) -> Record:
    """The benchmark record of one result."""
    readings = dict(result.readings)
    offset = sum(len(line) + 1 for line in lines[: result.first])
    for name, value in _command_settings(text, offset).items():
        readings.setdefault(name, value)
    headline = _headline(readings) or "output_tok_s"
    metric: dict[str, Any] = {}
    if headline == "throughput_tok_s":
        headline = "output_tok_s"
        readings["output_tok_s"] = readings.pop("throughput_tok_s")
    elif headline == "request_throughput":
        metric = {"metric": "request_throughput", "unit": "req/s"}
    elif headline == "accept_length":
        metric = {"metric": "accept_length", "unit": "tok/step"}
    elif headline == "total_tok_s":
        metric = {"metric": "total_tok_s", "unit": "tok/s"}
    value = readings.pop(headline)
    concurrency = readings.pop("concurrency", None)
    accept = readings.pop("accept_length", None) if headline != "accept_length" else value
    return benchmark(
        value,
        FORMATS[1] if result.summary else FORMATS[0],
        concurrency=int(concurrency) if concurrency and concurrency == int(concurrency) else None,
        accept_length=accept if accept and accept >= 1 else None,
        figures={name: v for name, v in readings.items() if not name.startswith("_")},
        **metric,
    )


def parse(text: str, problems: list[str]) -> list[Record]:
    """Every result of the labelled lines in the text (the fallback when no format knows it)."""
    found = list(readings(text))
    lines = text.splitlines()
    for reading in found:  # `Throughput: 81.74 requests/s, 20926.37 tokens/s`: the total
        if reading.name == "throughput_tok_s" and "requests/s" in lines[reading.line]:
            found.append(_Reading("_same_line_requests", 1.0, reading.line))
    found.sort(key=lambda r: r.line)
    return [_record(result, text, lines) for result in _summarised(_results(found))]
