"""Tables in benchmark outputs: rows between bars, their headers (on one line or two), and
tables laid out with spaces, whose rows the generic reader reads under their column names."""

from __future__ import annotations

import re
from collections.abc import Iterator

from sessiontui.collectors.bench_output.labels import (
    HEADLINES,
    RATE_UNIT,
    SETTING_LABEL,
    VALUE,
    VALUE_FIRST,
    name_of,
)
from sessiontui.collectors.logtext import clean

BARS = re.compile(r"[│┃|]")
BAR_CHARS = ("│", "┃", "|")
_PERCENTILE_COLUMN = re.compile(r"\d{1,2}(?:\.\d+)?%\s*\([^)]*\)")  # LMDeploy's `50%(s)`: a percentile's name
KEY_COLUMNS = frozenset({"metric", "metrics", "key", "statistic", "name", "parameter", "field"})
# `|---|`, `| - | - |`, and the rules of box-drawn and grid tables (`┡━━╇━━┩`, `+====+====+`)
TABLE_RULE = re.compile(r"^[|│]?\s*:?-{3,}|^[|│]?\s*:?-+:?\s*[|│]|^[┡├╞┝┠╟+]?[━─═=]{3,}[━─═=╇┼╪┿╂+-]*"
                        r"|^\+-{3,}[-+]*$")  # an ASCII grid's `+----+----+` (mistralrs-bench, prettytable)


def labelled_cells(line: str) -> Iterator[tuple[str, str, str]]:
    """(label, number, unit) of a table row: the first cell names it, the first number is it;
    in a row of value-first cells (`| 36.5 TOKENS/SEC | 289 TOKENS IN TOTAL |`) each cell is one."""
    cells = [cell.strip() for cell in BARS.split(line) if cell.strip()]
    value_first = [VALUE_FIRST.fullmatch(cell) for cell in cells]
    if len(cells) >= 2 and all(value_first):
        for match in value_first:
            if match:
                yield match[2], match[1], match[2]
        return
    if len(cells) < 2 or VALUE.fullmatch(cells[0]):
        return
    value = CHANGE.sub("", cells[1])  # `| mtp | 48.1 tok/s (+24%) |`: the gain is no part of the value
    number = VALUE.match(value)
    if number and number.end() == len(value):  # a unit of its own cell follows (`| 24.98 | tokens/s |`)
        unit = number[3] or (cells[2] if len(cells) == 3 and not VALUE.search(cells[2]) else "")
        yield cells[0], number[1], unit


def row_cells(line: str) -> list[str]:
    """The cells of a table row between `|`/`│` bars."""
    return [cell.strip() for cell in BARS.split(line.strip().strip("|│┃"))]


def table_row(header: list[str], line: str) -> Iterator[tuple[str, str, str]]:
    """(column, number, "") of a data row of a headed table; nothing when the row is cut short
    (fewer cells than the header) or holds no numbers."""
    cells = row_cells(line)
    if len(cells) != len(header):
        return
    header = _slot_columns(_position_columns(header))
    for column, cell in zip(header, cells, strict=True):
        positions = _PERCENTS.findall(cell) if _POSITIONS_COLUMN.search(column) else []
        if len(positions) > 1:  # `pos accept` | `90.5% 80.5% 73.6%`: one rate per draft position
            yield from ((f"accept_pos_{i}", rate, "%") for i, rate in enumerate(positions, start=1))
            continue
        number = cell_value(cell)
        if number:
            yield column, number[1], number[3] or ""


def sub_header(header: list[str], cells: list[str]) -> list[str] | None:
    """The header completed by a second row of names printed in the table's body, under a group
    header that leaves columns blank (`| Model | OmniDocBench | |` over `| | throughput (tokens/s) |
    accept length |`): each column named by its group, then its own name; None for any other row."""
    named = [cell for cell in cells if cell]
    if len(cells) != len(header) or "" not in header or len(named) < 2 or any(VALUE.search(c) for c in named):
        return None
    return _under_groups(header, cells)


def cell_value(cell: str) -> re.Match[str] | None:
    """The value a table cell prints (VALUE's match), without the change over another column
    printed after it (`96.1 (+52%)`) or the `×` before a count; None when it prints none."""
    return VALUE.fullmatch(_TIMES.sub("", CHANGE.sub("", cell)))


_POSITION_COLUMN = re.compile(r"pos(?:ition)?[ _-]?(\d{1,2})", re.IGNORECASE)


def _position_columns(header: list[str]) -> list[str]:
    """A header of per-position acceptance columns (`acceptance_length | pos_0 | ... | pos_7`) with
    each named as the draft position it counts (`accept_pos_1` for `pos_0`: first is first)."""
    positions = [_POSITION_COLUMN.fullmatch(column.strip()) for column in header]
    found = [int(match[1]) for match in positions if match]
    if len(found) < 2 or not any("accept" in column.lower() for column in header):
        return header
    return [f"accept_pos_{int(match[1]) - min(found) + 1}" if match else column
            for column, match in zip(header, positions, strict=True)]


_PARALLEL_COLUMN = re.compile(r"(?:n[ _-]?)?parallel", re.IGNORECASE)
_CONCURRENCY_COLUMN = re.compile(r"(?:max[ _-]?)?concurrency", re.IGNORECASE)


def _slot_columns(header: list[str]) -> list[str]:
    """A header whose `parallel` column stands beside a `concurrency` one with that column named
    `slots`: the server's parallel slots (llama-server's `--parallel`), the load being the requests
    in flight (llama-throughput-lab's sweep table)."""
    if not any(_CONCURRENCY_COLUMN.fullmatch(column.strip()) for column in header):
        return header
    return ["slots" if _PARALLEL_COLUMN.fullmatch(column.strip()) else column for column in header]


_POSITIONS_COLUMN = re.compile(r"\bpos(?:ition)?s?\b.*\baccept|\baccept.*\bpos(?:ition)?s?\b", re.I)
_PERCENTS = re.compile(r"(\d+(?:\.\d+)?)\s*%")
_TIMES = re.compile(r"^×(?=\d+$)")  # a `×4` cell: four (concurrent requests, copies)
# a value's change over another column's, after it in parentheses (`96.1 (+52%)`, `116.3 (1.84x)`): no value of its own
CHANGE = re.compile(r"(?<=[\d%A-Za-z/])\s*[(（]\s*[-+±~↑↓]?\s*\d+(?:\.\d+)?\s*(?:%|[x×])\s*[)）]$")  # `（+24%）` too
SPACED = re.compile(r"\s{2,}")
# tabulate's `simple` and `rst` rules, and a single rule under a whole header
DASH_RULE = re.compile(r"-{2,}(?:\s+-{2,})+|={2,}(?:\s+={2,})+|-{8,}")


def _is_spaced_header(cells: list[str], next_line: str) -> bool:
    """Whether a line names, two spaces apart, the columns of a table laid out with spaces: no
    numbers in it, and the next line its names (one or more text cells, or a setting's value
    under `conc`, `bs`) then as many numbers as the remaining columns, two at least."""
    row = without_index(SPACED.split(next_line), cells)
    names = 1 if row and VALUE.fullmatch(row[0]) else next(
        (i for i, cell in enumerate(row) if VALUE.fullmatch(cell)), len(row))
    values = row[names:-1] if row and _STATUS.fullmatch(row[-1]) else row[names:]
    values = [cell for cell in values if not _EMPTY_CELL.fullmatch(cell)]  # `-` under `Improvement`: none yet
    return (len(cells) >= 3 and len(row) == len(cells) and not any(c.isdigit() for c in cells[0])
            and not any(VALUE.fullmatch(cell) and not _QUANTILE_COLUMN.fullmatch(cell) for cell in cells)
            and (not VALUE.fullmatch(row[0]) or bool(SETTING_LABEL.search(cells[0]) or _RUN_COLUMN.fullmatch(cells[0])))
            and len(values) >= 2 and all(VALUE.fullmatch(cell) for cell in values))


# a first column numbering the runs (`Round  Elapsed (s)  ...` over `1  96.2  ...`), and a last
# cell saying how a run went (`✅`): neither is a figure of the run
# pandas' describe() names its quantile columns by percent (`25%  50%  75%  99%`, beside `count  mean  std`)
_QUANTILE_COLUMN = re.compile(r"(\d{1,2}(?:\.\d+)?)%")
_RUN_COLUMN = re.compile(r"#|no\.?|run|round|trial|turn|iter(?:ation)?", re.IGNORECASE)
_EMPTY_CELL = re.compile(r"[-–—]|n/?a", re.IGNORECASE)  # a cell left empty on purpose
_STATUS = re.compile(r"[✅✓✔❌✗✘]|ok|pass(?:ed)?|fail(?:ed)?|success", re.IGNORECASE)


_PHASE_COLUMN = re.compile(r"prefill|decode", re.IGNORECASE)


def spaced_columns(raw: str, cells: list[str], next_line: str) -> list[str] | None:
    """The column names of a table laid out with spaces whose header `cells` head the rows that
    follow, or None: a header indented over the rows' name cells has a blank first column (MLC
    users' `      Prefill   Decode` over `xiaomi 14   7   10`), and a column named by its phase
    alone is that phase's rate in tokens per second."""
    if not _is_spaced_header(cells, next_line) and not (
            raw[:1].isspace() and _is_spaced_header(cells := ["", *cells], next_line)):
        return None
    return [f"{cell} tok/s" if _PHASE_COLUMN.fullmatch(cell) else
            f"p{quantile[1]}" if (quantile := _QUANTILE_COLUMN.fullmatch(cell)) else cell for cell in cells]


def without_index(row: list[str], header: list[str]) -> list[str]:
    """A spaced row without the index pandas prints before it (`0    baseline   8   650.2`
    under `config  concurrency  output_throughput`): one cell more than the header, a count."""
    return row[1:] if len(row) == len(header) + 1 and row[0].isdigit() else row


def is_header(cells: list[str], next_line: str, first_row: str = "") -> bool:
    """Whether a bar line names the columns of the table that follows (a `|---|` rule next)."""
    # two columns are a header only when the second is nothing but a unit (`| command |
    # tokens/second |`) or names a headline figure over rows named by config (`| draft | mean
    # acceptance length |` over `| vanilla | 2.39 |`; rows of run numbers are trials, read alone)
    named_rows = bool(first_row) and not VALUE.fullmatch(row_cells(first_row)[0])
    columns = len(cells) >= 3 or (len(cells) == 2 and (bool(RATE_UNIT.fullmatch(cells[1])) or (
        named_rows and name_of(cells[1], "")[0] in HEADLINES)))
    # a whole number names a column of a Markdown header (`| Model | Size | 3090Ti | 4090 |`, a GPU
    # per column) beside cells of words, never a row of an ASCII table (`+---+` between its rows)
    numbers = [cell for cell in cells if VALUE.fullmatch(cell) and not _PERCENTILE_COLUMN.fullmatch(cell)]
    named = (not VALUE.search(cells[0]) and len(numbers) < len(cells) - 1 and next_line.lstrip().startswith("|")
             and not any(_DECIMAL.search(cell) for cell in cells))
    return columns and (not numbers or named) and bool(TABLE_RULE.match(next_line.strip()))


_DECIMAL = re.compile(r"\d[.,]\d")
_PERCENT_CELL = re.compile(r"p?\d{1,2}(?:\.\d+)?\s*(?:%|th)")


def is_distribution_header(cells: list[str], next_line: str) -> bool:
    """Whether a bar line heads a table of percentiles, the spread of the run printed above it
    and no result of its own: EvalScope's `Percentile | TTFT (s) | ...` over `10%` rows, or
    `Metric | 1% | 5% | ... | 99%` over one row per quantity."""
    named = [cell.strip().lower() for cell in cells if cell.strip()]
    return len(named) > 2 and bool(TABLE_RULE.match(next_line.strip())) and (
        named[0] in ("percentile", "percentiles") or all(_PERCENT_CELL.fullmatch(cell) for cell in named[1:]))


def joined_header(above: str, cells: list[str]) -> list[str]:
    """A header printed over two lines (`┃ ┃ Avg ┃ Gen. ┃` over `┃ Conc. ┃ Lat.(s) ┃ toks/s ┃`) as
    one: the line above, when it has as many cells and no values, begins each column's name; a
    group name spans the cells its bars close up (guidellm's `TTFT (ms) |||` over `mean| p99`)."""
    above = clean(above).strip()
    raw = BARS.split(above[1:] if BARS.match(above) else above) if BARS.search(above) else []
    if len(raw) == len(cells) + 1 and not raw[-1].strip():
        raw.pop()  # the closing bar
    if len(raw) != len(cells) or any(VALUE.fullmatch(cell.strip()) for cell in raw):
        return cells
    return _under_groups(raw, cells)


def _under_groups(groups: list[str], names: list[str]) -> list[str]:
    """Each column named by the group over it, then by its own name: a group spans the empty
    cells after it."""
    top: list[str] = []
    for cell in groups:
        top.append(top[-1] if not cell and top else cell.strip())
    return [f"{upper} {lower}".strip() for upper, lower in zip(top, names, strict=True)]
