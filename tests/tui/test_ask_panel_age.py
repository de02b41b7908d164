"""The Answer pane says when its answer was computed, asks a live answer again on the tick and
greys it when no fresh one comes (issue 26, item 5)."""

from __future__ import annotations

from pathlib import Path

from textual.app import App, ComposeResult

from sessiontui.project_memory.answer import Answer
from sessiontui.tui.widgets.ask_panel import REFRESH_S, AnswerPanel
from tests.tui.app_fakes import text_of, until
from tests.tui.test_app_ask import make_app


class PanelApp(App):
    """The panel alone: nobody answers its requests to refresh, so a live answer goes stale."""

    def __init__(self) -> None:
        super().__init__()
        self.outdated: list[str] = []

    def compose(self) -> ComposeResult:
        yield AnswerPanel(id="answer")

    def on_answer_panel_outdated(self, message: AnswerPanel.Outdated) -> None:
        self.outdated.append(message.question)


async def test_a_live_answer_is_asked_again_then_greyed_without_a_fresh_one() -> None:
    app = PanelApp()
    async with app.run_test() as pilot:
        panel = app.query_one(AnswerPanel)
        panel.show("gpu util?", Answer("gpu", "4 GPU(s): mean util 97%"), now=1000.0)
        assert "computed " in text_of(panel._text) and "(live: refreshed every" in text_of(panel._text)
        panel.tick(now=1000.0 + REFRESH_S)
        await until(pilot, lambda: app.outdated == ["gpu util?"])
        assert not panel.stale
        panel.tick(now=1000.0 + 2 * REFRESH_S)
        assert panel.stale and "out of date: its source moved on" in text_of(panel._text)
        panel.show("gpu util?", Answer("gpu", "4 GPU(s): mean util 98%"), now=1012.0)
        assert not panel.stale  # a fresh answer is no longer grey


async def test_a_stored_answer_only_ages() -> None:
    app = PanelApp()
    async with app.run_test():
        panel = app.query_one(AnswerPanel)
        panel.show("baseline?", Answer("baseline", "Number to beat: 90"), now=1000.0)
        panel.tick(now=1000.0 + 120)
        assert app.outdated == [] and not panel.stale
        assert "2 min ago" in text_of(panel._text)


async def test_the_app_refreshes_a_live_answer(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.press("slash", *"current speedup?", "enter")
        panel = app.answer_panel
        await until(pilot, lambda: panel._answer is not None)
        first = panel._computed_at
        panel.tick(now=first + REFRESH_S)
        await until(pilot, lambda: panel._computed_at != first)  # answered again by the app
        assert not panel.stale and "current speedup?" in text_of(panel._text)


async def test_the_age_ticks_only_once_an_answer_is_shown() -> None:
    """No answer, no timer: an empty pane does not wake the UI loop every second."""
    app = PanelApp()
    async with app.run_test() as pilot:
        panel = app.query_one(AnswerPanel)
        assert not panel._timers  # Textual's MessagePump keeps the widget's timers here
        panel.show("baseline?", Answer("baseline", "212.4 tok/s"))
        shown = text_of(panel._text)
        await until(pilot, lambda: text_of(panel._text) != shown)  # the age moved on its own
        assert len(panel._timers) == 1
