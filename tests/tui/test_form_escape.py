"""Esc on the record form is a priority binding, like the ask bar's and the filter's: a key typed
right after it goes to the app, not into the field of the form it closed; and Help lists the
Training pane's own keys under Training."""

from __future__ import annotations

from pathlib import Path

from sessiontui.tui.app import SessionApp
from sessiontui.tui.screens.help import key_groups
from sessiontui.tui.screens.record_form import RecordForm
from sessiontui.tui.widgets.training_pane import TrainingPane
from tests.tui.app_fakes import HOST, NO_NVML, SequenceCollector, until, until_form
from tests.tui.test_keys import burst, typed


def make_app(tmp_path: Path) -> SessionApp:
    return SessionApp(tmp_path, store_path=tmp_path / "memory.db",
                      gpu_collector=SequenceCollector(NO_NVML),
                      host_collector=SequenceCollector(HOST), refresh_s=3600.0)


async def test_escape_then_b_on_a_note_form_opens_a_benchmark_form(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        note = await until_form(pilot)
        field = app.focused
        burst(app, *typed("\x1bb"))
        await until(pilot, lambda: isinstance(app.screen, RecordForm) and app.screen is not note
                    and bool(app.screen.query("Input")))
        assert app.screen.record.kind == "benchmark"
        assert field.value == ""  # the "b" did not go into the closed form's field


async def test_help_lists_the_training_pane_keys_under_training(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)):
        training = dict(key_groups(app))["Training"]
        actions = {row.action for row in training}
        for binding in TrainingPane.BINDINGS:
            assert binding.action in actions, binding  # type: ignore[union-attr]
        assert any(row.description == "Open run" and "⏎" in row.keys or "enter" in row.keys
                   for row in training)
