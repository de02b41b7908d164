"""Failure signatures: one normalised line per failure, so a crash can be matched to lessons."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from difflib import SequenceMatcher
from typing import Any

from sessiontui.project_memory.records import Record
from sessiontui.project_memory.store import Store

MAX_MESSAGE_CHARS = 200
SIGNATURE_MATCH = 0.6  # token similarity of two signatures of the same failure type
HEAD_WORDS = 8  # opening words that identify a message across rewordings
NEAR_HEAD = 0.9  # similarity of messages that share their opening words, below an exact match
CANDIDATES = 50  # lessons fetched from the full-text index per query
STRONG_TEXT_MATCH = 0.75  # share of a signature's words a lesson must mention without a signature

# Prefixes that launchers and loggers put before a line: `[default0]:`, `[rank3]:`, `[1745] `,
# `2026-01-02 03:04:05,678 ` / `[2026-01-02 03:04:05]`, `E0102 03:04:05.678 12345 file.cc:12] `.
_PREFIX = re.compile(
    r"^(?:\s*(?:\[[^\]]{0,80}\]:?|\d{4}-\d\d-\d\d[T ][\d:.,]+\S*|"
    r"[EWIF]\d{4} [\d:.]+\s+\d+\s+\S+:\d+\]|-|\|)\s*)+"
)
_EXCEPTION = re.compile(
    r"(?<![\w.])((?:[A-Za-z_]\w*\.)*"
    r"(?:[A-Z]\w*(?:Error|Exception|Exit|Interrupt|Timeout|Failure)|OutOfResources))"
    r"(?::\s*(.*))?$"
)
_NCCL_WATCHDOG = re.compile(r"(Watchdog caught collective operation timeout.*)")
_NCCL_ERROR = re.compile(r"\b(NCCL (?:error|WARN)\b.*)", re.IGNORECASE)
_KILLED = re.compile(r"(?:^|\s)Killed(?:\s|$)|Signal 9 \(SIGKILL\)")
_CUDA_OOM = re.compile(r"^CUDA out of memory", re.IGNORECASE)
_NAMED_FAILURES = frozenset({"ProcessGroupNCCL", "NCCL", "Killed"})

# Abstractions, applied in order: the most specific shapes first.
_ABSTRACT = (
    (re.compile(r"\b\d{4}-\d\d-\d\d(?:[T ]\d\d:\d\d(?::\d\d)?(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?)?"),
     "<time>"),
    (re.compile(r"\b\d\d:\d\d:\d\d(?:[.,]\d+)?\b"), "<time>"),
    (re.compile(r"\b0x[0-9a-fA-F]+\b"), "<addr>"),
    (re.compile(r"\b[a-z][a-z0-9+.-]{0,30}://\S+"), "<url>"),
    (re.compile(r"(?<![\w<>.])(?:~|\.{1,2})?(?:/[\w.@+-]+)+/?"), "<path>"),
    (re.compile(r"(?<![\w<])\d+(?:\.\d+)?\s*(?:[KMGTP]i?B|bytes|B)\b"), "<size>"),
    (re.compile(r"(?<![\w<])[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?"), "<n>"),
    (re.compile(r"\s+"), " "),
)
_TOKEN = re.compile(r"<\w+>|\w+")
_WORD = re.compile(r"[A-Za-z_]\w+")
# Placeholders and filler words say nothing about which failure it is.
_IGNORED_WORDS = frozenset(
    "time addr url path size n an and are as at be by for from in is it no not of on or the to "
    "was with".split()
)


def _abstract(message: str) -> str:
    """Replace the parts of a message that change between occurrences with placeholders."""
    for pattern, placeholder in _ABSTRACT:
        message = pattern.sub(placeholder, message)
    message = message.strip()
    if len(message) > MAX_MESSAGE_CHARS:
        message = message[:MAX_MESSAGE_CHARS].rsplit(" ", 1)[0] + " ..."
    return message


def _lines(text: str) -> list[str]:
    """The text's non-empty lines without launcher and logger prefixes, carriage returns split."""
    stripped = (_PREFIX.sub("", line).strip() for line in re.split(r"[\r\n]+", text))
    return [line for line in stripped if line]


def _known_failure(line: str) -> str | None:
    """The signature of a line that names a failure whose type is not an exception, or None."""
    if found := _NCCL_WATCHDOG.search(line):
        return f"ProcessGroupNCCL: {_abstract(found.group(1))}"
    if _KILLED.search(line):
        return "Killed"
    if found := _NCCL_ERROR.search(line):
        return f"NCCL: {_abstract(found.group(1))}"
    return None


def failure_signature(text: str) -> str:
    """A normalised `Type: message` for a failure line or crash tail, stable across runs."""
    lines = _lines(text or "")
    exceptions = [m for m in map(_EXCEPTION.search, lines) if m]
    # A CUDA OOM or Triton resource error says more than whatever wrapper re-raised it last.
    for found in reversed(exceptions):
        if _CUDA_OOM.match(found.group(2) or "") or found.group(1).endswith("OutOfResources"):
            return _join(found.group(1), found.group(2))
    for line in reversed(lines):
        if known := _known_failure(line):
            return known
    if exceptions:
        return _join(exceptions[-1].group(1), exceptions[-1].group(2))
    return _abstract(lines[-1]) if lines else ""


def _join(type_name: str, message: str | None) -> str:
    message = _abstract(message or "")
    return f"{type_name}: {message}" if message else type_name


def failure_type(signature: str) -> str:
    """The failure's type without module path, with CUDA OOM raised as RuntimeError folded in."""
    head, _, message = signature.partition(": ")
    if head not in _NAMED_FAILURES and not _EXCEPTION.fullmatch(head):
        return ""  # an unrecognised line, e.g. a stall message: no type to agree on
    short = head.rsplit(".", 1)[-1]
    return "OutOfMemoryError" if _CUDA_OOM.match(message) else short


def _words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text)} - _IGNORED_WORDS


def _signature_similarity(a: str, b: str) -> float:
    """How alike two signatures are (0..1); zero unless their failure types agree."""
    if a == b:
        return 1.0 if a else 0.0
    if not failure_type(a) or failure_type(a) != failure_type(b):
        return 0.0
    words_a, words_b = (_TOKEN.findall(s.partition(": ")[2]) for s in (a, b))
    ratio = SequenceMatcher(None, words_a, words_b, autojunk=False).ratio()
    # Messages reworded between releases keep their opening words ("CUDA out of memory. Tried...").
    opening = min(HEAD_WORDS, len(words_a), len(words_b))
    agreeing = next((i for i in range(opening) if words_a[i] != words_b[i]), opening)
    head = agreeing / opening if opening else 0.0
    return max(ratio, NEAR_HEAD * head)


def _text_coverage(signature: str, lesson: Record) -> float:
    """The share of the signature's words that the lesson's own text mentions."""
    wanted = _words(signature)
    if not wanted:
        return 0.0
    return len(wanted & _words(lesson.search_text())) / len(wanted)


def match_lessons(store: Store, signature: str, text: str = "", limit: int = 3) -> list[Record]:
    """Past lessons that match a failure, best first; an unrelated failure matches none."""
    if not signature:
        return []
    # Candidates come from the full-text index: a lesson sharing no word with the failure's
    # signature or log lines cannot match, and the index finds the others without a full scan.
    by_signature = store.search(" ".join(_words(signature)), kind="lesson", limit=CANDIDATES)
    by_text = store.search(text, kind="lesson", limit=CANDIDATES) if text else []
    fts_rank: dict[str, int] = {}
    for ranked in (by_signature, by_text):
        for i, lesson in enumerate(ranked):
            fts_rank[lesson.id] = min(i, fts_rank.get(lesson.id, i))
    candidates = {lesson.id: lesson for lesson in (*by_signature, *by_text)}
    scored = []
    for lesson in candidates.values():
        # A lesson typed by hand has no stored signature; its symptom often quotes the error.
        stored = lesson.signature or failure_signature(lesson.symptom or "")
        similarity = _signature_similarity(signature, stored)
        coverage = _text_coverage(signature, lesson)
        if similarity < SIGNATURE_MATCH and coverage < STRONG_TEXT_MATCH:
            continue
        bonus = 0.1 / (1 + fts_rank[lesson.id])
        scored.append((2 * similarity + coverage + bonus, lesson.created_at, lesson))
    scored.sort(key=lambda item: (item[0], item[1]), reverse=True)
    return [lesson for _, _, lesson in scored[:limit]]


def _get(event: Mapping[str, Any] | object, name: str) -> Any:
    return event.get(name) if isinstance(event, Mapping) else getattr(event, name, None)


def event_text(event: Mapping[str, Any] | object) -> str:
    """The log lines of an event: its context, its own line and its message."""
    context: Iterable[str] = _get(event, "context") or ()
    return "\n".join([*context, _get(event, "line") or "", _get(event, "message") or ""])


def event_signature(event: Mapping[str, Any] | object) -> str:
    """The event's own signature, or one made from its lines (stalls and divergences have none)."""
    return _get(event, "signature") or failure_signature(event_text(event))


def lessons_for_event(store: Store, event: Mapping[str, Any] | object) -> list[Record]:
    """Lessons matching a training event (a collector TrainEvent or a run record's event dict)."""
    return match_lessons(store, event_signature(event), event_text(event))
