"""Modal dialogs that a click outside closes, as Esc does (unless they hold unsaved input)."""

from __future__ import annotations

from typing import Any, ClassVar, TypeVar

from textual import events
from textual.screen import ModalScreen

ResultType = TypeVar("ResultType")


class OutsideClickModal(ModalScreen[ResultType]):
    """A modal screen whose dimmed surroundings close it with `CLOSED`, Esc's answer."""

    CLOSED: ClassVar[Any] = None

    def holds_input(self) -> bool:
        """Whether the dialog holds typing a stray click must not lose (subclasses say)."""
        return False

    def on_click(self, event: events.Click) -> None:
        if event.widget is self and not self.holds_input():
            event.stop()
            self.dismiss(self.CLOSED)
