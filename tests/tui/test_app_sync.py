"""The memory pane says when the memory changed since the last `sessiontui sync`."""

from __future__ import annotations

from pathlib import Path

from sessiontui.project_memory.records import Record
from sessiontui.project_memory.store import Store
from sessiontui.project_memory.sync import SYNC_FILE
from sessiontui.tui.app import SessionApp
from sessiontui.tui.commands.sync import merge_file
from tests.tui.app_fakes import HOST, TWO_GPUS, SequenceCollector, until


async def test_unsynced_changes_show_on_the_memory_pane_until_synced(tmp_path: Path) -> None:
    path = tmp_path / "memory" / "memory.db"
    with Store(path) as store:
        store.add(Record(kind="note", text="shared already"))
        merge_file(store, tmp_path / SYNC_FILE)
    app = SessionApp(tmp_path, store_path=path, gpu_collector=SequenceCollector(TWO_GPUS),
                     host_collector=SequenceCollector(HOST), refresh_s=0.05)
    async with app.run_test(size=(160, 48)) as pilot:
        pane = app.memory_pane
        await until(pilot, lambda: pane.table.row_count == 1)
        assert not pane.border_subtitle
        with Store(path) as store:  # another process (the CLI, an agent) adds a note
            store.add(Record(kind="note", text="not shared yet"))
        app._load_memory()  # what the app's periodic re-read does, without waiting for it
        await until(pilot, lambda: pane.table.row_count == 2)
        assert "unsynced" in str(pane.border_subtitle)
        with Store(path) as store:
            merge_file(store, tmp_path / SYNC_FILE)
        app._load_memory()
        await until(pilot, lambda: not pane.border_subtitle)


async def test_no_indicator_in_a_project_that_does_not_sync(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    with Store(path) as store:
        store.add(Record(kind="note", text="solo"))
    app = SessionApp(tmp_path, store_path=path, gpu_collector=SequenceCollector(TWO_GPUS),
                     host_collector=SequenceCollector(HOST), refresh_s=0.05)
    async with app.run_test(size=(160, 48)) as pilot:
        await until(pilot, lambda: app.memory_pane.table.row_count == 1)
        assert not app.memory_pane.border_subtitle
