"""Messages the app's workers post to the UI thread: snapshots, answers, alerts, notices."""

from __future__ import annotations

from collections.abc import Hashable
from pathlib import Path
from typing import TYPE_CHECKING

from textual.message import Message

from sessiontui.project_memory.records import Record

if TYPE_CHECKING:
    from textual.notifications import SeverityLevel

    from sessiontui.collectors.gpu import GpuSnapshot
    from sessiontui.collectors.host import HostSnapshot
    from sessiontui.collectors.remote import RemoteSnapshot
    from sessiontui.collectors.trainlog.snapshot import TrainSnapshot
    from sessiontui.project_memory.answer import Answer
    from sessiontui.project_memory.events import TrainEvent

TOAST_CHARS = 70  # a notification is one short line


def one_line(text: str, limit: int = TOAST_CHARS) -> str:
    """Text as one line of at most `limit` characters, an ellipsis where it was cut."""
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


class Latest(Message):
    """A reading where only the newest matters: a newer one with the same key replaces it."""

    key: Hashable = None

    def can_replace(self, message: Message) -> bool:
        return type(message) is type(self) and message.key == self.key


class FrameDue(Message):
    """The updates gathered for this tick are due on screen, together, in one frame."""


class GpuSampled(Latest):
    """A GPU snapshot."""

    def __init__(self, snapshot: GpuSnapshot) -> None:
        super().__init__()
        self.snapshot = snapshot


class HostSampled(Latest):
    """A host snapshot (CPU, RAM, disks, low-disk events)."""

    def __init__(self, snapshot: HostSnapshot) -> None:
        super().__init__()
        self.snapshot = snapshot


class HostsSampled(Latest):
    """Snapshots of the other hosts ([[hosts]] in sessiontui.toml), one per host."""

    def __init__(self, snapshots: tuple[RemoteSnapshot, ...]) -> None:
        super().__init__()
        self.snapshots = snapshots


class TrainSampled(Latest):
    """A changed training snapshot of one log."""

    def __init__(self, path: Path, snapshot: TrainSnapshot) -> None:
        super().__init__()
        self.key = self.path = path
        self.snapshot = snapshot


class CatchUpProgress(Latest):
    """How much of an existing log has been read (0..1) while catching up."""

    def __init__(self, path: Path, fraction: float) -> None:
        super().__init__()
        self.key = self.path = path
        self.fraction = fraction


class TrainAlert(Message):
    """A run stalled, diverged, crashed or finished; with the best matching lesson if any."""

    def __init__(self, path: Path, event: TrainEvent, lesson: Record | None) -> None:
        super().__init__()
        self.path = path
        self.event = event
        self.lesson = lesson


class MemoryChanged(Latest):
    """The memory's files changed on disk (this process's writes or another's, a sync)."""


class MemoryLoaded(Message):
    """A fresh read of the memory: benchmarks, lessons and notes, the number to beat, and
    whether it changed since the last `sessiontui sync`."""

    def __init__(self, records: list[Record], reference: Record | None, unsynced: bool = False) -> None:
        super().__init__()
        self.records = records
        self.reference = reference
        self.unsynced = unsynced


class HistoryRead(Message):
    """The ask bar's questions of earlier sessions, oldest first."""

    def __init__(self, questions: list[str]) -> None:
        super().__init__()
        self.questions = questions


class AnswerReady(Message):
    """The answer to a question from the ask bar, or why there is none."""

    def __init__(self, question: str, answer: Answer | None, error: str = "") -> None:
        super().__init__()
        self.question = question
        self.answer = answer
        self.error = error


class Notice(Message):
    """A one-line result of background work, shown as a notification (`timeout` seconds, or
    Textual's default); `reload`: the memory changed, read it again."""

    def __init__(self, text: str, severity: SeverityLevel = "information", reload: bool = False,
                 timeout: float | None = None) -> None:
        super().__init__()
        self.text = text
        self.severity: SeverityLevel = severity
        self.reload = reload
        self.timeout = timeout
