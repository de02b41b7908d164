"""`record --sweep`, `sweeps`, `compare` and `report` through the CLI's main, in-process (run_main)."""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from sessiontui.project_memory.records import Record

STUB = Path(__file__).parents[1] / "fixtures" / "sweep" / "stub_bench_serving.py"


def sweep(run_cli, values: str, *extra: str, flag: str = "--max-concurrency", value: str = "0"):
    return run_cli("record", "--json", "--sweep", f"concurrency={values}", "--",
                   sys.executable, str(STUB), flag, value, *extra)


def test_a_sweep_records_one_result_per_concurrency_with_a_shared_id(run_main) -> None:
    done = sweep(run_main, "1,2,4", "--per-stream", "100", "--scaling", "1")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    records = data["records"]
    assert [(r["concurrency"], r["value"]) for r in records] == [(1, 100.0), (2, 200.0), (4, 400.0)]
    assert all(f"sweep:{data['sweep_id']}" in r["tags"] for r in records)
    assert "--max-concurrency 4" in records[-1]["command"]
    for index, value in enumerate((1, 2, 4), 1):  # progress: which run, elapsed, ETA after one run
        assert f"sweep run {index}/3 · concurrency={value} · elapsed" in done.stderr
    assert "ETA" in done.stderr.split("sweep run 2/3")[1].splitlines()[0]


def test_the_placeholder_and_the_equals_form_take_the_value(run_main) -> None:
    done = sweep(run_main, "2,8", flag="--max-concurrency={concurrency}", value="--scaling=1")
    assert done.returncode == 0, done.stderr
    assert [r["concurrency"] for r in json.loads(done.stdout)["records"]] == [2, 8]


def test_a_command_with_nowhere_to_put_the_concurrency_is_refused_before_running(run_main) -> None:
    done = run_main("record", "--sweep", "concurrency=1,2", "--", sys.executable, str(STUB))
    assert done.returncode == 2
    assert "no --max-concurrency" in done.stderr and "sweep run" not in done.stderr
    assert run_main("record", "--sweep", "batch=1,2", "--", "true").returncode == 2


def test_a_failed_point_is_kept_as_a_failed_attempt_and_the_sweep_goes_on(run_main) -> None:
    done = sweep(run_main, "1,2,4", "--fail-at", "2")
    records = json.loads(done.stdout)["records"]
    assert [(r["concurrency"], r["status"]) for r in records] == [(1, "ok"), (2, "failed"), (4, "ok")]


def test_sweeps_state_the_crossover_against_the_baseline_sweep(run_main) -> None:
    assert sweep(run_main, "1,2,4,8", "--per-stream", "100", "--scaling", "1").returncode == 0
    baseline = run_main("record", "--baseline", "--config", "baseline", "--sweep",
                       "concurrency=1,2,4,8", "--", sys.executable, str(STUB),
                       "--max-concurrency", "0", "--per-stream", "60", "--scaling", "1.3")
    assert baseline.returncode == 0, baseline.stderr
    shown = json.loads(run_main("sweeps", "--json", check=True).stdout)["sweeps"]
    [feature] = [s for s in shown if s["points"][0]["value"] == 100.0]
    # The baseline grows faster (60 * c^1.3) than the feature (100 * c): the gain ends in between.
    ratios = {p["concurrency"]: p["ratio"] for p in feature["points"]}
    expected = {c: round(100 * c / (60 * c ** 1.3), 3) for c in (1, 2, 4, 8)}
    assert ratios == pytest.approx(expected, abs=2e-3)
    slower = min(c for c, r in expected.items() if r < 1)
    assert feature["crossover"]["slower_from"] == slower
    text = run_main("sweeps", check=True).stdout
    assert f"slower from c={slower}" in text


def test_the_report_writes_markdown_and_valid_svg_charts(run_main, tmp_path: Path) -> None:
    assert sweep(run_main, "1,2,4").returncode == 0
    out = tmp_path / "share" / "report.md"
    done = run_main("report", "--since", "7d", "-o", str(out), check=True)
    assert "wrote" in done.stdout
    text = out.read_text()
    assert "## Sweeps" in text and "![" in text and "charts/sweep-1.svg" in text
    svg = ET.parse(out.parent / "charts" / "sweep-1.svg").getroot()
    assert svg.tag == "{http://www.w3.org/2000/svg}svg"
    labels = [t.text for t in svg.iter("{http://www.w3.org/2000/svg}text")]
    assert "concurrency (log scale)" in labels and {"1", "2", "4"} <= set(labels)
    assert run_main("report", "--since", "yesterday").returncode == 2


def test_compare_needs_runs(run_main) -> None:
    assert run_main("compare", "r-1").returncode == 2
    assert run_main("compare", "r-1", "r-2").returncode == 1


def test_compare_prints_final_best_and_the_figures_at_the_same_step(run_main, store, tmp_path) -> None:
    def run(name: str, taus: list[float]) -> Record:
        milestones = [{"kind": "progress", "pct": 25 * i, "step": 1000 * i, "loss": 4.0 - i / 2,
                       "accept_length": tau} for i, tau in enumerate(taus, 1)]
        return store.add(Record(kind="run", name=name, log_path=f"/runs/{name}/train.log",
                                status="finished", step=1000 * len(taus), loss=2.0,
                                accept_length=taus[-1], milestones=milestones))

    a, b = run("v2", [1.9, 2.3, 2.72]), run("v1", [1.8, 2.1, 2.43, 2.5])
    done = run_main("compare", a.id, b.id, "--svg", str(tmp_path / "runs.svg"), check=True)
    assert "at step 3,000: τ 2.72 vs 2.43" in done.stdout
    ET.parse(tmp_path / "runs.svg")
    ET.parse(tmp_path / "runs-tau.svg")
    data = json.loads(run_main("compare", a.id, b.id, "--json", check=True).stdout)
    assert data["at_equal_step"]["accept_length"] == {"step": 3000, "values": [2.72, 2.43]}
