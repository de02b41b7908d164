"""The app's record detail view names what a partial benchmark result lacks (issue 24)."""

from __future__ import annotations

from pathlib import Path

from sessiontui.project_memory.records import Record
from sessiontui.project_memory.store import Store
from sessiontui.tui.app import SessionApp
from sessiontui.tui.screens.record_view import RecordView
from tests.tui.app_fakes import HOST, TWO_GPUS, SequenceCollector, text_of, until


async def test_a_partial_result_says_what_it_lacks_in_the_detail_view(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    with Store(path) as store:
        store.add(Record(kind="benchmark", config="sglang c1 pasted", value=681.3,
                         accept_length=3.21, partial=["latency"]))
    app = SessionApp(tmp_path, store_path=path, gpu_collector=SequenceCollector(TWO_GPUS),
                     host_collector=SequenceCollector(HOST), refresh_s=0.05)
    async with app.run_test(size=(200, 48)) as pilot:
        await until(pilot, lambda: app.memory_pane.table.row_count == 1)
        app.memory_pane.table.focus()
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, RecordView))
        rows = text_of(app.screen.query_one("#record-fields")).splitlines()
        assert any(row.replace("•", "").split() == ["partial", "latency"] for row in rows)
