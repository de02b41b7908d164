"""Pilot tests of the key conventions: Esc leaves inputs and the next key goes to the app,
list and scroll keys everywhere, `/` filters in the Memory pane, deletion names its row, and
help and footer list every key."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual import events

from sessiontui.project_memory.records import Record
from sessiontui.project_memory.store import Store, StoreError
from sessiontui.tui.app import SessionApp
from sessiontui.tui.screens.confirm import ConfirmScreen
from sessiontui.tui.screens.help import CLOSE, HelpScreen, key_groups
from sessiontui.tui.screens.record_form import RecordForm
from sessiontui.tui.screens.record_view import RecordView
from sessiontui.tui.widgets.nav import EscapeFirstParser
from tests.tui.app_fakes import HOST, TWO_GPUS, SequenceCollector, text_of, until, until_form

CONFIGS = ["sglang llama-3.1-8b bf16 no-spec c=1", "vllm llama-3.1-8b bf16 no-spec c=1",
           "sglang llama-3.1-8b bf16 eagle3 c=1", "vllm llama-3.1-8b bf16 eagle3 c=1",
           "sglang llama-3.1-8b bf16 eagle3 c=8"]


@pytest.fixture
def seeded(tmp_path: Path) -> Path:
    """Five benchmarks, oldest last in the table (newest first within a group)."""
    path = tmp_path / "memory.db"
    with Store(path) as store:
        for day, config in enumerate(CONFIGS, 1):
            long = {"notes": "\n".join(f"run {n}: 80 prompts" for n in range(30))} if day == 1 else {}
            store.add(Record(kind="benchmark", config=config, value=100.0 + day,
                             created_at=f"2026-11-0{day}T10:00:00+00:00", **long))
    return path


def make_app(tmp_path: Path, store_path: Path | None = None) -> SessionApp:
    return SessionApp(tmp_path, store_path=store_path or tmp_path / "memory.db",
                      gpu_collector=SequenceCollector(TWO_GPUS),
                      host_collector=SequenceCollector(HOST), refresh_s=0.05)


async def memory_tab(pilot: Any, app: SessionApp) -> None:
    """Switch to the Memory tab and wait for the five seeded records."""
    await pilot.press("3")
    await until(pilot, lambda: app.memory_pane.table.row_count == 5)


def burst(app: SessionApp, *keys: tuple[str, str | None]) -> None:
    """Keys arriving in one read of the terminal, before the app handles the first."""
    for key, char in keys:
        app.post_message(events.Key(key, char))


def typed(data: str) -> list[tuple[str, str | None]]:
    """The keys the app's terminal parser reads from `data` arriving in one read."""
    parser = EscapeFirstParser()
    return [(e.key, e.character) for e in [*parser.feed(data), *parser.feed("")]
            if isinstance(e, events.Key)]


def test_escape_then_a_key_in_one_read_is_escape_then_that_key() -> None:
    assert typed("\x1bq") == [("escape", "\x1b"), ("q", "q")]
    assert typed("\x1bb") == [("escape", "\x1b"), ("b", "b")]  # Textual alone: ctrl+left
    assert typed("\x1b3") == [("escape", "\x1b"), ("3", "3")]  # Textual alone: `£`
    assert typed("\x1b[1;5D") == [("ctrl+left", None)]  # real sequences are untouched
    assert typed("\x1bOP") == [("f1", None)]
    assert typed("\x1b") == [("escape", "\x1b")]


async def test_escape_then_b_in_the_filter_opens_the_benchmark_form(
        tmp_path: Path, seeded: Path) -> None:
    app = make_app(tmp_path, seeded)
    async with app.run_test(size=(80, 24)) as pilot:
        await memory_tab(pilot, app)
        await pilot.press("slash", "e", "a")
        await until(pilot, lambda: app.memory_pane.filter.value == "ea")
        burst(app, *typed("\x1bb"))
        form = await until_form(pilot)
        assert app.memory_pane.filter.value == "ea"  # no "b" typed into it
        assert form.record.kind == "benchmark"


async def test_escape_then_q_in_the_ask_bar_quits(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("slash", "w", "h")
        await until(pilot, lambda: app.ask_bar.value == "wh")
        burst(app, *typed("\x1bq"))
        await until(pilot, lambda: app.return_code is not None)
        assert app.ask_bar.value == "wh"


async def test_escape_leaves_the_filter_and_a_second_escape_clears_it(
        tmp_path: Path, seeded: Path) -> None:
    app = make_app(tmp_path, seeded)
    async with app.run_test(size=(80, 24)) as pilot:
        await memory_tab(pilot, app)
        await pilot.press("slash", *"eagle3")
        await until(pilot, lambda: app.memory_pane.table.row_count == 3)
        await pilot.press("escape")
        assert app.focused is app.memory_pane.table
        assert app.memory_pane.filter.value == "eagle3"
        await pilot.press("escape")
        await until(pilot, lambda: app.memory_pane.table.row_count == 5)
        assert app.memory_pane.filter.value == ""


async def test_slash_filters_in_the_memory_pane_and_asks_elsewhere(
        tmp_path: Path, seeded: Path) -> None:
    app = make_app(tmp_path, seeded)
    async with app.run_test(size=(80, 24)) as pilot:
        await memory_tab(pilot, app)
        assert "/ Filter" in text_of(app.query_one("#keys"))
        burst(app, ("slash", "/"), ("v", "v"), ("l", "l"))  # keys right after / are the filter's
        await until(pilot, lambda: app.memory_pane.filter.value == "vl")
        assert app.focused is app.memory_pane.filter and not isinstance(app.screen, RecordForm)
        await pilot.press("escape", "1")
        assert "/ Ask" in text_of(app.query_one("#keys"))
        await pilot.press("slash", "x")
        assert app.focused is app.ask_bar and app.ask_bar.value == "x"


async def test_memory_cursor_moves_with_home_end_g_g_j_k(tmp_path: Path, seeded: Path) -> None:
    app = make_app(tmp_path, seeded)
    async with app.run_test(size=(80, 24)) as pilot:
        await memory_tab(pilot, app)
        table = app.memory_pane.table
        for keys, row in ((("end",), 4), (("home",), 0), (("G",), 4), (("k", "k"), 2),
                          (("j",), 3), (("g",), 0), (("pagedown",), 4), (("pageup",), 0)):
            await pilot.press(*keys)
            assert table.cursor_row == row, keys


async def test_end_then_d_offers_the_last_row_by_name_and_deletes_it(
        tmp_path: Path, seeded: Path) -> None:
    app = make_app(tmp_path, seeded)
    async with app.run_test(size=(120, 30)) as pilot:
        await memory_tab(pilot, app)
        await pilot.press("end", "d")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        oldest = CONFIGS[0]  # the oldest benchmark is the last row
        last = app.memory_pane.selected()
        assert last is not None and last.config == oldest
        question = app.screen.question
        assert oldest in question and last.id in question
        await pilot.press("n")  # no: nothing deleted
        await until(pilot, lambda: not isinstance(app.screen, ConfirmScreen))
        await pilot.press("d")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await until(pilot, lambda: app.memory_pane.table.row_count == 4)
    with Store(seeded) as store, pytest.raises(StoreError):
        store.get(last.id)


async def test_answer_help_and_record_view_scroll_with_j_k_g_g(
        tmp_path: Path, seeded: Path) -> None:
    app = make_app(tmp_path, seeded)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))
        scroll = app.screen.query_one("#help-dialog")
        await pilot.pause()
        await pilot.press("G")
        await until(pilot, lambda: scroll.scroll_y == scroll.max_scroll_y > 0)
        await pilot.press("g", "j", "j")
        await until(pilot, lambda: scroll.scroll_y == 2)
        await pilot.press("k")
        await until(pilot, lambda: scroll.scroll_y == 1)
        await pilot.press("escape")
        await memory_tab(pilot, app)  # the rows are read in the background: wait for them
        await pilot.press("end", "enter")  # the oldest: the one with long notes
        await until(pilot, lambda: isinstance(app.screen, RecordView))
        record_scroll = app.screen.query_one("#record-scroll")
        await pilot.pause()
        await pilot.press("G")
        await until(pilot, lambda: record_scroll.scroll_y == record_scroll.max_scroll_y > 0)
        await pilot.press("k")
        await until(pilot, lambda: record_scroll.scroll_y == record_scroll.max_scroll_y - 1)
        await pilot.press("escape", "4")
        answer = app.answer_panel
        answer._text.update("\n".join(f"line {n}" for n in range(100)))
        await pilot.pause()
        await pilot.press("G")
        await until(pilot, lambda: answer.scroll_y == answer.max_scroll_y > 0)
        await pilot.press("g", "j")
        await until(pilot, lambda: answer.scroll_y == 1)


async def test_help_lists_every_binding_by_pane_with_how_to_close_first(tmp_path: Path) -> None:
    from sessiontui.tui.widgets.gpu_pane import GpuPane
    from sessiontui.tui.widgets.memory_pane import MemoryPane, MemoryTable

    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))
        assert text_of(app.screen.query_one("#help-close")).startswith("Esc or ? to close")
        keys = text_of(app.screen.query_one("#help-keys"))
        titles = [title for title, _ in key_groups(app)]
        assert titles == ["Global", "GPUs", "Training", "Memory", "Answer", "Ask bar",
                          "Forms and dialogs"]
        positions = [keys.index(f"{title}") for title in titles]
        assert positions == sorted(positions)
        for owner in (SessionApp, GpuPane, MemoryTable, MemoryPane):
            for binding in owner.BINDINGS:
                assert binding.description in keys, binding  # type: ignore[union-attr]
        memory = keys[keys.index("\nMemory"):keys.index("\nAnswer")]
        assert "/ ^f" in memory and "end G" in memory and "Clear the filter" in memory
        await pilot.press("question_mark")
        await until(pilot, lambda: not isinstance(app.screen, HelpScreen))
        assert CLOSE.startswith("Esc or ? to close")


async def test_a_narrow_footer_says_how_many_keys_help_holds(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("1")
        await until(pilot, lambda: "SIGINT" in text_of(app.query_one("#keys")))
        keys = text_of(app.query_one("#keys"))
        missing = [word for word in ("Benchmark", "Lesson", "Note", "Follow log")
                   if word not in keys]
        assert missing and f"? {len(missing)} more" in keys and len(keys) <= 80
    app = make_app(tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.press("1")
        await until(pilot, lambda: "SIGINT" in text_of(app.query_one("#keys")))
        keys = text_of(app.query_one("#keys"))
        assert "? Help" in keys and "Follow log" in keys and "more" not in keys


async def test_a_key_right_after_switching_to_the_memory_tab_moves_the_cursor(
        tmp_path: Path, seeded: Path) -> None:
    app = make_app(tmp_path, seeded)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: len(app.memory_pane.records) == 5)  # read while hidden
        burst(app, ("3", "3"), ("end", None))
        await until(pilot, lambda: app.memory_pane.table.cursor_row == 4)


async def test_gpu_processes_are_selected_with_j_k_g_g_home_end(tmp_path: Path) -> None:
    from sessiontui.tui.demo import planned_demo

    app = SessionApp(tmp_path, store_path=tmp_path / "memory.db",
                     gpu_collector=planned_demo(tmp_path / "demo").gpu_collector(),
                     host_collector=SequenceCollector(HOST), refresh_s=3600.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: len(app.gpu_pane.rows()) >= 2)
        pane = app.gpu_pane
        keys = [row.key for row in pane.rows()]
        for pressed, wanted in ((("1", "G"), keys[-1]), (("g",), keys[0]), (("j",), keys[1]),
                                (("k",), keys[0]), (("end",), keys[-1]), (("home",), keys[0])):
            await pilot.press(*pressed)
            assert pane.selected == wanted, pressed
        await pilot.press("escape")  # a second Esc clears the selection
        assert pane.selected is None
