"""Training snapshots and events shaped like the log follower's, for run tests."""

from __future__ import annotations

from sessiontui.collectors.logtext import failure_signature
from sessiontui.collectors.trainlog import TrainEvent, TrainSnapshot

OOM_LINE = (
    "[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 7.82 GiB. GPU 0 has a "
    "total capacity of 139.72 GiB of which 5.12 GiB is free. Process 2231907 has 134.59 GiB memory "
    "in use."
)


def snap(**fields) -> TrainSnapshot:
    """A snapshot shaped like the training-log follower's, with the given fields set."""
    base = dict(
        source="train.log", format="specforge-v3", step=None, total_steps=None, epoch=None,
        loss=None, lr=None, grad_norm=None, acc=(), metrics={}, steps_per_s=None, eta_s=None,
        last_update=1_790_000_000.0, status="running", events=(), history={}, caught_up=True,
        progress=1.0,
    )
    return TrainSnapshot(**{**base, **fields})


def oom_event(step: int) -> TrainEvent:
    """The crash event the follower raises for OOM_LINE, signature and context included."""
    return TrainEvent("crashed", "CUDA out of memory", OOM_LINE, 1_790_000_100.0, step,
                      failure_signature(OOM_LINE), ("step 420: {'loss': 2.09}", OOM_LINE))
