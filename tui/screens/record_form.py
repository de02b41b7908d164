"""A modal form to add or edit a benchmark, lesson or note; returns the record or None."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Input, Label, Static

from sessiontui.project_memory.records import Record, record_problems


@dataclass(frozen=True)
class FormField:
    """One editable record field: its name, how to parse it, whether it may stay empty."""

    name: str
    parse: str = "text"  # text | float | int | bool | tags
    required: bool = False


FORMS: dict[str, tuple[FormField, ...]] = {
    "benchmark": (
        FormField("config", required=True), FormField("metric", required=True),
        FormField("value", "float", required=True), FormField("unit"),
        FormField("baseline", "bool"), FormField("concurrency", "int"), FormField("engine"),
        FormField("model"), FormField("spec_algorithm"), FormField("accept_length", "float"),
        FormField("tags", "tags"), FormField("notes"),
    ),
    "lesson": (
        FormField("title", required=True), FormField("symptom"), FormField("cause"),
        FormField("fix"), FormField("signature"), FormField("tags", "tags"),
    ),
    "note": (FormField("text", required=True), FormField("tags", "tags")),
}


def shown_value(record: Record, field: FormField) -> str:
    """A record field as the text its input starts with."""
    value = getattr(record, field.name)
    if field.parse == "tags":
        return ", ".join(value)
    return "" if value is None else str(value)


def _empty(name: str) -> Any:
    """What an emptied field holds: the record field's default (None, "" or [])."""
    default = Record.__dataclass_fields__[name]
    return default.default_factory() if callable(default.default_factory) else default.default


def parse_value(field: FormField, raw: str) -> Any:
    """Text typed into a field as the record's value; raises ValueError with a message to show."""
    raw = raw.strip()
    if not raw:
        if field.required:
            raise ValueError(f"{field.name} is required")
        return _empty(field.name)
    if field.parse == "float":
        try:
            return float(raw)
        except ValueError:
            raise ValueError(f"{field.name}: {raw!r} is not a number") from None
    if field.parse == "int":
        try:
            return int(raw)
        except ValueError:
            raise ValueError(f"{field.name}: {raw!r} is not a whole number") from None
    if field.parse == "tags":
        return [tag.strip() for tag in raw.split(",") if tag.strip()]
    return raw


class RecordForm(ModalScreen[Record | None]):
    """Edit a copy of `record` (a new one when it has no id yet)."""

    AUTO_FOCUS = "Input"  # the app itself starts unfocused; a form starts typing
    BINDINGS = [
        Binding("escape", "cancel", "Cancel"),
        Binding("ctrl+s", "save", "Save"),
    ]

    def __init__(self, record: Record, error: str = "") -> None:
        super().__init__()
        self.record = record
        self.fields = FORMS[record.kind]
        self.error = error  # why the last save failed: the form reopens with what was typed

    def compose(self) -> ComposeResult:
        verb = f"Edit {self.record.kind} {self.record.id}" if self.record.id else f"New {self.record.kind}"
        with Vertical(id="form-dialog"):
            yield Label(verb, id="form-title")
            with VerticalScroll(id="form-scroll"), Grid(id="form-grid"):
                for field in self.fields:
                    yield Label(field.name.replace("_", " "), classes="form-label")
                    if field.parse == "bool":
                        yield Checkbox(value=bool(getattr(self.record, field.name)),
                                       id=f"field-{field.name}", compact=True)
                    else:
                        yield Input(shown_value(self.record, field), id=f"field-{field.name}",
                                    compact=True, select_on_focus=False)
            yield Static(self.error, id="form-error", markup=False)
            with Horizontal(id="form-buttons"):
                yield Button("Save", id="save", variant="primary", compact=True)
                yield Button("Cancel", id="cancel", compact=True)

    def values(self) -> dict[str, Any]:
        """Parsed values of every field; raises ValueError naming the first bad one."""
        values: dict[str, Any] = {}
        for field in self.fields:
            widget = self.query_one(f"#field-{field.name}")
            if isinstance(widget, Checkbox):
                values[field.name] = widget.value
            else:
                values[field.name] = parse_value(field, widget.value)
        return values

    def _show_problem(self, message: str, field_names: set[str]) -> None:
        """The message under the form; the fields it is about marked `-invalid`."""
        self.query_one("#form-error", Static).update(message)
        for field in self.fields:
            self.query_one(f"#field-{field.name}").set_class(field.name in field_names, "-invalid")

    @on(Button.Pressed, "#save")
    @on(Input.Submitted)
    def action_save(self) -> None:
        try:
            record = dataclasses.replace(self.record, **self.values())
        except ValueError as exc:
            named = {f.name for f in self.fields if str(exc).startswith(f.name)}
            self._show_problem(str(exc), named)
            return
        problems = record_problems(record)  # the same rules as the CLI, import and the store
        if problems:
            self._show_problem("; ".join(str(p) for p in problems), {p.field for p in problems})
            return
        self.dismiss(record)

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
