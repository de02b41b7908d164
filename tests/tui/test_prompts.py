"""Path prompts complete with Tab as a shell does; dialogs close on a click outside unless
they hold unsaved input."""

from __future__ import annotations

from pathlib import Path

from sessiontui.tui.app import SessionApp
from sessiontui.tui.screens.confirm import ConfirmScreen
from sessiontui.tui.screens.help import HelpScreen
from sessiontui.tui.screens.prompt import PromptScreen, complete_path
from tests.tui.app_fakes import HOST, TWO_GPUS, SequenceCollector, until


def make_app(tmp_path: Path) -> SessionApp:
    return SessionApp(tmp_path, store_path=tmp_path / "memory.db",
                      gpu_collector=SequenceCollector(TWO_GPUS),
                      host_collector=SequenceCollector(HOST), refresh_s=1.0)


def test_a_path_completes_to_its_one_match_or_the_start_all_matches_share(
        tmp_path: Path) -> None:
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "train_eagle3.log").write_text("")
    (tmp_path / "logs" / "train_eagle3.err").write_text("")
    (tmp_path / ".hidden").write_text("")
    assert complete_path("lo", tmp_path) == "logs/"  # a folder gets its slash
    assert complete_path("logs/t", tmp_path) == "logs/train_eagle3."  # what both share
    assert complete_path("logs/train_eagle3.l", tmp_path) == "logs/train_eagle3.log"
    assert complete_path(f"{tmp_path}/lo", Path("/")) == f"{tmp_path}/logs/"  # absolute
    assert complete_path("logs/x", tmp_path) is None and complete_path("nope/", tmp_path) is None
    assert complete_path(".h", tmp_path) == ".hidden" and complete_path("", tmp_path) == "logs/"


async def test_tab_completes_the_follow_log_prompt(tmp_path: Path) -> None:
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "train_eagle3.log").write_text("")
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f")
        await until(pilot, lambda: isinstance(app.screen, PromptScreen))
        field = app.screen.query_one("#prompt-input")
        await pilot.press("l", "o")
        await until(pilot, lambda: field._suggestion == "logs/")
        await pilot.press("tab")
        assert field.value == "logs/"
        await until(pilot, lambda: field._suggestion == "logs/train_eagle3.log")
        await pilot.press("tab")
        assert field.value == "logs/train_eagle3.log" and isinstance(app.screen, PromptScreen)


async def test_a_click_outside_closes_a_dialog_unless_it_holds_typing(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))
        await pilot.click(offset=(0, 0))
        await until(pilot, lambda: not isinstance(app.screen, HelpScreen))
        answers: list[bool] = []
        app.push_screen(ConfirmScreen("Replace it?"), answers.append)
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.click(offset=(0, 0))
        await until(pilot, lambda: answers == [False])  # outside is "no", as Esc
        await pilot.press("x")  # the export prompt, its default path typed in already
        await until(pilot, lambda: isinstance(app.screen, PromptScreen))
        await pilot.click(offset=(0, 0))
        await until(pilot, lambda: not isinstance(app.screen, PromptScreen))
        await pilot.press("x")
        await until(pilot, lambda: isinstance(app.screen, PromptScreen))
        await pilot.press("end", "2")  # typing: a stray click must not lose it
        await pilot.click(offset=(0, 0))
        await pilot.pause()
        assert isinstance(app.screen, PromptScreen)
        assert app.screen.query_one("#prompt-input").value.endswith(".toml2")
