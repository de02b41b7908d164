"""The reader for lines no per-tool recogniser claims: positions in all their shapes, totals
announced anywhere, and every `name value` / `name: value` / `name=value` pair, with units,
named through the one vocabulary."""

from __future__ import annotations

import json
import math
import re
from functools import lru_cache

from sessiontui.collectors.trainlog.readings import Reading, add_metric, from_pairs, to_float
from sessiontui.collectors.trainlog.vocabulary import (
    LEXICON,
    STEP_RANK,
    TOTAL_KEYS,
    canonical,
    plain_name,
    step_values_first,
)

_VALUE = r"[-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?|(?:nan|infinity|inf)(?:\.0*)?)"  # `nan.0`: a padded bar figure
_UNIT = r"(?:%|(?<=\d)(?:st|nd|rd|th)\b|[KMGT]i?B\b|[kKMGT]\b|ms\b|us\b|s\b|sec\b|[A-Za-z]{1,12}/s\b|s/it\b)?"
_WORD = r"[A-Za-z_](?:[\w/.()@-]*[\w)])?"  # `Acc@1`
# The period of an abbreviated word inside a key (`val. loss`, `avg. loss`), not a sentence's end
# (the period first: most places the key pattern tries hold none, and fail before six look-behinds).
_ABBREVIATED = r"(?:\.(?:" + "|".join(rf"(?<=\b{word}\.)" for word in ("val", "valid", "avg", "tot", "trn", "cur")) + "))"
_MORE_VALUES = re.compile(rf"\s*,\s*{_VALUE}")  # a list's next value
_MAYBE_NUMBER = re.compile(r"\d|nan|inf", re.IGNORECASE)  # every figure has one
# `loss 4.08`, `loss: 4.08`, `loss=4.08`, `lr : 2e-05`, `train loss :: 1.696`, `loss train: 3.7`, `tps: 7282`, the
# stable-baselines table row `|    loss    | 20.1    |` (rich's `│ test_loss │ 0.12 │` too), a JSON member `"iter": 120000,`: a key of
# up to four words, then the value and its unit, not followed by more of a number or a clock; a
# checkpoint callback's verb may stand between (`val_loss reached 0.67`, `improved from 0.41 to 0.38`);
# a key may follow a figure's slash (DeepSpeed `epoch=0/micro_step=10/global_step=10`), not a name's.
_PAIR = re.compile(
    rf"(?<![\w.-])(?<![A-Za-z_]/)[\"']?(?P<key>{_WORD}(?:{_ABBREVIATED}? {_WORD}){{0,3}}?(?: \([^()\n]{{1,30}}\))?)[\"']?\s*"
    rf"(?P<sep>(?:::|[:=]|-{{1,2}}>|=>)\s*|\s+[|\u2502\u2503]\s+|\s+(?:is|to|reached|improved from {_VALUE} to)\s+|\s+)"
    # PaddleDetection's `'loss': '43.7'`; after `:` or `=`, BasicSR's rate of each optimizer
    # `lr:(1.000e-04,)` (the first; `total steps (10)` in prose is no such list)
    rf"(?P<quote>[\"'])?(?P<box>(?:(?<=[:=])|(?<=[:=]\s))[\[(]\s*)?(?P<value>{_VALUE})(?P<unit>{_UNIT})"
    rf"(?(box)(?:\s*,\s*{_VALUE})*\s*,?\s*[\])])(?(quote)[\"'])"
    # no `eta: 1 day,`, no axis tick (plotext's `0.0310┤`, a chart beside a title); a full stop may follow
    rf"(?![\w/\u2524]|\.\w|:\S|\s+days?,)",
    re.IGNORECASE,
)
# (a bracketed fraction in arithmetic, `(60/100) * 1600` or `= (3/5)`, is a number: a model's worked answer)
# `step 5/1000`, `iteration: 327281 / 378950`, `[30/1504]`, `(1800/24681)`, `it 20/100`, Composer's
# `[batch=5/100]`, timm's `[ 100/1251 (  8%)]`, Ignite's `Iteration[100/469]`, after a rich bar's
# `━━━━ 100/220`, char-rnn's bare `182/9500 (epoch 0.958), train_loss = ...` opening a line: a position
# and its total (a bracketed one right after `Epoch` is the epoch's).
_POSITION = re.compile(
    r"(?<![\w/])(?:(?P<word>global[ _](?:step|iter(?:ation)?)|step|iteration|iter|it|batch|i(?=\s*=))\s*[:=]?\s*\[?\s*"
    r"|(?<![*\u00d7=+^] )(?<![*\u00d7=+^])[\[(]\s*(?=\d+\s*/\s*\d+\s*(?:\(\s*\d+%\))?\s*[\])](?!\s*[*\u00d7=+^]))"
    r"|(?<=[\u2501\u2578\u257a\u2500] )|^\s*(?=\d+/\d+ \(epoch\b))"
    r"(?P<n>\d+)\s*/\s*(?P<total>\d+)(?![\d.])",
    re.IGNORECASE,
)
# An operator beside a bracketed `a/b` makes it a term of arithmetic, not a count (a model's worked answer,
# `200 * (3/4) = 150`, `(1/6) * 24`, `(4/5)x`), as does a numerator past the denominator (`(3500 / 5)`)
# or a sentence it closes (`so his rate is 0.5 pages per minute (30/60).`).
_OPERATOR_BEFORE = re.compile(r"[*/=+\u00d7\u00f7]\s*$")
_OPERATOR_AFTER = re.compile(r"[\])]\s*[*/=+\u00d7\u00f7]|[\])][A-Za-z]")
# nanoT5's `[train] Step 150 out of 25000 | Loss --> 8.145` (the position and its total in words): read as `Step 150/25000`.
_OUT_OF = re.compile(r"\b(?P<word>step|iteration|iter|batch|epoch)\s+(?P<n>\d+)\s+out of\s+(?P<total>\d+)\b", re.IGNORECASE)
# EAGLE `Epoch [e/E], Loss: x`, a summary `Epoch 100/100 [129.9s] | LR: ...`
# PaddleOCR `epoch: [3/500]`, Kaldi's fraction of epochs done `Epoch: 1.77/20.0`, MiniMind's
# `Epoch:[1/2](50/56608), loss: 2.49` (jingyaogong/minimind trainer/train_full_sft.py `Logger`)
_EPOCH_OF = re.compile(r"\bEpoch(?::? \[?|:?\[)(?P<e>\d+(?:\.\d+)?)/(?P<E>\d+)(?:\.\d+)?\b\]?", re.IGNORECASE)
# MMEngine's `Epoch(train)  [1][ 50/1000]`, mmcv 1.x's `Epoch [1][50/1000]`, Ignite's `Epoch[1]
# Iteration[100/469]`: the epoch, then the epoch's batch (counted again each epoch, so it is the
# epoch's fraction, not the run's step). PyTorch's ImageNet example `Epoch: [0][ 10/500]` (its
# ProgressMeter) counts epochs from 0.
_EPOCH_BATCH = re.compile(r"\bEpoch(?:\((?P<phase>\w+)\))?(?P<colon>:)?\s*\[(?P<e>\d+)\]\s*(?:Iteration\s*)?"
                          r"\[\s*(?P<i>\d+)\s*/\s*(?P<n>\d+)\s*\]")
# Composer's ConsoleLogger under an epoch-long run: `[epoch={cur_epoch + 1}][batch={cur_batch}/{total}]`,
# the batch counted within the epoch (mosaicml/composer composer/loggers/console_logger.py
# `_get_progress_string`); the empty `colon` group reads its epoch as 1-based.
_COMPOSER_EPOCH = re.compile(r"\[epoch=(?P<e>\d+)\]\[batch=(?P<i>\d+)/(?P<n>\d+)\](?P<colon>)")
# timm's `Train: {epoch} [{update_idx:>4d}/{updates_per_epoch} ({pct:>3.0f}%)]` (huggingface/pytorch-image-models
# train.py `train_one_epoch`): the epoch counted from 0 (the `colon` group, as the ImageNet example's), not a `train` figure.
_TIMM_EPOCH = re.compile(r"\s*Train(?P<colon>:) (?P<e>\d+) \[\s*(?P<i>\d+)\s*/\s*(?P<n>\d+) \(\s*\d+%\)\]")
# tflearn's `| Adam | epoch: 001 | loss: 1.69 - acc: 0.40 -- iter: 00768/55000`: the epoch's samples,
# between the `Training Step: 12  | total loss: ...` lines that carry the run's step.
_TFLEARN_SAMPLES = re.compile(r"\| epoch: \d+ \|.* -- iter: \d+/\d+")
_RICH_BAR = re.compile(r"[\u2501\u2578\u257a\u2500] \d+/\d+")
_TRAIN_NAMED = ("train_", "training_", "trn_")  # a figure's name that says it is the training split's
_BARE_PHASES = {"train": "loss", "val": "val_loss", "valid": "val_loss"}  # `step 250 | train 2.2 | val 2.3`
# A run's length said in words: `Starting training..., iters: 100`, `Total steps = 312`.
_ANNOUNCED = re.compile(r"(?:\bstart(?:ing)? training|\btotal|\bmax|\bnum)\W{0,6}(?:\w+\W{1,3}){0,2}?"
                        r"(?:iters|iterations|steps)\s*[:=]?\s*(\d+)\b", re.IGNORECASE)
_FOR_STEPS = re.compile(r"\btraining for (\d+) (?:steps|iters|iterations)\b", re.IGNORECASE)
_EPOCH_WORD = re.compile(r"epoch\W{0,3}$", re.IGNORECASE)
_UPDATES = re.compile(r"\b(?P<n>\d+) updates\b")  # fairseq `| epoch 011 | 500 updates`
# A line of an evaluation phase (NeMo 2's ProgressPrinter `Testing: iteration 3/5`, nemo/lightning/pytorch/callbacks/progress_printer.py).
_VALIDATION = re.compile(r"^\W*(?:\[[^\]]{0,30}\]\s*)?(?:validation|validating|validate|valid|val|evaluation|eval|evaluating|test|testing|dev)\b"
                         r"|\bvalid on\b|\bValidation\b|\((?:val|test)\)"
                         # the phase as a field of its own: `| eval |`, `(eval)`, `- val -`, `[val]`
                         r"|(?:[|(\[]|\s-)\s*(?:eval|val|valid|validation|test|dev)\s*(?:[|)\]]|-\s|$)"
                         # the ImageNet example's, timm's, DeiT's and Swin's summary `* Acc@1 81.2 Acc@5 95.1 loss 0.81`
                         r"|^\s*\*\s+Acc@",
                         re.IGNORECASE)
# A diagnostic comparing what was expected with what came (DeepSpeed ZeRO-3's `Invalidate trace
# cache @ step 0: expected module 0, but got module 274`, `expected 3 but got 4`): no run figures.
_MISMATCH = re.compile(r"\bexpected\b.{0,80}\bbut (?:got|found|received)\b", re.IGNORECASE)
# SLURM's job step named by srun (SchedMD/slurm src/srun/srun.c: `Terminating job step %u.%u` after a
# task failed or the job was cancelled, `Job step aborted: Waiting up to %d seconds for job step to
# finish.`): the scheduler's step of the job, no training position nor figure.
_JOB_STEP = re.compile(r"\bjob step\b", re.IGNORECASE)
# Ray Train's progress lines (ray/tune/experimental/output.py, `Training finished iteration {n} at {time}`,
# `Training saved a checkpoint for iteration {n} at: {path}`): `n` counts the worker's `train.report`
# calls, no training step.
_RAY_REPORT = re.compile(r"\s*Training (?:finished|saved a checkpoint for) iteration \d+ at\b")
# W&B's sync progress as a run finishes, `wandb: uploading history steps 6-6, summary, console lines 78-93`:
# the history rows and console lines it sends, no step of the run (nanochat's SFT stage, corpus b53).
_WANDB_UPLOAD = re.compile(r"\s*uploading (?:history steps|summary|console lines)\b", re.IGNORECASE)
# xarray's repr of a long mapping, `Data variables: (12/35)` (xarray core/formatting.py `_mapping_repr`:
# `f"{title}: ({max_rows}/{len_mapping})"`): the rows it shows of all, no position.
_SHOWN_OF = re.compile(r"\s*[A-Z][a-z]+(?: [a-z]+)*:\s*\(\d+/\d+\)\s*")
# A sentence (several words, closing punctuation or a comma going on in words): a step it names
# without a figure is prose, as an RL rollout's reasoning printed between the steps (`- From step 3,
# C is false.`), not the run's position.
_WORD_RUN = re.compile(r"[A-Za-z]+")
_SENTENCE_MARK = re.compile(r"[.!?)]\s*$|, [a-z]")
# Sentences running on in one line (`... is 4004. Then the fifth term is 4014, ...`): two breaks and
# many words make a paragraph, which no tool's record is.
_SENTENCE_BREAK = re.compile(r"[a-z\d][.!?] [A-Z][a-z]")
PARAGRAPH_WORDS = 20
# A script's stage heading, a counted step of its own plan in words (`[1/6] Loading tokenizer...`,
# `[6/6] Saving model...` after training ends): no figure follows, so no training position.
_STAGE = re.compile(r"\s*\[\d+/\d+\]\s+[A-Z][a-z]+[^\d]*")
_SCALE = {"k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}
# A file path from the root, home or working folder, of two folders or more (`/home/u/run/checkpoints/
# evo2--val_loss=1.2640-epoch=0.ckpt`, `./outputs/run1/epoch=2-step=500.ckpt`: Lightning's ModelCheckpoint
# names files by its monitored figures): a name, whose figures the line around it prints in their own right.
_FILE_PATH = re.compile(r"(?<![\w.:/~])(?:\.\.?|~)?/(?:[\w.@+=~-]+/){2,}[^\s'\"()]*")
# torchtitan's line (`memory: 30.12GiB(31.70%)  tps: 7,282`): its `tps` (`wps` before 4d182a1,
# 2024-11) is "tokens per second per device" (pytorch/torchtitan torchtitan/components/metrics.py),
# where other tools' `tps` is the job's.
_TITAN_MEMORY = re.compile(r"\bmemory: *[\d.]+GiB\([\d.]+%\)")
MAX_KEY_WORDS = 2  # longer keys are kept only when the vocabulary knows them
_LEAD_COUNT = re.compile(r"\s*(\d+)\s+(?=[-+]?\d)")
# A run-wide counter in a bracket leading the line: CLU's `[1000] train_loss=...`, DCGAN's
# `[   32622 Epoch:[ 1/25] [12603/20018]` (the bracketed pair after it is the batch of the epoch).
# A bare counter (of a total) before a field delimiter is the same (`250 | loss 4.0938 | lr 3e-04`,
# `200/1000 | loss 3.2`, `1500: loss=0.54`, yolact's `[%3d] %7d ||` epoch and iteration, dbolya/yolact
# train.py), and a bare batch count named so (aws-samples' FSDP train.py `Batch %d Loss: %.5f, Speed: ...`).
_LEAD_STEP = re.compile(r"\s*\[\s*(\d+)\]?\s+(?=[A-Za-z])"
                        r"|\s*(?:\[\s*\d+\]\s+)?(\d+)(?:\s*/\s*(\d+))?\s*(?:\|\||[|\u2502;:])\s*(?=[A-Za-z])"
                        r"|\s*[Bb]atch\s+(\d+)\s+(?=[A-Za-z])")
# DLLogger's default step format, `str(step)` of `step=(epoch, iteration)` (NVIDIA/dllogger
# dllogger/logger.py `default_step_format`): `(0, 100) train.loss : 2.3456`; a third member counts
# a validation's iterations.
_SUM_NAMES = frozenset({"t", "total", "tot", "sum"})  # a loss breakdown's sum, printed after its parts
_SUM_TOTAL = re.compile(rf"(?<![\w/.])(?:T|total|tot|sum)\s*[:=]\s*{_VALUE}(?P<unit>\s*[A-Za-z%/])?", re.IGNORECASE)
SUM_ROUNDING = 5e-4  # each part printed to three decimals (`%.3f`) rounds by at most this
# build-nanogpt's log.txt, one figure a line: `17249 train 3.324421`, `17000 val 3.3744` (karpathy/build-nanogpt
# train_gpt2.py writes f"{step} train {loss_accum.item():.6f}\n"): the step, the split or figure, its value.
_STEP_NAME_VALUE = re.compile(r"\s*(?P<n>\d+)\s+(?P<name>[a-z][a-z_]*)\s+[-+]?(?:\d+\.\d*|\.\d+)(?:[eE][-+]?\d+)?\s*")
_LEAD_TUPLE = re.compile(r"\s*\((?P<e>\d+), (?P<n>\d+)(?P<val>, \d+)?\)\s+(?=[A-Za-z])")
_VALUE_NAME = re.compile(rf"(?P<value>{_VALUE})\s*(?P<unit>{_UNIT})\s+(?P<key>[A-Za-z][\w/.-]*(?: [A-Za-z][\w/.-]*)?)")
# A name right after a figure in its cell (llm.c's `| %.2f ms | %.1f%% bf16 MFU | %.0f tok/s`) names
# that figure: it never pairs with the next cell's value across the bar.
_CELL_BARS = ("|", "\u2502", "\u2503")
_FIGURE_BEFORE = re.compile(r"\d%?\s+$")
MIN_VALUE_FIRST = 2  # parts a value-first line needs before it counts as one
# Tacotron2's `Train loss 64999 0.314525`, `Validation loss 64000:  0.32`: a name, the iteration, then its figure
_INDEXED = re.compile(rf"\s*(?P<key>{_WORD}(?: {_WORD})?)\s+(?P<n>\d+):?\s+(?=[-+]?\.?\d)")
_STOPWORDS = frozenset({"with", "of", "the", "a", "an", "and", "at", "for", "by"})  # never a name's start
# A missing value printed in its place: `total_grad_norm: N/A total_loss: 14.6` names `total_loss`.
_PLACEHOLDERS = frozenset({"n/a", "na", "none", "null", "nil", "undefined"})
# Words that make a position name something else than the position: a setting (`Gradient
# Accumulation steps = 4`, `Num Epochs = 5`, `warmup steps: 100` in HF's and Unsloth's banners) or
# a past one (Keras' `Restoring model weights from the end of the best epoch: 6.`).
_SETTINGS = frozenset({"accumulation", "warmup", "eval", "save", "logging", "num", "total", "max",
                       "patience", "decay", "best"})
_PHASES = frozenset({"eval", "val", "valid", "validation", "test", "dev"})
# A run's length named in words (verl's `Total training steps: 1000`, `Number of training steps`, a user's
# `the total num of epoch is 3`): a count word (after at most one qualifier), then only words that say which
# steps, then the unit; a total, never the position; `number of skipped iterations` (Megatron) counts something else.
_COUNT_WORDS = frozenset({"total", "max", "maximum", "num", "number"})
_LENGTH_WORDS = _COUNT_WORDS | {"of", "the", "train", "training", "optimization", "optimizer"}
_LENGTH_UNITS = {"steps": "total steps", "iters": "total steps", "iterations": "total steps",
                 "updates": "total steps", "epochs": "total epochs", "epoch": "total epochs"}
_EPOCH_COUNT_NAMES = frozenset({"num_epochs", "total_epochs", "max_epochs", "max_epoch"})  # kept as printed
# Words that open a remark on when or over what a figure was taken (slowllama's `loss after
# forward pass = 1.48`, `loss over last 100 steps`): the known name before them is the name.
_REMARK_WORDS = frozenset({"after", "over", "since"})
# A file's name ends the key: a source location (`.../torch/nn/functional.py:718: UserWarning`,
# `c10/core/TensorImpl.h:1156`) or Ultralytics' data warning (`WARNING ⚠️ /data/images/062776.jpg: 2
# duplicate labels removed`, ultralytics/data/utils.py verify_image_label): a line number or a count, no figure.
_FILE_NAME = re.compile(r"\.(?:py|h|hpp|c|cc|cpp|cu|jpe?g|png|bmp|tiff?|webp|txt|json|ya?ml|csv|pt|pth|ckpt)$",
                        re.IGNORECASE)
_REMARK = re.compile(r" \([^()]* [^()]*\)$")  # `Training Loss (avg over last 100)`: not the name
# GluonNLP's `Loss span/answer/total=0.77/0.18/0.95`: several names, then as many figures, each
# slash apart; each name is a kind of the leading word (`total` loss).
_SLASHED = re.compile(rf"(?<![\w/])(?:(?P<kind>[A-Za-z]\w*) )?(?P<names>[A-Za-z]\w*(?:/[A-Za-z]\w*)+)"
                      rf"(?P<sep>\s*[:=]\s*)(?P<values>{_VALUE}(?:/{_VALUE})+)(?![\w/.])", re.IGNORECASE)
# char-rnn's `grad/param norm = 8.6316e-02` (karpathy/char-rnn train.lua: grad_params:norm() / params:norm()):
# a name after two slashed names is their ratio's, `grad_to_param_norm`, not the grad norm (after a figure,
# `6.31 updates/sec perplexity=`, they are the figure's unit).
_RATIO_NAME = re.compile(r"(?<![\w/])(?<![\d%] )([A-Za-z]\w+)/([A-Za-z]\w+) ([A-Za-z]\w*)(?=\s*[:=]\s*[-+]?\.?\d)")
# torchtitan's 2024-02 line `loss:  7.1234lr: 0.0008` (no space before the next name; pytorch/torchtitan
# train.py at 6d9e4e6): a figure glued to a name that a colon or `=` then gives its own figure.
_GLUED_NAME = re.compile(rf"(?<=\d)(?P<key>[A-Za-z_]\w*)(?=\s*[:=]\s*{_VALUE})")
# A Python object's repr, `TrainOutput(global_step=118, training_loss=0.35, metrics={...})` (HF's
# transformers trainer_utils.py `TrainOutput`, a NamedTuple that `trainer.train()` returns and
# notebooks echo): the class and its parenthesis are no part of the first field's name.
_REPR_OPEN = re.compile(r"\b[A-Z]\w*\((?=[a-z_]\w*=)")
# LION's loguru line `| [Loss] nan | [step]   149 |`: a name in brackets before its figure.
_BRACKETED = re.compile(rf"\[(?P<key>{_WORD})\](?=:?\s+{_VALUE}(?![\w.]))", re.IGNORECASE)
# A figure whose position stands between its name and `is`: LXMERT's `The training loss for Epoch %d is
# %0.4f` (airsplay/lxmert src/pretrain/lxmert_pretrain.py `train`), `the loss at step 100 is 2.3`.
_NAME_FOR_POSITION = re.compile(r"(?P<key>\b[A-Za-z]\w*(?: [A-Za-z]\w*)?) (?:for|at|in|of|after) "
                                r"(?P<position>(?:epoch|step|iter|iteration) \d+)(?= is )", re.IGNORECASE)


def value_in_units(raw: str, unit: str, key: str) -> float | None:
    """A pair's number in plain units: `%` as a fraction, `11.5K` as 11500 (not for memory)."""
    value = to_float(raw)
    if value is None:
        return None
    if unit == "%":
        return value / 100 if math.isfinite(value) else value
    if unit in _SCALE and "mem" not in key.lower():
        return value * _SCALE[unit]
    return value


@lru_cache(maxsize=4096)  # a pure function of a name, asked for every pair of every line
def _known(key: str) -> bool:
    """Whether the vocabulary recognises a key (it renames it, or it is a lexicon name or alias
    after its validation prefix: `val ppl`)."""
    name = canonical(key)
    return name != plain_name(key) or canonical(name.removeprefix("val_")) in LEXICON


@lru_cache(maxsize=4096)  # a pure function of the printed key: a log prints its few keys on every line
def _named_part(key: str, glued_equals: bool) -> str | None:
    """The words of a matched key that name the figure: a `key=value` name is one word
    (`updates/sec perplexity=27.7`); prose before a known name drops (`Decaying learning rate
    to 0.01`), but never to make a component (`pal1 conf loss`) the loss; any other unknown
    phrase of three words or more is prose, not a name."""
    words = key.split(" ")
    while len(words) > 1 and (words[0].lower() in _STOPWORDS or words[0].lower() in _PLACEHOLDERS):
        words = words[1:]
    key = " ".join(words)
    if len(words) == 1:
        return key
    if len(words) >= 3 and words[1].lower() in _REMARK_WORDS and _known(words[0]):
        return words[0]
    if len(words) >= 3 and words[-2] == "in":  # NeMo's `train_step_timing in s=0.512`: the unit's
        return " ".join(words[-3:])            # phrase is part of the name
    if glued_equals:  # `Val Loss=0.0005` keeps its phase; `updates/sec perplexity=27.7` does not
        phased = " ".join(words[-2:])
        return phased if canonical(phased).startswith("val_") else words[-1]
    lowered = [word.lower() for word in words]
    if len(lowered) > 2 and lowered[1] in _COUNT_WORDS:  # one qualifier before the count word (NeMo's
        lowered = lowered[1:]  # `effective maximum steps = 15`, nemo/core/optim/lr_scheduler.py)
    if lowered[-1] in _LENGTH_UNITS and lowered[0] in _COUNT_WORDS and _LENGTH_WORDS.issuperset(lowered[:-1]):
        return key if plain_name(key) in _EPOCH_COUNT_NAMES else _LENGTH_UNITS[lowered[-1]]
    if _known(key) or plain_name(key).endswith(TOTAL_KEYS):
        return key
    for start in range(1, len(words)):
        tail = " ".join(words[start:])
        if start == len(words) - 1 and words[start - 1].lower() in _SETTINGS and canonical(tail) in (
                "step", "epoch"):
            return " ".join(words[start - 1:])
        if _known(tail) and canonical(tail) != "loss":  # `pal1 conf loss` is a part of the loss
            phase = words[start - 1].lower() in _PHASES  # `eval ppl 7.4` keeps its phase
            return " ".join(words[start - 1:]) if phase else tail
    if canonical(words[-1]) == "loss":
        return key
    return key if len(words) <= MAX_KEY_WORDS else None


def _unslashed(match: re.Match[str]) -> str:
    """`Loss span/answer/total=a/b/c` as `span_Loss=a, answer_Loss=b, total_Loss=c` (left as
    printed when the names and figures do not pair up)."""
    names, values = match["names"].split("/"), match["values"].split("/")
    if len(names) != len(values):
        return match[0]
    suffix = f"_{match['kind']}" if match["kind"] else ""
    return ", ".join(f"{name}{suffix}={value}" for name, value in zip(names, values, strict=True))


def _ratio_named(match: re.Match[str]) -> str:
    """`grad/param norm` as `grad_to_param_norm`; two splits (`train/val loss`) are no ratio, left as printed."""
    if {match[1].lower(), match[2].lower()} & (_PHASES | {"train", "training"}):
        return match[0]
    return f"{match[1]}_to_{match[2]}_{match[3]}"


def _unglued(match: re.Match[str]) -> str:
    """` lr` for the `lr` of `7.1234lr: 0.0008` when the vocabulary knows the name (`conv1d: 3` stays)."""
    return f" {match['key']}" if _known(match["key"]) else match[0]


def _position_first(match: re.Match[str]) -> str:
    """`training loss for Epoch 2 is` as `Epoch 2, training loss is` when the vocabulary knows the
    name (its last words: `The training loss`), so that the figure after `is` gets it."""
    words = match["key"].split(" ")
    known = next((" ".join(words[i:]) for i in range(len(words)) if _known(" ".join(words[i:]))), None)
    if known is None:
        return match[0]
    return f"{match['key'][:len(match['key']) - len(known)]}{match['position']}, {known}"


def _unbracketed(match: re.Match[str]) -> str:
    """`[Loss] nan` as `Loss nan` when the vocabulary knows the bracketed name (a tag such as
    `[rank0]` or `[INFO]` stays a tag)."""
    return match["key"] if _known(match["key"]) else match[0]


def pairs(text: str) -> list[tuple[str, float]]:
    """(key as printed, value) of every figure in a line, in order."""
    found: list[tuple[str, float]] = []
    for match in _PAIR.finditer(text):
        if match["sep"].strip() in _CELL_BARS and _FIGURE_BEFORE.search(text, 0, match.start("key")):
            continue  # `| 120.00 ms | 45.0% bf16 MFU |`: a figure's own name, never the next cell's
        glued = match["sep"].startswith("=") and match.end("key") == match.start("sep")
        key = _named_part(_REMARK.sub("", match["key"]) if match["key"].endswith(")") else match["key"], glued)
        if key is None or "." in key and _FILE_NAME.search(key):
            continue  # `Finished dumping profiler traces in 0.22`: prose, not a figure
        if match["box"] and _MORE_VALUES.match(text, match.end("unit")) and canonical(key) in ("step", "epoch"):
            continue  # Detectron2's config `STEPS: (102000, 108000)`: the schedule's milestones, no position
        value = value_in_units(match["value"], match["unit"], key)
        if value is not None:
            found.append((key, value))
    return found


def value_first(text: str) -> tuple[int | None, list[tuple[str, float]]]:
    """tinygrad-style `   10 4.40 s run, 11.8750 loss, 0.000000000005 LR`: every comma-separated
    part a value then its name; a bare count leading the line is the step."""
    lead = _LEAD_COUNT.match(text)
    parts = text[lead.end() if lead else 0:].split(",")
    found = []
    for part in parts:
        match = _VALUE_NAME.fullmatch(part.strip())
        if match is None:
            return None, []
        value = value_in_units(match["value"], match["unit"], match["key"])
        if value is not None:
            found.append((match["key"], value))
    return (int(lead[1]) if lead else None), found if len(found) >= MIN_VALUE_FIRST else []


def _indexed(text: str) -> tuple[int | None, str]:
    """(iteration, line without it) when a known metric's name is followed by a whole number and
    then a figure: the number counts iterations, the figure is the metric's."""
    match = _INDEXED.match(text)
    if match is None or not _known(match["key"]) or canonical(match["key"]) in ("step", "epoch"):
        return None, text
    return int(match["n"]), f"{match['key']} {text[match.end():]}"


def _leading_step(text: str, found: list[tuple[str, float]], positioned: bool) -> tuple[int, int | None] | None:
    """(step, total) of a counter leading the line: bracketed, or bare before a delimiter when
    the line prints the loss (a terminal-wrapped tail such as fairseq's `3 | clip 0.000 | oom
    0.000` does not) and no position of its own (`0: completed step: 9` is srun's task label)."""
    lead = _LEAD_STEP.match(text)
    if lead is None:
        return None
    if lead[1] is not None:
        return int(lead[1]), None
    names = [canonical(key) for key, _ in found]
    if "loss" not in names or positioned or "step" in names:
        return None
    if lead[4] is not None:  # a batch count with an epoch beside it counts the epoch's batches
        return None if "epoch" in names else (int(lead[4]), None)
    return int(lead[2]), int(lead[3]) if lead[3] else None


def _summed_loss(text: str, found: list[tuple[str, float]]) -> list[tuple[str, float]]:
    """A unitless `total` (yolact's `T`) that is the sum of the figures printed before it is the loss,
    when no other figure is named so: yolact's `B: 2.244 | C: 7.247 | M: 58.298 | S: 2.076 | T: 69.865`
    (dbolya/yolact train.py prints each loss's moving average, then `T` their sum); not a sum of
    times (Detectron2's `Inference: 0.2993 s / iter. ... Total: 0.3012 s / iter`)."""
    if not any(total["unit"] is None for total in _SUM_TOTAL.finditer(text)):
        return found
    names = [canonical(key) for key, _ in found]
    if "loss" in names:
        return found
    for i, (key, value) in enumerate(found):
        parts = [figure for name, (_, figure) in zip(names[:i], found, strict=False) if name not in ("step", "epoch")]
        if key.strip().lower() in _SUM_NAMES and len(parts) >= 2 and math.isclose(
                sum(parts), value, rel_tol=1e-4, abs_tol=SUM_ROUNDING * len(parts)):
            return [*found[:i], ("loss", value), *found[i + 1:]]
    return found


def _names_both_splits(found: list[tuple[str, float]]) -> bool:
    """Whether a line names its training figures and its validation figures apart (a custom loop's
    `Epoch: 3 | Training Loss: 0.52 | Validation Loss: 0.61`): its `Validation` is one figure's
    split, not the whole line's."""
    return (any(plain_name(key).startswith(_TRAIN_NAMED) for key, _ in found)
            and any(canonical(key).startswith("val_") for key, _ in found))


def generic(text: str) -> Reading | None:
    """Any line that prints figures: step (the most trusted position name), total, epoch and
    metrics; a line that says it is a validation gives `val_` figures, never the training loss."""
    if not _MAYBE_NUMBER.search(text):  # prose and warnings: no figure to read (the pair pattern
        return None                     # backtracks for ~44 µs on such a line)
    lowered = _lowered_ascii(text)
    if ((_may_say(lowered, "expected") and _MISMATCH.search(text)) or _SHOWN_OF.fullmatch(text) or _STAGE.fullmatch(text)
            or (_may_say(lowered, "job step") and _JOB_STEP.search(text)) or _RAY_REPORT.match(text)
            or (_may_say(lowered, "uploading") and _WANDB_UPLOAD.match(text))):
        return None
    if (". " in text or "! " in text or "? " in text) and len(_SENTENCE_BREAK.findall(text)) >= 2 and len(
            _WORD_RUN.findall(text)) >= PARAGRAPH_WORDS:
        return None  # a paragraph: a model's reasoning printed as a sample, its numbers no figures
    if text.count("/") >= 3:  # a path's three slashes at least
        text = _FILE_PATH.sub(" ", text)
    named = ":" in text or "=" in text  # a glued, slashed or ratio name stands before one
    if named:
        text = _GLUED_NAME.sub(_unglued, text)
    if " out of " in text:
        text = _OUT_OF.sub(r"\g<word> \g<n>/\g<total>", text)
    if named and text.count("/") >= 2:  # slashed names, then slashed figures
        text = _SLASHED.sub(_unslashed, text)
    if named and "/" in text:  # a ratio's name holds one; most lines then skip the pattern's backtracking
        text = _RATIO_NAME.sub(_ratio_named, text)
    if "[" in text:
        text = _BRACKETED.sub(_unbracketed, text)
    if " is " in text:
        text = _NAME_FOR_POSITION.sub(_position_first, text)
    if "(" in text:
        text = _REPR_OPEN.sub("", text)
    counted, text = _indexed(text)
    lowered = _lowered_ascii(text)
    found = pairs(text)
    if not found:
        counted, found = value_first(text)
    found = _summed_loss(text, found)
    if timm := _TIMM_EPOCH.match(text):
        found = [(key, value) for key, value in found if key != "Train"]
    batch = ("Epoch" in text and _EPOCH_BATCH.search(text)) or _COMPOSER_EPOCH.match(text) or timm
    # the most trusted of the positions a line prints (MiniLLM's micro-batch `Iter: 400/20000` before
    # its `global iter: 100/5000`), the first of equals; a count out of 0 counts nothing (huggingface_hub's
    # `Processing Files (0 / 0)` before an upload)
    position = None if _TFLEARN_SAMPLES.search(text) else min(
        (found for found in (_POSITION.finditer(text) if "/" in text else ()) if found["total"].strip("0") and (found["word"]
         or not (_EPOCH_WORD.search(text, 0, found.start()) or _a_quotient(found)))),
        key=_position_rank, default=None)
    announced = ((_may_say(lowered, "iter", "steps") and _ANNOUNCED.search(text))
                 or (_may_say(lowered, "training for ") and _FOR_STEPS.search(text)) or None)
    eagle = _EPOCH_OF.search(text) if _may_say(lowered, "epoch") else None  # alone, a header over the epoch's lines (`=== Epoch 2/3 ===`)
    if not found and position is None and announced is None and eagle is None:
        return None
    validation = (_may_say(lowered, "val", "test", "dev", "acc@") and bool(_VALIDATION.search(text))
                  and not _names_both_splits(found))
    metrics: dict[str, float] = {}
    step: tuple[int, int] | None = None  # (rank, step)
    total: int | None = None
    epoch: float | None = None
    if position is not None and not validation:  # `Test: [  10/196]` counts the evaluation's batches
        rank = _position_rank(position)
        step, total = (rank, int(position["n"])), int(position["total"])
    elif " updates" in text and (updates := _UPDATES.search(text)):
        step = (0, int(updates["n"]))
    elif counted is not None:
        step = (2, counted)
    positioned = step
    if (lead := _leading_step(text, found, step is not None or batch is not None)) is not None and (step is None or step[0] > 1) and not validation:
        step, total = (1, lead[0]), lead[1] or total
    if step is None and len(found) == 1 and (split := _STEP_NAME_VALUE.fullmatch(text)) and (
            split["name"] in _BARE_PHASES or canonical(split["name"]) not in ("step", "epoch") and _known(split["name"])):
        step = (1, int(split["n"]))
    if step is None and (dll := _LEAD_TUPLE.match(text)) and not dll["val"]:
        step, epoch = (1, int(dll["n"])), float(dll["e"])
    if announced is not None:
        total = int(announced[1])
    if eagle:
        epoch = float(eagle["e"])
    if batch is not None and not validation and int(batch["n"]) > 0:
        epoch = int(batch["e"]) - (not batch["colon"]) + int(batch["i"]) / int(batch["n"])
    for key, value in step_values_first(found):
        name = canonical(key)
        plain = plain_name(key)
        if plain.endswith(TOTAL_KEYS):
            total = int(value) if math.isfinite(value) and value > 0 else total
        elif name == "step" and not value.is_integer():  # nerfstudio's `Trainer.train_iteration: 0.0300`: seconds
            metrics[plain] = value
        elif name == "step":
            rank = STEP_RANK.get(plain, 1)
            if step is None or rank < step[0]:
                step = (rank, int(value))
        elif name == "epoch":
            epoch = value if epoch is None else epoch
        elif validation and not name.startswith(("val", "eval")):
            metrics["val_" + name] = value
        else:
            add_metric(metrics, key, value)
    for phase, name in _BARE_PHASES.items():
        if step is not None and phase in metrics and name not in metrics:
            metrics[name] = metrics.pop(phase)
    if step is not positioned and position is not None:
        total = None  # the total belonged to a position less trusted than the step printed
    if not metrics and step is None and epoch is None and total is None:
        return None
    unnamed = position is not None and step is positioned and not position["word"]  # `(3/5)`, `[3/5]`
    if not metrics and epoch is None and (total is None or unnamed) and _sentence(text):
        return None  # a sentence's step, or its bracketed fraction (a model's reasoning printed as a sample)
    if "GiB(" in text and _TITAN_MEMORY.search(text) and (rate := metrics.get("tps", metrics.get("wps"))) is not None:
        metrics.pop("tokens_per_s", None)
        metrics["tokens_per_s_per_device"] = rate
    updates_per_s = metrics.get("ups")  # fairseq updates/s
    fmt = "epoch-batch" if batch is not None and epoch is not None else "key-value"
    if position is not None and _RICH_BAR.search(text) and epoch is not None and step and total:
        # Lightning's RichProgressBar `Epoch 4/9 ━━━ 220/220`: the epoch's bar, as its tqdm one
        fmt, epoch = "lightning", epoch + step[1] / total
    return Reading(fmt, metrics, step=step[1] if step else None, total=total,
                   epoch=epoch, steps_per_s=updates_per_s or None)


def _lowered_ascii(text: str) -> str | None:
    """A line in lower case for _may_say's pre-checks, None when it holds other than ASCII."""
    return text.lower() if text.isascii() else None


def _may_say(lowered: str | None, *words: str) -> bool:
    """Whether a line (`_lowered_ascii`) may hold a pattern that needs one of these words: a
    substring scan that spares most lines the pattern. Exact on ASCII only (under IGNORECASE
    `ſ` matches `s`), so any other line is left to the pattern."""
    return lowered is None or any(map(lowered.__contains__, words))  # no generator: called several times a line


def _sentence(text: str) -> bool:
    """Whether a line reads as a sentence: five words or more and a sentence's punctuation."""
    return len(_WORD_RUN.findall(text)) >= 5 and _SENTENCE_MARK.search(text) is not None


def _record_items(data: dict) -> list[tuple[object, object]]:
    """A JSON record's items, an object nested one level down read with them (caikit's
    `{"name": "loss", "data": {"step": 2, "value": 4.49}}`)."""
    items = [(key, value) for key, value in data.items() if not isinstance(value, dict)]
    return items + [pair for value in data.values() if isinstance(value, dict) for pair in value.items()]


def _a_quotient(position: re.Match[str]) -> bool:
    """Whether a bracketed `a/b` (no position word before it) is a division in prose, not a count; nor
    is `(0 / 0)`, a count of nothing yet (huggingface_hub's upload bar `Processing Files (0 / 0)`)."""
    text = position.string
    if text[position.start()] not in "[(":
        return False  # after a rich bar's `━━━━ `
    close = text.find(")" if text[position.start()] == "(" else "]", position.end("total"))
    return (int(position["n"]) > int(position["total"]) or position["total"].strip("0") == "" or bool(_OPERATOR_BEFORE.search(text, 0, position.start()))
            or (close != -1 and _OPERATOR_AFTER.match(text, close) is not None)
            or (text[close + 1:].strip() == "." and _sentence(text)))


def _position_rank(position: re.Match[str]) -> int:
    """How much a position of a total is trusted by its word (`global iter` over `Iter`)."""
    return STEP_RANK.get(plain_name(position["word"] or "iteration"), 2)


def json_object(text: str) -> Reading | None:
    """A JSON object on a line, also after a tag (`json_stats: {...}`); numbers written as
    strings (fairseq's `"loss": "3.180"`, ms-swift's `"global_step/max_steps": "2/4389"`) count."""
    start = text.find('{"')
    try:
        data = json.loads(text[start:]) if start != -1 else None
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    printed = [(str(key), str(value)) for key, value in _record_items(data)
               if isinstance(value, int | float | str) and not isinstance(value, bool)]
    position = data.get("step")
    if isinstance(position, list) and len(position) == 2 and all(type(n) is int for n in position):
        # DLLogger's JSON line of `step=(epoch, iteration)` (NVIDIA/dllogger JSONStreamBackend dumps
        # the tuple as a list); a third member counts a validation's iterations, not the run's
        printed += [("step", str(position[1]))] + [("epoch", str(position[0]))] * all(
            key != "epoch" for key, _ in printed)
    reading = from_pairs("jsonl", printed)
    done = reading.metrics.get("update") if reading is not None else None
    if reading is not None and reading.epoch is not None and done is not None and (
            reading.epoch - 1 <= done <= reading.epoch):
        # fairseq's JsonProgressBar: `"epoch": 2, "update": 1.049`, the epochs done as a fraction
        # (facebookresearch/fairseq fairseq/logging/progress_bar.py, `epoch - 1 + (i + 1) / size`)
        reading.epoch = reading.metrics.pop("update")
    return reading
