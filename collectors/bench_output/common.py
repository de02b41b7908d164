"""Small helpers every benchmark-output parser uses: plain text, numbers, reprs and JSON lines."""

from __future__ import annotations

import bisect
import itertools
import json
import math
import re
import statistics
import textwrap
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from sessiontui.collectors.logtext import clean, strip_ranks, uncoloured
from sessiontui.collectors.trainlog.normalize import LABELLED_SHARE, opening_lines, paste_mark
from sessiontui.project_memory.records import DEFAULT_METRIC, DEFAULT_UNIT, Record

_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}\b)")
# a number at the very end, or one followed by what continues it (`09-` of a date, `05:` of a time)
_TRAILING_NUMBER = re.compile(r"(?<![\w.])[-+]?\d[\d,]*\.?\d*(?:[eE][-+]?\d*)?[-:/]?$|\.$")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_QUOTES = ("# ", "> ", "// ")
_QUOTED = {mark: re.compile(rf"(?m)^\s*{re.escape(mark)}") for mark in _QUOTES}
# a non-blank line that does not start with the mark (searched, so no copy of the lines is made)
_UNQUOTED_LINE = {mark: re.compile(rf"(?m)^[^\S\n]*(?!{re.escape(mark)})[^\s]") for mark in _QUOTES}
# A line a paste's wrapping adds around the output: a Markdown fence (```, ```text), an HTML
# `<details>`/`<summary>` block an issue folds a long log into.
_WRAPPING = re.compile(r"(?m)^[ \t]*(?:```[\w+-]*|</?details>|<summary>.*?</summary>)[ \t]*\n")
# Lines other programs print into a benchmark's output, never part of a result: a Python warning
# (`file.py:558: UserWarning: ...`) and the source line it echoes (`  warnings.warn(`), NCCL's
# `host:pid:tid [0] NCCL INFO ...`, c10d's `[W socket.cpp:663] ...`.
_NOISE = re.compile(
    r"(?m)^(?:\S+\.py:\d+: \w*Warning: .*\n(?:[ \t]+\S.*\n)?"
    r"|\S+:\d+:\d+ \[\d+\] NCCL (?:INFO|WARN) .*\n"
    r"|\[[WI] [\w.]+:\d+\] .*\n)")
# A launcher's mark on every line it relays, which says nothing about the output (unlike a logger's
# time stamp, which the generic reader reads as a server's periodic line): docker compose's
# `svc-1  | `, mpirun's and SageMaker's `[1,mpirank:0,algo-1]<stdout>:`, kubectl's `[pod/x/c] `, and a
# process's own tag before its logger's fields (optimum-benchmark's `[MAIN-PROCESS][<time>][<name>]...`).
_LAUNCHER_MARK = re.compile(
    r"(?m)^(?:[\w.-]+[-_]\d+\s+\| |\[[^\]\n]{1,60}\]<std(?:out|err)>:|\[pod/[^\]\n]{1,120}\] "
    r"|\[[A-Z][A-Z-]{2,30}\](?=\[\d))")
# A tab inside a line stands for the spaces an editor or a web page's copy replaced (`tg =  12.9 t/s,\t`)
_INNER_TAB = re.compile(r"(?<=\S)[ \t]*\t[ \t]*")
_GLUED_BAR = re.compile(r"(\d+/\d+ \[[^\]\n]*\])(?=[^\s\]])")  # `13.97it/s]====== Serving ...`
# a table row a narrow terminal wrapped: `| llama 8B ... | CPU` over `   |       4 | ... | 183.79 ± 3.47 |`
_WRAPPED_ROW = re.compile(r"(?m)^([ \t]*\|[^\n]*[^|\s])[ \t]*\n[ \t]+(\|[^\n]*\|)[ \t]*$")
_KV = re.compile(r"(\w+)=('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|[^,()\s]+)")


_ASCII_PLUS_MINUS = re.compile(r"(?<=[\d%] )\+/-(?= \.?\d)|(?<=[\d%])\+/-(?=\.?\d)")
# a percentage's sign printed before its spread as well as after (`76.8% ± 0.0%`): one unit, after the spread
_PERCENT_SPREAD = re.compile(r"(?<=\d)%(?=[ \t]*±[ \t]*\.?\d[\d.]*[ \t]*%)")


def to_text(data: str | bytes) -> str:
    """Text with CRLF, carriage-return redraws, ANSI colours, rank prefixes and a quoting prefix
    every line shares (a paste kept in shell comments or a Markdown quote) made plain, a tab
    inside a line made the spaces it stands for, a progress bar's last redraw split from the
    output printed right after it on the same line, and table rows a terminal wrapped joined."""
    text = data.decode("utf-8", errors="replace") if isinstance(data, bytes) else data
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = uncoloured(text)
    if "\t" in text:
        text = _INNER_TAB.sub(_spaces, text)
    text = text.removeprefix("\ufeff").replace("\xa0", " ")
    if "+/-" in text:  # a spread typed in ASCII (`105.09 +/- 0.56 t/s`, `76.8% +/- 0.0%`)
        text = _ASCII_PLUS_MINUS.sub("±", text)
    if "±" in text:
        text = _PERCENT_SPREAD.sub("", text)
    text = _NOISE.sub("", _WRAPPING.sub("", text))
    if mark := paste_mark(text):  # srun's `0: ` task labels on every line
        text = mark.sub("", text)
    if _carried_by_most(_LAUNCHER_MARK.match, text):
        text = _LAUNCHER_MARK.sub("", text)
    elif compose := _compose_mark(text):
        text = compose.sub("", text)
    text = strip_ranks(text) if "]:" in text else text  # then a quote mark the rank label hid
    text = _GLUED_BAR.sub("\\1\n", unquoted(text))
    if "  " in text:  # a label copied from a rendered page with its words two spaces apart
        text = _SPREAD_LABEL.sub(_closed_up, text)
    text = joined_rows(text)
    return textwrap.dedent(text) if text.lstrip("\n")[:1] in (" ", "\t") else text  # an indented paste


# docker compose's prefix for a service given a `container_name` (`vllm_server  | `), its names padded to one width
_COMPOSE_NAME = re.compile(r"([A-Za-z][\w.-]*) +\| ")


def _compose_mark(text: str) -> re.Pattern[str] | None:
    """The prefix docker compose puts on nearly every line of one or two containers named freely
    (`vllm_server  | `, `bench  | `), each name on several lines and each bar in the same column, as a
    pattern; None for any other text (a table's `name | value` rows name each thing once)."""
    marks = [found for line in opening_lines(text) if (found := _COMPOSE_NAME.match(line))]
    names = Counter(found[1] for found in marks)
    if not (1 <= len(names) <= 2 and min(names.values()) >= 2 and len({found.end() for found in marks}) == 1
            and _carried_by_most(_COMPOSE_NAME.match, text)):
        return None
    return re.compile(rf"(?m)^(?:{'|'.join(map(re.escape, names))}) +\|(?: |$)")


def _spaces(tab: re.Match[str]) -> str:
    """The spaces a tab inside a line stands for: one after a field separator (`,\t`, `|\t`), where
    the printer put one, else at least two, so a column gap stays a gap."""
    if tab.string[tab.start() - 1] in ",;|" and tab.group() == "\t":
        return " "
    return " " * max(2, len(tab.group().replace("\t", "  ")))


def _carried_by_most(marked: Callable[[str], object], text: str) -> bool:
    """Whether nearly all of the opening non-blank lines are marked (`marked(line)` is truthy)."""
    opening = opening_lines(text)
    return bool(opening) and sum(1 for line in opening if marked(line)) >= LABELLED_SHARE * len(opening)


def without_logger_prefix(text: str) -> str:
    """The text without the logger or launcher prefix nearly every line carries (a log written
    through `logging`, docker compose's `svc-1  | `, glog's `I1201 ...]`), by logtext's stripper;
    a text whose lines mostly do not carry one is left as it is. A quote mark every message
    starts with (a script logging a shell-commented block, `# ====`) goes with it."""
    if not _carried_by_most(_stripped_head, text):
        return text
    return joined_rows(unquoted("\n".join(line[_stripped_head(line):] for line in text.split("\n"))))


def joined_rows(text: str) -> str:
    """The text with each table row a narrow terminal wrapped joined into one line."""
    return _WRAPPED_ROW.sub(r"\1 \2", text) if "|" in text and "\n " in text else text


def _stripped_head(line: str) -> int:
    """How many characters of a line are a logger prefix (0 without one); the message's own
    indent after the prefix's separating space is kept (a logged table's layout); a prefix
    alone (an empty message: a logged blank line) is all prefix."""
    payload = clean(line)
    if not payload:
        return len(line)
    if not line.endswith(payload):
        return 0
    head = len(line) - len(payload)
    indent = head - len(line[:head].rstrip(" ")) - 1
    return head - indent if indent > 0 and line[:head].strip() else head


# a `label: value` line's label of letters (`Avg  latency:`, `Output  token throughput (tok/s):`, its words two
# spaces apart when copied from a rendered page), never a table's spaced columns (no colon after); 60 characters at most
_SPREAD_LABEL = re.compile(r"(?m)^([ \t]*)([A-Za-z][\w.()/ -]{0,60}?)(?=:[ \t]+\S)")


def _closed_up(match: re.Match[str]) -> str:
    """A spread label with its words one space apart (any other label as it was)."""
    return match[1] + " ".join(match[2].split()) if "  " in match[2].strip() else match[0]


def unquoted(text: str) -> str:
    """The text without a `# `, `> ` or `// ` that starts every non-blank line."""
    for mark in _QUOTES:
        if text.strip() and not _UNQUOTED_LINE[mark].search(text):
            return _QUOTED[mark].sub("", text)
    return text


def trim_cut_tail(text: str) -> str:
    """The text without a last line that may have been cut inside a number.

    Output cut mid-write ends without a line break; its last line then ends inside whatever was
    being printed (`681.30` cut to `68`, `63266.8804` cut to `63266.88`). Such a line is left out
    whenever a number is the very end of the input, whatever precision it shows: no width is
    safe to trust (issue 24: a cut final number is never stored). A last line that ends in a word
    (`sm80`), a unit, a closing mark or the padding a column printed after the number is whole;
    one ending in a number and what continues it (`INFO 09-`, `05:`) is cut inside it. A last line
    that opens a JSON object and never closes it (a JSONL result, one object a line, cut before its
    end) is cut too, wherever the cut fell: its figures are not lines of their own.
    """
    if not text or text.endswith("\n"):
        return text
    start = text.rfind("\n") + 1
    last = text[start:]
    if _opens_json_it_never_closes(last):
        return text[:start]
    if last != last.rstrip() or not _TRAILING_NUMBER.search(last):
        return text
    return text[:start]


def _opens_json_it_never_closes(line: str) -> bool:
    """Whether a line starts a JSON object (`{"`) and closes fewer braces than it opens."""
    return line.lstrip().startswith('{"') and line.count("{") > line.count("}")


def number(text: object) -> float | None:
    """The finite number a value starts with ("1,234.5 tok/s" -> 1234.5), or None (also when a
    control character follows it: the number may continue after the garbage)."""
    if isinstance(text, bool):
        return None
    if isinstance(text, int | float):
        return float(text) if math.isfinite(text) else None
    if not isinstance(text, str):
        return None
    text = _THOUSANDS.sub("", text.strip())
    match = _NUMBER.match(text)
    if not match or _CONTROL.match(text, match.end()):  # `681\x00.30` is no 681
        return None
    value = float(match.group())
    return value if math.isfinite(value) else None


def whole(value: object) -> int | None:
    """A number as a whole count (concurrency, lengths), or None when absent or fractional."""
    found = number(value)
    return int(found) if found is not None and found == int(found) and found >= 0 else None


def slug(label: str) -> str:
    """A figure name from a printed label: lower case, words joined by underscores, a word
    printed twice running once (vLLM V0's `Number of draft tokens tokens`)."""
    name = re.sub(r"[^a-z0-9]+", "_", label.lower()).strip("_")
    return re.sub(r"(?<![a-z0-9])([a-z]+)(?:_\1)+(?![a-z0-9])", r"\1", name)


def median(values: Iterable[float]) -> float | None:
    """Median of the values, or None when there are none."""
    values = list(values)
    return statistics.median(values) if values else None


def kv_pairs(text: str) -> dict[str, str]:
    """`key=value` pairs of a printed Python repr (Namespace(...), ServerArgs(...)), unquoted."""
    pairs = {}
    for key, raw in _KV.findall(text):
        if raw[:1] in "'\"" and raw[-1:] == raw[:1] and len(raw) >= 2:
            raw = raw[1:-1]
        pairs[key] = raw
    return pairs


class _Matches:
    """Every match of one pattern in one text, found once: the last one before an offset is then
    a binary search, so reading N result blocks stays linear in N (issue 29)."""

    def __init__(self, text: str, pattern: re.Pattern[str]) -> None:
        self.text = text
        self.matches = list(pattern.finditer(text))
        self.starts = [match.start() for match in self.matches]


_MATCH_CACHE: dict[tuple[int, re.Pattern[str]], _Matches] = {}
MATCH_CACHE_SIZE = 32  # (text, pattern) pairs kept: the patterns of one output being parsed


def last_match(text: str, pattern: re.Pattern[str], end: int) -> re.Match[str] | None:
    """The last match of `pattern` that starts before offset `end` (and ends by it), or None."""
    key = (id(text), pattern)
    found = _MATCH_CACHE.get(key)
    if found is None or found.text is not text:
        if len(_MATCH_CACHE) >= MATCH_CACHE_SIZE:
            _MATCH_CACHE.clear()
        found = _MATCH_CACHE[key] = _Matches(text, pattern)
    index = bisect.bisect_left(found.starts, end) - 1
    while index >= 0 and found.matches[index].end() > end:
        index -= 1
    return found.matches[index] if index >= 0 else None


def forget_matches() -> None:
    """Drop the matches found so far: they hold the output they were found in."""
    _MATCH_CACHE.clear()


def last_repr_before(text: str, pattern: re.Pattern[str], end: int) -> dict[str, str]:
    """The key=value pairs of the last line matching `pattern` that starts before offset `end`."""
    match = last_match(text, pattern, end)
    if match is None:
        return {}
    line_end = text.find("\n", match.start())
    return kv_pairs(text[match.start() : line_end if line_end >= 0 else len(text)])


def present(value: str | None) -> str | None:
    """A printed setting, or None for Python's None/empty spellings."""
    return None if value in (None, "", "None", "none", "null") else value


def json_objects(text: str) -> Iterator[dict[str, Any]]:
    """JSON objects in the text: a whole JSON document (object or list, also one an excerpt cut
    before its closing brackets) or one object per line."""
    if "{" not in text:
        return
    stripped = text.strip()
    if stripped[:1] in "[{":
        try:
            document = json.loads(stripped)
        except ValueError:
            document = _closed_document(stripped)
        if document is not None:
            items = document if isinstance(document, list) else [document]
            yield from (item for item in items if isinstance(item, dict))
            return
    lines = text.splitlines()
    for index, line in enumerate(lines):
        line = line.strip()
        if not line.startswith("{"):
            continue
        try:
            item = json.loads(line)
        except ValueError:
            item = _broken_object(lines[index:])
        if isinstance(item, dict):
            yield item


def _closed_document(text: str) -> object:
    """A JSON document an excerpt cut after a whole line, before its closing brackets, closed
    there (a pasted result object missing its last keys and `}`); None when that does not parse."""
    body = text.rstrip().rstrip(",")
    closers: list[str] = []
    in_string = escaped = False
    for char in body:
        if in_string:
            escaped, in_string = (False, True) if escaped else (char == "\\", char != '"')
        elif char == '"':
            in_string = True
        elif char in "[{":
            closers.append("]" if char == "[" else "}")
        elif char in "]}" and closers:
            closers.pop()
    if in_string or not closers:
        return None
    try:
        return json.loads(body + "".join(reversed(closers)))
    except ValueError:
        return None


def _broken_object(lines: list[str]) -> object:
    """The object a line opens when the paste broke it across lines (a wrap after `"key": 1.5, `),
    read on through the lines after it; None for a truncated or non-JSON line."""
    if len(lines) < 2 or lines[1].lstrip().startswith("{"):
        return None
    try:
        item, _end = json.JSONDecoder().raw_decode("\n".join(line.strip() for line in lines))
    except ValueError:  # cut before its closing brackets, prose after it: closed where its paragraph ends
        paragraph = "\n".join(itertools.takewhile(str.strip, lines))
        return _closed_document(paragraph) if paragraph.count("\n") > 1 else None
    return item


def figures_of(pairs: Iterable[tuple[str, object]]) -> dict[str, float]:
    """A figures dict holding only the finite numbers among (name, value) pairs."""
    figures = {}
    for name, value in pairs:
        found = number(value)
        if found is not None:
            figures[name] = found
    return figures


def benchmark(value: float, source_format: str, **fields: Any) -> Record:
    """A benchmark record of the default metric (output tokens per second) unless told otherwise."""
    fields.setdefault("metric", DEFAULT_METRIC)
    fields.setdefault("unit", DEFAULT_UNIT)
    return Record(kind="benchmark", value=value, source_format=source_format, status="ok", **fields)
