"""The help screen: what sessiontui shows and every key binding, read from the live bindings."""

from __future__ import annotations

from collections.abc import Sequence

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from sessiontui.tui.widgets.styling import part_style

INTRO = (
    "sessiontui remembers (baselines, benchmarks, lessons, notes, runs), watches (GPUs, host, "
    "followed training logs) and answers questions about this project.\n"
    "Ctrl+P opens the command palette: every action is there by name."
)


def bindings_text(bindings: Sequence[tuple[str, str]], key_style: Style) -> Text:
    """Keys in a padded column, each followed by what it does."""
    width = max((len(key) for key, _ in bindings), default=0) + 2
    text = Text()
    for key, description in bindings:
        text.append(key.ljust(width), style=key_style)
        text.append(f"{description}\n")
    text.rstrip()
    return text


class HelpScreen(ModalScreen[None]):
    """Keys and a short orientation; any of Escape, q or ? closes it."""

    BINDINGS = [Binding("escape,q,question_mark", "dismiss", "Close")]
    COMPONENT_CLASSES = {"help-screen--key"}

    def __init__(self, bindings: Sequence[tuple[str, str]]) -> None:
        super().__init__()
        self.key_bindings = bindings

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-dialog"):
            yield Static(INTRO, id="help-intro", markup=False)
            yield Static(id="help-keys")

    def on_mount(self) -> None:
        style = part_style(self, "help-screen--key")
        self.query_one("#help-keys", Static).update(bindings_text(self.key_bindings, style))
