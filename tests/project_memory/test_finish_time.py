"""ETAs for people: a local clock time with its day word, and the span from now."""

from __future__ import annotations

import time
from datetime import datetime

import pytest

from sessiontui.project_memory.humanize import finish_time


@pytest.fixture(autouse=True)
def utc(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()


NOW = datetime.fromisoformat("2026-11-06T22:52:00+00:00").timestamp()  # a Friday night


@pytest.mark.parametrize(("seconds", "start", "expected"), [
    (9600, None, "01:32 tomorrow, in 2 h 40 min"),
    (600, None, "23:02 tonight, in 10 min"),
    (600, NOW - 3600, "22:02 tonight, 50 min ago"),  # from the log's last step, an hour ago
    (3 * 86400, None, "22:52 Mon, in 72 h 00 min"),
    (30 * 86400, None, "22:52 Dec 06, in 720 h 00 min"),
])
def test_a_finish_reads_as_a_local_time_and_a_span(seconds, start, expected) -> None:
    assert finish_time(seconds, start, now=NOW) == expected


def test_morning_is_today_and_unknowns_are_a_dash() -> None:
    morning = datetime.fromisoformat("2026-11-06T08:00:00+00:00").timestamp()
    assert finish_time(3600, now=morning) == "09:00 today, in 1 h 00 min"
    assert finish_time(None) == finish_time(float("nan")) == finish_time(-5) == "—"
