"""Other hosts in the panes: a group of GPU lines per host, and a run card per remote run.

The GPU pane appends `hosts_lines` under this host (drawn like its own GPUs, without history
charts: a scrape every few seconds is no history); the training pane gets a card per run of a
remote `sessiontui serve`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from rich.text import Text

from sessiontui.tui.widgets.gpu_view import Form, StyleOf, gpu_block
from sessiontui.tui.widgets.literal import literal

DETAIL = Form("detail")

if TYPE_CHECKING:
    from sessiontui.collectors.remote import RemoteSnapshot
    from sessiontui.collectors.trainlog.snapshot import TrainSnapshot
    from sessiontui.tui.widgets.training_pane import TrainingPane


def host_title(snapshot: RemoteSnapshot) -> str:
    """The group's first line: the host's name, what it runs, and the name it reports."""
    reported = snapshot.reported_as
    same = not reported or reported.split(".")[0] == snapshot.host.name
    return f"{snapshot.host.name} ({snapshot.host.kind}{'' if same else ', ' + reported})"


def hosts_lines(snapshots: Sequence[RemoteSnapshot], width: int, style: StyleOf) -> list[Text]:
    """Every remote host as its own group: a title, then each GPU in the pane's detail form
    (figures, then clocks) or why there are none."""
    lines: list[Text] = []
    for snapshot in snapshots:
        lines.extend((Text(), literal(host_title(snapshot), style("gpu-pane--header"))))
        problem = snapshot.problem()
        if not snapshot.reachable or not snapshot.gpu.gpus:
            reason = problem or snapshot.gpu.reason or "no GPUs reported"
            lines.append(literal(reason, style("gpu-pane--lost" if problem else "gpu-pane--muted")))
            continue
        for sample in snapshot.gpu.gpus:
            lines.extend(gpu_block(sample, DETAIL, width, style))
        if problem:
            lines.append(literal(problem, style("gpu-pane--warning")))
    return lines


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
                # the card's status line says why the host's runs are stale, not a run status
                run = dataclasses.replace(run, status=problem or "unreachable")  # type: ignore[arg-type]
            card = await pane.card(card_key(snapshot, name), title=f"{name} @ {snapshot.host.name}")
            card.show(run)
