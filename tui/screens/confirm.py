"""A yes/no question before something is lost or overwritten; returns True for yes."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Label

from sessiontui.project_memory.records import Record
from sessiontui.tui.screens.outside import OutsideClickModal
from sessiontui.tui.widgets.literal import literal

NAME_CHARS = 60  # a record's name in a question, on one line


class ConfirmScreen(OutsideClickModal[bool]):
    """`question` with y (yes) and n, Escape or a click outside (no)."""

    CLOSED = False

    BINDINGS = [
        Binding("y", "dismiss(True)", "Yes"),
        Binding("n,escape", "dismiss(False)", "No"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-dialog"):
            yield Label(literal(self.question), id="confirm-question")
            yield Label("y yes   n no", id="confirm-keys")


def delete_question(record: Record) -> str:
    """The question before a record is deleted, naming the record the key acted on."""
    name = " ".join(record.label.split())
    if len(name) > NAME_CHARS:
        name = name[: NAME_CHARS - 1].rstrip() + "…"
    return f"Delete {record.kind} {record.id}: {name}? (u undoes)"
