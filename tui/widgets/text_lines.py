"""A widget drawn from lines of Rich Text that repaints only the lines that changed.

A pane that renders one `render()` Text is converted to strips whole on every change, and that
conversion was most of the app's steady CPU (a 21-line GPU pane: ~6 ms a second, every second).
Here each line becomes a strip once, a change repaints only the rows whose text or styles differ,
and the compositor sends the terminal only those rows.
"""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.geometry import Region, Size
from textual.strip import Strip

from sessiontui.tui.widgets.styling import PartStyles


def same(a: Text, b: Text) -> bool:
    """Whether two lines draw the same cells (characters and styles)."""
    return a.plain == b.plain and a.spans == b.spans and a.style == b.style


class TextLines(PartStyles):
    """Subclasses say what they show in `text_lines`; `repaint()` draws what changed."""

    WRAP = False  # wrap lines wider than the widget (else cut them with an ellipsis)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._shown: list[Text] = []  # the rows on screen, one Text per row
        self._strips: dict[int, Strip] = {}
        self._shown_width = -1  # the width `_shown` was laid out for; -1: lay out afresh
        self._base: Style | None = None  # the widget's own colours, looked up once per style change

    def text_lines(self, width: int) -> list[Text]:
        """What the widget shows at this content width, one Text per line."""
        raise NotImplementedError

    def repaint(self) -> None:
        """Lay the lines out again and repaint only the rows that differ from the screen."""
        width = self.size.width
        if not width or not self.display:
            self._shown_width = -1  # hidden or not laid out yet: drawn afresh when shown
            return
        if width != self._shown_width:
            self._relayout(width)
            return
        rows = self._rows(width)
        old = self._shown
        changed = [y for y, line in enumerate(rows) if y >= len(old) or not same(line, old[y])]
        changed += range(len(rows), len(old))  # rows that are now blank
        self._shown = rows
        for y in changed:
            self._strips.pop(y, None)
        if len(rows) != len(old) and self._auto_height:
            self.refresh(layout=True)
        elif changed:
            self.refresh(*(Region(0, y, width, 1) for y in changed))

    def _relayout(self, width: int) -> None:
        self._lay_out(width)
        self.refresh(layout=self._auto_height)

    def _lay_out(self, width: int) -> None:
        """Every row afresh for `width`; their strips are drawn again when asked for."""
        self._shown = self._rows(width)
        self._shown_width = width
        self._strips.clear()

    @property
    def _auto_height(self) -> bool:
        return self.styles.height is not None and self.styles.height.is_auto

    def _rows(self, width: int) -> list[Text]:
        """The widget's lines as screen rows: wrapped or cut to `width`."""
        rows: list[Text] = []
        for line in self.text_lines(width):
            if line.cell_len <= width:
                rows.append(line)
            elif self.WRAP:
                rows.extend(line.wrap(self.app.console, width))
            else:
                cut = line.copy()
                cut.truncate(width, overflow="ellipsis")
                rows.append(cut)
        return rows

    def on_resize(self) -> None:
        self._shown_width = -1
        self.repaint()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._base = None
        self._shown_width = -1  # new colours: every line laid out and drawn afresh (render_line)
        self.refresh()

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self._shown) if width == self._shown_width else len(self._rows(width))

    def render(self) -> Text:
        """The widget's content as one Text (Textual draws it row by row through render_line)."""
        return Text("\n").join(self._rows(self.size.width or 80))

    def render_line(self, y: int) -> Strip:
        if self._shown_width != self.size.width:  # first paint, or shown again before its resize
            self._lay_out(self.size.width)
        strip = self._strips.get(y)
        if strip is None:
            strip = self._strips[y] = self._strip(y)
        return strip

    def _strip(self, y: int) -> Strip:
        if self._base is None:
            self._base = self.rich_style
        base = self._base
        if y >= len(self._shown):
            return Strip.blank(self.size.width, base)
        line, console = self._shown[y], self.app.console
        if line.style:  # Text.render leaves a line's own style out when it has no spans
            base += console.get_style(line.style)
        segments = Segment.apply_style(line.render(console), base)
        return Strip(segments, line.cell_len)
