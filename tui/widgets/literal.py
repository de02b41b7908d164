"""Text from logs and records shown exactly as written: no markup, no terminal control codes."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text

_KEEP = {0x09, 0x0A}
_CONTROL_ESCAPES = {
    code: f"\\x{code:02x}"
    for code in (*range(0x00, 0x20), 0x7F, *range(0x80, 0xA0))
    if code not in _KEEP
}


def clean(text: object) -> str:
    """The text with control characters (ESC, CR, ...) spelled out so they cannot drive the terminal."""
    return str(text).translate(_CONTROL_ESCAPES)


def literal(text: object, style: str | Style = "") -> Text:
    """A Rich Text that shows `text` literally: `[bold]` stays brackets, ANSI escapes stay visible."""
    return Text(clean(text), style=style)
