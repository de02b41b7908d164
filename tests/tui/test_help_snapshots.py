"""SVG snapshots of the help screen at 80x24 (the narrowest layout) and 160x48 (the grid).

Regenerate after an intended change: `pytest tests/tui/test_help_snapshots.py --snapshot-update`.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sessiontui.tui.app import SessionApp
from sessiontui.tui.screens.help import HelpScreen
from tests.tui.app_fakes import HOST, NO_NVML, SequenceCollector, until

ONCE = 3600.0  # one sample per collector during a test


@pytest.fixture
def app(tmp_path: Path) -> SessionApp:
    return SessionApp(tmp_path, store_path=tmp_path / "memory.db",
                      gpu_collector=SequenceCollector(NO_NVML),
                      host_collector=SequenceCollector(HOST), refresh_s=ONCE)


async def help_open(pilot) -> None:
    """Help over panes that have drawn their first samples (the panes behind it raced them)."""
    app = pilot.app
    await until(pilot, lambda: app.gpu_pane.snapshot and app.gpu_pane.host
                and app.memory_pane.empty.display and app.memory.counts)
    await pilot.press("question_mark")
    await until(pilot, lambda: isinstance(pilot.app.screen, HelpScreen))
    await pilot.pause()


@pytest.mark.parametrize("size", [(80, 24), (160, 48)], ids=lambda size: f"{size[0]}x{size[1]}")
def test_help(app: SessionApp, snap_compare, size: tuple[int, int]) -> None:
    assert snap_compare(app, terminal_size=size, run_before=help_open)
