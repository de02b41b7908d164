"""The tick the feeds wake on, and the frame the UI draws for each tick's updates."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable

from textual.message import Message

from sessiontui.tui.messages import FrameDue

COALESCE_S = 0.05  # updates arriving this close together are drawn in one frame


def until_tick(period_s: float) -> float:
    """Seconds to the next multiple of `period_s` on the monotonic clock: workers that wait
    this way wake together, so their updates are drawn in one frame instead of several."""
    return period_s - time.monotonic() % period_s


class Clock:
    """The feeds' shared tick and their one stop: `stop()` ends every feed's wait at once."""

    def __init__(self) -> None:
        self._stopping = threading.Event()
        self._wakers: list[threading.Event] = []

    @property
    def stopped(self) -> bool:
        return self._stopping.is_set()

    def stop(self) -> None:
        self._stopping.set()
        for waker in self._wakers:
            waker.set()

    def waker(self) -> threading.Event:
        """An event a feed waits on for news of its own; `stop()` sets it too."""
        event = threading.Event()
        self._wakers.append(event)
        if self.stopped:
            event.set()
        return event

    def sleep(self, seconds: float) -> bool:
        """Wait `seconds`; False when the feeds were stopped meanwhile (or before)."""
        return not self._stopping.wait(seconds)

    def tick(self, period_s: float) -> bool:
        """Wait for the next tick of `period_s`; False when the feeds were stopped."""
        return self.sleep(until_tick(period_s))


class Frames:
    """The UI's updates of one tick, run together in one frame: the log poll and the GPU sample
    land ~10 ms apart, and each frame is a whole compositor pass."""

    def __init__(self, post: Callable[[Message], object]) -> None:
        self._post = post
        self._updates: list[Callable[[], object]] = []

    def add(self, update: Callable[[], object], *, first: bool = False) -> None:
        """Run `update` in this tick's frame; a pane's `first` data shows at once (start-up
        does not wait for the tick's other news). Call on the UI thread."""
        if first:
            update()
            return
        self._updates.append(update)
        if len(self._updates) == 1:  # a plain loop timer: Textual's set_timer starts a task
            # and inspects two signatures, every tick
            asyncio.get_running_loop().call_later(COALESCE_S, self._post, FrameDue())

    def draw(self) -> None:
        """Run the gathered updates (on FrameDue, inside the app's batch_update)."""
        updates, self._updates = self._updates, []
        for update in updates:
            update()
