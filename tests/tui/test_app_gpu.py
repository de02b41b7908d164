"""Pilot tests of the GPU pane with injected collectors (no NVML needed)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from sessiontui.tui.app import SessionApp
from sessiontui.tui.messages import GpuSampled, HostSampled, TrainSampled
from sessiontui.tui.widgets.spark import BARS, spark
from tests.tui.app_fakes import (
    HOST,
    NO_NVML,
    TWO_GPUS,
    SequenceCollector,
    gpu,
    gpu_snapshot,
    text_of,
    until,
)


def make_app(tmp_path: Path, *snapshots) -> SessionApp:
    return SessionApp(
        tmp_path, store_path=tmp_path / "memory.db", gpu_collector=SequenceCollector(*snapshots),
        host_collector=SequenceCollector(HOST), refresh_s=0.05,
    )


async def test_a_line_per_gpu_with_figures_processes_and_host(tmp_path: Path) -> None:
    app = make_app(tmp_path, TWO_GPUS)
    async with app.run_test(size=(160, 48)) as pilot:
        await until(pilot, lambda: app.gpu_pane.snapshot and app.gpu_pane.host)
        lines = text_of(app.gpu_pane).splitlines()
        assert lines[0].startswith(" 0 NVIDIA H200") and "97%" in lines[0] and "700W" in lines[0]
        assert lines[1].startswith(" 1 NVIDIA H200") and lines[1].endswith("⚠")
        assert "⚠" not in lines[0] and lines[2] == "⚠ throttled: GPU1 sw_thermal"
        shown = "\n".join(lines)
        assert "4242" in shown and "python train_eagle3.py" in shown
        assert "/data 1234G free" in shown


async def test_sparklines_follow_the_samples(tmp_path: Path) -> None:
    app = make_app(tmp_path, gpu_snapshot(gpu(0, 10.0)), gpu_snapshot(gpu(0, 50.0)),
                   gpu_snapshot(gpu(0, 90.0)))
    async with app.run_test(size=(160, 48)) as pilot:
        await until(pilot, lambda: len(app.gpu_pane.util.get(0, ())) >= 3)
        assert list(app.gpu_pane.util[0])[:3] == [10.0, 50.0, 90.0]
        await pilot.pause()
        first = text_of(app.gpu_pane).splitlines()[0]
        assert spark([10.0, 50.0, 90.0], 3) in first


def test_spark_scales_and_decimates() -> None:
    assert spark([0.0, 50.0, 100.0], 10) == BARS[0] + BARS[4] + BARS[-1]
    assert spark([5.0, 5.0], 10) == BARS[0] * 2
    wide = spark([float(v) for v in range(1000)], 20)
    assert len(wide) == 20 and wide[0] == BARS[0] and wide[-1] == BARS[-1]
    assert spark([1.0, float("nan"), 3.0], 5) == BARS[0] + BARS[-1]
    assert spark([], 5) == "" and spark([1.0], 0) == ""


async def test_no_nvml_says_why_and_the_rest_keeps_working(tmp_path: Path) -> None:
    app = make_app(tmp_path, NO_NVML)
    async with app.run_test(size=(160, 48)) as pilot:
        await until(pilot, lambda: app.gpu_pane.snapshot is not None and app.gpu_pane.host)
        lines = text_of(app.gpu_pane).splitlines()
        assert lines[0] == "NVML not available: NVML Shared Library Not Found"
        assert lines[-1].startswith("host CPU 23%")


async def test_a_lost_gpu_raises_one_notification(tmp_path: Path) -> None:
    app = make_app(tmp_path, gpu_snapshot(gpu(0, 50.0), gpu(1, 50.0)),
                   gpu_snapshot(gpu(0, 50.0), gpu(1, 0.0, lost=True)))
    async with app.run_test(size=(160, 48)) as pilot:
        await until(pilot, lambda: app.gpu_pane.snapshot is not None
                    and app.gpu_pane.snapshot.gpus[1].lost)
        await pilot.pause(0.3)  # several more identical samples arrive
        lost = [n for n in app._notifications if "GPU 1 lost" in n.message]
        assert len(lost) == 1 and lost[0].severity == "error"
        assert "lost" in text_of(app.gpu_pane).splitlines()[1]


async def test_a_low_disk_event_is_notified_once(tmp_path: Path) -> None:
    low = replace(HOST, events=("/data: 3.0 GiB free (0.1%)",))
    app = SessionApp(tmp_path, store_path=tmp_path / "memory.db",
                     gpu_collector=SequenceCollector(TWO_GPUS),
                     host_collector=SequenceCollector(HOST, low, low, low), refresh_s=0.05)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.gpu_pane.host is low)
        await pilot.pause(0.3)
        assert [n.message for n in app._notifications] == ["/data: 3.0 GiB free (0.1%)"]


def test_newer_samples_replace_queued_ones_of_the_same_source() -> None:
    a, b = Path("a.log"), Path("b.log")
    assert GpuSampled(NO_NVML).can_replace(GpuSampled(TWO_GPUS))
    assert not GpuSampled(NO_NVML).can_replace(HostSampled(HOST))
    assert TrainSampled(a, None).can_replace(TrainSampled(a, None))
    assert not TrainSampled(a, None).can_replace(TrainSampled(b, None))
