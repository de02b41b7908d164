"""End to end: `sessiontui record --sweep` in a real terminal, against a stub that prints SGLang's
own result block, shows its progress and stores the sweep; `sweeps` then states the crossover."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from tmux_session import TmuxSession, tmux_available  # noqa: E402

pytestmark = pytest.mark.skipif(not tmux_available(), reason="tmux is not installed")
INSTALLED = Path(sys.executable).parent / "sessiontui"
STUB = Path(__file__).parents[1] / "fixtures" / "sweep" / "stub_bench_serving.py"
DEADLINE_S = 90  # generous for a loaded CI runner; not a timing assertion


def test_a_sweep_in_a_terminal_shows_progress_and_is_answered_by_sweeps(tmp_path: Path) -> None:
    env = {"SESSIONTUI_DIR": str(tmp_path / "memory")}
    baseline = [str(INSTALLED), "record", "--baseline", "--sweep", "concurrency=1,2,4", "--",
                sys.executable, str(STUB), "--max-concurrency", "0", "--per-stream", "100"]
    feature = [str(INSTALLED), "record", "--sweep", "concurrency=1,2,4", "--", sys.executable,
               str(STUB), "--max-concurrency", "0", "--per-stream", "150", "--scaling", "0.4"]
    script = " && ".join(" ".join(f"'{part}'" for part in cmd) for cmd in (baseline, feature))
    done = tmp_path / "done"
    session = TmuxSession(["sh", "-c", f"{script} && '{INSTALLED}' sweeps; touch '{done}'; sleep 60"],
                          width=120, height=40, env=env)
    try:
        session.start()
        assert session.wait_for(lambda _: done.exists(), timeout_s=DEADLINE_S), session.screen()
        screen = session.tmux("capture-pane", "-p", "-J", "-S", "-", "-t", "app")  # with scrollback
        assert "sweep run 3/3 · concurrency=4" in screen
        assert "stored 3 record(s) from 3 of 3 runs" in screen
        # 150·c^0.4 against 100·c^0.8: 1.50x at c=1, 1.14x at c=2, 0.86x at c=4.
        assert "faster up to c=2 (1.50x at c=1), slower from c=4 (0.86x)" in screen
    finally:
        session.close()
