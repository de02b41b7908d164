"""The memory pane: baselines and benchmarks against the number to beat, lessons and notes."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import DataTable, Input

from sessiontui.project_memory.records import DEFAULT_METRIC, Record
from sessiontui.project_memory.reference import Conditions, number_to_beat, ratio, reference_of
from sessiontui.tui.widgets.fmt import compact
from sessiontui.tui.widgets.literal import literal
from sessiontui.tui.widgets.styling import part_style

MAX_ROWS = 500  # beyond this the filter narrows the list; keeps a rebuild well under a frame
COLUMNS = ("", "kind", "value", "vs beat", "date", "what")
_KIND_ORDER = {"benchmark": 1, "lesson": 2, "note": 3}


def group(record: Record, reference: Record | None) -> int:
    """The number to beat first, then other baselines, benchmarks, lessons, notes."""
    if reference is not None and record.id == reference.id:
        return -1
    if record.baseline:
        return 0
    return _KIND_ORDER.get(record.kind, 4)


def ordered(records: Sequence[Record], reference: Record | None) -> list[Record]:
    """Records by group, newest first within each group."""
    newest = sorted(records, key=lambda r: r.created_at, reverse=True)
    return sorted(newest, key=lambda r: group(r, reference))


def matches(record: Record, words: Sequence[str]) -> bool:
    """Whether every filter word appears in the record's id, kind or text."""
    haystack = f"{record.id} {record.kind} {record.search_text()}".lower()
    return all(word in haystack for word in words)


def what(record: Record) -> str:
    """The record's name, and for a lesson its fix."""
    if record.kind == "lesson" and record.fix:
        return f"{record.label} — fix: {record.fix}"
    return record.label


def value_text(record: Record) -> str:
    """A benchmark's value with its unit (or metric); a failed attempt says so."""
    if record.kind == "benchmark" and record.status == "failed":
        return "failed"
    if record.kind != "benchmark" or record.value is None:
        return ""
    return f"{compact(record.value)} {record.unit or record.metric}"


def vs_text(record: Record, baselines: Sequence[Record]) -> str:
    """How a benchmark compares with its number to beat (the reference rule), as a ratio (>1 is
    better): a baseline against the best baseline at its conditions, a result against its own."""
    if record.kind != "benchmark" or not record.value:
        return ""
    reference = (number_to_beat(baselines, Conditions.of(record, engine=False)) if record.baseline
                 else reference_of(record, baselines))
    if reference is None or not reference.value:
        return ""
    return f"{ratio(record.value, reference.value, record.metric or DEFAULT_METRIC):.2f}x"


class MemoryPane(Vertical):
    """Filterable list of what the project remembers; asks the app to add, edit or delete."""

    BORDER_TITLE = "Memory"
    COMPONENT_CLASSES = {"memory-pane--beat"}
    BINDINGS = [
        Binding("e", "edit", "Edit"),
        Binding("d,delete", "delete", "Delete"),
    ]

    class EditRecord(Message):
        """The user wants to edit this record."""

        def __init__(self, record: Record) -> None:
            super().__init__()
            self.record = record

    class DeleteRecord(Message):
        """The user wants this record moved to the trash."""

        def __init__(self, record: Record) -> None:
            super().__init__()
            self.record = record

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.records: list[Record] = []
        self.reference: Record | None = None
        self.baselines: list[Record] = []
        self.filter = Input(placeholder="filter the memory…", id="memory-filter", compact=True)
        self.table: DataTable = DataTable(id="memory-table", cursor_type="row", zebra_stripes=True)

    def compose(self) -> ComposeResult:
        self.table.add_columns(*COLUMNS)  # here, not on mount: rows may arrive before Mount
        yield self.filter
        yield self.table

    def show(self, records: Sequence[Record], reference: Record | None) -> None:
        """Show a fresh read of the memory, keeping the cursor on the same record."""
        self.records = ordered(records, reference)
        self.reference = reference
        self.baselines = [r for r in self.records if r.kind == "benchmark" and r.baseline]
        self._fill()

    @on(Input.Changed, "#memory-filter")
    def _filter_changed(self) -> None:
        self._fill()

    def _fill(self) -> None:
        table = self.table
        current = self.selected()
        words = self.filter.value.lower().split()
        shown = [r for r in self.records if matches(r, words)]
        beat = part_style(self, "memory-pane--beat")
        table.clear()
        for record in shown[:MAX_ROWS]:
            is_beat = self.reference is not None and record.id == self.reference.id
            marker = "★" if is_beat else ("b" if record.baseline else "")
            row = [marker, record.kind, value_text(record), vs_text(record, self.baselines),
                   record.created_at[:10], what(record)]
            cells = [literal(cell, beat if is_beat else "") for cell in row]
            table.add_row(*cells, key=record.id)
        if len(shown) > MAX_ROWS:
            table.add_row("", "", "", "", "", Text(f"… {len(shown) - MAX_ROWS} more: filter to narrow"))
        if current is not None and current.id in table.rows:
            table.move_cursor(row=table.get_row_index(current.id))

    def selected(self) -> Record | None:
        """The record under the cursor, if any."""
        table = self.table
        if not table.row_count:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        return next((r for r in self.records if r.id == key), None)

    @on(DataTable.RowSelected, "#memory-table")
    def action_edit(self) -> None:
        record = self.selected()
        if record is not None:
            self.post_message(self.EditRecord(record))

    def action_delete(self) -> None:
        record = self.selected()
        if record is not None:
            self.post_message(self.DeleteRecord(record))
