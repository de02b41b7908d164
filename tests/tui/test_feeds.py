"""The feeds on their own, without the app: the training feed's first-draw handshake."""

from __future__ import annotations

import queue
import threading
from pathlib import Path

import pytest

from sessiontui.project_memory.store import Store
from sessiontui.tui.feeds import training
from sessiontui.tui.feeds.clock import Clock
from sessiontui.tui.feeds.training import TrainingFeed
from sessiontui.tui.messages import TrainSampled
from tests.tui.app_fakes import followers, specforge_run

WAIT_S = 30  # the longest a test waits for a message: a failure, not a timing


class Posted:
    """What the feed posts, in order, and a way to wait for the next sample of one log."""

    def __init__(self) -> None:
        self.queue: queue.Queue = queue.Queue()
        self.taken: list[object] = []

    def samples(self, path: Path) -> list[int]:
        """The steps of every sample of `path` posted so far."""
        messages = [*self.taken, *self.queue.queue]
        return [m.snapshot.step for m in messages if isinstance(m, TrainSampled) and m.path == path]

    def next_sample(self, path: Path) -> TrainSampled:
        """The next sample the feed posts for `path` (the others are kept in `taken`)."""
        while True:
            message = self.queue.get(timeout=WAIT_S)
            self.taken.append(message)
            if isinstance(message, TrainSampled) and message.path == path:
                return message


def test_a_log_waits_for_its_card_without_holding_up_the_others(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(training, "FIRST_DRAW_WAIT_S", 600)  # only the handshake lets it through
    a, b = tmp_path / "a.log", tmp_path / "b.log"
    runs = {path.name: [specforge_run(str(path), step) for step in range(100, 2000, 100)]
            for path in (a, b)}
    posted = Posted()
    clock = Clock()
    feed = TrainingFeed(posted.queue.put, clock, tmp_path / "memory.db", refresh_s=0.02,
                        follower_factory=followers(**runs))
    feed.follow(a)
    feed.follow(b)
    worker = threading.Thread(target=feed.run)
    worker.start()
    try:
        assert posted.next_sample(a).snapshot.step == 100  # shown, then kept for its card
        feed.card_drawn(b)
        steps = [posted.next_sample(b).snapshot.step for _ in range(4)]
        assert steps == [100, 200, 300, 400]  # b is recorded and read on, tick after tick
        with Store(tmp_path / "memory.db") as store:
            assert store.run_for_log(str(b)) is not None
            assert store.run_for_log(str(a)) is None  # a's first record waits for its card
        assert posted.samples(a) == [100]  # and a was not read again meanwhile
        feed.card_drawn(a)
        assert posted.next_sample(a).snapshot.step == 200  # recorded, so read again
        with Store(tmp_path / "memory.db") as store:
            assert store.run_for_log(str(a)).step == 100
    finally:
        clock.stop()
        worker.join(WAIT_S)
    assert not worker.is_alive() and feed.done.is_set()
