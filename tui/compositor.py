"""The main screen's compositor: a partial update renders only the widgets it touches.

Textual 8.2 picks the widgets to render for a partial update by their clip (the area of their
container), not by their own region: with the four panes in one grid, one changed line in the GPU
pane had every pane, bar and container re-render all their lines for the frame (from cache, but
still a third of the app's steady drawing cost). Giving each pane a container of its own does
not make up for it: measured 10-17% more UI-thread CPU per frame (docs/upstream.md). Pinned with
Textual (8.2.8): `_get_renders` is private to it.
"""

from __future__ import annotations

from collections.abc import Iterable

from textual._compositor import Compositor
from textual.geometry import Region
from textual.strip import Strip


class PartialCompositor(Compositor):
    """Renders, for an update of `crop`, the widgets whose visible part meets `crop`."""

    def _get_renders(self, crop: Region | None = None) -> Iterable[tuple[Region, Region, list[Strip]]]:
        if crop is None:
            yield from super()._get_renders(crop)
            return
        meets = crop.overlaps
        for widget, (region, clip) in self.visible_widgets.items():
            shown = region.intersection(clip)
            if meets(shown):
                yield region, clip, widget.render_lines(shown.translate(-region.offset))
