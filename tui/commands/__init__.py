"""The CLI's command table: which module owns which command, imported only when it is used.

Each module exposes `register(subparsers)`; add a line here when you add a command module.
"""

from __future__ import annotations

import importlib
from types import ModuleType

COMMANDS: dict[str, tuple[str, ...]] = {
    "tui.commands.memory": (
        "bench", "lesson", "note", "list", "show", "edit", "rm", "restore", "export", "import", "ask",
    ),
    "tui.commands.speedup": ("speedup",),
    "tui.commands.gpu": ("gpu",),
    "tui.commands.demo": ("demo",),
    "tui.commands.record": ("record",),
    "tui.commands.train": ("train",),
    "tui.commands.watch": ("watch",),
}


def modules_for(command: str | None) -> list[ModuleType]:
    """The module owning `command`, or every module when it is unknown (help, typos)."""
    owners = [name for name, names in COMMANDS.items() if command in names] or list(COMMANDS)
    return [importlib.import_module(name) for name in owners]
