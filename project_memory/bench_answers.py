"""Answers about benchmark results: the best so far, the latest, the failed one and why, and the
flags or command a result was measured with."""

from __future__ import annotations

import re
from collections.abc import Sequence

from sessiontui.project_memory.answer import (
    Answer,
    describe,
    lesson_lines,
    pasteable,
    verdict_word,
)
from sessiontui.project_memory.records import DEFAULT_METRIC, Record
from sessiontui.project_memory.reference import (
    Conditions,
    best,
    compare,
    lower_is_better,
    matches,
    number_to_beat,
)
from sessiontui.project_memory.store import Store
from sessiontui.project_memory.trust import record_flags
from sessiontui.project_memory.understanding import (
    Understanding,
    asks_command,
    comparison_conditions,
    figures_in,
    value_key,
)

_RECENT = 200
_FAILED = {"fail", "failed", "failing", "broke", "broken", "died", "crashed", "crash", "error", "errored",
           "why"}
_BEST = {"best", "fastest", "highest", "top", "winner", "lowest"}
_WORST = {"worst", "slowest"}
_LATEST = {"latest", "last", "recent", "newest"}
_EVERY = {"list", "all", "every", "each", "everything", "benches", "benchmarks", "results", "numbers"}
"""A list question: it lists everything, grouped by conditions, never narrowed to one of them."""


def _named(records: Sequence[Record], words: Sequence[str]) -> list[Record]:
    """Records whose config, engine or model share a distinctive word with the question."""
    wanted = {w for w in words if len(w) >= 3}
    scored = []
    for record in records:
        text = f"{record.config or ''} {record.engine or ''} {record.spec_algorithm or ''}".lower()
        hits = len(wanted & set(re.findall(r"[a-z0-9]+(?:[.\-_][a-z0-9]+)*|[a-z]+", text)))
        if hits:
            scored.append((hits, record))
    top = max((hits for hits, _ in scored), default=0)
    return [record for hits, record in scored if hits == top]


def _names_only_failed(store: Store, words: Sequence[str]) -> bool:
    """Whether the benchmarks the question names by their config (`the topk=8 bench`) all failed:
    then what happened to them is their failure."""
    named = _named(store.list("benchmark", limit=_RECENT), words)
    return bool(named) and all(r.status == "failed" for r in named)


def answer_failed(store: Store, understanding: Understanding) -> Answer:
    """The latest failed benchmark (or the one named), and the lessons matching its failure."""
    failed = [r for r in store.list("benchmark", limit=_RECENT) if r.status == "failed"]
    if not failed:
        return Answer("benchmarks", "No failed benchmark recorded.", [], {"failed_count": 0})
    record = (_named(failed, understanding.words) or failed)[0]
    why = " ".join(filter(None, (record.notes, record.signature)))  # the failure's own words
    lessons = store.search(why or f"{record.config or ''} {record.command or ''}", kind="lesson",
                           limit=1)  # the best match only: a loose second one would mislead
    lines = [f"Failed: {describe(record)}"]
    if record.exit_code is not None:
        lines.append(f"  exit code {record.exit_code}")
    if record.notes:
        lines.append(f"  why: {record.notes}")
    if record.command:
        lines.append(f"  command: {pasteable((), record)}")
    if lessons:
        lines.append("Matching lesson:")
        lines += ["  " + line for line in lesson_lines(lessons)]
    else:
        lines.append("No lesson matches it yet: `sessiontui lesson add` records one.")
    figures = {"failed_id": record.id, "record_id": record.id, "failed_count": len(failed),
               "lesson_id": lessons[0].id if lessons else None,
               "title": lessons[0].title if lessons else None}
    return Answer("benchmarks", "\n".join(lines), [record, *lessons], figures)


def answer_flags(store: Store, understanding: Understanding, metric: str) -> Answer:
    """The command and flags of the baseline (or the named or latest result)."""
    words = set(understanding.words)
    results = store.benchmarks(metric, baseline=False, limit=_RECENT)
    conditions, _ = comparison_conditions(understanding.conditions, metric, results)
    about_baseline = "baseline" in words or "nospec" in words or understanding.conditions.no_feature
    top = number_to_beat(store.baselines(metric), conditions) if about_baseline else None
    pool: list[Record]
    if top:
        pool = [top]
    else:  # a name, or the newest baseline with a command, may be any baseline: all are read
        baselines = store.benchmarks(metric, baseline=True)
        pool = baselines if about_baseline else (
            _named(results + baselines, understanding.words) or results or baselines)
    record = next((r for r in pool if r.command), pool[0] if pool else None)
    if record is None:
        return Answer("benchmarks", "No benchmark recorded yet.", [], {})
    if not record.command:
        return Answer("benchmarks", f"{describe(record)} has no recorded command.", [record],
                      {"record_id": record.id})
    flags = record_flags(record)
    lines = [f"Command of {describe(record)}:", f"  {pasteable((), record)}"]
    lines += [f"  {name}" if value == "true" else f"  {name} {value}" for name, value in flags.items()]
    if record.notes:  # where launch settings the command does not show get written down
        lines.append(f"  notes: {record.notes}")
    if record.gpus:
        lines.append(f"  ran on {len(record.gpus)}x {record.gpus[0]}")
    return Answer("benchmarks", "\n".join(lines), [record],
                  {"record_id": record.id, "command": record.command, "flags": flags})


def answer_benchmarks(store: Store, understanding: Understanding, metric: str = DEFAULT_METRIC
                      ) -> Answer:
    """Best, worst or latest results at the asked conditions; failures; flags; else a list."""
    words = set(understanding.words)
    asked_metric = understanding.conditions.comparison.metric
    metric = asked_metric if asked_metric != DEFAULT_METRIC else metric
    if words & _FAILED and not words & _BEST or _names_only_failed(store, understanding.words):
        return answer_failed(store, understanding)
    if asks_command(words):
        return answer_flags(store, understanding, metric)
    if (by_value := answer_value(store, understanding)) is not None:
        return by_value
    if words & _EVERY and not words & (_BEST | _WORST | _LATEST):
        return answer_list(store, metric)
    records = store.benchmarks(metric, limit=_RECENT)
    baselines = [r for r in records if r.baseline]
    conditions, why = comparison_conditions(understanding.conditions, metric, records)
    at = [r for r in records if matches(r, conditions)]
    if not at:
        return Answer("benchmarks", f"No {metric} result at {conditions.text()} yet.", [],
                      {"metric": metric})
    chosen, label = at[0], "Latest"
    if words & _WORST:
        chosen, label = _worst(at, metric), "Worst"
    elif words & _BEST:
        chosen, label = best(at, metric) or chosen, "Best"
    lines = [f"{label} {metric} at {conditions.text()}: {_with_ratio(chosen, baselines)}",
             f"  ({why}; {len(at)} results there)"]
    others = [r for r in at if r is not chosen][:5]
    lines += [f"  {_with_ratio(r, baselines)}" for r in others]
    figures = {"metric": metric, "value": chosen.value, "record_id": chosen.id,
               "config": chosen.config, "count": len(at)}
    return Answer("benchmarks", "\n".join(lines), [chosen, *others], figures)


def _worst(records: Sequence[Record], metric: str) -> Record:
    """The lowest throughput (or highest latency) of these results."""
    flip = -1.0 if lower_is_better(metric) else 1.0
    return min(records, key=lambda r: flip * (r.value or 0.0))


def _with_ratio(record: Record, baselines: Sequence[Record]) -> str:
    """A result and, for a feature result, its ratio to the baseline under its conditions."""
    if record.baseline:
        return f"{describe(record)} (baseline)"
    comparison = compare(record, baselines)
    if comparison.speedup is None:
        return describe(record)
    return f"{describe(record)} → {comparison.text()} ({verdict_word(comparison.speedup)})"


def answer_value(store: Store, understanding: Understanding) -> Answer | None:
    """A result looked up by a figure the question names ("where did the 1450 come from?"):
    which benchmark measured it, under which conditions, with or without speculation."""
    figures = figures_in(understanding.words)
    if not figures:
        return None
    found = [r for r in store.list("benchmark", limit=_RECENT)
             if r.value is not None and any(value_key(r.value) == value_key(f) for f in figures)]
    if not found:
        return None
    record = found[0]
    spec = (f"with speculative decoding ({record.spec_algorithm or 'a drafter'}"
            + (f", accept length {record.accept_length:.2f})" if record.accept_length else ")")
            if record.spec_algorithm or record.accept_length is not None
            else "without speculative decoding (a baseline)" if record.baseline
            else "no speculative decoding recorded")
    lines = [f"{value_key(record.value or 0)} is {describe(record)}", f"  {spec}",
             f"  conditions: {Conditions.of(record).text()}"]
    if record.command:
        lines.append(f"  measured with: {pasteable((), record)}")
    if record.notes:
        lines.append(f"  notes: {record.notes}")
    lines += [f"  also {describe(r)}" for r in found[1:3]]
    return Answer("benchmarks", "\n".join(lines), found[:3],
                  {"record_id": record.id, "value": record.value, "config": record.config,
                   "spec": record.spec_algorithm, "baseline": record.baseline})


def answer_list(store: Store, metric: str) -> Answer:
    """Every benchmark result, grouped by conditions, each with its ratio to the number to beat;
    failed attempts last."""
    records = store.list("benchmark", limit=_RECENT)
    measured = [r for r in records if r.status != "failed"]
    failed = [r for r in records if r.status == "failed"]
    baselines = [r for r in measured if r.baseline]
    groups: dict[str, list[Record]] = {}
    for record in measured:
        groups.setdefault(Conditions.of(record, engine=False).text(), []).append(record)
    lines = [f"{len(measured)} benchmark results in {len(groups)} group(s) of conditions"
             + (f", and {len(failed)} failed attempt(s)" if failed else "") + ":"]
    for conditions, group in groups.items():
        lines.append(f"At {conditions}:")
        lines += [f"  {_with_ratio(r, baselines)}" for r in group]
    if failed:
        lines.append("Failed:")
        lines += [f"  {describe(r)}" for r in failed]
    return Answer("benchmarks", "\n".join(lines), measured + failed,
                  {"metric": metric, "count": len(measured), "failed_count": len(failed),
                   "groups": len(groups)})
