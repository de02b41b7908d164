"""Other hosts in the panes: a group of GPU lines per host, and a run card per remote run.

The GPU pane appends `hosts_text` under this host's GPUs (with its own line format, so local and
remote GPUs read alike); the training pane gets a card per run of a remote `sessiontui serve`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from rich.style import Style
from rich.text import Text

from sessiontui.tui.widgets.literal import literal

if TYPE_CHECKING:
    from sessiontui.collectors.gpu import GpuSample
    from sessiontui.collectors.remote import RemoteSnapshot
    from sessiontui.collectors.trainlog.snapshot import TrainSnapshot
    from sessiontui.tui.widgets.training_pane import TrainingPane


def host_title(snapshot: RemoteSnapshot) -> str:
    """The group's first line: the host's name, what it runs, and the name it reports."""
    reported = snapshot.reported_as
    same = not reported or reported.split(".")[0] == snapshot.host.name
    return f"{snapshot.host.name} ({snapshot.host.kind}{'' if same else ', ' + reported})"


def hosts_line_count(snapshots: Sequence[RemoteSnapshot]) -> int:
    """Lines `hosts_text` takes (the pane lays out again only when this changes)."""
    return sum(2 + max(1, len(s.gpu.gpus)) + (1 if s.warning else 0) for s in snapshots)


def hosts_text(snapshots: Sequence[RemoteSnapshot], gpu_line: Callable[[GpuSample], str],
               style: Callable[[str], Style]) -> Text:
    """Every remote host as its own group: a title, then its GPUs or why there are none."""
    text = Text()
    for snapshot in snapshots:
        text.append("\n\n")
        text.append_text(literal(host_title(snapshot), style("gpu-pane--muted")))
        problem = snapshot.problem()
        if not snapshot.reachable or not snapshot.gpu.gpus:
            text.append("\n")
            text.append_text(literal(problem or snapshot.gpu.reason or "no GPUs reported",
                                     style("gpu-pane--lost" if problem else "gpu-pane--muted")))
            continue
        for sample in snapshot.gpu.gpus:
            text.append("\n")
            text.append_text(literal(gpu_line(sample)))
        if problem:
            text.append("\n")
            text.append_text(literal(problem, style("gpu-pane--throttle")))
    return text


def card_key(snapshot: RemoteSnapshot, run: str) -> Path:
    """The training pane's key for a remote run (never opened as a file)."""
    return Path(f"{snapshot.host.name}:{run}")


async def show_remote_runs(pane: TrainingPane, snapshots: Sequence[RemoteSnapshot],
                           shown: dict[str, dict[str, TrainSnapshot]]) -> None:
    """A card per run of every sessiontui host; a host that stopped answering keeps its cards,
    marked with since when. `shown` remembers each host's last runs across scrapes."""
    for snapshot in snapshots:
        if snapshot.reachable:
            shown[snapshot.host.name] = {run.source: run for run in snapshot.runs}
        problem = snapshot.problem()
        for name, run in shown.get(snapshot.host.name, {}).items():
            if not snapshot.reachable:
                run = dataclasses.replace(run, status=problem or "unreachable")
            card = await pane.card(card_key(snapshot, name), title=f"{name} @ {snapshot.host.name}")
            card.show(run)
