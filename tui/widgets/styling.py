"""Rich styles of a widget's component classes, whose colours live in app.tcss."""

from __future__ import annotations

from rich.style import Style
from textual.widget import Widget


def part_style(widget: Widget, name: str) -> Style:
    """The style of one component class; unstyled while the widget is not (or no longer) styled."""
    return widget.get_component_rich_style(name, partial=True, default=Style.null())
