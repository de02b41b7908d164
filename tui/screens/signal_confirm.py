"""Confirm sending a signal to a GPU process, naming it: nothing is sent without a yes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label

from sessiontui.tui.widgets.literal import clean

if TYPE_CHECKING:
    from sessiontui.tui.widgets.gpu_view import ProcessRow

MAX_COMMAND = 600  # characters of the command line shown (a `python -c` script can be long)


def describe(row: ProcessRow) -> str:
    """Who the signal would reach: PID, user, GPU and the full command line."""
    info = row.info
    command = info.command if len(info.command) <= MAX_COMMAND else info.command[:MAX_COMMAND] + "…"
    return f"process {row.process.pid} of user {info.user} on GPU {row.gpu}:\n{clean(command)}"


class SignalConfirm(ModalScreen[bool]):
    """`y` or the Send button confirms; `n`, Escape or Cancel leaves the process alone."""

    AUTO_FOCUS = "#signal-cancel"  # Enter on the default button must not send anything
    BINDINGS = [
        Binding("y", "answer(True)", "Send"),
        Binding("n,escape", "answer(False)", "Cancel"),
    ]

    def __init__(self, signal_name: str, row: ProcessRow) -> None:
        super().__init__()
        self.signal_name = signal_name
        self.row = row

    def compose(self) -> ComposeResult:
        with Vertical(id="signal-dialog"):
            yield Label(f"Send {self.signal_name} to {describe(self.row)}?", id="signal-question",
                        markup=False)
            with Horizontal(id="signal-buttons"):
                yield Button(f"Send {self.signal_name} (y)", variant="error", id="signal-send")
                yield Button("Cancel (n)", id="signal-cancel")

    @on(Button.Pressed, "#signal-send")
    def _send(self) -> None:
        self.dismiss(True)

    @on(Button.Pressed, "#signal-cancel")
    def _cancel(self) -> None:
        self.dismiss(False)

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
