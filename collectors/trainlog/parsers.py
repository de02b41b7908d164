"""Recognisers for one cleaned log record; each returns a Reading or None and never raises."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from datetime import datetime
from functools import lru_cache
from itertools import repeat

from sessiontui.collectors.trainlog.endings import says_run_ended
from sessiontui.collectors.trainlog.generic import generic, json_object
from sessiontui.collectors.trainlog.progress import looks_like_bar, notebook_bar, parse_bar, seconds
from sessiontui.collectors.trainlog.readings import (
    Reading,
    add_metric,
    from_pairs,
    to_float,
)
from sessiontui.collectors.trainlog.vocabulary import canonical as metric_name

# A figure given for the run's last position: TF Estimator's `logging.info('Loss for final step: %s.', loss)`
# (estimator.py `_train_with_estimator_spec`), `loss at the last step: 0.12`.
_FINAL_FIGURE = re.compile(r"(?<![\w.])(?P<key>[A-Za-z][\w]{0,30}) (?:for|at|of) (?:the )?(?:final|last) "
                           r"(?:step|iteration|iter|epoch)\s*[:=]\s*(?P<value>[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)")
# YOLOv5/Ultralytics train.py `f'\n{epoch - start_epoch + 1} epochs completed in {...:.3f} hours.'`: the
# epochs done, where its rows count from 0 (`0/0` is the first and last).
_EPOCHS_DONE = re.compile(r"\s*(\d+) epochs? completed in ")

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
# A dict's item; a value that opens a nested dict is no figure, its items are read in their turn.
_MAYBE_FIGURE = re.compile(r"\d")
# A printed dict's `'key': value, 'key': ...` pasted without its opening `{` (ms-swift#5571): two
# quoted keys, each before its colon, open the line.
_BARE_DICT = re.compile(r"""\s*(['"])[^'"{}]{1,100}\1\s*:\s*[^,{}]{1,100},\s*(['"])[^'"{}]{1,100}\2\s*:""")
_DICT_ITEM = re.compile(r"""['"]([^'"]{1,100})['"]\s*:\s*(\[[^\]]{0,4000}\]|[^,{}]{1,100})""")
# DeepSpeed engine: `[Rank 0] step=10, skipped=0, lr=[0.0001], mom=[(0.9, 0.999)]`.
_DS_STEP = re.compile(r"\bstep=(?P<step>\d+), skipped=\d+, lr=\[(?P<lr>[^\],]{1,40})")
# DeepSpeed's 2020 ThroughputTimer: `0/2700, SamplesPerSec=13.19` (epoch/step; later builds name them).
_DS_TIMER = re.compile(r"^(?P<e>\d+)/(?P<step>\d+), SamplesPerSec=(?P<rate>[\d.]+)")
# chainer's ProgressBar (ESPnet1, ChainerCV): `       200 iter, 0 epoch / 100 epochs` (or
# `       200 / 1000 iterations`), then `     2.635 iters/sec. Estimated time to finish: 20 days, 11:28:37.1.`
_CHAINER_ITER = re.compile(r"\s*(?P<step>\d+) (?:iter, (?P<e>\d+) epoch / (?P<E>\d+) epochs|/ (?P<total>\d+) iterations)\s*")
_CHAINER_RATE = re.compile(r"\s*(?P<rate>[\d.]+(?:e[-+]?\d+)?) iters/sec\. Estimated time to finish: .*")
# Unsloth's gradient accumulation fix after its bar: `| 12/600 [01:54<1:28:28,  9.03s/it]11, 4.3969`
_STEP_LOSS = re.compile(r"\s*(?P<i>\d+), (?P<loss>[-+]?\d*\.\d+(?:e[-+]?\d+)?|nan|inf)\s*", re.IGNORECASE)
# darknet (AlexeyAB and pjreddie): `100: 443.01, 808.35 avg loss, 0.000000 rate, 20.68 seconds, 6400 images`
_DARKNET = re.compile(r"\s*(?P<step>\d+): (?P<loss>\S+), (?P<avg>\S+) avg(?: loss)?, (?P<lr>[\d.e-]+) rate,"
                      r" (?P<s>[\d.]+) seconds, \d+ images\b.*")
# Megatron-LM: ` iteration      199/  317892 | consumed samples: ... | lm loss: 7.1E+00 |`.
_MEGATRON = re.compile(r"iteration\s+(?P<step>\d+)\s*/\s*(?P<total>\d+)\s*\|(?P<rest>.*)")
# NeMo 2's ProgressPrinter over the same fields: `Training epoch 0, iteration 50/100 | lr: ... |
# global_step: 49 | reduced_train_loss: ...` (NVIDIA/NeMo nemo/lightning/pytorch/callbacks/progress_printer.py
# `on_train_batch_end`): Lightning's `current_epoch`, from 0.
_NEMO_EPOCH = re.compile(r"\bTraining epoch (?P<e>\d+), iteration\b")
# Megatron validation: ` validation loss at iteration 1000 | lm loss value: 2.72E+00 | ...`.
# Since b6a7f40 (2025-08-16) each of several validation sets is named: `validation-0 loss at`,
# `validation-wiki loss at` (NVIDIA/Megatron-LM megatron/training/training.py `evaluate_and_print_results`).
# a name glued to the figure before it, no separator between (`value=2.697780lm loss PPL=14.846734`)
_GLUED_FIELD = re.compile(r"(?<=\d)(?=[A-Za-z_][\w ]{0,40}[:=])")
_MEGATRON_VALID = re.compile(r"validation(?:-(?P<set>[\w.]+))? loss at iteration (?P<step>\d+)[^|]*\|(?P<rest>.*)")
# DeepSpeed pipeline engine (diffusion-pipe): `steps: 4 loss: 0.1193 iter time (s): 533.263 ...`.
_DS_STEPS = re.compile(
    # since 2024 each of a MoE model's other losses between (`moe_loss: 0.0123 `; deepspeedai/DeepSpeed
    # deepspeed/runtime/pipe/engine.py at 08e0733)
    r"\bsteps: (?P<step>\d+) loss: (?P<loss>\S+) (?P<others>(?:[\w.]+: \S+ )*)iter time \(s\): (?P<iter>[\d.]+)"
    r"(?: samples/sec: (?P<sps>[\d.]+))?"
)
_DS_OTHER = re.compile(r"([\w.]+): (\S+) ")
# torchvision / DETR MetricLogger: `Epoch: [0]  [210/225]  eta: 0:00:04  lr: 0.001  loss: x (avg)`.
_METRIC_LOGGER = re.compile(
    r"^(?P<head>[A-Za-z][\w ]{0,30}:)?\s*(?:\[(?P<e>\d+)(?:/\d+)?\]\s+)?\[\s*(?P<i>\d+)/(?P<n>\d+)\]"
    r"\s+eta: (?:(?P<days>\d+) days?, )?(?P<eta>[\d:]+)\s+(?P<rest>.*)"
)
_LOGGER_ITEM = re.compile(
    r"(?<![\w/])([A-Za-z_][\w/]*(?: mem)?): ([-+]?[\d.]+(?:[eE][-+]?\d+)?|nan|inf)"
)
# ESPnet: `5epoch:train:3376-3750batch: iter_time=0.001, ..., loss=1.733, lr_0=0.100, ...`.
_ESPNET = re.compile(r"(?P<e>\d+)epoch:(?P<phase>train|valid):(?P<a>\d+)-(?P<b>\d+)batch:(?P<rest>.*)")
# ESPnet's end-of-epoch summary: `5epoch results: [train] loss=1.73, ... [valid] loss=1.9, ...`.
_ESPNET_RESULTS = re.compile(r"(?P<e>\d+)epoch results: (?P<rest>.*)")
_ESPNET_PART = re.compile(r"\[(\w+)\]([^\[]*)")
# verl's RayPPOTrainer.fit prints `epoch {epoch}, step {self.global_steps}` as a step begins and logs
# that step's figures (`step:N - ...`) when it ends (verl/trainer/ppo/ray_trainer.py): N-1 are done.
_VERL_STEP_START = re.compile(r"\s*epoch \d+, step (?P<step>\d+)\s*")
# A time stamp leading a raw log line (logging, DeepSpeed, ESPnet `[host] 2020-11-11 16:36:33,446`).
# transformers Trainer `_save`: `Saving model checkpoint to {output_dir}`, the folder named
# `checkpoint-{self.state.global_step}` (trainer.py `_save_checkpoint`, PREFIX_CHECKPOINT_DIR)
# llm.c's main.log (karpathy/llm.c llmc/logger.h `logger_log_train`: `s:%d trl:%.4f lr:%.6f norm:%.2f`,
# `logger_log_eval`: `s:%d tel:%.4f`): `s` is the step, named only by this shape.
_LLMC_LOG = re.compile(r"\s*s:(?P<step>\d+) (?P<rest>t[re]l:.*)")
_HF_CHECKPOINT = re.compile(r"\bSaving model checkpoint to \S*\bcheckpoint-(?P<step>\d+)/?\s*$")
_STAMP = re.compile(r"^\W{0,2}(?:\S+\]\s)?\[?(\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d{1,6})?)")
_KEY_EQ = re.compile(r"(?<![\w./-])([A-Za-z_][\w./-]{0,39})\s*=\s*"
                     r"(\[?[-+]?(?:\d|\.\d|nan|inf)[^,\s\]]{0,40}\]?%?)",
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
            pairs.append((key, raw.strip().strip("'\"")))  # newer Trainers print `'0.7206'`
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
    """HuggingFace Trainer log dicts (`nan`/`inf` allowed); `train_runtime` marks the end. The fields
    printed before the dict count (accelerate's `epoch 0: {'accuracy': 0.85}`, a GRPO loop's
    `rl_loss: 0.0008, time: 115.8, reward_data: {...}`), and so do those after it (`Config: {...},
    Epoch 7/30, Train Loss: 38.8265`). A dict pasted without its opening or closing brace is the
    dict it is."""
    start, end = text.find("{'"), text.rfind("}")
    if start == -1 and _BARE_DICT.match(text):
        start = 0
    if start == -1:
        return None
    if end < start:
        end = len(text)
    reading = from_pairs("hf-trainer", dict_pairs(text[start:end + 1]))
    lead = generic(text[:start]) if _MAYBE_FIGURE.search(text, 0, start) else None
    tail = generic(text[end + 1:].lstrip(" ,;|")) if _MAYBE_FIGURE.search(text, end + 1) else None
    if reading is None:
        return None
    for beside in (lead, tail):
        if beside is not None:
            if reading.done:  # the summary's: `TrainOutput(global_step=100, training_loss=0.50, metrics={...})`
                beside.metrics.pop("loss", None)  # holds the run's mean loss, as the dict's `train_loss`
            reading.metrics = {**beside.metrics, **reading.metrics} if beside is lead else {
                **reading.metrics, **beside.metrics}
            reading.step = reading.step if beside.step is None else beside.step
            reading.epoch = reading.epoch if beside.epoch is None else beside.epoch
    return reading


def hf_checkpoint(text: str) -> Reading | None:
    """The Trainer saving its `checkpoint-N` folder: the run is at global step N."""
    match = _HF_CHECKPOINT.search(text)
    return Reading("hf-trainer", {}, step=int(match["step"])) if match else None


def llmc_log(text: str) -> Reading | None:
    """A line of llm.c's main.log: the step its `s:` names, the figures after it."""
    match = _LLMC_LOG.fullmatch(text)
    reading = generic(match["rest"]) if match else None
    if match is None or reading is None:
        return None
    reading.step = int(match["step"])
    return reading


def verl_step_start(text: str) -> Reading | None:
    """verl announcing the step it begins: the steps before it are the run's position."""
    match = _VERL_STEP_START.fullmatch(text)
    return Reading("verl", {}, step=int(match["step"]) - 1) if match else None


def deepspeed_step(text: str) -> Reading | None:
    """DeepSpeed engine `step=` progress lines."""
    match = _DS_STEP.search(text)
    if match is None:
        return None
    lr = to_float(match["lr"])
    return Reading("deepspeed", {"lr": lr} if lr is not None else {}, step=int(match["step"]))


def deepspeed_timer(text: str) -> Reading | None:
    """DeepSpeed's early ThroughputTimer `epoch/step, SamplesPerSec=x` lines: the pair is the
    epoch and the run's step, not a step of a total."""
    match = _DS_TIMER.match(text)
    if match is None:
        return None
    return Reading("deepspeed", {"samples_per_s": float(match["rate"])}, step=int(match["step"]),
                   epoch=float(match["e"]))


def chainer_progress(text: str) -> Reading | None:
    """chainer's ProgressBar lines under its report table: the iteration (of a total, or with the
    epoch of the epochs' total) and its rate."""
    if rate := _CHAINER_RATE.fullmatch(text):
        return Reading("chainer", {}, steps_per_s=float(rate["rate"]) or None)
    match = _CHAINER_ITER.fullmatch(text)
    if match is None:
        return None
    metrics = {"total_epochs": float(match["E"])} if match["E"] else {}
    return Reading("chainer", metrics, step=int(match["step"]),
                   total=int(match["total"]) if match["total"] else None,
                   epoch=float(match["e"]) if match["e"] else None)


def darknet(text: str) -> Reading | None:
    """darknet's per-batch line: the batch, its loss, the running average darknet users watch
    (the run's loss), the rate and the seconds the batch took."""
    match = _DARKNET.fullmatch(text)
    if match is None:
        return None
    loss, avg, rate, took = (to_float(match[name]) for name in ("loss", "avg", "lr", "s"))
    if avg is None or rate is None:
        return None
    metrics = {"loss": avg, "lr": rate} | ({"batch_loss": loss} if loss is not None else {})
    return Reading("darknet", metrics, step=int(match["step"]),
                   steps_per_s=1.0 / took if took else None)


def megatron(text: str) -> Reading | None:
    """Megatron-LM `iteration N/ M | name: value |` lines (older builds print some names without
    a colon: `learning rate 1.258E-04 | lm loss 4.799004E+00`) and validation lines."""
    match = _MEGATRON.search(text)
    if not match:
        return _megatron_validation(text)
    metrics: dict[str, float] = {}
    for part in match["rest"].split("|"):
        key, sep, raw = part.rpartition(":")
        if not sep:  # `name value` without a colon
            key, _, raw = part.strip().rpartition(" ")
        value = to_float(raw) if key.strip() else None
        if value is not None:
            add_metric(metrics, key, value)
    ms = metrics.pop("elapsed_time_per_iteration_(ms)", None)
    metrics.pop("step", None)  # NeMo's `global_step: 49`: a position, the iteration's is the one read
    step, total = int(match["step"]), int(match["total"])
    epoch = _NEMO_EPOCH.search(text, 0, match.end("total"))
    return Reading("megatron", metrics, step=step, total=total, done=step >= total > 0,
                   epoch=float(epoch["e"]) if epoch else None,
                   steps_per_s=1000.0 / ms if ms and ms > 0 else None)


def megatron_line(text: str) -> bool:
    """Whether a line holds a Megatron iteration line's start (`iteration N/ M |`)."""
    return _MEGATRON.search(text) is not None


def megatron_cut(text: str) -> bool:
    """Whether a Megatron iteration line stops at a name whose figure is on the next line (a
    terminal or a paste wrapped it at its width: `... | learning` then ` rate: 4.475E-05 | ...`);
    every field of a whole line ends with ` |` (megatron/training.py `training_log`)."""
    match = _MEGATRON.search(text)
    last = match["rest"].rpartition("|")[2] if match else ""
    return bool(last.strip()) and not any(char.isdigit() for char in last)


def _megatron_validation(text: str) -> Reading | None:
    """`validation loss at iteration N | lm loss value: x |` (or `value=x`, each field's figure glued
    to the next name as argonne-lcf/Megatron-DeepSpeed prints them): kept as val_loss, never as loss."""
    match = _MEGATRON_VALID.search(text)
    if not match:
        return None
    metrics = {}
    for part in _GLUED_FIELD.sub("|", match["rest"]).split("|"):
        key, sep, raw = part.rpartition(":")
        if not sep:  # Megatron-DeepSpeed's `lm loss value=2.697780`
            key, sep, raw = part.rpartition("=")
        value = to_float(raw) if sep else None
        if value is not None:
            name = metric_name(key).removesuffix("_value")
            name = "loss" if name in ("lm_loss", "loss") else name
            metrics["val_" + name] = value
            if match["set"]:  # each set's figure under its name too; `val_loss` is the last set's
                metrics[f"val_{match['set']}_{name}"] = value
    return Reading("megatron", metrics) if metrics else None


def deepspeed_steps(text: str) -> Reading | None:
    """DeepSpeed pipeline-engine progress (diffusion-pipe): steps/s from the iteration time."""
    match = _DS_STEPS.search(text)
    if match is None:
        return None
    loss, iteration = to_float(match["loss"]), float(match["iter"])
    metrics = {"loss": loss} if loss is not None else {}
    for name, value in _DS_OTHER.findall(match["others"]):
        if (figure := to_float(value)) is not None:
            add_metric(metrics, name, figure)
    metrics["iter_time_s"] = iteration
    if match["sps"]:
        metrics["samples_per_s"] = float(match["sps"])
    return Reading("deepspeed", metrics, step=int(match["step"]),
                   steps_per_s=1.0 / iteration if iteration > 0 else None)


def metric_logger(text: str) -> Reading | None:
    """torchvision / DETR `MetricLogger.log_every` lines: step, total, ETA, and each meter's
    current value (the value before the parenthesised global average)."""
    match = _METRIC_LOGGER.match(text)
    if match is None:
        return None
    metrics: dict[str, float] = {}
    for key, raw in _LOGGER_ITEM.findall(match["rest"]):
        value = to_float(raw)
        if value is not None and key not in metrics:
            add_metric(metrics, key, value)
    per_step = metrics.pop("time", None)
    metrics.pop("data", None)
    if (match["head"] or "").lower().startswith(("test", "val", "eval")):
        return Reading("metriclogger", {f"val_{k}": v for k, v in metrics.items()})
    eta = seconds(match["eta"])
    if eta is not None and match["days"]:
        eta += int(match["days"]) * 86400
    step, total = int(match["i"]), int(match["n"])
    epoch = float(match["e"]) if match["e"] else None
    meter = metrics.get("epoch")  # DUSt3R/MapAnything log the fractional epoch as a meter
    if meter is not None and (epoch is None or int(meter) == epoch):
        epoch = metrics.pop("epoch")
    return Reading("metriclogger", metrics, step=step, total=total, epoch=epoch,
                   steps_per_s=1.0 / per_step if per_step and per_step > 0 else None,
                   remaining_s=eta)


def espnet(text: str) -> Reading | None:
    """ESPnet `Nepoch:train:a-bbatch: key=value, ...` lines: epoch, loss, lr (`lr_0`) and the
    batch range's end as the step within the epoch (the reader makes it run-wide)."""
    match = _ESPNET.search(text)
    if match is None:
        return None
    pairs = _KEY_EQ.findall(match["rest"])
    if match["phase"] == "valid":
        pairs = [(f"val_{key}", raw) for key, raw in pairs]
    train = match["phase"] == "train"
    reading = from_pairs("espnet", pairs, epoch=float(match["e"]),
                         step=int(match["b"]) if train else None)
    if reading is not None and reading.metrics.get("train_time"):
        reading.steps_per_s = 1.0 / reading.metrics["train_time"]
    return reading


def espnet_results(text: str) -> Reading | None:
    """ESPnet's `Nepoch results:` summary: the train part as is, the valid part as `val_*`."""
    match = _ESPNET_RESULTS.search(text)
    if match is None:
        return None
    pairs: list[tuple[str, str]] = []
    for part, body in _ESPNET_PART.findall(match["rest"]):
        prefix = "" if part == "train" else "val_" if part == "valid" else f"{part}_"
        pairs.extend((prefix + key, raw) for key, raw in _KEY_EQ.findall(body))
    return from_pairs("espnet", pairs, epoch=float(match["e"]))


def logged_time(raw: str) -> float | None:
    """The time stamped at the start of a raw log line, as a Unix time (None without one)."""
    match = _STAMP.match(raw)
    if match is None:
        return None
    try:
        return datetime.fromisoformat(match[1].replace(",", ".")).timestamp()
    except ValueError:
        return None


def run_ended(text: str) -> Reading | None:
    """A line saying the run is over (endings.py's table): a done reading, with the figure it gives
    for the last step (TF Estimator's `Loss for final step: 0.0025.`)."""
    if not says_run_ended(text):
        return None
    metrics: dict[str, float] = {}
    if final := _FINAL_FIGURE.search(text):
        add_metric(metrics, final["key"], float(final["value"]))
    epochs = _EPOCHS_DONE.match(text)
    return Reading("lightning" if "Trainer.fit" in text else "key-value", metrics, done=True,
                   epoch=float(epochs[1]) if epochs else None)


def _bar_then_rest(text: str) -> list[Reading]:
    """A progress bar, and whatever was printed straight after it on the same line."""
    reading, rest = parse_bar(text)
    if rest is text:
        return _single(text)
    if reading is not None and (loss := _step_loss_suffix(reading.step, rest)) is not None:
        reading.metrics["loss"] = loss
        return [reading]
    readings = [reading] if reading is not None else []
    return readings + parse_record(rest) if rest.strip() else readings


def _step_loss_suffix(step: int | None, rest: str) -> float | None:
    """The loss in a bare `11, 4.3969` printed after a bar at step 12 (Unsloth's gradient
    accumulation fix prints the 0-based step and its loss): only when the count is the bar's step."""
    match = _STEP_LOSS.fullmatch(rest)
    if match is None or step is None or int(match["i"]) not in (step - 1, step):
        return None
    return to_float(match["loss"])


# (marker that must occur, recogniser): the first whose marker occurs and that returns wins.
RECOGNISERS: tuple[tuple[str, Callable[[str], Reading | None]], ...] = (
    ("Eval - Step", specforge_step),
    ("", run_ended),
    (" Epoch [", specforge_epoch),
    ("[", notebook_bar),
    ("step ", specforge_dict),
    ("{'", hf_dict),
    ("': ", hf_dict),
    ("Saving model checkpoint to ", hf_checkpoint),
    ("s:", llmc_log),
    (", step ", verl_step_start),
    ('{"', json_object),
    ("skipped=", deepspeed_step),
    (", SamplesPerSec=", deepspeed_timer),
    ("iter time (s)", deepspeed_steps),
    (" rate, ", darknet),
    (" iters/sec. ", chainer_progress),
    (" iter", chainer_progress),
    ("iteration", megatron),
    ("eta: ", metric_logger),
    ("epoch:", espnet),
    ("epoch results: ", espnet_results),
    ("", generic),
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

