"""Marking runs in the Memory pane (space) and comparing them (c), Esc clearing the marks, and
`w` opening the sweep a result belongs to."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sessiontui.project_memory.records import Record
from sessiontui.project_memory.store import Store
from sessiontui.tui.app import SessionApp
from sessiontui.tui.screens.comparison_view import RunCompareView, SweepView
from sessiontui.tui.screens.help import key_groups
from sessiontui.tui.widgets.memory_pane import MARK
from tests.tui.app_fakes import HOST, NO_NVML, SequenceCollector, text_of, until
from tests.tui.test_comparison_views import drawn, records

THIRD = Record(kind="run", id="r-run0000003", name="drafter v3", log_path="/data/v3/train.log",
               status="running", step=2000, loss=3.5, accept_length=2.9,
               milestones=[{"kind": "progress", "pct": 25 * i, "step": 1000 * i,
                            "loss": 4.0 - i / 4, "accept_length": 2.0 + i / 2} for i in (1, 2)],
               created_at="2026-11-07T10:00:00+00:00")


@pytest.fixture
def app(tmp_path: Path) -> SessionApp:
    with Store(tmp_path / "memory.db") as store:
        for record in [*records(), THIRD]:
            store.add(record)
    return SessionApp(tmp_path, store_path=tmp_path / "memory.db",
                      gpu_collector=SequenceCollector(NO_NVML), host_collector=SequenceCollector(HOST),
                      refresh_s=3600.0)


async def memory_tab(pilot: Any) -> None:
    await pilot.press("3")
    await until(pilot, lambda: pilot.app.memory_pane.table.row_count == len(records()) + 1)


def first_cell(app: SessionApp, key: str) -> str:
    return app.memory_pane.table.get_row(key)[0].plain


async def cursor_to(pilot: Any, wanted: str) -> None:
    """Move the cursor down (with the arrow key) to the first row whose id starts with `wanted`."""
    pane = pilot.app.memory_pane
    await pilot.press("home")
    for _ in range(pane.table.row_count):
        if pane.selected().id.startswith(wanted):
            return
        await pilot.press("down")
    raise AssertionError(f"no row {wanted}")


async def test_space_marks_runs_c_compares_all_three_and_esc_clears(app: SessionApp) -> None:
    async with app.run_test(size=(120, 40)) as pilot:
        await memory_tab(pilot)
        pane = app.memory_pane
        await pilot.press("end")  # the runs come last, the oldest at the end
        await pilot.press("space", "up", "space", "up", "space")
        assert pane.marked == ["r-run0000001", "r-run0000002", "r-run0000003"]
        await until(pilot, lambda: first_cell(app, "r-run0000003").startswith(MARK))
        await pilot.press("space")  # unmarks the row under the cursor
        assert MARK not in first_cell(app, "r-run0000003")
        await pilot.press("space", "c")
        body = await drawn(pilot, RunCompareView)
        assert app.screen.view_title.count(" vs ") == 2
        assert all(f"drafter v{n}" in body for n in (1, 2, 3))  # the runs' own names
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, RunCompareView))
        await pilot.press("escape")  # no filter to clear: Esc clears the marks
        assert pane.marked == []
        assert all(MARK not in first_cell(app, f"r-run000000{n}") for n in (1, 2, 3))


async def test_with_one_mark_c_compares_the_cursor_run_with_the_newest_other(
        app: SessionApp) -> None:
    async with app.run_test(size=(120, 40)) as pilot:
        await memory_tab(pilot)
        await pilot.press("end", "space", "c")  # one mark: the fallback pair
        await drawn(pilot, RunCompareView)
        assert [run.id for run in app.screen.comparison.runs] == ["r-run0000001", "r-run0000003"]


async def test_only_runs_and_benchmarks_are_marked(tmp_path: Path) -> None:
    with Store(tmp_path / "memory.db") as store:
        store.add(Record(kind="lesson", title="check the drafter's vocab"))
    app = SessionApp(tmp_path, store_path=tmp_path / "memory.db",
                     gpu_collector=SequenceCollector(NO_NVML),
                     host_collector=SequenceCollector(HOST), refresh_s=3600.0)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("3")
        await until(pilot, lambda: app.memory_pane.table.row_count == 1)
        await pilot.press("space")
        assert app.memory_pane.marked == []
        assert any("Only runs and benchmarks" in str(n.message) for n in app._notifications)


async def test_w_opens_the_sweep_of_the_result_under_the_cursor(app: SessionApp) -> None:
    async with app.run_test(size=(120, 40)) as pilot:
        await memory_tab(pilot)
        assert "c Compare" in text_of(app.query_one("#keys"))
        memory = dict(key_groups(app))["Memory"]
        assert ("w", "Open the result's sweep") in [(row.keys, row.description) for row in memory]
        await cursor_to(pilot, "b-base")  # a baseline is no sweep's result: w says so
        await pilot.press("w")
        assert not isinstance(app.screen, SweepView)
        assert any("not part of a sweep" in str(n.message) for n in app._notifications)
        await cursor_to(pilot, "b-feat")
        await pilot.press("w")
        body = await drawn(pilot, SweepView)
        assert "faster up to c=8 (1.60x at c=1), slower from c=16 (0.93x)" in body
