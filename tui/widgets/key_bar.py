"""The key bar: the screen's shown key bindings on one line (a light stand-in for Footer).

Textual's Footer mounts one widget per key and fills itself only on the frame after the first,
so the app's first frame had no keys; this draws them in the first frame as a single Text.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.binding import Binding

from sessiontui.tui.widgets.styling import PartStyles

KEPT = ("quit", "help", "focus_ask")  # app keys shown at any width
MORE = "help"  # the key whose label counts the keys left out of a narrow bar: help lists them


class KeyBar(PartStyles):
    """`key description` for each shown binding; a click presses the key; palette on the right."""

    COMPONENT_CLASSES = {"key-bar--key", "key-bar--description", "key-bar--disabled"}

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, lambda _screen: self.refresh())

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def render(self) -> Text:
        shown: dict[str, Text] = {}  # one entry per action, the innermost binding first
        droppable: list[str] = []  # the app's own keys, dropped from the end when space is short
        bindings: dict[str, tuple[Binding, bool]] = {}
        palette = Text()
        for node, binding, enabled, _tooltip in self.screen.active_bindings.values():
            if binding.key == self.app.COMMAND_PALETTE_BINDING:
                palette = self._key(binding, enabled)
            elif binding.show and binding.action not in shown:
                shown[binding.action] = self._key(binding, enabled)
                bindings[binding.action] = (binding, enabled)
                if node is self.app and binding.action not in KEPT:
                    droppable.append(binding.action)
        room = self.size.width - palette.cell_len - 1
        dropped = 0
        while droppable and sum(t.cell_len + 1 for t in shown.values()) > room:
            del shown[droppable.pop()]
            dropped += 1
            if MORE in bindings:  # `?` says how many keys it shows that the bar has no room for
                binding, enabled = bindings[MORE]
                shown[MORE] = self._key(binding, enabled, f"{dropped} more")
        keys = Text(" ").join(shown.values())
        gap = max(1, self.size.width - keys.cell_len - palette.cell_len)
        return Text.assemble(keys, " " * gap, palette) if palette else keys

    def _key(self, binding: Binding, enabled: bool, description: str = "") -> Text:
        """One binding: the key, then what it does, clickable (dim while disabled)."""
        click = Style(meta={"@click": f"app.simulate_key({binding.key!r})"})
        dim = self.part("key-bar--disabled") if not enabled else Style.null()
        return Text.assemble(
            (f" {self.app.get_key_display(binding)} ", self.part("key-bar--key") + dim + click),
            (description or binding.description,
             self.part("key-bar--description") + dim + click),
        )
