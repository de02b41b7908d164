"""A record's detail at 80x24: every kind scrolls to its last line (and the keys stay on screen);
figures read as a table, a run's traceback as lines and its lesson ids as a list."""

from __future__ import annotations

from pathlib import Path

import pytest

from sessiontui.project_memory.records import Record
from sessiontui.project_memory.store import Store, StoreError
from sessiontui.tui.app import SessionApp
from sessiontui.tui.screens.confirm import ConfirmScreen
from sessiontui.tui.screens.record_view import RecordView, field_text
from tests.tui.app_fakes import HOST, TWO_GPUS, SequenceCollector, text_of, until

TRACEBACK = ["Traceback (most recent call last):", '  File "train.py", line 9, in step',
             "torch.OutOfMemoryError: CUDA out of memory."]
RECORDS = {
    "benchmark": Record(
        kind="benchmark", config="sglang tp1 c1 " + "long config " * 8, value=50.0,
        engine="sglang", model="meta-llama/Llama-3.1-8B-Instruct", command="python -m sglang",
        figures={f"ttft_ms_{p}": 10.0 + i for i, p in enumerate(
            ("mean", "median", "p90", "p99", "std", "min", "max"))} | {
            f"itl_ms_{p}": 2.0 + i for i, p in enumerate(("mean", "median", "p90", "p99"))},
        notes="\n".join(f"note line {i}" for i in range(12)), tags=["a", "b"]),
    "lesson": Record(kind="lesson", title="CUDA OOM at step 66", symptom="\n".join(TRACEBACK * 4),
                     cause="batch too large", fix="halve the micro batch"),
    "note": Record(kind="note", text="\n".join(f"line {i}" for i in range(40))),
    "run": Record(
        kind="run", name="p/train", status="crashed", step=66, total_steps=100,
        log_path="/runs/train.log",
        milestones=[{"kind": "progress", "pct": p, "step": p, "loss": 3 - p / 100}
                    for p in range(5, 70, 5)],
        events=[{"kind": "crashed", "step": 66, "message": "CUDA out of memory",
                 "context": TRACEBACK, "lessons": ["l-532fbf5259"]}]),
}


def make_app(tmp_path: Path) -> SessionApp:
    return SessionApp(tmp_path, store_path=tmp_path / "memory.db", refresh_s=0.05,
                      gpu_collector=SequenceCollector(TWO_GPUS),
                      host_collector=SequenceCollector(HOST))


@pytest.mark.parametrize("kind", sorted(RECORDS))
async def test_every_kind_of_record_scrolls_to_its_last_line_at_80x24(
        tmp_path: Path, kind: str) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(RecordView(RECORDS[kind]))
        await until(pilot, lambda: isinstance(app.screen, RecordView))
        await pilot.pause()
        scroll = app.screen.query_one("#record-scroll")
        assert scroll.max_scroll_y > 0  # the record is longer than the screen
        await pilot.press("end")
        await until(pilot, lambda: scroll.scroll_y == scroll.max_scroll_y)
        region = scroll.region
        keys = app.screen.query_one("#record-keys").region
        assert region.bottom <= 24 and keys.bottom <= 24  # the fields end and the keys are on screen
        # the window over the fields reaches their last line
        assert scroll.scroll_y + scroll.scrollable_content_region.height >= scroll.virtual_size.height
        assert text_of(app.screen.query_one("#record-keys")).startswith("e edit")


def test_figures_read_as_a_table_and_lists_as_lists() -> None:
    assert field_text({"ttft_ms_median": 12.5, "itl_ms_p99": 3.0}).splitlines() == [
        "ttft_ms_median  12.5", "itl_ms_p99      3"]
    assert field_text(["a", "b"]).splitlines() == ["• a", "• b"]
    shown = field_text(RECORDS["run"].events)
    assert "['" not in shown and "lessons:\n    l-532fbf5259" in shown
    assert "\n    Traceback (most recent call last):\n" in shown


async def test_d_in_the_record_view_asks_first_and_u_undoes_the_delete(tmp_path: Path) -> None:
    with Store(tmp_path / "memory.db") as store:
        kept = store.add(Record(kind="note", text="keep me unless I say yes"))
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("3")
        await until(pilot, lambda: app.memory_pane.table.row_count == 1)
        app.memory_pane.table.focus()
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, RecordView))
        await pilot.press("d")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert kept.id in app.screen.question
        await pilot.press("n")  # no: back in the view, nothing deleted
        await until(pilot, lambda: isinstance(app.screen, RecordView))
        with Store(tmp_path / "memory.db") as store:
            assert store.get(kept.id).text == kept.text
        await pilot.press("d")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await until(pilot, lambda: app.memory_pane.table.row_count == 0)
        assert not isinstance(app.screen, RecordView | ConfirmScreen)
        with Store(tmp_path / "memory.db") as store, pytest.raises(StoreError):
            store.get(kept.id)
        await pilot.press("u")
        await until(pilot, lambda: app.memory_pane.table.row_count == 1)
    with Store(tmp_path / "memory.db") as store:
        assert store.get(kept.id).text == kept.text
