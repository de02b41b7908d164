"""Answers about training runs ("how far is training?", "when will it finish?") and lesson drafts."""

from __future__ import annotations

import re
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sessiontui.project_memory.answer import Answer, fmt
from sessiontui.project_memory.events import TrainEvent
from sessiontui.project_memory.humanize import age, duration
from sessiontui.project_memory.lessons import stored_lessons
from sessiontui.project_memory.records import Record
from sessiontui.project_memory.runs import FAILURES, apply_snapshot, iso_time, run_name
from sessiontui.project_memory.specdec import accept_length
from sessiontui.project_memory.store import Store, StoreError

if TYPE_CHECKING:
    from sessiontui.project_memory.live import LiveRun
    from sessiontui.project_memory.understanding import Understanding

RUNNING_MILESTONES = 3  # a live run shows its latest milestones; a past run shows all of them
SYMPTOM_LINES = 15  # a lesson's symptom is the failure, not the log
_QUESTION_WORDS = frozenset(
    "a about accuracy acc an and are at be did does done eta far finish finished for from how in "
    "is it its last latest loss many me of on progress reach reached run runs show status step "
    "steps tell the to train training was what when where which will with".split()
)


def _words(text: str) -> set[str]:
    """Words and hyphenated names (`drafter-a` gives `drafter-a`, `drafter` and `a`)."""
    lowered = text.lower()
    return set(re.findall(r"[a-z0-9]+", lowered)) | set(re.findall(r"[a-z0-9]+(?:[-_.][a-z0-9]+)+",
                                                                   lowered))


def _candidates(store: Store | None, snapshots: Sequence[LiveRun]) -> list[Record]:
    """Stored runs, with live snapshots folded into the run of their log (or a new unsaved one)."""
    runs = store.list("run") if store is not None else []
    by_log = {run.log_path: run for run in reversed(runs)}  # a log's latest run (restarts)
    for snapshot in snapshots:
        path = str(Path(snapshot.source).absolute())
        if path not in by_log:
            by_log[path] = Record("run", name=run_name(path), log_path=path)
            runs.append(by_log[path])
        apply_snapshot(by_log[path], snapshot)
    return runs


def find_run(runs: Sequence[Record], question: str) -> Record | None:
    """The run the question names (by words of its name or log path), else the latest updated."""
    asked = _words(question) - _QUESTION_WORDS
    names = {id(run): _words(f"{run.name or ''} {run.log_path or ''}") for run in runs}
    shared = Counter(word for words in names.values() for word in words & asked)

    def rank(run: Record) -> tuple:  # a word few runs share names a run more than a common one
        named = sum(1 / shared[word] for word in asked & names[id(run)])
        return named, run.last_update or "", run.updated_at

    return max(runs, key=rank, default=None)


def _acc_text(acc: Sequence[float]) -> str:
    return " ".join(f"{a:.3f}" for a in acc)


def _milestone_line(milestone: dict[str, Any]) -> str:
    if milestone["kind"] == "eval":
        figures = ", ".join(f"{k} {v:.4g}" for k, v in milestone.get("metrics", {}).items())
        return f"    eval at step {milestone['step']:,}: {figures}"
    parts = [f"loss {fmt(milestone.get('loss'), 3)}"]
    if milestone.get("acc"):
        parts.append(f"acc {_acc_text(milestone['acc'])}")
    if milestone.get("accept_length") is not None:
        parts.append(f"accept length {milestone['accept_length']:.2f}")
    return f"    {milestone['pct']:3d}% at step {milestone['step']:,}: {', '.join(parts)}"


def event_lines(store: Store | None, event: TrainEvent, run_id: str = "") -> list[str]:
    """A run event and the best matching lesson's fix (or that none matches), for people."""
    lines = [f"  {event.kind}: {event.message or event.line}"]
    lessons = stored_lessons(store, event.lessons) if store is not None else []
    if lessons:
        best = lessons[0]
        lines.append(f"    seen before: {best.title} [{best.id}] — fix: {best.fix or 'n/a'}")
    elif event.is_failure:
        offer = f": record one with `sessiontui lesson add --from-run {run_id}`" if run_id else ""
        lines.append(f"    no lesson matches yet{offer}")
    return lines


def describe_run(run: Record, store: Store | None = None) -> list[str]:
    """Readable lines on a run: status, progress, metrics, ETA, failures and milestones."""
    progress = f"step {run.step:,}" if run.step is not None else "no step yet"
    if run.step is not None and run.total_steps:
        progress += f" of {run.total_steps:,} ({100 * run.step / run.total_steps:.1f}%)"
    if run.epoch is not None:
        progress += f", epoch {run.epoch:g}"
    lines = [f"Run {run.label} [{run.id or 'live'}]: {run.status or 'unknown'}, {progress}"]
    if run.started_at:
        how = f" (from {run.started_from})" if run.started_from else ""
        after = f", after run {run.previous_run} in the same log" if run.previous_run else ""
        lines.append(f"  started {run.started_at}{how}{after}")
    lines.append(f"  loss {fmt(run.loss, 4)}, lr {run.lr if run.lr is not None else 'n/a'}")
    if run.acc:
        tau = f" → accept length ≈ {run.accept_length:.2f} (1 + a0 + a0·a1 + …)" \
            if run.accept_length is not None else ""
        lines.append(f"  acc per position {_acc_text(run.acc)}{tau}")
    if run.eta_s is not None and run.status == "running":
        finish = iso_time(_seen_at(run) + run.eta_s)  # from its last rate, when it was last seen
        lines.append(f"  ETA {duration(run.eta_s)} (about {finish}); last progress {run.last_update}")
    elif run.last_update:
        lines.append(f"  last progress {run.last_update}")
    for event in run.events[-3:]:
        lines += event_lines(store, TrainEvent.from_dict(event), run.id)
    milestones = run.milestones[-RUNNING_MILESTONES:] if run.status == "running" else run.milestones
    if milestones:
        lines.append("  milestones:")
        lines += [_milestone_line(m) for m in milestones]
    return lines


def _trend(points: Sequence[tuple[int, float]]) -> str | None:
    """`falling`, `rising` or `flat` over the last points of a history, with the figures."""
    if len(points) < 2:
        return None
    recent = points[-min(len(points), 20):]
    (first_step, first), (last_step, last) = recent[0], recent[-1]
    change = last - first
    word = "flat" if abs(change) <= 0.01 * max(abs(first), 1e-9) else (
        "falling" if change < 0 else "rising")
    return f"{word}: {first:.4g} at step {first_step:,} → {last:.4g} at step {last_step:,}"


def _history(snapshots: Sequence[LiveRun], run: Record) -> dict[str, Sequence[tuple[int, float]]]:
    """The live history of the run's log, or one built from its milestones."""
    for snapshot in snapshots:
        if str(Path(snapshot.source).absolute()) == run.log_path and snapshot.history:
            return dict(snapshot.history)
    loss = [(m["step"], m["loss"]) for m in run.milestones if m.get("loss") is not None]
    return {"loss": loss} if loss else {}


def lead_line(run: Record, words: set[str], history: dict[str, Sequence[tuple[int, float]]],
              live: bool) -> str | None:
    """The one figure the question asked for, first: accept length, loss or accuracy trend, ETA."""
    where = f"step {run.step:,}" if run.step is not None else "no step yet"
    when = "live" if live else f"run record updated {age(run.last_update or run.updated_at)}"
    tau = run.accept_length if run.accept_length is not None else accept_length(run.acc)
    if "acceptlen" in words and tau is not None:
        return f"Accept length now ≈ {tau:.2f} at {where} ({when})"
    if "loss" in words and (trend := _trend(history.get("loss", ()))):
        return f"Loss {trend} ({when})"
    if words & {"acc", "accuracy", "accuracies"} and run.acc:
        trend = _trend(history.get("acc_0", ()))
        return (f"Accuracy per position now {' '.join(f'{a:.3f}' for a in run.acc)} at {where}"
                + (f"; acc_0 {trend}" if trend else "") + f" ({when})")
    if words & {"eta", "finish", "left", "remaining", "done"} and run.eta_s is not None:
        return f"ETA {duration(run.eta_s)} at {where} ({when})"
    if words & {"stalled", "stall", "stuck", "alive", "hang", "hanging", "moving"}:
        return f"Status {run.status or 'unknown'}, {where}, last progress {age(run.last_update)}"
    return None


def _seen_at(run: Record) -> float:
    """When a run last progressed (epoch seconds), else now."""
    from datetime import datetime

    try:
        return datetime.fromisoformat(run.last_update or "").timestamp()
    except ValueError:
        return time.time()


def not_followed_line(run: Record) -> str:
    """A run known only from its record: last step, status, ETA from its last rate, last seen."""
    from datetime import datetime

    from sessiontui.project_memory.humanize import finish_time

    seen = run.last_update or run.updated_at
    where = f"step {run.step:,}" if run.step is not None else "no step"
    if run.step is not None and run.total_steps:
        where += f" of {run.total_steps:,} ({100 * run.step / run.total_steps:.0f}%)"
    line = f"Not followed; from its run record: {run.status} at {where}, last seen {age(seen)}"
    try:
        start = datetime.fromisoformat(seen).timestamp() if seen else None
    except ValueError:
        start = None
    if run.eta_s is not None and start is not None:
        line += f"; at its last rate it ends {finish_time(run.eta_s, start)}"
    return line + " (follow its log to know whether it moved since)"


def answer_run(store: Store | None, question: str, snapshots: Sequence[LiveRun] = (),
               understanding: Understanding | None = None) -> Answer:
    """The named or latest run's status, step, ETA and metrics, the asked figure first."""
    run = find_run(_candidates(store, snapshots), question)
    if run is None:
        return Answer("run", "No training run recorded yet. Follow one with "
                      "`sessiontui watch --log FILE` (or in the app).")
    live = any(str(Path(s.source).absolute()) == run.log_path for s in snapshots)
    figures = {
        "run_id": run.id, "name": run.name, "status": run.status, "step": run.step,
        "total_steps": run.total_steps, "eta_s": run.eta_s, "accept_length": run.accept_length,
        "acc": list(run.acc), "loss": run.loss, "lr": run.lr, "epoch": run.epoch,
        "progress": run.step / run.total_steps if run.step is not None and run.total_steps else None,
        "live": live, "updated": run.last_update or run.updated_at,
    }
    lines = describe_run(run, store)
    words = set(understanding.words) if understanding else set(_words(question))
    lead = lead_line(run, words, _history(snapshots, run), live)
    if lead:
        lines.insert(0, lead)
    if not live and run.status == "running":
        lines.insert(0, not_followed_line(run))
    return Answer("run", "\n".join(lines), [run], figures)


def lesson_draft_from_run(store: Store, run_id: str) -> Record:
    """An unsaved lesson pre-filled from a run's latest failure: the failure itself (its exception
    line and last frames, as the collector cut them from the log) and its signature."""
    run = store.get(run_id)
    if run.kind != "run":
        raise StoreError(f"{run.id} is a {run.kind}, not a run")
    failures = [TrainEvent.from_dict(event) for event in run.events if event.get("kind") in FAILURES]
    if not failures:
        raise StoreError(f"run {run.id} has no crash, stall or divergence to learn from")
    where = f" at step {failures[-1].step}" if failures[-1].step is not None else ""
    draft = lesson_draft(failures[-1], run.label)
    draft.notes = f"From run {run.id} ({run.log_path}){where}, {failures[-1].kind}."
    draft.tags = ["from-run"]
    return draft


def lesson_draft(event: TrainEvent, source: str) -> Record:
    """An unsaved lesson whose symptom is the failure itself (the exception line and the last
    frames the collector cut from the log, never the progress bars) and whose signature is the
    failure's, so that the next occurrence is matched to it."""
    lines = list(event.context[-SYMPTOM_LINES:]) or [event.line or event.message]
    return Record("lesson", title=f"{source}: {event.message or event.kind}"[:120],
                  symptom="\n".join(lines), signature=event.signature)
