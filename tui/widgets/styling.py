"""Rich styles of a widget's component classes, whose colours live in app.tcss."""

from __future__ import annotations

from rich.style import Style
from textual.widget import Widget


def part_style(widget: Widget, name: str) -> Style:
    """The style of one component class; unstyled while the widget is not (or no longer) styled."""
    return widget.get_component_rich_style(name, partial=True, default=Style.null())


class PartStyles(Widget):
    """A widget that repaints often and keeps its component styles until its CSS changes
    (Textual forgets them on every repaint, and looking one up costs as much as a small render)."""

    _part_styles: dict[str, Style] | None = None

    def part(self, name: str) -> Style:
        """`part_style(self, name)`, looked up once per style change once the widget is styled."""
        if not self.is_mounted:
            return part_style(self, name)
        if self._part_styles is None:
            self._part_styles = {}
        if name not in self._part_styles:
            self._part_styles[name] = part_style(self, name)
        return self._part_styles[name]

    def notify_style_update(self) -> None:
        self._part_styles = None
        super().notify_style_update()
