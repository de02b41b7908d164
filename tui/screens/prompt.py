"""A one-line modal prompt for a path (a log to follow, a file to export to), with Tab
completion as in a shell; returns the text or None."""

from __future__ import annotations

import os
from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.suggester import Suggester
from textual.widgets import Input, Label

from sessiontui.tui.screens.outside import OutsideClickModal
from sessiontui.tui.widgets.nav import LeavingInput


def complete_path(text: str, base: Path) -> str | None:
    """`text` completed from the entries of its folder that start with its last part: the whole
    name when one matches (a folder gets its `/`), else the start they all share; None when
    there is nothing to add. A relative path is read from `base`; hidden entries only for `.`."""
    head, slash, part = text.rpartition("/")
    folder = Path(head + slash or ".").expanduser()
    try:
        with os.scandir(folder if folder.is_absolute() else base / folder) as entries:
            names = [entry.name + ("/" if entry.is_dir() else "") for entry in entries
                     if entry.name.startswith(part)
                     and (part.startswith(".") or not entry.name.startswith("."))]
    except OSError:
        return None
    shared = os.path.commonprefix(names)
    return head + slash + shared if len(shared) > len(part) else None


class PathSuggester(Suggester):
    """Suggests the completion of a path as it is typed (shown dim; Tab or → takes it)."""

    def __init__(self, base: Path) -> None:
        super().__init__(use_cache=False, case_sensitive=True)  # folders change
        self.base = base

    async def get_suggestion(self, value: str) -> str | None:
        return complete_path(value, self.base)


class PathInput(LeavingInput):
    """The prompt's input: Tab takes the suggested completion; Esc cancels the prompt."""

    LEAVE = "screen.cancel"
    BINDINGS = [
        Binding("tab", "complete", "Complete the path", show=False),
        Binding("escape", "leave", "Cancel", show=False, priority=True),
    ]

    def action_complete(self) -> None:
        if self._suggestion:
            self.value = self._suggestion
            self.cursor_position = len(self.value)


class PromptScreen(OutsideClickModal[str | None]):
    """Ask for one path; Enter accepts, Escape (or a click outside, until something is typed)
    cancels. Relative paths complete from `base` (default: the app's project folder)."""

    AUTO_FOCUS = "Input"  # the app itself starts unfocused; a form starts typing
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, value: str = "", placeholder: str = "",
                 base: Path | None = None) -> None:
        super().__init__()
        self.prompt_title = title
        self.value = value
        self.placeholder = placeholder
        self.base = base

    def compose(self) -> ComposeResult:
        base = self.base or Path(getattr(self.app, "project_dir", Path.cwd()))
        with Vertical(id="prompt-dialog"):
            yield Label(self.prompt_title, id="prompt-title")
            yield PathInput(self.value, placeholder=self.placeholder, id="prompt-input",
                            suggester=PathSuggester(base))
            yield Label("tab complete   enter accept   esc cancel", id="prompt-keys")

    def holds_input(self) -> bool:
        return self.query_one("#prompt-input", Input).value != self.value

    @on(Input.Submitted, "#prompt-input")
    def _submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)
