"""Pilot tests of the ask bar and answer panel, against the real `sessiontui.project_memory.ask.ask`."""

from __future__ import annotations

from pathlib import Path

from sessiontui.project_memory.ask import ask
from sessiontui.project_memory.records import Record
from sessiontui.project_memory.store import Store
from sessiontui.tui.app import SessionApp
from sessiontui.tui.messages import HistoryRead
from sessiontui.tui.widgets.ask_panel import AskBar
from tests.tui.app_fakes import HOST, TWO_GPUS, SequenceCollector, text_of, until


def make_app(tmp_path: Path) -> SessionApp:
    with Store(tmp_path / "memory.db") as store:
        store.add(Record(kind="benchmark", config="sglang tp1 c1 [no spec]", value=50.0,
                         baseline=True, engine="sglang"))
        store.add(Record(kind="benchmark", config="eagle3 steps3", value=75.0, accept_length=2.4,
                         spec_algorithm="EAGLE3", engine="sglang"))
    return SessionApp(tmp_path, store_path=tmp_path / "memory.db",
                      gpu_collector=SequenceCollector(TWO_GPUS),
                      host_collector=SequenceCollector(HOST), refresh_s=1.0)


def expected(tmp_path: Path, question: str) -> str:
    with Store(tmp_path / "memory.db") as store:
        return ask(store, question).text


async def test_slash_focuses_the_bar_and_the_answer_shows_text_and_sources(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        app.gpu_pane.focus()  # (in the Memory pane / filters instead)
        await pilot.press("slash")
        assert isinstance(app.focused, AskBar)
        await pilot.press(*"what's the baseline?", "enter")
        answer = app.answer_panel._text
        await until(pilot, lambda: "what's the baseline?" in text_of(answer))
        shown = text_of(answer)
        assert expected(tmp_path, "what's the baseline?") in shown
        assert "sglang tp1 c1 [no spec]" in shown  # brackets from a record stay literal
        assert "sources" in shown
        assert app.ask_bar.value == ""


async def test_up_and_down_recall_earlier_questions(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.press("slash", *"baseline?", "enter")
        await pilot.press(*"current speedup?", "enter")
        await until(pilot, lambda: "current speedup?" in text_of(app.answer_panel._text))
        await pilot.press("up")
        assert app.ask_bar.value == "current speedup?"
        await pilot.press("up")
        assert app.ask_bar.value == "baseline?"
        await pilot.press("up")
        assert app.ask_bar.value == "baseline?"
        await pilot.press("down", "down")
        assert app.ask_bar.value == ""


async def test_the_history_read_after_start_up_keeps_a_recall_under_way(tmp_path: Path) -> None:
    """The session's history file is read a moment after start-up: a question recalled before
    it arrives stays shown, and the next up goes on from it (it went back to the newest)."""
    app = make_app(tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.press("slash", *"baseline?", "enter", *"current speedup?", "enter")
        await pilot.press("up")
        assert app.ask_bar.value == "current speedup?"
        app.post_message(HistoryRead(["asked yesterday?"]))
        await until(pilot, lambda: "asked yesterday?" in app.ask_bar.history)
        assert app.ask_bar.value == "current speedup?"
        await pilot.press("up")
        assert app.ask_bar.value == "baseline?"


async def test_in_a_narrow_terminal_the_answer_tab_comes_forward(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        assert not app.answer_panel.display or not app.answer_panel.has_class("-active")
        await pilot.press("slash", *"speedup vs baseline?", "enter")
        await until(pilot, lambda: "speedup vs baseline?" in text_of(app.answer_panel._text))
        assert app.answer_panel.has_class("-active") and app.answer_panel.region.height > 5
        assert app.gpu_pane.region.height == 0
        await pilot.press("escape", "1")
        assert app.ask_bar.value == "" and app.gpu_pane.has_class("-active")
        assert expected(tmp_path, "speedup vs baseline?").splitlines()[0].split(" [")[0] in text_of(
            app.answer_panel._text)


async def test_a_damaged_memory_is_said_in_the_answer_panel(tmp_path: Path) -> None:
    damaged = tmp_path / "memory.db"
    damaged.write_bytes(b"this is not an SQLite database" * 100)
    app = SessionApp(tmp_path, store_path=damaged, gpu_collector=SequenceCollector(TWO_GPUS),
                     host_collector=SequenceCollector(HOST), refresh_s=1.0)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.press("slash", *"baseline?", "enter")
        await until(pilot, lambda: "baseline?" in text_of(app.answer_panel._text))
        assert "cannot open project memory" in text_of(app.answer_panel._text)


def test_understood_lines_name_intent_conditions_and_alternatives() -> None:
    from sessiontui.project_memory.answer import Answer
    from sessiontui.tui.widgets.ask_panel import understood_lines

    answer = Answer("baseline", "…", confidence=0.42, conditions={"metric": "output_tok_s",
                    "concurrency": 32}, alternatives=[{"intent": "speedup", "confidence": 0.21}])
    assert understood_lines(answer) == [
        "baseline, confidence 0.42",
        "assumed: metric output_tok_s, concurrency 32",
        "also considered: speedup (confidence 0.21)",
    ]


async def test_answers_in_the_app_name_the_app_s_keys(tmp_path: Path) -> None:
    app = SessionApp(tmp_path, store_path=tmp_path / "empty.db",
                     gpu_collector=SequenceCollector(TWO_GPUS),
                     host_collector=SequenceCollector(HOST), refresh_s=1.0)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("slash", *"what's the baseline?", "enter")
        await until(pilot, lambda: "No baseline" in text_of(app.query_one("#answer-text")))
        shown = text_of(app.query_one("#answer-text"))
        assert "b (the benchmark form)" in shown and "sessiontui bench add" not in shown
        await pilot.press(*"how is training going?", "enter")
        await until(pilot, lambda: "training" in text_of(app.query_one("#answer-text")))
        await until(pilot, lambda: "No training run" in text_of(app.query_one("#answer-text")))
        shown = text_of(app.query_one("#answer-text"))
        assert "f (follow a log)" in shown and "sessiontui watch" not in shown


def test_cli_hints_become_app_keys() -> None:
    from sessiontui.tui.widgets.ask_panel import in_app_words

    assert in_app_words("record one with `sessiontui lesson add --from-run r-1`") == (
        "record one with L (a lesson from the failure)")
    assert in_app_words("`sessiontui record --baseline -- CMD`") == (
        "`sessiontui record --baseline -- CMD`")
