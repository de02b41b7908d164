"""Sweeps: points compared with the number to beat at their own concurrency, and the crossover."""

from __future__ import annotations

import pytest

from sessiontui.project_memory.records import Record
from sessiontui.project_memory.sweeps import compare_sweep, find_sweeps

# Hand-computed: baseline and feature tok/s per concurrency, and feature / baseline.
BASELINE = {1: 100.0, 2: 180.0, 4: 300.0, 8: 500.0, 16: 800.0}
FEATURE = {1: 160.0, 2: 250.0, 4: 360.0, 8: 520.0, 16: 744.0}
RATIOS = {1: 1.6, 2: 250 / 180, 4: 1.2, 8: 1.04, 16: 0.93}


def bench(value: float, concurrency: int, *, baseline: bool = False, engine: str = "sglang",
          config: str | None = None, day: int = 1, tags: list[str] | None = None) -> Record:
    name = config or (f"{engine} no-spec c={concurrency}" if baseline else f"{engine} eagle3 c={concurrency}")
    return Record(kind="benchmark", id=f"b-{engine}{'B' if baseline else 'F'}{concurrency}",
                  config=name, value=value, concurrency=concurrency, baseline=baseline,
                  engine=engine, model="llama-8b", created_at=f"2026-11-{day:02d}T10:00:00+00:00",
                  tags=tags or [])


def baselines(engine: str = "sglang", scale: float = 1.0) -> list[Record]:
    return [bench(v * scale, c, baseline=True, engine=engine) for c, v in BASELINE.items()]


def test_the_crossover_is_stated_with_the_ratios_that_decide_it() -> None:
    [sweep] = find_sweeps([bench(v, c) for c, v in FEATURE.items()])
    comparison = compare_sweep(sweep, baselines())
    assert [p.concurrency for p in comparison.points] == [1, 2, 4, 8, 16]
    for point in comparison.points:
        assert point.ratio == pytest.approx(RATIOS[point.concurrency], rel=1e-9)
    assert (comparison.faster_up_to, comparison.slower_from) == (8, 16)
    assert comparison.summary == ("sglang eagle3 is faster up to c=8 (1.60x at c=1), "
                                  "slower from c=16 (0.93x)")


def test_each_point_meets_the_best_baseline_at_its_concurrency_whatever_its_engine() -> None:
    # vLLM's own baseline is weaker; the number to beat is SGLang's at each concurrency.
    [sweep] = find_sweeps([bench(v, c, engine="vllm") for c, v in FEATURE.items()])
    comparison = compare_sweep(sweep, baselines("sglang") + baselines("vllm", scale=0.5))
    assert [p.reference_id for p in comparison.points] == [f"b-sglangB{c}" for c in BASELINE]
    assert comparison.points[0].ratio == pytest.approx(1.6)


def test_a_feature_faster_everywhere_and_one_slower_everywhere() -> None:
    [fast] = find_sweeps([bench(v * 2, c) for c, v in BASELINE.items()])
    assert compare_sweep(fast, baselines()).slower_from is None
    assert "faster at every concurrency measured (2.00x at c=1, 2.00x at c=16)" in \
        compare_sweep(fast, baselines()).summary
    [slow] = find_sweeps([bench(v / 2, c) for c, v in BASELINE.items()])
    result = compare_sweep(slow, baselines())
    assert (result.faster_up_to, result.slower_from) == (None, 1)
    assert "slower at every concurrency measured (0.50x at c=1" in result.summary


def test_points_without_a_baseline_are_shown_but_decide_nothing() -> None:
    [sweep] = find_sweeps([bench(v, c) for c, v in FEATURE.items()] + [bench(900.0, 32)])
    comparison = compare_sweep(sweep, baselines())
    assert comparison.points[-1].concurrency == 32 and comparison.points[-1].ratio is None
    assert comparison.slower_from == 16
    assert "no baseline" in compare_sweep(sweep, []).summary


def test_sweeps_are_found_by_configuration_or_by_their_recorded_id() -> None:
    found = [bench(v, c) for c, v in FEATURE.items()]
    single = bench(50.0, 1, config="vllm other-config", engine="vllm")
    tagged = [bench(v, c, config=f"run-{c}", engine="trt", tags=["sweep:abc"])
              for c, v in {1: 10.0, 4: 30.0}.items()]
    sweeps = find_sweeps([*found, single, *tagged, *baselines()])
    assert sorted(len(s.points) for s in sweeps) == [2, 5]  # baselines and one-point groups: none
    assert {s.sweep_id for s in sweeps} == {None, "abc"}


def test_the_newest_result_stands_for_a_repeated_concurrency_and_failures_never_count() -> None:
    newest, older = bench(170.0, 1, day=5), bench(160.0, 1, day=1)
    failed = bench(999.0, 2)
    failed.status = "failed"
    [sweep] = find_sweeps([newest, older, failed, bench(300.0, 4)])
    assert [(r.concurrency, r.value) for r in sweep.points] == [(1, 170.0), (4, 300.0)]
