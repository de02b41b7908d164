"""SVG snapshots of the main screen at 80x24 (tabs) and 160x48 (grid), from fixed inputs.

Collectors are injected and sampled once (refresh far beyond the test), the memory holds
records with fixed ids and dates, so every run draws the same screen.
Regenerate after an intended change: `pytest tests/tui/test_snapshots.py --snapshot-update`.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sessiontui.project_memory.records import Record
from sessiontui.project_memory.store import Store
from sessiontui.tui.app import SessionApp
from tests.tui.app_fakes import (
    HOST,
    TWO_GPUS,
    SequenceCollector,
    followers,
    specforge_run,
    text_of,
    until,
)

ONCE = 3600.0  # one sample per collector during a test


@pytest.fixture
def app(tmp_path: Path) -> SessionApp:
    with Store(tmp_path / "memory.db") as store:
        for record in (
            Record(kind="benchmark", id="b-0000000001", config="sglang tp1 c1", value=50.0,
                   baseline=True, created_at="2026-11-02T10:00:00+00:00"),
            Record(kind="benchmark", id="b-0000000002", config="eagle3 steps3 topk1",
                   value=75.0, accept_length=2.4, created_at="2026-11-03T10:00:00+00:00"),
            Record(kind="lesson", id="l-0000000003", title="triton smem OutOfResources",
                   fix="num_stages=2", created_at="2026-11-04T10:00:00+00:00"),
            Record(kind="note", id="n-0000000004", text="[bold red]packing[/] was off",
                   created_at="2026-11-05T10:00:00+00:00"),
        ):
            store.add(record)
    log = tmp_path / "train.log"
    return SessionApp(
        tmp_path, store_path=tmp_path / "memory.db", gpu_collector=SequenceCollector(TWO_GPUS),
        host_collector=SequenceCollector(HOST), log_paths=[log], refresh_s=ONCE,
        follower_factory=followers(**{"train.log": [specforge_run(str(log), 4200)]}),
    )


async def settled(pilot) -> None:
    """Wait until every pane has drawn its first data."""
    app = pilot.app
    await until(pilot, lambda: app.gpu_pane.snapshot and app.gpu_pane.host
                and app.memory_pane.table.row_count == 4 and app.training_pane.cards
                and "step 4200" in text_of(next(iter(app.training_pane.cards.values()))))
    await pilot.pause()


def test_main_screen_80x24(app: SessionApp, snap_compare) -> None:
    assert snap_compare(app, terminal_size=(80, 24), run_before=settled)


def test_main_screen_160x48(app: SessionApp, snap_compare) -> None:
    assert snap_compare(app, terminal_size=(160, 48), run_before=settled)


def test_memory_tab_80x24(app: SessionApp, snap_compare) -> None:
    assert snap_compare(app, terminal_size=(80, 24), run_before=settled, press=["3"])
