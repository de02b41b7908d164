"""Text passes that undo a paste's layout before its lines are read: cells stacked with `<br>`,
progress bars and log lines a terminal wrapped, JSON on one line, bulleted stats, CSV tables and
tables of runs in columns become the labelled lines and rows the generic reader knows."""

from __future__ import annotations

import csv
import itertools
import json as json_module
import re
from collections.abc import Iterator

from sessiontui.collectors.bench_output.common import json_objects, slug
from sessiontui.collectors.bench_output.labels import (
    RATE_UNIT,
    VALUE,
    VALUE_FIRST,
    is_stat,
    name_of,
)
from sessiontui.collectors.bench_output.tables import (
    BARS,
    CHANGE,
    KEY_COLUMNS,
    TABLE_RULE,
    cell_value,
    row_cells,
)
from sessiontui.collectors.logtext import clean

_HTML_TAG = re.compile(r"<[^>]+>")


def _spread_cells(text: str) -> str:
    """Table rows whose cells stack labelled values with `<br>` (`| case | Total TPS: 9743.28<br>Mean
    TPOT(ms): 48.57 | ... |`) as one line per value, cell after cell: each cell is a result."""
    if "<br" not in text:
        return text
    lines = []
    for line in text.splitlines():
        cells = row_cells(line) if BARS.match(line.strip()) else []
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
    titled = False
    for index, line in enumerate(lines):
        if title := _UNIT_TITLE.match(line):
            unit, titled = f"{title[1] or ''}{title[2]}".lower(), True
        elif unit:
            lines[index] = _UNITLESS_VALUE.sub(rf"\g<1>\g<2> {unit}", line)
    return "\n".join(lines) if titled else text  # no copy of an output with no such title


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
        return _stacked_stats(text)
    lines = text.splitlines()
    for index, line in enumerate(lines):
        parts = [_GLUED_UNIT.sub(r"\1 ", part) for part in _BULLET_SEPARATOR.split(line.strip())
                 if any(c.isdigit() for c in part)]  # not `Stop reason: EOS Token Found`
        if len(parts) >= 2 and all(VALUE_FIRST.fullmatch(part) for part in parts):
            lines[index] = f"| {' | '.join(parts)} |"
    return "\n".join(lines)


def _stacked_stats(text: str) -> str:
    """LM Studio's value-first stats pasted one a line (`66.23 tok/sec` over `283 tokens` over
    `0.26s to first token`, its bullets lost) as the row of cells its bulleted line makes."""
    if "tok/sec" not in text:
        return text
    lines = text.splitlines()
    stats = [VALUE_FIRST.fullmatch(_GLUED_UNIT.sub(r"\1 ", line.strip())) for line in lines]
    out: list[str] = []
    index = 0
    while index < len(lines):
        end = index
        while end < len(lines) and stats[end]:
            end += 1
        run = [match[0] for match in stats[index:end] if match]
        if len(run) >= 2 and any("tok/sec" in cell for cell in run):
            out.append(f"| {' | '.join(run)} |")
            index = end
        else:
            out.append(lines[index])
            index += 1
    return "\n".join(out)


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


EMPHASIS = re.compile(r"\*\*|__")  # Markdown bold around a label (`**Request Throughput:**`)
_CHANGE_COLUMN = re.compile(r"%|\bdiff|\bchange\b|\bdelta\b|\bspeedup\b|\bgain\b", re.IGNORECASE)


def _runs_in_columns(text: str) -> str:
    """A `| Metric | run A | run B | % Difference |` table (its rows are figures, its columns
    runs) as one block of `label: value` lines per run column; change, unit and statistic
    columns are not runs."""
    lines = text.splitlines()
    out: list[str] = []
    index = 0
    while index < len(lines):
        cells = row_cells(lines[index]) if BARS.search(lines[index]) else []
        runs = [i for i, cell in enumerate(cells)
                if i and not _CHANGE_COLUMN.search(cell) and cell.lower() not in ("unit", "units")
                and not is_stat(cell)]  # `| Metric | avg | p99 |`: statistics, not runs
        rule = index + 1 < len(lines) and TABLE_RULE.match(lines[index + 1].strip())
        end = index + 2
        while rule and end < len(lines) and BARS.search(lines[end]):
            end += 1
        rows = [row_cells(line) for line in lines[index + 2 : end]]
        keyed = cells and (cells[0].lower() in KEY_COLUMNS or _figures_by_row(cells, rows))
        if not (keyed and len(runs) >= 2 and rule):
            out.append(lines[index])
            index += 1
            continue
        for run in runs:
            out.extend(f"{row[0]}: {row[run]}" for row in rows if len(row) == len(cells))
            out.append("")
        index = end
    return "\n".join(out) if len(out) != len(lines) or out != lines else text


# a column naming one figure and, in parentheses, the run that measured it (`Tokens/s (This PR)`);
# a unit in the parentheses (`Latency (ms)`) names no run
_RUN_COLUMN = re.compile(r"(.*?[A-Za-z/].*?)\s*\(([^()]+)\)")
_UNIT_WORD = re.compile(r"[^()]*/[^()]*|ms|s|sec|seconds|%|x|tokens?|toks?|req(?:uest)?s?|gb|gib|mb|w", re.IGNORECASE)


def _runs_in_named_columns(text: str) -> str:
    """A `| Model | Tokens/s (version 0.15.1) | Tokens/s (This PR) |` table (one figure, each
    column a run naming itself in parentheses) as one row per run under a `run` column."""
    lines = text.splitlines()
    out: list[str] = []
    index = 0
    while index < len(lines):
        cells = row_cells(lines[index]) if BARS.search(lines[index]) else []
        named = [(i, m) for i, cell in enumerate(cells)
                 if (m := _RUN_COLUMN.fullmatch(cell)) and not _UNIT_WORD.fullmatch(m[2].strip())]
        rule = index + 1 < len(lines) and TABLE_RULE.match(lines[index + 1].strip())
        if not (rule and len(named) >= 2 and len({m[1].lower() for _, m in named}) == 1):
            out.append(lines[index])
            index += 1
            continue
        runs = {i for i, _ in named}
        kept = [cell for i, cell in enumerate(cells) if i not in runs]
        out += [f"| run | {' | '.join(kept)} | {named[0][1][1]} |", "|---" * (len(kept) + 2) + "|"]
        index += 2
        while index < len(lines) and BARS.search(lines[index]):
            row = row_cells(lines[index])
            if len(row) == len(cells):
                rest = [cell for i, cell in enumerate(row) if i not in runs]
                out += [f"| {m[2].strip()} | {' | '.join(rest)} | {row[i]} |" for i, m in named]
            index += 1
    return "\n".join(out) if out != lines else text


def _figures_by_row(header: list[str], rows: list[list[str]]) -> bool:
    """Whether a table names its figures by row (`prompt (16 toks) | 2.35 toks/sec`, llama-bench's
    `pp2048`; a number keys a setting) and its columns by no figure's name: runs, whether its
    corner cell is blank (` | | not wired | wired`) or names the rows (`| test | baseline | PR |`)."""
    def known(label: str, unit: str = "") -> bool:
        return name_of(label, unit)[0] != slug(label)

    def unit(cell: str) -> str:
        value = VALUE.match(cell)
        return (value[3] or "") if value else ""

    return bool(rows) and len(header) > 1 and not any(known(cell) for cell in header[1:]) and all(
        len(row) == len(header) and not VALUE.fullmatch(row[0]) and known(row[0], unit(row[1])) for row in rows)


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


# a cell that prints a value of its own (`sample time = 0.00 ms / 1 runs (0.00 ms per token`): a reading, never a column name
_LABELLED_VALUE = re.compile(r"[=:]\s*[-+]?\d[\d.,]*\s*[A-Za-z%/]")


def _csv_as_rows(text: str) -> str:
    """Comma-separated tables (GenAI-Perf's `Metric,avg,min,...` export) as rows between bars: a
    header of names, then rows of as many cells; rows keyed by a name read as `| name | value
    |`, rows of numbers under the header's column names (a rule written under it)."""
    lines = text.splitlines()
    index, changed = 0, False
    while index + 1 < len(lines):
        header, row = _csv_cells(lines[index]), _csv_cells(lines[index + 1])
        if not (header and _fits(row, header) and not any(VALUE.fullmatch(c) or _LABELLED_VALUE.search(c)
                                                          for c in header)
                and any(VALUE.fullmatch(cell) for cell in row[1:])):
            index += 1
            continue
        # rows keyed by a name (`Time To First Token (ms),12.3,...` under `Metric,avg,min`): the
        # header's first cell is a key column or the others are statistics; else a row per config
        # (when the others are statistics, each row's cells are read under them: its name's p99)
        stats = len(header) > 2 and all(is_stat(cell) for cell in header[1:])
        keyed = not stats and header[0].lower() in KEY_COLUMNS
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


# guidellm before 4b4ab8ec (2025-05-01, vllm-project/guidellm#142) headed its request latencies,
# seconds, `Req Latency (ms)` in the Benchmarks Stats table beside `Out Tok/sec`; 0.3 prints `(sec)`.
_GUIDELLM_LATENCY = re.compile(r"(?<=Out Tok/sec\|)(.*?\bReq Latency \()ms(?=\))")


_ACCEPTANCE_COLUMN = re.compile(r"\baccept|^AL\b", re.IGNORECASE)
_BASELINE_COLUMN = re.compile(r"base(?:line)?(?:\s*\([^()]*\))?", re.IGNORECASE)  # `Baseline (off)`


def _rates_beside_acceptance(text: str) -> str:
    """A speculative-decoding table (an acceptance column) whose `Baseline` column, and each
    column printing its change over it (`96.1 (+52%)`), give no unit (`| | Baseline | With flag
    | n-max | Acceptance |`): their numbers are the decode rates such tables compare, tok/s."""
    if "|" not in text or "ccept" not in text:
        return text
    lines = text.splitlines()
    for index, header, columns in _headed_tables(lines):
        if not any(_ACCEPTANCE_COLUMN.search(cell) for cell in header):
            continue
        bare = [bool(cells) and not RATE_UNIT.search(name) and all(
            (value := cell_value(cell)) and not value[3] for cell in cells) for name, cells in zip(header, columns, strict=True)]
        if not any(ok and _BASELINE_COLUMN.fullmatch(name) for ok, name in zip(bare, header, strict=True)):
            continue
        rated = [ok and (_BASELINE_COLUMN.fullmatch(name) or all(CHANGE.search(cell) for cell in cells))
                 for ok, name, cells in zip(bare, header, columns, strict=True)]
        lines[index] = "| " + " | ".join(f"{name} tok/s" if rate else name
                                         for name, rate in zip(header, rated, strict=True)) + " |"
    return "\n".join(lines)


def _headed_tables(lines: list[str]) -> Iterator[tuple[int, list[str], list[list[str]]]]:
    """(line index, header, each column's cells) of every table between bars headed over a rule."""
    for index, line in enumerate(lines[:-2]):
        if not BARS.search(line) or not TABLE_RULE.match(lines[index + 1].strip()):
            continue
        header = row_cells(line)
        rows = [row_cells(row) for row in itertools.takewhile(BARS.search, lines[index + 2:])]
        yield index, header, [[row[i] for row in rows if len(row) == len(header)] for i in range(len(header))]


# llama-bench's test names (`pp512`, `tg128`, `pp512 @ d1024`, `pp512+tg128`)
_BENCH_TEST = re.compile(r"(?:pp\s*\d+|tg\s*\d+)(?:\s*\+\s*tg\s*\d+)?(?:\s*@\s*d\s*\d+)?", re.IGNORECASE)
_DECIMAL_CELL = re.compile(r"\d\.\d")


def _rates_beside_tests(text: str) -> str:
    """A table of llama-bench rows (a `test` column of `pp512`, `tg128`) comparing builds or backends
    in columns named by them alone (`| test | HIP | WMMA | Δ% |`): their decimal numbers are the
    tokens per second llama-bench measures; whole-number columns are its settings (`ngl`, `threads`)."""
    if "|" not in text or "t/s" in text:
        return text
    lines = text.splitlines()
    for index, header, columns in _headed_tables(lines):
        tests = [cells for name, cells in zip(header, columns, strict=True) if name.lower() == "test"]
        if not tests or not tests[0] or not all(_BENCH_TEST.fullmatch(cell) for cell in tests[0]):
            continue
        rated = [bool(cells) and not _CHANGE_COLUMN.search(name) and any(_DECIMAL_CELL.search(cell) for cell in cells)
                 and all((value := cell_value(cell)) and not value[3] for cell in cells)
                 for name, cells in zip(header, columns, strict=True)]
        lines[index] = "| " + " | ".join(f"{name} t/s" if rate else name
                                         for name, rate in zip(header, rated, strict=True)) + " |"
    return "\n".join(lines)


def prepared(text: str) -> str:
    """The text laid out as the readings expect it: every layout above undone, in turn."""
    text = _ACCEPTED_FRACTION.sub(_accepted_counts, text)
    text = _GUIDELLM_LATENCY.sub(r"\1sec", text) if "Req Latency (ms)" in text else text
    text = EMPHASIS.sub("", _spread_cells(_unwrapped_bars(_spread_json_lines(_bulleted_cells(
        _titled_units(_unwrapped_log_lines(text)))))))
    text = text.replace("\t", "  ")  # a tab-separated table is one laid out with spaces
    text = _rates_beside_tests(_rates_beside_acceptance(text))
    if "," in text:
        text = _csv_as_rows(text)
    if "|" in text:
        text = _runs_in_columns(_runs_in_named_columns(text))
    return text
