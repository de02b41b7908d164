"""The keys every list, scrollable pane and input shares, as in less, htop and lazygit.

Lists and scrollable panes move with the arrows, j/k, Home/End, g/G and PageUp/PageDown. Esc
leaves an input for its pane, and a key typed right after Esc goes to that pane, even when it
reaches the app glued to the ESC (as ESC q, which is also how a terminal sends alt+q).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from textual import events
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.drivers import linux_driver
from textual.widgets import Input

from sessiontui.tui.paste import PasteSafeParser

ESC = "\x1b"
SEQUENCE_STARTS = "[O"  # ESC [ and ESC O begin the sequences of arrows, F-keys, the mouse
SCROLL_KEYS: list[BindingType] = [
    Binding("j", "scroll_down", "Down", show=False),
    Binding("k", "scroll_up", "Up", show=False),
    Binding("g", "scroll_home", "Top", show=False),
    Binding("G", "scroll_end", "Bottom", show=False),
]


class KeyScroll(VerticalScroll):
    """A vertical scroll that also moves with j/k and g/G (arrows, Home/End, PgUp/PgDn built in)."""

    BINDINGS = SCROLL_KEYS


class EscapeFirstParser(PasteSafeParser):
    """Reads ESC then a printable key, arriving together (typed fast, or sent by tmux in one
    write), as Esc and then that key. Textual reads them as one key: alt+q (typing "q" into
    the input Esc was leaving), ctrl+left for ESC b, the Mac Option key's `£` for ESC 3."""

    def _sequence_to_key_events(self, sequence: str, alt: bool = False) -> Iterable[events.Key]:
        if len(sequence) == 2 and sequence[0] == ESC and sequence[1] not in SEQUENCE_STARTS \
                and sequence[1].isprintable():
            return [events.Key("escape", ESC), *super()._sequence_to_key_events(sequence[1])]
        return super()._sequence_to_key_events(sequence, alt)


def install() -> None:
    """Make Textual's Linux driver (the app in a terminal) read keys with EscapeFirstParser."""
    linux_driver.XTermParser = EscapeFirstParser  # type: ignore[misc]


class LeavingInput(Input):
    """An input that Esc leaves, running the `LEAVE` action; its binding has priority, so the
    keys typed right after Esc go to the pane it focuses, not into this input."""

    LEAVE: ClassVar[str]  # the action that focuses the input's pane, e.g. "app.view('memory')"
    BINDINGS = [Binding("escape", "leave", "Back to the pane", show=False, priority=True)]

    async def action_leave(self) -> None:
        await self.run_action(self.LEAVE)
