"""Issue 16 in the app: the forms keep to the record rules, a failed save loses nothing typed,
and notifications speak of what failed, not of internal names."""

from __future__ import annotations

from pathlib import Path

import pytest

from sessiontui.project_memory.records import Record
from sessiontui.project_memory.store import Store
from sessiontui.tui.app import SessionApp
from sessiontui.tui.screens.record_form import RecordForm
from tests.project_memory.test_store_reliability import damaged_memory
from tests.tui.app_fakes import HOST, TWO_GPUS, SequenceCollector, text_of, until, until_form


def make_app(tmp_path: Path, store_path: Path) -> SessionApp:
    return SessionApp(tmp_path, store_path=store_path, gpu_collector=SequenceCollector(TWO_GPUS),
                      host_collector=SequenceCollector(HOST), refresh_s=0.05)


@pytest.mark.parametrize(
    ("field", "typed"),
    [("value", "-5"), ("concurrency", "-1"), ("accept_length", "-2"), ("config", " ")],
)
async def test_the_benchmark_form_refuses_implausible_values(
    tmp_path: Path, field: str, typed: str
) -> None:
    path = tmp_path / "memory.db"
    app = make_app(tmp_path, path)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.press("b")
        await until_form(pilot)
        form = app.screen
        form.query_one("#field-config").value = "eagle3"
        form.query_one("#field-value").value = "80"
        form.query_one(f"#field-{field}").value = typed
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, RecordForm)
        assert field in text_of(form.query_one("#form-error"))
        assert form.query_one(f"#field-{field}").has_class("-invalid")
    with Store(path) as store:
        assert store.count() == 0


async def test_a_failed_save_reopens_the_form_with_what_was_typed(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    damaged_memory(path, count=500, pages=range(20, 23))
    before = path.read_bytes()
    app = make_app(tmp_path, path)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.press("n")
        await until_form(pilot)
        app.screen.query_one("#field-text").value = "a long thought worth keeping"
        await pilot.press("ctrl+s")
        await until(pilot, lambda: isinstance(app.screen, RecordForm)
                    and "Not saved" in text_of(app.screen.query_one("#form-error")))
        form = app.screen
        assert form.query_one("#field-text").value == "a long thought worth keeping"
        assert "damaged" in text_of(form.query_one("#form-error"))
        assert not form.record.id  # still a new note: saving again adds, not updates
    assert path.read_bytes() == before


async def test_a_failing_background_read_is_said_in_words(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    path.write_bytes(b"\x00garbage" * 1000)
    app = make_app(tmp_path, path)
    async with app.run_test(size=(160, 48)) as pilot:
        await until(pilot, lambda: any("Reading the memory failed" in n.message
                                       for n in app._notifications))
        messages = [n.message for n in app._notifications]
    text = " ".join(messages)
    assert "Reading the memory failed" in text and "damaged" in text
    assert "_load_memory" not in text and "StoreError" not in text


async def test_reads_that_replace_a_failing_read_still_say_its_failure(tmp_path: Path) -> None:
    """A newer read cancels the worker of the one in progress (exclusive), and a cancelled
    worker's error is never reported: the newest read meets the failure again and says it."""
    path = tmp_path / "memory.db"
    path.write_bytes(b"\x00garbage" * 1000)
    app = make_app(tmp_path, path)

    def failures() -> int:
        return sum("Reading the memory failed" in n.message for n in app._notifications)

    async with app.run_test(size=(160, 48)) as pilot:
        await until(pilot, lambda: failures() == 1)  # the start-up read
        app.clear_notifications()
        with app.memory._reading:  # a read in progress: the three below wait behind it
            for _ in range(3):
                app._load_memory()
            await pilot.pause()
            # the two older were cancelled (and dropped): their threads still run, and fail
            assert len([w for w in app.workers if w.group == "memory-read"]) == 1
        await until(pilot, lambda: failures() >= 1)


async def test_a_row_the_app_did_not_expect_is_listed_not_fatal(tmp_path: Path) -> None:
    import json

    path = tmp_path / "memory.db"
    with Store(path) as store:
        bad = store.add(Record(kind="benchmark", config="poisoned", value=50.0, baseline=True))
        store.add(Record(kind="benchmark", config="fine", value=40.0, baseline=True))
        body = json.dumps({**bad.to_dict(), "value": "abc"})
        store._db.execute("UPDATE records SET body = ? WHERE id = ?", (body, bad.id))
    app = make_app(tmp_path, path)
    async with app.run_test(size=(160, 48)) as pilot:
        await until(pilot, lambda: app.memory_pane.table.row_count == 2)
        assert not [n for n in app._notifications if n.severity == "error"]
