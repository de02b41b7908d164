"""Running a command with its output streamed, merged and saved."""

from __future__ import annotations

import io
import sys
from pathlib import Path

from sessiontui.collectors.bench_output.capture import run_and_capture


class ClosedTerminal(io.BytesIO):
    """A sink that fails like a terminal that went away."""

    def write(self, data: bytes) -> int:
        raise BrokenPipeError


def test_stdout_and_stderr_are_merged_streamed_and_saved(tmp_path: Path) -> None:
    code = "import sys; print('out', flush=True); print('err', file=sys.stderr); sys.exit(3)"
    sink = io.BytesIO()
    capture = run_and_capture([sys.executable, "-c", code], sink, tmp_path / "o" / "run.log")
    assert capture.exit_code == 3 and not capture.interrupted
    assert sorted(capture.output.split()) == [b"err", b"out"]
    assert sink.getvalue() == capture.output == capture.path.read_bytes()


def test_a_command_killed_by_a_signal_reports_128_plus_the_signal(tmp_path: Path) -> None:
    code = "import os, signal; os.kill(os.getpid(), signal.SIGKILL)"
    capture = run_and_capture([sys.executable, "-c", code], io.BytesIO(), tmp_path / "k.log")
    assert capture.exit_code == 128 + 9


def test_a_missing_program_is_exit_127_with_a_reason(tmp_path: Path) -> None:
    capture = run_and_capture([str(tmp_path / "absent")], io.BytesIO(), tmp_path / "m.log")
    assert capture.exit_code == 127 and b"cannot run" in capture.path.read_bytes()


def test_a_closed_terminal_stops_the_echo_but_not_the_saving(tmp_path: Path) -> None:
    code = "print('x' * 100000)"
    capture = run_and_capture([sys.executable, "-c", code], ClosedTerminal(), tmp_path / "c.log")
    assert capture.exit_code == 0 and capture.path.read_bytes() == b"x" * 100000 + b"\n"


def test_runs_from_a_worker_thread_too(tmp_path: Path) -> None:
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        future = pool.submit(
            run_and_capture, [sys.executable, "-c", "print(1)"], io.BytesIO(), tmp_path / "t.log"
        )
        assert future.result().output == b"1\n"
