"""The memory pane: baselines and benchmarks against the number to beat, runs, lessons and notes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from rich.markup import escape
from rich.style import Style
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.cache import LRUCache
from textual.containers import Vertical
from textual.coordinate import Coordinate
from textual.message import Message
from textual.widgets import DataTable, Static
from textual.widgets.data_table import ColumnKey, RowKey

from sessiontui.project_memory.records import FIELD_NAMES, Record
from sessiontui.project_memory.reference import Comparison, column_label, compare
from sessiontui.project_memory.targets import distance_text, measured, threshold_text
from sessiontui.tui.widgets.fmt import rate
from sessiontui.tui.widgets.literal import clean
from sessiontui.tui.widgets.nav import LeavingInput
from sessiontui.tui.widgets.styling import part_style

MARK = "▸"  # in the first column of a row marked with space (for `c`, compare)
MAX_ROWS = 500  # beyond this the filter narrows the list; keeps a rebuild well under a frame
COLUMNS = ("", "kind", "value", "vs beat", "date", "what")
RIGHT = ("value", "vs beat")  # columns of figures, aligned on the right
MORE_KEY = "more-rows"  # the row saying how many records the list leaves out (not a record id)
MIN_WHAT = 12  # the name column never gets narrower than this, even in a tiny pane
_KIND_ORDER = {"target": 0, "benchmark": 1, "run": 2, "lesson": 3, "note": 4}
_KIND_LABEL = {"benchmark": "bench", "lesson": "lesson", "note": "note", "run": "run",
               "target": "target"}
EMPTY = (
    "Nothing remembered yet. Add the first record: b a benchmark, l a lesson, n a note "
    "(or `sessiontui record -- CMD` runs a benchmark and stores its result)."
)
LEGEND = (
    "★ the number to beat (best baseline) · b another baseline · vs beat: the result over the "
    "number to beat for its conditions, any engine (above 1.00x is better; in brackets, over its "
    "own engine's baseline) · τ a run's accept length · Enter opens a record · "
    "space marks a run, c compares the marked runs · w opens a result's sweep"
)
FILTER_HELP = "filter: words, kind:lesson, baseline, failed, engine:sglang …"


def group(record: Record, reference: Record | None) -> int:
    """The number to beat first, then other baselines, benchmarks, runs, lessons, notes."""
    if reference is not None and record.id == reference.id:
        return -1
    if record.baseline:
        return 0
    return _KIND_ORDER.get(record.kind, 5)


def ordered(records: Sequence[Record], reference: Record | None) -> list[Record]:
    """Records by group, newest first within each group; the attempts of one log together,
    latest attempt first, where that log's newest attempt falls."""
    newest = sorted(records, key=lambda r: r.last_update or r.created_at, reverse=True)
    place: dict[str, int] = {}  # a log's place: that of its newest attempt
    for rank, record in enumerate(newest):
        place.setdefault(record.log_path or record.id if record.kind == "run" else record.id, rank)
    return sorted(newest, key=lambda r: (
        group(r, reference), place[r.log_path or r.id if r.kind == "run" else r.id], -(r.log_run or 0)))


def flags(record: Record) -> str:
    """Words a filter finds besides the text: the kind, the status, baseline."""
    words = [record.kind, f"kind:{record.kind}", record.status or ""]
    if record.baseline:
        words.append("baseline")
    if record.status in ("crashed", "diverged"):
        words.append("failed")
    return " ".join(words)


def _field_matches(record: Record, word: str) -> bool | None:
    """`field:value` (e.g. `engine:sglang`) when the part before ':' names a field; else None."""
    name, _, wanted = word.partition(":")
    if not wanted or name not in FIELD_NAMES or name == "kind":
        return None
    value = getattr(record, name)
    return value is not None and wanted in str(value).lower()


def matches(record: Record, words: Sequence[str]) -> bool:
    """Whether every filter word is in the record's id, flags or text (or its `field:value`)."""
    haystack = f"{record.id} {flags(record)} {record.search_text()}".lower()
    for word in words:
        by_field = _field_matches(record, word)
        if not (by_field if by_field is not None else word in haystack):
            return False
    return True


def what(record: Record) -> str:
    """The record's name on one line: a lesson with its fix, a run with its status."""
    if record.kind == "lesson" and record.fix:
        text = f"{record.label} — fix: {record.fix}"
    elif record.kind == "run":
        text = f"{record.label} · {record.status or 'running'}"
    else:
        text = record.label
    return " ".join(text.split())


def value_text(record: Record) -> str:
    """A benchmark's value with its unit (or metric), a run's step; a failed attempt says so."""
    if record.kind == "run":
        total = f"/{record.total_steps}" if record.total_steps else ""
        return "" if record.step is None else f"{record.step}{total}"
    if record.kind == "benchmark" and record.status == "failed":
        return "failed"
    if record.kind == "target":
        return threshold_text(record)
    if record.kind != "benchmark" or record.value is None:
        return ""
    return f"{rate(record.value)} {record.unit or record.metric}"


def comparisons(records: Sequence[Record], baselines: Sequence[Record]) -> dict[str, Comparison]:
    """Each measured benchmark against its number to beat (the reference rule), by id: once per
    row, for its cell and the column's header."""
    return {r.id: compare(r, baselines) for r in records if r.kind == "benchmark" and r.value}


def vs_text(record: Record, comparison: Comparison | None, records: Sequence[Record] = ()) -> str:
    """How a benchmark compares with its number to beat, as a ratio (>1 is better): a baseline
    against the best baseline at its conditions, a result against its own (its `comparison`).
    A run shows its accept length, a target its distance from the stored results."""
    if record.kind == "target":
        return distance_text(record, measured(record, records))
    if record.kind == "run":
        return "" if record.accept_length is None else f"τ {record.accept_length:.2f}"
    return "" if comparison is None else comparison.short()


def date_text(stamp: str | None, now: datetime | None = None) -> str:
    """A record's time in the local zone: the hour today, the day this year, else the date."""
    try:
        moment = datetime.fromisoformat(stamp or "").astimezone()
    except ValueError:
        return (stamp or "")[:10]
    now = now or datetime.now().astimezone()
    if moment.date() == now.date():
        return moment.strftime("%H:%M")
    if moment.year == now.year:
        return moment.strftime("%b %d")
    return moment.strftime("%Y-%m-%d")


def shared_prefix(a: str, b: str) -> int:
    """Length of the common start of two names, cut back to a word boundary."""
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return a.rfind(" ", 0, n) + 1


def shared_starts(names: Sequence[str]) -> dict[str, int]:
    """For each name, the longest start it shares with another name (cut back to a word
    boundary). In sorted order a name shares most with a neighbour: n log n, not n² (500 long
    names took 0.6 s, on the UI thread, at every re-read of the memory)."""
    ordered = sorted(set(names))
    return {
        name: max((shared_prefix(name, other) for other in ordered[max(0, i - 1) : i + 2]
                   if other != name), default=0)
        for i, name in enumerate(ordered)
    }


def fit(name: str, width: int, common: int = 0) -> str:
    """`name` in `width` cells, cut as a person would cut it.

    A name that shares its first `common` characters with another keeps its first word (the
    engine) and its last words, and as many of its model and its first word that differs from
    the other name as fit; whole words go from the middle, with one ` … ` where they were
    ("sglang llama-3.1-8b … no-spec c=1"). A name that shares nothing is cut at its end.
    """
    if len(name) <= width:
        return name
    if width <= 1:
        return "…"[:width]
    words = name.split(" ")
    if not common or len(words) < 4:
        return name[: width - 1].rstrip() + "…"
    shared = len(name[:common].split())  # words[shared] is the first word that differs
    telling = {i for i in (1, shared) if 0 < i < len(words)}  # the model, what differs first
    best: tuple[int, int, str] | None = None
    for extra in ({*()}, {1}, {shared}, telling):
        for tail in range(1, len(words)):
            kept = {0} | (extra & telling) | set(range(len(words) - tail, len(words)))
            shown = _without(words, set(range(len(words))) - kept)
            score = (len(kept & telling), len(shown), shown)
            if len(shown) <= width and (best is None or score > best):
                best = score
    if best is not None:
        return best[2]
    head = words[0][: max(1, width // 3)]
    return f"{head} …{name[len(name) - (width - len(head) - 2):]}"


def _without(words: Sequence[str], dropped: set[int]) -> str:
    """The words with the `dropped` ones left out, each run of them shown as one `…`."""
    parts: list[str] = []
    for index, word in enumerate(words):
        if index not in dropped:
            parts.append(word)
        elif not parts or parts[-1] != "…":
            parts.append("…")
    return " ".join(parts)


Cell = tuple[str, Style | str, str]  # text, style, justification


def _text(cell: Cell) -> Text:
    text, style, justify = cell
    return Text(text, style=style, justify=justify)  # type: ignore[arg-type]


@dataclass(frozen=True)
class TableModel:
    """The memory table's content: (label, width) per column, (record id, cells) per row."""

    columns: tuple[tuple[str, int], ...]
    rows: tuple[tuple[str, tuple[Cell, ...]], ...]


def _same_shape(a: TableModel, b: TableModel) -> bool:
    """Same columns and the same records in the same order: only cells can differ."""
    return a.columns == b.columns and [key for key, _ in a.rows] == [key for key, _ in b.rows]


class MemoryTable(DataTable):
    """The memory's rows; Enter opens the record under the cursor (shown in the key bar)."""

    BINDINGS = [
        Binding("enter", "select_cursor", "Open"),
        # Priority: the filter has focus before the next key of a burst is routed.
        Binding("slash", "app.filter_memory", "Filter", priority=True),
        Binding("j", "cursor_down", "Down", show=False),
        Binding("k", "cursor_up", "Up", show=False),
        Binding("home,g", "first_row", "First row", show=False),
        Binding("end,G", "last_row", "Last row", show=False),
        Binding("escape", "clear_filter", "Clear the filter, then the marks", show=False),
    ]

    def action_first_row(self) -> None:
        self.move_cursor(row=0)

    def action_last_row(self) -> None:
        """The last record's row (not the line counting the records left out)."""
        last = self.row_count - 1
        if last > 0 and self.coordinate_to_cell_key(Coordinate(last, 0)).row_key.value == MORE_KEY:
            last -= 1
        self.move_cursor(row=last)

    def action_clear_filter(self) -> None:
        """A second Esc (the first left the filter) shows every record again; the next one
        clears the marks."""
        pane = self.parent
        if not isinstance(pane, MemoryPane):
            return
        if pane.filter.value:
            pane.filter.value = ""
        else:
            pane.clear_marks()

    def update_row(self, key: str, cells: dict[str, Text]) -> None:
        """Change some cells of one row and redraw that row alone.

        `DataTable.update_cell` redraws every row (its render caches are keyed on one table-wide
        update count): ~15 ms for this table each time a followed run saves its progress. Here
        only the row's own cache entries go (Textual is pinned, see pyproject.toml).
        """
        row = RowKey(key)
        for column, value in cells.items():
            self._data[row][ColumnKey(column)] = value
        caches: tuple[LRUCache[Any, Any], ...] = (self._cell_render_cache, self._row_render_cache)
        for cache in caches:
            for cached in [cached for cached in cache.keys() if cached[0] == row]:  # noqa: SIM118 (no __iter__)
                cache.discard(cached)
        self._line_cache.clear()  # screen lines, rebuilt from the other rows' cached renders
        self.refresh_row(self.get_row_index(row))


class MemoryFilter(LeavingInput):
    """The filter box; Esc (or Enter) hands the keys back to the table, keeping the words."""

    LEAVE = "app.view('memory')"


class MemoryPane(Vertical):
    """Filterable list of what the project remembers; asks the app to open, edit or delete."""

    BORDER_TITLE = "Memory"
    COMPONENT_CLASSES = {"memory-pane--beat", "memory-pane--failed"}
    BINDINGS = [
        Binding("e", "edit", "Edit"),
        Binding("d,delete", "delete", "Delete"),
        Binding("space", "mark", "Mark a run to compare", show=False),
        Binding("c", "app.compare('runs')", "Compare"),  # short: the 80-column bar keeps it
        Binding("w", "app.compare('sweep-of-row')", "Open the result's sweep", show=False),
        # Priority: the filter has focus before the next key of a burst is routed.
        Binding("ctrl+f", "app.filter_memory", "Filter", show=False, priority=True),
    ]

    class RecordMessage(Message):
        """A request about one record (only its subclasses are sent)."""

        def __init__(self, record: Record) -> None:
            super().__init__()
            self.record = record

    class OpenRecord(RecordMessage):
        """The user wants to see every field of this record."""

    class EditRecord(RecordMessage):
        """The user wants to edit this record."""

    class DeleteRecord(RecordMessage):
        """The user wants this record moved to the trash."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.records: list[Record] = []
        self.reference: Record | None = None
        self.baselines: list[Record] = []
        self.filter = MemoryFilter(placeholder=FILTER_HELP, id="memory-filter", compact=True)
        self.table = MemoryTable(id="memory-table", cursor_type="row", zebra_stripes=True)
        self.table.tooltip = LEGEND
        self.empty = Static(EMPTY, id="memory-empty", markup=False)
        self._width = 0
        self._shown: TableModel | None = None  # what the table holds now
        self.marked: list[str] = []  # ids of the runs and benchmarks marked with space, in order

    def compose(self) -> ComposeResult:
        yield self.filter
        yield self.empty
        yield self.table

    def show(self, records: Sequence[Record], reference: Record | None) -> None:
        """Show a fresh read of the memory, keeping the cursor on the same record."""
        self.records = ordered(records, reference)
        self.reference = reference
        self.baselines = [r for r in self.records if r.kind == "benchmark" and r.baseline]
        # Filled even in a hidden tab (at the screen's width): a key pressed right after the
        # tab is shown then moves through rows, where an empty table dropped it.
        self._fill()

    @on(MemoryFilter.Changed, "#memory-filter")
    def _filter_changed(self) -> None:
        self._fill()

    @on(MemoryFilter.Submitted, "#memory-filter")
    def _filter_done(self) -> None:
        self.app.set_focus(self.table)

    def on_resize(self) -> None:
        if self.table.size.width != self._width:
            self._fill()

    def _rows(self, shown: Sequence[Record], compared: dict[str, Comparison]) -> list[list[str]]:
        return [
            [(MARK if r.id in self.marked else "") + ("★" if self._is_beat(r) else
                                                      ("b" if r.baseline else "")),
             _KIND_LABEL[r.kind],
             value_text(r), vs_text(r, compared.get(r.id), self.records),
             date_text(r.last_update or r.created_at)]
            for r in shown
        ]

    def _is_beat(self, record: Record) -> bool:
        return self.reference is not None and record.id == self.reference.id

    def _fill(self) -> None:
        """Show the filtered records; a re-read that changed nothing repaints nothing, and one
        that changed only some cells (a run's step, a date) updates only those cells."""
        words = self.filter.value.lower().split()
        found = [r for r in self.records if matches(r, words)]
        shown = found[:MAX_ROWS]
        self.empty.display = not shown
        if not self.records:
            self.empty.update(EMPTY)
        elif not shown:
            self.empty.update(f"No record matches {self.filter.value.strip()!r}.")
        self._width = self.table.size.width
        model = self._model(shown, len(found) - len(shown))
        if model != self._shown:
            if self._shown is not None and _same_shape(model, self._shown):
                self._update_cells(model, self._shown)
            else:
                self._rebuild(model)
            self._shown = model

    def _model(self, shown: Sequence[Record], hidden: int) -> TableModel:
        """What the table shows: its columns (label, width) and each row's key and cells; a
        column empty in every shown row is left out, its room going to the names."""
        compared = comparisons(shown, self.baselines)
        full = self._rows(shown, compared)
        vs = clean(column_label(compared.values(), self.reference))  # may name a record
        labels = (*COLUMNS[:3], vs, *COLUMNS[4:])
        used = [i for i in range(len(COLUMNS) - 1) if not full or any(row[i] for row in full)]
        rows = [[row[i] for i in used] for row in full]
        widths = [max([len(labels[i]), *(len(row[n]) for row in rows)]) for n, i in enumerate(used)]
        # Each column has one cell of padding on both sides; the name takes what is left.
        width = self._width or self.app.size.width
        room = max(MIN_WHAT, width - sum(widths) - 2 * (len(used) + 1) - 1)
        justify = ["right" if COLUMNS[i] in RIGHT else "left" for i in used] + ["left"]
        names = [clean(what(r)) for r in shown]
        common = shared_starts(names)
        beat, failed = part_style(self, "memory-pane--beat"), part_style(self, "memory-pane--failed")
        body = []
        for record, row, name in zip(shown, rows, names, strict=True):
            style = beat if self._is_beat(record) else failed if "failed" in flags(record) else ""
            cells = tuple((cell, style, side) for cell, side in
                          zip([*row, fit(name, room, common[name])], justify, strict=True))
            body.append((record.id, cells))
        if hidden > 0:
            more = clean(f"… {hidden} more: filter to narrow")
            body.append((MORE_KEY, (*(("", "", "left"),) * len(used), (more, "", "left"))))
        headers = [escape(labels[i]) if i == 3 else labels[i] for i in used] + [COLUMNS[-1]]
        return TableModel(tuple(zip(headers, [*widths, room], strict=True)), tuple(body))

    def _rebuild(self, model: TableModel) -> None:
        table = self.table
        current = self.selected()
        table.clear(columns=True)
        for index, (label, width) in enumerate(model.columns):
            table.add_column(label, width=width, key=str(index))
        for key, cells in model.rows:
            table.add_row(*(_text(cell) for cell in cells), key=key)
        if current is not None and current.id in table.rows:
            table.move_cursor(row=table.get_row_index(current.id))

    def _update_cells(self, model: TableModel, before: TableModel) -> None:
        for (key, cells), (_, old) in zip(model.rows, before.rows, strict=True):
            changed = {str(index): _text(cell)
                       for index, (cell, was) in enumerate(zip(cells, old, strict=True))
                       if cell != was}
            if changed:
                self.table.update_row(key, changed)

    def selected(self) -> Record | None:
        """The record under the cursor, if any."""
        table = self.table
        if not table.row_count:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        return next((r for r in self.records if r.id == key), None)

    def marked_records(self) -> list[Record]:
        """The marked records still in the memory, in the order they were marked."""
        by_id = {r.id: r for r in self.records}
        return [by_id[key] for key in self.marked if key in by_id]

    def action_mark(self) -> None:
        """Mark the run or benchmark under the cursor (or unmark it): `c` compares the marked."""
        record = self.selected()
        if record is None:
            return
        if record.kind not in ("run", "benchmark"):
            self.notify(f"Only runs and benchmarks are marked (this is a {record.kind}).",
                        markup=False)
            return
        if record.id in self.marked:
            self.marked.remove(record.id)
        else:
            self.marked.append(record.id)
        self._fill()

    def clear_marks(self) -> None:
        if self.marked:
            self.marked.clear()
            self._fill()

    def _ask(self, message: type[RecordMessage]) -> None:
        record = self.selected()
        if record is not None:
            self.post_message(message(record))

    @on(DataTable.RowSelected, "#memory-table")
    def action_open(self) -> None:
        record = self.selected()
        if record is not None and record.kind == "run":  # a run opens in the run view
            from sessiontui.tui.widgets.training_pane import TrainingPane

            self.post_message(TrainingPane.OpenRun(record=record))
            return
        self._ask(self.OpenRecord)

    def action_edit(self) -> None:
        self._ask(self.EditRecord)

    def action_delete(self) -> None:
        self._ask(self.DeleteRecord)
