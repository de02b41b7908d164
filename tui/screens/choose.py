"""Pick one of a few choices (a followed log to stop following); returns it or None."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Label, OptionList

from sessiontui.tui.screens.outside import OutsideClickModal
from sessiontui.tui.widgets.literal import literal


class ChoiceList(OptionList):
    """The choices; j/k and g/G move as the arrows and Home/End do."""

    BINDINGS = [
        Binding("j", "cursor_down", "Down", show=False),
        Binding("k", "cursor_up", "Up", show=False),
        Binding("g", "first", "First", show=False),
        Binding("G", "last", "Last", show=False),
    ]


class ChooseScreen(OutsideClickModal[str | None]):
    """A title over a list; Enter picks the highlighted choice, Escape cancels."""

    AUTO_FOCUS = "OptionList"
    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel")]

    def __init__(self, title: str, choices: Sequence[str]) -> None:
        super().__init__()
        self.choice_title = title
        self.choices = list(choices)

    def compose(self) -> ComposeResult:
        with Vertical(id="choose-dialog"):
            yield Label(literal(self.choice_title), id="choose-title")
            options: list[Text] = [literal(choice) for choice in self.choices]
            yield ChoiceList(*options, id="choose-list")
            yield Label("enter choose   esc cancel", id="choose-keys")

    @on(OptionList.OptionSelected, "#choose-list")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.choices[event.option_index])
