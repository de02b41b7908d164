"""The sweep view and the run comparison in the app: opened from the palette's actions, drawn
with a marker per series, saved as SVG with `s`, closed with Esc; snapshots at 80x24 and 160x48."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from sessiontui.project_memory.records import Record
from sessiontui.project_memory.store import Store
from sessiontui.tui.app import SessionApp
from sessiontui.tui.screens.comparison_view import RunCompareView, SweepView
from tests.tui.app_fakes import HOST, NO_NVML, SequenceCollector, text_of, until
from tests.tui.test_snapshots import fixed_clock  # noqa: F401  (autouse: dates as of a fixed day)

SIZES = [(80, 24), (160, 48)]
BASELINE = {1: 100.0, 2: 180.0, 4: 300.0, 8: 500.0, 16: 800.0}
FEATURE = {1: 160.0, 2: 250.0, 4: 360.0, 8: 520.0, 16: 744.0}


def records() -> list[Record]:
    made = [Record(kind="benchmark", id=f"b-base{c:04d}", config=f"sglang no-spec c={c}",
                   value=v, baseline=True, concurrency=c, engine="sglang",
                   created_at="2026-11-02T10:00:00+00:00") for c, v in BASELINE.items()]
    made += [Record(kind="benchmark", id=f"b-feat{c:04d}", config=f"sglang eagle3 c={c}",
                    value=v, concurrency=c, engine="sglang", created_at="2026-11-03T10:00:00+00:00")
             for c, v in FEATURE.items()]
    for number, taus in enumerate(([1.8, 2.1, 2.43, 2.5], [1.9, 2.3, 2.72]), 1):
        milestones = [{"kind": "progress", "pct": 25 * i, "step": 1000 * i,
                       "loss": 4.0 - i / (2 + number), "accept_length": tau}
                      for i, tau in enumerate(taus, 1)]
        made.append(Record(kind="run", id=f"r-run{number:07d}", name=f"drafter v{number}",
                           log_path=f"/data/v{number}/train.log", status="finished",
                           step=1000 * len(taus), loss=milestones[-1]["loss"],
                           accept_length=taus[-1], milestones=milestones,
                           created_at=f"2026-11-0{3 + number}T10:00:00+00:00"))
    return made


@pytest.fixture
def app(tmp_path: Path) -> SessionApp:
    with Store(tmp_path / "memory.db") as store:
        for record in records():
            store.add(record)
    return SessionApp(tmp_path, store_path=tmp_path / "memory.db",
                      gpu_collector=SequenceCollector(NO_NVML), host_collector=SequenceCollector(HOST),
                      refresh_s=3600.0)


async def loaded(pilot) -> None:
    await until(pilot, lambda: len(pilot.app.memory_pane.records) == len(records()))


async def drawn(pilot, view: type) -> str:
    """The view's text once it is pushed, mounted and drawn at its width."""
    app = pilot.app
    await until(pilot, lambda: isinstance(app.screen, view) and app.screen.query("#comparison-body")
                and text_of(app.screen.query_one("#comparison-body")).strip())
    return text_of(app.screen.query_one("#comparison-body"))


async def test_the_sweep_view_states_the_crossover_and_saves_its_chart(app: SessionApp,
                                                                       tmp_path: Path) -> None:
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot)
        app.action_compare("sweep")
        body = await drawn(pilot, SweepView)
        assert "faster up to c=8 (1.60x at c=1), slower from c=16 (0.93x)" in body
        assert "● sglang eagle3" in body and "× number to beat" in body  # a marker per series
        assert "(log scale)" in body and " 16 " in body + " "
        await pilot.press("s")
        saved = tmp_path / "charts" / "sweep-1.svg"
        await until(pilot, saved.exists)
        ET.parse(saved)
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, SweepView))


async def test_two_runs_are_compared_at_equal_steps(app: SessionApp) -> None:
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot)
        app.action_compare("runs")
        body = await drawn(pilot, RunCompareView)
        assert "at step 3,000: τ 2.72 vs 2.43" in body
        assert "drafter v2" in body and "drafter v1" in body  # the runs' own names


async def test_without_a_sweep_the_app_says_how_to_record_one(tmp_path: Path) -> None:
    app = SessionApp(tmp_path, store_path=tmp_path / "memory.db",
                     gpu_collector=SequenceCollector(NO_NVML), host_collector=SequenceCollector(HOST),
                     refresh_s=3600.0)
    async with app.run_test(size=(100, 30)) as pilot:
        app.action_compare("sweep")
        await pilot.pause()
        assert not isinstance(app.screen, SweepView)
        assert any("record --sweep" in str(n.message) for n in app._notifications)


def open_view(what: str):
    async def run_before(pilot) -> None:
        await loaded(pilot)
        pilot.app.action_compare(what)
        await drawn(pilot, SweepView if what == "sweep" else RunCompareView)
        await pilot.pause()
    return run_before


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
@pytest.mark.parametrize("what", ["sweep", "runs"])
def test_comparison_snapshots(app: SessionApp, snap_compare, what: str, size) -> None:
    assert snap_compare(app, terminal_size=size, run_before=open_view(what))
