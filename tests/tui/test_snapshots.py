"""SVG snapshots of the main screen at 80x24, 100x30, 120x40 (tabs) and 160x48 (grid).

Two projects: a demo-like one (two GPUs, a followed drafter run, a memory of every kind) and an
empty one (nothing remembered, no log, no NVML). Collectors are injected and sampled once
(refresh far beyond the test), the memory holds records with fixed ids and dates, and dates are
shown as of a fixed moment in UTC, so every run draws the same screen.
Regenerate after an intended change: `pytest tests/tui/test_snapshots.py --snapshot-update`,
then look at every changed SVG.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from functools import partial
from pathlib import Path

import pytest

from sessiontui.project_memory.records import Record
from sessiontui.project_memory.store import Store
from sessiontui.tui.app import SessionApp
from sessiontui.tui.widgets import memory_pane
from tests.tui.app_fakes import (
    HOST,
    NO_NVML,
    TWO_GPUS,
    SequenceCollector,
    followers,
    specforge_run,
    text_of,
    until,
)

ONCE = 3600.0  # one sample per collector during a test
SIZES = [(80, 24), (100, 30), (120, 40), (160, 48)]
NOW = datetime(2026, 11, 6, 12, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def fixed_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Dates drawn as of NOW in UTC, whatever the day and zone of the test run."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    monkeypatch.setattr(memory_pane, "date_text", partial(memory_pane.date_text, now=NOW))


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
    log = tmp_path / "drafter" / "train.log"  # the run's name: drafter/train, in every run
    return SessionApp(
        tmp_path, store_path=tmp_path / "memory.db", gpu_collector=SequenceCollector(TWO_GPUS),
        host_collector=SequenceCollector(HOST), log_paths=[log], refresh_s=ONCE,
        follower_factory=followers(**{"train.log": [specforge_run(str(log), 4200)]}),
    )


async def settled(pilot) -> None:
    """Wait until every pane has drawn its first data."""
    app = pilot.app
    await until(pilot, lambda: app.gpu_pane.snapshot and app.gpu_pane.host
                and len(app.memory_pane.records) == 5 and app.training_pane.cards
                and "step 4200" in text_of(next(iter(app.training_pane.cards.values()))))
    await pilot.pause()


@pytest.fixture
def empty(tmp_path: Path) -> SessionApp:
    """A project seen for the first time: no memory, no followed log, no NVML."""
    return SessionApp(
        tmp_path, store_path=tmp_path / "memory.db", gpu_collector=SequenceCollector(NO_NVML),
        host_collector=SequenceCollector(HOST), refresh_s=ONCE,
    )


async def empty_settled(pilot) -> None:
    app = pilot.app
    await until(pilot, lambda: app.gpu_pane.snapshot and app.gpu_pane.host
                and app.memory_pane.empty.display and app.memory.counts)
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_demo_project(app: SessionApp, snap_compare, size: tuple[int, int]) -> None:
    assert snap_compare(app, terminal_size=size, run_before=settled)


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_empty_project(empty: SessionApp, snap_compare, size: tuple[int, int]) -> None:
    assert snap_compare(empty, terminal_size=size, run_before=empty_settled)


async def memory_tab(pilot) -> None:
    await settled(pilot)
    await pilot.press("3")
    pane = pilot.app.memory_pane
    await until(pilot, lambda: pane.table.row_count == 5,
                seen=lambda: (pane.table.row_count, [r.id for r in pane.records], pane.filter.value))
    await pilot.pause()


def test_memory_tab_80x24(app: SessionApp, snap_compare) -> None:
    assert snap_compare(app, terminal_size=(80, 24), run_before=memory_tab)
