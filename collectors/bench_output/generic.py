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

import bisect
import functools
import itertools
import re
import statistics
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from sessiontui.collectors.bench_output.common import (
    benchmark,
    last_match,
    last_repr_before,
    number,
    without_logger_prefix,
)
from sessiontui.collectors.bench_output.labels import (
    HEADLINES,
    PROMPT_ONLY,
    RATE_UNIT,
    SETTING_LABEL,
    STAT_KEYS,
    VALUE,
    VALUE_FIRST,
    is_stat,
    name_of,
    named_values,
    printed_number,
)
from sessiontui.collectors.bench_output.layouts import EMPHASIS, prepared
from sessiontui.collectors.bench_output.runs import label_of, run_labels
from sessiontui.collectors.bench_output.tables import (
    BAR_CHARS,
    BARS,
    DASH_RULE,
    KEY_COLUMNS,
    SPACED,
    TABLE_RULE,
    cell_value,
    is_distribution_header,
    is_header,
    joined_header,
    labelled_cells,
    row_cells,
    spaced_columns,
    sub_header,
    table_row,
    without_index,
)
from sessiontui.collectors.logtext import clean, is_progress_bar
from sessiontui.project_memory.records import Record

FORMATS = ("generic", "generic.server_log")
ENGINE = None
_MEASURED_RATE = re.compile(r"token generation|prompt (?:evaluation|processing)|text generation",
                            re.IGNORECASE)
_SETTING_UNIT = re.compile(r"(?:max[ _-]?)?concurren(?:cy|t[ _]requests)|batch[ _-]?size", re.IGNORECASE)
_OUTSIDE_PARENS_COMMA = re.compile(r"(?:,|(?:^|(?<=\s))\|\s)(?![^()]*\))")  # `a 1, b 2` and `a 1 | b 2`: fields of one line
# Lines not read: commands (their flags are settings, not results) and one-line JSON objects,
# which their tool's recogniser reads whole (a cut one is no result).
_SKIPPED = re.compile(r"(?:^|\s)--[a-z]|^Namespace\(|^\$ |^python|^\[?\{\s*\"|^<[a-z!/][^>]*>.*>$"  # markup
                      r"|^Pass \[\d+\] throughput:"  # perf_analyzer's stabilisation passes, before its result
                      r"|^[a-z][\w.-]*\s+-[a-z]\s",  # a command, its program then a short flag: `perf_analyzer -m x -b 2`
                      re.IGNORECASE)
# the flags a user noted after a result line's figures (`... 714.48 output tokens/s @ --num-scheduler-steps 1`)
_NOTED_FLAGS = re.compile(r"(?<=\S)\s+(?:@\s*)?--[a-z].*$", re.IGNORECASE)
_LABELLED_START = re.compile(r"[-*>\s]*[A-Za-z][\w ()/.-]*:\s*[-+]?\.?\d")  # `Throughput: 3.28`, not a command
_JSON_PAIR = re.compile(r'^\s*"([^"]+)"\s*:\s*(\{|\[|"[^"]*"|[-+\d.eE]+),?\s*$')
_JSON_LIST = re.compile(r'^\s*"[^"]+"\s*:\s*\[[-+\d.eE,\s]*\],?\s*$')
_JSON_BRACES = frozenset({"{", "}", "[", "]"})
_TRAINING = re.compile(r"\bloss\b|\bepoch\b|\blr\b|learning[ _]rate|\bgrad", re.IGNORECASE)
_COMMAND_CONCURRENCY = re.compile(
    r"--(?:max[-_])?concurrency[= ]+(\d+)|--parallel[= ]+(\d+)|--num[-_]parallel[= ]+(\d+)"
    r"|--num[-_]concurrent[-_]requests[= ]+(\d+)")  # llmperf
_COMMAND_RATE = re.compile(r"--request[-_]rate[= ]+(inf|[\d.]+)")  # inf: no rate set
# Dates and clock times are when, never what was measured (`INFO 09-16 05:26:`, a log line cut
# inside its prefix, read `9` as `info`; a later line's time would start another result).
# A day named by its month (`date`'s `Fri Jul 11 04:27:26 UTC 2025`, `Jul 11, 2025`) is one too.
_DATE_OR_TIME = re.compile(r"(?<![\w.])(?:\d{4}[-/]\d{1,2}[-/]\d{1,2}|\d{1,2}-\d{1,2}(?=[\sT]|$)"
                           r"|\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?)(?![\w.])"
                           r"|\b(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,?\s+)?(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct"
                           r"|Nov|Dec)[a-z]*\.?\s+\d{1,2}(?:,?\s+\d{4}|\s+\d{1,2}:\d{2}(?::\d{2})?(?:\s+[A-Z]{2,5})?"
                           r"(?:\s+\d{4})?)(?!\d)")
# Go's time.Duration printed by `%v` (Ollama's `total duration:       1m2.5s`): hours and minutes before
# the seconds, one time in seconds
_GO_DURATION = re.compile(r"(?<![\w.])(?:(\d+)h)?(?:(\d+)m)(\d+(?:\.\d+)?)s\b|(?<![\w.])(\d+)h(\d+)m(?!\w)")
_URL = re.compile(r"\b[a-z][a-z+.-]*://[^\s)\]>]+")  # an address, its numbers no figures (`.../issues/49730`)
_DURATIONS = ("total_latency", "duration", "benchmark_duration_s", "benchmark_time", "total_time",
              "elapsed_time", "benchmark_duration")
_INPUT_COUNTS = ("total_input_tokens", "number_of_prompt_tokens", "total_prompt_tokens")
_OUTPUT_COUNTS = ("total_output_tokens", "total_output_token", "total_generated_tokens",
                  "number_of_completion_tokens")
# Ollama's /api/generate and /api/chat answer (docs/api.md: every duration in nanoseconds): the rates its
# `--verbose` prints, `eval rate` = eval_count / eval_duration
_NANOSECOND_COUNTS = (("eval_count", "eval_duration", "output_tok_s"),
                      ("prompt_eval_count", "prompt_eval_duration", "prompt_tok_s"))
_TOTAL_COUNTS = ("total_num_tokens", "total_tokens")  # prompt and output tokens together
ECHO_TOLERANCE = 5e-5  # `RPM 609.550 req/min` echoes `RPS 10.159`; trials differ by more
# A heading that names a phase (`-----prefill-----`, `Decode:`) qualifies the bare labels under it
# (`throughput: 216.6 tok/s`), as does ExLlama's `-- Generating 128 tokens...`; any other heading
# or rule ends it.
_PHASE_HEADING = re.compile(r"^[-=#*\s]*(?:(?:measuring|testing|benchmarking)\s+)?"
                            r"(prefill|decode|prompt|generation|input|output|generating|token)"
                            r"(?:\s+\d+\s+tokens)?(?:\s+(?:speed|throughput|processing))?[-=#*:.\s]*$",
                            re.IGNORECASE)
# LMDeploy's Profiler.summarize banner (lmdeploy/profiler.py): its table's times are seconds, unprinted
# perf_analyzer's sweep summary heading names the statistic of each `latency Y usec` below it
_LATENCY_STAT_HEADING = re.compile(r".*\bvs\.?\s+client\s+(?:(average)|(p\d+))\s+(?:batch\s+)?latency\s*",
                                   re.IGNORECASE)
_SECONDS_TITLE = re.compile(r"^=+ Profile (?:Throughput|Pipeline API|Restful API) =+$")
_PHASE_WORDS = {"generating": "generation", "token": "generation"}  # ExLlamaV2's `token speed`
_HEADING = re.compile(r"^[-=#*]{3,}")
# a Markdown title that prints no label's value and no rate (`# Qwen3.5-4B on RTX 3090`) names what
# follows: its numbers are a model's size or a GPU's name, not figures
_NAMING_TITLE = re.compile(r"^#{1,6}\s[^:=]*$")
# a name whose statistics follow: `TTFT (ms):`, or llmperf's bare `ttft_s` over `    p25 = 0.41`
_STAT_HEADING = re.compile(r"^([A-Za-z][^:]*?)\s*:$|^([A-Za-z]\w*_\w+)$")
_PHASE_CELL = re.compile(r"(prefill|decode|prompt|generation)\b", re.IGNORECASE)
_SETTINGS = ("batch_size", "concurrency")
_BAR_POSITION = re.compile(r"(\d+)/(\d+) \[")
_AVERAGE_LINE = re.compile(r"\s*(?:averages?|mean|median|overall|summary)\b", re.IGNORECASE)


@dataclass(slots=True)
class _Reading:
    """One labelled value of a line, named."""

    name: str
    value: float
    line: int
    logged: bool = False  # printed behind a logger prefix
    server: bool = False  # on a line in a server's words: with `logged`, a server's periodic log line
    converted: bool = False  # brought to the figure's unit from the one printed (`164.67 req/min`)
    rounding: float = 0.0  # half a unit in its last printed digit (`2.74`: 0.005)


@dataclass(slots=True)
class _Result:
    """Consecutive readings that form one result, first line to last."""

    readings: dict[str, float] = field(default_factory=dict)
    first: int = 0
    last: int = 0
    logged: bool = True
    server: bool = False  # a line of it in a server's words (see _SERVER_WORDS)
    summary: bool = False  # the median of a periodic log line's results
    converted: set[str] = field(default_factory=set)  # names whose value was printed in another unit
    rounding: dict[str, float] = field(default_factory=dict)  # each kept value's (see _Reading)

    def add(self, reading: _Reading) -> None:
        """A reading into the result: the first print of a figure, unless that was converted from
        another unit and this one is printed in the figure's own (`2.74` req/s after `164.67 req/min`)."""
        if not self.readings:
            self.first = reading.line
        if reading.name not in self.readings or (reading.name in self.converted and not reading.converted):
            self.readings[reading.name] = reading.value
            self.rounding[reading.name] = reading.rounding
            if reading.converted:
                self.converted.add(reading.name)
            else:
                self.converted.discard(reading.name)
        self.last = reading.line
        self.logged = self.logged and reading.logged
        self.server = self.server or reading.server


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


_COUNT_OUT_OF = re.compile(r"^\d+/$")  # the count before a `/` total, no label
_SPACED_DASH = re.compile(r"\s[-–—]\s")
# a label of twelve words or more is a sentence's (a tool's label is a few words): its numbers without a rate's
# unit name a machine, a model or a version (`... deployment on the Atlas 800 A2 (64G × 8)`), no figure
_SENTENCE_LABEL = re.compile(r"(?:\S+\s+){11,}\S+")  # fields of one line joined by a spaced dash, after a unit


def _segments(line: str) -> Iterator[tuple[str, str, str]]:
    """(label, number, unit) of each value a cleaned line prints, in order."""
    label = ""
    start = 0
    for match in VALUE.finditer(line):
        if _in_label_parentheses(line, match.start()):
            continue
        opened = _open_parenthesis(line, match.start())
        before = line[start : max(opened, start)] if opened >= 0 else line[start : match.start()]
        if ":" in before or "=" in before or not label:
            head = [_OUTSIDE_PARENS_COMMA.split(part)[-1].strip(" ,;([{'\"")
                    for part in re.split(r"[:=]", before)]
            head[-1] = _COUNT_OUT_OF.sub("", head[-1])  # `Generated:214/1024 in 17.61s`: the label's own count
            label = (head[-2] if len(head) > 1 and not head[-1] else head[-1]) or label
        elif len(parts := _OUTSIDE_PARENS_COMMA.split(before)) > 1 and re.search("[A-Za-z]", parts[-1]):
            label = parts[-1].strip(" ;([{'\"")  # `output 182.3 tok/s, accept length 3.1`
        unit = (match[3] or "").strip()
        start = match.end()
        if unit and (dash := _SPACED_DASH.search(unit)):
            start = match.start(3) + dash.end()  # `9.04 tokens/s - eval rate: 6.62`: the next field's label
            unit = unit[: dash.start()]
        if unit and line[start:].lstrip()[:1] in (":", "="):
            unit = unit.rpartition(" ")[0].strip()  # its last word names the next value
            start = match.start(3) + len(unit)
        if not label and _SETTING_UNIT.fullmatch(unit):
            yield unit, match[1], ""  # `200 samples, 10 concurrency`: a setting named after its value
            continue
        if _SENTENCE_LABEL.fullmatch(label) and not RATE_UNIT.search(unit):
            continue  # a number in a sentence (`... on the [single-node Atlas 800 A2 ...`): a name's, no figure
        if match[2] and not unit and _MEASURED_RATE.search(label):
            unit = "tok/s"  # `Token generation: 119.66 ± 0.16`: a measured speed, its unit implied
        yield label, match[1], unit
# a line that only sets the load or the parallelism (`tp = 4`, `## batch_size=8`, `concurrency=16:`)
_SETTING_LINE = re.compile(r"[#*=\s-]*(?:tp|tp[ _]size|bs|batch[ _]?size|(?:max[ _-]?)?concurrency"
                           r"|request[ _-]?rate|qps)\s*=\s*\d+(?:\.\d+)?\s*[:*#=-]*", re.IGNORECASE)
# a script's banner over the run below it (`=== VLLM c=1 rep=1 (19:53:04) ===`, `--- Qwen (concurrency 8)
# ---`): a heading framed by one rule character on both sides, its numbers that run's settings or names
_FRAMED_HEADING = re.compile(r"([=#*-])\1{2,}\s.*\s\1{3,}")
# a line of a run's settings alone, over the run measured with them (`c=4:`, `[c=4 rep=1]`, `(bs=8, tp=2)`)
_SETTINGS_ALONE = re.compile(r"[\[(]?\s*(?:(?:c|conc|concurrency|bs|batch[ _]?size|reps?|repeat|run|trial|iter(?:ation)?"
                             r"|round|tp|pp|dp|ep|isl|osl|input(?:_len)?|output(?:_len)?|seed)\s*=\s*\d+\s*[,;]?\s*)+"
                             r"[\])]?\s*:?", re.IGNORECASE)
_BANNER_NAME = re.compile(r"^([=#*-])\1+\s*|\s*(?:\(\d{1,2}:\d\d(?::\d\d)?\)\s*)?([=#*-])\2+$")  # its frame, a time
_RUN_WORDS = re.compile(r"^(?:[A-Za-z][A-Za-z_-]*\s+){1,3}(?=\S+\s*=)")
_FRAMED_SETTING = re.compile(r"(?<![\w-])(c|conc|concurrency|bs|batch[ _]?size)\s*[=:]?\s*(\d+)(?![\d.])", re.IGNORECASE)
# A user's note inside a paste, after a value (`1272.11   # eagle3, k=4`, `<- was 1100`) or in
# parentheses comparing with another run (`(was 1100)`, `(before: 1100.50, +15.6%)`), and a tool's
# note of what its time includes (ExLlamaV2's `25.00 tokens/second (includes prompt eval.)` is
# its generation rate, not a prompt rate): not read.
_ANNOTATION = re.compile(r"(?<=\S)\s{2,}(?:#|<-+|←|//)\s.*$"
                         r"|\s*\((?:was|before|prev(?:ious(?:ly)?)?|vs\.?|compared to|includ(?:es|ing)|incl\.)"
                         r"(?![\w.])[^)]*\)", re.I)
# `90% percentile latency`, `99th percentile TTFT`, MLPerf LoadGen's `99.90 percentile latency (ns)`:
# the statistic's usual name, `p90 latency` (`p999` for 99.9)
_PERCENTILE_WORDS = re.compile(r"(?<![\w.])(\d{1,2})(?:\.(\d+))?(?:%|th|st|nd|rd)?\s+percentile\b", re.I)


def _percentile_name(match: re.Match[str]) -> str:
    """`p90` for `90%`, `90th` or `90.00`; `p999` for `99.90`."""
    return f"p{match[1]}{(match[2] or '').rstrip('0')}"
# `TTFT: 117.59 ms (p50: 95.63 ms, p90: 207.66 ms, max: 566.05 ms)`: the statistics in parentheses
# after a quantity's value are that quantity's (mini-sglang's benchmark client)
_STATS_IN_PARENTHESES = re.compile(
    r"(?P<name>[A-Za-z][\w /-]*?):\s*(?P<head>\S+[^(]*?)\s*\((?P<stats>(?:\s*(?:p\d+|max|min|median|mean|avg|std)"
    r"\s*[:=]\s*[-\d.]+[^,:)]*,?)+)\)\s*$", re.IGNORECASE)
# the mark of a report tree's node (optimum-benchmark's `+ decode:` over `  + latency:` over `    + mean: ...`)
_TREE_MARK = re.compile(r"^\+\s+(?=[A-Za-z_][\w ]*:)")
# optimum-benchmark's report lines (`+ throughput: 13.61 (tokens/s)`, `+ mean: 0.0748 (s)`): the unit
_UNIT_IN_PARENTHESES = re.compile(r"(?<=\d)\s*\(([A-Za-zµ%]+(?:/[A-Za-z]+)?)\)(?=\s*$)")
_SPREAD_IN_PARENTHESES = re.compile(r"\s*\(\s*±\s*[\d.]+\s*%?\s*\)")  # `38.00 tok/s (± 1.43)`: the spread of the value before
_STAT_PAIR = re.compile(r"(p\d+|max|min|median|mean|avg|std)\s*[:=]\s*([^,]+)", re.IGNORECASE)
_ANNOTATION_MARK = re.compile(r"#|<-|←|//|\((?:was|before|prev|vs|compared|includ|incl\.)", re.IGNORECASE)
_POSITION_LINE = re.compile(r"(?:pos(?:ition)?\s*)?(\d+)\s*[:=]\s*(\d+(?:\.\d+)?)\s*%?", re.IGNORECASE)
# `Acceptance rate at token 0: 0.58`: one position's rate a line, read as under a per-position heading
_RATE_AT_POSITION = re.compile(r"accept(?:ance|ed)?[ _]rate\s+(?:at|for|of)\s+(?:token|position|pos)\s*#?"
                               r"(\d+)\s*[:=]\s*(\d+(?:\.\d+)?\s*%?)", re.IGNORECASE)
_INLINE_POSITIONS = "acceptance rate by position"


_PERCENTAGE = re.compile(r"\d{1,2}(?:\.\d+)?")  # a percentile's key (`"99"`, `"99.9"`)
_AVERAGE_KEY = re.compile(r"(?:avg|mean)_(\w+)", re.IGNORECASE)


class _JsonPath:
    """The keys enclosing each line of (possibly cut) JSON, and the `unit` their object gives."""

    def __init__(self) -> None:
        self.keys: list[str] = []
        self.units: list[str] = []
        self.measured = ""  # the quantity the last `avg_<quantity>` key names (vLLM latency JSON's `avg_latency`)

    def read(self, line: str) -> Iterator[tuple[str, str, str]]:
        """(label, number, unit) of a `"key": number` line; opening and closing braces tracked."""
        pair = _JSON_PAIR.match(line)
        if pair and pair[2] in "{[":
            self.keys.append(pair[1])
            # an object named by a rate (`"tokens_per_second": {"generation_mean": ...}`) gives its unit
            words = pair[1].replace("_", " ")
            self.units.append(words if RATE_UNIT.fullmatch(words) else "")
        elif pair and pair[1] == "unit" and self.units:
            self.units[-1] = pair[2].strip('"')
        elif pair and VALUE.fullmatch(pair[2]) and self.keys[-1:] == ["percentiles"] and _PERCENTAGE.fullmatch(pair[1]):
            # vllm/benchmarks/latency.py's `"percentiles": {"10": ..., "99": ...}` beside `avg_latency` (seconds)
            yield f"p{pair[1]} {self.measured}".strip(), pair[2], "s" if self.measured == "latency" else ""
        elif pair and VALUE.fullmatch(pair[2]):
            parent = self.keys[-1] if self.keys and pair[1].lower() in STAT_KEYS else ""
            unit = self.units[-1] if self.units else ""
            if (averaged := _AVERAGE_KEY.fullmatch(pair[1])) and not self.measured:
                self.measured = averaged[1].lower()
            yield f"{parent} {pair[1]}".strip().replace("_", " "), pair[2], unit
        elif line.startswith(("}", "]")) and self.keys:
            self.keys.pop()
            self.units.pop()


# What a server's periodic metrics line says and a script's results printed through `logging` do
# not: the server's state (requests running, waiting, pending, swapped or queued; KV-cache or token
# usage), the engine and interval it averages over (vLLM's `Engine 000: Avg prompt throughput`, its
# `Speculative metrics:` with `System efficiency`), the step or a request's tokens so far (mlc's
# `[i: 166]`, llama-server's `slot print_timing: id 0 | task 5` and `n_decoded`, Ollama's `n_gen`),
# SGLang's `Decode batch`, and the access log of the requests it serves (`"POST /v1/... HTTP/1.1" 200`).
_SERVER_WORDS = re.compile(
    r"\b(?:running|waiting|pending|swapped|queued?)[:=]?\s*\d|#(?:running|queue)-req|\b(?:kv cache|token) usage"
    r"|\bengine \d+:|\bavg (?:prompt|generation) throughput|\bspeculative metrics:|\bsystem efficiency"
    r"|\[i: ?\d+\]|\bn_(?:decoded|gen)\b|\bslot \w+:\s*id\b|\bdecode batch\b|\b(?:GET|POST) /\S* HTTP/", re.IGNORECASE)


@functools.lru_cache(maxsize=1024)  # one output's lines are read by several passes (whole, each paragraph, each run)
def _line_as_read(raw: str) -> tuple[str, bool, bool]:
    """(the line readings() reads, whether a logger prefix was cut off it, whether a server printed
    it): cleaned, its annotations, URLs, dates and times dropped, durations in seconds, percentiles
    and statistics named."""
    line = clean(raw).strip()
    prefixed = len(line) < len(raw.strip())
    server = bool(_SERVER_WORDS.search(raw))
    line = _ANNOTATION.sub("", line) if _ANNOTATION_MARK.search(line) else line
    line = _URL.sub(" ", line) if "://" in line else line
    line = _DATE_OR_TIME.sub(" ", line) if "-" in line or ":" in line or "," in line else line
    line = _GO_DURATION.sub(_seconds, line) if "m" in line else line
    line = _PERCENTILE_WORDS.sub(_percentile_name, line) if "percentile" in line else line
    line = _TREE_MARK.sub("", line) if line.startswith("+") else line
    line = _SPREAD_IN_PARENTHESES.sub("", line) if "(±" in line or "( ±" in line else line
    line = _UNIT_IN_PARENTHESES.sub(r" \1", line) if ")" in line else line
    return (_named_statistics(line) if "(" in line else line), prefixed, server


def readings(lines: list[str], logged: bool = False) -> Iterator[_Reading]:
    """Every named value of the text's lines: labelled lines, rows of headed tables and
    `"key": number` lines of JSON (commands and training lines skipped); `logged`: lines whose
    logger prefix is gone, each printed behind one."""
    header: list[str] | None = None
    columns: list[str] = []  # the header of a table laid out with spaces, not bars
    json = _JsonPath()
    phase = ""  # the phase a heading above names (`-----prefill-----`), until the next heading
    row_phase = False  # the phase was named by a table row's first cell: it ends with that table
    closed = False  # whether the table's header ends in a bar (then every whole row does)
    section = ""  # a heading whose statistics follow on lines of their own
    latency_stat = ""  # the statistic a sweep summary's heading names for its lines' bare `latency`
    first_position: int | None = None  # the first position number under a per-position heading
    seconds = False  # inside a table whose unitless times are seconds (LMDeploy's Profiler)
    distribution = False  # inside a table of percentiles
    for index, raw in enumerate(lines):
        line, prefixed, server = _line_as_read(raw)
        behind_prefix = logged or prefixed
        if stat_heading := _LATENCY_STAT_HEADING.fullmatch(line):
            latency_stat = "avg" if stat_heading[1] else stat_heading[2].lower()
            continue
        latency_stat = latency_stat if line.strip() else ""
        if _SECONDS_TITLE.search(line) or (seconds and set(line) == {"="}):
            seconds = not seconds  # inside LMDeploy's Profiler table until its closing rule
            continue
        if heading := _PHASE_HEADING.match(line):
            phase, row_phase = _PHASE_WORDS.get(heading[1].lower(), heading[1].lower()), False
            continue
        if _HEADING.match(line):
            phase = ""
        if _NAMING_TITLE.match(line) and not RATE_UNIT.search(line):
            continue
        if (heading := _STAT_HEADING.match(line)) and not VALUE.search(line):
            section = heading[1] or heading[2]  # `Time to First Token (ms):` over `  Median: 50.16`
            first_position = None
            continue
        if inline := _RATE_AT_POSITION.fullmatch(line):  # its list starts where the lines start
            first_position = first_position if section.startswith(_INLINE_POSITIONS) else None
            section = _INLINE_POSITIONS + (" (%)" if "%" in inline[2] else "")
            line = f"{inline[1]}: {inline[2]}"
        position = _POSITION_LINE.fullmatch(line) if "position" in section.lower() else None
        if position:  # `Per-position acceptance (%):` over `  0:  57.12` (vLLM counts from 0)
            first_position = int(position[1]) if first_position is None else first_position
            scale = 0.01 if "%" in section else 1.0
            yield _Reading(f"accept_pos_{int(position[1]) - first_position + 1}",
                           printed_number(position[2]) * scale, index, behind_prefix, server)
            continue
        # a row between bars, or a table copied without its outer bars (guidellm's `  name|  0.43|`)
        # a table without outer bars (GitHub's `name | value` over `-- | --`), once headed
        next_line = lines[index + 1] if index + 1 < len(lines) else ""
        bars = (bool(BARS.search(line[:3])) or (line.count("|") >= 3 and not is_progress_bar(line))
                or ("|" in line and (header is not None or bool(TABLE_RULE.match(next_line.strip())))))
        if distribution and (bars or TABLE_RULE.match(line)):
            continue  # a row of a percentile table: the spread of the result above
        if distribution := bars and is_distribution_header(row_cells(line), next_line):
            continue
        if bars and is_header(cells := row_cells(line), next_line,
                               lines[index + 2] if index + 2 < len(lines) else ""):
            cells = joined_header(lines[index - 1] if index else "", cells)
            # `| Metric | run A | run B |` names runs, not figures: its rows are label/value rows
            # (unless its other columns are statistics, `| Metric | avg | p99 |`: rows by column)
            header = None if cells[0].lower() in KEY_COLUMNS and not _stat_columns(cells) else cells
            closed = line.endswith(BAR_CHARS)
            continue
        spaced = SPACED.split(line)
        if columns and DASH_RULE.fullmatch(line):  # tabulate's `-----  -----` under its header
            continue
        after = [clean(below).strip() for below in lines[index + 1 : index + 3]]
        if after and DASH_RULE.fullmatch(after[0]):
            after = after[1:]
        if not bars and (found_columns := spaced_columns(raw, spaced, after[0] if after else "")):
            header, columns = None, found_columns  # `Engine  Ctx  TTFT(ms)  Decode t/s`: rows follow
            continue
        if columns and len(row := without_index(spaced, columns)) == len(columns) and not bars:
            found = _by_row_name(columns, row, list(table_row(columns, "|".join(row))))
            if seconds:
                found = [(label, number, unit or "s") for label, number, unit in found]
            yield from _line_readings(found, line, index, behind_prefix, server)
            continue
        columns = []
        header = header if bars or TABLE_RULE.match(line) else None  # a rule between rows keeps it
        if header is not None and bars and index and TABLE_RULE.match(lines[index - 1].strip()) and (
                names := sub_header(header, row_cells(line))):
            header = names  # a second header row under the rule, below a group header
            continue
        if _JSON_LIST.match(line):
            continue  # `"latencies": [1.2, 1.25, ...]`: every run's sample, no figure
        if _JSON_PAIR.match(line) or line.rstrip(",") in _JSON_BRACES:
            yield from _line_readings(list(json.read(line)), line, index, behind_prefix, server)
            continue
        line = _NOTED_FLAGS.sub("", line) if " --" in line and _LABELLED_START.match(line) else line
        if not any(c.isdigit() for c in line) or _TRAINING.search(line) or _SKIPPED.search(line):
            continue
        if is_run_heading(line):
            yield from _line_readings(list(_framed_settings(line)), line, index, behind_prefix, server)
            continue
        if header is not None:
            # a row of a table closed by bars that lacks its closing one was cut inside it
            found = list(table_row(header, line)) if line.endswith(BAR_CHARS) or not closed else []
            found = _by_row_name(header, row_cells(line), found) if _stat_columns(header) else found
            # `| Prefill | 1 | 23.88 tokens/secs |` then `|  | 2 | ... |`: a phase cell holds down
            phase = _row_phase(line) or (phase if found and not row_cells(line)[0] else "")
            row_phase = bool(phase)
        else:
            phase = "" if row_phase else phase  # AIPerf's `Prefill ... Per User` row: not the next table's
            found = list(labelled_cells(line)) if bars else list(_segments(line))
            found = [(f"{latency_stat} {label}" if latency_stat and label.strip().lower() == "latency" else label,
                      number, unit) for label, number, unit in found]
        if phase:
            found = [(_in_phase(label, phase), number, unit) for label, number, unit in found]
        if section and found and all(is_stat(label) for label, _, _ in found):
            if len(found) == 1:  # `    p25 = 47.5` under a rate's name: that rate's p25
                yield from _stat_of_rate(_line_readings([(f"{section} {found[0][0]}", *found[0][1:])],
                                                        line, index, behind_prefix, server), found[0][0])
                continue
            found = [(f"{section} {label}", number, unit) for label, number, unit in found]
        elif found:
            section = ""
        yield from _line_readings(found, line, index, behind_prefix, server)


def is_run_heading(line: str) -> bool:
    """Whether a line heads the run below it: a banner framed by one rule character on both sides
    (`=== c=8 rep=1 ===`), or a line of that run's settings alone naming its load (`c=4:`, `[c=4 rep=1]`)."""
    line = clean(line).strip()
    settings = _RUN_WORDS.sub("", line.lstrip("#*> ").rstrip("* "), count=1)  # `## c=4`, `VLLM c=4 rep=1`
    return bool(_FRAMED_HEADING.fullmatch(line)
                or (_SETTINGS_ALONE.fullmatch(settings) and _FRAMED_SETTING.search(line) and not _SETTING_LINE.fullmatch(line)))


def _framed_settings(heading: str) -> Iterator[tuple[str, str, str]]:
    """The concurrency and batch size a framed heading names (`c=1`, `concurrency 8`, `bs=4`); its
    other numbers (`rep=1`, `fa2=0`, a time) name the run, and are no figures."""
    for key, raw in _FRAMED_SETTING.findall(heading):
        yield _SETTING_FIELDS[key.lower().replace(" ", "")], raw, ""


def _named_statistics(line: str) -> str:
    """A `name: value (p50: x, max: y)` line with each statistic named by its quantity
    (`name: value, name p50: x, name max: y`); any other line as it is."""
    found = _STATS_IN_PARENTHESES.fullmatch(line)
    if found is None:
        return line
    stats = [f"{found['name']} {stat}: {value.strip()}" for stat, value in _STAT_PAIR.findall(found["stats"])]
    return "; ".join([f"{found['name']}: {found['head']}", *stats])


def _stat_columns(header: list[str]) -> bool:
    """Whether a header's columns after the first, or after its key column behind the settings
    of its runs (EvalScope's `Conc. | Rate | Metric | avg | p50 | p99`), are statistics, two at
    least (`Metric,avg,min,p99`)."""
    stats = header[_key_column(header) + 1 :]
    return len(stats) >= 2 and all(is_stat(cell) for cell in stats)


def _key_column(header: list[str]) -> int:
    """Where a header's key column is (`Metric`, `Name`): its first column when it names none."""
    return next((index for index, cell in enumerate(header) if cell.strip().lower() in KEY_COLUMNS), 0)


def _stat_of_rate(readings: Iterator[_Reading], stat: str) -> Iterator[_Reading]:
    """Readings of a statistic printed under a rate's name (llmperf's `p25 = 43.9` under
    `request_output_throughput_token_per_s`) named with it: a rate's name leaves it out."""
    stat = {"p50": "median", "stddev": "std"}.get(stat.lower(), stat.lower())
    for reading in readings:
        if reading.name.endswith(("tok_s", "request_throughput")):
            reading.name = f"{reading.name}_{stat}"
        yield reading


# a statistic a tool did not compute (GenAI-Perf's `N/A` under a throughput's min and max): no part of a name
_NO_VALUE = re.compile(r"\s*(?:n/?a|nan|none|null|-+|—|–)\s*", re.IGNORECASE)


def _by_row_name(columns: list[str], row: list[str],
                 found: list[tuple[str, str, str]]) -> list[tuple[str, str, str]]:
    """A spaced table's cells named by their row too when every number's column is a statistic
    (`mean  P50  P99` over `Time to First Token (TTFT)  1.234  0.900  5.100`, pandas describe()'s
    `count  mean  std  min  25%`): each row is then a quantity and each column its statistic, not one
    run's figures."""
    if len(row) != len(columns):
        return found
    key = _key_column(columns)  # settings columns before a key column keep their own names
    name = " ".join(cell for cell in row[key:] if cell and not VALUE.fullmatch(cell) and not _NO_VALUE.fullmatch(cell))
    settings = [(label, number, unit) for label, number, unit in found if label in columns[:key]]
    stats = found[len(settings):] if found[: len(settings)] == settings else []
    if not name or not stats or not all(is_stat(label) for label, _, _ in stats):
        return found
    # pandas describe()'s `count` counts the samples the row's statistics are over: no statistic of its quantity
    return [*settings, *(("samples" if label.lower() == "count" else f"{name} {label}", number, unit)
                         for label, number, unit in stats)]


def _row_phase(line: str) -> str:
    """The phase a table row's first cell names (`| Prefill | 1 | ...`), or ""."""
    cells = row_cells(line)
    phase = _PHASE_CELL.match(cells[0]) if cells else None
    return phase[1].lower() if phase else ""


def _in_phase(label: str, phase: str) -> str:
    """A label qualified by the phase it was printed under, unless it names a setting or the
    phase already."""
    return label if phase in label.lower() or SETTING_LABEL.search(label) else f"{phase} {label}"


def _line_readings(found: list[tuple[str, str, str]], line: str, index: int,
                   logged: bool, server: bool = False) -> Iterator[_Reading]:
    """The named readings of one line's (label, number, unit) values, each name once."""
    by_label: dict[tuple[str, str], list[tuple[str, str]]] = {}
    for label, raw_number, unit in found:
        if label:
            by_label.setdefault((label, unit), []).append((raw_number, unit))
    named: set[str] = set()  # a name once a line: `283.10 ms / 400 runs` is one figure
    for (label, _), values in by_label.items():
        for found_value in named_values(label, values, line[: max(line.find(label), 0)]):
            if found_value.name not in named:
                named.add(found_value.name)
                yield _Reading(found_value.name, found_value.value, index, logged, server,
                               found_value.converted, found_value.rounding)


def _seconds(duration: re.Match[str]) -> str:
    """A Go duration (`1m2.5s`, `1h2m0s`) as the seconds it stands for (`62.5 s`)."""
    hours, minutes, seconds, bare_hours, bare_minutes = duration.groups()
    total = (int(hours or bare_hours or 0) * 3600 + int(minutes or bare_minutes or 0) * 60
             + float(seconds or 0))
    return f"{total:.12g} s"


def _results(found: Iterable[_Reading], headlines: tuple[str, ...] = HEADLINES,
             settings: frozenset[int] = frozenset(), rows: frozenset[int] = frozenset(),
             headed: frozenset[int] = frozenset(), bars: frozenset[int] = frozenset()) -> list[_Result]:
    """Readings grouped into results, line by line: a line that prints a name again with
    another value starts the next result, and so does a setting line (`tp = 4`, one of
    `settings`) after a result's headline: a setting heads the figures it was measured with, and
    every result under it until the next; so does a Markdown heading printing a value (one of
    `headed`: `## Eagle decoding speed: 297 token/s`). A table row (one of `rows`) that prints the headline
    again is another result even where its values repeat the row above (a run measured twice),
    and so is a logged line that does (a server's periodic line reading the same rate again)."""
    results = [_Result()]
    held: dict[str, float] = {}  # the last setting line's, held down over the results under it
    heads = sorted(headed)
    last = -1
    for index, group in itertools.groupby(found, key=lambda reading: reading.line):
        line = list(group)
        current = results[-1].readings
        headline = _headline(current, headlines)
        # a heading heads what follows it whether or not it prints a value itself
        crossed = bisect.bisect_right(heads, index) > bisect.bisect_right(heads, last)
        last = index
        rounding = results[-1].rounding
        if any(_differs(current.get(r.name), r.value, max(r.rounding, rounding.get(r.name, 0.0)))
               for r in line) or (bool(current) and (results[-1].last in bars) != (index in bars)) or (
                (index in settings or crossed) and headline) or (
                (index in rows and index - 1 in rows or all(r.logged for r in line) and any(r.server for r in line))
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


def _differs(seen: float | None, value: float, rounding: float = 0.0) -> bool:
    """Whether a value printed again differs from the one seen beyond rounding: the coarser
    print's (`rounding`, `2.74` after `164.67 req/min`), or a relative ECHO_TOLERANCE."""
    if seen is None:
        return False
    return abs(seen - value) > max(ECHO_TOLERANCE * max(abs(seen), 1e-9), rounding)


def _headline(readings: dict[str, float], headlines: tuple[str, ...] = HEADLINES) -> str | None:
    """The name of a result's headline figure, or None when it has none: a rate printed as 0 is
    one only beside a measured latency (a run whose tool printed a zero rate, TGI-Gaudi's bug;
    an idle server's zeros measure nothing)."""
    positive = next((name for name in headlines if readings.get(name, 0) > 0), None)
    if positive or not any(value > 0 and "_ms_" in name for name, value in readings.items()):
        return positive
    return next((name for name in headlines if name in readings), None)


def _summarised(results: list[_Result]) -> list[_Result]:
    """A server's periodic log line (results printed behind a logger prefix in a server's words,
    with the same headline) as one result of the medians of the names
    every line prints (a cut last line prints fewer); a script's results printed through a
    logger are results of their own, and so are logged results at different settings (one block
    per concurrency): runs, not a period."""
    periodic = [r for r in results if r.logged and r.server]
    if not periodic or len({_headline(r.readings, PROMPT_ONLY) for r in periodic}) != 1 or len(
            {tuple(r.readings.get(name) for name in _SETTINGS) for r in periodic}) > 1:
        return results
    names = set(periodic[0].readings)
    for result in periodic[1:]:  # not a set per line held at once: a 100 MB log has a million
        names &= result.readings.keys()
    summary = _Result({name: statistics.median(r.readings[name] for r in periodic) for name in names},
                      periodic[0].first, periodic[-1].last, summary=True)
    summary.readings["log_lines"] = float(len(periodic))
    return [summary, *(r for r in results if not (r.logged and r.server))]  # the rest: not periodic


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


def _summarised_bars(results: list[_Result], lines: list[str]) -> list[_Result]:
    """A progress bar's rates followed by the tool's own summary of the same headline (vLLM's
    `Processed prompts: 100%|...| est. speed ... output: 3696.76 toks/s]`, then `Throughput: ...
    3713.87 output tokens/s`) as the summary alone: the bar's are its running estimate of that run.
    So are the bars of a run's batches right above its summary (an MLPerf harness's `Processed
    prompts` bar per offline batch, then LoadGen's `Tokens per second`): the summary covers them all."""
    kept: list[_Result] = []
    for result in results:
        if not is_progress_bar(lines[result.first]) and (headline := _headline(result.readings)) is not None:
            while kept and is_progress_bar(lines[kept[-1].first]) and _headline(kept[-1].readings) in (
                    headline, "output_tok_s" if headline == "throughput_tok_s" else headline):
                kept.pop()  # an unqualified `Tokens per second` sums up the bars' output rate
        kept.append(result)
    return kept


def _unfinished_bar(line: str) -> bool:
    """Whether a line is a progress bar short of its total (`225/1000 [`)."""
    position = _BAR_POSITION.search(line)
    return is_progress_bar(line) and position is not None and position[1] != position[2]


def _averaged(results: list[_Result], lines: list[str]) -> list[_Result]:
    """Trials followed by their average (`Trial 1: ...` ... `Averages: ...`, `eval rate:` lines
    then `Average of eval rate:`) as the average alone: the line the tool prints as its result.
    The trials are the results just above with the average's headline, back to the last average.
    A line right under an average that prints its headline again is a result of its own (the
    rows of a table under a `=== ... Summary ===` title), not the average's next line."""
    kept: list[_Result] = []
    for result in results:
        if kept and result.first == kept[-1].last + 1 and _is_average(lines, kept[-1].first) \
                and _headline(kept[-1].readings) not in result.readings:
            for name, value in result.readings.items():  # the summary's next line: the same result
                kept[-1].readings.setdefault(name, value)
            kept[-1].last = result.last
            continue
        if _is_average(lines, result.first):
            headline = _headline(result.readings)
            while kept and headline in kept[-1].readings and not _is_average(lines, kept[-1].first) \
                    and not _prints_label(lines, kept[-1], lines[result.first]):
                kept.pop()
        kept.append(result)
    return kept


def _without_sweep_total(results: list[_Result]) -> list[_Result]:
    """Results less a block of labelled lines without a load of its own printed above table rows
    that each carry theirs: the sweep's total over its rows (evalscope perf's `Basic Information`
    box, `Avg Output Rate` = all runs' tokens over their summed time, over its `Conc.` rows)."""
    rows = [result for result in results if result.first == result.last and "concurrency" in result.readings]
    if not rows:
        return results
    return [result for result in results if result.first == result.last or "concurrency" in result.readings
            or result.first > rows[0].first]


_SUMMARY_HEADING = re.compile(r"[-=#*]{3,}.*\b(?:summary|averages?)\b", re.IGNORECASE)


_LABEL = re.compile(r"[^:=|\d]*")


def _prints_label(lines: list[str], result: _Result, line: str) -> bool:
    """Whether a result prints a line of the same label as `line` (`Average TTFT:` in each run's
    block of a table with a column per run): then each prints its own mean, not one of the other."""
    label = _LABEL.match(clean(line).strip())
    words = label[0].strip().lower() if label else ""
    return bool(words) and any((m := _LABEL.match(clean(other).strip())) and m[0].strip().lower() == words
                               for other in lines[result.first : result.last + 1])


_FIGURE = re.compile(r"\d[\d,]*(?:\.\d+)?")


def _quoted_back(result: _Result, lines: list[str], rows: frozenset[int]) -> bool:
    """Whether a one-line result (not a table row, not a logged line) only repeats two or more
    figures an earlier line printed together: the user quoting the tool's line back (`i get this
    **66199.41 ms per token, 0.02 tokens per second**` under llama-cli's `eval time` line)."""
    if result.first != result.last or result.first in rows or result.logged:
        return False
    said = _FIGURE.findall(clean(lines[result.first]))
    return len(said) >= 2 and any(set(said) <= set(_FIGURE.findall(clean(line)))
                                  for line in lines[: result.first])


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
    the acceptance rate a speculative table's bare `rate` column is (a percentage above 1), and
    a bare `Acceptance` column's fraction (0 to 1) is."""
    emitted = readings.get("number_of_emitted_tokens")
    drafts = readings.get("number_of_draft_tokens")
    k = readings.get("number_of_speculative_tokens")
    if emitted and drafts and k and "accept_length" not in readings:
        readings["accept_length"] = emitted / (drafts / k)
    for count, duration, rate in _NANOSECOND_COUNTS:  # Ollama's API answer: counts over durations in ns
        if readings.get(count) and readings.get(duration) and rate not in readings:
            readings[rate] = readings[count] / readings[duration] * 1e9
    _name_the_rate(readings)
    bare = readings.get("rate")  # a bare `rate` beside an accept length: the acceptance rate
    if bare and "accept_length" in readings and "acceptance_rate" not in readings:
        readings["acceptance_rate"] = readings.pop("rate") / (100 if bare > 1 else 1)
    if 0 < readings.get("acceptance", 2.0) <= 1 and "acceptance_rate" not in readings:
        readings["acceptance_rate"] = readings.pop("acceptance")  # a bare `Acceptance` fraction
    return readings


def _first(readings: dict[str, float], names: tuple[str, ...]) -> float | None:
    """The first of `names` the readings hold (a positive value), or None."""
    return next((readings[name] for name in names if readings.get(name, 0) > 0), None)


def _name_the_rate(readings: dict[str, float]) -> None:
    """Tell what an unqualified rate counts (`Throughput: 12577 tokens/s`, JSON `throughput`):
    the total when it equals (input + output) tokens, or the total count printed (vLLM throughput
    JSON's `total_num_tokens`), over the duration or is printed beside a
    request rate, the output rate when it equals output tokens over the duration or is a bare
    `throughput` beside an accept length (a speculative run's rate is of the tokens it emits)."""
    key = "throughput_tok_s" if "throughput_tok_s" in readings else "throughput"
    rate = readings.get(key)
    if not rate or "output_tok_s" in readings:
        return
    duration = _first(readings, _DURATIONS)
    inputs, outputs = _first(readings, _INPUT_COUNTS), _first(readings, _OUTPUT_COUNTS)
    total = _first(readings, _TOTAL_COUNTS) or (inputs and outputs and inputs + outputs)
    counted_total = bool(duration and total and abs(total / duration - rate) <= 1e-3 * rate)
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


_NAMESPACE = re.compile(r"Namespace\(")
# argparse's settings a script printed (`Namespace(batch_size=8, ...)`, vLLM's benchmarks) -> figure names
_NAMESPACE_SETTINGS = {"batch_size": "batch_size", "max_concurrency": "concurrency", "request_rate": "request_rate"}


def _command_settings(text: str, end: int) -> dict[str, float]:
    """Concurrency and request rate given on a printed command line before offset `end`, and the
    batch size, concurrency and request rate of the last argparse Namespace printed before it."""
    args = last_repr_before(text, _NAMESPACE, end)
    settings = {name: found for key, name in _NAMESPACE_SETTINGS.items()
                if (found := number(args.get(key))) is not None}
    if flag := last_match(text, _COMMAND_CONCURRENCY, end):
        settings["concurrency"] = float(next(group for group in flag.groups() if group))
    if (rate := last_match(text, _COMMAND_RATE, end)) and rate[1] != "inf":
        settings["request_rate"] = float(rate[1])
    return settings


def _record(result: _Result, text: str, offsets: dict[int, int]) -> Record:
    """The benchmark record of one result."""
    readings = dict(result.readings)
    offset = offsets[result.first]
    for name, value in _command_settings(text, offset).items():
        readings.setdefault(name, value)
    if readings.get("request_rate", 0.0) < 0:  # EvalScope's `Request rate -1`: no limit, as `--request-rate inf`
        del readings["request_rate"]
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
        # a signed difference (AIPerf's `OSL Mismatch Diff %`) is no figure the store holds (0 and up)
        figures={name: v for name, v in readings.items() if not name.startswith("_") and v >= 0},
        **metric,
    )


_GENERATION = ("output", "decode", "gen_", "generation", "completion", "tpot", "itl")


@dataclass(slots=True)
class _Seen:
    """What a pass over the readings saw, so that they stream into results without a list held
    of them all: which lines held one, and whether any measured generation."""

    lines: bytearray
    generated: bool = False

    def watch(self, found: Iterable[_Reading], lines: list[str]) -> Iterator[_Reading]:
        """The readings, each noted; a total token rate on a line that prints a request rate
        (`Throughput: 81.74 requests/s, 20926.37 tokens/s`) is marked as the total."""
        for reading in found:
            self.lines[reading.line] = 1
            self.generated = self.generated or _is_generation(reading)
            yield reading
            if reading.name == "throughput_tok_s" and "requests/s" in lines[reading.line]:
                yield _Reading("_same_line_requests", 1.0, reading.line)


def _is_generation(reading: _Reading) -> bool:
    """Whether a reading measures generation (`output_len: 256`, a decode latency, a generation
    rate even of 0): the output's headline is then a generation rate, and an output without one
    is cut or idle, not a prompt-only run."""
    return reading.name.startswith(_GENERATION) and (reading.value > 1 or reading.name.endswith("tok_s"))


def parse(text: str, problems: list[str], prompt_only: bool = False) -> list[Record]:
    """Every result of the labelled lines in the text (the fallback when no format knows it);
    with `prompt_only`, an output that measured prompt processing alone is read by that rate
    (not for a paste cut short, which may have lost its generation rate)."""
    plain = without_logger_prefix(text)  # a table read as one, also when printed through a logger
    logged = plain != text
    text = prepared(plain)
    lines = text.splitlines()
    settings = frozenset(i for i, line in enumerate(lines) if _SETTING_LINE.fullmatch(clean(line).strip())
                         or (is_run_heading(line) and _FRAMED_SETTING.search(line)))
    rows = frozenset(i for i, line in enumerate(lines) if line.lstrip().startswith(BAR_CHARS))
    headed = frozenset(i for i, line in enumerate(lines)
                       if _VALUE_HEADING.match(line) or _RUN_HEADING.match(line) or _TOOL_HEADING.fullmatch(line))
    seen = _Seen(bytearray(len(lines)))
    bars = frozenset(i for i, line in enumerate(lines) if is_progress_bar(line))
    measured = _results(seen.watch(readings(lines, logged), lines), HEADLINES, settings, rows, headed, bars)
    if not measured and prompt_only and not seen.generated:
        measured = _results(seen.watch(readings(lines, logged), lines), PROMPT_ONLY, settings, rows, headed, bars)
    results = _without_sweep_total(_averaged(_summarised(_summarised_bars(_latest_redraws(measured, lines), lines)),
                                             lines))
    results = [result for result in results if not _quoted_back(result, lines, rows)]
    firsts = {result.first for result in results}
    offsets = {index: offset for index, offset in enumerate(
        itertools.accumulate((len(line) + 1 for line in lines), initial=0)) if index in firsts}
    records = [_record(result, text, offsets) for result in results]
    for record, result in zip(records, results, strict=True):
        # a table row per config (under its setting line, if any): its name cell names it
        first = result.first + 1 if result.first in settings else result.first
        if first == result.last or (first < result.last and not any(seen.lines[first:result.last])):
            record.config = _row_name(lines[result.last], result.readings)
        if record.config is None and (banner := _FRAMED_HEADING.fullmatch(clean(lines[result.first]).strip())):
            name = _BANNER_NAME.sub("", banner[0]).strip()  # `=== VLLM c=1 rep=1 (19:53:04) ===`
            record.config = None if _SETTINGS_ALONE.fullmatch(name) else name  # not `=== c=4 ===`: settings alone
        above = clean(lines[result.first - 1]).strip() if result.first else ""
        if record.config is None and above and not seen.lines[result.first - 1] and _NAME_HEADING.fullmatch(
                above) and not _NOT_A_NAME.search(above):
            record.config = above.strip("#*: ")  # `EAGLE-3 (num_steps=8):` over its result
        _settings_in_name(record)
        _test_row(record, result, lines[result.last] if result.first == result.last else "")
    _named_by_user_labels(records, results, lines)
    return records


def _named_by_user_labels(records: list[Record], results: list[_Result], lines: list[str]) -> None:
    """Results of runs a user pasted under labels they typed (`main:`, `commit abc123`) named by
    them (runs.labelled_runs), in front of a name of their own (a heading's, a table row's), in
    place of a lone line's label (`eval rate: 61.00 tokens/s`)."""
    firsts = {result.first for result in results}
    starts = run_labels("\n".join(lines), lambda index, _: index in firsts, apart=True)
    for record, result in zip(records, results, strict=True):
        if (label := label_of(starts, result.first)) is None:
            continue
        own = result.first == result.last and not BARS.search(lines[result.last])  # a lone line's own label
        named = record.config and not own and label not in record.config
        record.config = f"{label} · {record.config}" if named else (record.config if record.config and not own
                                                                     else label)


# a row named by a llama-bench test: prompt alone (`pp512`, `pp2048 @ d4096`) or prompt and generation
_PROMPT_TEST = re.compile(r"(?<![\w+])pp\s*\d+(?:\s*@\s*d\d+)?(?![\w+])", re.IGNORECASE)
_COMBINED_TEST = re.compile(r"(?<!\w)pp\s*\d+\s*\+\s*tg\s*\d+", re.IGNORECASE)
_GENERATION_TEST = re.compile(r"(?<![a-z])tg\s*\d+", re.IGNORECASE)


def _test_row(record: Record, result: _Result, row: str) -> None:
    """A row naming a llama-bench test in its name or any cell (compare-llama-bench.py's
    `| Model | Test | t/s master |` rows) says what its unqualified t/s counts, as llama-bench
    does: `pp512` the prompt, `pp512+tg128` prompt and generation (the total)."""
    name = f"{record.config or ''} {row}"
    if "throughput_tok_s" not in result.readings:
        return
    if _COMBINED_TEST.search(name):
        record.metric = "total_tok_s"
    elif _PROMPT_TEST.search(name) and not _GENERATION_TEST.search(name):
        record.metric = "prompt_tok_s"


_MARKDOWN_HEADING = re.compile(r"^#{1,6} +")
_VALUE_HEADING = re.compile(r"#{1,6} [^\n]*:\s*\d[\d.,]*\s*\S*\s*$")  # `## Eagle decoding speed: 297 token/s`
# a line naming a local runner alone (`lm studio:` after `ollama [v0.11.4]`'s stats): its result follows
_TOOL_HEADING = re.compile(r"\s*(?:ollama|lm ?studio|llama\.?cpp|llamafile|koboldcpp|jan|gpt4all|localai|mlx(?:[-_]lm)?)"
                           r"(?:\s*\[?v?\d[\w.-]*\]?)?\s*:?\s*", re.IGNORECASE)
# a banner numbering a run (`==== Cortex-A78 2 threads orca-mini run 2 ====`): what follows is that run's
_RUN_HEADING = re.compile(r"[-=#*]{2,}[^\n]*\b(?:run|trial|round|attempt|iteration)\s*#?\d+\b", re.IGNORECASE)
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
    cells = row_cells(line) if BARS.search(line) else SPACED.split(line)
    if len(cells) == 1 and ":" in line:  # `with eagle: 30 tps`, not `Speed: 45.3 tok/s`
        cells = line.split(":", 1)
        if len(VALUE.findall(cells[1])) != 1 or _FIGURE_WORD.search(cells[0]):
            return None
    if len(cells) > 2 and cells[0].isdigit():  # pandas' index
        cells = cells[1:]
    first = _MARKDOWN_HEADING.sub("", EMPHASIS.sub("", cells[0]).strip()).rstrip(":").strip() if len(cells) >= 2 else ""
    first = _BULLET.sub("", first)
    if (not first or re.fullmatch(r"[-+]?[\d.,]+", first) or VALUE_FIRST.fullmatch(first)
            or name_of(first, "")[0] in readings
            or _NOT_A_NAME.search(first)):
        return None
    more = itertools.takewhile(lambda cell: cell and not cell_value(cell), cells[1:-1])
    return " ".join([first, *more])  # `| Llama 3 8B | Q4_0 | 1,234.5 |`: the text cells before values
