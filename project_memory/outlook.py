"""Answers that look ahead: where the drafter's accept length and speedup end up by the end of
training, whether the run reaches a given accept length, how the project's targets stand, and
whether the rest of the run is worth its time."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

from sessiontui.project_memory.answer import Answer

if TYPE_CHECKING:
    from sessiontui.project_memory.live import LiveRun
    from sessiontui.project_memory.store import Store
    from sessiontui.project_memory.understanding import Understanding

_PATTERNS = {  # compiled on first use: most questions never need them (see _HINTS)
    "at_the_end": r"\b(?:by|at|before|until|till|towards?) (?:the )?(?:end|finish)\b|"
                  r"\bend of (?:the )?(?:training|run|epoch)|\brun ends?\b|\bfinal\b",
    "will_reach": r"\b(?:will|gonna|going to|can|could) (?:it|we|the drafter|accept|al|tau|acc)\b"
                  r".{0,30}\b(?:reach|hit|get to|make it to|cross)\b",
    "outlook": r"\b(?:forecast|trajectory|extrapolat\w*|end up|on track)\b|"
               r"\bworth (?:it )?(?:to )?(?:keep|continu|train)\w*\b(?!(?: it| eagle\d?| spec\w*| the drafter)? on\b)|"
               r"\b(?:rest|remainder|remaining) of (?:the )?(?:training|run)\b",
    "timing": r"\b(?:when|how long|eta|time to|time left|whens?)\b",
    "targets": r"\btargets?\b",
    "number": r"(?<![\w.])(\d+(?:\.\d+)?)(?![\w.]|x\b)",
}
_HINTS = ("end", "finish", "final", "reach", "hit", "get to", "make it", "cross", "forecast",
          "trajector", "extrapolat", "on track", "worth", "rest of", "remain", "target")
"""Words one of the look-ahead patterns needs: a question with none of them is not one."""


@cache
def _pattern(name: str) -> re.Pattern[str]:
    return re.compile(_PATTERNS[name])


def looks_ahead(understanding: Understanding, question: str, has_targets: bool = False) -> bool:
    """Whether a question asks where things are heading: the end of training, whether the run
    reaches an accept length, the targets (when the project has some), whether to keep training.
    "When will it finish?" stays a question about the run's ETA."""
    text = question.lower()
    if not any(hint in text for hint in _HINTS):
        return False
    reach = _pattern("will_reach").search(text)
    if _pattern("timing").search(text) and not reach:
        return False
    if has_targets and _pattern("targets").search(text):
        return True
    projecting = understanding.intent in ("run", "speedup")
    return bool(reach or (_pattern("outlook").search(text) and understanding.intent != "search")
                or (_pattern("at_the_end").search(text) and projecting))


def _asked_accept_length(understanding: Understanding, question: str) -> float | None:
    """The accept length a "will it reach 3.0?" question names (a plausible tau, 1 < x < 10)."""
    if understanding.conditions.accept_length is not None:
        return understanding.conditions.accept_length
    found = [float(n) for n in _pattern("number").findall(question)]
    return next((n for n in found if 1.0 < n < 10.0), None)


def answer_outlook(store: Store | None, question: str, understanding: Understanding,
                   snapshots: Sequence[LiveRun] = (), *, draft_overhead: float | None = None
                   ) -> Answer:
    """The forecast of the followed run and the targets, leading with what was asked."""
    from sessiontui.project_memory import specdec  # only a look-ahead question pays for these
    from sessiontui.project_memory.forecast import reach_verdict
    from sessiontui.project_memory.speedup import build_speedup_report
    from sessiontui.project_memory.targets import all_statuses, decision_line, live_forecast

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
