"""The CLI's command table: which module owns which command, imported only when it is used.

Each module exposes `register(subparsers)`; add a line here when you add a command module.
"""

from __future__ import annotations

import importlib
from types import ModuleType

COMMANDS: dict[str, tuple[str, ...]] = {
    "sessiontui.tui.commands.memory": (
        "lesson", "note", "list", "show", "edit", "rm", "restore", "export", "import",
    ),
    "sessiontui.tui.commands.bench": ("bench",),
    "sessiontui.tui.commands.ask": ("ask",),
    "sessiontui.tui.commands.speedup": ("speedup",),
    "sessiontui.tui.commands.gpu": ("gpu",),
    "sessiontui.tui.commands.demo": ("demo",),
    "sessiontui.tui.commands.record": ("record",),
    "sessiontui.tui.commands.train": ("train",),
    "sessiontui.tui.commands.formats": ("formats",),
    "sessiontui.tui.commands.watch": ("watch",),
    "sessiontui.tui.commands.serve": ("serve",),
    "sessiontui.tui.commands.salvage": ("salvage",),
    "sessiontui.tui.commands.target": ("target",),
    "sessiontui.tui.commands.mcp": ("mcp",),
    "sessiontui.tui.commands.sync": ("sync",),
    "sessiontui.tui.commands.compare": ("report", "compare", "sweeps"),
    "sessiontui.tui.commands.completion": ("completion",),
    "sessiontui.tui.commands.settings": ("config",),
}


def modules_for(command: str | None) -> list[ModuleType]:
    """The module owning `command`, or every module when it is unknown (help, typos)."""
    owners = [name for name, names in COMMANDS.items() if command in names] or list(COMMANDS)
    return [importlib.import_module(name) for name in owners]
