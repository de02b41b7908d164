"""Answers to plain-language questions, as data first: every front end renders the same Answer."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from sessiontui.project_memory.answer import Answer, describe, fmt
from sessiontui.project_memory.records import DEFAULT_METRIC
from sessiontui.project_memory.reference import best, lower_is_better, ratio, reference_for
from sessiontui.project_memory.store import Store

_INTENTS = (
    ("speedup", r"speed[\s-]?up|faster|slower|how much better|\bvs\.? baseline"),
    ("baseline", r"baseline|without (?:eagle|spec|specul|draft|mtp)|no spec|number to beat|"
                 r"reference|vanilla|non[- ]spec"),
    ("run", r"training|how far|\beta\b|finish|\bsteps?\b|\brun\b|progress|accuracy did|reach"),
    ("lessons", r"wrong|error|fail|bug|crash|\boom\b|out of memory|\bfix|broke|nccl|triton|lesson|"
                r"shared memory|timeout|killed|hang|nan\b|diverg"),
)
_MAX_LINES = 6
_SYNONYMS = {"oom": "out of memory OutOfMemoryError", "smem": "shared memory", "hang": "timeout stall"}
_SINGLE_STREAM = re.compile(r"single[- ]stream|\bc\s*=\s*1\b|concurrency\s*(?:of\s*)?1\b|\bbs\s*=?\s*1\b")


def classify(question: str) -> str:
    """The intent of a question, by the first matching keyword family."""
    lowered = question.lower()
    for intent, pattern in _INTENTS:
        if re.search(pattern, lowered):
            return intent
    return "search"


def _metric_of(question: str) -> str:
    lowered = question.lower()
    if "prefill" in lowered or "prompt tok" in lowered:
        return "prompt_tok_s"
    return DEFAULT_METRIC


def _concurrency_of(question: str) -> int | None:
    return 1 if _SINGLE_STREAM.search(question.lower()) else None


def answer_baseline(store: Store, question: str) -> Answer:
    """Baseline records for the metric, the number to beat, and recent results against it."""
    metric, concurrency = _metric_of(question), _concurrency_of(question)
    baselines = store.benchmarks(metric, baseline=True)
    if concurrency is not None:
        baselines = [r for r in baselines if r.concurrency == concurrency] or baselines
    if not baselines:
        return Answer("baseline", f"No baseline recorded for {metric} yet. Add one with "
                      "`sessiontui bench add --baseline ...` or `sessiontui record --baseline -- CMD`.")
    top = best(baselines, metric)
    lines = [f"Number to beat ({metric}): {describe(top)}"]
    if top.notes:
        lines.append(f"  notes: {top.notes}")
    others = [r for r in baselines if r is not top]
    lines += [f"  also baseline: {describe(r)}" for r in others[:_MAX_LINES]]
    if len(others) > _MAX_LINES:
        lines.append(f"  (+{len(others) - _MAX_LINES} older baselines; `sessiontui list --kind benchmark`)")
    latest = store.benchmarks(metric, baseline=False, limit=3)
    for r in latest:
        lines.append(f"  vs result: {describe(r)} → {ratio(r.value, top.value, metric):.2f}x")
    figures = {
        "reference_value": top.value,
        "reference_id": top.id,
        "baseline_count": len(baselines),
        "metric": metric,
    }
    return Answer("baseline", "\n".join(lines), baselines + latest, figures)


def answer_measured_speedup(store: Store, question: str) -> Answer:
    """The latest non-baseline result divided by the number to beat at its conditions."""
    metric = _metric_of(question)
    latest = store.benchmarks(metric, baseline=False, limit=1)
    figures: dict[str, Any] = {"metric": metric}
    if not latest:
        return Answer("speedup", f"No non-baseline {metric} result recorded yet.", [], figures)
    result = latest[0]
    reference = reference_for(store, metric, result.concurrency)
    if reference is None:
        text = f"Latest result {describe(result)}, but no baseline to compare it with."
        return Answer("speedup", text, [result], figures | {"measured_value": result.value})
    speedup = ratio(result.value, reference.value, metric)
    verdict = "faster than" if speedup > 1 else "SLOWER than" if speedup < 1 else "level with"
    arithmetic = (
        f"{fmt(reference.value)} / {fmt(result.value)}" if lower_is_better(metric)
        else f"{fmt(result.value)} / {fmt(reference.value)}"
    )
    text = "\n".join([
        f"Measured speedup: {speedup:.2f}x ({arithmetic}) — {verdict} the baseline.",
        f"  latest:   {describe(result)}",
        f"  baseline: {describe(reference)}",
    ])
    figures |= {
        "measured_speedup": round(speedup, 4),
        "measured_value": result.value,
        "measured_id": result.id,
        "reference_value": reference.value,
        "reference_id": reference.id,
    }
    return Answer("speedup", text, [result, reference], figures)


PROJECTION_FIELDS = (
    "accept_length", "theoretical_speedup", "theoretical_value", "calibrated_speedup",
    "calibrated_value", "breakeven_accept_length", "cost_factor", "baseline_value",
    "assumptions", "sources",
)


def _trend_line(now: float, step: int | None, previous: dict[str, Any]) -> str:
    """How the live accept length moved since the previous answer."""
    delta = now - previous["accept_length"]
    steps = f", step {previous.get('step')} → {step}" if step is not None else ""
    return f"Trend: {delta:+.3f} accept length since the last answer ({previous.get('at', '?')[:16]}{steps})"


def answer_speedup(store: Store, question: str, snapshots: Sequence[Any] = (),
                   previous: dict[str, Any] | None = None) -> Answer:
    """Measured speedup first, then live acceptance (and its trend), projections and a verdict."""
    from sessiontui.project_memory.speedup import build_speedup_report, speedup_answer_lines

    answer = answer_measured_speedup(store, question)
    report = build_speedup_report(store, snapshot=snapshots[0] if snapshots else None,
                                  metric=answer.figures["metric"])
    lines = speedup_answer_lines(report)
    if report.calibration_id and report.calibration_id == answer.figures.get("measured_id"):
        lines = lines[1:]  # its "Measured:" line repeats the measured speedup above
    projection = report.to_dict()
    answer.figures |= {name: projection[name] for name in PROJECTION_FIELDS}
    answer.figures |= {"verdict": report.verdict, "step": report.step}
    if report.accept_length is not None and previous and previous.get("accept_length") is not None:
        lines.insert(-1, _trend_line(report.accept_length, report.step, previous))
        answer.figures["accept_length_trend"] = report.accept_length - previous["accept_length"]
    answer.text = "\n".join([answer.text, *lines])
    return answer


def answer_lessons(store: Store, question: str) -> Answer:
    """Lessons ranked by full-text relevance to the question."""
    words = question
    for short, expansion in _SYNONYMS.items():
        if re.search(rf"\b{short}\b", question.lower()):
            words += " " + expansion
    lessons = store.search(words, kind="lesson", limit=5)
    if not lessons:
        related = answer_search(store, words)
        text = "No recorded lesson matches that."
        if related.records:
            text += " Related records:\n" + related.text
        return Answer("lessons", text, related.records, {"count": 0})
    lines = []
    for r in lessons:
        lines.append(f"{r.title} [{r.id}, {r.created_at[:10]}]")
        for label, value in (("symptom", r.symptom), ("cause", r.cause), ("fix", r.fix)):
            if value:
                lines.append(f"  {label}: {value}")
    return Answer("lessons", "\n".join(lines), lessons, {"count": len(lessons)})


def answer_search(store: Store, question: str) -> Answer:
    """Full-text matches over every record."""
    found = store.search(question, limit=10)
    if not found:
        return Answer("search", "Nothing in the memory matches that.", [], {"count": 0})
    lines = [f"{r.kind:9} {r.label} [{r.id}, {r.created_at[:10]}]" for r in found]
    return Answer("search", "\n".join(lines), found, {"count": len(found)})


def ask(store: Store | None, question: str, *, snapshots: Sequence[Any] = (),
        previous: dict[str, Any] | None = None) -> Answer:
    """Answer a question from the memory (and live training snapshots when the caller has them).

    `previous` holds the figures of the last speedup answer, so the live trend can be shown.
    """
    intent = classify(question)
    if intent == "run":
        from sessiontui.project_memory.run_answers import answer_run

        return answer_run(store, question, snapshots)
    if store is None:
        return Answer(intent, "The project memory is empty: nothing recorded here yet.")
    if intent == "baseline":
        return answer_baseline(store, question)
    if intent == "speedup":
        return answer_speedup(store, question, snapshots, previous)
    if intent == "lessons":
        return answer_lessons(store, question)
    return answer_search(store, question)
