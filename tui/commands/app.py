"""The bare `sessiontui` command: open the app for the project in the current directory."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sessiontui.tui.app import SessionApp


def build_app(start: Path) -> SessionApp:
    """The app for the project around `start`, following the logs its sessiontui.toml lists."""
    from sessiontui.project_memory.paths import project_root
    from sessiontui.tui.app import SessionApp
    from sessiontui.tui.config import config_path, load_config

    project = project_root(start)
    path = config_path(project)
    return SessionApp(project, config_path=path, config=load_config(path))


def cmd_app() -> int:
    """Run the app on the project in the current directory until the user quits."""
    from sessiontui.tui.hangup import exit_on_hang_up

    app = build_app(Path.cwd())
    exit_on_hang_up(app.stop_collectors)  # a closed window still saves the runs' progress
    app.run()
    return int(app.return_code or 0)
