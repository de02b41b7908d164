"""Pilot tests of the record forms: typing bursts, errors, discarding, saving that fails."""

from __future__ import annotations

from pathlib import Path

from textual import events

from sessiontui.project_memory.store import Store, StoreError
from sessiontui.tui.app import SessionApp
from sessiontui.tui.messages import TOAST_CHARS, one_line
from sessiontui.tui.screens.confirm import ConfirmScreen
from sessiontui.tui.screens.record_form import RecordForm, YesNo
from sessiontui.tui.user_errors import store_problem, worker_problem
from tests.tui.app_fakes import HOST, TWO_GPUS, SequenceCollector, text_of, until, until_form


def make_app(tmp_path: Path, store_path: Path | None = None) -> SessionApp:
    return SessionApp(tmp_path, store_path=store_path or tmp_path / "memory.db",
                      gpu_collector=SequenceCollector(TWO_GPUS),
                      host_collector=SequenceCollector(HOST), refresh_s=0.05)


async def open_form(pilot, key: str) -> RecordForm:
    await pilot.press(key)
    return await until_form(pilot)


def field(form: RecordForm, name: str):
    return form.query_one(f"#field-{name}")


async def test_keys_typed_in_one_burst_with_tab_land_in_the_field_tab_went_to(
    tmp_path: Path,
) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        form = await open_form(pilot, "b")
        field(form, "config").value = "abc"
        field(form, "config").cursor_position = 3
        for key, char in (("X", "X"), ("tab", None), ("tab", None), ("Q", "Q")):
            app.post_message(events.Key(key, char))  # queued at once, as a terminal sends them
        await until(pilot, lambda: field(form, "value").value == "Q")
        assert field(form, "config").value == "abcX" and field(form, "metric").value


async def test_an_error_focuses_the_bad_field_and_goes_away_while_typing(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        form = await open_form(pilot, "n")
        await pilot.press("ctrl+s")
        error = form.query_one("#form-error")
        assert text_of(error) == "text: must not be empty" and app.focused is field(form, "text")
        await pilot.press("h")
        assert text_of(error) == "" and app.screen is form


async def test_escape_on_a_filled_form_asks_before_discarding(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        form = await open_form(pilot, "n")
        await pilot.press(*"half a thought")
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("n")
        await until(pilot, lambda: app.screen is form)
        assert field(form, "text").value == "half a thought"
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await until(pilot, lambda: not isinstance(app.screen, (RecordForm, ConfirmScreen)))
        await open_form(pilot, "n")  # an empty form closes at once
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, RecordForm))


async def test_the_baseline_box_says_yes_or_no_in_words(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        form = await open_form(pilot, "b")
        box = field(form, "baseline")
        assert isinstance(box, YesNo) and str(box.render()).strip() == "[ ] no"
        box.focus()
        await pilot.press("space")
        await pilot.pause()
        assert box.value and str(box.render()).strip() == "[x] yes"


async def test_a_failed_save_keeps_the_form_open_with_the_reason(tmp_path: Path) -> None:
    blocked = tmp_path / "memory.db"
    blocked.mkdir()  # the store cannot be opened: every write fails
    app = make_app(tmp_path, blocked)
    async with app.run_test(size=(100, 30)) as pilot:
        form = await open_form(pilot, "n")
        await pilot.press(*"keep me")
        await pilot.press("ctrl+s")
        error = form.query_one("#form-error")
        await until(pilot, lambda: text_of(error).startswith("Not saved:"))
        assert app.screen is form and field(form, "text").value == "keep me"
        assert str(blocked) not in text_of(error) or "memory" in text_of(error)
        def notes() -> str:
            return " ".join(n.message for n in app._notifications)

        # the start-up read may have been told (and its 30 s notice expired) or cancelled by a
        # newer read before this point: ask for a read now and wait for its failure to be told
        app._load_memory()
        await until(pilot, lambda: "Reading the memory failed" in notes())
        assert "_load_memory" not in notes() and "StoreError" not in notes()


def test_a_read_only_store_is_said_in_words_a_user_acts_on(tmp_path: Path) -> None:
    problem = store_problem(Exception("x/memory.db: attempt to write a readonly database"),
                            tmp_path / ".sessiontui" / "memory.db")
    assert problem.startswith(f"the memory folder {tmp_path / '.sessiontui'} is read-only")


def test_a_damaged_store_s_reason_fits_its_notice_under_a_deep_project_folder(tmp_path: Path) -> None:
    path = tmp_path.joinpath(*["a-long-project-folder"] * 6, ".sessiontui", "memory.db")
    error = StoreError(f"cannot open project memory: {path} is damaged (file is not a database)")
    notice = one_line(worker_problem("memory-read", error, path), 2 * TOAST_CHARS)
    assert notice == ("Reading the memory failed: cannot open project memory: memory.db is damaged "
                      "(file is not a database)")


async def test_a_long_note_is_saved_whole_and_announced_in_one_short_line(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    note = "packing " * 625  # 5,000 characters
    async with app.run_test(size=(100, 30)) as pilot:
        form = await open_form(pilot, "n")
        field(form, "text").value = note
        await pilot.press("ctrl+s")
        await until(pilot, lambda: any("Added note" in n.message for n in app._notifications))
        toast = next(n.message for n in app._notifications if "Added note" in n.message)
        assert "\n" not in toast and len(toast) <= 70 and toast.endswith("…")
    with Store(tmp_path / "memory.db") as store:
        assert store.list("note")[0].text == note.strip()


async def test_a_value_the_rules_refuse_is_marked_and_focused(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        form = await open_form(pilot, "b")
        field(form, "config").value = "sglang c1"
        field(form, "value").value = "-5"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen is form and "value" in text_of(form.query_one("#form-error"))
        assert field(form, "value").has_class("-invalid") and app.focused is field(form, "value")


async def test_a_benchmark_typed_in_the_app_is_stamped_like_one_typed_on_the_command_line(
    tmp_path: Path, monkeypatch
) -> None:
    """Issue 27: `b` in the app stored no driver or CUDA, so the staleness checks skipped it."""
    from tests.collectors.test_gpu import FakeNvml

    FakeNvml(monkeypatch)  # NVML as an H200 host with driver 580.159.04 and CUDA 13.0 shows it
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await open_form(pilot, "b")  # typed as a person does: config, past the metric, value
        await pilot.press(*"sglang", "tab", "tab", *"82.5", "ctrl+s")
        await until(pilot, lambda: any("Added benchmark" in n.message for n in app._notifications))
    with Store(tmp_path / "memory.db") as store:
        added = store.list("benchmark")[0]
    assert (added.config, added.value) == ("sglang", 82.5)
    assert (added.driver_version, added.cuda_version) == ("580.159.04", "13.0")
    assert added.host and added.gpus
