"""The Memory table's columns: names cut as a person would, empty columns left out, over the
demo memory and a 500-record sweep at 80 and 160 columns."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from sessiontui.project_memory.records import Record
from sessiontui.project_memory.store import Store
from sessiontui.tui.app import SessionApp
from sessiontui.tui.demo import seed_memory
from sessiontui.tui.widgets.literal import clean
from sessiontui.tui.widgets.memory_pane import fit, shared_starts, what
from tests.tui.app_fakes import HOST, TWO_GPUS, SequenceCollector, until

DEMO_NAMES = ["sglang llama-3.1-8b bf16 no-spec c=1", "vllm llama-3.1-8b bf16 no-spec c=1",
              "sglang eagle3 epoch_1_step_6000 steps=7 topk=8 draft=64 triton",
              "sglang eagle3 epoch_1_step_6000 steps=7 topk=8 draft=64 fa3",
              "vllm eagle3 epoch_1_step_6000 num_speculative_tokens=3"]


def make_app(tmp_path: Path, store_path: Path) -> SessionApp:
    return SessionApp(tmp_path, store_path=store_path, gpu_collector=SequenceCollector(TWO_GPUS),
                      host_collector=SequenceCollector(HOST), refresh_s=0.05)


def table_cells(app: SessionApp) -> tuple[list[str], list[int], list[list[str]]]:
    """The table's column labels, widths and each row's cells as text."""
    table = app.memory_pane.table
    columns = table.ordered_columns
    rows = [[cell.plain for cell in table.get_row_at(i)] for i in range(table.row_count)]
    return [str(c.label) for c in columns], [c.width for c in columns], rows


def cut_like_a_person(shown: str, name: str, width: int) -> bool:
    """A cut name keeps its first word and its end, and every `…` stands for whole words (or
    ends a name cut at its end): never `vllm…eagle3`."""
    if shown == name:
        return True
    words = name.split()
    whole_words = all(part in ("…", *words) for part in shown.split())
    return len(shown) <= width and shown.startswith(words[0][:4]) and (
        (whole_words and shown.endswith(words[-1])) or shown.endswith("…")
        or shown.endswith(name[-4:]))


def test_the_shared_middle_goes_first_and_engine_model_and_suffix_stay() -> None:
    common = shared_starts(DEMO_NAMES)
    name = DEMO_NAMES[0]
    assert fit(name, 33, common[name]) == "sglang llama-3.1-8b … no-spec c=1"  # was sg…llama…
    triton, fa3 = DEMO_NAMES[2], DEMO_NAMES[3]
    assert fit(triton, 31, common[triton]) == "sglang eagle3 … draft=64 triton"
    assert fit(fa3, 31, common[fa3]) == "sglang eagle3 … draft=64 fa3"
    vllm = DEMO_NAMES[4]
    for width in range(12, len(vllm)):
        shown = fit(vllm, width, common[vllm])
        assert len(shown) <= width and "vllm…" not in shown, shown  # never glued to a word
        assert cut_like_a_person(shown, vllm, width), shown


@pytest.mark.parametrize("size", [(80, 24), (160, 48)], ids=lambda s: f"{s[0]}x{s[1]}")
async def test_demo_memory_names_are_cut_like_a_person_would(
        tmp_path: Path, size: tuple[int, int]) -> None:
    with Store(tmp_path / "memory.db") as store:
        records = seed_memory(store)
    names = {clean(what(r)) for r in records}
    app = make_app(tmp_path, tmp_path / "memory.db")
    async with app.run_test(size=size) as pilot:
        await pilot.press("3")
        await until(pilot, lambda: app.memory_pane.table.row_count == len(records))
        labels, widths, rows = table_cells(app)
        room = widths[labels.index("what")]
        shown = [row[labels.index("what")] for row in rows]
        by_shown = {cell: [n for n in names if cut_like_a_person(cell, n, room)] for cell in shown}
        assert all(by_shown.values()), by_shown  # each cell is some name, cut like a person would
        assert len(set(shown)) == len(shown)  # no two records read the same
        table = app.memory_pane.table
        assert table.virtual_size.width <= table.size.width  # no sideways scroll
        if room >= len("sglang llama-3.1-8b … no-spec c=1"):  # room for the model: it is kept
            assert any(cell.startswith("sglang llama-3.1-8b") for cell in shown), shown


async def test_lessons_alone_leave_out_the_empty_value_and_vs_beat_columns(
        tmp_path: Path) -> None:
    with Store(tmp_path / "memory.db") as store:
        seed_memory(store)
    app = make_app(tmp_path, tmp_path / "memory.db")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("3")
        await until(pilot, lambda: app.memory_pane.table.row_count > 5)
        labels, widths, _ = table_cells(app)
        assert "value" in labels and "vs beat" in labels
        room_before = widths[labels.index("what")]
        app.memory_pane.filter.value = "kind:lesson"
        await until(pilot, lambda: app.memory_pane.table.row_count == 4)
        labels, widths, rows = table_cells(app)
        assert labels == ["kind", "date", "what"]  # value, vs beat and ★ were empty
        assert widths[labels.index("what")] > room_before
        assert all(row[0] == "lesson" for row in rows)


def sweep_records() -> list[Record]:
    """500 benchmarks of engine x model x method x setting x concurrency."""
    grid = itertools.product(
        ("sglang", "vllm", "trtllm", "sglang-dev"),
        ("llama-3.1-8b", "llama-3.1-70b", "qwen3-32b", "deepseek-v3"),
        ("bf16 no-spec", "bf16 eagle3 epoch_1_step_6000", "fp8 eagle3 epoch_0_step_2000 tree"),
        ("steps=3 topk=1", "steps=5 topk=4 draft=8", "steps=7 topk=8 draft=64"),
        ("c=1", "c=4", "c=16", "c=64"),
    )
    return [Record(kind="benchmark", config=" ".join(parts), value=100.0 + n,
                   created_at=f"2026-11-01T10:{n // 60 % 60:02d}:{n % 60:02d}+00:00")
            for n, parts in enumerate(itertools.islice(grid, 500))]


@pytest.mark.parametrize("width", [80, 160])
async def test_a_500_record_sweep_keeps_engine_and_suffix_in_every_row(
        tmp_path: Path, width: int) -> None:
    records = sweep_records()
    with Store(tmp_path / "memory.db") as store:
        store.add_all(records)
    app = make_app(tmp_path, tmp_path / "memory.db")
    async with app.run_test(size=(width, 40)) as pilot:
        await pilot.press("3")
        await until(pilot, lambda: app.memory_pane.table.row_count == 500)
        labels, widths, rows = table_cells(app)
        room = widths[labels.index("what")]
        names = {r.config: r for r in records}
        for row in rows:
            cell = row[labels.index("what")]
            engine = cell.split()[0]
            assert engine in ("sglang", "vllm", "trtllm", "sglang-dev"), cell
            assert len(cell) <= room and cell.endswith(("c=1", "c=4", "c=16", "c=64")), cell
        for n, label in enumerate(labels[:-1]):  # every column shown holds something
            assert any(row[n] for row in rows), label
        assert len(names) == 500
