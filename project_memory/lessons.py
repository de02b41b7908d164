"""Matching a failure to the lessons people wrote: by what identifies it, in their words or the log's.

A failure and a lesson are compared through their terms: the failure kinds both name (CUDA OOM,
Triton shared memory, NCCL watchdog, segfault ...; a phrase table maps a person's words and the log's
to one kind), the exception type with or without module path, and the distinctive words, each
weighted by how rare it is among all lessons and failures (IDF). Numbers, paths and sizes are not
terms, so they never decide. A lesson about one kind of failure never matches another kind.
"""

from __future__ import annotations

import math
import re
import zlib
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from sessiontui.project_memory.events import TrainEvent
from sessiontui.project_memory.records import Record
from sessiontui.project_memory.store import Store, StoreError

MIN_COVERAGE = 0.5  # share of a failure's term weight a lesson must mention without a shared kind
MIN_TYPED_COVERAGE = 0.3  # ... when the lesson names the failure's own (not generic) exception type
MIN_NAME_CHARS = 8  # a code name shorter than this (input_ids) may name many failures
MIN_LESSON_COVERAGE = 0.6  # ... or share of a lesson's own word weight found in the failure
DETAIL_FACTOR = 0.3  # weight of the words of a failure's detail against those that name it
MIN_SHARED = 4.0  # and the summed weight of the shared terms (a couple of rare words)
KEEP_WITHIN = 0.6  # lessons scoring below this share of the best one are left out
BACKGROUND_RUNS = 200  # stored runs whose failures count as documents for the word weights
MAX_CACHED_LESSONS = 50_000

# Failure kinds: (kind, what names it in a log or in a person's words).
_KINDS: tuple[tuple[str, str], ...] = (
    ("triton-resources", r"outofresources|out of resources?\b|\bsmem\b|triton\b.{0,60}shared"
                             r" mem|shared mem\w*.{0,60}triton"),
    ("shared-memory", r"shared mem"),
    ("shm", r"/dev/shm|\bshm\b|shm.size|ipc.host|bus error|sigbus|signal 7\b"),
    ("host-oom", r"oom.?kill|killed process|signal: killed|(?<!is )\bkilled\b(?! by)|sigkill"
                 r"|signal 9\b|exit ?(?:code|status)\W{0,3}(?:-9|137)\b|host (?:ram|memory)"
                 r"|cpu (?:ram|memory)|system (?:ram|memory)|\bram\b"),
    ("cuda-oom", r"cuda out of memory|outofmemoryerror|cuda oom|gpu oom|gpu memory|vram"
                 r"|cublas_status_alloc_failed"
                         r"|hip out of memory|(?<!host )(?<!cpu )out of memory|\boom\b"),
    ("segfault", r"segmentation fault|seg.?fault|sigsegv|signal 11\b|exit ?code\W{0,3}-11\b"
                     r"|exit code 139|\bsegv\b"),
    ("illegal-access", r"illegal memory access|illegal ?address|\bima\b"),
    ("device-assert", r"device.side assert"),
    ("no-kernel-image", r"no kernel image"),
    ("cublas", r"cublas"),
    ("cudnn", r"cudnn"),
    ("nccl-timeout", r"watchdog caught|nccl watchdog|watchdog time|watchdog got stuck"
                     r"|heartbeat monitor|collective operation time"
                     r"|(?:nccl|collective|allreduce|all.reduce|barrier)\w*\s+(?:\w+\s+){0,3}?"
                     r"(?:time.?out|timed out|hang|hung|stuck)|(?:time.?out|timed out|hang|hung"
                     r"|stuck)\s+(?:\w+\s+){0,3}?(?:nccl|collective|allreduce|all.reduce|barrier)"),
    ("nccl-system", r"unhandled system error|ncclsystemerror|socketstartconnect|no route to host"
                    r"|nccl.{0,60}system error|system error.{0,60}nccl"),
    ("nccl-cuda", r"unhandled cuda error|ncclunhandledcudaerror"),
    ("nccl-internal", r"ncclinternalerror|internal check failed"),
    ("nccl-remote", r"remote process exited"),
    ("no-space", r"no space left|disk (?:is )?full|errno 28|storagefull|disk quota|out of disk"
                 r"|(?:no|enough|free) (?:disk )?space|disk space"),
    ("undefined-symbol", r"undefined symbol"),
    ("pad-token", r"pad(?:ding)?.token|pad_token"),
    ("same-device", r"same device|two devices|different devices|device mismatch"),
    ("state-dict", r"state.dict|size mismatch for|missing key|unexpected key"),
    ("unused-parameters", r"unused param|find_unused_parameters|finished reduction"
                              r"|did not receive grad"),
    ("address-in-use", r"address already in use|eaddrinuse|port.{0,20}(?:in use|busy|taken"
                       r"|occupied|conflict)|(?:new|different|another|free|other) port\b"),
    ("meta-tensor", r"meta tensor"),
    ("gpu-lost", r"fallen off the bus|gpu is lost|\bxid\b|uncorrectable ecc|ecc error"),
    ("launch-failure", r"unspecified launch failure|cudaerrorlaunchfailure"),
    ("misaligned-address", r"misaligned address"),
    ("missing-file", r"no such file|filenotfounderror|file not found|missing (?:file|checkpoint"
                     r"|config)"),
    ("shape-mismatch", r"mat1 and mat2|shapes cannot be multiplied|shape mismatch|must match the"
                       r" size of tensor|size of tensor \w+ \(\d+\) must match"),
    ("rendezvous", r"rendezvous|connection refused|distnetworkerror|connectfullmesh|tcpstore"),
    ("hub-access", r"couldn't connect to .{0,40}huggingface|hf_hub_offline|gated repo"
                   r"|repository not found|401 client error"),
    ("diverged", r"\bnan\b|diverg|loss.{0,20}\binf\b|inf(?:inite)? loss"),
    ("stalled", r"stall|\bhang|\bhung\b|stuck|freez|no progress"),
)
_KIND_PATTERNS = tuple((kind, re.compile(pattern)) for kind, pattern in _KINDS)
_CUDA_OOM = re.compile(r"cuda out of memory|outofmemoryerror|cuda oom|gpu oom|vram")
_GENERIC_TYPES = frozenset({"runtimeerror", "valueerror", "exception", "assertionerror", "typeerror",
                            "oserror", "error", "notimplementederror", "systemexit"})
# A shared-memory lesson is about Triton, unless it is about the DataLoader's /dev/shm.
_SHM_CONTEXT = re.compile(r"/dev/shm|\bshm\b|dataloader|bus error|docker|worker")

_TOKEN = re.compile(r"[A-Za-z_][\w.]*[A-Za-z0-9_]|[A-Za-z]")
_CAMEL = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+")
_CAMEL_CASE = re.compile(r"[a-z][A-Z]")  # OutOfResources splits; GPUs does not
_PATH = re.compile(r"\S*/\S*")  # paths and URLs never decide
_STOPWORDS = frozenset("""
a about above after again all also an and any are as at be been before being below but by can
could did do does doing during each few for from further had has have having how if in into is it
its just may might more most much must no nor not now of off on once only or other our out over own
same should so some such than that the their them then there these they this those through to too
under until up very was we were what when where which while who why will with would you your yes
get got gets use used using via per still yet one two new set sets
error errors exception traceback recent call last file line raise raised self return module py
site packages lib home user usr local envs env conda anaconda miniconda python dist main run runs
running train training trainer please see consider passing debugging asynchronously reported api
stacktrace incorrect compile enable assertions kernel errors might other some call n size path addr
time url fix fixed issue problem bug crash crashed crashes happen happens happened when job step
steps fails failed failure fail occurred occurs occur encountered because caused cause due again
torch nn functional modules forward backward wrapper wrapped impl inner outer args kwargs
runtime runtimeerror valueerror typeerror oserror assertionerror notimplementederror systemexit
break breaks broke broken work works working wrong bad weird random sometimes always never
""".split())
_IDENTIFIER_PARTS = re.compile(r"[._]")


@dataclass(frozen=True)
class Terms:
    """What identifies a text as a failure: its kinds and its words, each with a weight factor."""

    kinds: frozenset[str]  # failure kinds named (cuda-oom, nccl-timeout, ...)
    words: Mapping[str, float]  # word -> factor (1 for what names the failure, less for detail)
    names: frozenset[str] = frozenset()  # code names (HeaderTooLarge, find_unused_parameters)


def _stem(word: str) -> str:
    """A light stem so that `timeouts`/`timeout`, `fused`/`fuse` agree."""
    for suffix, keep in (("ies", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")):
        if word.endswith(suffix) and len(word) - len(suffix) >= 4 and not word.endswith("ss"):
            return word[: len(word) - len(suffix)] + keep
    return word


def words_of(text: str) -> set[str]:
    """Lower-case word stems of a text; module paths and CamelCase names also give their parts
    (`triton.runtime.errors.OutOfResources` gives `outofresources`, `out`, `resources`, ...)."""
    found: set[str] = set()
    for token in _TOKEN.findall(_PATH.sub(" ", text)):
        pieces = [token, *_IDENTIFIER_PARTS.split(token)]
        for piece in list(pieces):
            if _CAMEL_CASE.search(piece):
                pieces += _CAMEL.findall(piece)
        for piece in pieces:
            word = piece.lower()
            if len(word) > 1 and word not in _STOPWORDS and not any(c.isdigit() for c in word):
                found.add(_stem(word))
    return found


def names_of(text: str) -> frozenset[str]:
    """The code names in a text, which people copy from an error: CamelCase or snake_case words."""
    return frozenset(token.lower() for token in _TOKEN.findall(_PATH.sub(" ", text))
                     if len(token) >= MIN_NAME_CHARS and ("_" in token.strip("_")
                                                          or _CAMEL_CASE.search(token))
                     and token.lower() not in _STOPWORDS)


def kinds_of(text: str) -> frozenset[str]:
    """The failure kinds a text names, in a log's words or a person's."""
    lowered = text.lower()
    kinds = {kind for kind, pattern in _KIND_PATTERNS if pattern.search(lowered)}
    if "shared-memory" in kinds:
        kinds.discard("shared-memory")
        kinds.add("shm" if _SHM_CONTEXT.search(lowered) else "triton-resources")
    if kinds & {"triton-resources", "shm", "host-oom"} and not _CUDA_OOM.search(lowered):
        kinds.discard("cuda-oom")  # "out of resource: shared memory" is no CUDA OOM
    return frozenset(kinds)


def _terms(primary: str, detail: str, kinds: frozenset[str]) -> Terms:
    """Terms with the primary text's words at full weight and the detail's at DETAIL_FACTOR."""
    words = dict.fromkeys(words_of(detail), DETAIL_FACTOR)
    words.update(dict.fromkeys(words_of(primary) | {f"kind:{kind}" for kind in kinds}, 1.0))
    return Terms(kinds, words, names_of(primary))


def _first_sentence(text: str) -> str:
    end = text.find(". ")
    return text[:end] if end > 0 else text


def failure_terms(event: TrainEvent) -> Terms:
    """What identifies a failure: its kind, exception type and first sentence name it; the rest
    of its message, its failure lines and innermost frames add detail."""
    signature = event.signature or ""
    primary = "\n".join((event.kind, _first_sentence(signature), _first_sentence(event.message)))
    failing = [line for line in event.context if _is_failure_line(line)]
    frames = [line for line in event.context if line.lstrip().startswith("File ")][-2:]
    detail = "\n".join([signature, event.line, *failing, *frames])
    return _terms(primary, detail, kinds_of("\n".join([primary, signature, *failing])))


def _is_failure_line(line: str) -> bool:
    """A context line that names the failure (not a frame, not progress)."""
    stripped = line.strip()
    return not stripped.startswith(("File ", "Traceback", "^")) and bool(
        re.search(r"Error\b|Exception\b|error:|fault|Killed|SIG[A-Z]+|Fatal|exitcode", stripped))


def lesson_terms(lesson: Record) -> Terms:
    """What a lesson is about (computed once per lesson version, then remembered)."""
    key = (lesson.id, lesson.updated_at)
    if not lesson.id or key not in _LESSON_TERMS:
        if len(_LESSON_TERMS) >= MAX_CACHED_LESSONS:
            _LESSON_TERMS.clear()
        _LESSON_TERMS[key] = _lesson_terms(lesson)
    return _LESSON_TERMS[key]


def _lesson_terms(lesson: Record) -> Terms:
    """The kinds a lesson's title and symptom name (its cause's when they name none), and all its
    descriptive words; the fix names other things and is left out."""
    described = "\n".join(p for p in (lesson.title, lesson.symptom, lesson.signature) if p)
    kinds = kinds_of(described) or kinds_of(lesson.cause or "")
    text = "\n".join(p for p in (described, lesson.cause, " ".join(lesson.tags)) if p)
    return _terms(text, "", kinds)


_LESSON_TERMS: dict[tuple[str, str], Terms] = {}


class Weights:
    """How rare each word is among the documents (lessons and failures): rarer says more."""

    def __init__(self, documents: Iterable[Terms]) -> None:
        self.count = 0
        self.frequency: dict[str, int] = {}
        self._known: dict[str, float] = {}  # weights given so far (counts are final by then)
        for document in documents:
            self.count += 1
            for word in document.words:
                self.frequency[word] = self.frequency.get(word, 0) + 1

    def __call__(self, word: str) -> float:
        found = self._known.get(word)
        if found is None:  # a lesson's words are weighed once per failure, not once per use
            found = self._known[word] = math.log(1 + (self.count + 1) / (self.frequency.get(word, 0) + 0.5))
        return found


def _exception_type(event: TrainEvent) -> str:
    """The failure's exception type without module path, lower case ("" for generic ones)."""
    head = (event.signature or "").partition(":")[0].rsplit(".", 1)[-1].lower()
    return "" if head in _GENERIC_TYPES or " " in head else head


def score(failure: Terms, lesson: Terms, weight: Weights, exception: str = "") -> float:
    """How well a lesson matches a failure (0 when it does not)."""
    if lesson.kinds and not lesson.kinds & failure.kinds:
        return 0.0  # a lesson about one kind of failure never matches another kind
    # Detail words only add to what is shared: a long message must not dilute its first sentence.
    shared = sum(factor * weight(word) for word, factor in failure.words.items()
                 if word in lesson.words)
    total = sum(weight(word) for word, factor in failure.words.items() if factor == 1.0) or 1.0
    coverage = min(1.0, shared / total)
    if lesson.kinds:
        return 1.0 + coverage
    if failure.names & lesson.names - {exception}:  # the lesson quotes the error's own code name
        return max(coverage, MIN_COVERAGE)
    # A short lesson whose rare words all appear in the failure names it too ("reentrant grad
    # checkpoint breaks DDP" for DDP's "reentrant backward passes" error).
    told = sum(weight(word) for word in lesson.words)
    recognised = sum(weight(word) for word in lesson.words if word in failure.words)
    if told and recognised / told >= MIN_LESSON_COVERAGE and recognised >= MIN_SHARED:
        return max(coverage, MIN_COVERAGE)
    needed = MIN_TYPED_COVERAGE if exception and exception in lesson.words else MIN_COVERAGE
    return coverage if coverage >= needed and shared >= MIN_SHARED else 0.0


def _best(scored: Iterable[tuple[float, Record]], limit: int) -> list[Record]:
    """The matching lessons (score > 0) within KEEP_WITHIN of the best, best and newest first."""
    kept = sorted(((s, lesson) for s, lesson in scored if s > 0),
                  key=lambda item: (item[0], item[1].created_at), reverse=True)
    return [lesson for s, lesson in kept if s >= KEEP_WITHIN * kept[0][0]][:limit] if kept else []


def rank(failure: TrainEvent, lessons: Sequence[Record], background: Iterable[Terms] = (),
         limit: int = 3) -> list[Record]:
    """The lessons that match a failure, best first; an unrelated failure matches none."""
    wanted = failure_terms(failure)
    known = [(lesson, lesson_terms(lesson)) for lesson in lessons]
    weight = Weights([wanted, *(t for _, t in known), *background])
    exception = _exception_type(failure)
    return _best(((score(wanted, t, weight, exception), lesson) for lesson, t in known), limit)


def _background(store: Store) -> list[Terms]:
    """The failures stored in run records, as documents for the word weights."""
    found = []
    for run in store.list("run", limit=BACKGROUND_RUNS):
        for stored in run.events:
            event = TrainEvent.from_dict(stored)
            if event.is_failure:
                found.append(failure_terms(event))
    return found


# -- the index: each lesson's terms kept in the store, so a failure reads only the lessons that
# share a term with it, and the word weights are counts of rows --------------------------------
# Changes with the phrase table and stop words (and by hand when lesson_terms changes otherwise):
# stored terms made by other rules are derived again.
TERMS_MARKER = f"#lesson-terms-1-{zlib.crc32(repr((_KINDS, sorted(_STOPWORDS))).encode()):08x}"
_NAME = "name:"


def _index_pairs(terms: Terms) -> list[tuple[str, float]]:
    """A lesson's terms as the store keeps them: words with their factor, names, the marker."""
    return [*terms.words.items(), *((_NAME + name, 0.0) for name in terms.names), (TERMS_MARKER, 0.0)]


def _indexed_terms(pairs: Iterable[tuple[str, float]]) -> Terms:
    """The Terms `_index_pairs` stored."""
    words = {term: factor for term, factor in pairs if not term.startswith((_NAME, "#"))}
    return Terms(frozenset(w[5:] for w in words if w.startswith("kind:")), words,
                 frozenset(term[len(_NAME):] for term, _ in pairs if term.startswith(_NAME)))


def _index_ready(store: Store) -> bool:
    """Derive the terms of lessons added or edited since the last match; False when that cannot
    be written (a read-only memory), so the caller scores every lesson instead."""
    if store.term_counts([TERMS_MARKER]).get(TERMS_MARKER, 0) == store.live_count("lesson"):
        return True  # two index counts; finding which lessons are pending reads every one
    pending = store.unindexed("lesson", TERMS_MARKER)
    if not pending:
        return True
    if store.readonly:
        return False
    try:
        store.index_terms({rowid: _index_pairs(lesson_terms(lesson)) for rowid, lesson in pending})
    except StoreError:
        return False
    return True


@dataclass
class _Index:
    """What matching has read from one memory while its lessons and runs are unchanged: the rows
    holding each term asked so far, the rows naming a failure kind, lesson terms and creation
    times, and the stored failures that weigh words. Built once per fingerprint, filled as asked."""

    fingerprint: tuple
    lesson_count: int
    background: list[Terms]
    kinded: set[int]  # lessons about a kind of failure (they match that kind only)
    rows: dict[str, list[int]] = field(default_factory=dict)
    terms: dict[int, Terms] = field(default_factory=dict)
    created: dict[int, str] = field(default_factory=dict)

    def rows_of(self, store: Store, terms: Iterable[str]) -> dict[str, list[int]]:
        """The lessons holding each term."""
        return _filled(self.rows, terms, store.term_rows)

    def terms_of(self, store: Store, rowids: Iterable[int]) -> dict[int, Terms]:
        """Each lesson's terms, as derived and stored."""
        return _filled(self.terms, rowids, lambda missing: {
            rowid: _indexed_terms(pairs) for rowid, pairs in store.terms_of(missing).items()})

    def created_at(self, store: Store, rowids: Iterable[int]) -> dict[int, str]:
        """When each lesson was created (the tie-break)."""
        return _filled(self.created, rowids, store.created_at)


K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


def _filled(held: dict[K, V], keys: Iterable[K], read: Callable[[list[K]], Mapping[K, V]]
            ) -> dict[K, V]:
    """The value of each key, reading only those not `held` yet (and keeping them)."""
    wanted = list(dict.fromkeys(keys))
    missing = [key for key in wanted if key not in held]
    if missing:
        held.update(read(missing))
    return {key: held[key] for key in wanted}


_INDEXES: dict[Path, _Index] = {}  # by memory file: one process watches one or two


def _index(store: Store) -> _Index | None:
    """This memory's in-process index, the same while no lesson or run changes; None when its
    lessons' terms cannot be derived (a read-only memory), so the caller scores every lesson."""
    fingerprint = store.fingerprint(("lesson", "run"))
    held = _INDEXES.get(store.path)
    if held is not None and held.fingerprint == fingerprint:
        return held
    if not _index_ready(store):
        return None
    held = _INDEXES[store.path] = _Index(fingerprint, store.live_count("lesson"), _background(store),
                                         store.rows_with_term_prefix("kind:"))
    return held


def _rank_indexed(store: Store, index: _Index, failure: TrainEvent, limit: int) -> list[Record]:
    """`rank` over every stored lesson, term at a time: each of the failure's terms adds its
    weight to the lessons holding it, so only those are touched; a lesson about another kind
    scores 0, one about the failure's kind scores 1 + coverage, and the rare kind-less lesson
    that could reach a score (a quoted name, or MIN_SHARED of shared weight) is scored by `score`."""
    wanted = failure_terms(failure)
    exception = _exception_type(failure)
    rows = index.rows_of(store, [*wanted.words, *(_NAME + name for name in wanted.names)])
    weight = Weights([wanted, *index.background])
    weight.count += index.lesson_count
    for word in wanted.words:
        weight.frequency[word] = weight.frequency.get(word, 0) + len(rows[word])
    total = sum(weight(word) for word, factor in wanted.words.items() if factor == 1.0) or 1.0
    shared: dict[int, float] = {}  # summed as `score` sums, in the failure's word order
    reach: dict[int, float] = {}  # the same without the detail factor
    for word, factor in wanted.words.items():
        gained = weight(word)
        for rowid in rows[word]:
            shared[rowid] = shared.get(rowid, 0.0) + factor * gained
            reach[rowid] = reach.get(rowid, 0.0) + gained
    named = set().union(*(rows[_NAME + name] for name in wanted.names if name != exception))
    own_kind = set().union(*(rows[f"kind:{kind}"] for kind in wanted.kinds))
    scores = {rowid: 1.0 + min(1.0, shared.get(rowid, 0.0) / total) for rowid in own_kind}
    kindless = [rowid for rowid in {*reach, *named} - index.kinded
                if rowid in named or reach[rowid] >= MIN_SHARED - 1e-9]
    if kindless:
        terms = index.terms_of(store, kindless)
        words = set().union(*(t.words for t in terms.values())) - set(wanted.words)
        for word, count in store.term_counts(sorted(words)).items():
            weight.frequency[word] = weight.frequency.get(word, 0) + count
        scores.update((rowid, score(wanted, t, weight, exception)) for rowid, t in terms.items())
    scores = {rowid: s for rowid, s in scores.items() if s > 0}
    if not scores:
        return []
    floor = KEEP_WITHIN * max(scores.values())
    kept = [rowid for rowid, s in scores.items() if s >= floor]
    created = index.created_at(store, kept)  # the newest first among equal scores, as `rank` orders
    kept.sort(key=lambda rowid: (scores[rowid], created[rowid]), reverse=True)
    lessons = store.by_rowid(kept[:limit])
    return [lessons[rowid] for rowid in kept[:limit]]


def stored_lessons(store: Store, ids: Iterable[str]) -> list[Record]:
    """The lessons of these ids that are still in the memory (not trashed since they matched)."""
    found = []
    for lesson_id in ids:
        try:
            found.append(store.get(lesson_id))
        except StoreError:
            continue
    return found


def lessons_for_event(store: Store, event: TrainEvent, limit: int = 3) -> list[Record]:
    """Stored lessons matching a failure event (crash, stall, divergence), best first."""
    if not event.is_failure:
        return []
    index = _index(store)
    if index is not None:
        return _rank_indexed(store, index, event, limit)
    return rank(event, store.list("lesson"), _background(store), limit)
