"""Host collector with the real psutil: CPU, RAM, disks and the low-disk event."""

from __future__ import annotations

import errno
import json
from pathlib import Path

import psutil

from sessiontui.collectors.host import HostCollector


def test_real_figures_are_within_the_machine(tmp_path: Path) -> None:
    collector = HostCollector([tmp_path])
    sum(i * i for i in range(200_000))  # spend some CPU so the interval is not empty
    snapshot = collector.sample()
    assert snapshot.cpu_pct is None or 0.0 <= snapshot.cpu_pct <= 100.0
    assert 0 < snapshot.mem_used_mib <= snapshot.mem_total_mib
    assert snapshot.mem_total_mib == psutil.virtual_memory().total / 2**20
    (disk,) = snapshot.disks
    usage = psutil.disk_usage(str(tmp_path))
    assert disk.path == str(tmp_path)
    assert disk.total_gib == usage.total / 2**30
    assert 0.0 <= disk.free_fraction <= 1.0


def test_cpu_share_is_measured_between_samples() -> None:
    collector = HostCollector()
    readings = []
    for _ in range(3):
        sum(i * i for i in range(300_000))
        readings.append(collector.sample().cpu_pct)
    assert any(reading is not None and reading > 0 for reading in readings)


def test_low_disk_event_names_the_path_and_free_space(tmp_path: Path) -> None:
    free = psutil.disk_usage(str(tmp_path)).free / 2**30
    snapshot = HostCollector([tmp_path], low_disk_gib=free * 2 + 1).sample()
    (event,) = snapshot.events
    assert event.startswith(f"low disk: {tmp_path} ")
    assert "GiB free (" in event and event.endswith("%)")


def test_roomy_disk_raises_no_event(tmp_path: Path) -> None:
    snapshot = HostCollector([tmp_path], low_disk_gib=0, low_disk_fraction=0).sample()
    assert snapshot.events == ()


def test_missing_log_folder_uses_its_parents_disk(tmp_path: Path) -> None:
    snapshot = HostCollector([tmp_path / "not" / "yet" / "made"]).sample()
    (disk,) = snapshot.disks
    assert disk.total_gib == psutil.disk_usage(str(tmp_path)).total / 2**30
    assert snapshot.unavailable == {}


def test_paths_on_one_disk_are_listed_once(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    snapshot = HostCollector([tmp_path / "a", tmp_path / "b"]).sample()
    assert [disk.path for disk in snapshot.disks] == [str(tmp_path / "a")]


def test_failing_disk_is_not_available_not_an_error(tmp_path: Path, monkeypatch) -> None:
    def dead_mount(path: str) -> None:
        raise OSError(errno.EIO, "Input/output error")  # what a hung NFS mount gives

    monkeypatch.setattr(psutil, "disk_usage", dead_mount)
    snapshot = HostCollector([tmp_path]).sample()
    assert snapshot.disks == ()
    assert snapshot.unavailable == {f"disk {tmp_path}": "Input/output error"}
    assert snapshot.to_dict() == json.loads(json.dumps(snapshot.to_dict()))


def test_load_swap_and_a_gpu_process_seen_from_the_host(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    log = tmp_path / "train.log"
    with log.open("w") as out:
        job = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"], stdout=out)
    try:
        collector = HostCollector([tmp_path], logs=lambda: [log])
        first = collector.sample([job.pid, os.getpid()])
        sum(i * i for i in range(300_000))
        second = collector.sample([job.pid, os.getpid()])
    finally:
        job.kill()
        job.wait()
    assert second.load_avg is not None and len(second.load_avg) == 3
    assert second.swap_total_mib is not None and second.swap_total_mib >= 0
    child, me = second.processes[job.pid], second.processes[os.getpid()]
    assert first.processes[job.pid].cpu_pct is None  # a rate needs two readings
    assert child.follows_log and not me.follows_log
    assert "time.sleep(30)" in child.command
    assert child.user == psutil.Process().username()
    assert me.cpu_pct is not None and me.cpu_pct > 0
    assert me.rss_mib > 1 and abs(me.started_at - psutil.Process().create_time()) < 0.01
    json.dumps(second.to_dict())
    assert collector.sample([]).processes == {}


def test_signal_goes_only_to_the_process_that_was_seen() -> None:
    import signal
    import subprocess
    import sys

    from sessiontui.collectors.processes import signal_process

    job = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    started = psutil.Process(job.pid).create_time()
    assert "exited" in signal_process(job.pid, started - 5, "SIGTERM")  # another process's PID
    assert job.poll() is None
    assert signal_process(job.pid, started, "SIGTERM") is None
    assert job.wait(timeout=10) == -signal.SIGTERM
    assert "exited" in signal_process(job.pid, started, "SIGKILL")
