"""Pilot tests of the GPU pane with injected collectors (no NVML needed)."""

from __future__ import annotations

import signal
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import psutil

from sessiontui.collectors.gpu import GpuProcess
from sessiontui.collectors.host import HostCollector
from sessiontui.tui.app import SessionApp
from sessiontui.tui.messages import GpuSampled, HostSampled, TrainSampled
from sessiontui.tui.screens.signal_confirm import SignalConfirm
from sessiontui.tui.widgets.gauges import chart, hbar, time_axis
from sessiontui.tui.widgets.gpu_view import Form, choose_form, short_command, wrapped
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


def make_app(tmp_path: Path, *snapshots, host=None) -> SessionApp:
    return SessionApp(
        tmp_path, store_path=tmp_path / "memory.db", gpu_collector=SequenceCollector(*snapshots),
        host_collector=host or SequenceCollector(HOST), refresh_s=0.05,
    )


async def test_figures_processes_and_host_for_each_gpu(tmp_path: Path) -> None:
    app = make_app(tmp_path, TWO_GPUS)
    async with app.run_test(size=(160, 48)) as pilot:
        await until(pilot, lambda: app.gpu_pane.snapshot and app.gpu_pane.host)
        await pilot.pause()
        shown = text_of(app.gpu_pane)
        lines = shown.splitlines()
        assert lines[0].startswith(" 0 H200") and "97%" in lines[0] and "662/700W" in lines[0]
        assert "SM 1980 MHz" in lines[1] and "mem-bw 48%" in lines[1]
        gpu1 = next(line for line in lines if line.startswith(" 1 H200"))
        assert gpu1.endswith("⚠") and "⚠" not in lines[0]
        assert "⚠ sw_thermal" in shown
        row = next(line for line in lines if "4242" in line)
        assert row.split()[0] == "0" and "96.0G" in row
        assert "python train_" in row and row.endswith("…")  # cut at the pane's edge
        assert "disk /data 1234G free (34%)" in shown
        assert lines[-2].startswith("load ") and "swap" in lines[-2]


async def test_charts_use_absolute_scales(tmp_path: Path) -> None:
    steady = gpu_snapshot(gpu(0, 100.0))
    app = make_app(tmp_path, *[steady] * 25)
    async with app.run_test(size=(160, 48)) as pilot:
        await until(pilot, lambda: 0 in app.gpu_pane.history
                    and len(app.gpu_pane.history[0].util) >= 25)
        await pilot.pause()
        shown = text_of(app.gpu_pane)
        assert "util 0–100%" in shown and "memory 0–140G" in shown and "power 0–700W" in shown
        assert "now" in shown
        cell = (app.gpu_pane.size.width - 4) // 3
        util_rows = [line[cell - 4 : cell] for line in shown.splitlines()[3:9]]
        assert util_rows == ["████"] * 6  # a steady 100% fills the chart to its top


async def test_the_time_axis_reads_two_minutes_at_one_sample_a_second(tmp_path: Path) -> None:
    """Samples a little under a second apart (the tick's own jitter) still label the axis in
    round figures: `-2 min`, `-1 min`, `now`."""
    app = SessionApp(tmp_path, store_path=tmp_path / "memory.db", refresh_s=3600.0,
                     gpu_collector=SequenceCollector(gpu_snapshot(gpu(0, 50.0))),
                     host_collector=SequenceCollector(HOST))
    async with app.run_test(size=(160, 48)) as pilot:
        await until(pilot, lambda: app.gpu_pane.snapshot is not None)
        start = app.gpu_pane.snapshot.at
        for second in range(1, 40):
            app.gpu_pane.snapshot = replace(gpu_snapshot(gpu(0, 50.0)), at=start + 0.98 * second)
        axis = text_of(app.gpu_pane).splitlines()[9]
        assert axis.split()[:3] == ["-2", "min", "-1"] and axis.rstrip().endswith("now")


async def test_the_newest_chart_column_agrees_with_the_figures(tmp_path: Path) -> None:
    """A column is the mean of a few samples (two minutes fit the width); the newest column is
    the group still filling, so the chart at "now" agrees with the figure above it: a GPU that
    reads 100% charts full at once, and one that drops to 0% does not chart full at "now"."""
    app = make_app(tmp_path, gpu_snapshot(gpu(0, 0.0)))
    async with app.run_test(size=(160, 48)) as pilot:
        await until(pilot, lambda: app.gpu_pane.snapshot is not None)
        pane = app.gpu_pane
        charts = lambda: text_of(pane).splitlines()[3:9]  # noqa: E731
        cell = (pane.size.width - 4) // 3
        while pane.samples % 5:  # 24 columns of 5 samples at this width
            pane.snapshot = gpu_snapshot(gpu(0, 0.0))
        for _ in range(5):  # a column filling with 100%: full from its first sample
            pane.snapshot = gpu_snapshot(gpu(0, 100.0))
            assert charts()[0][cell - 1] == "█" and "100%" in text_of(pane).splitlines()[0]
        pane.snapshot = gpu_snapshot(gpu(0, 0.0))  # a new column, at 0%: empty at "now"
        assert charts()[0][cell - 1] == " " and charts()[0][cell - 2] == "█"
        assert " 0%" in text_of(pane).splitlines()[0]


async def test_a_gpu_at_rest_is_not_redrawn(tmp_path: Path) -> None:
    app = make_app(tmp_path, TWO_GPUS)
    async with app.run_test(size=(160, 48)) as pilot:
        await until(pilot, lambda: app.gpu_pane.snapshot and app.gpu_pane.host)
        pane, refreshes = app.gpu_pane, []
        for _ in range(130):  # fill the charts' width: from then on the picture stands still
            pane.snapshot = TWO_GPUS
        original = pane.refresh
        pane.refresh = lambda *a, **k: refreshes.append(1) or original(*a, **k)
        pane.snapshot = TWO_GPUS
        assert refreshes == []
        pane.snapshot = gpu_snapshot(gpu(0, 50.0), gpu(1, 12.0))
        assert refreshes == [1]


def test_chart_bar_and_axis_are_on_absolute_scales() -> None:
    assert chart([100.0, 100.0, 100.0], 100.0, 5, 2) == ["  ███", "  ███"]
    assert chart([0.0, 50.0], 100.0, 2, 2) == ["  ", "▁█"]  # zero is data: a floor
    assert chart([25.0], 100.0, 1, 1) == ["▂"]
    assert chart([None, 80.0], None, 2, 1) == ["  "]  # no scale known: nothing drawn
    assert chart([700.0, 79.0], 700.0, 2, 1)[0][0] == "█" and chart([79.0], 700.0, 1, 1) == ["▁"]
    assert hbar(1.0, 4) == ("████", "") and hbar(0.5, 4) == ("██", "  ")
    assert hbar(None, 3) == ("", "···")
    axis = time_axis(30, 60.0)
    assert axis.startswith("-1 min") and axis.endswith("now") and "-30 s" in axis
    assert len(axis) == 30


def test_commands_fit_the_table_and_show_whole_when_selected() -> None:
    script = "/opt/torch/.venv/bin/python3 -c \nimport torch\nx = torch.ones(8)\n"
    assert short_command(script) == "python3 -c import torch x = torch.ones(8)"
    assert wrapped(script, 26) == [
        "      /opt/torch/.venv/bin",
        "      /python3 -c ",
        "      import torch",
        "      x = torch.ones(8)",
    ]


def test_forms_fit_the_pane() -> None:
    assert choose_form(1, 76, 20, 6) == Form("chart", 6)
    assert choose_form(4, 76, 20, 6).kind == "detail"
    assert choose_form(8, 76, 20, 6).kind == "compact"
    assert choose_form(1, 40, 20, 6).kind == "detail"  # too narrow for three charts


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
        await pilot.pause()
        lines = text_of(app.gpu_pane).splitlines()
        assert lines[0] == "NVML not available: NVML Shared Library Not Found"
        assert any(line.startswith("load ") and "CPU  23%" in line for line in lines)


async def test_a_lost_gpu_raises_one_notification(tmp_path: Path) -> None:
    app = make_app(tmp_path, gpu_snapshot(gpu(0, 50.0), gpu(1, 50.0)),
                   gpu_snapshot(gpu(0, 50.0), gpu(1, 0.0, lost=True)))
    async with app.run_test(size=(160, 48)) as pilot:
        await until(pilot, lambda: app.gpu_pane.snapshot is not None
                    and app.gpu_pane.snapshot.gpus[1].lost)
        await pilot.pause(0.3)  # several more identical samples arrive
        lost = [n for n in app._notifications if "GPU 1 lost" in n.message]
        assert len(lost) == 1 and lost[0].severity == "error"
        assert any(line.startswith(" 1 H200") and "lost" in line
                   for line in text_of(app.gpu_pane).splitlines())


async def test_a_low_disk_event_is_notified_once_and_marked(tmp_path: Path) -> None:
    disk = replace(HOST.disks[0], free_gib=3.0, low=True)
    low = replace(HOST, disks=(disk,), events=("/data: 3.0 GiB free (0.1%)",))
    app = SessionApp(tmp_path, store_path=tmp_path / "memory.db",
                     gpu_collector=SequenceCollector(TWO_GPUS),
                     host_collector=SequenceCollector(HOST, low, low, low), refresh_s=0.05)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.gpu_pane.host is low)
        await pilot.pause(0.3)
        assert [n.message for n in app._notifications] == ["/data: 3.0 GiB free (0.1%)"]
        assert "⚠ disk /data 3G free (0%), low" in text_of(app.gpu_pane)


async def test_a_process_is_signalled_only_after_confirmation(tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    with log.open("w") as out:
        child = subprocess.Popen(
            [sys.executable, "-c", "import time; time.sleep(60)  # train_eagle3.py"], stdout=out
        )
    try:
        on_gpu = gpu_snapshot(gpu(0, 90.0, processes=(GpuProcess(child.pid, "python", 4096.0),)))
        app = SessionApp(tmp_path, store_path=tmp_path / "memory.db",
                         gpu_collector=SequenceCollector(on_gpu),
                         host_collector=HostCollector([tmp_path], logs=lambda: [log]),
                         refresh_s=0.05)
        async with app.run_test(size=(160, 48)) as pilot:
            await until(pilot, lambda: app.gpu_pane.host is not None
                        and child.pid in app.gpu_pane.host.processes)
            await pilot.press("1", "K")  # nothing selected: nothing to signal
            assert "Select a process first" in list(app._notifications)[-1].message
            await pilot.press("down")
            await pilot.pause()
            row = next(line for line in text_of(app.gpu_pane).splitlines() if str(child.pid) in line)
            assert row.startswith("●")  # it writes the followed log: the watched job
            unwrapped = text_of(app.gpu_pane).replace("\n      ", "")  # the full command, wrapped
            assert f"{sys.executable} -c import time; time.sleep(60)  # train_eagle3.py" in unwrapped
            await pilot.press("T")
            await until(pilot, lambda: isinstance(app.screen, SignalConfirm))
            question = str(app.screen.query_one("#signal-question").render())
            assert f"Send SIGTERM to process {child.pid}" in question
            assert "time.sleep(60)" in question and psutil.Process().username() in question
            await pilot.press("n")
            await pilot.pause()
            assert child.poll() is None  # declined: still running
            await pilot.press("T")
            await until(pilot, lambda: isinstance(app.screen, SignalConfirm))
            await pilot.press("y")
            assert child.wait(timeout=10) == -signal.SIGTERM
            await until(pilot, lambda: any("Sent SIGTERM" in n.message
                                           for n in app._notifications))
    finally:
        child.kill()
        child.wait()


def test_newer_samples_replace_queued_ones_of_the_same_source() -> None:
    a, b = Path("a.log"), Path("b.log")
    assert GpuSampled(NO_NVML).can_replace(GpuSampled(TWO_GPUS))
    assert not GpuSampled(NO_NVML).can_replace(HostSampled(HOST))
    assert TrainSampled(a, None).can_replace(TrainSampled(a, None))
    assert not TrainSampled(a, None).can_replace(TrainSampled(b, None))
