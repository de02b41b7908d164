"""`sessiontui speedup` through the CLI's main (run_main), against a private project memory."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sessiontui.project_memory.records import Record
from sessiontui.project_memory.store import Store

CONTRACT_KEYS = (
    "accept_length", "theoretical_speedup", "theoretical_value", "calibrated_speedup",
    "calibrated_value", "breakeven_accept_length", "cost_factor", "baseline_value",
    "assumptions", "sources",
)


@pytest.fixture
def worked(memory_dir: Path) -> dict[str, str]:
    """The issue's worked example stored as benchmarks: baseline 50, a drafter at 1.8 / 40."""
    with Store(memory_dir / "memory.db") as store:
        base = store.add(Record(kind="benchmark", config="SGLang baseline", value=50,
                                baseline=True, engine="sglang", concurrency=1,
                                created_at="2026-01-01T00:00:00+00:00"))
        spec = store.add(Record(kind="benchmark", config="SGLang EAGLE-3 v1", value=40,
                                accept_length=1.8, engine="sglang", concurrency=1,
                                created_at="2026-01-05T00:00:00+00:00"))
    return {"baseline": base.id, "calibration": spec.id}


def test_json_matches_the_worked_examples(run_main, worked) -> None:
    out = run_main("speedup", "--simulated-acc-len", "1.4", "--draft-overhead", "0.10", "--json",
                  check=True)
    report = json.loads(out.stdout)
    for key in CONTRACT_KEYS:
        assert key in report
    assert report["accept_length"] == pytest.approx(2.4)
    assert round(report["theoretical_speedup"], 2) == 2.18
    assert round(report["theoretical_value"], 1) == 109.1
    assert report["cost_factor"] == pytest.approx(2.25)
    assert report["breakeven_accept_length"] == pytest.approx(2.25)
    assert round(report["calibrated_value"], 1) == 53.3
    assert round(report["calibrated_speedup"], 2) == 1.07
    assert report["baseline_value"] == 50
    assert report["calibration_id"] == worked["calibration"]
    assert report["calibration_date"] == "2026-01-05"
    assert any(worked["baseline"] in s for s in report["sources"])


def test_readable_output_shows_the_arithmetic(run_main, worked) -> None:
    out = run_main("speedup", "--acc", "0.8,0.6,0.5", "--draft-overhead", "0.1", check=True).stdout
    assert "1 + 0.1" in out and "k = 1.8 x 50.0 / 40.0 = 2.25" in out
    assert "50.0 x 2.52 / 2.25 = 56.0" in out
    assert "Verdict: above break-even by 0.27 accept length" in out
    assert worked["calibration"] in out


def test_empty_memory_gives_nulls_with_reasons(run_main, memory_dir: Path) -> None:
    report = json.loads(run_main("speedup", "--acc", "0.7", "--json", check=True).stdout)
    assert report["accept_length"] == pytest.approx(1.7)
    assert report["baseline_value"] is None and report["calibrated_value"] is None
    assert any("no baseline" in a for a in report["assumptions"])
    assert not (memory_dir / "memory.db").exists()  # asking never creates a memory


def test_explicit_calibration_without_memory(run_main) -> None:
    report = json.loads(run_main(
        "speedup", "--simulated-acc-len", "1.4", "--baseline-value", "50",
        "--calibrate-accept", "1.8", "--calibrate-value", "40", "--json", check=True,
    ).stdout)
    assert round(report["calibrated_value"], 1) == 53.3 and report["cost_factor"] == 2.25


@pytest.mark.parametrize(
    "args",
    [
        ("--calibrate-accept", "1.8"),
        ("--acc", "0.8,1.3"),
        ("--acc", "0.8", "--simulated-acc-len", "1.0"),
        ("--acc", "0.8,x"),
        ("--baseline-value", "0"),
        ("--acc", "0.8", "--depth", "0"),
    ],
)
def test_bad_input_is_one_line_and_nonzero(run_main, args) -> None:
    out = run_main("speedup", *args)
    assert out.returncode != 0
    assert "Traceback" not in out.stderr and out.stderr.strip()
    assert out.stdout == ""


# `specforge train` (SpecForge 2026) step lines: `step N: {'acc_0': .., 'ploss_0': .., 'acc': ..}`,
# laid out as FORMATS.md records them; acc_i are conditional per-position accuracies.
SPECFORGE_LOG = (
    "step 100: {'acc_0': 0.71, 'acc_1': 0.55, 'acc_2': 0.48, 'ploss_0': 1.2, 'ploss_1': 1.5, "
    "'ploss_2': 1.7, 'acc': 0.58, 'loss': 4.4, 'lr': 0.0001, "
    "'perf/optimizer_steps_per_hour': 900.0}\n"
    "step 200: {'acc_0': 0.8, 'acc_1': 0.6, 'acc_2': 0.5, 'ploss_0': 1.0, 'ploss_1': 1.3, "
    "'ploss_2': 1.5, 'acc': 0.63, 'loss': 3.8, 'lr': 0.0001, "
    "'perf/optimizer_steps_per_hour': 910.0}\n"
)


def test_latest_acceptance_from_a_specforge_log(run_main, worked, tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    log.write_text(SPECFORGE_LOG)
    report = json.loads(run_main("speedup", "--log", str(log), "--json", check=True).stdout)
    assert report["step"] == 200 and report["acc"] == [0.8, 0.6, 0.5]
    assert report["accept_length"] == pytest.approx(2.52)
    assert report["calibrated_value"] == pytest.approx(50 * 2.52 / 2.25)
    assert any(str(log) in s for s in report["sources"])


def test_followed_log_comes_from_sessiontui_toml(run_main, worked, tmp_path: Path) -> None:
    (tmp_path / "train.log").write_text(SPECFORGE_LOG)
    (tmp_path / "sessiontui.toml").write_text('logs = ["train.log"]\n')
    report = json.loads(run_main("speedup", "--json", check=True).stdout)
    assert report["accept_length"] == pytest.approx(2.52) and report["step"] == 200
