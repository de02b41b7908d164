"""Pilot tests of living in the app: keys at 80 columns, help, follow/unfollow, history, files."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import tomlkit

from sessiontui.project_memory.records import Record
from sessiontui.project_memory.store import Store
from sessiontui.tui.app import SessionApp
from sessiontui.tui.screens.choose import ChooseScreen
from sessiontui.tui.screens.confirm import ConfirmScreen
from sessiontui.tui.screens.help import HelpScreen
from sessiontui.tui.screens.prompt import PromptScreen
from tests.tui.app_fakes import (
    HOST,
    TWO_GPUS,
    SequenceCollector,
    followers,
    specforge_run,
    text_of,
    until,
)


def make_app(tmp_path: Path, **kwargs) -> SessionApp:
    return SessionApp(tmp_path, store_path=tmp_path / ".sessiontui" / "memory.db",
                      gpu_collector=SequenceCollector(TWO_GPUS),
                      host_collector=SequenceCollector(HOST), refresh_s=1.0, **kwargs)


def notes(app: SessionApp) -> str:
    return "\n".join(n.message for n in app._notifications)


async def test_at_80_columns_the_memory_keys_keep_quit_and_the_palette(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("3")
        await until(pilot, lambda: "e Edit" in text_of(app.query_one("#keys")))
        keys = text_of(app.query_one("#keys"))
        assert "q Quit" in keys and keys.rstrip().endswith("^p palette") and "…" not in keys
        assert "⏎ Open" in keys and "d Delete" in keys and len(keys) <= 80


async def test_help_at_80x24_scrolls_to_its_last_line(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))
        dialog = app.screen.query_one("#help-dialog")
        await pilot.pause()
        assert dialog.max_scroll_y > 0 and dialog.scroll_y == 0
        await pilot.press("end")
        await until(pilot, lambda: dialog.scroll_y == dialog.max_scroll_y)
        keys = text_of(app.screen.query_one("#help-keys"))
        for legend in ("★", "vs beat", "τ", "⚠"):
            assert legend in text_of(app.screen.query_one("#help-symbols"))
        assert "Quit" in keys and "Command palette" in keys and "Unfollow log" in keys


async def test_unfollow_removes_the_card_and_the_config_entry_keeping_comments(
    tmp_path: Path,
) -> None:
    config = tmp_path / "sessiontui.toml"
    config.write_text('# mine\nlogs = ["a.log", "b.log"]  # both\n')
    a, b = tmp_path / "a.log", tmp_path / "b.log"
    app = make_app(tmp_path, config_path=config, log_paths=[a, b],
                   follower_factory=followers(**{"a.log": [specforge_run(str(a))],
                                                 "b.log": [specforge_run(str(b))]}))
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: len(app.training_pane.cards) == 2)
        await pilot.press("F")
        await until(pilot, lambda: isinstance(app.screen, ChooseScreen))
        await pilot.press("down", "enter")
        await until(pilot, lambda: list(app.training_pane.cards) == [a])
        await until(pilot, lambda: "b.log" not in config.read_text())
        assert "Stopped following" in notes(app)
    text = config.read_text()
    assert text.startswith("# mine") and tomlkit.parse(text)["logs"] == ["a.log"]


async def test_a_question_asked_is_there_after_a_restart(tmp_path: Path) -> None:
    with Store(tmp_path / ".sessiontui" / "memory.db") as store:
        store.add(Record(kind="benchmark", config="sglang", value=50.0, baseline=True))
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("slash", *"what's the baseline?", "enter")
        await until(pilot, lambda: (tmp_path / ".sessiontui" / "ask_history.txt").exists())
    again = make_app(tmp_path)
    async with again.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: again.ask_bar.history == ["what's the baseline?"])
        await pilot.press("slash", "up")
        assert again.ask_bar.value == "what's the baseline?"


async def test_a_second_app_on_the_project_is_noticed(tmp_path: Path) -> None:
    other = tmp_path / ".sessiontui" / "open" / f"{socket.gethostname()}-{os.getppid()}"
    other.parent.mkdir(parents=True)
    other.touch()  # the pytest runner's parent stands for another running app
    stale = other.with_name(f"{socket.gethostname()}-999999999")
    stale.touch()
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await until(pilot, lambda: "also open on this project" in notes(app))
        assert str(os.getppid()) in notes(app) and not stale.exists()
        mine = other.with_name(f"{socket.gethostname()}-{os.getpid()}")
        assert mine.exists()
    assert not mine.exists()


async def test_export_asks_before_replacing_and_goes_to_the_keep_folder(tmp_path: Path) -> None:
    keep = tmp_path / "kept"
    keep.mkdir()
    target = keep / "sessiontui-memory.toml"
    target.write_text("old")
    app = make_app(tmp_path, keep_dir=keep)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("x")
        await until(pilot, lambda: isinstance(app.screen, PromptScreen))
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("n")
        await pilot.pause(0.3)
        assert target.read_text() == "old"
        await pilot.press("x")
        await until(pilot, lambda: isinstance(app.screen, PromptScreen))
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await until(pilot, lambda: target.read_text() != "old")


async def test_a_screenshot_is_saved_in_the_project_and_says_where(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        app.action_screenshot()
        await until(pilot, lambda: "Screenshot saved" in notes(app))
        saved = list(tmp_path.glob("sessiontui-screenshot-*.svg"))
        assert len(saved) == 1 and str(saved[0]) in notes(app)


async def test_following_a_folder_is_refused_in_words(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("f")
        await until(pilot, lambda: isinstance(app.screen, PromptScreen))
        await pilot.press(*str(tmp_path), "enter")
        await until(pilot, lambda: "is a folder" in notes(app))
        assert not app.log_paths


async def test_the_symbols_are_explained_in_tooltips(tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    app = make_app(tmp_path, log_paths=[log],
                   follower_factory=followers(**{"train.log": [specforge_run(str(log))]}))
    async with app.run_test(size=(160, 48)) as pilot:
        await until(pilot, lambda: log in app.training_pane.cards)
        for symbol in ("★", "b another baseline", "vs beat", "τ"):
            assert symbol in str(app.memory_pane.table.tooltip)
        assert "τ accept length" in str(app.training_pane.cards[log].tooltip)
