"""Replays a recorded GPU trace as if it were live, so the demo and tests need no GPU."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

from sessiontui.collectors.gpu import GpuSnapshot

DEMO_PROCESS = "demo: "  # the start of a replayed process's name: not a process of this host
Layout = Callable[[Sequence[GpuSnapshot]], list[GpuSnapshot]]


class ReplayGpuCollector:
    """Same `sample()`/`close()` as `GpuCollector`, reading JSONL `GpuSnapshot.to_dict()` lines."""

    def __init__(self, path: str | Path, *, clock: Callable[[], float] = time.time,
                 layout: Layout | None = None) -> None:
        self._path = Path(path)
        self._clock = clock
        self._layout = layout  # turns the recorded frames into the frames replayed
        self._frames: list[GpuSnapshot] | None = None  # read by the first sample, off the UI thread
        self._reason: str | None = None
        self._next = 0

    def sample(self) -> GpuSnapshot:
        """The next recorded snapshot, stamped with the current time; loops at the end."""
        at = self._clock()
        if self._frames is None:
            self._frames, self._reason = _load(self._path)
            if self._frames and self._layout is not None:
                self._frames = self._layout(self._frames)
        if not self._frames:
            return GpuSnapshot(False, self._reason, at, None, ())
        frame = self._frames[self._next]
        self._next = (self._next + 1) % len(self._frames)
        return replace(frame, at=at)

    def close(self) -> None:
        """Nothing to release; present so callers can treat both collectors alike."""


def _load(path: Path) -> tuple[list[GpuSnapshot], str | None]:
    """Every readable snapshot in the trace; comment (`#`), blank and malformed lines are skipped."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        return [], f"GPU trace {path} not readable: {exc.strerror or exc}"
    frames = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        try:
            frames.append(GpuSnapshot.from_dict(json.loads(line)))
        except (ValueError, TypeError, KeyError, AttributeError, OverflowError):
            continue
    return frames, None if frames else f"GPU trace {path} holds no snapshots"
