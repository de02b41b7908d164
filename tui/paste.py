"""Bracketed paste that arrives as pasted: terminal escape sequences inside a paste are removed.

Textual's input parser reads an ESC inside a bracketed paste as the start of a key sequence:
`AAA \\e[31mBBB` arrived as the keys `^[31mBBB` followed by a paste of `AAA ` (scrambled, `[`
lost). This parser removes escape sequences (CSI, OSC and lone ESCs) from the text between the
paste markers before Textual's parser sees it, so a paste is one Paste event with the text as
written, minus its colour codes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from textual import _xterm_parser
from textual.drivers import linux_driver
from textual.message import Message

START, END = "\x1b[200~", "\x1b[201~"
_ESCAPES = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"  # CSI: colours, cursor moves
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"  # OSC: titles, clipboard writes
    r"|\x1b[@-_]?"  # any other escape, or a lone ESC
)


def without_escapes(text: str) -> str:
    """Pasted text with its terminal escape sequences removed."""
    return _ESCAPES.sub("", text)


def _marker_start(data: str) -> int:
    """How many trailing characters may begin a paste marker split over two reads.

    At least `ESC [ 2`: an ESC alone (the Escape key) or `ESC [` is never held back.
    """
    return next((n for n in range(len(START) - 1, 2, -1) if data.endswith(START[:n])), 0)


class PasteSafeParser(_xterm_parser.XTermParser):
    """Textual's parser, fed pasted text without escape sequences in it."""

    def __init__(self, debug: bool = False) -> None:
        super().__init__(debug)
        self._pasting = False
        self._held = ""  # the start of a paste not yet ended, kept until its end marker arrives

    def feed(self, data: str) -> Iterable[Message]:
        if not data:  # end of input
            return super().feed(data)
        cleaned = self._clean(data)
        return super().feed(cleaned) if cleaned else ()  # "" would read as end of input

    def _clean(self, data: str) -> str:
        """The data with escapes removed between START and END (a paste may span reads)."""
        out = []
        rest = self._held + data
        self._held = ""
        while rest:
            if not self._pasting:
                start = rest.find(START)
                if start < 0:
                    held = _marker_start(rest)
                    out.append(rest[: len(rest) - held])
                    self._held = rest[len(rest) - held:]
                    break
                out.append(rest[: start + len(START)])
                rest = rest[start + len(START):]
                self._pasting = True
            end = rest.find(END)
            if end < 0:  # the end marker is in a later read: keep the text until then
                self._held = rest
                break
            out.append(without_escapes(rest[:end]) + END)
            rest = rest[end + len(END):]
            self._pasting = False
        return "".join(out)


def install() -> None:
    """Make Textual's Linux driver (the one the app runs on in a terminal) use PasteSafeParser."""
    linux_driver.XTermParser = PasteSafeParser  # type: ignore[misc]
