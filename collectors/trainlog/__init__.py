"""Training-log follower: parse a job's own log into snapshots, events and bounded histories."""

from sessiontui.collectors.trainlog.events import TrainEvent
from sessiontui.collectors.trainlog.follower import LogFollower, read_log
from sessiontui.collectors.trainlog.history import history_for_chart
from sessiontui.collectors.trainlog.snapshot import TrainSnapshot

__all__ = ["LogFollower", "TrainEvent", "TrainSnapshot", "history_for_chart", "read_log"]
