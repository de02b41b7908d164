"""`sessiontui ask` and `sessiontui speedup` read the same settings and print the same numbers."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "project_memory"))

from seeds import seed  # noqa: E402

from sessiontui.project_memory.records import Record  # noqa: E402
from sessiontui.project_memory.store import Store  # noqa: E402


def test_worked_example_from_the_cli(run_main, store: Store, tmp_path: Path) -> None:
    seed(store)
    (tmp_path / "sessiontui.toml").write_text("draft_overhead = 0.15\n", encoding="utf-8")
    data = json.loads(run_main("ask", "--json", "what speedup at current perf?", check=True).stdout)
    assert data["intent"] == "speedup" and 0 < data["confidence"] <= 1
    assert {"conditions", "alternatives", "records", "figures"} <= set(data)
    first, second = data["text"].splitlines()[:2]
    lines = {first.split(" ")[0], second.split(" ")[0]}
    assert lines == {"Projected", "Measured"}  # both, the more recent first
    projected = first if first.startswith("Projected") else second
    assert "at step 4216" in projected and " ago)" in projected  # the run record, with its age
    assert "calibrated 1.20x ≈ 107.7 tok/s against 90.0 tok/s; bound 2.39x (draft overhead 0.15, " \
           "your draft_overhead setting in sessiontui.toml)" in projected
    report = run_main("speedup", check=True).stdout
    assert "Theoretical bound: 2.39x ≈ 215.1 tok/s" in report and "draft_overhead setting" in report
    assert "Calibrated projection: 1.20x ≈ 107.7 tok/s" in report


def test_default_metric_governs_ask(run_main, store: Store, tmp_path: Path) -> None:
    store.add(Record(kind="benchmark", config="prefill baseline", metric="prompt_tok_s",
                     value=9100.0, unit="tok/s", baseline=True, concurrency=1, status="ok"))
    store.add(Record(kind="benchmark", config="decode baseline", value=90.0, baseline=True,
                     concurrency=1, status="ok"))
    plain = json.loads(run_main("ask", "--json", "baseline?", check=True).stdout)
    assert plain["figures"]["reference_value"] == 90.0
    (tmp_path / "sessiontui.toml").write_text('default_metric = "prompt_tok_s"\n', encoding="utf-8")
    chosen = json.loads(run_main("ask", "--json", "baseline?", check=True).stdout)
    assert chosen["figures"]["reference_value"] == 9100.0
    assert chosen["conditions"]["metric"] == "prompt_tok_s"


def test_bad_draft_overhead_is_one_line(run_cli, tmp_path: Path) -> None:
    (tmp_path / "sessiontui.toml").write_text('draft_overhead = "lots"\n', encoding="utf-8")
    result = run_cli("ask", "speedup?")
    assert result.returncode == 0 and "Traceback" not in result.stderr
    assert "draft_overhead" in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_the_followed_log_is_read_for_live_questions(run_main, store: Store, tmp_path: Path) -> None:
    from seeds import LIVE_ACC

    records = seed(store)
    store.delete(records["run"].id)  # only the log knows the drafter now
    rates = ", ".join(f"'acc_{i}': {a:.6f}" for i, a in enumerate(LIVE_ACC))
    (tmp_path / "drafter.log").write_text(
        f"step 4216: {{{rates}, 'loss': 3.12, 'lr': 8e-05}}\n", encoding="utf-8")
    (tmp_path / "sessiontui.toml").write_text(
        'logs = ["drafter.log"]\ndraft_overhead = 0.15\n', encoding="utf-8")
    data = json.loads(run_main("ask", "--json", "what speedup at current perf?", check=True).stdout)
    assert "calibrated 1.20x ≈ 107.7 tok/s against 90.0" in data["text"].splitlines()[0]
    assert data["figures"]["step"] == 4216
    run = json.loads(run_main("ask", "--json", "accept len now?", check=True).stdout)
    assert run["intent"] == "run" and run["figures"]["step"] == 4216
    assert run["text"].startswith("Accept length now ≈ 2.75 at step 4,216 (live)")


def test_a_plain_question_is_answered_as_the_parsed_one(run_main, store: Store) -> None:
    """`ask WORDS` skips the parser (cli.py's fast path); the answer is the one `ask --json` gives."""
    store.add(Record(kind="benchmark", config="sglang tp1", value=50.0, baseline=True, concurrency=1))
    store.add(Record(kind="benchmark", config="eagle3", value=80.0, accept_length=2.5, concurrency=1))
    for words in (["what's", "the", "baseline?"], ["current", "speedup?"]):
        plain = run_main("ask", *words, check=True).stdout
        parsed = json.loads(run_main("ask", "--json", *words, check=True).stdout)
        assert plain == parsed["text"] + "\n" and "50" in plain
