"""Recognisers for one cleaned log record; each returns a Reading or None and never raises."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from functools import lru_cache
from itertools import repeat

from sessiontui.collectors.trainlog.progress import looks_like_bar, parse_bar
from sessiontui.collectors.trainlog.readings import Reading, from_pairs, metric_name, to_float

# SpecForge gen 1 (2025 scripts) and SafeAILab EAGLE-3: `Train Epoch [e/E], position i,  Acc: x`.
_SF_EPOCH = re.compile(
    r"(?P<phase>Train|Eval) Epoch \[(?P<e>\d+)/(?P<E>\d+)\], position (?P<pos>\d+),\s+"
    r"(?P<name>[A-Za-z][A-Za-z ]{0,40}?):\s*(?P<value>\S{1,40})"
)
# SpecForge gen 2 (`train_eagle3.py`): `Eval - Step N [N+1/E], position i,  Acc: x`.
_SF_STEP = re.compile(
    r"Eval - Step (\d+) \[[^\]\n]{0,40}\], position (\d+),[ \t]+([A-Za-z][A-Za-z ]{0,40}?):"
    r"[ \t]*(\S{1,40})"
)
# A whole run of adjacent such lines for one step (21 lines a step by default), found at once.
# (The first may be glued after a progress bar, as SpecForge prints while tqdm draws.)
_SF_STEP_RUN = re.compile(
    r"Eval - Step (\d+) \[[^\]\n]{0,40}\], position \d+,[^\n]*"
    r"(?:\nEval - Step \1 \[[^\]\n]{0,40}\], position \d+,[^\n]*)*"
)
_SF_STEP_ITEM = re.compile(r"position (\d+),[ \t]+([A-Za-z][A-Za-z ]{0,40}?):[ \t]*(\S{1,40})")
# SpecForge gen 3 (`specforge train`): `step N: {'acc_0': .., 'loss': .., ...}`.
_SF_DICT = re.compile(r"step (?P<step>\d+): (?P<dict>\{.*\})")
_DICT_ITEM = re.compile(r"""['"]([^'"]{1,100})['"]\s*:\s*(\[[^\]]{0,4000}\]|[^,}]{1,100})""")
# DeepSpeed engine: `[Rank 0] step=10, skipped=0, lr=[0.0001], mom=[(0.9, 0.999)]`.
_DS_STEP = re.compile(r"\bstep=(?P<step>\d+), skipped=\d+, lr=\[(?P<lr>[^\],]{1,40})")
# Megatron-LM: ` iteration      199/  317892 | consumed samples: ... | lm loss: 7.1E+00 |`.
_MEGATRON = re.compile(r"iteration\s+(?P<step>\d+)\s*/\s*(?P<total>\d+)\s*\|(?P<rest>.*)")
_EPOCH_OF = re.compile(r"\bEpoch \[(?P<e>\d+)/(?P<E>\d+)\]")
_KEY_EQ = re.compile(r"(?<![\w./-])([A-Za-z_][\w./-]{0,39})\s*=\s*"
                     r"(\[?[-+]?(?:\d|\.\d|nan|inf)[^,\s\]]{0,40}\]?%?)",
                     re.IGNORECASE)
_KEY_COLON = re.compile(r"(?<![\w./-])([A-Za-z_][\w./ -]{0,40}?)\s*:\s+"
                        r"([-+]?(?:\d|\.\d|nan\b|inf)[^,\s|]{0,40}%?)",
                        re.IGNORECASE)
_POSITION_NAMES = {"acc": "acc", "acceptance rate": "acceptance_rate", "ploss": "ploss"}


@lru_cache(maxsize=1024)
def _position_metric(name: str, position: str, eval_phase: bool) -> str:
    """`Acc` at position 3 -> `acc_3`; evaluation-phase figures get an `eval_` prefix."""
    base = _POSITION_NAMES.get(name.strip().lower(), metric_name(name))
    return f"{'eval_' if eval_phase else ''}{base}_{int(position)}"


def specforge_epoch(text: str) -> Reading | None:
    """Per-epoch, per-position SpecForge/EAGLE-3 lines."""
    match = _SF_EPOCH.search(text)
    value = to_float(match["value"]) if match else None
    if match is None or value is None:
        return None
    name = _position_metric(match["name"], match["pos"], match["phase"] == "Eval")
    return Reading("specforge-v1", {name: value, "total_epochs": float(match["E"])},
                   epoch=float(match["e"]))


def specforge_step(text: str) -> Reading | None:
    """`Eval - Step N [...]` position lines (printed as "Eval" during training too)."""
    match = _SF_STEP.search(text)
    value = to_float(match[4]) if match else None
    if match is None or value is None:
        return None
    return Reading("specforge-v2", {_position_metric(match[3], match[2], False): value},
                   step=int(match[1]))


def specforge_step_runs(text: str) -> Iterator[tuple[int, int, int]]:
    """(start, end, step) of each run of adjacent `Eval - Step` lines of one step in a block
    (the bulk of a SpecForge log), so that runs the caller does not need are never parsed."""
    for run in _SF_STEP_RUN.finditer(text):
        yield run.start(), run.end(), int(run[1])


def specforge_step_run(text: str, start: int, end: int, step: int) -> Reading:
    """One reading for a run found by `specforge_step_runs`."""
    items = _SF_STEP_ITEM.findall(text, start, end)
    if not items:
        return Reading("specforge-v2", {}, step=step)
    positions, names, raws = zip(*items, strict=True)
    keys = tuple(map(_position_metric, names, positions, repeat(False)))
    try:
        metrics = dict(zip(keys, map(float, raws), strict=True))
    except ValueError:
        values = zip(keys, map(to_float, raws), strict=True)
        metrics = {key: value for key, value in values if value is not None}
    return Reading("specforge-v2", metrics, step=step)


def dict_pairs(text: str) -> list[tuple[str, str]]:
    """Key/value texts of a printed Python dict; lists become `key_0, key_1, ...`."""
    pairs: list[tuple[str, str]] = []
    for key, raw in _DICT_ITEM.findall(text):
        if raw.startswith("["):
            pairs.extend((f"{key}_{i}", item) for i, item in enumerate(raw[1:-1].split(",")))
        else:
            pairs.append((key, raw))
    return pairs


def specforge_dict(text: str) -> Reading | None:
    """`step N: {...}` dicts of the current SpecForge trainer."""
    match = _SF_DICT.match(text)
    if not match:
        return None
    reading = from_pairs("specforge-v3", dict_pairs(match["dict"]), step=int(match["step"]))
    per_hour = reading.metrics.get("perf/optimizer_steps_per_hour") if reading else None
    if reading is not None and per_hour and per_hour > 0:
        reading.steps_per_s = per_hour / 3600
    return reading


def hf_dict(text: str) -> Reading | None:
    """HuggingFace Trainer log dicts (`nan`/`inf` allowed); `train_runtime` marks the end."""
    start = text.find("{'")
    if start == -1 or "}" not in text:
        return None
    pairs = dict_pairs(text[start:])
    done = any(key == "train_runtime" for key, _ in pairs)
    return from_pairs("hf-trainer", pairs, done=done)


def json_line(text: str) -> Reading | None:
    """JSON-lines metric files: numeric fields of one object per line."""
    try:
        data = json.loads(text)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    pairs = [(str(k), str(v)) for k, v in data.items()
             if isinstance(v, int | float) and not isinstance(v, bool)]
    return from_pairs("jsonl", pairs)


def deepspeed_step(text: str) -> Reading | None:
    """DeepSpeed engine `step=` progress lines."""
    match = _DS_STEP.search(text)
    if match is None:
        return None
    lr = to_float(match["lr"])
    return Reading("deepspeed", {"lr": lr} if lr is not None else {}, step=int(match["step"]))


def megatron(text: str) -> Reading | None:
    """Megatron-LM `iteration N/ M | name: value |` lines."""
    match = _MEGATRON.search(text)
    if not match:
        return None
    metrics = {}
    for part in match["rest"].split("|"):
        key, sep, raw = part.rpartition(":")
        value = to_float(raw) if sep else None
        if value is not None:
            metrics[metric_name(key)] = value
    ms = metrics.pop("elapsed_time_per_iteration_(ms)", None)
    step, total = int(match["step"]), int(match["total"])
    return Reading("megatron", metrics, step=step, total=total, done=step >= total > 0,
                   steps_per_s=1000.0 / ms if ms and ms > 0 else None)


def key_values(text: str) -> Reading | None:
    """Plain `key=value` / `key: value` lines (and EAGLE-1/2 `Epoch [e/E], Loss: x`)."""
    pairs = _KEY_EQ.findall(text) or _KEY_COLON.findall(text)
    epoch = _EPOCH_OF.search(text)
    return from_pairs("key-value", pairs, epoch=float(epoch["e"]) if epoch else None)


def lightning_stopped(text: str) -> Reading | None:
    """Lightning's fit-end notice (`Trainer.fit` stopped: `max_epochs=N` reached.)."""
    return Reading("lightning", {}, done=True) if "reached" in text else None


def _bar_then_rest(text: str) -> list[Reading]:
    """A progress bar, and whatever was printed straight after it on the same line."""
    reading, rest = parse_bar(text)
    if rest is text:
        return _single(text)
    readings = [reading] if reading is not None else []
    return readings + parse_record(rest) if rest.strip() else readings


# (marker that must occur, recogniser): the first whose marker occurs and that returns wins.
RECOGNISERS: tuple[tuple[str, Callable[[str], Reading | None]], ...] = (
    ("Eval - Step", specforge_step),
    ("Trainer.fit` stopped", lightning_stopped),
    (" Epoch [", specforge_epoch),
    ("step ", specforge_dict),
    ("{'", hf_dict),
    ('{"', json_line),
    ("skipped=", deepspeed_step),
    ("iteration", megatron),
    ("", key_values),
)


def _single(text: str) -> list[Reading]:
    """The first recogniser that understands a non-bar record."""
    for marker, recognise in RECOGNISERS:
        if marker in text:
            reading = recognise(text)
            if reading is not None:
                return [reading]
    return []


def parse_record(text: str) -> list[Reading]:
    """Every reading in one cleaned record; unrecognised or malformed text gives []."""
    if not text or text[0] == "#":
        return []
    try:
        return _bar_then_rest(text) if looks_like_bar(text) else _single(text)
    except (ValueError, OverflowError, RecursionError):
        return []

