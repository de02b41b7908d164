"""Answers that look ahead: where the drafter's accept length and speedup end up by the end of
training, whether the run reaches a given accept length, how the project's targets stand, and
whether the rest of the run is worth its time."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from sessiontui.project_memory import specdec
from sessiontui.project_memory.answer import Answer
from sessiontui.project_memory.forecast import reach_verdict
from sessiontui.project_memory.targets import all_statuses, decision_line, live_forecast

if TYPE_CHECKING:
    from sessiontui.project_memory.live import LiveRun
    from sessiontui.project_memory.store import Store
    from sessiontui.project_memory.understanding import Understanding

_AT_THE_END = re.compile(r"\b(?:by|at|before|until|till|towards?) (?:the )?(?:end|finish)\b|"
                        r"\bend of (?:the )?(?:training|run|epoch)|\brun ends?\b|\bfinal\b")
_WILL_REACH = re.compile(r"\b(?:will|gonna|going to|can|could) (?:it|we|the drafter|accept|al|tau|"
                         r"acc)\b.{0,30}\b(?:reach|hit|get to|make it to|cross)\b")
_OUTLOOK = re.compile(r"\b(?:forecast|trajectory|extrapolat\w*|"
                      r"end up|on track)\b|\bworth (?:it )?(?:to )?(?:keep|continu|train)\w*|"
                      r"\b(?:rest|remainder|remaining) of (?:the )?(?:training|run)\b")
_TIMING = re.compile(r"\b(?:when|how long|eta|time to|time left|whens?)\b")
_TARGETS = re.compile(r"\btargets?\b")
_NUMBER = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)(?![\w.]|x\b)")


def looks_ahead(understanding: Understanding, question: str, has_targets: bool = False) -> bool:
    """Whether a question asks where things are heading: the end of training, whether the run
    reaches an accept length, the targets (when the project has some), whether to keep training.
    "When will it finish?" stays a question about the run's ETA."""
    text = question.lower()
    if _TIMING.search(text) and not _WILL_REACH.search(text):
        return False
    if has_targets and _TARGETS.search(text):
        return True
    return bool(_OUTLOOK.search(text) or _WILL_REACH.search(text)
                or (_AT_THE_END.search(text) and understanding.intent in ("run", "speedup")))


def _asked_accept_length(understanding: Understanding, question: str) -> float | None:
    """The accept length a "will it reach 3.0?" question names (a plausible tau, 1 < x < 10)."""
    if understanding.conditions.accept_length is not None:
        return understanding.conditions.accept_length
    found = [float(n) for n in _NUMBER.findall(question)]
    return next((n for n in found if 1.0 < n < 10.0), None)


def answer_outlook(store: Store | None, question: str, understanding: Understanding,
                   snapshots: Sequence[LiveRun] = (), *, draft_overhead: float | None = None
                   ) -> Answer:
    """The forecast of the followed run and the targets, leading with what was asked."""
    from sessiontui.project_memory.speedup import build_speedup_report

    snapshot = snapshots[0] if snapshots else None
    ahead = live_forecast(snapshot)
    report = build_speedup_report(store, snapshot=snapshot, draft_overhead=draft_overhead)
    figures: dict[str, Any] = {}
    lines: list[str] = []
    wanted = _asked_accept_length(understanding, question)
    if ahead is None:
        lines.append("No training run is followed, so there is nothing to project "
                     "(follow its log: `f` in the app, or `logs` in sessiontui.toml).")
    elif wanted is not None:
        lines.append(reach_verdict(ahead, wanted).capitalize() + ".")
        figures["target_accept_length"] = wanted
    if ahead is not None and ahead.ok and ahead.at_end is not None and ahead.low is not None \
            and ahead.high is not None:
        end_line = (f"Projected accept length at the end of training (step {ahead.end_step}): "
                    f"{ahead.at_end:.2f} (band {ahead.low:.2f}-{ahead.high:.2f}; fitted now "
                    f"{ahead.current:.2f})")
        k = report.cost_factor
        if k is not None:
            speedups = [specdec.calibrated_speedup(t, k) for t in (ahead.at_end, ahead.low, ahead.high)]
            end_line += (f"; projected speedup then {speedups[0]:.2f}x "
                         f"({speedups[1]:.2f}x-{speedups[2]:.2f}x, calibrated k = {k:.2f})")
            figures |= {"projected_speedup_end": round(speedups[0], 4),
                        "projected_speedup_band": [round(s, 4) for s in speedups[1:]]}
        lines.append(end_line + ".")
        figures |= {"projected_accept_length_end": round(ahead.at_end, 4),
                    "projected_band": [round(ahead.low, 4), round(ahead.high, 4)],
                    "end_step": ahead.end_step}
        hours_left = snapshot.eta_s / 3600 if snapshot is not None and snapshot.eta_s else None
        if decision := decision_line(report, ahead, hours_left):
            lines.append(decision)
        lines.append(f"  (from {ahead.inputs()})")
    elif ahead is not None and wanted is None:
        lines.append(f"No projection yet: {ahead.reason}.")
    statuses = all_statuses(store, snapshot, draft_overhead) if store is not None else []
    if statuses:
        lines.append("Targets:")
        lines += [f"  {status.summary()}" for status in statuses]
        figures["targets"] = [{"id": s.target.id, "met": s.met, "current": s.current,
                               "projected": s.projected, "projected_end": s.projected_end}
                              for s in statuses]
    elif store is not None and {"target", "targets", "goal", "goals"} & set(understanding.words):
        lines.append('No targets set yet: sessiontui target set "beat 90 tok/s single stream".')
    intent = understanding.intent if understanding.intent in ("run", "speedup") else "speedup"
    return Answer(intent, "\n".join(lines), [s.target for s in statuses], figures)
