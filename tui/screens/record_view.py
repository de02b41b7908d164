"""Every field of one record (benchmark, lesson, note or run), read-only; e edits, d deletes."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, Static

from sessiontui.project_memory.records import Record
from sessiontui.tui.screens.confirm import ConfirmScreen, delete_question
from sessiontui.tui.widgets.literal import literal
from sessiontui.tui.widgets.nav import KeyScroll
from sessiontui.tui.widgets.styling import part_style

LIST_ITEMS = 8  # a run's latest milestones and events shown; the rest are counted
NESTED_INDENT = "    "  # lines of a list inside an entry (a failure's traceback) sit under it


def _scalar(value: Any) -> str:
    """One value as text: floats short, the rest as they are."""
    return f"{value:.6g}" if isinstance(value, float) else str(value)


def _item(entry: Any) -> str:
    """One milestone or event of a run: its plain fields as `key value` pairs on a line, each
    list inside it (a traceback, lesson ids) one item per line beneath."""
    if not isinstance(entry, dict):
        return str(entry)
    kept = {k: v for k, v in entry.items() if v not in (None, "", [], {})}
    head = "  ".join(f"{k} {_scalar(v)}" for k, v in kept.items() if not isinstance(v, list | dict))
    nested = [f"{k}:" + "".join(f"\n{NESTED_INDENT}{_scalar(item)}" for item in v)
              for k, v in kept.items() if isinstance(v, list)]
    nested += [f"{k}:\n" + _table(v, NESTED_INDENT) for k, v in kept.items() if isinstance(v, dict)]
    return "\n".join([head, *nested]) if nested else head


def _table(figures: dict[str, Any], indent: str = "") -> str:
    """Named figures as a two-column table, one per line, names aligned."""
    width = max(len(str(name)) for name in figures) + 2
    return "\n".join(f"{indent}{str(name).ljust(width)}{_scalar(value)}"
                     for name, value in figures.items())


def field_text(value: Any) -> str:
    """A field's value as text: figures as a table, lists one item per line (a list of numbers on
    one line), entries of a run's milestones and events one per line with their lists beneath."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        return _table(value) if value else ""
    if isinstance(value, list):
        if value and isinstance(value[0], dict):
            shown = [_item(entry) for entry in value[-LIST_ITEMS:]]
            more = len(value) - len(shown)
            return "\n".join([f"… {more} earlier", *shown] if more > 0 else shown)
        if all(isinstance(v, int | float) for v in value):
            return ", ".join(_scalar(v) for v in value)
        return "\n".join(f"• {_scalar(v)}" for v in value)
    return _scalar(value)


def record_lines(record: Record) -> list[tuple[str, str]]:
    """(field, text) for every field of the record that holds something."""
    rows = []
    for field in fields(Record):
        value = getattr(record, field.name)
        if value in (None, "", [], {}) or field.name == "deleted_at":
            continue
        if field.name == "baseline" and not value:
            continue
        rows.append((field.name.replace("_", " "), field_text(value)))
    return rows


def detail_text(record: Record, name_style: Any) -> Text:
    """The record as a column of names and values; multi-line values indented under their name."""
    rows = record_lines(record)
    width = max(len(name) for name, _ in rows) + 2
    text = Text()
    for name, value in rows:
        if text:
            text.append("\n")
        text.append(name.ljust(width), style=name_style)
        lines = value.splitlines() or [""]
        text.append_text(literal(lines[0]))
        for line in lines[1:]:
            text.append("\n" + " " * width)
            text.append_text(literal(line))
    return text


class RecordView(ModalScreen[str | None]):
    """One record in full; returns "edit" or "delete" when the user asks for it, else None."""

    AUTO_FOCUS = "#record-scroll"  # Down, PageDown and End scroll at once
    COMPONENT_CLASSES = {"record-view--name"}
    BINDINGS = [
        Binding("escape,q", "dismiss(None)", "Close"),
        Binding("e", "dismiss('edit')", "Edit"),
        Binding("d", "delete", "Delete"),
    ]

    def __init__(self, record: Record) -> None:
        super().__init__()
        self.record = record

    def compose(self) -> ComposeResult:
        with Vertical(id="record-dialog"):
            title = f"{self.record.kind} {self.record.id}: {self.record.label}"
            yield Label(literal(title), id="record-title")
            with KeyScroll(id="record-scroll"):
                yield Static(id="record-fields")
            yield Label("e edit   d delete   esc close", id="record-keys")

    def on_mount(self) -> None:
        style = part_style(self, "record-view--name")
        self.query_one("#record-fields", Static).update(detail_text(self.record, style))

    def action_delete(self) -> None:
        """Ask first, as the Memory pane's `d` does; yes closes the view asking for the delete."""

        def answered(yes: bool | None) -> None:
            if yes:
                self.dismiss("delete")

        self.app.push_screen(ConfirmScreen(delete_question(self.record)), answered)
