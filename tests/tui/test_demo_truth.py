"""The demo reads true: its GPU processes keep their GPU and PID, power agrees with utilisation,
`K` on a demo process says signals are disabled, and the log carries what a real log carries."""

from __future__ import annotations

from pathlib import Path

from sessiontui.collectors.gpu_replay import DEMO_PROCESS
from sessiontui.collectors.trainlog.follower import read_log
from sessiontui.tui.app import SessionApp
from sessiontui.tui.demo import IDLE_W, planned_demo
from sessiontui.tui.demo_log import Curve, TrainingLogWriter
from sessiontui.tui.screens.signal_confirm import SignalConfirm
from tests.tui.app_fakes import HOST, SequenceCollector, until


def test_demo_processes_keep_their_gpu_and_pid_and_power_agrees_with_load(
        tmp_path: Path) -> None:
    replay = planned_demo(tmp_path / "demo").gpu_collector()
    frames = [replay.sample() for _ in range(3 * 60)]  # three loops of the recording
    homes: dict[int, set[int]] = {}
    for frame in frames:
        assert [gpu.index for gpu in frame.gpus] == [0, 1, 2, 3]
        for gpu in frame.gpus:
            for process in gpu.processes:
                homes.setdefault(process.pid, set()).add(gpu.index)
                assert process.name.startswith(DEMO_PROCESS)
            if not gpu.util_pct:  # 0% reads as idle power, not the 404 W a stop leaves behind
                assert gpu.power_w is not None and gpu.power_w < IDLE_W, gpu
    assert all(len(gpus) == 1 for gpus in homes.values()), homes
    training = [pid for frame in frames for pid in (p.pid for p in frame.gpus[0].processes)]
    assert len(set(training)) == 1 and len(training) == len(frames)  # one rank, the whole run
    utils = [gpu.util_pct or 0 for frame in frames for gpu in frame.gpus]
    assert min(utils) == 0 and max(utils) > 90  # still lively: loads start and stop on GPU 2


async def test_k_on_a_demo_process_says_signals_are_disabled(tmp_path: Path) -> None:
    demo = planned_demo(tmp_path / "demo")
    app = SessionApp(tmp_path, store_path=tmp_path / "memory.db",
                     gpu_collector=demo.gpu_collector(), host_collector=SequenceCollector(HOST),
                     refresh_s=0.05)
    async with app.run_test(size=(120, 40)) as pilot:
        await until(pilot, lambda: app.gpu_pane.snapshot is not None and app.gpu_pane.rows())
        await pilot.press("1", "home", "K")
        await until(pilot, lambda: any("signals are disabled" in n.message
                                       for n in app._notifications))
        assert "demo process: signals are disabled in the demo" in [
            n.message for n in app._notifications]
        assert not isinstance(app.screen, SignalConfirm)


def test_the_demo_log_carries_grad_norm_and_lr_as_the_real_formats_do(tmp_path: Path) -> None:
    curve = Curve(total_steps=400, epochs=2)
    for style, key in (("train_eagle3", "grad_norm"), ("specforge", "lr")):
        writer = TrainingLogWriter(tmp_path / f"{style}.log", curve=curve, style=style)
        writer.write_history(150)
        snapshot = read_log(writer.path)
        assert getattr(snapshot, key) is not None, (style, snapshot)
        assert snapshot.step == 150


def test_a_steady_load_leaves_the_charts_unchanged_and_a_change_shows_at_once() -> None:
    from sessiontui.tui.widgets.gpu_pane import GpuHistory
    from tests.tui.app_fakes import gpu

    history = GpuHistory()
    for util in (97.0, 98.0, 97.0, 98.0, 97.0, 98.0, 97.5):  # two whole groups of 3, then 1 more
        history.add(gpu(0, util))
    tops, rows = (100.0, 143771.0, 700.0), 7
    steady = history.columns(4, 3, 1, tops, rows)
    assert steady.util[-1] == steady.util[-2]  # within a cell: drawn as the column before it
    history.add(gpu(0, 0.0))  # the load stops: the still-filling column shows it at once
    changed = history.columns(4, 3, 2, tops, rows)
    assert changed.util[-1] == 48.75 and changed.util[-2] != changed.util[-1]
