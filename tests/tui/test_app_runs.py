"""The app follows real logs through the RunWatcher: a crash is announced once, with its lesson,
and a relaunched app on the crashed log says nothing again."""

from __future__ import annotations

import shutil
from pathlib import Path

from sessiontui.project_memory.records import Record
from sessiontui.project_memory.store import Store
from sessiontui.tui.app import SessionApp
from tests.tui.app_fakes import HOST, TWO_GPUS, SequenceCollector, text_of, until

CRASH = Path(__file__).parent.parent / "fixtures" / "crash"


def app_on(tmp_path: Path, log: Path) -> SessionApp:
    """The app following a real log with the real follower (no fakes between log and memory)."""
    return SessionApp(
        tmp_path, store_path=tmp_path / "memory.db", gpu_collector=SequenceCollector(TWO_GPUS),
        host_collector=SequenceCollector(HOST), log_paths=[log], refresh_s=0.05,
    )


def crash_alerts(app: SessionApp) -> list[str]:
    return [n.message for n in app._notifications if "crashed" in n.message]


async def test_relaunched_app_on_a_crashed_log_alerts_once(tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    shutil.copy(CRASH / "triton_shared_memory.log", log)
    with Store(tmp_path / "memory.db") as store:
        store.add(Record("lesson", title="Triton RMSNorm shared-memory OOM at long seq_len",
                         symptom="OutOfResources shared memory at seq_len 16384",
                         fix="train at seq_len 8192 with batch_size=8 packing"))
    app = app_on(tmp_path, log)
    async with app.run_test(size=(160, 48)) as pilot:
        await until(pilot, lambda: bool(crash_alerts(app)))
        [alert] = crash_alerts(app)
        assert "Seen before: Triton RMSNorm shared-memory OOM" in alert
        assert "seq_len 8192" in alert
    again = app_on(tmp_path, log)
    async with again.run_test(size=(160, 48)) as pilot:
        await until(pilot, lambda: log in again.training_pane.cards
                    and "crashed" in text_of(again.training_pane.cards[log]))
        await pilot.pause(0.3)
        assert crash_alerts(again) == []
    with Store(tmp_path / "memory.db") as store:
        [run] = store.list("run")
        assert run.status == "crashed" and len(run.events) == 1
