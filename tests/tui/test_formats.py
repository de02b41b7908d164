"""One formatter per kind of figure, used by cards, charts and tables: a figure keeps its shape
from one sample to the next (loss 3.78 then 3.70, never 3.7; ranges 3.80–6.82 then 3.71–6.82)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from sessiontui.project_memory.humanize import percent, rate, ratio, significant
from sessiontui.project_memory.records import Record
from sessiontui.project_memory.store import Store
from sessiontui.tui.app import SessionApp
from sessiontui.tui.widgets.fmt import compact
from tests.tui.app_fakes import (
    HOST,
    TWO_GPUS,
    SequenceCollector,
    followers,
    specforge_run,
    text_of,
    until,
)


def test_three_significant_figures_keep_their_zeros_and_width() -> None:
    assert [significant(v) for v in (3.78, 3.7, 3.713, 6.82)] == ["3.78", "3.70", "3.71", "6.82"]
    assert [significant(v) for v in (0.412, 12.345, 9.996, 0.0)] == ["0.412", "12.3", "10.0", "0.00"]
    assert significant(1e-4) == "1.00e-04" and significant(2.5e7) == "2.50e+07"
    assert significant(None) == "—" and significant(float("nan")) == "nan"
    losses = [3.0 + n / 97 for n in range(100)]  # 3.00 … 4.02: one width throughout
    assert {len(significant(v)) for v in losses} == {4}
    assert compact(3.7) == significant(3.7)  # the panes' formatter is the domain's


def test_rates_ratios_and_percentages_have_one_shape_each() -> None:
    assert [rate(v) for v in (7.14, 7.272, 212.4, 12345.6)] == ["7.14", "7.27", "212.4", "12346"]
    assert [ratio(v) for v in (1.5, 0.9036, None)] == ["1.50x", "0.90x", "—"]
    assert [percent(v) for v in (97.4, 0.0, None)] == ["97%", "0%", "—"]


async def test_card_chart_range_and_table_use_the_formatters(tmp_path: Path) -> None:
    with Store(tmp_path / "memory.db") as store:
        store.add(Record(kind="benchmark", config="sglang tp1 c1", value=212.4, baseline=True))
        store.add(Record(kind="benchmark", config="eagle3 topk4 c1", value=318.6))
    log = tmp_path / "train.log"
    run = specforge_run(str(log), 1200)
    history = dict(run.history, loss=((100, 6.82), (600, 4.2), (1200, 3.7)))
    snapshot = replace(run, loss=3.7, history=history)
    app = SessionApp(tmp_path, store_path=tmp_path / "memory.db", log_paths=[log],
                     gpu_collector=SequenceCollector(TWO_GPUS),
                     host_collector=SequenceCollector(HOST), refresh_s=0.05,
                     follower_factory=followers(**{"train.log": [snapshot]}))
    async with app.run_test(size=(160, 48)) as pilot:
        await until(pilot, lambda: app.training_pane.cards
                    and "step 1200" in text_of(next(iter(app.training_pane.cards.values()))))
        card = text_of(next(iter(app.training_pane.cards.values())))
        assert "loss 3.70" in card and "3.70–6.82" in card
        await until(pilot, lambda: app.memory_pane.table.row_count == 3)  # with the run
        cells = [[c.plain for c in app.memory_pane.table.get_row_at(i)] for i in range(3)]
        assert any("212.4 tok/s" in row and "1.00x" in row for row in cells)
        assert any("318.6 tok/s" in row and "1.50x" in row for row in cells)
