"""Pilot tests of the memory pane: number to beat, ratios, filter, add/edit/delete via forms."""

from __future__ import annotations

from pathlib import Path

import pytest

from sessiontui.project_memory.records import Record
from sessiontui.project_memory.store import Store, StoreError
from sessiontui.tui.app import SessionApp
from sessiontui.tui.screens.record_form import RecordForm
from sessiontui.tui.widgets.memory_pane import COLUMNS
from tests.tui.app_fakes import HOST, TWO_GPUS, SequenceCollector, text_of, until

WHAT, VS = COLUMNS.index("what"), COLUMNS.index("vs beat")


@pytest.fixture
def seeded(tmp_path: Path) -> Path:
    """A memory with two baselines, a speculative benchmark, a lesson and a note."""
    path = tmp_path / "memory.db"
    with Store(path) as store:
        store.add(Record(kind="benchmark", config="sglang tp1 c1 old", value=45.0, baseline=True,
                         created_at="2026-11-01T10:00:00+00:00"))
        store.add(Record(kind="benchmark", config="sglang tp1 c1", value=50.0, baseline=True,
                         created_at="2026-11-02T10:00:00+00:00"))
        store.add(Record(kind="benchmark", config="eagle3 steps3 topk1", value=75.0,
                         accept_length=2.4, created_at="2026-11-03T10:00:00+00:00"))
        store.add(Record(kind="lesson", title="triton smem OutOfResources",
                         fix="num_stages=2", created_at="2026-11-04T10:00:00+00:00"))
        store.add(Record(kind="note", text="[bold red]packing[/] is off \x1b[31m",
                         created_at="2026-11-05T10:00:00+00:00"))
    return path


def make_app(tmp_path: Path, store_path: Path) -> SessionApp:
    return SessionApp(tmp_path, store_path=store_path, gpu_collector=SequenceCollector(TWO_GPUS),
                      host_collector=SequenceCollector(HOST), refresh_s=0.05)


def rows(app: SessionApp) -> list[list[str]]:
    table = app.memory_pane.table
    return [[cell.plain for cell in table.get_row_at(i)] for i in range(table.row_count)]


async def test_number_to_beat_first_and_ratios(tmp_path: Path, seeded: Path) -> None:
    app = make_app(tmp_path, seeded)
    async with app.run_test(size=(160, 48)) as pilot:
        await until(pilot, lambda: app.memory_pane.table.row_count == 5)
        shown = rows(app)
        assert shown[0][0] == "★" and shown[0][WHAT] == "sglang tp1 c1" and shown[0][VS] == "1.00x"
        assert shown[1][0] == "b" and shown[1][VS] == "0.90x"
        assert shown[2][WHAT] == "eagle3 steps3 topk1" and shown[2][VS] == "1.50x"
        assert shown[3][WHAT] == "triton smem OutOfResources — fix: num_stages=2"
        assert shown[4][WHAT] == "[bold red]packing[/] is off \\x1b[31m"  # literal, not styled


async def test_filter_narrows_the_list(tmp_path: Path, seeded: Path) -> None:
    app = make_app(tmp_path, seeded)
    async with app.run_test(size=(160, 48)) as pilot:
        await until(pilot, lambda: app.memory_pane.table.row_count == 5)
        app.memory_pane.filter.value = "eagle3"
        await pilot.pause()
        assert [row[WHAT] for row in rows(app)] == ["eagle3 steps3 topk1"]
        app.memory_pane.filter.value = "sglang c1"
        await pilot.pause()
        assert len(rows(app)) == 2


async def test_add_a_benchmark_from_the_form(tmp_path: Path, seeded: Path) -> None:
    app = make_app(tmp_path, seeded)
    async with app.run_test(size=(160, 48)) as pilot:
        await until(pilot, lambda: app.memory_pane.table.row_count == 5)
        await pilot.press("b")
        await until(pilot, lambda: isinstance(app.screen, RecordForm))
        form = app.screen
        form.query_one("#field-config").value = "eagle3 steps5 topk4"
        form.query_one("#field-value").value = "fast"
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, RecordForm)
        assert "value: 'fast' is not a number" in text_of(form.query_one("#form-error"))
        form.query_one("#field-value").value = "82.5"
        await pilot.press("ctrl+s")
        await until(pilot, lambda: app.memory_pane.table.row_count == 6)
        assert any(row[WHAT] == "eagle3 steps5 topk4" and row[VS] == "1.65x" for row in rows(app))
    with Store(seeded) as store:
        added = store.search("steps5")[0]
    assert added.value == 82.5 and added.metric == "output_tok_s" and added.host


async def test_edit_then_delete_and_undo(tmp_path: Path, seeded: Path) -> None:
    app = make_app(tmp_path, seeded)
    async with app.run_test(size=(160, 48)) as pilot:
        await until(pilot, lambda: app.memory_pane.table.row_count == 5)
        table = app.memory_pane.table
        table.focus()
        table.move_cursor(row=3)
        await pilot.press("e")
        await until(pilot, lambda: isinstance(app.screen, RecordForm))
        assert app.screen.query_one("#field-fix").value == "num_stages=2"
        app.screen.query_one("#field-fix").value = "num_stages=1"
        await pilot.press("ctrl+s")
        await until(pilot, lambda: "fix: num_stages=1" in rows(app)[3][WHAT])
        lesson_id = app.memory_pane.selected().id
        await pilot.press("d")
        await until(pilot, lambda: app.memory_pane.table.row_count == 4)
        with Store(seeded) as store, pytest.raises(StoreError):
            store.get(lesson_id)
        await pilot.press("u")
        await until(pilot, lambda: app.memory_pane.table.row_count == 5)
    with Store(seeded) as store:
        assert store.get(lesson_id).fix == "num_stages=1"


def test_failed_attempts_read_failed_not_blank() -> None:
    from sessiontui.project_memory.records import Record
    from sessiontui.tui.widgets.memory_pane import value_text

    failed = Record(kind="benchmark", config="crashed bench", status="failed", value=None)
    measured = Record(kind="benchmark", config="ok", status="ok", value=212.4)
    assert value_text(failed) == "failed"
    assert value_text(measured) == "212.4 tok/s"
