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
from sessiontui.tui.widgets.literal import literal
from sessiontui.tui.widgets.nav import KeyScroll
from sessiontui.tui.widgets.styling import part_style

LIST_ITEMS = 8  # a run's latest milestones and events shown; the rest are counted


def _item(entry: Any) -> str:
    """One milestone or event of a run as `key value` pairs on a line."""
    if isinstance(entry, dict):
        return "  ".join(f"{k} {v}" for k, v in entry.items() if v not in (None, "", [], {}))
    return str(entry)


def field_text(value: Any) -> str:
    """A field's value as text: lists joined or one per line, dicts as `key value` pairs."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        return _item(value)
    if isinstance(value, list):
        if value and isinstance(value[0], dict):
            shown = [_item(entry) for entry in value[-LIST_ITEMS:]]
            more = len(value) - len(shown)
            return "\n".join([f"… {more} earlier", *shown] if more > 0 else shown)
        return ", ".join(f"{v:.4g}" if isinstance(v, float) else str(v) for v in value)
    if isinstance(value, float):
        return f"{value:.6g}"
    return str(value)


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
        Binding("d", "dismiss('delete')", "Delete"),
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
