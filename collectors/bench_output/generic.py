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

import csv
import functools
import itertools
import json as json_module
import re
import statistics
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from sessiontui.collectors.bench_output.common import benchmark, json_objects, last_match, slug
from sessiontui.collectors.logtext import clean, is_progress_bar
from sessiontui.project_memory.records import Record

FORMATS = ("generic", "generic.server_log")
ENGINE = None
_VALUE = re.compile(  # not the size of an Ollama tag (`mistral:7b`), which names a model
    r"(?<![\w.])(?<![A-Za-z]-)(?!(?<=[A-Za-z\d]:)\d+(?:\.\d+)?[bBmM]\b)([-+]?(?:\d{1,3}(?:\.\d{3})+,\d+(?![\d.,])"  # `1.234,5`: German
    r"|\d{1,3}(?:,\d{3})+(?![\d,])|\d+,\d{1,2}(?!\d)|\d+)(?:\.\d+)?"
    r"(?:[eE][-+]?\d+)?)(?![\d/])(?!(?:st|nd|rd|th)\b)"  # `2nd token`: an ordinal names, not a value
    r"(\s*±\s*[\d.]+)?\s*([A-Za-zµ%/][A-Za-z_/%µ().+ -]{0,30})?"
)
_MEASURED_RATE = re.compile(r"token generation|prompt (?:evaluation|processing)|text generation",
                            re.IGNORECASE)
_DECIMAL_COMMA = re.compile(r"[-+]?\d+,\d{1,2}|[-+]?\d{1,3}(?:\.\d{3})+,\d+")
_BARS = re.compile(r"[│┃|]")
_BAR_CHARS = ("│", "┃", "|")
_RATE_UNIT = re.compile(
    r"(?<![A-Za-z])(?P<what>tok(?:en)?s?|t|req(?:uest)?s?|queries|q|infer(?:ence)?s?)"
    r"\s*(?:/|[\s-]*per[\s-]+)\s*"
    r"(?P<per>s|sec|secs|second|seconds|min|minute|minutes)\b", re.IGNORECASE)
_SHORT_RATES = {"rps": ("req", 1.0), "qps": ("req", 1.0), "rpm": ("req", 60.0),
                "tps": ("tok", 1.0), "tpm": ("tok", 60.0)}
# llama-bench's test names (`pp512`, `tg128`) as column names: tokens per second, always
_TEST_NAME = re.compile(r"(?:pp|tg)\s*\d+", re.IGNORECASE)
_PER_TIME = re.compile(r"(?:\bper[\s-]+|/)(sec|secs|second|seconds|s|min|minute|minutes)\b", re.I)
_THROUGHPUT = re.compile(r"\bthroughput\b|\bspeed\b", re.IGNORECASE)
_CAMEL_HUMP = re.compile(r"(?<=[a-z])(?=[A-Z][a-z])")
_TOTAL = re.compile(r"\btot(?:al)?\b|prompt\s*\+\s*completion|input\s*\+\s*output|^\s*tokens/min\b", re.I)
_PROMPT = re.compile(r"prompt|prefill|\binput\b|\bpp\d*\b|encode|\bprocess", re.IGNORECASE)
_PER_USER = re.compile(r"per[ _-](?:user|req(?:uest)?)\b|/user\b|\buser\b", re.IGNORECASE)
_PEAK = re.compile(r"\bpeak\b|\bmax(?:imum)?\b|(?<!/)\bmin(?:imum)?\b|\bp\d+\b|\bstd\b", re.I)
_AUXILIARY = re.compile(r"sampl|\bload|tokeniz", re.IGNORECASE)  # rates of steps, not of the model
_SETTING = re.compile(  # `Profile: constant @ 5.0 RPS` is the load asked for
    r"issue|target|configured|request[ _]rate|traffic|burst|@\s*$|\bprofile\b", re.IGNORECASE
)
_ACCEPT_LENGTH = re.compile(r"\bacc(?:e?pt(?:ance|ed)?)?[ _.]*(?:len(?:gth)?\b|tokens per step)"
                            r"|\btau\b|\ba\.\s*len\b", re.IGNORECASE)  # ik_llama.cpp's `a.len`
_POSITION_NAME = re.compile(r"accept_pos_\d+")  # a table cell's per-position rate, named by _table_row
_ACCEPT_RATE = re.compile(r"accept(?:ance)?[ _]rate", re.IGNORECASE)
_CONCURRENCY = re.compile(r"concurren|\bconcur\b|\bconc\b|\bparallel\b|num_clients|\bclients\b",
                          re.IGNORECASE)
_LATER_TOKENS = re.compile(r"\b2nd\b|\bsecond tokens?\b", re.IGNORECASE)  # OpenVINO: tokens after the first
_BATCH_LABEL = re.compile(r"bs|batch|batch[ _-]?size", re.IGNORECASE)  # a `bs` column is the batch size
_MEAN_LATENCY = re.compile(r"(?:avg|average|mean)[ _]latency(?:\s*\(s\))?", re.IGNORECASE)
_OUTSIDE_PARENS_COMMA = re.compile(r",(?![^()]*\))")
_STAT_LIST = re.compile(r"\(((?:min|max|ave|avg|mean|median|p?\d+)(?:,\s*(?:min|max|ave|avg|mean|median|p?\d+))+)\)",
                        re.IGNORECASE)
# Lines not read: commands (their flags are settings, not results) and one-line JSON objects,
# which their tool's recogniser reads whole (a cut one is no result).
_SKIPPED = re.compile(r"(?:^|\s)--[a-z]|^Namespace\(|^\$ |^python|^\[?\{\s*\"|^<[a-z!/][^>]*>.*>$",  # markup
                      re.IGNORECASE)
_JSON_PAIR = re.compile(r'^\s*"([^"]+)"\s*:\s*(\{|\[|"[^"]*"|[-+\d.eE]+),?\s*$')
_JSON_BRACES = frozenset({"{", "}", "[", "]"})
_STAT_KEYS = frozenset({"avg", "mean", "min", "max", "std", "median", "value", "p25", "p50", "p75",
                        "p90", "p95", "p99", "p1", "p5", "p10"})
_KEY_COLUMNS = frozenset({"metric", "metrics", "key", "statistic", "name", "parameter", "field"})
# `|---|`, `| - | - |`, and the rules of box-drawn and grid tables (`┡━━╇━━┩`, `+====+====+`)
_TABLE_RULE = re.compile(r"^[|│]?\s*:?-{3,}|^[|│]?\s*:?-+:?\s*[|│]|^[┡├╞┝┠╟+]?[━─═=]{3,}[━─═=╇┼╪┿╂+-]*"
                         r"|^\+-{3,}[-+]*$")  # an ASCII grid's `+----+----+` (mistralrs-bench, prettytable)
_TRAINING = re.compile(r"\bloss\b|\bepoch\b|\blr\b|learning[ _]rate|\bgrad", re.IGNORECASE)
_COMMAND_CONCURRENCY = re.compile(
    r"--(?:max[-_])?concurrency[= ]+(\d+)|--parallel[= ]+(\d+)|--num[-_]parallel[= ]+(\d+)"
    r"|--num[-_]concurrent[-_]requests[= ]+(\d+)")  # llmperf
_COMMAND_RATE = re.compile(r"--request[-_]rate[= ]+(inf|[\d.]+)")  # inf: no rate set
_LATENCY = (
    (re.compile(r"time to first token|(?<![a-z])ttft(?![a-z])|first[ _]token[ _]latency", re.I), "ttft"),
    (re.compile(r"time to second token|\bttst\b", re.I), "ttst"),
    (re.compile(r"time per output token|(?<![a-z])tpot(?![a-z])|per[- ]token latency", re.I), "tpot"),
    (re.compile(r"inter[- ]token latency|(?<![a-z])itl(?![a-z])", re.I), "itl"),
    (re.compile(r"request latency|e2e|end[- ]to[- ]end|total latency", re.I), "e2e"),
)
_LATENCY_WORD = re.compile(r"^(?:\w+ )?latency \((?:ms|s|sec)\)$", re.IGNORECASE)
_TIME_UNIT = {"ms": 1e-3, "msec": 1e-3, "s": 1.0, "sec": 1.0, "secs": 1.0, "seconds": 1.0}
_IN_SECONDS = {"ms": 1e-3, "msec": 1e-3, "us": 1e-6, "usec": 1e-6, "µs": 1e-6}  # perf_analyzer: usec
_STATS = (("median", "median"), ("p50", "p50"), ("p90", "p90"), ("p95", "p95"), ("p99", "p99"),
          ("max", "max"), ("min", "min"), ("std", "std"), ("sd", "std"), ("avg", "mean"), ("mean", "mean"),
          ("average", "mean"))
HEADLINES = ("output_tok_s", "throughput_tok_s", "total_tok_s", "request_throughput",
             "accept_length", "latency_s")
PROMPT_ONLY = (*HEADLINES, "prompt_tok_s")  # an output that measured prompt processing alone
# Dates and clock times are when, never what was measured (`INFO 09-16 05:26:`, a log line cut
# inside its prefix, read `9` as `info`; a later line's time would start another result).
_DATE_OR_TIME = re.compile(r"(?<![\w.])(?:\d{4}[-/]\d{1,2}[-/]\d{1,2}|\d{1,2}-\d{1,2}(?=[\sT]|$)"
                           r"|\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?)(?![\w.])")
_DURATIONS = ("total_latency", "duration", "benchmark_duration_s", "benchmark_time", "total_time",
              "elapsed_time", "benchmark_duration")
_INPUT_COUNTS = ("total_input_tokens", "number_of_prompt_tokens", "total_prompt_tokens")
_OUTPUT_COUNTS = ("total_output_tokens", "total_output_token", "total_generated_tokens",
                  "number_of_completion_tokens")
ECHO_TOLERANCE = 5e-5  # `RPM 609.550 req/min` echoes `RPS 10.159`; trials differ by more
# A heading that names a phase (`-----prefill-----`, `Decode:`) qualifies the bare labels under it
# (`throughput: 216.6 tok/s`), as does ExLlama's `-- Generating 128 tokens...`; any other heading
# or rule ends it.
_PHASE_HEADING = re.compile(r"^[-=#*\s]*(prefill|decode|prompt|generation|input|output|generating)"
                            r"(?:\s+\d+\s+tokens)?[-=#*:.\s]*$", re.IGNORECASE)
_HEADING = re.compile(r"^[-=#*]{3,}")
_STAT_HEADING = re.compile(r"^([A-Za-z][^:]*?)\s*:$")  # a name whose statistics follow
_PHASE_CELL = re.compile(r"(prefill|decode|prompt|generation)\b", re.IGNORECASE)
_SETTING_LABEL = re.compile(r"batch|concurren|\bconc\b|\bbs\b", re.IGNORECASE)  # keys, not phase figures
_SETTINGS = ("batch_size", "concurrency")
_BAR_POSITION = re.compile(r"(\d+)/(\d+) \[")
_AVERAGE_LINE = re.compile(r"\s*(?:averages?|mean|median|overall|summary)\b", re.IGNORECASE)


@dataclass(slots=True)
class _Reading:
    """One labelled value of a line, named."""

    name: str
    value: float
    line: int
    logged: bool = False  # printed behind a logger prefix: a server's periodic log line


@dataclass(slots=True)
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
        what = "req" if match["what"].lower().startswith(("r", "q", "i")) else "tok"  # infer/sec
        return what, 60.0 if match["per"].lower().startswith("min") else 1.0
    if _TEST_NAME.fullmatch(text.strip()):
        return "tok", 1.0
    words = set(re.findall(r"[a-z]+", text.lower()))
    short = next((rate for short, rate in _SHORT_RATES.items() if short in words), None)
    return short or _counted_rate(text)


def _counted_rate(text: str) -> tuple[str, float] | None:
    """A rate whose unit leaves out what it counts, told by the label's nouns: `Request
    throughput (per sec)` (GenAI-Perf), or no unit at all, `Overall Output Throughput: 45.17`
    (llmperf), `GenerationSpeed` (koboldcpp's CSV), `decode_speed` (mllm's CSV): a throughput or
    speed of requests, else of tokens when the label names tokens, output, generation,
    processing, or is a decode or prefill speed."""
    per = _PER_TIME.search(text)
    if per is None and not _THROUGHPUT.search(text):
        return None
    if re.search(r"\breq(?:uest)?s?\b|\bquer(?:y|ies)\b", text, re.IGNORECASE):
        what = "req"
    elif re.search(r"\btok(?:en)?s?\b|\boutput\b|\bgenerat|\bprocessing\b|\b(?:decode|prefill) speed", text, re.I):
        what = "tok"
    else:
        return None
    return what, 60.0 if per is not None and per[1].lower().startswith("min") else 1.0


def _unit_word(unit: str) -> str:
    """The first word of a value's unit, lower case (`usec` of `usec (standard deviation`)."""
    return unit.strip().split(" ", 1)[0].lower()


def _latency_name(label: str, unit: str) -> tuple[str, float] | None:
    """(`ttft_ms_mean`-style name, factor to ms) of a latency statistic, or None."""
    quantity = next((name for pattern, name in _LATENCY if pattern.search(label)), None)
    if quantity is None:
        return None
    words = re.findall(r"[a-z0-9]+", label.lower())
    percentile = next((word for word in words if re.fullmatch(r"p\d+", word)), None)
    stat = percentile or next((name for word, name in _STATS if word in words), "mean")
    stat = "median" if stat == "p50" else stat  # one name for the 50th percentile, however printed
    seconds = re.fullmatch(r"\(?s(?:ec(?:onds?)?)?\)?", unit.strip().lower()) or "(s)" in label
    return f"{quantity}_ms_{stat}", 1000.0 if seconds else _IN_SECONDS.get(_unit_word(unit), 1e-3) * 1e3


def name_of(label: str, unit: str, context: str = "") -> tuple[str, float]:
    """The figure name of a labelled value and the factor that brings it to the figure's unit;
    a rate its label leaves unqualified takes its kind from the line before it (`context`)."""
    unqualified = bool(context) and _named_in(label, unit, "")[0] == "throughput_tok_s"
    name, factor = _named_in(label, unit, context if unqualified and _rate(unit) else "")
    if name in PROMPT_ONLY and _BASELINE.search(label.replace("_", " ")):
        return f"baseline_{name}", factor  # `base_avg_pred_t/s` beside `spec_avg_pred_t/s`
    return name, factor


@functools.lru_cache(maxsize=4096)  # a log prints the same labels on every line
def _named_in(label: str, unit: str, context: str) -> tuple[str, float]:
    """name_of for a label, its unit and the context its rate is qualified by ("" for none)."""
    label = _CAMEL_HUMP.sub(" ", label)  # koboldcpp's CSV `GenerationSpeed`: two words
    words = label.replace("_", " ")  # a rate's `total_token_throughput` reads as its words
    both = f"{context} {words} {unit}" if context else f"{words} {unit}"
    rate = _rate(unit) or _rate(words)
    if rate is not None:
        return _rate_name(words, both, rate)
    if position := _POSITION_NAME.fullmatch(label):
        return position[0], 0.01 if "%" in both else 1.0
    if _ACCEPT_LENGTH.search(label):
        return "accept_length", 1.0
    if _ACCEPT_RATE.search(label):
        return "acceptance_rate", 0.01 if "%" in both else 1.0
    if _CONCURRENCY.search(label) and not re.search(r"peak|mean|avg", label, re.I):
        return "concurrency", 1.0
    if _BATCH_LABEL.fullmatch(label.strip()):
        return "batch_size", 1.0
    if _MEAN_LATENCY.fullmatch(label.strip()):
        return "latency_s", _IN_SECONDS.get(_unit_word(unit), 1.0)
    latency = _latency_name(label, unit)
    if latency is not None:
        return latency
    if _LATENCY_WORD.search(label) and not _PEAK.search(label) and (scale := _TIME_UNIT.get(_unit_word(unit))):
        return "latency_s", scale  # `FT latency (ms)`: a run's latency, its only statistic
    return slug(label.split(":")[-1] or label), 1.0


def _rate_name(label: str, both: str, rate: tuple[str, float]) -> tuple[str, float]:
    """The figure name of a rate (`both`: its label, unit and context) and its factor to /s."""
    what, per = rate
    if what == "req" and _SETTING.search(label):
        return "request_rate", 1 / per  # the rate asked for, not the one measured
    if what == "req":
        return ("request_throughput" if not _PEAK.search(label) else slug(label)), 1 / per
    if _PER_USER.search(both):
        return "per_user_output_tok_s", 1 / per
    if _PEAK.search(label) or _AUXILIARY.search(label):
        return f"{slug(label)}_tok_s", 1 / per
    if _LATER_TOKENS.search(label):
        return "output_tok_s", 1 / per
    if _TOTAL.search(both):
        return "total_tok_s", 1 / per
    if _PROMPT.search(both):
        return "prompt_tok_s", 1 / per
    if re.search(r"output|\bout\b|eval|decod|generat|complet|\bgen\b|\btg\d*\b", both, re.I):
        return "output_tok_s", 1 / per
    return "throughput_tok_s", 1 / per


def _in_label_parentheses(line: str, at: int) -> bool:
    """Whether position `at` lies inside parentheses that end a label (`percentile(50, 99):`)."""
    if line.count("(", 0, at) <= line.count(")", 0, at):
        return False
    close = line.find(")", at)
    return close >= 0 and line[close + 1 :].lstrip()[:1] in (":", "(", "=")


def _open_parenthesis(line: str, at: int) -> int:
    """Where the parenthesis enclosing position `at` opens, or -1: a value in `(3.0ms/T =
    333.33T/s)` belongs to the label before the parenthesis (`Generate:`)."""
    depth, index = 0, at
    while (opened := line.rfind("(", 0, index)) >= 0:  # from one parenthesis to the one before
        closed = line.rfind(")", 0, index)
        if closed > opened:
            depth, index = depth + 1, closed
        elif depth == 0:
            return opened
        else:
            depth, index = depth - 1, opened
    return -1


def _segments(line: str) -> Iterator[tuple[str, str, str]]:
    """(label, number, unit) of each value a cleaned line prints, in order."""
    label = ""
    start = 0
    for match in _VALUE.finditer(line):
        if _in_label_parentheses(line, match.start()):
            continue
        opened = _open_parenthesis(line, match.start())
        before = line[start : max(opened, start)] if opened >= 0 else line[start : match.start()]
        if ":" in before or "=" in before or not label:
            head = [_OUTSIDE_PARENS_COMMA.split(part)[-1].strip(" ,;([{'\"")
                    for part in re.split(r"[:=]", before)]
            label = (head[-2] if len(head) > 1 and not head[-1] else head[-1]) or label
        elif len(parts := _OUTSIDE_PARENS_COMMA.split(before)) > 1 and re.search("[A-Za-z]", parts[-1]):
            label = parts[-1].strip(" ;([{'\"")  # `output 182.3 tok/s, accept length 3.1`
        unit = (match[3] or "").strip()
        start = match.end()
        if unit and line[start:].lstrip()[:1] in (":", "="):
            unit = unit.rpartition(" ")[0].strip()  # its last word names the next value
            start = match.start(3) + len(unit)
        if match[2] and not unit and _MEASURED_RATE.search(label):
            unit = "tok/s"  # `Token generation: 119.66 ± 0.16`: a measured speed, its unit implied
        yield label, match[1], unit


def _cells(line: str) -> Iterator[tuple[str, str, str]]:
    """(label, number, unit) of a table row: the first cell names it, the first number is it;
    in a row of value-first cells (`| 36.5 TOKENS/SEC | 289 TOKENS IN TOTAL |`) each cell is one."""
    cells = [cell.strip() for cell in _BARS.split(line) if cell.strip()]
    value_first = [_VALUE_FIRST.fullmatch(cell) for cell in cells]
    if len(cells) >= 2 and all(value_first):
        for match in value_first:
            if match:
                yield match[2], match[1], match[2]
        return
    if len(cells) < 2 or _VALUE.fullmatch(cells[0]):
        return
    number = _VALUE.match(cells[1])
    if number and number.end() == len(cells[1]):  # a unit of its own cell follows (`| 24.98 | tokens/s |`)
        unit = number[3] or (cells[2] if len(cells) == 3 and not _VALUE.search(cells[2]) else "")
        yield cells[0], number[1], unit


def _float(raw: str) -> float:
    """A printed number: `1,234.5` with thousands separators, `9,85` or `1.234,5` with a
    decimal comma."""
    if _DECIMAL_COMMA.fullmatch(raw):  # its dots, if any, separate thousands
        return float(raw.replace(".", "").replace(",", "."))
    return float(raw.replace(",", ""))


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
        scale, unit = _si_prefix(unit)
        name, factor = name_of(f"{base} {word}" if word else label, unit, context)
        if name:
            yield name, _float(raw_number) * factor * scale


_SI_PREFIX = re.compile(r"([kKM])(?:\s+|(?=[A-Za-z/]))")
_SI_SCALE = {"k": 1e3, "K": 1e3, "M": 1e6}


def _si_prefix(unit: str) -> tuple[float, str]:
    """(scale, unit) of a rate printed with an SI prefix (`12.3k tok/s`, `1.2M tokens/min`);
    (1, unit) for any other unit (`8.03 B` params, `4.58 GiB` are no rates)."""
    prefix = _SI_PREFIX.match(unit)
    if prefix is None or _rate(unit[prefix.end():]) is None:
        return 1.0, unit
    return _SI_SCALE[prefix[1]], unit[prefix.end():]


def _row_cells(line: str) -> list[str]:
    """The cells of a table row between `|`/`│` bars."""
    return [cell.strip() for cell in _BARS.split(line.strip().strip("|│┃"))]


def _table_row(header: list[str], line: str) -> Iterator[tuple[str, str, str]]:
    """(column, number, "") of a data row of a headed table; nothing when the row is cut short
    (fewer cells than the header) or holds no numbers."""
    cells = _row_cells(line)
    if len(cells) != len(header):
        return
    for column, cell in zip(header, cells, strict=True):
        positions = _PERCENTS.findall(cell) if _POSITIONS_COLUMN.search(column) else []
        if len(positions) > 1:  # `pos accept` | `90.5% 80.5% 73.6%`: one rate per draft position
            yield from ((f"accept_pos_{i}", rate, "%") for i, rate in enumerate(positions, start=1))
            continue
        number = _VALUE.fullmatch(_TIMES.sub("", cell))
        if number:
            yield column, number[1], number[3] or ""


_POSITIONS_COLUMN = re.compile(r"\bpos(?:ition)?s?\b.*\baccept|\baccept.*\bpos(?:ition)?s?\b", re.I)
_PERCENTS = re.compile(r"(\d+(?:\.\d+)?)\s*%")
_TIMES = re.compile(r"^×(?=\d+$)")  # a `×4` cell: four (concurrent requests, copies)
_SPACED = re.compile(r"\s{2,}")
# a line that only sets the load or the parallelism (`tp = 4`, `## batch_size=8`, `concurrency=16:`)
_SETTING_LINE = re.compile(r"[#*=\s-]*(?:tp|tp[ _]size|bs|batch[ _]?size|(?:max[ _-]?)?concurrency"
                           r"|request[ _-]?rate|qps)\s*=\s*\d+(?:\.\d+)?\s*[:*#=-]*", re.IGNORECASE)
# A user's note inside a paste, after a value (`1272.11   # eagle3, k=4`, `<- was 1100`) or in
# parentheses comparing with another run (`(was 1100)`, `(before: 1100.50, +15.6%)`): not read.
_ANNOTATION = re.compile(r"(?<=\S)\s{2,}(?:#|<-+|←|//)\s.*$"
                         r"|\s*\((?:was|before|prev(?:ious(?:ly)?)?|vs\.?|compared to)\b[^)]*\)", re.I)
_ANNOTATION_MARK = re.compile(r"#|<-|←|//|\((?:was|before|prev|vs|compared)", re.IGNORECASE)
_POSITION_LINE = re.compile(r"(?:pos(?:ition)?\s*)?(\d+)\s*[:=]\s*(\d+(?:\.\d+)?)\s*%?", re.IGNORECASE)
_BASELINE = re.compile(r"\bbase(?:line)?\b", re.IGNORECASE)  # the figure compared against
# tabulate's `simple` and `rst` rules, and a single rule under a whole header
_DASH_RULE = re.compile(r"-{2,}(?:\s+-{2,})+|={2,}(?:\s+={2,})+|-{8,}")
_VALUE_FIRST = re.compile(r"([-+]?\d[\d,]*\.?\d*)\s+([A-Za-z][^|]*)")


def _is_spaced_header(cells: list[str], next_line: str) -> bool:
    """Whether a line names, two spaces apart, the columns of a table laid out with spaces: no
    numbers in it, and the next line its names (one or more text cells, or a setting's value
    under `conc`, `bs`) then as many numbers as the remaining columns, two at least."""
    row = _without_index(_SPACED.split(next_line), cells)
    names = 1 if row and _VALUE.fullmatch(row[0]) else next(
        (i for i, cell in enumerate(row) if _VALUE.fullmatch(cell)), len(row))
    return (len(cells) >= 3 and len(row) == len(cells) and not any(c.isdigit() for c in cells[0])
            and not any(_VALUE.fullmatch(cell) for cell in cells)
            and (not _VALUE.fullmatch(row[0]) or bool(_SETTING_LABEL.search(cells[0])))
            and len(row) - names >= 2 and all(_VALUE.fullmatch(cell) for cell in row[names:]))


_PHASE_COLUMN = re.compile(r"prefill|decode", re.IGNORECASE)


def _spaced_columns(raw: str, cells: list[str], next_line: str) -> list[str] | None:
    """The column names of a table laid out with spaces whose header `cells` head the rows that
    follow, or None: a header indented over the rows' name cells has a blank first column (MLC
    users' `      Prefill   Decode` over `xiaomi 14   7   10`), and a column named by its phase
    alone is that phase's rate in tokens per second."""
    if not _is_spaced_header(cells, next_line) and not (
            raw[:1].isspace() and _is_spaced_header(cells := ["", *cells], next_line)):
        return None
    return [f"{cell} tok/s" if _PHASE_COLUMN.fullmatch(cell) else cell for cell in cells]


def _without_index(row: list[str], header: list[str]) -> list[str]:
    """A spaced row without the index pandas prints before it (`0    baseline   8   650.2`
    under `config  concurrency  output_throughput`): one cell more than the header, a count."""
    return row[1:] if len(row) == len(header) + 1 and row[0].isdigit() else row


def _is_header(cells: list[str], next_line: str, first_row: str = "") -> bool:
    """Whether a bar line names the columns of the table that follows (a `|---|` rule next)."""
    # two columns are a header only when the second is nothing but a unit (`| command |
    # tokens/second |`) or names a headline figure over rows named by config (`| draft | mean
    # acceptance length |` over `| vanilla | 2.39 |`; rows of run numbers are trials, read alone)
    named_rows = bool(first_row) and not _VALUE.fullmatch(_row_cells(first_row)[0])
    columns = len(cells) >= 3 or (len(cells) == 2 and (bool(_RATE_UNIT.fullmatch(cells[1])) or (
        named_rows and name_of(cells[1], "")[0] in HEADLINES)))
    return (columns and not any(_VALUE.fullmatch(cell) for cell in cells)
            and bool(_TABLE_RULE.match(next_line.strip())))


def _joined_header(above: str, cells: list[str]) -> list[str]:
    """A header printed over two lines (`┃ ┃ Avg ┃ Gen. ┃` over `┃ Conc. ┃ Lat.(s) ┃ toks/s ┃`) as
    one: the line above, when it has as many cells and no values, begins each column's name; a
    group name spans the cells its bars close up (guidellm's `TTFT (ms) |||` over `mean| p99`)."""
    above = clean(above).strip()
    raw = _BARS.split(above[1:] if _BARS.match(above) else above) if _BARS.search(above) else []
    if len(raw) == len(cells) + 1 and not raw[-1].strip():
        raw.pop()  # the closing bar
    if len(raw) != len(cells) or any(_VALUE.fullmatch(cell.strip()) for cell in raw):
        return cells
    top: list[str] = []
    for cell in raw:
        top.append(top[-1] if not cell and top else cell.strip())
    return [f"{upper} {lower}".strip() for upper, lower in zip(top, cells, strict=True)]


class _JsonPath:
    """The keys enclosing each line of (possibly cut) JSON, and the `unit` their object gives."""

    def __init__(self) -> None:
        self.keys: list[str] = []
        self.units: list[str] = []

    def read(self, line: str) -> Iterator[tuple[str, str, str]]:
        """(label, number, unit) of a `"key": number` line; opening and closing braces tracked."""
        pair = _JSON_PAIR.match(line)
        if pair and pair[2] in "{[":
            self.keys.append(pair[1])
            self.units.append("")
        elif pair and pair[1] == "unit" and self.units:
            self.units[-1] = pair[2].strip('"')
        elif pair and _VALUE.fullmatch(pair[2]):
            parent = self.keys[-1] if self.keys and pair[1].lower() in _STAT_KEYS else ""
            unit = self.units[-1] if self.units else ""
            yield f"{parent} {pair[1]}".strip().replace("_", " "), pair[2], unit
        elif line.startswith(("}", "]")) and self.keys:
            self.keys.pop()
            self.units.pop()


def readings(lines: list[str]) -> Iterator[_Reading]:
    """Every named value of the text's lines: labelled lines, rows of headed tables and
    `"key": number` lines of JSON (commands and training lines skipped)."""
    header: list[str] | None = None
    columns: list[str] = []  # the header of a table laid out with spaces, not bars
    json = _JsonPath()
    phase = ""  # the phase a heading above names (`-----prefill-----`), until the next heading
    closed = False  # whether the table's header ends in a bar (then every whole row does)
    section = ""  # a heading whose statistics follow on lines of their own
    first_position: int | None = None  # the first position number under a per-position heading
    for index, raw in enumerate(lines):
        line = clean(raw).strip()
        logged = len(line) < len(raw.strip())
        line = _ANNOTATION.sub("", line) if _ANNOTATION_MARK.search(line) else line
        line = _DATE_OR_TIME.sub(" ", line) if "-" in line or ":" in line else line
        if heading := _PHASE_HEADING.match(line):
            phase = heading[1].lower().replace("generating", "generation")
            continue
        if _HEADING.match(line):
            phase = ""
        if (heading := _STAT_HEADING.match(line)) and not _VALUE.search(line):
            section = heading[1]  # `Time to First Token (ms):` over `  Median: 50.16` lines
            first_position = None
            continue
        position = _POSITION_LINE.fullmatch(line) if "position" in section.lower() else None
        if position:  # `Per-position acceptance (%):` over `  0:  57.12` (vLLM counts from 0)
            first_position = int(position[1]) if first_position is None else first_position
            scale = 0.01 if "%" in section else 1.0
            yield _Reading(f"accept_pos_{int(position[1]) - first_position + 1}",
                           _float(position[2]) * scale, index, logged)
            continue
        # a row between bars, or a table copied without its outer bars (guidellm's `  name|  0.43|`)
        # a table without outer bars (GitHub's `name | value` over `-- | --`), once headed
        next_line = lines[index + 1] if index + 1 < len(lines) else ""
        bars = (bool(_BARS.search(line[:3])) or (line.count("|") >= 3 and not is_progress_bar(line))
                or ("|" in line and (header is not None or bool(_TABLE_RULE.match(next_line.strip())))))
        if bars and _is_header(cells := _row_cells(line), next_line,
                               lines[index + 2] if index + 2 < len(lines) else ""):
            cells = _joined_header(lines[index - 1] if index else "", cells)
            # `| Metric | run A | run B |` names runs, not figures: its rows are label/value rows
            header = None if cells[0].lower() in _KEY_COLUMNS else cells
            closed = line.endswith(_BAR_CHARS)
            continue
        spaced = _SPACED.split(line)
        if columns and _DASH_RULE.fullmatch(line):  # tabulate's `-----  -----` under its header
            continue
        after = [clean(below).strip() for below in lines[index + 1 : index + 3]]
        if after and _DASH_RULE.fullmatch(after[0]):
            after = after[1:]
        if not bars and (found_columns := _spaced_columns(raw, spaced, after[0] if after else "")):
            header, columns = None, found_columns  # `Engine  Ctx  TTFT(ms)  Decode t/s`: rows follow
            continue
        if columns and len(row := _without_index(spaced, columns)) == len(columns) and not bars:
            yield from _line_readings(list(_table_row(columns, "|".join(row))), line, index, logged)
            continue
        columns = []
        header = header if bars or _TABLE_RULE.match(line) else None  # a rule between rows keeps it
        if _JSON_PAIR.match(line) or line.rstrip(",") in _JSON_BRACES:
            yield from _line_readings(list(json.read(line)), line, index, logged)
            continue
        if not any(c.isdigit() for c in line) or _TRAINING.search(line) or _SKIPPED.search(line):
            continue
        if header is not None:
            # a row of a table closed by bars that lacks its closing one was cut inside it
            found = list(_table_row(header, line)) if line.endswith(_BAR_CHARS) or not closed else []
            # `| Prefill | 1 | 23.88 tokens/secs |` then `|  | 2 | ... |`: a phase cell holds down
            phase = _row_phase(line) or (phase if found and not _row_cells(line)[0] else "")
        else:
            found = list(_cells(line)) if bars else list(_segments(line))
        if phase:
            found = [(_in_phase(label, phase), number, unit) for label, number, unit in found]
        if section and found and all(_is_stat(label) for label, _, _ in found):
            found = [(f"{section} {label}", number, unit) for label, number, unit in found]
        elif found:
            section = ""
        yield from _line_readings(found, line, index, logged)


def _is_stat(label: str) -> bool:
    """Whether a label is a bare statistic (`Mean`, `P99`) that names nothing by itself."""
    word = label.strip().lower()
    return word in _STAT_KEYS or word == "average" or bool(re.fullmatch(r"p\d+(?:\.\d+)?", word))


def _row_phase(line: str) -> str:
    """The phase a table row's first cell names (`| Prefill | 1 | ...`), or ""."""
    cells = _row_cells(line)
    phase = _PHASE_CELL.match(cells[0]) if cells else None
    return phase[1].lower() if phase else ""


def _in_phase(label: str, phase: str) -> str:
    """A label qualified by the phase it was printed under, unless it names a setting or the
    phase already."""
    return label if phase in label.lower() or _SETTING_LABEL.search(label) else f"{phase} {label}"


def _line_readings(found: list[tuple[str, str, str]], line: str, index: int,
                   logged: bool) -> Iterator[_Reading]:
    """The named readings of one line's (label, number, unit) values, each name once."""
    by_label: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for label, raw_number, unit in found:
        if label:
            by_label.setdefault((label, unit), []).append((raw_number, unit))
    named: set[str] = set()  # a name once a line: `283.10 ms / 400 runs` is one figure
    for (label, _), values in by_label.items():
        for name, value in _named(label, values, line[: max(line.find(label), 0)]):
            if name not in named:
                named.add(name)
                yield _Reading(name, value, index, logged)


def _results(found: Iterable[_Reading], headlines: tuple[str, ...] = HEADLINES,
             settings: frozenset[int] = frozenset(), rows: frozenset[int] = frozenset(),
             headed: frozenset[int] = frozenset()) -> list[_Result]:
    """Readings grouped into results, line by line: a line that prints a name again with
    another value starts the next result, and so does a setting line (`tp = 4`, one of
    `settings`) after a result's headline: a setting heads the figures it was measured with, and
    every result under it until the next; so does a Markdown heading printing a value (one of
    `headed`: `## Eagle decoding speed: 297 token/s`). A table row (one of `rows`) that prints the headline
    again is another result even where its values repeat the row above (a run measured twice),
    and so is a logged line that does (a server's periodic line reading the same rate again)."""
    results = [_Result()]
    held: dict[str, float] = {}  # the last setting line's, held down over the results under it
    for index, group in itertools.groupby(found, key=lambda reading: reading.line):
        line = list(group)
        current = results[-1].readings
        headline = _headline(current, headlines)
        if any(_differs(current.get(r.name), r.value) for r in line) or (index in settings | headed and headline) or (
                (index in rows and index - 1 in rows or all(r.logged for r in line))
                and any(r.name == headline for r in line)):
            results.append(_Result())
        if index in settings:
            held = {r.name: r.value for r in line}
        for reading in line:
            results[-1].add(reading)
        for name, value in held.items():
            results[-1].readings.setdefault(name, value)
    results = _joined_by_settings(results)
    for result in results:
        result.readings = _derived(result.readings)
    return _with_lines_below(results, headlines)


def _with_lines_below(results: list[_Result], headlines: tuple[str, ...]) -> list[_Result]:
    """Results with a headline, each completed by the figures of headline-less lines right under
    it (a summary's `TTFT  mean= 117ms` line below its rate lines)."""
    kept: list[_Result] = []
    end = -2
    for result in results:
        if _headline(result.readings, headlines):
            kept.append(result)
        elif kept and result.first == end + 1:
            for name, value in result.readings.items():
                kept[-1].readings.setdefault(name, value)
        else:
            continue
        end = result.last
    return kept


def _joined_by_settings(results: list[_Result]) -> list[_Result]:
    """Results printed phase by phase (a table's Prefill rows, then its Decode rows) joined: a
    result that repeats an earlier one's batch size or concurrency, and none of its figures,
    completes it."""
    kept: list[_Result] = []
    for result in results:
        key = {name: result.readings[name] for name in _SETTINGS if name in result.readings}
        figures = set(result.readings) - set(key)
        match = next((k for k in kept if key and figures and all(
            k.readings.get(name) == value for name, value in key.items())
            and not figures & set(k.readings)), None) if key else None
        if match is None:
            kept.append(result)
            continue
        for name, value in result.readings.items():
            match.readings.setdefault(name, value)
        match.last = max(match.last, result.last)
    return kept


def _differs(seen: float | None, value: float) -> bool:
    """Whether a value printed again differs from the one seen (beyond rounding)."""
    return seen is not None and abs(seen - value) > ECHO_TOLERANCE * max(abs(seen), 1e-9)


def _headline(readings: dict[str, float], headlines: tuple[str, ...] = HEADLINES) -> str | None:
    """The name of a result's headline figure, or None when it has none."""
    return next((name for name in headlines if readings.get(name, 0) > 0), None)


def _summarised(results: list[_Result]) -> list[_Result]:
    """A periodic log line (results printed behind a logger prefix, with the same headline) as
    one result of the medians of the names every line prints (a cut last line prints fewer);
    logged results at different settings (one block per concurrency) are runs, not a period."""
    periodic = [r for r in results if r.logged]
    if not periodic or len({_headline(r.readings, PROMPT_ONLY) for r in periodic}) != 1 or len(
            {tuple(r.readings.get(name) for name in _SETTINGS) for r in periodic}) > 1:
        return results
    names = set.intersection(*(set(r.readings) for r in periodic))
    summary = _Result({name: statistics.median(r.readings[name] for r in periodic) for name in names},
                      periodic[0].first, periodic[-1].last, summary=True)
    summary.readings["log_lines"] = float(len(periodic))
    return [summary, *(r for r in results if not r.logged)]  # the rest: not periodic


def _latest_redraws(results: list[_Result], lines: list[str]) -> list[_Result]:
    """A progress bar's redraws (`Processed prompts: 22%|...| 225/1000 [..., output: 2.30
    toks/s]`) as its latest one: each redraw prints the run's rates so far, not another run. A
    bar that reached its total finished a run, and the next bar is another."""
    kept: list[_Result] = []
    for result in results:
        if kept and set(result.readings) == set(kept[-1].readings) and _unfinished_bar(
                lines[kept[-1].first]) and is_progress_bar(lines[result.first]):
            kept.pop()
        kept.append(result)
    return kept


def _unfinished_bar(line: str) -> bool:
    """Whether a line is a progress bar short of its total (`225/1000 [`)."""
    position = _BAR_POSITION.search(line)
    return is_progress_bar(line) and position is not None and position[1] != position[2]


def _averaged(results: list[_Result], lines: list[str]) -> list[_Result]:
    """Trials followed by their average (`Trial 1: ...` ... `Averages: ...`, `eval rate:` lines
    then `Average of eval rate:`) as the average alone: the line the tool prints as its result.
    The trials are the results just above with the average's headline, back to the last average."""
    kept: list[_Result] = []
    for result in results:
        if kept and result.first == kept[-1].last + 1 and _is_average(lines, kept[-1].first):
            for name, value in result.readings.items():  # the summary's next line: the same result
                kept[-1].readings.setdefault(name, value)
            kept[-1].last = result.last
            continue
        if _is_average(lines, result.first):
            headline = _headline(result.readings)
            while kept and headline in kept[-1].readings and not _is_average(lines, kept[-1].first):
                kept.pop()
        kept.append(result)
    return kept


_SUMMARY_HEADING = re.compile(r"[-=#*]{3,}.*\b(?:summary|averages?)\b", re.IGNORECASE)


def _is_average(lines: list[str], first: int) -> bool:
    """Whether a result is the tool's own average: its line says so, or it is the first under a
    summary heading (`=== summary [narrative] (n=5) ===`)."""
    if _AVERAGE_LINE.match(clean(lines[first])):
        return True
    above = next((clean(line).strip() for line in reversed(lines[:first]) if clean(line).strip()), "")
    return bool(_SUMMARY_HEADING.match(above))


def _derived(readings: dict[str, float]) -> dict[str, float]:
    """Figures a result implies: vLLM V0's acceptance length from its emitted and draft counts,
    which tokens an unqualified token rate counts, by the arithmetic of the printed totals, and
    the acceptance rate a speculative table's bare `rate` column is (a percentage above 1)."""
    emitted = readings.get("number_of_emitted_tokens")
    drafts = readings.get("number_of_draft_tokens")
    k = readings.get("number_of_speculative_tokens")
    if emitted and drafts and k and "accept_length" not in readings:
        readings["accept_length"] = emitted / (drafts / k)
    _name_the_rate(readings)
    bare = readings.get("rate")  # a bare `rate` beside an accept length: the acceptance rate
    if bare and "accept_length" in readings and "acceptance_rate" not in readings:
        readings["acceptance_rate"] = readings.pop("rate") / (100 if bare > 1 else 1)
    return readings


def _first(readings: dict[str, float], names: tuple[str, ...]) -> float | None:
    """The first of `names` the readings hold (a positive value), or None."""
    return next((readings[name] for name in names if readings.get(name, 0) > 0), None)


def _name_the_rate(readings: dict[str, float]) -> None:
    """Tell what an unqualified rate counts (`Throughput: 12577 tokens/s`, JSON `throughput`):
    the total when it equals (input + output) tokens over the duration or is printed beside a
    request rate, the output rate when it equals output tokens over the duration or is a bare
    `throughput` beside an accept length (a speculative run's rate is of the tokens it emits)."""
    key = "throughput_tok_s" if "throughput_tok_s" in readings else "throughput"
    rate = readings.get(key)
    if not rate or "output_tok_s" in readings:
        return
    duration = _first(readings, _DURATIONS)
    inputs, outputs = _first(readings, _INPUT_COUNTS), _first(readings, _OUTPUT_COUNTS)
    counted_total = bool(duration and inputs and outputs
                         and abs((inputs + outputs) / duration - rate) <= 1e-3 * rate)
    beside_requests = key == "throughput_tok_s" and bool(readings.get("_same_line_requests"))
    if duration and outputs and abs(outputs / duration - rate) <= 1e-3 * rate:
        readings["output_tok_s"] = readings.pop(key)
    elif counted_total or beside_requests:
        readings["total_tok_s"] = readings.pop(key)
    elif key == "throughput" and "accept_length" in readings:
        readings["output_tok_s"] = readings.pop(key)


def command_load(line: str) -> dict[str, float] | None:
    """Concurrency and request rate a printed command line's flags set ({} for `--request-rate
    inf`), or None when it sets neither."""
    flag = _COMMAND_CONCURRENCY.search(line)
    rate = _COMMAND_RATE.search(line)
    if flag is None and rate is None:
        return None
    load = {"concurrency": float(next(g for g in flag.groups() if g))} if flag else {}
    if rate and rate[1] != "inf":
        load["request_rate"] = float(rate[1])
    return load


def _command_settings(text: str, end: int) -> dict[str, float]:
    """Concurrency and request rate given on a printed command line before offset `end`."""
    settings: dict[str, float] = {}
    if flag := last_match(text, _COMMAND_CONCURRENCY, end):
        settings["concurrency"] = float(next(group for group in flag.groups() if group))
    if (rate := last_match(text, _COMMAND_RATE, end)) and rate[1] != "inf":
        settings["request_rate"] = float(rate[1])
    return settings


def _record(result: _Result, text: str, offsets: list[int]) -> Record:
    """The benchmark record of one result."""
    readings = dict(result.readings)
    offset = offsets[result.first]
    for name, value in _command_settings(text, offset).items():
        readings.setdefault(name, value)
    headline = _headline(readings, PROMPT_ONLY) or "output_tok_s"
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
    elif headline == "prompt_tok_s":
        metric = {"metric": "prompt_tok_s", "unit": "tok/s"}
    elif headline == "latency_s":
        metric = {"metric": "latency_s", "unit": "s"}
    value = readings.pop(headline)
    concurrency = readings.pop("concurrency", None)
    batch_size = readings.pop("batch_size", None)
    accept = readings.pop("accept_length", None) if headline != "accept_length" else value
    return benchmark(
        value,
        FORMATS[1] if result.summary else FORMATS[0],
        concurrency=int(concurrency) if concurrency and concurrency == int(concurrency) else None,
        batch_size=int(batch_size) if batch_size and batch_size == int(batch_size) else None,
        accept_length=accept if accept and accept >= 1 else None,
        figures={name: v for name, v in readings.items() if not name.startswith("_")},
        **metric,
    )


_HTML_TAG = re.compile(r"<[^>]+>")


def _spread_cells(text: str) -> str:
    """Table rows whose cells stack labelled values with `<br>` (`| case | Total TPS: 9743.28<br>Mean
    TPOT(ms): 48.57 | ... |`) as one line per value, cell after cell: each cell is a result."""
    if "<br" not in text:
        return text
    lines = []
    for line in text.splitlines():
        cells = _row_cells(line) if _BARS.match(line.strip()) else []
        if len(cells) < 2 or not any("<br" in cell for cell in cells[1:]):
            lines.append(line)
            continue
        for cell in cells[1:]:
            lines.extend(_HTML_TAG.sub(" ", part).strip() for part in re.split(r"<br\s*/?>", cell))
    return "\n".join(lines)


_BAR_PERCENT = re.compile(r"(?:[A-Za-z][\w.-]{0,40}(?: [\w.-]{1,40}){0,4}:\s*)?\d{1,3}%\|")  # tqdm's `name:  64%|`
_BAR_WRAP = re.compile(r"^\|?\s*\d+/\d+ \[")  # a bar's `| 5971/9263 [...]` wrapped onto a new line


def _unwrapped_bars(text: str) -> str:
    """Progress bars a narrow terminal garbled, as their latest redraw: a bar's tail wrapped onto
    a line of its own is joined to the bar above it, and a line holding several redraws (each
    drawn over the last, `... outp   ProceProcessed prompts:  64%|...`) is read from its last."""
    if "%|" not in text:
        return text
    lines: list[str] = []
    for line in text.splitlines():
        above = next((i for i in range(len(lines) - 1, -1, -1) if lines[i].strip()), None)
        if _BAR_WRAP.match(line) and above is not None and _BAR_PERCENT.search(lines[above]):
            lines[above] = lines[above].rstrip() + line.strip()
            del lines[above + 1:]
            continue
        lines.append(line)
    latest = [[*_BAR_PERCENT.finditer(line)] for line in lines]
    return "\n".join(line[found[-1].start():] if len(found) > 1 else line
                     for line, found in zip(lines, latest, strict=True))


_GLUED_LOG_LINE = re.compile(r"\$(?=(?:INFO|WARNING|DEBUG|ERROR) )")  # `Running: 32 $INFO 07-03 ...`
_WRAPPED_TAIL = re.compile(r"^[a-z]\w*[,:]? ")  # `eqs, Swapped: 0 reqs, ...`: a cut word's end
_TERMINAL_WIDTH = 80  # the narrowest terminal a long log line is wrapped at


def _unwrapped_log_lines(text: str) -> str:
    """Logger lines a terminal wrapped (`... Running: 32 r` over `eqs, Swapped: ...`) as whole
    lines, and one glued to the next at a truncation mark (`Running: 32 $INFO 07-03 ...`) as two:
    each is one reading of the periodic line."""
    if "INFO" not in text and "WARNING" not in text:
        return text
    lines: list[str] = []
    for line in _GLUED_LOG_LINE.sub("\n", text).splitlines():
        above = lines[-1] if lines else ""
        if (len(above) >= _TERMINAL_WIDTH and not above[-1].isspace() and _WRAPPED_TAIL.match(line)
                and len(clean(above)) < len(above) and clean(line) == line):
            lines[-1] = above + line.rstrip()
            continue
        lines.append(line)
    return "\n".join(lines)


# A title naming the rate the values under it are in (`Output tokens/s on H100 BS1`), none itself
_UNIT_TITLE = re.compile(r"^[#*\s]*((?:output|decode|generation|prefill|prompt)\s+)?(tokens?/s(?:ec)?|tok/s)"
                         r"(?:\s+[^:|\d][^:|]{0,40}?(?:\d+)?)?\s*$", re.IGNORECASE)
_UNITLESS_VALUE = re.compile(r"^(\s*(?:[-*]\s+)?[^:\n]+:\s*)(\d[\d,]*(?:\.\d+)?)(?=\s*(?:,|$))")


def _titled_units(text: str) -> str:
    """Values printed without a unit under a title that names their rate (`Output tokens/s on
    H100 BS1` over `vanilla: 133` and `* K=2: 201.69, speedup: 1.51x`) with that unit."""
    if "/s" not in text:
        return text
    lines = text.splitlines()
    unit = ""
    for index, line in enumerate(lines):
        if title := _UNIT_TITLE.match(line):
            unit = f"{title[1] or ''}{title[2]}".lower()
        elif unit:
            lines[index] = _UNITLESS_VALUE.sub(rf"\g<1>\g<2> {unit}", line)
    return "\n".join(lines)


_ACCEPTED_FRACTION = re.compile(r"\baccepted:?\s+(\d+)\s*/\s*(\d+)(?:\s+(?:draft\s+)?tokens)?", re.IGNORECASE)


def _accepted_counts(match: re.Match[str]) -> str:
    """`accepted 120/200` (draft tokens accepted of those proposed) as the two counts and the
    acceptance rate they make."""
    accepted, drafted = int(match[1]), int(match[2])
    rate = f", acceptance rate: {100 * accepted / drafted:.2f}%" if drafted else ""
    return f"accepted tokens: {accepted}, draft tokens: {drafted}{rate}"


_BULLET_SEPARATOR = re.compile(r"\s+[•·]\s+")
_GLUED_UNIT = re.compile(r"^([-+]?\d[\d,]*\.?\d*)(?=[A-Za-z])")


def _bulleted_cells(text: str) -> str:
    """Lines of value-first stats between bullets (LM Studio's `45.21 tok/sec • 210 tokens •
    4.65s to first token`) as a row of cells, each its number then its name."""
    if "•" not in text and "·" not in text:
        return text
    lines = text.splitlines()
    for index, line in enumerate(lines):
        parts = [_GLUED_UNIT.sub(r"\1 ", part) for part in _BULLET_SEPARATOR.split(line.strip())
                 if any(c.isdigit() for c in part)]  # not `Stop reason: EOS Token Found`
        if len(parts) >= 2 and all(_VALUE_FIRST.fullmatch(part) for part in parts):
            lines[index] = f"| {' | '.join(parts)} |"
    return "\n".join(lines)


def _spread_json_lines(text: str) -> str:
    """A JSON object printed on one line (a script's JSONL result) as one `"key": value` line per
    key, the layout JSON pairs are read from; every other line as it was."""
    if '{"' not in text:
        return text
    lines = []
    for line in text.splitlines():
        found = next(json_objects(line), None) if line.lstrip().startswith("{") else None
        lines.append(json_module.dumps(found, indent=2) if found else line)
    return "\n".join(lines)


_EMPHASIS = re.compile(r"\*\*|__")  # Markdown bold around a label (`**Request Throughput:**`)
_CHANGE_COLUMN = re.compile(r"%|\bdiff|\bchange\b|\bdelta\b|\bspeedup\b|\bgain\b", re.IGNORECASE)


def _runs_in_columns(text: str) -> str:
    """A `| Metric | run A | run B | % Difference |` table (its rows are figures, its columns
    runs) as one block of `label: value` lines per run column; change and unit columns are not runs."""
    lines = text.splitlines()
    out: list[str] = []
    index = 0
    while index < len(lines):
        cells = _row_cells(lines[index]) if _BARS.match(lines[index].strip()) else []
        runs = [i for i, cell in enumerate(cells)
                if i and not _CHANGE_COLUMN.search(cell) and cell.lower() not in ("unit", "units")]
        rule = index + 1 < len(lines) and _TABLE_RULE.match(lines[index + 1].strip())
        if not (cells and cells[0].lower() in _KEY_COLUMNS and len(runs) >= 2 and rule):
            out.append(lines[index])
            index += 1
            continue
        end = index + 2
        while end < len(lines) and _BARS.match(lines[end].strip()):
            end += 1
        rows = [_row_cells(line) for line in lines[index + 2 : end]]
        for run in runs:
            out.extend(f"{row[0]}: {row[run]}" for row in rows if len(row) == len(cells))
            out.append("")
        index = end
    return "\n".join(out) if len(out) != len(lines) or out != lines else text


def _csv_cells(line: str) -> list[str]:
    """The cells of a comma-separated line (quotes honoured), or [] for a line of one cell."""
    if "," not in line:
        return []
    cells = [cell.strip() for cell in next(csv.reader([line]))]
    return cells if len(cells) >= 2 else []


def _fits(cells: list[str], header: list[str]) -> bool:
    """Whether a CSV row belongs under a header: as many cells, or the first cells of a row whose
    last ones wrapped onto the next line (koboldcpp's long `Flags` cell), more than half of them."""
    return len(header) // 2 < len(cells) <= len(header)


def _csv_as_rows(text: str) -> str:
    """Comma-separated tables (GenAI-Perf's `Metric,avg,min,...` export) as rows between bars: a
    header of names, then rows of as many cells; rows keyed by a name read as `| name | value
    |`, rows of numbers under the header's column names (a rule written under it)."""
    lines = text.splitlines()
    index, changed = 0, False
    while index + 1 < len(lines):
        header, row = _csv_cells(lines[index]), _csv_cells(lines[index + 1])
        if not (header and _fits(row, header) and not any(_VALUE.fullmatch(c) for c in header)
                and any(_VALUE.fullmatch(cell) for cell in row[1:])):
            index += 1
            continue
        # rows keyed by a name (`Time To First Token (ms),12.3,...` under `Metric,avg,min`): the
        # header's first cell is a key column or the others are statistics; else a row per config
        keyed = header[0].lower() in _KEY_COLUMNS or all(_is_stat(cell) for cell in header[1:])
        lines[index] = "| " + " | ".join(header) + " |"
        if not keyed:
            lines.insert(index + 1, "|" + "---|" * len(header))
            index += 1
        index += 1
        while index < len(lines) and _fits(cells := _csv_cells(lines[index]), header):
            cells += [""] * (len(header) - len(cells))
            lines[index] = "| " + " | ".join(cells) + " |"
            index += 1
        changed = True
    return "\n".join(lines) if changed else text


_GENERATION = ("output", "decode", "gen_", "generation", "completion", "tpot", "itl")


def _generated(found: Sequence[_Reading]) -> bool:
    """Whether the output measures generation (`output_len: 256`, a decode latency, a generation
    rate even of 0): its headline is then a generation rate, and an output without one is cut
    or idle, not a prompt-only run."""
    return any(r.name.startswith(_GENERATION) and (r.value > 1 or r.name.endswith("tok_s"))
               for r in found)


def parse(text: str, problems: list[str], prompt_only: bool = False) -> list[Record]:
    """Every result of the labelled lines in the text (the fallback when no format knows it);
    with `prompt_only`, an output that measured prompt processing alone is read by that rate
    (not for a paste cut short, which may have lost its generation rate)."""
    text = _ACCEPTED_FRACTION.sub(_accepted_counts, text)
    text = _EMPHASIS.sub("", _spread_cells(_unwrapped_bars(_spread_json_lines(_bulleted_cells(
        _titled_units(_unwrapped_log_lines(text)))))))
    text = text.replace("\t", "  ")  # a tab-separated table is one laid out with spaces
    if "," in text:
        text = _csv_as_rows(text)
    if "|" in text:
        text = _runs_in_columns(text)
    lines = text.splitlines()
    found = list(readings(lines))
    for reading in found:  # `Throughput: 81.74 requests/s, 20926.37 tokens/s`: the total
        if reading.name == "throughput_tok_s" and "requests/s" in lines[reading.line]:
            found.append(_Reading("_same_line_requests", 1.0, reading.line))
    found.sort(key=lambda r: r.line)
    prompt_only = prompt_only and not _generated(found)
    settings = frozenset(i for i, line in enumerate(lines) if _SETTING_LINE.fullmatch(clean(line).strip()))
    rows = frozenset(i for i, line in enumerate(lines) if line.lstrip().startswith(_BAR_CHARS))
    headed = frozenset(i for i, line in enumerate(lines) if _VALUE_HEADING.match(line))
    measured = _results(found, HEADLINES, settings, rows, headed) or (
        _results(found, PROMPT_ONLY, settings, rows, headed) if prompt_only else [])
    results = _averaged(_summarised(_latest_redraws(measured, lines)), lines)
    offsets = list(itertools.accumulate((len(line) + 1 for line in lines), initial=0))
    records = [_record(result, text, offsets) for result in results]
    read_lines = {reading.line for reading in found}
    for record, result in zip(records, results, strict=True):
        # a table row per config (under its setting line, if any): its name cell names it
        first = result.first + 1 if result.first in settings else result.first
        if first == result.last or (first < result.last and not read_lines & set(range(first, result.last))):
            record.config = _row_name(lines[result.last], result.readings)
        above = clean(lines[result.first - 1]).strip() if result.first else ""
        if record.config is None and result.first - 1 not in read_lines and _NAME_HEADING.fullmatch(
                above) and not _NOT_A_NAME.search(above):
            record.config = above.strip("#*: ")  # `EAGLE-3 (num_steps=8):` over its result
        _settings_in_name(record)
    return records


_MARKDOWN_HEADING = re.compile(r"^#{1,6} +")
_VALUE_HEADING = re.compile(r"#{1,6} [^\n]*:\s*\d[\d.,]*\s*\S*$")  # `## Eagle decoding speed: 297 token/s`
_NAMED_SETTING = re.compile(r"\b(bs|batch[ _]?size|c|conc|concurrency|tp|num[ _]?steps|steps|topk)"
                            r"\s*[=:]\s*(\d+)\b", re.IGNORECASE)
_SETTING_FIELDS = {"bs": "batch_size", "batchsize": "batch_size", "batch_size": "batch_size",
                   "c": "concurrency", "conc": "concurrency", "concurrency": "concurrency",
                   "numsteps": "num_steps", "num_steps": "num_steps", "steps": "num_steps",
                   "topk": "topk"}


def _settings_in_name(record: Record) -> None:
    """Settings a config's name gives (`Config A (bs=8)`, `EAGLE-3 (num_steps=8)`, `c=16`) set
    where the output printed none; `tp=4` is kept as a figure."""
    for key, raw in _NAMED_SETTING.findall(record.config or ""):
        key = key.lower().replace(" ", "")
        if key == "tp":
            record.figures.setdefault("tp", float(raw))
        elif getattr(record, field := _SETTING_FIELDS[key]) is None:
            setattr(record, field, int(raw))


_FIGURE_WORD = re.compile(r"through|speed|rate|laten|\btps\b|tok|time|eval|output|prompt|generat"
                          r"|decod|prefill|total|avg|average|mean|median|accept|ttft|tpot|itl", re.I)
# a heading that names the output, a sentence, a progress bar's counters: no config's name
_NOT_A_NAME = re.compile(r"result|summary|benchmark|\bstat|metric|[\[<]|[.,;] ", re.IGNORECASE)
_BULLET = re.compile(r"^[-*•]\s+")
_NAME_HEADING = re.compile(r"#+ +[^\n]{1,60}|\**[A-Za-z][^:|]{0,60}:\**")  # `## Eagle`, `EAGLE-3 (k=8):`


def _row_name(line: str, readings: dict[str, float]) -> str | None:
    """The name a table row or a line gives its config (`| EAGLE-3 (k=4) | 16 | 2,310.2 |`,
    pandas' `0  baseline  8  650.2`, `With EAGLE:   output 182.3 tok/s`): its first cell when
    that is no number, nor the label of its figures, with the text cells after it."""
    line = clean(line).strip()
    if is_progress_bar(line):
        return None
    cells = _row_cells(line) if _BARS.search(line) else _SPACED.split(line)
    if len(cells) == 1 and ":" in line:  # `with eagle: 30 tps`, not `Speed: 45.3 tok/s`
        cells = line.split(":", 1)
        if len(_VALUE.findall(cells[1])) != 1 or _FIGURE_WORD.search(cells[0]):
            return None
    if len(cells) > 2 and cells[0].isdigit():  # pandas' index
        cells = cells[1:]
    first = _MARKDOWN_HEADING.sub("", _EMPHASIS.sub("", cells[0]).strip()).rstrip(":").strip() if len(cells) >= 2 else ""
    first = _BULLET.sub("", first)
    if (not first or re.fullmatch(r"[-+]?[\d.,]+", first) or _VALUE_FIRST.fullmatch(first)
            or name_of(first, "")[0] in readings
            or _NOT_A_NAME.search(first)):
        return None
    more = itertools.takewhile(lambda cell: cell and not _VALUE.fullmatch(cell), cells[1:-1])
    return " ".join([first, *more])  # `| Llama 3 8B | Q4_0 | 1,234.5 |`: the text cells before values
