"""Pilot tests of the layout (tabs when narrow, grid when wide), help, palette, follow, export."""

from __future__ import annotations

from pathlib import Path

import tomlkit

from sessiontui.project_memory.exchange import read_toml
from sessiontui.project_memory.records import Record
from sessiontui.project_memory.store import Store
from sessiontui.tui.app import VIEWS, SessionApp
from sessiontui.tui.commands.app import build_app
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
    return SessionApp(tmp_path, store_path=tmp_path / "memory.db",
                      gpu_collector=SequenceCollector(TWO_GPUS),
                      host_collector=SequenceCollector(HOST), refresh_s=1.0, **kwargs)


def shown_panes(app: SessionApp) -> list[str]:
    return [view for view in VIEWS if app.query_one(f"#{view}").region.area > 0]


async def test_narrow_terminal_shows_one_pane_under_tabs(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.query_one("#views").region.height > 0
        assert shown_panes(app) == ["gpu"]
        await pilot.press("3")
        await pilot.pause()
        assert shown_panes(app) == ["memory"]
        await pilot.press("2")
        await pilot.pause()
        assert shown_panes(app) == ["training"]
        bar = text_of(app.query_one("#views"))
        await pilot.click("#views", offset=(bar.index("4 Answer") + 1, 0))
        await pilot.pause()
        assert shown_panes(app) == ["answer"]


async def test_wide_terminal_shows_every_pane_in_a_grid(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        assert app.query_one("#views").region.area == 0
        assert shown_panes(app) == list(VIEWS)
        gpu, memory = app.gpu_pane.region, app.memory_pane.region
        assert gpu.y == memory.y and gpu.right <= memory.x
        assert app.training_pane.region.y >= gpu.bottom


async def test_the_first_styling_already_knows_the_layout(tmp_path: Path) -> None:
    for size, layout in (((80, 24), "-narrow"), ((139, 40), "-narrow"), ((140, 40), "-wide")):
        app = make_app(tmp_path)
        async with app.run_test(size=size):
            assert app.get_default_screen().classes == {layout}


async def test_key_bar_shows_the_keys_of_what_has_focus_and_clicks_press_them(
    tmp_path: Path,
) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        keys = text_of(app.query_one("#keys"))
        assert keys.startswith(" / Ask  ? Help  b Benchmark") and keys.rstrip().endswith("palette")
        assert "Edit" not in keys and "Export" not in keys  # hidden bindings stay hidden
        await pilot.press("3")  # the memory table takes focus: its keys join the bar
        await until(pilot, lambda: "e Edit  d Delete" in text_of(app.query_one("#keys")))
        keys = text_of(app.query_one("#keys"))
        await pilot.click("#keys", offset=(keys.index(" ? ") + 2, 0))  # `? Help` or `? 4 more`
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))


async def test_help_lists_the_keys(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))
        keys = str(app.screen.query_one("#help-keys").render())
        for _title, rows in app.key_help():
            for row in rows:
                assert row.description in keys
        assert "Follow log" in keys and "Earlier question" in keys
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, HelpScreen))


async def test_palette_runs_actions_by_name(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        names = [command.title for command in app.get_system_commands(app.screen)]
        assert len(names) == len(set(names)), names  # every action once: one "Quit"
        for wanted in ("Add benchmark", "Add lesson", "Add note", "Follow a log",
                       "Stop following a log", "Export memory to TOML", "Edit record",
                       "Delete record", "Open record", "Filter memory", "Lesson from failure",
                       "Undo delete", "Screenshot", "Quit"):
            assert wanted in names
        await pilot.press("ctrl+p")
        await pilot.press(*"follow a log")
        await pilot.pause(0.5)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, PromptScreen))
        assert "Follow a training log" in text_of(app.screen.query_one("#prompt-title"))


async def test_following_a_log_writes_the_config_and_adds_a_card(tmp_path: Path) -> None:
    config = tmp_path / "sessiontui.toml"
    config.write_text("# my settings\nrefresh_s = 1.0  # keep\n")
    log = tmp_path / "runs" / "drafter.log"
    app = make_app(tmp_path, config_path=config,
                   follower_factory=followers(**{"drafter.log": [specforge_run(str(log), 300)]}))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f")
        await until(pilot, lambda: isinstance(app.screen, PromptScreen))
        await pilot.press(*"runs/drafter.log", "enter")
        # The log does not exist yet: the app says so and follows it only when told to wait.
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        assert "does not exist yet" in str(app.screen.query_one("#confirm-question").render())
        await pilot.press("y")
        await until(pilot, lambda: log in app.training_pane.cards
                    and "step 300" in text_of(app.training_pane.cards[log]))
        await until(pilot, lambda: "drafter.log" in config.read_text())
    text = config.read_text()
    assert text.startswith("# my settings") and "# keep" in text
    assert tomlkit.parse(text)["logs"] == ["runs/drafter.log"]


async def test_export_writes_the_memory_as_toml(tmp_path: Path) -> None:
    with Store(tmp_path / "memory.db") as store:
        note = store.add(Record(kind="note", text="packing was off in run 3"))
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("x")
        await until(pilot, lambda: isinstance(app.screen, PromptScreen))
        await pilot.press("enter")
        target = tmp_path / "sessiontui-memory.toml"
        await until(pilot, target.exists)
    assert [r.id for r in read_toml(target)] == [note.id]


def test_bare_sessiontui_follows_the_logs_of_the_project_config(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "sub").mkdir()
    (tmp_path / "sessiontui.toml").write_text(
        'logs = ["runs/a.log", "/abs/b.log"]\nrefresh_s = 2.0\ndefault_metric = "median_itl_ms"\n'
    )
    app = build_app(tmp_path / "sub")
    assert app.project_dir == tmp_path.resolve()
    assert app.log_paths == [tmp_path.resolve() / "runs/a.log", Path("/abs/b.log")]
    assert (app.refresh_s, app.metric) == (2.0, "median_itl_ms")
    assert app.config_path == tmp_path.resolve() / "sessiontui.toml"
