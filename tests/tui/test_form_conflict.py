"""The edit form against a record changed elsewhere while it was open (issue 29, item 1)."""

from __future__ import annotations

from pathlib import Path

from sessiontui.project_memory.records import Record
from sessiontui.project_memory.store import Store
from sessiontui.tui.app import SessionApp
from sessiontui.tui.screens.record_form import RecordForm
from tests.tui.app_fakes import HOST, TWO_GPUS, SequenceCollector, text_of, until, until_form


async def test_a_save_over_a_change_made_elsewhere_is_refused_and_ctrl_r_reloads(
    tmp_path: Path,
) -> None:
    path = tmp_path / "memory.db"
    with Store(path) as store:
        note = store.add(Record(kind="note", text="first draft", tags=["plan"]))
    app = SessionApp(tmp_path, store_path=path, gpu_collector=SequenceCollector(TWO_GPUS),
                     host_collector=SequenceCollector(HOST), refresh_s=0.05)
    async with app.run_test(size=(100, 30)) as pilot:
        app._edit(note)
        form = await until_form(pilot)
        form.query_one("#field-text").value = "typed in the form"
        with Store(path) as store:  # the CLI, sync or another window edits it meanwhile
            store.edit(note.id, {"tags": ["plan", "cli"]})
        await pilot.press("ctrl+s")
        error = form.query_one("#form-error")
        await until(pilot, lambda: "changed since the form opened" in text_of(error))
        assert app.screen is form
        with Store(path) as store:
            assert store.get(note.id).tags == ["plan", "cli"]  # not reverted by the form
        await pilot.press("ctrl+r")
        await until(pilot, lambda: form.query_one("#field-tags").value == "plan, cli")
        assert form.query_one("#field-text").value == "first draft"
        form.query_one("#field-text").value = "second draft"
        await pilot.press("ctrl+s")
        await until(pilot, lambda: not isinstance(app.screen, RecordForm))
    with Store(path) as store:
        stored = store.get(note.id)
    assert (stored.text, stored.tags, stored.revision) == ("second draft", ["plan", "cli"], 2)
