"""The narrow layout's row of views (a light stand-in for Tabs): numbered, active one marked."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.style import Style
from rich.text import Text
from textual.reactive import reactive

from sessiontui.tui.widgets.styling import PartStyles


class ViewBar(PartStyles):
    """One line naming the views; a click (or the view's number key) switches to it."""

    COMPONENT_CLASSES = {"view-bar--active", "view-bar--inactive"}

    active: reactive[str] = reactive("")

    def __init__(self, views: Sequence[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.views = list(views)

    def render(self) -> Text:
        text = Text()
        for number, (name, label) in enumerate(self.views, 1):
            part = "view-bar--active" if name == self.active else "view-bar--inactive"
            click = Style(meta={"@click": f"app.view({name!r})"})
            text.append(f" {number} {label} ", style=self.part(part) + click)
            text.append(" ")
        return text
