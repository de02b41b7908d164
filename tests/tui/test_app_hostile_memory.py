"""The app on a memory full of hostile but storable records (markup, control sequences, huge
and tiny figures, long and multi-line text, odd run tables, an invalid row) starts, lists,
filters, shows, answers and exports without an error."""

from __future__ import annotations

import json
from pathlib import Path

from sessiontui.project_memory.records import Record
from sessiontui.project_memory.store import Store
from sessiontui.tui.app import SessionApp
from tests.tui.app_fakes import HOST, TWO_GPUS, SequenceCollector, text_of, until

MARKUP = "[bold red]x[/] [link=file:///etc/passwd]y[/link] [ unclosed [/] \\[z]"
CONTROLS = "clear\x1b[2J title\x1b]0;pwned\x07 clip\x1b]52;c;aGk=\x07 csi\x9b31m \x00nul"


def hostile_records() -> list[Record]:
    long_text = "word " * 20_000
    return [
        Record("benchmark", config=MARKUP, value=1e-300, baseline=True, concurrency=1,
               notes=CONTROLS, metric=MARKUP),
        Record("benchmark", config=f"a\nb\tc{CONTROLS}", value=1e12, accept_length=1000.0,
               concurrency=10**9, figures={"ttft_ms": 0.0, MARKUP: 1e12}),
        Record("benchmark", config="failed " + MARKUP, status="failed", value=None),
        Record("lesson", title=MARKUP, symptom=CONTROLS, cause=long_text, fix="\n" * 50,
               signature=MARKUP, tags=[MARKUP, CONTROLS]),
        Record("note", text=f"{long_text}\n{MARKUP}\n{CONTROLS}"),
        Record("target", title=MARKUP, metric="accept_length", value=1000.0),
        Record("target", title=CONTROLS, metric="output_tok_s", value=1e-300, concurrency=1),
        Record("run", name=MARKUP, log_path=f"/nonexistent/{CONTROLS}", status="running",
               step=-5, total_steps=0, loss=-1e300, lr=1e300, acc=[0.0, 1e300], eta_s=-1.0,
               accept_length=0.0,
               milestones=[{"kind": "progress", "pct": 5, "step": 1, "loss": None, "acc": []},
                           {"kind": "eval", "step": 2, "metrics": {MARKUP: 1.0}}],
               events=[{"kind": "crashed", "message": MARKUP, "line": CONTROLS,
                        "lessons": ["l-gone"], "context": [MARKUP]}]),
    ]


async def test_the_app_survives_a_hostile_memory(tmp_path: Path) -> None:
    path = tmp_path / "memory.db"
    with Store(path) as store:
        for record in hostile_records():
            store.add(record)
        bad = store.add(Record("note", text="to be poisoned"))
        body = json.dumps({**bad.to_dict(), "created_at": "yesterday", "kind": "evil"})
        store._db.execute("UPDATE records SET body = ? WHERE id = ?", (body, bad.id))
    app = SessionApp(tmp_path, store_path=path, gpu_collector=SequenceCollector(TWO_GPUS),
                     host_collector=SequenceCollector(HOST), refresh_s=0.05)
    async with app.run_test(size=(160, 48)) as pilot:
        await until(pilot, lambda: app.memory_pane.table.row_count >= 6)
        for question in ("what's the baseline?", "current speedup?", "how is the run?",
                         "targets", MARKUP, CONTROLS, "x" * 5000):
            await pilot.press("slash")
            await pilot.press("ctrl+a", "ctrl+k")
            app.focused.value = question  # type: ignore[union-attr]
            await pilot.press("enter")
            await until(pilot, lambda q=question: text_of(app.answer_panel._text).startswith(f"? {q[:5]}"))
        for row in range(app.memory_pane.table.row_count):
            app.memory_pane.table.move_cursor(row=row)
            await pilot.pause()
        await pilot.pause(0.3)
        errors = [n.message for n in app._notifications if n.severity == "error"]
        assert not errors, errors
        assert app.is_running
