"""The help screen: what each pane shows, what its symbols mean, and every key binding."""

from __future__ import annotations

from collections.abc import Sequence

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from sessiontui.tui.widgets.styling import part_style

INTRO = (
    "sessiontui remembers (baselines, benchmarks, lessons, notes, runs), watches (GPUs, host, "
    "followed training logs) and answers questions about this project. Ctrl+P opens the "
    "command palette: every action is there by name."
)
PANES = (
    ("1 GPUs", "a row per GPU: utilisation, memory, power, temperature, clock, throttling, with "
               "charts; the processes on the GPUs; host CPU, RAM and disks."),
    ("2 Training", "a card per followed log: progress, step/s, ETA, loss, per-position accuracy "
                   "and accept length with their charts (range on the right), latest events."),
    ("3 Memory", "every record, the number to beat first; Enter opens one in full. The filter "
                 "takes words and kind:lesson, baseline, failed, engine:sglang …"),
    ("4 Answer", "the answer to the last question asked with /, its figures and sources."),
)
SYMBOLS = (
    ("★", "the number to beat: the best baseline for the default metric"),
    ("b", "another baseline"),
    ("vs beat", "a result divided by the number to beat (above 1.00x is better)"),
    ("τ", "accept length: tokens accepted per drafting step, from per-position accuracy"),
    ("↑ ↓ →", "trend over the last points of a chart"),
    ("⚠", "a GPU is throttled; the line under the GPUs says why"),
)


def columns_text(rows: Sequence[tuple[str, str]], key_style: Style) -> Text:
    """Names in a padded column, each followed by its description."""
    width = max((len(key) for key, _ in rows), default=0) + 2
    text = Text()
    for key, description in rows:
        text.append(key.ljust(width), style=key_style)
        text.append(f"{description}\n")
    text.rstrip()
    return text


class HelpScreen(ModalScreen[None]):
    """Panes, symbols and keys; scrolls with the arrows, PageUp/PageDown, Home/End."""

    AUTO_FOCUS = "#help-dialog"  # focused: the arrows and End scroll it at once
    BINDINGS = [Binding("escape,q,question_mark", "dismiss", "Close")]
    COMPONENT_CLASSES = {"help-screen--key", "help-screen--heading"}

    def __init__(self, bindings: Sequence[tuple[str, str]]) -> None:
        super().__init__()
        self.key_bindings = bindings

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-dialog"):
            yield Static(INTRO, id="help-intro", markup=False)
            yield Static(id="help-panes", classes="help-section")
            yield Static(id="help-symbols", classes="help-section")
            yield Static(id="help-keys", classes="help-section")

    def on_mount(self) -> None:
        key = part_style(self, "help-screen--key")
        heading = part_style(self, "help-screen--heading")
        for section, title, rows in (
            ("#help-panes", "Panes", PANES), ("#help-symbols", "Symbols", SYMBOLS),
            ("#help-keys", "Keys", self.key_bindings),
        ):
            text = Text(f"{title}\n", style=heading)
            text.append_text(columns_text(rows, key))
            self.query_one(section, Static).update(text)
