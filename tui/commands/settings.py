"""`sessiontui config show`: the settings in effect, and which file each comes from.

The project's sessiontui.toml is merged over the user-level config.toml (platformdirs:
~/.config/sessiontui/config.toml on Linux), which is merged over the defaults.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import asdict
from typing import Any

from sessiontui.tui.commands.common import add_command, add_json_options, print_json


def _plain(value: Any) -> Any:
    """A setting as JSON and TOML hold it ([[hosts]] as tables)."""
    if isinstance(value, list):
        return [asdict(item) if hasattr(item, "__dataclass_fields__") else item for item in value]
    return value


def cmd_config_show(args: argparse.Namespace) -> int:
    from sessiontui.project_memory.paths import project_root
    from sessiontui.tui.config import SETTINGS, config_path, load_config, user_config_path

    project, user = config_path(project_root()), user_config_path()
    config = load_config(project, user)
    for problem in config.problems:
        print(f"sessiontui: {problem}", file=sys.stderr)
    settings = {s.name: _plain(getattr(config, s.name)) for s in SETTINGS}
    sources = {name: config.sources.get(name, "default") for name in settings}
    if args.json:
        print_json({"settings": settings, "sources": sources, "user_file": str(user),
                    "project_file": str(project)})
        return 0
    import tomli_w

    print(f"# defaults < {user}{'' if user.exists() else ' (none)'} < {project}"
          f"{'' if project.exists() else ' (none)'}")
    for name, value in settings.items():
        if value is None or name == "hosts":
            continue
        print(f"{tomli_w.dumps({name: value}).strip():<44} # {sources[name]}")
    for host in settings["hosts"]:
        print(f"\n[[hosts]]  # {sources['hosts']}\n{tomli_w.dumps(host).strip()}")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    """Add `config show`."""
    config = add_command(sub, "config", "the settings in effect (user-level and project files)",
                         "sessiontui config show").add_subparsers(dest="action", required=True)
    p = add_command(config, "show", "print every setting in effect and the file it comes from",
                    "sessiontui config show", "sessiontui config show --json | jq .sources")
    add_json_options(p, records=False)
    p.set_defaults(func=cmd_config_show)
