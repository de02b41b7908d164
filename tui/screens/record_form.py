"""A modal form to add or edit a record; it stays open until the record is saved.

Saving runs the app's `save` callable in a thread: a store that refuses the write (read-only
folder, full disk) leaves the form open with the reason, and nothing typed is lost.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Input, Label, Static
from textual.worker import Worker, WorkerState

from sessiontui.project_memory.records import FIELDS, FieldSpec, Record, needs, record_problems
from sessiontui.tui.screens.confirm import ConfirmScreen

# The fields each kind's form shows, in order; what they hold and need is the field table's.
FORMS: dict[str, tuple[str, ...]] = {
    "benchmark": ("config", "metric", "value", "unit", "baseline", "concurrency", "engine",
                  "model", "spec_algorithm", "accept_length", "tags", "notes"),
    "lesson": ("title", "symptom", "cause", "fix", "signature", "tags"),
    "note": ("text", "tags"),
    "run": ("name", "tags", "notes"),
    "target": ("title", "metric", "value", "concurrency", "batch_size", "model", "engine"),
}


class FieldError(ValueError):
    """A value that cannot be saved, with the field it belongs to (focus goes there)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


def shown_value(record: Record, field: FieldSpec) -> str:
    """A record field as the text its input starts with."""
    value = getattr(record, field.name)
    if isinstance(value, list):
        return ", ".join(value)
    return "" if value is None else str(value)


def parse_value(field: FieldSpec, raw: str) -> object:
    """Text typed into a field as the record's value (the field table's parser); raises
    FieldError with a message to show. An empty required field is the record's rules' to refuse."""
    try:
        return field.parse(raw)
    except ValueError as exc:
        raise FieldError(field.name, f"{field.name.replace('_', ' ')}: {exc}") from None


class YesNo(Checkbox):
    """A checkbox that says its state in words: `[x] yes` or `[ ] no`, not only by colour."""

    BUTTON_LEFT, BUTTON_RIGHT = "[", "]"

    def __init__(self, value: bool, **kwargs: Any) -> None:
        super().__init__("yes" if value else "no", value, compact=True, **kwargs)
        self.BUTTON_INNER = "x" if value else " "

    def watch_value(self) -> None:
        self.BUTTON_INNER = "x" if self.value else " "
        self.label = "yes" if self.value else "no"
        super().watch_value()


class RecordForm(ModalScreen[str | None]):
    """Edit a copy of `record` (a new one when it has no id yet); returns what `save` said."""

    AUTO_FOCUS = "Input"  # the app itself starts unfocused; a form starts typing
    BINDINGS = [
        Binding("ctrl+s", "save", "Save"),
        Binding("ctrl+r", "reload", "Reload", show=False),
        # Priority: the form closes (or asks) before the next key of a burst is routed, so that
        # key goes to the app, not into the field Esc left (as LeavingInput's Esc).
        Binding("escape", "cancel", "Cancel", priority=True),
        # Priority: focus moves before the next key of a burst is routed, so it lands in the
        # field Tab went to, not in the one it left.
        Binding("tab", "app.focus_next", "Next field", show=False, priority=True),
        Binding("shift+tab", "app.focus_previous", "Previous field", show=False, priority=True),
    ]

    def __init__(self, record: Record, save: Callable[[Record], str], *,
                 reload: Callable[[str], Record] | None = None) -> None:
        super().__init__()
        self.record = record
        self.save = save
        self.reload = reload  # the stored version by id: taken when it changed under the form
        self.fields = [FIELDS[name] for name in FORMS[record.kind]]
        self._saving = False

    def compose(self) -> ComposeResult:
        verb = f"Edit {self.record.kind} {self.record.id}" if self.record.id else f"New {self.record.kind}"
        with Vertical(id="form-dialog"):
            yield Label(verb, id="form-title")
            with VerticalScroll(id="form-scroll"), Grid(id="form-grid"):
                for field in self.fields:
                    label = field.name.replace("_", " ") + (" *" if self._needs(field) else "")
                    yield Label(label, classes="form-label")
                    if field.base is bool:
                        yield YesNo(bool(getattr(self.record, field.name)), id=f"field-{field.name}")
                    else:
                        yield Input(shown_value(self.record, field), id=f"field-{field.name}",
                                    compact=True, select_on_focus=False)
            yield Static(id="form-error", markup=False)
            with Horizontal(id="form-buttons"):
                yield Label("ctrl+s save   esc cancel", id="form-keys")
                yield Button("Save", id="save", variant="primary", compact=True)
                yield Button("Cancel", id="cancel", compact=True)

    def _typed(self) -> dict[str, str | bool]:
        """What each field shows now (text, or the checkbox state)."""
        shown = (self.query_one(f"#field-{field.name}") for field in self.fields)
        return {field.name: widget.value for field, widget in zip(self.fields, shown, strict=True)
                if isinstance(widget, Input | Checkbox)}

    def on_mount(self) -> None:
        self._initial = self._typed()

    def _needs(self, field: FieldSpec) -> bool:
        """Whether the record may not be saved with this field empty."""
        return needs(self.record, field.name)

    def values(self) -> dict[str, Any]:  # Any: each field's own type, for dataclasses.replace
        """Parsed values of every field; raises FieldError naming the first bad one."""
        typed = self._typed()
        return {
            field.name: typed[field.name] if field.base is bool
            else parse_value(field, str(typed[field.name]))
            for field in self.fields
        }

    def _error(self, message: str) -> None:
        self.query_one("#form-error", Static).update(message)

    @on(Input.Changed)
    def _typing(self) -> None:
        """A message about a value goes away as soon as the value changes."""
        if not self._saving:
            self._show_problem("", set())

    def _show_problem(self, message: str, field_names: set[str]) -> None:
        """The message under the form; the fields it is about marked `-invalid`, focus on the first."""
        self._error(message)
        bad = [self.query_one(f"#field-{f.name}") for f in self.fields if f.name in field_names]
        for field in self.fields:
            self.query_one(f"#field-{field.name}").set_class(field.name in field_names, "-invalid")
        if bad:
            bad[0].focus()

    @on(Button.Pressed, "#save")
    @on(Input.Submitted)
    def action_save(self) -> None:
        if self._saving:
            return
        try:
            record = dataclasses.replace(self.record, **self.values())
        except FieldError as exc:
            self._show_problem(str(exc), {exc.field})
            return
        problems = record_problems(record)  # the same rules as the CLI, import and the store
        if problems:
            self._show_problem("; ".join(str(p) for p in problems), {p.field for p in problems})
            return
        self._saving = True
        self._error("saving…")
        self.run_worker(lambda: self.save(record), thread=True, exit_on_error=False,
                        group="form-save")

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """Saved: close with the store's word. Refused: stay open and say why."""
        if event.worker.group != "form-save" or event.state not in (WorkerState.SUCCESS,
                                                                      WorkerState.ERROR):
            return
        self._saving = False
        if event.state == WorkerState.SUCCESS:
            self.dismiss(event.worker.result)
        else:
            self._error(f"Not saved: {event.worker.error}")

    def action_reload(self) -> None:
        """Show the stored version of the record (after a save refused because it changed)."""
        if self.reload is None or not self.record.id or self._saving:
            return
        self.record = self.reload(self.record.id)
        for field in self.fields:
            widget = self.query_one(f"#field-{field.name}")
            if isinstance(widget, Checkbox):
                widget.value = bool(getattr(self.record, field.name))
            elif isinstance(widget, Input):
                widget.value = shown_value(self.record, field)
        self._initial = self._typed()
        self._show_problem(f"reloaded revision {self.record.revision}", set())

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        """Close; when something was typed, ask before throwing it away."""
        if self._typed() == self._initial:
            self.dismiss(None)
            return
        what = f"changes to {self.record.id}" if self.record.id else f"this new {self.record.kind}"

        def discard(yes: bool | None) -> None:
            if yes:
                self.dismiss(None)

        self.app.push_screen(ConfirmScreen(f"Discard {what}?"), discard)
