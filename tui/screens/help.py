"""The help screen: what each pane shows, what its symbols mean, and every key binding."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from rich.style import Style
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.dom import DOMNode
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from sessiontui.tui.screens.outside import OutsideClickModal
from sessiontui.tui.widgets.nav import KeyScroll
from sessiontui.tui.widgets.styling import part_style

CLOSE = "Esc or ? to close · ↑↓ j/k PgUp/PgDn Home/End g/G scroll"
INTRO = (
    "sessiontui remembers (baselines, benchmarks, lessons, notes, runs), watches (GPUs, host, "
    "followed training logs) and answers questions about this project. Ctrl+P opens the "
    "command palette: every action is there by name. The app's keys work from any pane, "
    "unless the focused pane uses the key itself (/ filters in the Memory pane)."
)
PANES = {
    "GPUs": "1: a row per GPU: utilisation, memory, power, temperature, clock, throttling, with "
            "charts; the processes on the GPUs; host CPU, RAM and disks.",
    "Training": "2: a card per followed log: progress, step/s, ETA, loss, per-position accuracy "
                "and accept length with their charts (range on the right), latest events.",
    "Memory": "3: every record, the number to beat first; Enter opens one in full. The filter "
              "takes words and kind:lesson, baseline, failed, engine:sglang …",
    "Answer": "4: the answer to the last question asked with /, its figures and sources.",
}
SYMBOLS = (
    ("★", "the number to beat: the best baseline for the default metric"),
    ("b", "another baseline"),
    ("vs beat", "a result divided by the number to beat (above 1.00x is better)"),
    ("τ", "accept length: tokens accepted per drafting step, from per-position accuracy"),
    ("↑ ↓ →", "trend over the last points of a chart"),
    ("⚠", "a GPU is throttled; the line under the GPUs says why"),
)
# App-wide keys listed with the pane they are about (every other app key is Global).
ABOUT = {"follow_log": "Training", "unfollow_log": "Training", "lesson_from_failure": "Training",
         "undelete": "Memory", "export": "Memory", "view('gpu')": "GPUs",
         "view('training')": "Training", "view('memory')": "Memory", "view('answer')": "Answer"}
GROUPS = ("Global", "GPUs", "Training", "Memory", "Answer", "Ask bar", "Forms and dialogs")


class Row(NamedTuple):
    """One line of the key list: the keys (as shown in the key bar), what they do."""

    keys: str
    description: str
    action: str


def _generic_keys(owner: type[DOMNode]) -> set[tuple[str, str]]:
    """(key, action) of what every input (text editing) or dialog (Tab, copy) shares: left out,
    so each group lists what is particular to it."""
    for base in (Input, ModalScreen):
        if issubclass(owner, base):
            return {(b.key, b.action) for bindings in base._merge_bindings().key_to_bindings.values()
                    for b in bindings}
    return set()


def binding_rows(app: App, owners: Sequence[tuple[type[DOMNode], str]]) -> list[Row]:
    """One row per action of the owners' bindings (inherited ones too): its keys, what it does.

    Each owner comes with the words that say where its keys work ("" where that is plain).
    """
    rows: dict[tuple[str, str], Row] = {}
    for owner, where in owners:
        skip = _generic_keys(owner)
        for bindings in owner._merge_bindings().key_to_bindings.values():
            for binding in bindings:
                if (binding.key, binding.action) in skip or not binding.description:
                    continue
                key = app.get_key_display(binding)
                description = f"{binding.description} ({where})" if where else binding.description
                row = rows.get((binding.action, where))
                if row is None:
                    rows[binding.action, where] = Row(key, description, binding.action)
                elif key not in row.keys.split(" "):
                    rows[binding.action, where] = row._replace(keys=f"{row.keys} {key}")
    return list(rows.values())


def key_groups(app: App) -> list[tuple[str, list[Row]]]:
    """Every binding, grouped by the pane (or form) it works in, read from the bindings."""
    from sessiontui.tui.screens.choose import ChoiceList, ChooseScreen
    from sessiontui.tui.screens.confirm import ConfirmScreen
    from sessiontui.tui.screens.prompt import PathInput, PromptScreen
    from sessiontui.tui.screens.record_form import RecordForm
    from sessiontui.tui.screens.record_view import RecordView
    from sessiontui.tui.screens.signal_confirm import SignalConfirm
    from sessiontui.tui.widgets.ask_panel import AnswerPanel, AskBar
    from sessiontui.tui.widgets.gpu_pane import GpuPane
    from sessiontui.tui.widgets.memory_pane import MemoryFilter, MemoryPane, MemoryTable
    from sessiontui.tui.widgets.training_pane import TrainingPane

    groups: dict[str, list[Row]] = {title: [] for title in GROUPS}
    for row in binding_rows(app, [(type(app), "")]):
        groups[ABOUT.get(row.action, "Global")].append(row)
    palette = Binding(app.COMMAND_PALETTE_BINDING, "command_palette")
    groups["Global"].append(Row(app.get_key_display(palette),
                                "Command palette: every action by name", "command_palette"))
    pane_owners: list[tuple[str, list[tuple[type[DOMNode], str]]]] = [
        ("GPUs", [(GpuPane, "")]),
        ("Training", [(TrainingPane, "")]),
        ("Memory", [(MemoryTable, ""), (MemoryPane, ""), (MemoryFilter, "in the filter")]),
        ("Answer", [(AnswerPanel, "")]),
        ("Ask bar", [(AskBar, "")]),
        ("Forms and dialogs", [
            (RecordForm, "record form"), (PromptScreen, "path prompt"), (PathInput, "path prompt"),
            (ConfirmScreen, "yes/no question"), (ChooseScreen, "list"), (ChoiceList, "list"),
            (RecordView, "record view"), (SignalConfirm, "signal question"),
        ]),
    ]
    for title, owners in pane_owners:
        groups[title].extend(binding_rows(app, owners))
    return [(title, rows) for title, rows in groups.items() if rows]


def columns_text(rows: Sequence[tuple[str, str]], key_style: Style, width: int) -> Text:
    """Names in a column `width` cells wide, each followed by its description."""
    text = Text()
    for key, description in rows:
        text.append(key.ljust(width), style=key_style)
        text.append(f"{description}\n")
    text.rstrip()
    return text


def keys_text(groups: Sequence[tuple[str, Sequence[Row]]], key: Style, heading: Style) -> Text:
    """Each group's heading (with what its pane shows), then its keys, in one aligned column."""
    width = max((len(row.keys) for _, rows in groups for row in rows), default=0) + 2
    text = Text()
    for title, rows in groups:
        if text:
            text.append("\n\n")
        text.append(title, style=heading)
        if title in PANES:
            text.append(f"  {PANES[title]}")
        text.append("\n")
        text.append_text(columns_text([(row.keys, row.description) for row in rows], key, width))
    return text


class HelpScreen(OutsideClickModal[None]):
    """Keys by pane, then symbols; scrolls with the arrows, j/k, PgUp/PgDn, Home/End, g/G."""

    AUTO_FOCUS = "#help-dialog"  # focused: the arrows and End scroll it at once
    BINDINGS = [Binding("escape,q,question_mark", "dismiss", "Close")]
    COMPONENT_CLASSES = {"help-screen--key", "help-screen--heading"}

    def __init__(self, groups: Sequence[tuple[str, Sequence[Row]]]) -> None:
        super().__init__()
        self.groups = groups

    def compose(self) -> ComposeResult:
        with Vertical(id="help-box"):
            yield Static(CLOSE, id="help-close", markup=False)
            with KeyScroll(id="help-dialog"):
                yield Static(INTRO, id="help-intro", markup=False)
                yield Static(id="help-keys", classes="help-section")
                yield Static(id="help-symbols", classes="help-section")

    def on_mount(self) -> None:
        key = part_style(self, "help-screen--key")
        heading = part_style(self, "help-screen--heading")
        self.query_one("#help-keys", Static).update(keys_text(self.groups, key, heading))
        symbols = Text("Symbols\n", style=heading)
        width = max(len(name) for name, _ in SYMBOLS) + 2
        symbols.append_text(columns_text(SYMBOLS, key, width))
        self.query_one("#help-symbols", Static).update(symbols)
