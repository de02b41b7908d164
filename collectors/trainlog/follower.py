"""Follow one log file like `tail -F`: rotation, truncation and delete-then-recreate, by inode and size."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from stat import S_ISREG
from typing import BinaryIO

from sessiontui.collectors.trainlog.lines import LineBuffer
from sessiontui.collectors.trainlog.snapshot import TrainSnapshot
from sessiontui.collectors.trainlog.state import TrainState
from sessiontui.collectors.trainlog.trainer_state import is_trainer_state, trainer_state_readings

CHUNK_BYTES = 4 << 20  # one read during catch-up: big enough to be fast, small enough to stay flat
MAX_POLL_BYTES = 8 << 20  # a poll never blocks on more than this; the rest waits for the next poll
UNLIMITED = 1 << 62
TAIL_BYTES = 1 << 20  # the most a log tail reads from the end of its file
SAMPLED_ABOVE = 64 << 20  # a one-shot read of a longer log reads its end and samples the rest
END_BYTES = 1 << 20  # ... the end read whole: latest figures, rate, interval and events
SAMPLES = 256  # ... and this many windows before it, evenly spaced, for the history
SAMPLE_BYTES = 8 << 10  # ... of this many bytes each
TAIL_CHECK_BYTES = 64  # the last bytes read, looked at again before each poll: rewritten or not


class NotRegularFile(OSError):
    """The path names a FIFO, a device or a folder: a log must be a regular file."""


def open_regular(path: str | Path) -> BinaryIO:
    """Open a regular file for reading; NotRegularFile for anything else (a FIFO would block the
    open and never end, a device such as /dev/zero never ends), OSError when it cannot be read."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # a FIFO must not block the open
    if not S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise NotRegularFile(f"{path} is not a regular file: a training log must be one")
    return os.fdopen(fd, "rb")


class LogFollower:
    """One followed log: `catch_up()` once (in a worker), then `poll()` on a timer."""

    def __init__(self, path: str | Path, *, stall_after_s: float | None = None,
                 clock: Callable[[], float] = time.time) -> None:
        self.path = Path(path)
        self._clock = clock
        self._state = TrainState(str(path), stall_after_s)
        self._buffer = LineBuffer()
        self._file: BinaryIO | None = None
        self._read = 0  # bytes consumed from the open file
        self._size = 0  # size of the file at the last look
        self._stamp: tuple[int, int] | None = None  # (mtime_ns, size) of a whole-file JSON state
        self._tail = b""  # the last bytes consumed: differing there, the file was rewritten
        self._caught_up = False
        self.problem: str | None = None  # why the path is not read (not a regular file)
        self._lock = threading.Lock()
        self._latest: TrainSnapshot = self._state.snapshot(clock(), False, 0.0)

    # File handling -----------------------------------------------------------------------
    def _open(self) -> None:
        """Open the file now at the path (if any) from its start: only a regular file (a FIFO
        would block the open and a device never ends; a folder has no lines)."""
        try:
            self._file, self.problem = open_regular(self.path), None  # held open, like tail
        except NotRegularFile as exc:
            self._file, self.problem = None, str(exc)
        except OSError:
            self._file, self.problem = None, None
        self._read = 0
        self._tail = b""
        self._buffer.reset()

    def _replaced(self) -> bool:
        """Whether the path now names another file than the one we hold (rotated or recreated)."""
        try:
            assert self._file is not None  # only asked while a file is held
            held, named = os.fstat(self._file.fileno()), os.stat(self.path)
        except OSError:
            return False  # gone for now: keep the old file until a new one appears
        return held.st_nlink == 0 or (held.st_dev, held.st_ino) != (named.st_dev, named.st_ino)

    def _read_available(self, limit: int, at: float | None,
                        on_chunk: Callable[[], None] | None = None) -> None:
        """Feed up to `limit` new bytes to the state; `at=None` stamps them with the clock."""
        if self._file is None:
            self._open()
        if self._file is None:
            return
        if self._replaced():
            self._drain(at)
            self._open()
            self._state.truncated()
            if self._file is None:
                return
        size = os.fstat(self._file.fileno()).st_size
        if size < self._read or self._rewritten():  # truncated in place, maybe written again
            self._file.seek(0)
            self._read = 0
            self._tail = b""
            self._buffer.reset()
            self._state.truncated()
        self._size = size
        self._read_chunks(limit, at, on_chunk)

    def _rewritten(self) -> bool:
        """Whether the bytes just before where reading stopped changed: the file was truncated
        and written again (`python train.py > train.log` once more) between two looks."""
        if not self._tail or self._file is None:
            return False
        return os.pread(self._file.fileno(), len(self._tail), self._read - len(self._tail)) \
            != self._tail

    def _read_chunks(self, limit: int, at: float | None,
                     on_chunk: Callable[[], None] | None = None) -> None:
        """Read and feed the open file chunk by chunk, up to `limit` bytes or its end."""
        assert self._file is not None
        while limit > 0:
            data = self._file.read(min(CHUNK_BYTES, limit))
            if not data:
                break
            self._read += len(data)
            limit -= len(data)
            self._tail = (self._tail + data[-TAIL_CHECK_BYTES:])[-TAIL_CHECK_BYTES:]
            self._state.feed(self._buffer.feed(data), self._clock() if at is None else at)
            if on_chunk:
                on_chunk()

    def _drain(self, at: float | None) -> None:
        """Read what the old file still holds after it was rotated away, then let it go."""
        self._read_chunks(UNLIMITED, at)
        self._state.feed(self._buffer.flush(), self._clock() if at is None else at)
        if self._file is not None:
            self._file.close()
        self._file = None

    def _date_from_file(self) -> None:
        """Date a caught-up log's run by the file's creation time (or, where the system keeps
        none, its modification time) when the log prints no timestamps of its own."""
        try:
            stat = os.stat(self.path)
        except OSError:
            return
        self._state.date_from_file(getattr(stat, "st_birthtime", None), stat.st_mtime)

    def _reload_whole(self) -> None:
        """Re-read a whole-file JSON state (trainer_state.json) when it changed."""
        try:
            stat = os.stat(self.path)
            stamp = (stat.st_mtime_ns, stat.st_size)
            if stamp == self._stamp:
                return
            data = self.path.read_bytes()
        except OSError:
            return
        self._stamp = stamp
        state = TrainState(str(self.path), self._state.stall_after_s)
        for reading in trainer_state_readings(data):
            state.apply(reading, stat.st_mtime)
        self._state = state

    # Public API --------------------------------------------------------------------------
    def catch_up(self, on_progress: Callable[[float], None] | None = None,
                 *, final: bool = False) -> TrainSnapshot:
        """Read everything the file holds now, reporting the fraction done; `final` also takes
        an unterminated last record (a one-shot read of a finished log)."""
        with self._lock:
            if is_trainer_state(self.path.name):
                self._reload_whole()
            else:
                try:
                    mtime = os.stat(self.path).st_mtime
                except OSError:
                    mtime = self._clock()
                report = (lambda: on_progress(self._publish().progress)) if on_progress else None
                self._read_available(UNLIMITED, min(mtime, self._clock()), report)
                if final:
                    self._state.feed(self._buffer.flush(), mtime)
                if self._read:
                    self._date_from_file()
            self._caught_up = True
            snapshot = self._publish()
            if on_progress:
                on_progress(1.0)
            return snapshot

    def read_end(self) -> TrainSnapshot:
        """A one-shot read of a long log that costs the same whatever its length: the last
        END_BYTES read whole (latest figures, rate, step interval, events), and SAMPLES windows
        spread evenly before them for the charts' history (a failure or restart between the
        windows is not seen: the app's catch-up reads everything)."""
        with self._lock:
            self._open()
            if self._file is None:
                return self._publish()
            log = self._file
            size = os.fstat(log.fileno()).st_size
            at = min(os.fstat(log.fileno()).st_mtime, self._clock())
            end = max(0, size - END_BYTES)
            for sample in range(SAMPLES if end else 0):
                log.seek(sample * end // SAMPLES)
                self._feed_window(log.read(min(SAMPLE_BYTES, end - log.tell())), at, sample > 0)
            log.seek(end)
            self._feed_window(log.read(), at, end > 0)
            self._state.feed(self._buffer.flush(), at)
            self._read = self._size = size
            self._date_from_file()
            self._caught_up = True
            return self._publish()

    def _feed_window(self, data: bytes, at: float, cut: bool) -> None:
        """Feed the complete records of a window read from the middle of the log; `cut`: its
        first record began before the window and is dropped."""
        self._buffer.reset()
        block = self._buffer.feed(data)
        if cut:
            ends = [at for at in (block.find(b"\n"), block.find(b"\r")) if at >= 0]
            block = block[min(ends) + 1:] if ends else b""
        self._state.feed(block, at, window=True)

    def catch_up_in_background(
        self, on_progress: Callable[[float], None] | None = None,
        on_done: Callable[[TrainSnapshot], None] | None = None,
    ) -> threading.Thread:
        """Run `catch_up` in a daemon thread, for callers without a worker pool (`watch`);
        meanwhile `snapshot()` returns the snapshot published after each chunk."""

        def run() -> None:
            snapshot = self.catch_up(on_progress)
            if on_done:
                on_done(snapshot)

        thread = threading.Thread(target=run, name=f"catch-up {self.path.name}", daemon=True)
        thread.start()
        return thread

    def poll(self) -> TrainSnapshot:
        """Read what is new (at most MAX_POLL_BYTES), parse it and return the snapshot."""
        with self._lock:
            if is_trainer_state(self.path.name):
                self._reload_whole()
                self._caught_up = True
            else:
                self._read_available(MAX_POLL_BYTES, None)
                self._caught_up = self._caught_up or self._read >= self._size
            return self._publish()

    def snapshot(self) -> TrainSnapshot:
        """The latest snapshot without reading; never waits for a catch-up running in a worker
        (it then returns the one published after the last chunk read)."""
        if not self._lock.acquire(blocking=False):
            return self._latest
        try:
            return self._publish()
        finally:
            self._lock.release()

    def close(self) -> None:
        """Let go of the file."""
        with self._lock:
            if self._file is not None:
                self._file.close()
                self._file = None

    def _fraction(self) -> float:
        """Share of the file read so far."""
        return min(1.0, self._read / self._size) if self._size else 1.0

    def _publish(self) -> TrainSnapshot:
        """A fresh snapshot, kept for readers that must not wait."""
        snapshot = self._state.snapshot(self._clock(), self._caught_up, self._fraction())
        self._latest = replace(snapshot, problem=self.problem) if self.problem else snapshot
        return self._latest


def read_log(path: str | Path, clock: Callable[[], float] = time.time,
             stall_after_s: float | None = None) -> TrainSnapshot:
    """One-shot parse of a whole file (the CLI's `train status`), as of `clock()`."""
    follower = LogFollower(path, clock=clock, stall_after_s=stall_after_s)
    try:
        if not is_trainer_state(Path(path).name) and _size(path) > SAMPLED_ABOVE:
            return follower.read_end()
        return follower.catch_up(final=True)
    finally:
        follower.close()


def _size(path: str | Path) -> int:
    """The file's size, 0 when it cannot be looked at."""
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


def tail_lines(path: str | Path, count: int = 200) -> list[str]:
    """The last `count` lines of a log as a terminal last showed them: a progress bar's redraws
    (`\r`) leave their latest state, escape codes go. Empty when the file cannot be read."""
    from sessiontui.collectors.logtext import ANSI

    try:
        with open_regular(path) as log:
            size = log.seek(0, os.SEEK_END)
            log.seek(max(0, size - TAIL_BYTES))
            data = log.read(TAIL_BYTES)
    except OSError:
        return []
    lines = data.decode("utf-8", "replace").split("\n")
    if len(data) == TAIL_BYTES and size > TAIL_BYTES:
        lines = lines[1:]  # the first is cut
    if lines and not lines[-1]:
        lines.pop()
    return [ANSI.sub("", line.rstrip("\r").rsplit("\r", 1)[-1]) for line in lines[-count:]]
