"""A training log's crash event names its failure kind, in `train status --json` and the message."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sessiontui.collectors.trainlog import read_log
from sessiontui.tui.cli import main

CRASHES = Path(__file__).parent.parent / "fixtures" / "crash"


@pytest.mark.parametrize(
    ("name", "failure"),
    [
        ("cuda_oom.log", "cuda_oom"),
        ("cuda_oom_legacy.log", "cuda_oom"),
        ("triton_shared_memory.log", "triton_resources"),
        ("nccl_watchdog.log", "nccl_timeout"),
        ("killed.log", "host_oom"),
        ("illegal_memory_access.log", "illegal_memory_access"),
        ("device_side_assert.log", "device_assert"),
    ],
)
def test_crash_event_names_its_kind(name: str, failure: str) -> None:
    (event,) = [event for event in read_log(CRASHES / name).events if event.kind == "crashed"]
    assert event.failure == failure
    assert event.message.endswith(f"({failure})")  # what the Training card shows


def test_status_json_event_has_failure(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["train", "status", "--log", str(CRASHES / "cuda_oom.log"), "--json"]) == 0
    (event,) = json.loads(capsys.readouterr().out)["events"]
    assert event["failure"] == "cuda_oom"


def test_a_traceback_of_no_known_kind_has_none(tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    log.write_text("step 7 loss 2.5\nTraceback (most recent call last):\n"
                   '  File "train.py", line 3, in <module>\nKeyError: \'x\'\n')
    (event,) = read_log(log).events
    assert event.failure is None and event.message == "KeyError: 'x' at step 7"
