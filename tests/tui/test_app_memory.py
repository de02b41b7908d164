"""Pilot tests of the memory pane: number to beat, ratios, filter, add/edit/delete via forms."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from sessiontui.project_memory.records import Record
from sessiontui.project_memory.store import Store, StoreError
from sessiontui.tui.app import SessionApp
from sessiontui.tui.screens.record_form import RecordForm
from sessiontui.tui.widgets import memory_pane
from sessiontui.tui.widgets.memory_pane import COLUMNS
from tests.tui.app_fakes import HOST, TWO_GPUS, SequenceCollector, text_of, until, until_form

WHAT, VS = COLUMNS.index("what"), COLUMNS.index("vs beat")


@pytest.fixture
def seeded(tmp_path: Path) -> Path:
    """A memory with two baselines, a speculative benchmark, a lesson and a note."""
    path = tmp_path / "memory.db"
    with Store(path) as store:
        store.add(Record(kind="benchmark", config="sglang tp1 c1 old", value=45.0, baseline=True,
                         created_at="2026-11-01T10:00:00+00:00"))
        store.add(Record(kind="benchmark", config="sglang tp1 c1", value=50.0, baseline=True,
                         created_at="2026-11-02T10:00:00+00:00"))
        store.add(Record(kind="benchmark", config="eagle3 steps3 topk1", value=75.0,
                         accept_length=2.4, created_at="2026-11-03T10:00:00+00:00"))
        store.add(Record(kind="lesson", title="triton smem OutOfResources",
                         fix="num_stages=2", created_at="2026-11-04T10:00:00+00:00"))
        store.add(Record(kind="note", text="[bold red]packing[/] is off \x1b[31m",
                         created_at="2026-11-05T10:00:00+00:00"))
    return path


def make_app(tmp_path: Path, store_path: Path) -> SessionApp:
    return SessionApp(tmp_path, store_path=store_path, gpu_collector=SequenceCollector(TWO_GPUS),
                      host_collector=SequenceCollector(HOST), refresh_s=0.05)


def rows(app: SessionApp) -> list[list[str]]:
    """Each row's cells under COLUMNS ("" in a column the table leaves out: empty in every row)."""
    table = app.memory_pane.table
    labels = [str(column.label) for column in table.ordered_columns]
    return [[dict(zip(labels, (cell.plain for cell in table.get_row_at(i)), strict=True)).get(
        name, "") for name in COLUMNS] for i in range(table.row_count)]


async def test_number_to_beat_first_and_ratios(tmp_path: Path, seeded: Path) -> None:
    app = make_app(tmp_path, seeded)
    async with app.run_test(size=(200, 48)) as pilot:  # wide enough for every name in full
        await until(pilot, lambda: app.memory_pane.table.row_count == 5)
        shown = rows(app)
        assert shown[0][0] == "★" and shown[0][WHAT] == "sglang tp1 c1" and shown[0][VS] == "1.00x"
        assert shown[1][0] == "b" and shown[1][VS] == "0.90x"
        assert shown[2][WHAT] == "eagle3 steps3 topk1" and shown[2][VS] == "1.50x"
        assert shown[3][WHAT] == "triton smem OutOfResources — fix: num_stages=2"
        assert shown[4][WHAT] == "[bold red]packing[/] is off \\x1b[31m"  # literal, not styled


async def test_filter_narrows_the_list(tmp_path: Path, seeded: Path) -> None:
    app = make_app(tmp_path, seeded)
    async with app.run_test(size=(160, 48)) as pilot:
        await until(pilot, lambda: app.memory_pane.table.row_count == 5)
        app.memory_pane.filter.value = "eagle3"
        await pilot.pause()
        assert [row[WHAT] for row in rows(app)] == ["eagle3 steps3 topk1"]
        app.memory_pane.filter.value = "sglang c1"
        await pilot.pause()
        assert len(rows(app)) == 2


async def test_add_a_benchmark_from_the_form(tmp_path: Path, seeded: Path) -> None:
    app = make_app(tmp_path, seeded)
    async with app.run_test(size=(160, 48)) as pilot:
        await until(pilot, lambda: app.memory_pane.table.row_count == 5)
        await pilot.press("b")
        await until_form(pilot)
        form = app.screen
        form.query_one("#field-config").value = "eagle3 steps5 topk4"
        form.query_one("#field-value").value = "fast"
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, RecordForm)
        assert "value: 'fast' is not a number" in text_of(form.query_one("#form-error"))
        form.query_one("#field-value").value = "82.5"
        await pilot.press("ctrl+s")
        await until(pilot, lambda: app.memory_pane.table.row_count == 6)
        assert any(row[WHAT] == "eagle3 steps5 topk4" and row[VS] == "1.65x" for row in rows(app))
    with Store(seeded) as store:
        added = store.search("steps5")[0]
    assert added.value == 82.5 and added.metric == "output_tok_s" and added.host


async def test_edit_then_delete_and_undo(tmp_path: Path, seeded: Path) -> None:
    app = make_app(tmp_path, seeded)
    async with app.run_test(size=(200, 48)) as pilot:
        await until(pilot, lambda: app.memory_pane.table.row_count == 5)
        table = app.memory_pane.table
        table.focus()
        table.move_cursor(row=3)
        await pilot.press("e")
        await until_form(pilot)
        assert app.screen.query_one("#field-fix").value == "num_stages=2"
        app.screen.query_one("#field-fix").value = "num_stages=1"
        await pilot.press("ctrl+s")
        await until(pilot, lambda: "fix: num_stages=1" in rows(app)[3][WHAT])
        lesson_id = app.memory_pane.selected().id
        await pilot.press("d")
        await until(pilot, lambda: lesson_id in getattr(app.screen, "question", ""))
        await pilot.press("y")
        await until(pilot, lambda: app.memory_pane.table.row_count == 4)
        with Store(seeded) as store, pytest.raises(StoreError):
            store.get(lesson_id)
        await pilot.press("u")
        await until(pilot, lambda: app.memory_pane.table.row_count == 5)
    with Store(seeded) as store:
        assert store.get(lesson_id).fix == "num_stages=1"


def test_failed_attempts_read_failed_not_blank() -> None:
    from sessiontui.project_memory.records import Record
    from sessiontui.tui.widgets.memory_pane import value_text

    failed = Record(kind="benchmark", config="crashed bench", status="failed", value=None)
    measured = Record(kind="benchmark", config="ok", status="ok", value=212.4)
    assert value_text(failed) == "failed"
    assert value_text(measured) == "212.4 tok/s"


async def test_kinds_and_flags_filter(tmp_path: Path, seeded: Path) -> None:
    app = make_app(tmp_path, seeded)
    async with app.run_test(size=(200, 48)) as pilot:
        await until(pilot, lambda: app.memory_pane.table.row_count == 5)
        for words, wanted in (
            ("baseline", ["sglang tp1 c1", "sglang tp1 c1 old"]),
            ("kind:lesson", ["triton smem OutOfResources — fix: num_stages=2"]),
            ("kind:benchmark c1 old", ["sglang tp1 c1 old"]),
            ("accept_length:2.4", ["eagle3 steps3 topk1"]),
        ):
            app.memory_pane.filter.value = words
            await pilot.pause()
            assert [row[WHAT] for row in rows(app)] == wanted, words
        app.memory_pane.filter.value = "nothing-like-this"
        await pilot.pause()
        assert app.memory_pane.empty.display and "No record matches" in text_of(app.memory_pane.empty)


def test_failed_runs_and_attempts_are_found_by_failed() -> None:
    from sessiontui.tui.widgets.memory_pane import matches

    crashed = Record(kind="run", name="drafter", status="crashed")
    running = Record(kind="run", name="drafter", status="running")
    assert matches(crashed, ["failed"]) and not matches(running, ["failed"])
    assert matches(Record(kind="benchmark", config="x", status="failed"), ["failed"])


def test_names_keep_what_tells_them_apart_when_cut() -> None:
    from sessiontui.tui.widgets.memory_pane import fit, shared_starts

    names = [f"sglang eagle3 epoch_1_step_6000 num_steps=5 topk=4 c={c}" for c in (1, 2, 4, 8)]
    common = shared_starts(names)
    shown = [fit(name, 30, common[name]) for name in names]
    assert len(set(shown)) == 4 and all(len(s) <= 30 and "…" in s for s in shown)
    assert all(s.endswith(f"c={c}") for s, c in zip(shown, (1, 2, 4, 8), strict=True))
    assert fit("short", 30) == "short"
    assert fit("a very long name nobody shares with anything", 20) == "a very long name no…"


def test_the_shared_start_of_each_name_is_the_longest_it_shares_with_any_other() -> None:
    from sessiontui.tui.widgets.memory_pane import shared_prefix, shared_starts

    names = [f"{engine} {spec} step_{step} c={c}" for engine in ("sglang", "sglang-dev", "vllm")
             for spec in ("eagle3", "eagle3 topk=4", "no-spec") for step in (600, 6000, 60)
             for c in (1, 4)] + ["vllm", "vllm", "sglang eagle3"]
    common = shared_starts(names)
    for name in names:
        assert common[name] == max(
            (shared_prefix(name, other) for other in names if other != name), default=0
        ), name


async def test_narrow_memory_cuts_names_with_an_ellipsis_and_no_sideways_scroll(
    tmp_path: Path, seeded: Path,
) -> None:
    with Store(seeded) as store:
        for c in (1, 4):
            store.add(Record(kind="benchmark", value=60.0 + c,
                             config=f"sglang eagle3 epoch_1_step_6000 drafter=10K tp1 c{c}"))
    app = make_app(tmp_path, seeded)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("3")
        await until(pilot, lambda: app.memory_pane.table.row_count == 7)
        names = [row[WHAT] for row in rows(app)]
        long = [name for name in names if name.startswith("sglang eagle3")]
        assert sorted(name[-2:] for name in long) == ["c1", "c4"]  # what differs stays visible
        assert all("…" in name for name in long)
        table = app.memory_pane.table
        assert table.virtual_size.width <= table.size.width


async def test_a_record_opens_in_full_and_runs_are_listed(tmp_path: Path, seeded: Path) -> None:
    from sessiontui.tui.screens.record_view import RecordView
    from sessiontui.tui.screens.run_view import RunView

    with Store(seeded) as store:
        store.add(Record(kind="run", name="drafter-v2", status="crashed", step=4229,
                         total_steps=22150, accept_length=2.41, log_path="/runs/train.log",
                         last_update="2026-11-06T10:00:00+00:00",
                         events=[{"kind": "crashed", "step": 4229, "message": "CUDA OOM"}]))
    app = make_app(tmp_path, seeded)
    async with app.run_test(size=(200, 48)) as pilot:
        await until(pilot, lambda: app.memory_pane.table.row_count == 6)
        run_row = next(row for row in rows(app) if row[1] == "run")
        assert run_row[2:4] == ["4229/22150", "τ 2.41"] and run_row[WHAT] == "drafter-v2 · crashed"
        table = app.memory_pane.table
        table.focus()
        table.move_cursor(row=[row[1] for row in rows(app)].index("run"))
        await pilot.press("enter")  # a run opens in the run view; r shows its record in full
        await until(pilot, lambda: isinstance(app.screen, RunView))
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, RecordView))
        shown = text_of(app.screen.query_one("#record-fields"))
        for expected in ("log path", "/runs/train.log", "total steps", "22150", "CUDA OOM"):
            assert expected in shown
        await pilot.press("escape")
        table.move_cursor(row=[row[WHAT] for row in rows(app)].index(
            "triton smem OutOfResources — fix: num_stages=2"))
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, RecordView))
        await pilot.press("e")  # the detail view leads to the form
        await until_form(pilot)
        assert app.screen.query_one("#field-fix").value == "num_stages=2"


async def test_another_process_s_change_shows_and_idle_reads_nothing(
    tmp_path: Path, seeded: Path,
) -> None:
    app = make_app(tmp_path, seeded)
    loads: list[int] = []
    async with app.run_test(size=(200, 48)) as pilot:
        await until(pilot, lambda: app.memory_pane.table.row_count == 5)
        original = app.memory_pane.show
        app.memory_pane.show = lambda *a: (loads.append(1), original(*a))  # type: ignore[method-assign]
        await pilot.pause(2.5)  # idle: more than two checks, no read
        assert loads == []
        with Store(seeded) as store:  # another process
            store.add(Record(kind="note", text="written by the CLI"))
        await until(pilot, lambda: app.memory_pane.table.row_count == 6)
        assert loads == [1]


async def test_a_run_s_progress_redraws_its_cells_not_the_table(
    tmp_path: Path, seeded: Path,
) -> None:
    """A followed run saves its step every few seconds: its row changes in place, the table is
    not rebuilt, and a re-read that changed nothing shown changes nothing."""
    with Store(seeded) as store:
        run = store.add(Record(kind="run", name="drafter", step=100, total_steps=1000,
                               created_at="2026-11-06T10:00:00+00:00"))
    app = make_app(tmp_path, seeded)
    async with app.run_test(size=(200, 48)) as pilot:
        await until(pilot, lambda: app.memory_pane.table.row_count == 6)
        before = rows(app)
        table = app.memory_pane.table
        rebuilds: list[int] = []
        original = table.clear
        table.clear = lambda *a, **k: (rebuilds.append(1), original(*a, **k))[1]  # type: ignore[method-assign]
        with Store(seeded) as store:
            store.update(replace(run, step=250))
        await until(pilot, lambda: "250/1000" in [row[2] for row in rows(app)])
        after = rows(app)
        changed = [i for i, (a, b) in enumerate(zip(before, after, strict=True)) if a != b]
        assert len(changed) == 1 and after[changed[0]][2] == "250/1000"
        assert rebuilds == []
        await pilot.pause()
        screen = "\n".join(strip.text for strip in app.screen._compositor.render_strips())
        assert "250/1000" in screen and "100/1000" not in screen  # drawn, not only stored
        app.memory_pane.show(app.memory_pane.records, app.memory_pane.reference)  # same records
        assert rows(app) == after and rebuilds == []


async def test_the_count_of_records_left_out_follows_the_memory(
    tmp_path: Path, seeded: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With the same rows shown, a change among the records left out still updates the
    "… N more" line (the table is updated in place, not rebuilt)."""
    monkeypatch.setattr(memory_pane, "MAX_ROWS", 2)
    app = make_app(tmp_path, seeded)
    async with app.run_test(size=(200, 48)) as pilot:
        await until(pilot, lambda: app.memory_pane.table.row_count == 3)
        pane = app.memory_pane
        assert rows(app)[-1][WHAT] == "… 3 more: filter to narrow"
        shown = rows(app)[:2]
        pane.show(pane.records[:-1], pane.reference)  # one record left out is gone
        assert rows(app)[:2] == shown and rows(app)[-1][WHAT] == "… 2 more: filter to narrow"


async def test_an_empty_memory_says_how_to_add_the_first_record(tmp_path: Path) -> None:
    app = make_app(tmp_path, tmp_path / "memory.db")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("3")
        await until(pilot, lambda: app.memory_pane.empty.display
                    and "b a benchmark" in text_of(app.memory_pane.empty))
        assert "record -- CMD" in text_of(app.memory_pane.empty)


async def test_undo_after_undo_says_there_is_nothing_left(tmp_path: Path, seeded: Path) -> None:
    app = make_app(tmp_path, seeded)
    async with app.run_test(size=(200, 48)) as pilot:
        await until(pilot, lambda: app.memory_pane.table.row_count == 5)
        app.memory_pane.table.focus()
        await pilot.press("d")
        await until(pilot, lambda: "Delete" in getattr(app.screen, "question", ""))
        await pilot.press("y")
        await until(pilot, lambda: app.memory_pane.table.row_count == 4)
        await pilot.press("u")
        await until(pilot, lambda: app.memory_pane.table.row_count == 5)
        await pilot.press("u")
        await until(pilot, lambda: any("Nothing left to undo" in n.message
                                       for n in app._notifications))


async def test_keys_typed_right_after_ctrl_f_go_into_the_filter(tmp_path: Path, seeded: Path) -> None:
    from textual import events

    app = make_app(tmp_path, seeded)
    async with app.run_test(size=(200, 48)) as pilot:
        await until(pilot, lambda: app.memory_pane.table.row_count == 5)
        app.memory_pane.table.focus()
        await pilot.pause()
        for key, char in (("ctrl+f", None), ("e", "e"), ("a", "a")):
            app.post_message(events.Key(key, char))  # one burst: no edit form opens on `e`
        await until(pilot, lambda: app.memory_pane.filter.value == "ea")
        assert not isinstance(app.screen, RecordForm)



async def test_targets_are_listed_with_their_distance(tmp_path: Path, seeded: Path) -> None:
    from sessiontui.project_memory.targets import parse_target

    with Store(seeded) as store:
        store.add(parse_target("beat 80 tok/s"))
        store.add(parse_target("1.3x speedup"))
    app = make_app(tmp_path, seeded)
    async with app.run_test(size=(200, 48)) as pilot:
        await until(pilot, lambda: app.memory_pane.table.row_count == 7)
        shown = {row[WHAT]: row for row in rows(app) if row[1] == "target"}
        value = COLUMNS.index("value")
        assert shown["beat 80 tok/s"][value] == "≥ 80.0 tok/s"
        assert shown["beat 80 tok/s"][VS] == "5.0 tok/s to go"  # best result 75.0
        assert shown["1.3x speedup"][VS] == "met"  # 75.0 over its number to beat 50.0: 1.50x
        app.memory_pane.filter.value = "kind:target"
        await pilot.pause()
        assert len(rows(app)) == 2


async def test_a_target_opens_in_its_own_form(tmp_path: Path, seeded: Path) -> None:
    from sessiontui.project_memory.targets import parse_target

    with Store(seeded) as store:
        target = store.add(parse_target("beat 80 tok/s"))
    app = make_app(tmp_path, seeded)
    async with app.run_test(size=(200, 48)) as pilot:
        await until(pilot, lambda: app.memory_pane.table.row_count == 6)
        app.memory_pane.post_message(app.memory_pane.EditRecord(target))
        await until_form(pilot)
        assert app.screen.query_one("#field-value").value == "80.0"
