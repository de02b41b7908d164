"""Log text: cleaning a log line (ANSI, launcher/rank prefixes), recognising failure lines, and a
failure's signature and excerpt. The one owner of these rules; trainlog, bench_output and the
lessons all read log text through it."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence

MAX_SIGNATURE_INPUT = 4000  # a failure text longer than this is cut (its end kept) before reading
MAX_MESSAGE_CHARS = 200
EXCERPT_LINES = 15  # a lesson's symptom: the failure, not the whole log
EXCERPT_FRAMES = 3  # innermost traceback frames kept in an excerpt
LEAD_LINES = 4  # lines before a crash line without traceback, kept in its excerpt

ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b[@-Z\\-_]")
# An escape code a paste spelled out (`ESC[J`, `ESC[4A` where a page rendered the byte, `^[[J` as
# `cat -v` shows it): chainer's PrintReport redraws its table row with them.
_SPELLED_ANSI = re.compile(r"(?:ESC|\^\[)\[[0-?]*[ -/]*[@-~]")
# A colour code whose ESC byte a paste lost (Keras 3's `[1m 50/469[0m [32m━━[0m`): stripped only on
# a line that holds the reset `[0m`, which no log prints as text.
_BARE_SGR = re.compile(r"\[[0-9;]{0,12}m")
_BARE_RESET = "[0m"
RANK_PREFIX = re.compile(r"^\s*\[(?:default|rank)(\d+)\]:")
_LEVEL = r"(?:INFO|WARNING|WARN|ERROR|DEBUG|CRITICAL|NOTICE|TRACE|SUCCESS|FATAL)"
_CLOCK = r"\d\d:\d\d:\d\d(?:[.,]\d+)?"
# Logger and launcher prefixes, one shape per alternative, removed from a line's head until none
# matches: they stack (`[rank0]:[titan] 2025-06-16 22:30:48,735 - root - INFO - `). Each shape's
# source is in tests/collectors/test_logtext.py.
_HEADS = re.compile(
    r"^\s*(?:"
    r"\[[^\]\n]{1,60}\]<std(?:out|err)>:"  # mpirun/SageMaker `[1,mpirank:0,algo-1]<stdout>:`
    # logging `[%(asctime)s] %(name)s %(levelname)s: ` (Detectron2's log.txt `[08/30 23:53:52] d2.engine.hooks INFO:`)
    rf"|\[[^\]\n]{{0,40}}\d\d:\d\d:\d\d[^\]\n]{{0,40}}\] [\w.]+ {_LEVEL}:"
    r"|\[[^\]\n]{0,40}\d\d:\d\d:\d\d[^\]\n]{0,40}\]:?"  # `[05:27:23.812437]`, `[11/01 11:27:04 d2]:`
    rf"|\[{_LEVEL}\b[^\]\n]{{0,80}}\]:?(?:\s+-(?=\s))?"  # `[INFO]`, `[INFO|DP=0|PP=0|TP=0]:`, Hydra
    r"|\[NeMo [IWEDC] [^\]\n]{0,80}\]"  # NeMo `[NeMo I 2024-01-01 10:00:00 exp_manager:123]`
    r"|[DIWEC] (?=\[[\w.-]{1,40}\.py:\d+\])"  # logging `%(levelname).1s [%(filename)s:%(lineno)d]`
    r"|\[[\w.-]{1,40}\.(?:py|cc|cpp):\d+(?::\w+)?\](?:\s*\[Rank \d+\])?"  # DeepSpeed log_dist's
    # `[logging.py:96:log_dist] [Rank 0]` (a bare `[Rank 1] Watchdog ...` is NCCL's message: kept)
    r"|\[[\w.-]{1,40}/[\w.<>-]{1,60}:\d+(?::[\w.<>]{1,60})?\]"  # ezpz's `[ezpz/launch:448:launch]`
    r"|\[(?!(?:step|epoch|iter|iteration|batch|loss)\]:)[\w.:-]{1,40}\]:"  # srun `[0434:0]:`, `[rank0]:` (not `[epoch]:`)
    # a pod's worker, named then numbered (a TPU pod's run, every line behind `[worker :11] `; a position is no tag)
    r"|\[(?!(?:step|epoch|iter|iteration|batch)\b)[A-Za-z][\w-]{0,30} ?:\d+\](?=\s)"
    r"|\[(?:titan|rank\s?\d+|rank: \d+)\]"  # torchtitan `[titan]`, Lightning `[rank: 0]`
    # Metaflow's runtime, metaflow/runtime.py Worker.log: "[%s (pid %s)] " % (run/step/task, pid)
    r"|\[[\w.-]{1,60}/[\w.-]{1,60}/[\w.-]{1,60}(?: \(pid \d+\))?\]"
    r"|\[[\w.]{1,40}\](?=\[)"  # Hydra `[2024-..][__main__][INFO] - `: a tag glued to the next
    r"|\[[\w.-]{1,60}\](?=\s+\d{4}-\d\d-\d\d)"  # a host tag before a time stamp (ESPnet)
    r"|\[?[EWIF]\d{4} [\d:.]+\s+(?:\d+\s+)?\S+:\d+\]"  # glog/absl `I1201 10:00:00.1 123 f.py:12]`
    # TensorFlow after its stamp `I tensorflow/x.cc:12]`; a page that took the file for a domain
    # pastes it as `common_runtime/http://bfc_allocator.cc:217]`
    r"|[EWIF] (?:[\w.-]+/|https?://)*[\w.-]+\.(?:cc|cpp|h|py):\d+\]"
    rf"|\([\w.]+:\d+\)\s+{_LEVEL}:"  # ESPnet `[host] <time> (trainer:328) INFO: `
    r"|\((?:\w+ )?pid=\d+(?:, ip=[\d.]+)?\)"  # Ray `(RayTrainWorker pid=1)`, vLLM `(APIServer pid=1)`
    rf"|{_LEVEL}\s+\d\d-\d\d {_CLOCK}\s+\[?[\w.-]+:\d+\]"  # vLLM `INFO 08-12 10:00:00 [x.py:271]`
    rf"|\d{{4}}[-/]\d\d[-/]\d\d[T ]{_CLOCK}(?:Z|[+-]\d\d:?\d\d)?(?:\s*(?:\||>>|:(?=\s)))?"  # stamps
    rf"|\d\d/\d\d(?:/\d{{2,4}})? {_CLOCK}"  # mmengine `04/21 21:03:52`, accelerate `12/01/2024 ..`
    rf"|{_CLOCK}(?=\s)"  # a bare clock `20:39:20 [Epoch: 50] ...`
    rf"|[A-Z][a-z]{{2}} [ \d]\d {_CLOCK} [\w.-]+ [\w.@/-]+(?:\[\d+\])?:"  # journald/syslog
    r"|DLL \d{4}-\d\d-\d\d [\d:.]+ -"  # NVIDIA DLLogger
    rf"|{_LEVEL}\s*\|\s*[\w.<>]+(?:(?::[\w.<>]+)?:\d+\s+-|\s+\|)"  # loguru `INFO | m:f:12 -`, fairseq
    # `root - INFO - `, `- mmdet - INFO - `, `INFO - __main__ - `: a name, not a message's `1s - loss: ...`
    rf"|(?:-\s*)?(?:[\w.]+ - )?{_LEVEL} - (?:(?!\d)[\w.]+ - )?"
    rf"|{_LEVEL}:[\w.]+:"  # `INFO:__main__:`, `INFO:tensorflow:`
    rf"|{_LEVEL}\s+[\w.]+:[\w.-]+\.py:\d+(?=\s)"  # pytest's captured log `INFO     root:x.py:126 `
    rf"|(?P<level>{_LEVEL})(?::|(?=\s))"  # a bare level (rich `[12/01/24 10:00:00] INFO`, uvicorn `INFO:`)
    r"|(?:wandb|srun|[A-Za-z][\w.]*-[\w.-]*\d):(?=\s)"  # W&B, srun, pdsh `worker-1:`
    r"|[\w.]+[-_]\d+\s+\|(?=\s)"  # docker compose `trainer-1  | `
    r")\s*"
)
# Launcher prefixes: a process id `[1745] `, only ever first (later in a line, `[1000] ` is a step:
# CLU's `... logging_writer.py:35] [1000] loss=...`), and SLURM's `srun -l` task `0: `, taken only
# before another prefix (a script's own `100: loss 2.5` puts its step there), a time stamp too: first,
# or behind a frame around srun's output (docker compose's `trainer-1  | 0: 2025-...`).
_LAUNCHER = re.compile(r"^\s*(?:(?P<pid>\[\d+\])\s+(?=\D)|\d{1,4}:\s+)")
# rich's handler ends each line with its source (`...   train.py:45`): not a figure.
_SOURCE_TAIL = re.compile(r"\s{2,}[\w.-]+\.py:\d+\s*$")
MAX_HEADS = 8  # prefixes stripped from one line at most

# A Markdown-emphasised line, as a paste keeps it (`**Killed**`, `` `Killed` ``): the emphasis goes.
_EMPHASIS = re.compile(r"^\s*(\*\*?|`)(?![\s*`])(.+?)(?<![\s*`])\1\s*$")
# Bold opening a line and closing before its end, as a user marks the part that matters
# (`**RuntimeError: CUDA out of memory.** Tried to allocate ...`, `**ERROR [06/09 11:05:25
# d2.engine.train_loop]**: Exception during training:`): the marks go, the words stay in place.
# (Not code: tools print backticks, Lightning's `` `Trainer.fit` stopped: `max_epochs=3` reached.``)
_LEADING_BOLD = re.compile(r"^(\s*)\*\*(?![\s*])([^*\n]+?)(?<![\s*])\*\*(?=[\s:.,;]|$)")
# The shell's job status for SIGKILL, as glibc's strsignal words it in the locales users run
# (bminor/glibc po/*.po, msgid "Killed": zh_CN, zh_TW, ja, ko, de, fr, es, it, pt_BR, ru, uk, pl, cs).
KILLED = (r"(?:Killed|已杀死|強制結束|強制終了|죽었음|Getötet|Processus arrêté|Terminado \(killed\)"
          r"|Ucciso|Morto|Убито|Вбито|Unicestwiony|Zabit \(SIGKILL\))")

TRACEBACK = "Traceback (most recent call last)"
CHAINED = ("During handling of the above exception", "The above exception was the direct cause")
# `pkg.mod.SomeError: message`, `OutOfResources: ...`, `torch.OutOfMemoryError: ...`, TensorFlow 1's
# `ResourceExhaustedError (see above for traceback): OOM when allocating tensor ...`.
EXCEPTION_LINE = re.compile(
    r"^(?:[A-Za-z_]\w*\.)*(?:[A-Z]\w*(?:Error|Exception|Exit|Interrupt|Timeout|Failure)|Exception|OutOfResources)"
    r"\b(?: \(see above for traceback\))?(?::|$)"
)
# tags before an exception line (`[worker-3] `, `[rank3]: `), a few stacked (`[job 7] [09c561ee-...] `)
_BRACKET_HEAD = re.compile(r"^(?:\[[^\]]{1,80}\]:?\s*){1,3}")
_EXCEPTION = re.compile(
    r"(?<![\w.])((?:[A-Za-z_]\w*\.)*"
    r"(?:[A-Z]\w*(?:Error|Exception|Exit|Interrupt|Timeout|Failure)|OutOfResources))"
    r"(?::\s*(.*))?$"
)
# Failures announced without a Python exception line of their own (signals, launchers, NCCL).
_NAMED = (
    ("ProcessGroupNCCL", re.compile(r"Watchdog caught collective operation timeout.*", re.IGNORECASE)),
    ("SegmentationFault", re.compile(
        r"Segmentation fault|segfault|SIGSEGV|Signal 11\b|exit ?(?:code|status)\W{0,3}(?:-11|139)\b"
        r"|signal: Segmentation fault", re.IGNORECASE)),
    ("BusError", re.compile(r"\bBus error\b|SIGBUS|Signal 7\b|signal: Bus error", re.IGNORECASE)),
    ("Killed", re.compile(
        rf"(?:^|\s|\]){KILLED}(?:\s|$)|Signal 9 \(SIGKILL\)|signal: Killed|exit ?(?:code|status)\W{{0,3}}"
        r"(?:-9|137)\b"
        r"|Out of memory: Killed process|oom-kill", re.IGNORECASE)),
    ("Aborted", re.compile(r"Aborted\s+\(core dumped\)|Signal 6 \(SIGABRT\)|exit ?(?:code|status)"
                           r"\W{0,3}(?:-6|134)\b")),
    ("NCCL", re.compile(r"\bNCCL (?:error|WARN)\b.*|\bnccl\w{0,30}Error\b.*", re.IGNORECASE)),
    ("ChildFailedError", re.compile(r"\bChildFailedError\b.*")),
    # slurmstepd: `*** JOB 123 ON node01 CANCELLED AT 2024-01-01T10:00:00 DUE TO TIME LIMIT ***`
    ("SlurmCancelled", re.compile(r"\*\*\* (?:JOB|STEP) [\d.]+ (?:ON \S+ )?CANCELLED AT .*")),
)
# NCCL's WARN of an InfiniBand async event that is no failure: its IB async thread reports every
# event but connection setup and goes on (NVIDIA/nccl src/transport/net_ib.cc ncclIbAsyncThreadMain:
# `WARN("NET/IB : Got async event : %s", str)` before 2.19; since, `Got non-fatal async event: %s(%d)`
# and `GID table changed`, the fatal ones `async fatal event`). The event names are libibverbs'
# (ibv_event_type_str: `client reregistration`, `port active`, `SM change`; the fatal ones say
# `catastrophic error`, `CQ error`, `work queue error`).
_NCCL_NOTICE = (r"(?!\s+NET/IB\s*:[^\n]{0,60}?(?:Got non-fatal async event|GID table changed"
                r"|Got async event\s*:(?![^\n]*(?:catastrophic|CQ error|work queue error|fatal))))")
# Lines that name a failure anywhere in them (the collector's cheap crash test).
CRASH_LINE = re.compile(
    r"CUDA out of memory|OutOfMemoryError|OutOfResources|out of resource: shared memory"
    r"|illegal memory access|device-side assert|Watchdog caught collective operation timeout"
    rf"|NCCL (?:error|WARN{_NCCL_NOTICE})|nccl\w{{0,40}}Error|(?:^|\s|\]){KILLED}(?:\s|$)|Signal (?:9|11|7|6) \(SIG"
    r"|Segmentation fault|Fatal Python error|\bBus error\b|SIGSEGV|SIGBUS"
    r"|exit ?(?:code|status)\W{0,3}(?:-(?:9|11|6|7)|139|137|134)\b|ChildFailedError"
    r"|OOM when allocating|RESOURCE_EXHAUSTED|cudaErrorMemoryAllocation|CUDA_ERROR_OUT_OF_MEMORY"
    r"|CUBLAS_STATUS_(?!SUCCESS)\w+|CUDNN_STATUS_(?!SUCCESS)\w+|no kernel image is available"
    r"|unspecified launch failure|CUDA driver version is insufficient"
    r"|\*\*\* (?:JOB|STEP) [\d.]+ (?:ON \S+ )?CANCELLED AT"
    r"|\bfailed \(exitcode: -?[1-9]\d*\) local_rank: \d+"  # torchrun's worker failure
    r"|\bError executing job with overrides\b|\bHYDRA_FULL_ERROR=1 for a complete stack trace"  # Hydra
    # a script that exits on a non-finite loss: DETR/DeiT/MAE's `Loss is nan, stopping training`
    r"|(?:\bloss\b.{0,30}\b[-+]?(?:nan|inf)\b|\b(?:nan|inf)\b.{0,10}\bloss\b)"
    r".{0,40}\b(?:stopping training|exiting|aborting|terminating)\b"
    r"|terminate called after throwing an instance of|\(core dumped\)"  # C++ aborts, dumped signals
    r"|^Process finished with exit code [1-9]|\btask \d+: Exited with exit code [1-9]"  # SLURM srun
    r"|\bexits with return code = -?[1-9]|^Run \S+ errored\b"  # DeepSpeed's launcher, W&B
    r"|\bReceived (?:\d+|Signals\.SIG\w+) death signal, shutting down workers"  # torchelastic stopped by a signal
    r"|\bMain process received SIG\w+, exiting",  # DeepSpeed's launcher (launch.py `sigkill_handler`)
    re.IGNORECASE,
)
# Cheap substrings, lower-case: every line that names a failure kind (`failure_kind`'s patterns)
# holds one of KIND_HINTS, every failure report one of HINTS (tests/collectors/
# test_trainlog_failure_kind.py checks each form), so blocks and lines without one skip the regexes.
KIND_HINTS = (
    "watchdog", "collective", "nccl", "out of resource", "outofresources", "of memory",
    "outofmemory", "out_of_memory", "cudaerror", "cuda_error", "cuda error", "cuda runtime error",
    "blas", "cudnn", "dnn library", "algorithm worked",
    "oom when", "resource_exhausted", "resourceexhausted", "resource exhausted", "failed to allocate",
    "cumemalloc", "enough memory", "gpu memory", "hiperror", "available memory", "illegal",
    "misaligned", "assert", "kernel image", "invalid device function", "not compatible",
    "code object", "driver version", "too old", "nvidia driver", "display driver",
    "driver initialization", "cuda-capable", "cuda initialization", "cudagetdevicecount", "cuinit",
    "nvml", "ptx", "convolution algorithm", "launch failure", "for launch", "launch timed out",
    "uncorrectable", "xid", "distbackend", "bus error", "shm", "shared memory", "kill", "exit", "memoryerror", "allocate memory",
    "已杀死", "強制結束", "強制終了", "죽었음", "getötet", "processus arrêté", "terminado (", "ucciso", "morto",
    "убито", "вбито", "unicestwiony", "zabit (",
    "no space left", "quota exceeded", "enospc", "edquot", "streamwriter", "unexpected pos", "errno 28", "errno 122",
    "notfound", "no such file", "enoent", "not found", "does not exist", "can't open file", "importerror",
    "no module", "failed to import", "undefined symbol", "shared object", "shared librar", "mismatch", "is required", "compiled",
    "incompatib", "cannot be run in numpy", "valid checkpoint", "cancelled", "sigterm", "term_", "evicted", "preempted", "deadline",
    "ephemeral", "emptydir", "pressure]", "signal: 15", "15 death", "terminated",
    "bad_alloc", "segmentation", "segfault", "sigsegv", "sigbus", "signal", "abort", "sigabrt",
    "terminate called", "asynchronously reported", "keyboardinterrupt", "interruptexception", "sigint", "fallen off",
    "gpu is lost", "return code", "kv cache", "dst tensor", "memory access fault", "cuda gpus",
    "find an engine", "cuda unknown", "low on resource", "</torch_", "heartbeat")
HINTS = (*KIND_HINTS, "traceback", "file \"", "error", "exception", "fault", "fatal", "interrupt",
         "core dumped", "stopping training", "xiting", "terminat", "cancelled")
# The hints a line is scanned for: one that holds another (`cuda error` holds `error`) adds nothing.
_SCANNED_HINTS = tuple(hint for hint in dict.fromkeys(HINTS) if not any(other in hint for other in HINTS if other != hint))


def _trie_pattern(words: Iterable[str]) -> re.Pattern[str]:
    """One pattern that finds any of the words, written as their trie (`c(?:ancelled|ollective|...)`):
    the engine tries each position's next character once, not once a word (half the time of
    130 substring scans of a log line)."""
    trie: dict = {}
    for word in words:
        node = trie
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}  # a word ends here: the longer words through it find nothing more

    def branch(node: dict) -> str:
        if "" in node:
            return ""
        alternatives = [re.escape(char) + branch(child) for char, child in node.items()]
        return alternatives[0] if len(alternatives) == 1 else "(?:" + "|".join(alternatives) + ")"

    return re.compile(branch(trie))


_ANY_HINT = _trie_pattern(_SCANNED_HINTS)
# The same hints with their digits dropped, for a block's line shapes (`errno 28` -> `errno `).
_ANY_SHAPE_HINT = _trie_pattern(dict.fromkeys(hint.translate(str.maketrans("", "", "0123456789"))
                                              for hint in _SCANNED_HINTS))
_DIGITS = b"0123456789"
SHAPES_ABOVE = 1 << 14  # a longer block is scanned once per line shape, not once per line
# Root causes that say more than whatever wrapper re-raised or summarised them.
_ROOT_CAUSES = re.compile(
    r"CUDA out of memory|OutOfResources|illegal memory access|device-side assert triggered"
    r"|Watchdog caught collective|OOM when allocating|RESOURCE[_ ]EXHAUSTED: Out of memory",
    re.IGNORECASE)
_WRAPPERS = frozenset({"ChildFailedError", "CalledProcessError", "SystemExit", "Aborted"})
_WORDED = frozenset({"ProcessGroupNCCL", "NCCL"})  # named failures whose message tells them apart

# Abstractions, applied in order: the most specific shapes first. Numbers, paths and sizes
# change between occurrences of one failure, so they never decide which failure it is.
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
_BAR = re.compile(r"\d+%\|| \d+/\d+ \[\d|\d+(?:\.\d+)?(?:it|s)/(?:s|it)\]")
_FRAME = re.compile(r'^\s*File "[^"]+", line \d+')
_FRAME_ANYWHERE = re.compile(r'File "[^"]+", line \d+')
# An exception line run on after a traceback's frames in one line (a paste that lost its newlines,
# srun's `10: ` task labels run together): `... in broadcast 10: torch.distributed.DistBackendError: ...`.
_GLUED_EXCEPTION = re.compile(
    r"(?<=\s)(?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception|Exit|Interrupt|Timeout|Failure):\s")


def uncoloured(text: str) -> str:
    """A text without its ANSI escape codes (most text has none, and is then not scanned)."""
    return ANSI.sub("", text) if "\x1b" in text else text


@functools.lru_cache(maxsize=16)  # a log reader and its failure watcher each clean the same line in turn
def clean(text: str) -> str:
    """A line without ANSI codes and logger/launcher prefixes, so recognisers see the payload;
    SageMaker's `#015` is the `\\r` it stands for (the last segment is what a terminal shows)."""
    text = uncoloured(text)
    if "ESC[" in text or "^[[" in text:
        text = _SPELLED_ANSI.sub("", text)
    if _BARE_RESET in text:
        text = _BARE_SGR.sub("", text)
    if "#015" in text:
        segments = [segment for segment in text.split("#015") if segment.strip()]
        text = segments[-1] if segments else ""
    if text.lstrip()[:2] == "**":
        text = _LEADING_BOLD.sub(r"\1\2", text, count=1)
    if (launcher := _LAUNCHER.match(text)) and (launcher["pid"] or _HEADS.match(text[launcher.end():])):
        text = text[launcher.end():]
    head = None
    for _ in range(MAX_HEADS):
        match = _HEADS.match(text)
        if match is None or not match.group(0):
            break
        text, head = text[match.end():], match
        if text[:1].isdigit() and (label := _LAUNCHER.match(text)) and _HEADS.match(text[label.end():]):
            text = text[label.end():]  # srun's task label inside a frame (`trainer-1  | 0: 2025-...`)
    if head is not None and not head["level"]:  # a bare level's blanks pad it (rich's `INFO     `)
        text = _indentation(head[0]) + text
    if ".py:" in text:
        text = _SOURCE_TAIL.sub("", text)
    if text.lstrip()[:1] in ("*", "`") and (emphasised := _EMPHASIS.match(text)):
        text = emphasised.group(2)
    return text


def _indentation(head: str) -> str:
    """The blanks a message starts with, which a prefix's trailing blanks took along with the one
    that separates it (`[rank0]:       0/99 ...`): a fixed-width table's rows and its header keep
    their columns, framed or not."""
    blanks = len(head) - len(head.rstrip())
    return head[len(head) - blanks + 1:] if blanks > 1 else ""


def rank_of(text: str) -> int | None:
    """The torchrun rank a prefixed line came from, or None when it carries no rank prefix."""
    match = RANK_PREFIX.match(text) if text[:1] in "[ " else None
    return int(match.group(1)) if match else None


def is_exception_line(text: str) -> bool:
    """Whether a cleaned line is a Python exception line (`pkg.SomeError: message`), also behind a
    bracketed tag that the prefix rules do not know."""
    return bool(EXCEPTION_LINE.match(text) or (
        text[:1] == "[" and EXCEPTION_LINE.match(_BRACKET_HEAD.sub("", text, count=1))))


def untagged(text: str) -> str:
    """A cleaned line without the bracketed tags before its exception (`[worker 3] [09c5...] OSError:
    ...` is `OSError: ...`); any other line as it is."""
    return _BRACKET_HEAD.sub("", text, count=1) if is_exception_line(text) else text


def is_frame_line(text: str) -> bool:
    """Whether a cleaned line is a Python traceback frame (`File "x.py", line 3, in f`): a tail
    cut inside a traceback still shows it is one."""
    return bool(_FRAME.match(text))


def glued_exception(text: str) -> str | None:
    """The exception line a traceback line holds after its last frame (a run-on paste), from its
    name on; None for a traceback line that holds none, and for any other line."""
    frames = list(_FRAME_ANYWHERE.finditer(text))
    start = frames[-1].end() if frames else text.rfind(TRACEBACK)
    found = _GLUED_EXCEPTION.search(text, start) if start >= 0 else None
    return text[found.start():] if found else None


MIN_TERMINAL_WIDTH = 80  # the narrowest terminal whose hard wraps are told apart


def terminal_wrap(above: str, line: str, width: int | None) -> tuple[str, int] | None:
    """How a line continues the one above it when a terminal capture hard-wrapped one logical line at
    the terminal's width (tmux, a console copied from the screen: Ray's raylet report broken
    mid-word, `... (2) ra` over `y stop --force is called.`), as (the text joining their stripped
    pieces, the width); None when it starts a line of its own. The width is the one already seen,
    else two lines of one length; a wrap breaks mid-word or at a space, one blank at the end of the
    line above or the start of the line below (a short line padded to the width ends in several).
    Lines that start alike are records of one shape (a table's rows, NCCL's `Init COMPLETE` lines).
    A narrower wrap is told when the caller knows its width (a text wrapped at 60 columns)."""
    if (len(above) < MIN_TERMINAL_WIDTH and len(above) != width) or not line or above[-2:].isspace() or (
            line[:2] == above[:2]):
        return None
    if len(above) != width and len(line) != len(above):
        return None
    if not above[-1].isspace() and not line[0].isspace():
        return "", len(above)
    if (line[0] == " ") != above[-1].isspace() and not line.lstrip(" ")[:1].isspace() and line.strip():
        return " ", len(above)
    return None


def word_wrap(above: str, line: str, width: int) -> bool:
    """Whether a line continues the one above it in a text word-wrapped at a fixed width, of any
    size (a commit message's 72 columns, `fmt`'s 75, an e-mail's 76): the line's first word would
    have run the line above past the width (the widest line seen), and the two share no start
    (records of one shape, each on its own line, start alike)."""
    first = line.split(None, 1)[0] if line.strip() else ""
    return (bool(first) and not line[0].isspace() and not above[-1:].isspace() and line[:2] != above[:2]
            and len(above) <= width < len(above) + 1 + len(first))


def unwrap_terminal(text: str) -> str:
    """A terminal capture's text with each hard-wrapped logical line whole again (`terminal_wrap`)."""
    lines: list[str] = []
    above, width = "", None
    for line in text.split("\n"):
        line = line.rstrip("\r")
        wrap = terminal_wrap(above, line, width) if lines else None
        if wrap:
            joiner, width = wrap
            lines[-1] = lines[-1].rstrip() + joiner + line.strip()
        else:
            lines.append(line)
        above = line
    return "\n".join(lines)


def has_hint(text: str) -> bool:
    """Whether a line may be a failure line (one scan for all the hints, no regex of a kind)."""
    return _ANY_HINT.search(text.lower()) is not None


def block_has_hint(text: str) -> bool:
    """Whether a block may hold a failure line; a long one is scanned once per line shape (its
    lines without their digits, each shape once: a log repeats a few shapes), a tenth of the time."""
    if len(text) <= SHAPES_ABOVE:
        return has_hint(text)
    shapes = set(text.encode("utf-8", "surrogatepass").translate(None, _DIGITS).split(b"\n"))
    return _ANY_SHAPE_HINT.search(b"\n".join(shapes).decode("utf-8", "replace").lower()) is not None


def is_progress_bar(line: str) -> bool:
    """Whether a line is a progress-bar redraw (tqdm and the like), which a failure excerpt drops."""
    return bool(_BAR.search(line))


def abstract(message: str) -> str:
    """A message with the parts that change between occurrences replaced by placeholders."""
    for pattern, placeholder in _ABSTRACT:
        message = pattern.sub(placeholder, message)
    message = message.strip()
    if len(message) > MAX_MESSAGE_CHARS:
        message = message[:MAX_MESSAGE_CHARS].rsplit(" ", 1)[0] + " ..."
    return message


def clean_lines(text: str) -> list[str]:
    """The non-empty cleaned lines of a text, carriage-return redraws split apart."""
    cleaned = (clean(line).strip() for line in re.split(r"[\r\n]+", text[-MAX_SIGNATURE_INPUT:]))
    return [untagged(line) for line in cleaned if line]


def _join(type_name: str, message: str | None) -> str:
    message = abstract(message or "")
    return f"{type_name}: {message}" if message else type_name


def _named(line: str) -> str | None:
    """`Name: message` for a line naming a failure that is not an exception, or None."""
    for name, pattern in _NAMED:
        if found := pattern.search(line):
            # NCCL says what went wrong; a signal's name is all there is to a signal.
            return _join(name, found.group(0)) if name in _WORDED else name
    return None


def failure_signature(text: str) -> str:
    """A normalised `Type: message` for a failure line or crash tail, stable across runs: the root
    cause where one is named (CUDA OOM, Triton resources, illegal access, NCCL watchdog), else the
    last exception that is not a launcher's wrapper, else the signal or launcher line."""
    lines = clean_lines(text or "")
    for line in reversed(lines):
        if cause := _ROOT_CAUSES.search(line):
            found = _EXCEPTION.search(line)
            if found and _short(found.group(1)) not in _WRAPPERS:
                return _join(found.group(1), found.group(2))
            start = line.rfind("CUDA error", 0, cause.start())  # past a C++ wrapper's preamble
            return _named(line) or _join("RuntimeError", line[start if start >= 0 else cause.start():])
    exceptions = [found for found in map(_EXCEPTION.search, lines) if found]
    causes = [found for found in exceptions if _short(found.group(1)) not in _WRAPPERS]
    named = [found for found in map(_named, reversed(lines)) if found]
    specific = [found for found in named if not found.startswith("ChildFailedError")]
    if causes:
        return _join(causes[-1].group(1), causes[-1].group(2))
    if specific:
        return specific[0]
    if exceptions:
        return _join(exceptions[-1].group(1), exceptions[-1].group(2))
    return named[0] if named else abstract(lines[-1]) if lines else ""


# A batch scheduler's word for the job it stopped: a limit of time or a person or policy stopped it,
# or its memory limit did. IBM LSF's termination reasons (bacct/bjobs keywords, written into the job's
# report as `TERM_RUNLIMIT: job killed after reaching LSF run time limit.`; IBM Spectrum LSF 10.1
# "Termination reasons displayed by bacct, bhist, and bjobs"); PBS's mom (openpbs src/resmom/mom_main.c,
# torque src/resmom/linux/mom_mach.c: `=>> PBS: job killed: walltime 3610 exceeded limit 3600`, `cput`,
# `ncpus`; `mem 4194304kb exceeded limit ...`, `vmem`, `pvmem`).
_SCHEDULER_STOPPED = (r"\bTERM_(?:RUNLIMIT|CPULIMIT|DEADLINE|WINDOW|PREEMPT|LOAD|OWNER|FORCE_OWNER|ADMIN"
                      r"|FORCE_ADMIN|BUCKET_KILL|REQUEUE_OWNER|REQUEUE_ADMIN)\b"
                      r"|\bPBS: job killed: (?:walltime|p?cput|ncpus)\b")
_SCHEDULER_MEMORY = r"\bTERM_(?:MEMLIMIT|SWAP)\b|\bPBS: job killed: p?v?mem\b"

# Failure kinds, most specific first: a tail that names several (a CUDA OOM re-raised by a
# launcher that then reports SIGABRT) is the first kind listed. Old and new spellings of each
# (PyTorch, TensorFlow, JAX/XLA, CUDA runtime enums, cuDNN/cuBLAS status codes, NCCL, the kernel).
FAILURE_KINDS = (
    ("nccl_timeout", re.compile(
        # (not WorkNCCL's own description, `WorkNCCL(SeqNum=2, ..., Timeout(ms)=600000)`: its setting,
        # nor ProcessGroupNCCL's words for any failed work: `Some NCCL operations have failed or timed
        # out`, `Exception (either an error or timeout) detected by watchdog`)
        r"Watchdog caught collective operation timeout"
        r"|NCCL[^\n]{0,80}(?<!failed or )(?<!an error or )time(?:d ?out|out)(?!\(ms\))"
        r"|collective operation timeout|watchdog got stuck for"
        # ProcessGroupNCCL's heartbeat monitor and desync report, the glog head that says NCCL cut off
        r"|Heartbeat monitor timed out|detected no heartbeat of its watchdog|Timeout at NCCL work",
        re.IGNORECASE)),
    ("triton_resources", re.compile(r"OutOfResources|out of resource: shared memory")),
    ("cuda_oom", re.compile(
        # (not Ray's memory monitor, nor Amazon ECS's `OutOfMemoryError: Container killed due to memory
        # usage`, as AWS Batch reports a task's container over its memory: the host's)
        r"CUDA out of memory|(?<!ray\.exceptions\.)OutOfMemoryError(?!: Container killed)|cudaErrorMemoryAllocation"
        r"|CUDA_ERROR_OUT_OF_MEMORY|Dst tensor is not initialized"  # TF's copy to a full GPU
        r"|CUBLAS_STATUS_ALLOC_FAILED|CUDNN_STATUS_ALLOC_FAILED|out of memory on device"
        r"|OOM when allocating tensor|RESOURCE_EXHAUSTED: Out of memory|ResourceExhaustedError"
        # TensorFlow/XLA's Status::ToString before absl (`Resource exhausted: <message>`, status.cc)
        r"|Resource exhausted: |failed to allocate [\d.]+\s*[KMGT]?i?B.*(?:GPU|device|CUDA)"
        r"|CUDA error: out of memory|cuMemAlloc\w* failed|No enough memory|not enough GPU memory"
        r"|insufficient GPU memory|torch\.cuda\.OutOfMemoryError|RESOURCE_EXHAUSTED"
        r"|HIP out of memory|hipErrorOutOfMemory|MPS backend out of memory"
        r"|No available memory for the cache blocks|Not enough memory\. Please try to increase"
        # vLLM's KV-cache checks (V1 kv_cache_utils, V0 worker) and its start-up memory guard
        r"|larger than the available KV cache memory|can be stored in KV cache \("
        r"|on startup is less than desired GPU memory utilization"
        r"|Cuda failure \d*\s*'out of memory'"  # NCCL's CUDACHECK: the CUDA error it names wins
        r"|\b(?:XPU|NPU) out of memory"  # Intel XPU's and Ascend NPU's caching allocators
        r"|kIOGPUCommandBufferCallbackErrorOutOfMemory"  # Apple Metal (llama.cpp, MLX)
        r"|Requested amount of GPU memory \(",  # TensorRT's allocator
        re.IGNORECASE)),
    ("illegal_memory_access", re.compile(
        r"illegal memory access|cudaErrorIllegalAddress|CUDA_ERROR_ILLEGAL_ADDRESS"
        r"|misaligned address|cudaErrorMisalignedAddress"
        r"|Memory access fault by GPU", re.IGNORECASE)),  # ROCm's ROCR runtime
    ("device_assert", re.compile(
        r"device-side assert(?:ion)? triggered|cudaErrorAssert|CUDA_ERROR_ASSERT|Assertion `[^`]*` failed",
        re.IGNORECASE)),
    ("no_kernel_image", re.compile(
        r"no kernel image is available|cudaErrorNoKernelImageForDevice|invalid device function"
        r"|is not compatible with the current PyTorch installation"
        r"|CUDA_ERROR_NO_BINARY_FOR_GPU|hipErrorNoBinaryForGpu|Unable to find code object for all"
        r" current devices", re.IGNORECASE)),
    ("cuda_driver", re.compile(
        r"CUDA driver version is insufficient|cudaErrorInsufficientDriver|driver is too old"
        r"|found no NVIDIA driver|NVIDIA driver on your system is too old"
        r"|CUDA_ERROR_NO_DEVICE|no CUDA-capable device is detected|cudaErrorNoDevice"
        r"|No CUDA GPUs are available"
        r"|CUDA initialization: |cudaGetDeviceCount|cuInit|Failed to initialize NVML"
        r"|CUDA driver initialization failed|unsupported display driver / cuda driver combination"
        r"|PTX was compiled with an unsupported toolchain|cudaErrorUnsupportedPtxVersion"
        r"|CUDA_ERROR_UNSUPPORTED_PTX_VERSION|cudaErrorSystemDriverMismatch", re.IGNORECASE)),
    ("cudnn_error", re.compile(r"CUDNN_STATUS_\w+|cuDNN (?:\w+ )?error|Could not create cudnn handle"
                               r"|Failed to get convolution algorithm|No algorithm worked"
                               r"|Unable to find a valid cuDNN algorithm"
                               r"|(?:GET|FIND) was unable to find an engine"
                               r"|DNN library (?:is not found|initialization failed)"
                               r"|Loaded runtime CuDNN library", re.IGNORECASE)),
    # TensorFlow's matmul kernels: `Blas GEMM launch failed`, `Blas xGEMMBatched launch failed`
    ("cublas_error", re.compile(r"CUBLAS_STATUS_\w+|cuBLAS error|failed to create cublas handle"
                                r"|\bBlas \w+ launch failed", re.IGNORECASE)),
    ("launch_failure", re.compile(
        r"unspecified launch failure|cudaErrorLaunchFailure|CUDA_ERROR_LAUNCH_FAILED"
        r"|too many resources requested for launch|cudaErrorLaunchOutOfResources"
        r"|the launch timed out|cudaErrorLaunchTimeout", re.IGNORECASE)),
    ("ecc_error", re.compile(r"uncorrectable ECC error|cudaErrorECCUncorrectable|Xid\b",
                             re.IGNORECASE)),
    ("nccl_error", re.compile(rf"\bNCCL (?:error|WARN{_NCCL_NOTICE}|failure)|nccl\w{0,30}Error|ncclInternalError"
                              r"|DistBackendError"
                              r"|ncclSuccess|unhandled cuda error"
                              r"|ncclSystemError|ncclUnhandledCudaError|ncclInvalidUsage"
                              r"|is setting up NCCL communicator"
                              # WorkNCCL::handleException's report of any failed work, a timeout's too
                              r"|Some NCCL operations have failed or timed out"
                              r"|Exception \(either an error or timeout\) detected by watchdog",
                              re.IGNORECASE)),
    # PyTorch's shared-memory tensors are files `</torch_PID_N>` (ATen MapAllocator.cpp: `unable to
    # write to file <...>: No space left on device (28)`, `unable to mmap N bytes from file <...>`)
    ("shm", re.compile(r"DataLoader worker[^\n]{0,80}Bus error|/dev/shm|shared memory \(shm\)"
                       r"|insufficient shared memory|out of shared memory"
                       r"|unable to (?:write to|mmap \d+ bytes from) file </torch_", re.IGNORECASE)),
    # errno 28 ENOSPC / 122 EDQUOT as Python (`OSError: [Errno 28] No space left on device`) and C
    # (strerror) word them; PyTorch caffe2/serialize/inline_container.cc's torch.save on a full disk
    # (`PytorchStreamWriter failed writing file data/0: file write failed`, `unexpected pos N vs M`)
    # the kubelet's evictions for disk (kubernetes pkg/kubelet/eviction/helpers.go: nodeLowMessageFmt
    # `The node was low on resource: ephemeral-storage. `, the ephemeral-storage and emptyDir limits,
    # nodeConditionMessageFmt `The node had condition: [DiskPressure]. `)
    ("disk_full", re.compile(r"No space left on device|Disk quota exceeded|\bENOSPC\b|\bEDQUOT\b"
                             r"|\[Errno (?:28|122)\]|PytorchStreamWriter failed writing file"
                             r"|unexpected pos \d+ vs \d+|low on resource: (?:ephemeral-storage|nodefs|imagefs)"
                             r"|exceeded its local ephemeral storage limit|ephemeral local storage usage exceeds"
                             r"|Usage of EmptyDir volume \S+ exceeds the limit|condition: \[DiskPressure\]",
                             re.IGNORECASE)),
    ("host_oom", re.compile(  # the shell's `Killed` (capitalised; `killed by signal` is not it),
        # alone or after SageMaker's `[1,mpirank:0,algo-1]<stderr>:`
        rf"(?:^|\s|\]|<std(?:out|err)>:){KILLED}(?:\s|$)|\bOUT_OF_MEMORY\b"  # SLURM's job state
        r"|\btasks? [\d,-]+: Out Of Memory"  # srun (src/srun/launch.c: "%s: %s %s: Out Of Memory")
        # zsh's job report (zsh-users/zsh Src/jobs.c printjob: `[%ld]  %c `, the pid, then sigmsg's
        # `killed`, Src/signames2.awk, padded by 2 spaces or more), glued to a bar too (`...?it/s][1]    26478
        # killed     python`) or with its `[1]` taken as a launcher's prefix
        r"|(?:\[\d+\]|^|\n)[ \t]*[+-]?[ \t]*(?:\d+[ \t]+)?killed[ \t]{2,}\S"
        r"|(?i:Out of memory: Killed process|oom[-_]kill|OOMKilled"
        r"|Signal 9 \(SIGKILL\)|signal: Killed|exit ?(?:code|status)\W{0,3}(?:-9|137)\b"
        r"|MemoryError|Cannot allocate memory|std::bad_alloc|zsh: killed|\bsignal 9\b"
        r"|DefaultCPUAllocator: not enough memory|node running low on memory"
        r"|low on resource: memory|condition: \[MemoryPressure\]"  # the kubelet's eviction
        r"|Container killed due to memory usage"  # Amazon ECS / AWS Batch
        # Ray's raylet (node_manager.cc): `1 Workers (tasks / actors) killed due to memory pressure (OOM)`
        r"|\b[1-9]\d* Workers \(tasks / actors\) killed due to memory pressure"
        # CPython subprocess.CalledProcessError (accelerate launch, any launcher's wrapper):
        # "Command '%s' died with %r." % (cmd, signal.Signals(-returncode))
        r"|<Signals\.SIGKILL: 9>"
        rf"|{_SCHEDULER_MEMORY}"
        r"|exited with code (?:137|-9)\b)")),
    ("segfault", re.compile(
        r"Segmentation fault|segfault|SIGSEGV|Signal 11\b|exit ?(?:code|status)\W{0,3}(?:-11|139)\b",
        re.IGNORECASE)),
    ("bus_error", re.compile(r"\bBus error\b|SIGBUS|Signal 7\b|exit ?(?:code|status)\W{0,3}(?:-7|135)\b",
                             re.IGNORECASE)),
    # a CUDA error before the abort it causes (libstdc++'s terminate handler on an uncaught c10::CUDAError)
    ("cuda_error", re.compile(r"CUDA (?:unknown )?error|cudaError\w+|CUDA_ERROR_\w+|CUDA runtime error"
                              r"|CUDA kernel errors might be asynchronously reported", re.IGNORECASE)),
    ("aborted", re.compile(r"Aborted\s+\(core dumped\)|signal: Aborted|SIGABRT|Signal 6\b|exit ?(?:code|status)"
                           r"\W{0,3}(?:-6|134)\b|terminate called after throwing", re.IGNORECASE)),
    # stopped by the scheduler: slurmstepd's "*** %s ON %s CANCELLED AT %s DUE TO TIME LIMIT ***"
    # (PREEMPTION, NODE FAILURE; scancel's with no reason; SchedMD/slurm src/slurmd/slurmstepd/req.c),
    # SIGTERM as torchelastic (`got signal: 15`, `Received Signals.SIGTERM death signal`), Lightning's
    # signal_connector.py (`Received SIGTERM: 15`) and bash (`line 3: 1234 Terminated  python ...`,
    # glibc's strsignal; not LSF's report line `Terminated at Fri Dec  1 16:38:59 2023`) report it, and
    # LSF and PBS (their limits; openlava sbatchd/job.c `Exited with signal termination: %s`, strsignal's
    # `Terminated`); after every failure kind, which a tail that names one is
    ("cancelled", re.compile(
        r"\*\*\* (?:JOB|STEP) [\d.]+ (?:ON \S+ )?CANCELLED AT|\bCANCELLED AT \S+ DUE TO\b"
        r"|\bgot signal: 15\b|\bReceived (?:15|Signals\.SIGTERM) death signal\b|\b[Rr]eceived SIGTERM\b"
        r"|^(?:[^\n]*\bline \d+:\s+\d+\s+|\[\d+\][+-]?\s+)?Terminated(?! at )(?:\s|$)"
        # srun's report of tasks a signal ended, strsignal's word (SchedMD/slurm src/srun/srun.c _task_finish:
        # `error("%s: %s %s: %s%s", hosts, task_str, tasks, signal_str, core_str)`: `nid01: tasks 2,4-5: Terminated`)
        r"|\btasks? [\d,-]+: Terminated\b"
        rf"|{_SCHEDULER_STOPPED}|signal termination: Terminated|<Signals\.SIGTERM: 15>"
        # a pod the kubelet evicted, its resource unnamed (`kubectl describe pod`'s `Reason:  Evicted` and
        # event row `Warning  Evicted`, `kubectl get pods`' STATUS column), one the scheduler preempted
        # (pkg/scheduler/framework/preemption: "Preempted by pod %v on node %v"), a Job past its
        # activeDeadlineSeconds (pkg/controller/job: "Job was active longer than specified deadline")
        r"|^\s*Reason:\s+Evicted\b|^\S+\s+\d+/\d+\s+Evicted\s|\bWarning\s+Evicted\s"
        r"|\bPreempted by (?:pod )?\S+ on node\b|\bJob was active longer than specified deadline\b",
        re.MULTILINE)),
    # stopped by the user (Ctrl-C): Python's `KeyboardInterrupt`, torchrun's `SignalException:
    # Process 123 got signal: 2` and `Received 2 death signal`, Julia's `InterruptException`,
    # DeepSpeed's launcher (deepspeed/launcher/launch.py `sigkill_handler`: `Main process received
    # SIGINT, exiting`, SIGTERM as cancelled above); last, so a failure the tail also names wins
    ("interrupted", re.compile(r"^KeyboardInterrupt\b|\bgot signal: 2\b|Signals\.SIGINT\b|\bInterruptException\b"
                               r"|\bReceived 2 death signal\b|\breceived SIGINT\b",
                               re.MULTILINE)),
)


# Memory exhaustion in words no library owns (`cudaMalloc failed: out of memory`, `error: out of
# memory`, `CudaCustomAllocator out of memory`): the GPU's when the tail names a GPU, else the host's.
_OUT_OF_MEMORY = re.compile(r"out\s+of\s+memory|failed to allocate", re.IGNORECASE)
# (not a host's name: `srun: error: gpu-node-07: ...`, `a100-gpu-3`)
_GPU_WORDS = re.compile(r"cuda|(?<!-)gpu(?!-)|device", re.IGNORECASE)
# Words that name a failure only as a possibility are no failure: advice (vLLM's `If you are running
# out of memory, consider decreasing \`gpu_memory_utilization\``, an INFO line of every start-up that
# captures CUDA graphs), a list of causes to consider (Ray src/ray/raylet/node_manager.cc: `Worker
# unexpectedly exits with a connection error code 2. End of file. There are some potential root
# causes. (1) The process is killed by SIGKILL by OOM killer ... (3) ... due to SIGSEGV ...`).
_HEDGED = re.compile(r"\b(?:if|in case)\b[^.!?\n]{0,40}$|\b(?:potential|possible) (?:root )?causes?\b",
                     re.IGNORECASE)
_AFTER_MEMORY = frozenset({"aborted", "cuda_error"})  # what a C++ abort reports around an OOM
# A GPU that left the system: Xid 79, NVML's NVML_ERROR_GPU_IS_LOST (`GPU is lost`). It is not an
# ECC error, so it is told apart from FAILURE_KINDS' any-Xid rule (NVIDIA's Xid catalogue:
# docs.nvidia.com/deploy/xid-errors, 48/63/64/92/94/95 are the ECC and row-remapping ones).
_GPU_LOST = re.compile(r"fallen off the bus|GPU is lost", re.IGNORECASE)
_XID = re.compile(r"\bXid\b(?:\s*\([^)\n]{0,40}\))?:?\s*(\d+)\b")  # `Xid (PCI:0000:3b:00): 79`, `Xid 79`
_ECC_WORDS = re.compile(r"uncorrectable ECC error|cudaErrorECCUncorrectable", re.IGNORECASE)
_ECC_XIDS = frozenset({48, 63, 64, 92, 94, 95})
_MEMORY_FAULT_XIDS = frozenset({13, 31})  # graphics engine exception, MMU fault: a kernel's bad access
# A channel stopped (43) or cleaned up (45, `caused by previous Xid 149`) after an earlier fault:
# the driver's follow-on reports, which name no fault of their own.
_FOLLOW_ON_XIDS = frozenset({43, 45})
# A launcher's exit code with no other word for it: DeepSpeed's `exits with return code = -9`,
# torchelastic's `exitcode  : -11 (pid: 1)`; negative codes are signals, 128+N the shell's form.
_EXIT_CODE = re.compile(r"(?:return code|exitcode|exit code|exit status)\s*[=:]?\s*(-?\d+)\b",
                        re.IGNORECASE)
_SIGNAL_KINDS = {9: "host_oom", 11: "segfault", 7: "bus_error", 6: "aborted", 15: "cancelled"}
# Kinds in words FAILURE_KINDS does not hold, named when nothing else is: PyTorch
# ProcessGroupNCCL's `NCCL communicator was aborted on rank N.` (its reason, when printed, names a
# more specific kind), and faulthandler's `Fatal Python error: Aborted` (a C++ abort under Python).
_MORE_KINDS = (("nccl_error", re.compile(r"NCCL communicator was aborted")),
               ("aborted", re.compile(r"Fatal Python error: Aborted")))
# A line logged as no error: a warning or debug level (glog's `W1201`, TensorFlow's `W
# tensorflow/...cc:211] Allocator (GPU_0_bfc) ran out of memory ... this is not a failure`), a
# Python warning (`UserWarning: CUDA initialization: Found no NVIDIA driver`), or NCCL's own
# information (`NCCL INFO NCCL_TIMEOUT set by environment`). A script's INFO level is not one:
# scripts log the failure they stop on at any level.
_NOT_AN_ERROR = re.compile(
    r"(?:^|[\s\[|(-])(?:DEBUG|TRACE|WARN(?:ING)?)\b|^\s*\[?W\d{4} |\bNCCL INFO\b"
    r"|(?:^|\s)W (?:[\w.-]+/|https?://)*[\w.-]+\.(?:cc|cpp|h|py):\d+\]|\b[A-Z]\w*Warning:")
# Every form above is spelled with one of these (a substring scan spares most lines the regex's backtracking).
_NOT_AN_ERROR_WORDS = ("W", "DEBUG", "TRACE", "NCCL INFO")
# A Python logger's WARNING level (`| WARNING | fairseq.trainer |`, ` - WARNING - `,
# `WARNING:name:`, `[WARNING]`): a trainer that logs an OOM as a warning caught it and goes on
# (fairseq's `OOM: Ran out of memory with exception: CUDA out of memory ...` then `attempting to
# recover from OOM`). Only memory: torchelastic logs the Ctrl-C it stops on as a warning too
# (`WARNING:torch.distributed.elastic.agent.server.api:Received 2 death signal`).
_LOGGED_WARNING = re.compile(r"\|\s*WARNING\s*\||\s-\sWARNING\s-\s|^\s*WARNING:[\w.]+:|\[WARNING\]")
# The directories of an absolute path (`/dev/shm/Qwen/Qwen3-14B/` of a config file: weights staged
# in RAM, as LLaMA-Factory logs `loading configuration file <path>`): their names name no failure.
_DIRECTORIES = re.compile(r"(?<![\w<])/(?:[\w.+-]+/)+")
# A job the scheduler stopped (slurmstepd's `*** JOB 1 ON n1 CANCELLED AT ... DUE TO TIME LIMIT ***`,
# srun's `Job step aborted`): the SIGKILL that follows (`srun: error: n1: task 0: Killed`) is the
# cancellation's, not the OOM killer's, unless the tail also names memory.
_CANCELLED = re.compile(r"\bCANCELLED AT\b|\bJob step aborted\b|\bgot signal: 15\b|\bReceived SIGTERM\b"
                        rf"|\bReceived (?:15|Signals\.SIGTERM) death signal\b|{_SCHEDULER_STOPPED}")
_HOST_MEMORY = re.compile(r"oom[-_]kill|OOMKilled|out[-\s]of[-\s]memory|MemoryError|allocate memory"
                          rf"|bad_alloc|enough memory|low on (?:resource: )?memory|{_SCHEDULER_MEMORY}", re.IGNORECASE)
# Kinds named only by the error a job raised, never by a line it went past (torchvision's warning
# `Failed to load image Python extension: ... No such file or directory`, a script's `ls: cannot
# access ...`): Python's ModuleNotFoundError/ImportError, the loader's `error while loading shared
# libraries: libcudart.so.12: cannot open shared object file` and `undefined symbol`, version
# checks raised at start (transformers utils/versions.py `... is required for a normal functioning
# of this module, but found ...`; torch utils/cpp_extension.py `The detected CUDA version (11.8)
# mismatches the version that was used to compile PyTorch`; NumPy 2's `A module that was compiled
# using NumPy 1.x cannot be run in NumPy 2`), then a missing file (FileNotFoundError, errno 2's
# `No such file or directory`, the interpreter's `can't open file`, a checkpoint not found:
# transformers Trainer's `Can't find a valid checkpoint at ...`). transformers utils/import_utils.py
# wraps any error importing a model as `RuntimeError: Failed to import transformers.models.x because
# of the following error (look up to see its traceback):` with the cause on the next line.
_RAISED_KINDS = (
    ("import_error", re.compile(
        r"ModuleNotFoundError|ImportError|No module named|undefined symbol|cannot open shared object file"
        r"|error while loading shared libraries|version `\w+_[\d.]+' not found|is required for a normal"
        r"|mismatches the version|compiled with different CUDA|binary incompatibility"
        r"|cannot be run in NumPy|version mismatch|\bFailed to import\b", re.IGNORECASE)),
    ("missing_file", re.compile(
        r"FileNotFoundError|No such file or directory|\bENOENT\b|\[Errno 2\]"
        r"|checkpoint\b[^\n]{0,80}\b(?:not found|does not exist|doesn't exist)"
        r"|(?:can't|cannot|unable to) find a valid checkpoint", re.IGNORECASE)),
)
# Error lines a program raises without a Python exception: an OSError a script printed (`print(e)`:
# `[Errno 2] No such file or directory: 'a.jpg'`), the loader's, the interpreter's
# (Modules/main.c `python: can't open file ...`; Lib/runpy.py's exit for `python -m MODULE`,
# `{sys.executable}: Error while finding module specification for 'm' (ModuleNotFoundError: ...)`
# or `{sys.executable}: No module named m`, a Windows `C:\...\python.exe:` too).
_RAISED_LINE = re.compile(r"^\[Errno \d+\] |error while loading shared libraries|\bpython[\d.]*(?:\.exe)?: (?:can't open file"
                          r"|Error while finding module specification for|No module named)", re.IGNORECASE)


# Kinds from the most specific down: FAILURE_KINDS' order, a lost GPU before the any-Xid rule,
# then the raised errors' kinds.
KINDS_SPECIFIC_FIRST = (*(kind for name, _ in FAILURE_KINDS
                           for kind in (("gpu_lost", name) if name == "ecc_error" else (name,))),
                        *(kind for kind, _ in _RAISED_KINDS))


def _says(pattern: re.Pattern[str], tail: str) -> bool:
    """Whether a tail says what a pattern names, not only as advice or a possible cause."""
    return any(not _HEDGED.search(tail, tail.rfind("\n", 0, found.start()) + 1, found.start())
               for found in pattern.finditer(tail))


def failure_kind(text: str) -> str | None:
    """The kind of failure a crash tail shows (`cuda_oom`, `nccl_timeout`, `segfault`, ...), the
    most specific one it names, a lost GPU and the Xid numbers told apart and a launcher's bare
    signal exit code named; None when it names none of them (a scheduler's cancellation too)."""
    tail = text[-MAX_SIGNATURE_INPUT * 4:]
    tail = uncoloured(tail)  # a coloured console (`exitcode: \x1b[31m-9\x1b[0m`)
    if "\xa0" in tail:  # a web page's copy keeps spaces as `&nbsp;` (`signal:\xa0Killed`)
        tail = tail.replace("\xa0", " ")
    kind = _named_kind(tail)
    if kind == "host_oom" and _CANCELLED.search(tail) and not _HOST_MEMORY.search(tail):
        return "cancelled"
    return kind


def _named_kind(tail: str) -> str | None:
    """failure_kind's reading of a tail, before a scheduler's cancellation is told apart."""
    kind = next((kind for kind, pattern in FAILURE_KINDS if _says(pattern, tail)), None)
    if (kind is None or kind in _AFTER_MEMORY) and _says(_OUT_OF_MEMORY, tail):
        return "cuda_oom" if _GPU_WORDS.search(tail) else "host_oom"
    xids = {int(code) for code in _XID.findall(tail)}
    if kind in (None, "ecc_error", "cuda_error", "aborted") and (79 in xids or _GPU_LOST.search(tail)):
        return "gpu_lost"
    if kind == "ecc_error" and not _ECC_WORDS.search(tail) and (last := _last_fault(tail)) not in _ECC_XIDS:
        return "illegal_memory_access" if last in _MEMORY_FAULT_XIDS else "cuda_error"
    if kind is None:  # a launcher's bare signal exit code, else the words no pattern above holds
        codes = [int(code) for code in _EXIT_CODE.findall(tail)]
        signals = [_SIGNAL_KINDS.get(-code if code < 0 else code - 128) for code in codes]
        named = (name for name, pattern in _MORE_KINDS if pattern.search(tail))
        return (next((signal for signal in reversed(signals) if signal), None) or next(named, None)
                or _raised_kind(tail))
    return kind


def _raised_kind(tail: str) -> str | None:
    """The kind the last error a tail's job raised names (its last exception line that is no
    launcher's wrapper, or a loader's or interpreter's error line), None when it names none."""
    for line in reversed(clean_lines(tail)):
        found = _EXCEPTION.search(line) if is_exception_line(line) else None
        if found and _short(found.group(1)) in _WRAPPERS:
            continue
        if found or _RAISED_LINE.search(line):
            return next((kind for kind, pattern in _RAISED_KINDS if pattern.search(line)), None)
    return None


def _last_fault(tail: str) -> int | None:
    """The Xid of the GPU fault a driver's log reports last (a `dmesg` over days holds several, on
    several GPUs): its last that is no follow-on of another, else its last; None without one."""
    xids = [int(found.group(1)) for found in _XID.finditer(tail)
            if not tail.endswith("previous ", 0, found.start())]
    return next((xid for xid in reversed(xids) if xid not in _FOLLOW_ON_XIDS), xids[-1] if xids else None)


def is_xid_report(line: str) -> bool:
    """Whether a line is the GPU driver's report of a fault (`NVRM: Xid (PCI:0000:3b:00): 31, ...`)."""
    return bool(_XID.search(uncoloured(line)))


def is_warning(raw: str) -> bool:
    """Whether a line is logged as no error: a warning or debug level, NCCL's information."""
    text = uncoloured(raw)
    return any(word in text for word in _NOT_AN_ERROR_WORDS) and bool(_NOT_AN_ERROR.search(text))


def is_crash_line(text: str, raw: str) -> bool:
    """Whether a line (cleaned `text`, logged as `raw`) is a crash line: a failure CRASH_LINE
    knows, at any level (NCCL reports its errors as `NCCL WARN`) but a GPU OOM a Python logger
    logged as a warning (caught: the trainer goes on), or one that names a failure kind outside
    a path's directories and is not logged as a warning or NCCL's information (the error that
    follows those raises the crash, which still takes their kind)."""
    if not has_hint(text):  # most lines: substring scans, no regex (10x less)
        return False
    if CRASH_LINE.search(text):
        return not (_LOGGED_WARNING.search(raw) and failure_kind(text) == "cuda_oom")
    lowered = text.lower()
    # (the cheap warning test first: NCCL INFO lines name `nccl` by the thousand, and the kinds' regexes cost 20x)
    return (any(hint in lowered for hint in KIND_HINTS) and not is_warning(raw)
            and failure_kind(_DIRECTORIES.sub("", text)) is not None)


def _short(type_name: str) -> str:
    return type_name.rsplit(".", 1)[-1]


def excerpt(lines: Iterable[str], limit: int = EXCERPT_LINES) -> list[str]:
    """What a person needs to recognise a failure: the traceback header, its innermost frames and
    the exception line (or the crash lines), prefixes stripped, bars dropped, repeats collapsed."""
    kept: list[str] = []
    for raw in lines:
        for line in clean_lines(raw):
            if is_progress_bar(line) or (kept and line == kept[-1]):
                continue
            kept.append(line)
    start = max((i for i, line in enumerate(kept) if TRACEBACK in line), default=-1)
    if start >= 0:
        body = kept[start + 1:]
        frames = [i for i, line in enumerate(body) if _FRAME.match(line)]
        first = frames[-EXCERPT_FRAMES] if len(frames) > EXCERPT_FRAMES else 0
        kept = [kept[start], *body[first:]]
    else:
        failing = [i for i, line in enumerate(kept) if CRASH_LINE.search(line)
                   or is_exception_line(line)]
        kept = kept[max(0, failing[0] - LEAD_LINES):] if failing else kept
    return _dedupe(kept)[-limit:]


def _dedupe(lines: Sequence[str]) -> list[str]:
    """Lines with later repeats of one line dropped (a rank each printing the same error)."""
    seen: set[str] = set()
    out = []
    for line in lines:
        if line not in seen:
            seen.add(line)
            out.append(line)
    return out


def strip_ranks(text: str) -> str:
    """Text with the rank prefix of every line removed (`[rank0]:`, `[default3]:`)."""
    return re.sub(r"(?m)^\[(?:default|rank)\d+\]:", "", text)
