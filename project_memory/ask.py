"""Answers to plain-language questions, as data first: every front end renders the same Answer."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from sessiontui.project_memory.answer import Answer, describe, fmt, lesson_lines, verdict_word
from sessiontui.project_memory.outlook import answer_outlook, looks_ahead
from sessiontui.project_memory.records import DEFAULT_METRIC, Record
from sessiontui.project_memory.reference import (
    Comparison,
    Conditions,
    compare,
    divide,
    lower_is_better,
    matches,
    number_to_beat,
    reference_of,
)
from sessiontui.project_memory.store import Store
from sessiontui.project_memory.understanding import (
    EMPTY_VOCABULARY,
    AskedConditions,
    Understanding,
    Vocabulary,
    asks_crossover,
    comparison_conditions,
    needs_vocabulary,
    understand,
)

if TYPE_CHECKING:
    from sessiontui.project_memory.live import GpuReadings, LiveRun
    from sessiontui.project_memory.speedup import SpeedupReport
    from sessiontui.project_memory.trust import TrustRules

_MAX_LINES = 6
_SYNONYMS = {"oom": "out of memory OutOfMemoryError", "smem": "shared memory", "hang": "timeout stall",
             "nan": "nan diverged", "watchdog": "NCCL watchdog timeout"}
_RECENT = 6
"""How many of the newest results an answer compares (each costs a record decode at start-up)."""
_VOCABULARY_RECORDS = 50


def _arithmetic(value: float, reference: float, metric: str) -> str:
    return (f"{fmt(reference)} / {fmt(value)}" if lower_is_better(metric)
            else f"{fmt(value)} / {fmt(reference)}")


def _trust_notes(rules: TrustRules | None, result: Record | None, reference: Record) -> list[str]:
    """Whether a comparison can be trusted (a stale baseline, unlike tuning), as answer lines."""
    from sessiontui.project_memory.trust import DEFAULT_RULES  # no cost until a comparison

    return (rules or DEFAULT_RULES).notes(result, reference)


# -- baseline ---------------------------------------------------------------------------------
def _group_key(record: Record) -> tuple:
    return record.concurrency, record.batch_size, (record.model or "").lower()


def _baseline_row(record: Record, beat: bool) -> str:
    notes = f" — {record.notes}" if record.notes else ""
    commit = f" @{record.git_commit[:8]}" if record.git_commit else ""
    star = "★" if beat else " "
    return (f"  {star} {record.config or record.label}: {fmt(record.value)} {record.unit or ''}"
            f" [{record.id}, {record.created_at[:10]}{commit}]{notes}")


def answer_baseline(store: Store, understanding: Understanding, metric: str = DEFAULT_METRIC,
                    rules: TrustRules | None = None) -> Answer:
    """The number to beat at the asked conditions, the baselines grouped by conditions, and the
    latest feature results at those conditions with their ratio."""
    asked = understanding.conditions
    metric = asked.comparison.metric if asked.comparison.metric != DEFAULT_METRIC else metric
    baselines = store.baselines(metric, newest=_MAX_LINES)
    results = store.benchmarks(metric, baseline=False, limit=_RECENT)
    conditions, why = comparison_conditions(asked, metric, results)
    if not baselines:
        return Answer("baseline", f"No baseline recorded for {metric} yet. Add one with "
                      "`sessiontui bench add --baseline ...` or `sessiontui record --baseline -- CMD`.",
                      figures={"metric": metric})
    top = number_to_beat(baselines, conditions)
    lines = ([f"Number to beat ({metric}, {conditions.text()}): {describe(top)}"] if top else
             [f"No baseline at {conditions.text()} for {metric}; baselines exist at other conditions."])
    if top is not None and top.notes:
        lines.append(f"  notes: {top.notes}")
    lines.append(f"  ({why})")
    if top is not None:  # still valid against the newest result it is compared with?
        latest = next((r for r in results if reference_of(r, baselines) is top), None)
        lines += [f"  {note}" for note in _trust_notes(rules, latest, top)]
    groups: dict[tuple, list[Record]] = {}
    for record in baselines:
        groups.setdefault(_group_key(record), []).append(record)
    shown: list[Record] = []
    compared: list[Record] = []
    asked_first = sorted(groups.values(), key=lambda rs: not matches(rs[0], conditions))
    for records in asked_first:
        sample = records[0]
        group_conditions = Conditions(metric, sample.concurrency, sample.batch_size, sample.model)
        beat = number_to_beat(records, group_conditions)
        lines.append(f"Baselines at {group_conditions.text()}:")
        lines += [_baseline_row(r, r is beat) for r in records[:_MAX_LINES]]
        shown += records[:_MAX_LINES]
        there = [r for r in results if matches(r, group_conditions) and r not in compared][:3]
        lines += [_result_row(r, baselines) for r in there]
        compared += there
    figures = {
        "reference_value": top.value if top else None,
        "reference_id": top.id if top else None,
        "baseline_count": baselines.total,
        "metric": metric,
    }
    ordered = ([top] if top else []) + [r for r in shown if r is not top]
    return Answer("baseline", "\n".join(lines), ordered + compared, figures)


def _result_row(result: Record, baselines: Sequence[Record]) -> str:
    """A feature result with its ratio to the number to beat (the reference rule), and a verdict."""
    comparison = compare(result, baselines)
    if comparison.speedup is None:
        return f"    result {describe(result)}: no baseline under its conditions"
    return (f"    result {describe(result)} → {comparison.text()}"
            f" ({verdict_word(comparison.speedup)})")


# -- speedup ----------------------------------------------------------------------------------
def measured_speedup(store: Store, asked: AskedConditions, metric: str,
                     rules: TrustRules | None = None) -> Answer:
    """The latest feature result at the asked conditions divided by its number to beat."""
    baselines = store.baselines(metric)
    results = store.benchmarks(metric, baseline=False, limit=_RECENT)
    conditions, why = comparison_conditions(asked, metric, results)
    figures: dict[str, Any] = {"metric": metric}
    candidates = [r for r in results if matches(r, conditions._replace(engine=None))]
    engine = asked.comparison.engine
    if engine:  # a named engine: its own results first
        candidates.sort(key=lambda r: (r.engine or "").lower() != engine)
    if not candidates:
        top = number_to_beat(baselines, conditions)
        figures |= {"reference_value": top.value if top else None,
                    "reference_id": top.id if top else None}
        beat = f"; the number to beat there is {describe(top)}" if top else ""
        return Answer("speedup", f"No feature result at {conditions.text()} for {metric} yet{beat}.",
                      [top] if top else [], figures)
    result = candidates[0]
    comparison = compare(result, baselines)
    reference, speedup = comparison.beat, comparison.speedup
    if reference is None or speedup is None or result.value is None or reference.value is None:
        text = f"Latest result {describe(result)}, but no baseline under its conditions to compare."
        return Answer("speedup", text, [result], figures | {"measured_value": result.value})
    own = comparison.own
    text = "\n".join([
        f"Measured speedup: {comparison.text()} ({_arithmetic(result.value, reference.value, metric)})"
        f" — {verdict_word(speedup).replace('slower', 'SLOWER')}.",
        f"  latest:   {describe(result)}",
        f"  baseline: {describe(reference)} (the number to beat)",
        *([f"  own engine's baseline: {describe(own)}"] if own is not None else []),
        f"  ({why})",
        *(f"  {note}" for note in _trust_notes(rules, result, reference)),
    ])
    figures |= {
        "measured_speedup": round(speedup, 4), "measured_value": result.value,
        "measured_id": result.id, "measured_at": result.created_at,
        "reference_value": reference.value, "reference_id": reference.id,
    }
    if own is not None and comparison.own_speedup is not None:
        figures |= {"own_speedup": round(comparison.own_speedup, 4), "own_reference_id": own.id}
    named = _named_engine_baseline(result, baselines, conditions, comparison)
    if named is not None and (versus := divide(result, named, metric)) is not None:
        text += (f"\n  {versus:.2f}x {conditions.engine}'s baseline {fmt(named.value)} "
                 "(the engine you named; not the number to beat)")
        figures |= {"named_reference_value": named.value, "named_speedup": round(versus, 4)}
    return Answer("speedup", text, [result, reference, *([own] if own else [])], figures)


def _named_engine_baseline(result: Record, baselines: Sequence[Record], conditions: Conditions,
                           comparison: Comparison) -> Record | None:
    """The baseline of the engine the question named, when it is neither ratio already shown."""
    if not conditions.engine:
        return None
    named = number_to_beat(baselines, conditions._replace(model=result.model or conditions.model))
    shown = {getattr(comparison.beat, "id", None), getattr(comparison.own, "id", None)}
    return None if named is None or named.id in shown else named


def _trend_line(now: float, step: int | None, previous: dict[str, Any]) -> str:
    """How the live accept length moved since the previous answer."""
    delta = now - previous["accept_length"]
    steps = f", step {previous.get('step')} → {step}" if step is not None else ""
    return f"Trend: {delta:+.3f} accept length since the last answer ({previous.get('at', '?')[:16]}{steps})"


def _latest_two(measured: Answer, report: SpeedupReport) -> list[str]:
    """The last measured result against the number to beat and the projection from the live run,
    each with its source and age, the more recent first."""
    from sessiontui.project_memory.humanize import age
    from sessiontui.project_memory.speedup import projection_line

    measured_at = measured.figures.get("measured_at")
    first_line = measured.text.splitlines()[0]
    if measured_at:
        record = f" [{measured.figures.get('measured_id')}, measured {age(measured_at)}]"
        first_line = f"{first_line.rstrip('.')}{record}"
    projected = projection_line(report, age(report.acceptance_at))
    if measured_at and (report.acceptance_at or "") > measured_at:
        return [projected, first_line]
    return [first_line, projected]


def answer_speedup(store: Store, understanding: Understanding, snapshots: Sequence[LiveRun] = (),
                   previous: dict[str, Any] | None = None, *, metric: str = DEFAULT_METRIC,
                   draft_overhead: float | None = None, rules: TrustRules | None = None) -> Answer:
    """What was asked first (a live projection, a what-if, break-even, or the last measured
    speedup), then the rest of the report with its sources."""
    from sessiontui.project_memory.speedup import (
        build_speedup_report,
        lead_lines,
        speedup_answer_lines,
    )

    asked = understanding.conditions
    measured = measured_speedup(store, asked, metric, rules)
    conditions = None
    named = asked.comparison
    if named.concurrency is not None or named.batch_size is not None or named.engine:
        conditions, _ = comparison_conditions(asked, metric, ())
    report = build_speedup_report(
        store, snapshot=snapshots[0] if snapshots else None, metric=metric,
        draft_overhead=draft_overhead, draft_overhead_source="your draft_overhead setting in sessiontui.toml"
        if draft_overhead is not None else None,
        conditions=conditions, accept_target=asked.accept_length,
    )
    breakeven = "breakeven" in understanding.words
    lead = lead_lines(report, breakeven=breakeven)
    asked_what_if = report.target_accept_length is not None or (
        breakeven and report.breakeven_accept_length is not None)
    lines = lead + [line for line in speedup_answer_lines(report) if line not in lead]
    if report.accept_length is not None and previous and previous.get("accept_length") is not None:
        lines.insert(-1, _trend_line(report.accept_length, report.step, previous))
        measured.figures["accept_length_trend"] = report.accept_length - previous["accept_length"]
    same_point = report.calibration_id and report.calibration_id == measured.figures.get("measured_id")
    if same_point:
        lines = [line for line in lines if not line.startswith("Measured")]
    if asked_what_if:  # what was asked first, then the rest
        first, lines = lines[:len(lead)], lines[len(lead):]
    else:  # the measured result and the projection, the more recent first
        first = _latest_two(measured, report)
        lines = [line for line in lines if line not in lead]
    details = measured.text.splitlines()[0 if asked_what_if else 1:]
    measured.text = "\n".join([*first, *lines, "Last measured:", *details])
    measured.figures = report.projection_figures() | measured.figures
    measured.figures |= {"verdict": report.verdict, "step": report.step}
    if report.target_value is not None:
        measured.figures |= {"target_accept_length": asked.accept_length,
                             "target_value": report.target_value,
                             "target_speedup": report.target_speedup}
    return measured


# -- lessons and search -----------------------------------------------------------------------
_EVERY = frozenset("all every list known so far each everything lessons issues gotchas problems "
                   "bugs pitfalls mistakes".split())
_DIED = frozenset("crash crashed crashes died die dead killed oom whydid fail failed".split())
_RUNS = frozenset("training train run job drafter trainer".split())
_FILLER = frozenset("ran into hit seen pls plz recorded logged noted written wrote write down kept "
                    "saved stored captured "
                    "documented found gimme give show tell".split())
"""Words of a plural question that say how lessons were kept, not what about."""


def answer_lessons(store: Store, question: str, words: Sequence[str] = (),
                   engine: str | None = None) -> Answer:
    """Lessons ranked by full-text relevance to the question; a plural question lists every match
    (every lesson when it names nothing); a crash question leads with the run that crashed; a
    speculative flag named for the wrong engine leads with the engine's own spelling."""
    about_a_run = _DIED & set(words) and (
        _RUNS & set(words) or any(re.fullmatch(r"v\d+|[\w.-]+\.log", w) for w in words))  # `the v1 run`
    crashed = _crashed_run(store, question) if about_a_run else None
    expanded = question
    for short, expansion in _SYNONYMS.items():
        if re.search(rf"\b{short}\b", question.lower()):
            expanded += " " + expansion
    if crashed is not None:
        expanded += " " + _failure_text(crashed)
    plural = bool(_EVERY & set(words) | _EVERY & set(question.lower().split()))
    limit = 50 if plural else 5
    content = _content_words(question) - _EVERY - _FILLER
    lessons = [] if plural and not content else store.search(expanded, kind="lesson", limit=limit)
    heading = []
    if not lessons:  # "any gotchas?", "known issues so far", or no word matches: the latest
        lessons = store.list("lesson", limit=limit)
        heading = ["Every lesson, newest first:" if plural else "The latest lessons:"
                   if not content else "No lesson matches those words; the latest lessons:"]
    lead = [_crash_line(crashed)] if crashed is not None else []
    figures: dict[str, Any] = {"run_id": crashed.id} if crashed is not None else {}
    from sessiontui.project_memory.trust import flag_gotcha  # small; read only for lessons

    if gotcha := flag_gotcha(question, engine):
        lead.insert(0, f"{gotcha}.")
        figures["right_flag"] = gotcha.rsplit(" takes ", 1)[1]
    if not lessons:
        related = answer_search(store, expanded, words)
        text = "\n".join([*lead, "No recorded lesson matches that."])
        if related.records:
            text += " Related records:\n" + related.text
        return Answer("lessons", text, related.records, figures | {"count": 0})
    if crashed is not None:
        lessons = lessons[:1]  # the lesson for this crash, not every lesson that shares a word
        lead.append("Matching lesson:")
    return Answer("lessons", "\n".join(lead + heading + lesson_lines(lessons)),
                  ([crashed] if crashed is not None else []) + lessons,
                  figures | {"count": len(lessons), "lesson_id": lessons[0].id,
                             "title": lessons[0].title})


def _crashed_run(store: Store, question: str) -> Record | None:
    """The run the question names among those that crashed, else the latest that did."""
    from sessiontui.project_memory.run_answers import find_run
    from sessiontui.project_memory.runs import FAILURES

    runs = [r for r in store.list("run", limit=50)
            if r.status in FAILURES or any(e.get("kind") in FAILURES for e in r.events)]
    return find_run(runs, question) if runs else None


def _failure_text(run: Record) -> str:
    """The words of a run's last failure (its message and line), to find its lesson."""
    from sessiontui.project_memory.runs import FAILURES

    failures = [e for e in run.events if e.get("kind") in FAILURES]
    last = failures[-1] if failures else {}
    return f"{last.get('message', '')} {last.get('line', '')}"


def _crash_line(run: Record) -> str:
    """`train.log (eagle3-kimi-drafter-v1) crashed at step 66 (CUDA OOM), 2.9 days ago`."""
    from pathlib import PurePath

    from sessiontui.project_memory.humanize import age
    from sessiontui.project_memory.runs import FAILURES

    failures = [e for e in run.events if e.get("kind") in FAILURES]
    last = failures[-1] if failures else {}
    kind = last.get("kind") or run.status or "failed"
    step = last.get("step", run.step)
    where = f" at step {step:,}" if isinstance(step, int) else ""
    why = f" ({last.get('message') or last.get('line')})" if last.get("message") or last.get("line") else ""
    log = PurePath(run.log_path).name if run.log_path else "the run"
    return (f"{log} ({run.label}) {kind}{where}{why}, {age(run.last_update or run.updated_at)} "
            f"[{run.id}]")


def _content_words(question: str) -> set[str]:
    """The words of a question that are neither question words nor the domain's intent words."""
    from sessiontui.project_memory.understanding import is_intent_word

    return {w for w in re.findall(r"[a-z0-9_]+", question.lower()) if not is_intent_word(w)}


SEARCH_BELOW = 0.3
"""Below this confidence a structured answer also lists the top full-text search hits, and a
question no structured answer covers is answered from search over every record's text."""
_WHERE_OR_HOW = frozenset({"whereis", "launched"})
_HOW_MUCH = re.compile(r"\b(?:how (?:many|much|big|large)|size|what (?:dataset|data))\b", re.I)
"""A figure of how things were run or kept (prompts, warm-ups, disk size): written in the notes."""


def answer_search(store: Store, question: str, words: Sequence[str] = ()) -> Answer:
    """Full-text matches over every record's text (notes, commands, configs, lesson fields), each
    with its matching lines; a question about notes, or where things are and how they were run,
    lists notes first."""
    about_notes = re.search(r"\b(?:notes?|goals?|plan|decided|decision|idea|todo|recipe|target"
                            r"|project|objective|aim|purpose)\b",
                            question.lower()) is not None or bool(_WHERE_OR_HOW & set(words))
    found = store.search(question, kind="note", limit=10) if about_notes or _HOW_MUCH.search(
        question) else []
    found = found or store.search(question, limit=10)
    if not found and about_notes:
        found = store.list("note", limit=10)
    if not found:
        return Answer("search", "Nothing in the memory matches that.", [], {"count": 0})
    lines = search_lines(found, question)
    return Answer("search", "\n".join(lines), found, {"count": len(found), "top_id": found[0].id})


def search_lines(found: Sequence[Record], question: str, per_record: int = 2) -> list[str]:
    """Each record found, then its lines that hold a word of the question (the matching lines)."""
    wanted = {w[:5] for w in _content_words(question) if len(w) >= 3}
    lines = []
    for record in found:
        lines.append(f"{record.kind:9} {record.label} [{record.id}, {record.created_at[:10]}]")
        text_lines = [line.strip() for line in record.search_text().splitlines() if line.strip()]
        matching = [line for line in text_lines
                    if wanted & {w[:5] for w in re.findall(r"[a-z0-9]+", line.lower())}]
        for line in (matching or text_lines[:1])[:per_record]:
            lines.append(f"          {line[:200]}")
    return lines


def search_hits(store: Store, question: str, limit: int = 3) -> list[str]:
    """The top full-text hits for a question, with their matching lines (the safety net)."""
    return search_lines(store.search(question, limit=limit), question, per_record=1)


# -- dispatch ---------------------------------------------------------------------------------
def vocabulary_of(store: Store | None, metric: str) -> Vocabulary:
    """The memory's own names (a bounded read: the newest records of each kind)."""
    if store is None:
        return EMPTY_VOCABULARY
    records = (store.list("lesson", limit=_VOCABULARY_RECORDS) + store.list("run", limit=20)
               + store.list("note", limit=_VOCABULARY_RECORDS)
               + store.benchmarks(metric, limit=_VOCABULARY_RECORDS))
    return Vocabulary.of(records)


def _answer(intent: str, store: Store | None, question: str, understanding: Understanding,
            context: dict[str, Any]) -> Answer:
    """One intent's answer."""
    if intent == "run":
        from sessiontui.project_memory.run_answers import answer_run

        return answer_run(store, question, context["snapshots"], understanding)
    if intent == "gpu":
        from sessiontui.project_memory.gpu_answers import answer_gpu

        gpu = context["gpu"] or (context["read_gpu"]() if context["read_gpu"] else None)
        return answer_gpu(gpu, question)
    if store is None:
        return Answer(intent, "The project memory is empty: nothing recorded here yet.")
    metric = context["metric"]
    if intent == "baseline":
        return answer_baseline(store, understanding, metric, context["rules"])
    if intent == "speedup" and asks_crossover(understanding.words, understanding.conditions):
        return _crossover(store, understanding, context)
    if intent == "speedup":
        return answer_speedup(store, understanding, context["snapshots"], context["previous"],
                              metric=metric, draft_overhead=context["draft_overhead"],
                              rules=context["rules"])
    if intent == "benchmarks" and {"sweep", "sweeps"} & set(understanding.words):
        from sessiontui.project_memory.sweep_answers import answer_crossover

        if (sweep := answer_crossover(store, understanding, metric)) is not None:
            sweep.intent = "benchmarks"  # the sweep asked for, with its crossover
            return sweep
    if intent == "benchmarks":
        from sessiontui.project_memory.bench_answers import answer_benchmarks

        return answer_benchmarks(store, understanding, metric)
    lowered = question.lower()
    corrected = [w for w in understanding.words if w not in lowered]  # typos fixed, jargon named
    text = " ".join([question, *corrected])
    if intent == "lessons":
        return answer_lessons(store, text, understanding.words,
                              understanding.conditions.comparison.engine)
    return answer_search(store, text, understanding.words)


def _crossover(store: Store, understanding: Understanding, context: dict[str, Any]) -> Answer:
    """Where the feature stops paying, from the sweep asked about; with no sweep, how to record
    one, then the speedup measured so far."""
    from sessiontui.project_memory.sweep_answers import NO_SWEEP, RECORD_SWEEP, answer_crossover

    found = answer_crossover(store, understanding, context["metric"])
    if found is not None:
        return found
    measured = answer_speedup(store, understanding, context["snapshots"], context["previous"],
                              metric=context["metric"], draft_overhead=context["draft_overhead"],
                              rules=context["rules"])
    measured.text = f"{NO_SWEEP}\n\n{measured.text}"
    measured.figures |= {"crossover": None, "record_sweep": RECORD_SWEEP}
    return measured


def ask(store: Store | None, question: str, *, snapshots: Sequence[LiveRun] = (),
        gpu: GpuReadings | None = None, read_gpu: Callable[[], GpuReadings] | None = None,
        read_runs: Callable[[], Sequence[LiveRun]] | None = None,
        previous: dict[str, Any] | None = None, metric: str = DEFAULT_METRIC,
        draft_overhead: float | None = None, rules: TrustRules | None = None) -> Answer:
    """Answer a question from the memory, live training snapshots and GPU readings.

    `read_gpu` samples the GPUs and `read_runs` reads the followed logs, when an answer needs
    them and `gpu` or `snapshots` hold nothing (the CLI reads nothing it does not need).
    `previous` holds the figures of the last speedup answer, so the live trend can be shown;
    `rules` say when a baseline is stale and which flags are the feature under test.
    A question that looks ahead (the end of training, targets) gets the outlook answer.
    When the understanding is unsure, the runner-up intent's best candidates follow, labelled.
    """
    vocabulary = vocabulary_of(store, metric) if needs_vocabulary(question) else None
    understanding = understand(question, vocabulary)
    intents = {understanding.intent, *(name for name, _ in understanding.alternatives[:1])}
    has_targets = (store is not None and "target" in question.lower()
                   and bool(store.list("target", limit=1)))  # read only when targets are named
    ahead = looks_ahead(understanding, question, has_targets)
    if not snapshots and read_runs is not None and (ahead or intents & {"run", "speedup"}):
        snapshots = read_runs()
    context = {"snapshots": snapshots, "gpu": gpu, "read_gpu": read_gpu, "previous": previous,
               "metric": metric, "draft_overhead": draft_overhead, "rules": rules}
    if ahead:
        answer = answer_outlook(store, question, understanding, snapshots,
                                draft_overhead=draft_overhead)
        if understanding.intent == "run":  # the run asked about: followed, or its record
            run = _answer("run", store, question, understanding, context)
            if run.figures.get("live"):
                answer.figures["run_id"] = run.figures.get("run_id")
            elif run.figures.get("run_id"):  # a stored run that is not followed: its record
                answer = run
    else:
        answer = _answer(understanding.intent, store, question, understanding, context)
    if understanding.unsure and not ahead:
        runner_up = understanding.alternatives[0][0]
        other = _answer(runner_up, store, question, understanding, context)
        answer.text = (f"Best guess ({understanding.intent}):\n{answer.text}\n\n"
                       f"Or, if you meant {runner_up}:\n{other.text}")
        answer.records += [r for r in other.records if r not in answer.records]
    if store is not None and answer.intent != "search" and (
            understanding.confidence < SEARCH_BELOW or not answer.records):
        hits = search_hits(store, question)
        if hits:  # the safety net: what the memory's text says, matching lines shown
            answer.text += "\n\nAlso in the memory (full-text search):\n" + "\n".join(hits)
    answer.confidence = understanding.confidence
    answer.conditions = _conditions_figures(understanding, metric)
    answer.alternatives = [{"intent": name, "confidence": understanding.confidence_of(name)}
                           for name, _ in understanding.alternatives[:3]]  # one scale
    return answer


def _conditions_figures(understanding: Understanding, metric: str) -> dict[str, Any]:
    """What the answer assumed: the metric and the conditions the question named."""
    asked = understanding.conditions
    named = asked.comparison.to_dict()
    conditions: dict[str, Any] = named | {"metric": named["metric"] if named["metric"] != DEFAULT_METRIC
                                          else metric}
    if asked.accept_length is not None:
        conditions["accept_length"] = asked.accept_length
    if asked.no_feature:
        conditions["without_feature"] = True
    return conditions


def classify(question: str) -> str:
    """The intent of a question (kept for callers that only need the intent)."""
    return understand(question).intent
