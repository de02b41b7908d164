"""tqdm-style progress bars (tqdm 4.x, Lightning, HF Trainer): position, rate, remaining, postfix."""

from __future__ import annotations

import math
import re
from functools import lru_cache

from sessiontui.collectors.trainlog.readings import Reading, add_metric, from_pairs, to_float

# tqdm 4.66 format_meter: `{desc}: {pct}%|{bar}| {n}/{total} [{elapsed}<{remaining}, {rate}{, postfix}]`
# or, without a total, `{desc}: {n}{unit} [{elapsed}, {rate}{, postfix}]`. Rates are `X it/s`, or
# `X s/it` below one per second; a custom unit replaces `it`; counts may carry a k/M/G scale.
_RATE = r"(?P<rate>\d+(?:\.\d+)?|\?)\s*(?P<unit>[A-Za-z]*)/(?P<per>[A-Za-z]+)"
_TIMES = (
    rf"\s*\[(?P<elapsed>[\d:]+)(?:<(?P<remaining>[\d:?]+))?,\s*{_RATE}"
    r"(?:,\s*(?P<postfix>[^\]\r\n]*))?(?:\]|$)"  # cut by a print glued to it: the line's end
)
# A bar with a total may leave the rate out: NeMo's MegatronProgressBar sets `bar_format =
# "{desc}: {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} [{elapsed}<{remaining}{postfix}]"`
# (NVIDIA/NeMo nemo/lightning/pytorch/callbacks/progress_bar.py at cda8681), as custom formats do.
_TIMES_MAYBE_RATE = (
    rf"\s*\[(?P<elapsed>[\d:]+)(?:<(?P<remaining>[\d:?]+))?(?:,\s*{_RATE})?"
    r"(?:,\s*(?P<postfix>[^\]\r\n]*))?(?:\]|$)"
)
_COUNT = r"\d+(?:\.\d+)?[kMG]?"
_AFTER_BAR = re.compile(rf"\s*(?P<n>{_COUNT})/(?P<total>{_COUNT}){_TIMES_MAYBE_RATE}")
_GLYPHLESS = re.compile(r"(?P<desc>[^\r\n%|]*?)(?::\s*)?(?P<pct>\d{1,3})%(?=\s+\d)")
_NO_TOTAL = re.compile(rf"(?P<desc>[^\r\n\[|]*?)(?::\s*)?(?P<n>{_COUNT})[A-Za-z]*{_TIMES}")
# `key=value` items set apart by `, `; a key may hold spaces (NeMo's `train_step_timing in s=0.5`).
# A postfix set as a string (`set_postfix_str`, tqdm/std.py: `self.postfix = str(s)`) may print `key: value`,
# a dict (`{'loss': 2.1}`) or an item of a name, a space and its number (`loss 0.0001`) ending there.
_POSTFIX = re.compile(r"(?:^\{?|(?<=,)\s*)['\"]?([A-Za-z_][\w./ -]{0,63}?)['\"]?"
                      r"(?:=|:\s|\s+(?=[-+]?\.?\d[^,\s}]*\s*(?:,|}|$)))\s*([^,\s}]{1,40})")
# Figures some trainers write into the bar's description: `Epoch 3 loss=2.31`, `Loss: 4.3881`.
_DESC_FIGURE = re.compile(
    r"(?<![\w./-])([A-Za-z_][\w./-]{0,40}(?: \(\w+\))?)\s*[:=]\s*"
    r"([-+]?(?:\d[\d.]*(?:[eE][-+]?\d+)?|nan|inf\w*))",
    re.IGNORECASE,
)
# `Epoch 3`, OpenJERE's `epoch: 0/50`, `Epoch [2/10]`
_EPOCH = re.compile(r"[Ee]poch(?:\s+|:\s*)\[?\s*(\d+)(\s*/\s*\d+)?")
# torchtune's recipes: `pbar.set_description(f"{curr_epoch + 1}|{self.global_step}|Loss: {loss_to_log}")`
# over a bar of one epoch's steps (pytorch/torchtune recipes/full_finetune_single_device.py).
_EPOCH_STEP = re.compile(r"(?<![\w|])(\d+)\|(\d+)\|Loss\b")
# A bar over the epochs themselves, described by the bare word: `trange(num_train_epochs, desc="Epoch")`
# (huggingface/transformers examples, 2019-2020 run_glue.py) prints `Epoch:  33%|...| 1/3`; its count is
# the epochs done, not a step.
_EPOCHS_BAR = re.compile(r"epochs?", re.IGNORECASE)
_NOT_TRAINING = re.compile(r"eval|valid|test|predict|sanity|load|download|map|fetch|files|token|"
                           r"preprocess|filter|calculat|shard|scanning"
                           # a description opening with other work's verb: vLLM's `Processed prompts`,
                           # `Adding requests`, `Capturing CUDA graph shapes` inside an RL trainer,
                           # diffusers' `Sampling`, a GRPO rollout's `Generating`
                           r"|^\W*(?:process|adding|captur|compil|profil|benchmark|writ|cach|extract|encod|"
                           r"decod|collect|scor|build|pack|creat|generat|sampl|quantiz|calibrat|autotun|"
                           r"estimat|infer|rollout|precomput|check|unpack|sync)", re.IGNORECASE)
# Bars counting data rather than steps (`datasets` map/filter/tokenisation, downloads).
_DATA_UNITS = frozenset({"examples", "ex", "ba", "B", "kB", "MB", "GB", "files", "file", "shards"})
# transformers' NotebookProgressBar as text: `[{n}/{total} {elapsed} < {remaining}, {rate} it/s, {comment}]`,
# the Trainer's comment being `Epoch {epoch}/{num_train_epochs}` with the epoch as a float (`0.36`).
_NOTEBOOK = re.compile(
    r"\s*\[\s*(?P<n>\d+)/(?P<total>\d+) (?P<elapsed>[\d:]+)(?: < (?P<remaining>[\d:]+))?"
    r"(?:, (?P<rate>[\d.]+|\+inf) it/s)?(?:, Epoch (?P<epoch>\d+(?:\.\d+)?)/(?P<epochs>\d+))?[^\]]*\]\s*"
)
_SCALE = {"k": 1e3, "M": 1e6, "G": 1e9}
MAX_STEP = 1e15


def looks_like_bar(text: str) -> bool:
    """Cheap test that a record may be a progress bar, before the full match."""
    return "/s" in text or "s/it" in text or "/it" in text or "%|" in text


@lru_cache(maxsize=256)
def _describe(desc: str) -> tuple[bool, float | None, str]:
    """(is a training bar, epochs done before this bar, format name) for a bar description:
    Lightning's `Epoch 2:` counts from 0, a loop's `Epoch 2/3` from 1 (from 0 when it shows 0)."""
    epoch = _EPOCH.search(desc)
    fmt = "tqdm" if epoch is None or "training epoch" in desc.lower() else "lightning"
    number = float(epoch.group(1)) if epoch else None
    if epoch and epoch.group(2) and number:  # `Epoch 2/3` (a loop's `epoch + 1`): one is done
        number -= 1
    return not _NOT_TRAINING.search(desc), number, fmt


def _count(text: str) -> float:
    """A tqdm count with an optional unit-scale suffix (`12.3k`)."""
    scale = _SCALE.get(text[-1], 1.0)
    return float(text[:-1] if scale != 1.0 else text) * scale


def seconds(clock: str) -> float | None:
    """`MM:SS` or `H:MM:SS` (hours may pass 24) as seconds; None for tqdm's `?`."""
    try:
        total = 0.0
        for part in clock.split(":"):
            total = total * 60 + int(part)
        return total
    except (ValueError, OverflowError):  # a mangled clock too long for a float
        return None


def _steps_per_s(rate: str | None, unit: str, per: str) -> float | None:
    """tqdm prints `X it/s` at >= 1/s and `X s/it` below; custom units replace `it`."""
    value = to_float(rate) if rate else None
    if value is None or value <= 0:
        return None
    if per == "s":
        return value
    return 1.0 / value if unit == "s" else None


# Bars of several workers joined on one line, each cut by the terminal (fairseq 0.x under tqdm, desc
# `'| epoch {:03d}'.format(epoch)` in facebookresearch/fairseq train.py: `..., wall=32, trai| epoch 001:   0%| | 2/10127
# [...`): a postfix ends where the next bar's description starts, and that bar, the later print, is read after it.
_NEXT_BAR = re.compile(r"\|?[^|,\[\]]*?\d{1,3}%\|")


def _read_pairs(metrics: dict[str, float], pairs: list[tuple[str, str]]) -> None:
    """Add the numeric (key, text) pairs of a bar to its metrics."""
    for key, raw in pairs:
        value = to_float(raw)
        if value is not None:
            add_metric(metrics, key, value)


def parse_bar(text: str) -> tuple[Reading | None, str]:
    """The bar that starts a record as a reading (None if none), plus any text glued after it."""
    pct = text.find("%|")
    glyphless = _GLYPHLESS.match(text) if pct == -1 else None
    if pct != -1:
        close = text.find("|", pct + 2)
        match = _AFTER_BAR.match(text, close + 1) if close != -1 else None
        desc = text[:pct].rstrip("0123456789").rstrip(": ")
    elif glyphless is not None:  # Colab/Lightning without bar glyphs: `Epoch 0:  97% 1651/1702 [...]`
        pct = glyphless.end("pct")
        match = _AFTER_BAR.match(text, glyphless.end())
        desc = glyphless["desc"]
    else:
        match = _NO_TOTAL.match(text)
        desc = match["desc"] if match else ""
    if not match:
        if pct != -1 and not _describe(desc.strip())[0]:
            return None, ""  # other work's bar cut before its count: its description holds no position
        return None, text
    rest, posted_text = text[match.end():], match["postfix"] or ""
    if "%|" in posted_text and (joined := _NEXT_BAR.search(text, match.start("postfix"))):
        rest, posted_text = text[joined.start():], text[match.start("postfix"):joined.start()]
    training, epoch, fmt = _describe(desc.strip())
    if not training or match["unit"] in _DATA_UNITS:
        return None, rest
    metrics: dict[str, float] = {}
    if desc and (":" in desc or "=" in desc):
        _read_pairs(metrics, _DESC_FIGURE.findall(desc))
    postfix = _POSTFIX.findall(posted_text)
    _read_pairs(metrics, postfix)
    for position in ("v_num", "step", "epoch"):  # a postfix's positions are read as a record's below
        metrics.pop(position, None)
    n = _count(match["n"])
    total = _count(match["total"]) if pct != -1 else None
    if n > MAX_STEP or (total or 0) > MAX_STEP:  # an absurd count is corruption, not progress
        return None, rest
    remaining = match["remaining"]
    reading = Reading(
        fmt,
        metrics,
        step=int(n),
        total=int(total) if total else None,
        epoch=epoch + n / total if epoch is not None and total else epoch,
        steps_per_s=_steps_per_s(match["rate"], match["unit"], match["per"]),
        remaining_s=seconds(remaining) if remaining else None,
        done=bool(total and n >= total and epoch is None),
    )
    if _EPOCHS_BAR.fullmatch(desc.strip()) and total:
        metrics["total_epochs"] = total
        reading.step, reading.total, reading.epoch, reading.done = None, None, n, n >= total
    if "|" in desc and (counted := _EPOCH_STEP.search(desc)):
        _run_wide(reading, int(counted[1]), int(counted[2]))
    if (posted := from_pairs("postfix", postfix)) is not None:
        _postfix_position(reading, posted)
    return reading, rest


def _postfix_position(reading: Reading, posted: Reading) -> None:
    """The postfix is a record like any other line, its positions named by the same vocabulary:
    its epoch (`epoch=11.9` on a bar over one epoch's batches) is the run's where the description
    gave none, and its step (fairseq's `num_updates=348000`, `global_step/max_steps=79/176`) the
    run's, with the total it prints, the bar's being the epoch's. One apart (NeMo's
    `795/77225 [..., global_step=794.0]`, logged before the update), the bar is over the run: its
    total stays, and the step is the one the tool names (the corpus reads `global_step`, b30, b47)
    until the bar is full, whose count then says every step is done (`40/40, global_step=39.00`)."""
    if reading.epoch is None and posted.epoch is not None and math.isfinite(posted.epoch):
        reading.epoch = posted.epoch
    if posted.step is None:
        return
    if abs(posted.step - (reading.step or 0)) <= 1:
        full = reading.total is not None and reading.step is not None and reading.step >= reading.total
        reading.step = reading.step if full else posted.step
        return
    reading.step, reading.total, reading.done = posted.step, posted.total, False


def _run_wide(reading: Reading, epoch: int, step: int) -> None:
    """A bar over one epoch whose description gives the 1-based epoch and the run's step: the
    step is the run's, the epoch a fraction, and the total the steps to this epoch's end (the
    run's when it has one epoch; the number of epochs is not printed)."""
    if reading.total and reading.step is not None:
        per_epoch, within = reading.total, reading.step
        reading.epoch = epoch - 1 + within / per_epoch
        # some recipes set the description before the bar's update: one step apart
        reading.total = per_epoch * epoch if abs(step - per_epoch * (epoch - 1) - within) <= 1 else None
    reading.step = step


def notebook_bar(text: str) -> Reading | None:
    """The HF Trainer's notebook progress line pasted as text: step of total, rate, remaining and
    the epoch it prints (a fraction of the run's epochs); at its total the training is over."""
    match = _NOTEBOOK.fullmatch(text)
    if match is None:
        return None
    n, total = int(match["n"]), int(match["total"])
    metrics = {"total_epochs": float(match["epochs"])} if match["epochs"] else {}
    rate = to_float(match["rate"]) if match["rate"] else None
    return Reading("hf-notebook", metrics, step=n, total=total or None,
                   epoch=float(match["epoch"]) if match["epoch"] else None,
                   steps_per_s=rate if rate and rate != float("inf") else None,
                   remaining_s=seconds(match["remaining"]) if match["remaining"] else None,
                   done=n >= total > 0)
