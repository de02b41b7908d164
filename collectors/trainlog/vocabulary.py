"""The one vocabulary of metric names: every spelling a tool prints lands on the snapshot's name.

Exact aliases first, then rules (`valid_`/`validation ` prefixes -> `val_`, qualifiers such as
`train`, `reduced` or `global` around a known name), then a fuzzy match (rapidfuzz) over a small
domain lexicon, so a spelling never seen before (`gradnorm`, `learningrate`) still lands right.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TypeVar

T = TypeVar("T")
# Spellings tools print (lower case, spaces as `_`) -> the snapshot's names. A figure's alias
# (loss, lr, grad_norm, a detection loss) keeps its original name in `metrics` too (the snapshot's `loss` comes from it
# unless the record also printed `loss` itself); position aliases are renamed.
# What an evaluation library's `metric.compute()` returns (HF `evaluate`, torchmetrics): a record of
# these names alone is an evaluation's result, as accelerate's examples print it after each epoch
# (`accelerator.print(f"epoch {epoch}:", eval_metric)`, huggingface/accelerate examples/nlp_example.py).
EVAL_SCORES = frozenset({
    "accuracy", "f1", "precision", "recall", "matthews_correlation", "pearson", "spearmanr",
    "exact_match", "exact", "bleu", "sacrebleu", "rouge1", "rouge2", "rougel", "rougelsum", "wer",
    "cer", "combined_score", "auc", "roc_auc", "mcc", "top1", "top5"})
ALIASES = {
    # training loss: Lightning, DETR log.txt, ESPnet, Megatron, NeMo, DLLogger, tqdm descriptions
    "lm_loss": "loss",
    "train_loss": "loss",
    "train_loss_step": "loss",
    "loss_step": "loss",
    "train_closs": "loss",
    "closs": "loss",
    "total_loss": "loss",
    "loss_(batch)": "loss",
    "training_loss": "loss",
    "step_loss": "loss",
    "rl_loss": "loss",  # an RL loop's objective (a course GRPO script: `rl_loss: 0.00075, time: 104.0, reward_data: {...}`)
    # learning rate: HF Trainer, DETR, ESPnet (`lr_0`, `optim0_lr0`), Megatron without colons
    "learning_rate": "lr",
    "train_lr": "lr",
    "lr_0": "lr",
    "learning_rate_0": "lr",
    "optim0_lr0": "lr",
    # gradient norm: fairseq `gnorm`, Megatron `grad norm`
    "gradient_norm": "grad_norm",
    "grad_norm_total": "grad_norm",
    "gnorm": "grad_norm",
    "grad_l2": "grad_norm",  # nanoT5's `Grad_l2 --> 47.689` (the gradient's L2 norm)
    "grdn": "grad_norm",
    "norm": "grad_norm",
    "lrs": "lr",
    "l": "loss",  # OpenJERE's bar `L: 7.94, L_crf: 7.07, ...`  # build-nanogpt `| norm: 0.3091 |`  # LeRobot's abbreviations: `grdn:4.774 ... epch:58.72`
    "epch": "epoch",
    # llm.c's main.log (llmc/logger.h: `s:%d trl:%.4f lr:%.6f norm:%.2f`, `s:%d tel:%.4f`)
    "trl": "loss",
    "tel": "val_loss",
    "ppl": "perplexity",  # nanoGPT forks' `iter 40: loss 2.5528, ppl 12.8428`, fairseq's `ppl=`
    "epoch_num": "epoch",
    "total_grad_norm": "grad_norm",
    # detection losses: YOLOv5 before v6.1, YOLOv7 and YOLOR head their columns `box obj cls`,
    # later YOLOv5 and Ultralytics `box_loss obj_loss cls_loss` (the printed name is kept too)
    "box": "box_loss",
    "giou": "box_loss",  # YOLOv3's and YOLOv5's (2020) `GIoU obj cls total` columns
    "obj": "obj_loss",
    "cls": "cls_loss",
    # a rate per accelerator, not the job's: MaxText `Tokens/s/device` (MaxText/metric_logger.py),
    # torchtune `tokens_per_second_per_gpu` (its recipes' `log_dict`), nanotron
    # `tokens_per_sec_per_gpu`, Composer `throughput/device/tokens_per_second`; compute the same way
    "tokens/s/device": "tokens_per_s_per_device",
    "tokens_per_second_per_gpu": "tokens_per_s_per_device",
    "tokens_per_sec_per_gpu": "tokens_per_s_per_device",
    "tokens_per_second_per_device": "tokens_per_s_per_device",
    "throughput/device/tokens_per_second": "tokens_per_s_per_device",
    "tflop/s/device": "tflops_per_device",
    "model_tflops_per_gpu": "tflops_per_device",
    "tflops_per_gpu": "tflops_per_device",  # NeMo 2's FLOPsMeasurementCallback `TFLOPS_per_GPU`
    "throughput_per_gpu_(tflop/s/gpu)": "tflops_per_device",  # Megatron-LM training.py
    # position: lifted out of the metrics as the step
    "iteration": "step",
    "iter": "step",
    "it": "step",
    "global_step": "step",
    "g_step": "step",  # `g_step 2000, step 152, avg_time 0.874, loss:51.55`
    "_step": "step",
    "trainer/global_step": "step",
    "num_updates": "step",
    "steps": "step",
    "updates": "step",
    "#": "step",  # spaCy's table: the update count
}
# A position named in Chinese, as the much-copied PyTorch tutorial prints it
# (`print("训练次数：{}, Loss: {}".format(total_train_step, loss.item()))`, "count of training steps").
CHINESE_NAMES = {"训练次数": "step"}
# Names of the run's length in steps (a key ending so): fairseq's `--max-update` as its hydra config
# prints it (`'max_update': 80000`), MMF's `max_updates: 22000`, Megatron's `train_iters`, HF's
# `Total optimization steps`, the HF Trainer's model card (`- training_steps: 4000`, its `args.max_steps` in
# transformers/modelcard.py `extract_hyperparameters_from_trainer`); also in the singular (torchprime's
# base_trainer logs `    Max step: 100`).
TOTAL_KEYS = ("total_steps", "max_steps", "total_optimization_steps", "num_steps", "max_iters",
              "train_iters", "total_iters", "training_steps", "max_update", "max_updates",
              "num_train_steps", "total_train_steps", "max_step", "total_step", "max_iter", "total_iter")
# How much a position name is trusted when a line prints several (LitGPT `iter 76 step 38`):
# optimizer updates first, then steps, then micro-batch iterations.
# W&B's `_step` counts the run's log calls: any other position name beats it.
STEP_RANK = {"num_updates": 0, "global_step": 0, "g_step": 0, "trainer/global_step": 0, "updates": 0,
             "global_iter": 0, "global_iteration": 0,
             "step": 1, "steps": 1, "iteration": 2, "iter": 2, "it": 2, "batch": 2, "_step": 3}
# Words that qualify a known name without changing it (`reduced_train_loss`, `loss train`,
# `global step`, `completed step`, `Training Iteration`, `eval_epoch_loss`, fastai 0.7's `trn_loss`).
_QUALIFIERS = frozenset({"train", "training", "trn", "reduced", "global", "completed", "avg", "avr",
                         "average", "running", "smoothed", "mean", "cur", "curr", "current", "at", "tot",
                         "batch", "final", "last", "epoch", "total"})
# The held-out set's prefixes; NLP scripts call it the dev set (`dev_loss`, flair's `DEV : loss`).
# Words that make a figure a running mean of the steps so far (DLLogger's `average_loss` beside its
# `step_loss`, `loss_avg`, `smoothed_loss`): the step's own value wins over it when a record prints both.
_RUNNING_MEAN = frozenset({"avg", "avr", "average", "running", "smoothed", "mean", "moving", "ema"})
_VALIDATION = ("valid_", "validation_", "vali_", "val/", "valid/", "validation/", "val.", "valid.",
               "validation.", "dev_", "dev/", "dev.")
_NAMESPACE = re.compile(r"[/.]")  # `optim/total_grad_norm`, DLLogger's `train.loss`
# An optimizer's first parameter group names the run's rate (OLMo `learning_rate_group0`, `lr/group0`,
# Ultralytics 8 `lr/pg0`, YOLOv5 v6's results.csv `x/lr0`: train.py logs `lr = [x['lr'] for x in
# optimizer.param_groups]` as `x/lr0`..`x/lr2`); a bare `lr0` is YOLOv5's hyperparameter, the start rate.
_FIRST_GROUP = re.compile(r"(?:[/_]?(?:pg|group)_?|(?<=/lr))0$")
# Lightning's LearningRateMonitor `lr-AdamW`, Composer's `Train lr-DecoupledAdamW/group0`: the
# optimizer's class after the rate.
_RATE_OF = re.compile(r"\s*(?:[Tt]rain\s+)?(?:lr|learning[_ ]rate)-[A-Z]\w*(?:/(?:pg|group)0)?\s*$")
# The domain lexicon the fuzzy fallback matches against: canonical name -> spellings.
LEXICON = {
    "loss": ("loss", "lm_loss", "nll", "closs", "xent", "cross_entropy", "cross_entropy_loss",
             "ce_loss"),
    "lr": ("lr", "learning_rate", "learningrate", "lrate"),
    "grad_norm": ("grad_norm", "gradnorm", "grad_l2_norm"),
    "tokens_per_s": ("tokens_per_s", "tokens_per_sec", "tokens_per_second", "tokens/s", "tok/s",
                     "tps", "toks/s", "tokens/sec", "tok/sec", "tokens/second"),
    "perplexity": ("perplexity", "ppl"),
    # DeepSpeed's timer `CurrSamplesPerSec=`, its pipe engine's `samples/sec:`, HF's `train_samples_per_second`
    "samples_per_s": ("samples_per_s", "samples_per_sec", "samples_per_second", "samples/s", "samples/sec"),
    "mfu": ("mfu",),
    "memory": ("memory", "mem", "max_mem"),
    "epoch": ("epoch",),
    "step": ("step", "iteration"),
}
_ABBREVIATED = re.compile(r"(?<=[A-Za-z])\.\s+(?=[A-Za-z])")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
# A qualifier in parentheses after a name: PaddleClas' scheduler `lr(PiecewiseDecay)` (after a
# position it names another figure: nerfstudio's `Train Iter (time)` is a duration).
_PAREN_QUALIFIER = re.compile(r"(?P<inner>[^()]+?)\s*\(\w+\)")
_POSITIONS = frozenset({"step", "epoch"})
# The split a TensorBoard-style name ends with (`loss/train`, `loss/val`), and Lightning's suffix
# after it when a metric is logged with `on_step=True, on_epoch=True` (`loss/train_step`: the step's
# figure, `loss/train_epoch`: the epoch's mean; lightning/pytorch/trainer/connectors/logger_connector/result.py
# names them `f"{name}_step"`, `f"{name}_epoch"`).
_SPLIT_LAST = re.compile(r"[/.](?P<split>train|training|val|valid|validation|dev)(?:_(?P<on>step|epoch))?$")
_SPELLINGS = {spelling: name for name, spellings in LEXICON.items() for spelling in spellings}
FUZZY_CUTOFF = 90  # rapidfuzz ratio: `gradnorm` ~ `grad_norm` (94), `ploss` !~ `loss` (89)


@lru_cache(maxsize=4096)  # a pure function of a name; a log repeats its few names on every line
def plain_name(key: str) -> str:
    """A tool's key in the snapshot's spelling, without aliasing; an abbreviation's period before a
    word (`val. loss`, `avg. loss`) is dropped with its space, as a hyphen or a space would be."""
    key = _ABBREVIATED.sub(" ", key.strip().strip("'\"")).lower().replace(" ", "_").replace("-", "_")
    if key.startswith(("train/", "train.")):
        key = key[6:]
    elif key.startswith(("eval/", "eval.")):
        key = "eval_" + key[5:]
    return key


@lru_cache(maxsize=4096)
def canonical(key: str) -> str:
    """The snapshot's name for a tool's key: exact alias, validation prefix, qualifiers, fuzzy."""
    name = plain_name(key)
    if _RATE_OF.fullmatch(key):
        return "lr"
    if name.endswith("simulated_acc_len"):
        return "simulated_acc_len"
    if name in ALIASES:
        return ALIASES[name]
    for prefix in _VALIDATION:
        if name.startswith(prefix) and len(name) > len(prefix):
            rest = name[len(prefix):]
            inner = _unqualified(rest)
            if inner == rest and _NAMESPACE.search(rest) and canonical(rest) in LEXICON:
                inner = canonical(rest)  # chainer's `validation/main/loss`: the model's loss
            return "val_" + inner
    if name.startswith("valid_") or name.startswith("val_"):
        return name
    found = _unqualified(name)
    if found == name and _FIRST_GROUP.search(name):
        inner = canonical(_FIRST_GROUP.sub("", name))
        found = inner if inner in LEXICON else name
    if found == name and (split := _SPLIT_LAST.search(name)) and split.start() > 0:
        if split["on"] == "epoch":
            return name  # the epoch's mean, as `train_loss_epoch`: not the step's figure
        inner = canonical(name[:split.start()])
        return inner if split["split"] in ("train", "training") else "val_" + inner
    if found == name and _NAMESPACE.search(name):  # `optim/total_grad_norm`, Composer `loss/train/total`
        parts = _NAMESPACE.split(name)
        inner = _unqualified(parts[-1])
        whole = _unqualified("_".join(part for part in parts if part != "total"))  # a loss's sum
        found = inner if inner in LEXICON else whole if whole in LEXICON else name
    if found == name and (qualified := _PAREN_QUALIFIER.fullmatch(key.strip())):
        inner = canonical(qualified["inner"])
        found = inner if inner in LEXICON and inner not in _POSITIONS else name
    if found == name and _CAMEL.search(key):  # `CrossEntropyLoss` -> `cross_entropy_loss`
        inner = canonical(_CAMEL.sub("_", key.strip()))
        known = inner in LEXICON or inner.removeprefix("val_") in LEXICON
        found = inner if known else name
    return found


@lru_cache(maxsize=4096)  # a pure function of a name, asked again for every record
def running_mean(key: str) -> bool:
    """Whether a tool's key names a running mean (`average_loss`, `loss_avg`, `loss (mean)`, DeepSpeed's
    `RunningAvgSamplesPerSec`), not the step's figure."""
    return not _RUNNING_MEAN.isdisjoint(re.split(r"[_()/.]+", plain_name(_CAMEL.sub("_", key))))


def step_values_first(pairs: list[tuple[str, T]]) -> list[tuple[str, T]]:
    """A record's (key, value) pairs with its running means last, so the step's own figure takes the
    snapshot's name (an alias never replaces the figure taken before it)."""
    return sorted(pairs, key=lambda pair: running_mean(pair[0]))


def _unqualified(name: str) -> str:
    """`reduced_train_loss` -> `loss`: a known name once its qualifying words are dropped."""
    if name in ALIASES:
        return ALIASES[name]
    words = [word.strip("()") for word in name.split("_") if word.strip("()")]
    core = [word for word in words if word not in _QUALIFIERS] or words[-1:]  # `cur_epoch`: epoch
    if len(words) > 1 and words[-1] == "epoch" and core != ["epoch"]:
        # Lightning's epoch aggregate: `self.log(..., on_step=True, on_epoch=True)` forks a name into
        # `train_loss_step` and `train_loss_epoch` (the epoch's mean), so the step's figure is the other one.
        return name
    if core and len(core) < len(words):
        joined = "_".join(core)
        known = ALIASES.get(joined) or (joined if joined in LEXICON else _SPELLINGS.get(joined))
        if known is None and joined.startswith(("eval_", "val_")):  # `Final eval loss`
            known = joined if joined.split("_", 1)[1] in LEXICON else None
        if known in _POSITIONS and "total" in words:
            known = None  # `total_step` is the run's length, not its position
        if known:
            return known
    return _fuzzy(name)


def _fuzzy(name: str) -> str:
    """A spelling close to one in the lexicon (never for names with digits: `acc_0`)."""
    if name in _SPELLINGS:
        return _SPELLINGS[name]
    if len(name) < 4 or any(ch.isdigit() for ch in name):
        return name
    from rapidfuzz import fuzz, process

    found = process.extractOne(name, _SPELLINGS.keys(), scorer=fuzz.ratio,
                               score_cutoff=FUZZY_CUTOFF)
    return _SPELLINGS[found[0]] if found else name
