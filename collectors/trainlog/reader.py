"""Reads one log's lines in order: each normalised, then recognised; what a line announces for
the lines under it is remembered (a column header over its rows, Keras's `Epoch 3/10` over its
progress line), so a row of bare numbers still says which figure is which."""

from __future__ import annotations

import json
import math
import re
from bisect import bisect_right
from dataclasses import replace

from sessiontui.collectors.logtext import terminal_wrap, word_wrap
from sessiontui.collectors.trainlog.bare_pairs import BarePairs
from sessiontui.collectors.trainlog.declared import (
    DeclaredFormat,
    active_formats,
    declared_reading,
)
from sessiontui.collectors.trainlog.endings import says_run_ended
from sessiontui.collectors.trainlog.generic import json_object
from sessiontui.collectors.trainlog.normalize import normalize
from sessiontui.collectors.trainlog.parsers import megatron_cut, megatron_line, parse_record
from sessiontui.collectors.trainlog.progress import looks_like_bar, parse_bar
from sessiontui.collectors.trainlog.readings import Reading, add_metric, to_float
from sessiontui.collectors.trainlog.vocabulary import EVAL_SCORES, LEXICON, canonical

# spaCy's `#`: steps; YOLOv5 `mAP@.5:.95`; nerfstudio's `Step (% Done)`, `Train Rays / Sec`
_HEADER_CELL = re.compile(r"#|[A-Za-z][\w()/.@:-]*(?: [A-Za-z(/%][\w()/.@:%-]*)*")
# A figure, with its unit (`30.652 ms`) and the share of the run it stands for (`3800 (1.27%)`).
_ROW_CELL = re.compile(r"(?P<figure>[-+]?\d[\d.]*(?:[eE][-+]?\d+)?)[A-Za-z%]{0,3}(?:/\d+)?"
                       r"(?: [A-Za-z]{1,3})?(?: \(\d[\d.]*%\))?|nan|inf")
# Where a header's first cell can start: past the blanks, table rules and a CSV row's `[` before it.
_HEADER_START = re.compile(r"[\s|\[\u2502\u2503\u2551]*[A-Za-z#]")
_CELL_BREAK = re.compile(r"\s\s|[\t|,\u2502\u2503\u2551]")  # what `_cells` splits a header at
_SHARE = re.compile(r"\s*\(%[^()]*\)")  # a header's `(% Done)`: the share each row's cell adds
# A printed dict hard-wrapped by a terminal or mail client (`{'loss': 0.4, 'learning_rate': 1e-` then
# `05, 'epoch': 0.2}`; HF's `TrainOutput(..., metrics={'train_runtime': 11359.2, ` cut between items): the
# line ends inside an item or after one, and a next line goes on with it (no dict of its own; a close, or a
# `'key':` pair, before any other text would start a record).
_CUT_DICT = re.compile(r"""(?:\{|,\s*)(?:['"][^,{}]*)?$""")
_CONTINUES_DICT = re.compile(r"""[^{}]{0,100}?(?:\}|['"]\s*:)""")
# The rest of a tqdm bar a wrap cut inside its `[elapsed<remaining, rate, postfix]` (Lightning's
# `loss=0.6` + `36, v_num=15]`): no bar of its own, closing the bracket.
_CLOSES_POSTFIX = re.compile(r"[^\[\]|]{0,200}\]\s*")
# A Keras line (`- loss: 0.25 - ac`) wrapped inside a metric's name, and the next line going on with it
# (`c: 0.95 - val_loss: ...`): Progbar prints ` - name: value` pairs, never a name without its colon.
_KERAS_CUT_NAME = re.compile(r" - ([A-Za-z_]\w*)$")
_NAME_REST = re.compile(r"\w*:\s")
_KERAS_EPOCH = re.compile(r"\s*Epoch (\d+)/(\d+)\s*")
# A bar (Keras 2 `[==>..]`, Keras 3 `━━━`), or verbose=2 `19/19 - 12s`.
_KERAS_BAR = re.compile(r"\s*(\d+)/(\d+) (?:\[[=>.]*\]|\u2501+|- \d)")
# verbose=2's one line per epoch with no count: Keras 1 `4s - loss: 0.1026 - val_acc: 0.97` (Progbar.update
# `info = '%ds' % (now - self.start)`), Keras 2 ` - 4s - loss: ...` (`info = ' - %.0fs'`): the epoch is over.
_KERAS_EPOCH_END = re.compile(r"\s*(?:- )?\d+(?:\.\d+)?s - [A-Za-z_]\w*:")
# A header line opening an evaluation block (`📊 Evaluation Results:`), or a banner naming one
# (DeepSpeed-Chat's `***** Evaluating rewards, Epoch 1/1 *****`): its figures are val_.
_EVAL_SECTION = re.compile(r"^\W*(?:evaluation|evaluating|validation|eval|test)\b(?:[^0-9]*:|[^*]*\*{3,})\s*$",
                           re.IGNORECASE)
# The Trainer's `***** train metrics *****` block (`log_metrics`) over `  train_loss  = 0.5678` rows,
# W&B's `Run summary:` over `train/loss 0.8765` rows: the run's summary, whose HF `train_loss` is
# the run's mean, not the current loss.
# TF Estimator's evaluation result (estimator.py `_write_dict_to_summary`: `'Saving dict for global step
# %d: %s'`), whose `loss` is the evaluation's, beside its `eval_loss` and `eval_accuracy`.
_EVAL_DICT = re.compile(r"\bSaving dict for global step \d+: ")
# Ray Train's `Training result` box (ray/tune/experimental/output.py) repeats the worker's last report.
_SUMMARY_SECTION = re.compile(r"\s*(?:\*{3,} train metrics \*{3,}|Run summary:|\u2502 Training result\s+\u2502)\s*")
# a row's value may be words (W&B's `env/gpu_name NVIDIA GeForce RTX 4...`, `status success`), or any text
# W&B cut at 20 characters (`_show_summary`: `v[:20] + "..."`, `sample/question 【用药题】...:[...`)
_SUMMARY_ROW = re.compile(
    r"\s*(?:\u2502\s*)?[\w/.-]+\s*=?\s+(?:[-+\w.:]+(?: [-+\w.:]+)*|.{1,20}\.\.\.)\s*\u2502?\s*|\s*\u251c\u2500+\u2524\s*")
# Lightning's results table after `trainer.validate()`/`test()`: `┃ Validate metric ┃ DataLoader 0 ┃`.
_METRIC_TABLE = re.compile(r"\W*(?:Validate|Test) metric\W+DataLoader \d+\W*")
# A row of Ray's result box whose figure is `0.`: Ray prints each float `f"{value:.5f}".rstrip("0")`
# (ray/tune/experimental/output.py `_render_table_item`; `-23750568.`, `1583017.` beside it), so `0.` is a
# figure under 5e-6 rounded away (a schedule's last learning rate), not a zero: the worker's line has it.
_ROUNDED_AWAY = re.compile(r"\s*\u2502\s*[\w/.-]+\s+-?0\.\s*\u2502\s*")
# A name ending a line (MTID's bar then `lrs:`) whose value is the next line, a bare number, or
# the next line's first figure when a fixed-width wrap broke the record there (torchtitan's `step:  5  loss:`
# over `4.57767  grad_norm:  2.7557 ...` in a commit message wrapped at 72 columns).
_DANGLING = re.compile(r"(?:^|(?<=[\]\s|,]))([A-Za-z][\w.]{0,30}):\s*$")
_BARE_NUMBER = re.compile(r"\s*[-+]?\d[\d.]*(?:[eE][-+]?\d+)?\s*")
_OPENS_WITH_FIGURE = re.compile(r"[-+]?\d[\d.]*(?:[eE][-+]?\d+)?(?:\s|$)")
# A record hard-wrapped mid-word at a fixed width (`loss: 4.57` over `767  grad_norm: ...`, `lo` over
# `ss: 4.57767`): the line above's last field, read again whole with the line's start when they make a pair.
_LAST_FIELD = re.compile(r"(?<!\S)(?:[A-Za-z_][\w.]*:\s*[-+]?\d[\d.]*|[A-Za-z_][\w.]*)$")
_FIGURE_REST = re.compile(r"[\d.]*\d(?:[eE][-+]?\d+)?(?=[\s,|]|$)")  # a cut figure's last digits, then its end
# Where a row glued to a progress bar ends (Ultralytics' `640: 48%|...`), also a bar cut at the
# terminal's width right after its first digits (`640: 1`).
_BAR_AT = re.compile(r":\s+\d{1,3}(?:%|\s*$)")
# YOLOv5's results.txt (2020-21, before results.csv): train.py appends each epoch's row with no
# header, `('%10s' * 2 + '%10.4g' * 6) % (epoch/epochs, mem, *mloss, targets, img_size)` then
# `'%10.4g' * 7 % results`; utils/plots.py plot_results reads the columns back by position.
_YOLOV5_RESULTS_ROW = re.compile(r"\s*\d+/\d+\s+[\d.]+[GM]?(?:\s+[-+]?(?:\d[\d.]*(?:e[-+]?\d+)?|nan)){13}\s*")
_YOLOV5_RESULTS_COLUMNS = ("Epoch", "gpu_mem", "box", "obj", "cls", "total", "labels", "img_size", "val_p", "val_r",
                           "val_mAP@.5", "val_mAP@.5:.95", "val_box", "val_obj", "val_cls")
_SPACED_HEADER = re.compile(r"\s*[A-Za-z][A-Za-z_()/ ]*")
MIN_COLUMNS = 3
ROUNDED_SUM = 5e-7  # each loss column printed to four significant figures (`%10.4g`) rounds this little
_EVAL_LOSSES = frozenset({"eval_loss", "val_loss"})
# Figures only an optimiser step prints (HF's `learning_rate` and `grad_norm`, never in its evaluation
# dict, transformers trainer.py `_maybe_log_save_evaluate`): a record with one is training's.
_OPTIMISER_FIGURES = frozenset({"lr", "grad_norm"})
_OVERLAP_SCORES = frozenset({"miou", "meaniu", "mean_iou", "best_miou", "map", "map50", "map_50", "map75",
                             "mean_ap", "bbox_map", "segm_map"})
_BOX_RULES = str.maketrans("\u2502\u2503\u2551", "|||")  # a box-drawn table's column rules
# A row's first cell, to tell an unnamed index column (pandas' DataFrame) from the header's first.
_FIRST_CELL = re.compile(r"\s*\S+")
# The objectness loss column of the anchor-based YOLOs, whose train.py prints `f'{epoch}/{epochs - 1}'`
# (ultralytics/yolov5 train.py, WongKinYiu/yolov7 train.py, ultralytics/yolov3 train.py `'%g/%g' % (epoch,
# epochs - 1)`); Ultralytics 8 (`f"{epoch + 1}/{self.epochs}"`) prints box, cls and dfl losses only.
_OBJECTNESS = frozenset({"obj", "obj_loss"})
# A row's first cell: an epoch of the run's (`  3/100`), or a name (`all`, a class's name).
_EPOCH_CELL = re.compile(r"\s*\d+/\d+\s")
_NAME_CELL = re.compile(r"\s*[A-Za-z]")
# A line opening a JSON object printed over lines: a lone `{`, or after a tag (`eval metrics: {`).
_OPENS_BLOCK = re.compile(r"[^{}]{0,80}\{\s*")
# A notebook's tqdm widget copied as text: its description and percentage on one line (`Epoch 23:
# 100%`), the count, times and postfix on the next (`98/98 [00:20<00:00, 4.86it/s, loss=0.133]`):
# tqdm/notebook.py draws them as separate HTML elements of one bar.
_WIDGET_HEAD = re.compile(r"\s*[^\s:%|{}][^:%|{}]{0,60}:\s+\d{1,3}%\s*")
_WIDGET_COUNT = re.compile(r"\s*\d+/\d+\s+\[")
# The run's own position among a `trainer_state.json`'s top-level keys, above its `log_history`.
_STATE_FIELD = re.compile(r'"(global_step|max_steps|epoch)"\s*:\s*(\d[\d.eE+-]*),?')
_COPYPASTE = "copypaste: "  # Detectron2's evaluation results as CSV (`print_csv_format`)
_COPYPASTE_TASK = re.compile(r"Task: (\w+)\s*")
# Lines another part of the process prints between a log's lines: a Python warning and the
# source line under it, NCCL's `INFO`/`WARN` lines, c10d's glog-style `[W socket.cpp:663]`. Inside a
# JSON block or a summary table they are skipped, not taken as the block's end.
# An indented comment of a config file a run prints (Detectron2's `Running with full config:` YAML,
# `  # for NYU dataset 30000 labeled images, 1 epoch is 500 (iteration)`): its figures are prose.
_CONFIG_COMMENT = re.compile(r"\s+#\s")
_INTERJECTED = re.compile(r"\b\w*Warning: |^\s*warnings\.warn\(|\bNCCL (?:INFO|WARN)\b|^\[[WE]\d* [\w.]+:\d+\]")
# A record's time stamp glued to the end of the one before (Swin/MoBY's `... mem 45716MB^[[32m[2023-10-24
# 17:33:38 ...] INFO Train: ...`, a log whose newlines a paste lost): each record is read in turn, so the last
# complete one is the latest.
_GLUED_STAMP = re.compile(r"\[\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d")
_COLOUR_BEFORE = re.compile(r"(?:\x1b|\^\[)\[[0-9;]*m$")  # the record's colour, printed or in caret notation
_RECORD_END = re.compile(r"[\w.%)]$")
# or a message glued to a record's last figure (`mem 45716MBGradient overflow.`; not a name's digit, `Llama3Model`)
_GLUED_MESSAGE = re.compile(r"\d(?:[KMGT]i?B)?(?=[A-Z][a-z]{3,}\b)")
_FIGURE_END = re.compile(r"(?<![\w.])\d+(?:\.\d+)?$")
# A two-column notebook table's header ending a line a paste joined to the one above (Unsloth's banner, then
# `[30/30 26:26, Epoch 0/1] Step Training Loss`), and its rows folded onto one line: `1 1.737000 2 1.738000`.
_TRAILING_HEADER = re.compile(r"(?<=\S )((?:Step|Epoch) [A-Z][a-z]+(?: [A-Z][a-z]+)?)\s*$")
_FOLDED_ROW = r"(\d+) ([-+]?\d*\.\d+(?:[eE][-+]?\d+)?)"  # one folded row: its position, its figure
_FOLDED_PAIR = re.compile(_FOLDED_ROW)
_FOLDED_ROWS = re.compile(rf"\s*{_FOLDED_ROW}(?: {_FOLDED_ROW}){{2,}}\s*")
MAX_BLOCK_LINES = 400  # a JSON object printed over more lines than this is read line by line
PER_EPOCH_FORMATS = frozenset({"espnet"})  # steps counted from 1 again in each epoch


def leading_bar(raw: str) -> Reading | None:
    """The progress bar a line starts with, read alone: a failure printed on the bar's own line
    (`| 23054/23316 [...][rank1]: Watchdog caught ...`) still leaves the bar's position."""
    text = normalize(raw)
    return parse_bar(text)[0] if looks_like_bar(text) else None


def _without_cut_item(bar: str) -> str:
    """A bar cut inside its bracket, without the postfix item the cut may have shortened (`loss=0.6`
    of `loss=0.636`), but with one its `,` separator shows whole (`lr=1e-07,` cut at the terminal's
    width): tqdm/std.py format_meter prints `[{elapsed}<{remaining}, {rate}{postfix}]`."""
    bracket = bar.rfind("[")
    rate_end = max(bar.find("/s, ", bracket), bar.find("/it, ", bracket))
    body = bar.rstrip()
    cut = len(body) - 1 if body.endswith(",") else bar.rfind(", ")
    return bar[:cut] + "]" if rate_end != -1 and cut > rate_end else bar


def _place_in_epoch(readings: list[Reading], epoch: tuple[int, int], share: float) -> None:
    """Keras readings at the share done of epoch `epoch[0]` of `epoch[1]`: the last one, full, ends the run."""
    last = epoch[0] == epoch[1] and share == 1.0
    for reading in readings:
        reading.epoch = epoch[0] - 1 + share
        reading.done = reading.done or last


class _PerEpochSteps:
    """Makes steps counted within each epoch run-wide: each new epoch starts where the last
    step of the previous one ended (a log read from its middle starts from 0)."""

    def __init__(self) -> None:
        self._epoch: float | None = None
        self._offset = 0
        self._last = 0

    def run_wide(self, reading: Reading) -> None:
        """Shift a reading's within-epoch step by the steps of the epochs before it."""
        if reading.step is None or reading.epoch is None:
            return
        if self._epoch is not None and reading.epoch > self._epoch:
            self._offset += self._last
        self._epoch, self._last = reading.epoch, reading.step
        reading.step += self._offset


def _cells(text: str, header: bool = False) -> list[str]:
    """A line's cells, without a progress bar drawn after them (Ultralytics `640: 100%|...`):
    split at tabs when it has them, at commas when no cell holds a space, else at runs of spaces (a header) or any space (a row)."""
    bar = _BAR_AT.search(text)
    head = (text[:bar.start()] if bar else text).strip()
    if not head.isascii():  # box rules are not ASCII: most lines skip the per-character translation
        head = head.translate(_BOX_RULES)
    if (head[:1] == "|" and head[-1:] == "|") or head.count(" | ") >= MIN_COLUMNS - 1:
        # a Markdown table row, `| Step | Training Loss |`, or without its outer pipes (a notebook's
        # table copied as GitHub renders it: `Step | Training Loss | reward`), or drawn in box
        # characters (rich's `┃ Step ┃ Loss ┃` over `│ 10 │ 2.5 │`)
        return [cell.strip() for cell in head.strip("|").split("|")]
    commas = head.split(",")
    if len(commas) > 1 and not any(" " in cell.strip() for cell in commas):  # Keras CSVLogger's
        # `epoch,loss,val_loss`, DySPN's padded `Epoch ,LR` over `8 ,[0.001]` (a one-rate list),
        # also padded with tabs
        return [cell.strip().strip("[]") for cell in commas]
    if "\t" in head:
        return [cell.strip() for cell in head.split("\t") if cell.strip()]
    return re.split(r"\s{2,}", head) if header else head.split()


def _bar_share(text: str) -> float:
    """How far the bar a table row ends with has gone (Ultralytics' `3/100 ... 640: 48%|...| 48/100`
    is 0.48 of epoch 3), its percentage when the line was cut before the count (`100%|█████`, a
    notebook's output cut at the cell's width), 0 without one."""
    at = _BAR_AT.search(text)
    bar = parse_bar(text[at.start() + 1:].strip())[0] if at else None
    if bar and bar.step is not None and bar.total:
        return bar.step / bar.total
    percent = at[0].lstrip(": ") if at and at[0].endswith("%") else ""
    return min(int(percent[:-1]), 100) / 100 if percent else 0.0


def _header(text: str) -> list[str] | None:
    """Column names of an aligned header line (at least three names, none a number; two when the
    first names the position, as HF's notebook table `Step  Training Loss`)."""
    if not _HEADER_START.match(text) or not _CELL_BREAK.search(text):  # most lines: their first cell is
        return None  # no name whatever the split, or no split gives two cells
    cells = _cells(text, header=True)
    if not cells or not all(_HEADER_CELL.fullmatch(cell) for cell in cells):
        return None
    # the vocabulary last: most lines fail the cheap tests, and their first words would crowd its cache
    least = MIN_COLUMNS - (len(cells) == MIN_COLUMNS - 1 and canonical(cells[0]) in ("step", "epoch"))
    if len(cells) < least:
        return None
    return [_SHARE.sub("", cell) for cell in cells]


def _starts(text: str) -> list[int]:
    """Where each cell of an aligned header begins (cells are set apart by two spaces or more)."""
    return [match.start(1) for match in re.finditer(r"(?:^\s*|\s\s)(\S)", text)]


def _split_where_cells_start(header: str, row: str, count: int) -> list[str] | None:
    """A fixed-width header whose names fill their width, one space apart (`f"{'Train Recall':<12}
    {'Val Loss':<12}"` prints `Train Recall Val Loss`), cut where the row's cells begin: each piece
    starts a word and is one name (no run of spaces inside); None when the row does not line up."""
    starts = _starts(row)
    if len(starts) != count or any(0 < start < len(header) and header[start - 1] != " " for start in starts):
        return None
    names = [header[start:end].strip() for start, end in zip(starts, [*starts[1:], len(header)], strict=True)]
    return names if all(names) and not any("  " in name for name in names) else None


def _right_aligned(header: str, row: str, columns: list[str]) -> tuple[list[str], list[str]] | None:
    """(columns, cells) of a row cut short under a right-aligned header (YOLOv5/YOLOv7 train.py print
    `('%10s' * 8) % ('Epoch', 'gpu_mem', ...)` over `('%10s' * 2 + '%10.4g' * 6) % (...)`, a console
    capture cutting the row before its last cells): each cell ends where its column's name ends; None
    when a cell ends elsewhere (one cut inside its digits) or the header's names do not line up."""
    ends = [match.end() for match in re.finditer(r"\S+(?: \S+)*", header)]
    cells = list(re.finditer(r"\S+", row))
    if len(ends) != len(columns) or not MIN_COLUMNS <= len(cells) < len(columns):
        return None
    if any(cell.end() not in ends for cell in cells):
        return None
    return [columns[ends.index(cell.end())] for cell in cells], [cell[0] for cell in cells]


def _unnamed_index(text: str, starts: list[int]) -> bool:
    """Whether a row's first cell ends left of its header's first name: an index column with no
    name (pandas prints a DataFrame's index so, `0      1      0.6931` under `   epoch  train_loss`)."""
    first = _FIRST_CELL.match(text)
    return bool(starts) and first is not None and first.end() <= starts[0]


def _aligned(text: str, starts: list[int], columns: list[str]) -> tuple[list[str], list[str]] | None:
    """(columns, cells) of a fixed-width row that leaves some columns blank (chainer's
    PrintReport before the first evaluation): each cell (words a single space apart, as
    nerfstudio's `30.652 ms`) belongs to the column under whose header it starts; None when two
    cells fall in one column."""
    if len(starts) != len(columns) or not starts:
        return None
    named: list[str] = []
    cells: list[str] = []
    for match in re.finditer(r"\S+(?: \S+)*", text):
        column = columns[bisect_right(starts, match.start()) - 1]
        if column in named or match.start() < starts[0]:
            return None
        named.append(column)
        cells.append(match[0])
    return named, cells


def _list_entry(block: list[str]) -> list[Reading]:
    """The reading of a bare `{...}` just closed inside a still-open block: an entry of a list
    (`trainer_state.json`'s `log_history`), read as it closes so a paste cut before the outer
    braces close keeps its history."""
    if block[-1] not in ("}", "},"):
        return []
    depth = 0
    for start in range(len(block) - 1, 0, -1):
        depth += block[start].count("}") - block[start].count("{")
        if depth == 0:
            break
    if depth != 0 or block[start] != "{":
        return []
    entry = "".join(block[start:]).rstrip(",")
    try:
        json.loads(entry)
    except ValueError:
        return []
    reading = json_object(entry)
    return [reading] if reading is not None else []


def _total_as_loss(metrics: dict[str, float]) -> None:
    """A table's `total` column that is the sum of its loss columns is the loss: YOLOv3's and YOLOv5's
    (2020) `GIoU obj cls total` (train.py's `mloss` holds the mean `lbox, lobj, lcls` and their sum)."""
    parts = [value for name, value in metrics.items() if name.endswith("_loss") and not name.startswith("val_")]
    total = metrics.get("total")
    if "loss" not in metrics and total is not None and len(parts) >= 2 and math.isclose(
            sum(parts), total, rel_tol=1e-3, abs_tol=ROUNDED_SUM * len(parts)):
        metrics["loss"] = total


def _only_scores(metrics: dict[str, float]) -> bool:
    """Whether a record holds nothing but an evaluation library's scores (`{'accuracy': 0.86,
    'f1': 0.9}`): an evaluation's result, not training figures."""
    return bool(metrics) and all(name.lower() in EVAL_SCORES for name in metrics)


def _scores_overlap(reading: Reading) -> bool:
    """Whether a positionless record prints a loss beside a segmentation or detection overlap score
    (HRNet-Semantic-Segmentation tools/train.py `'Loss: {:.3f}, MeanIU: {: 4.4f}, Best_mIoU: {: 4.4f}'`):
    a score over the whole held-out set, so the loss beside it is the evaluation's."""
    others = reading.metrics.keys() - {"loss"}
    return (reading.step is None and reading.epoch is None and "loss" in reading.metrics and bool(others)
            and all(name in EVAL_SCORES or name in _OVERLAP_SCORES for name in others)
            and bool(others & _OVERLAP_SCORES))


def _evaluation(metrics: dict[str, float], named_loss: bool = False) -> dict[str, float]:
    """An evaluation's figures under evaluation names: `loss` is `val_loss`, unless the evaluation
    named its loss already (TF Estimator's `eval_loss` beside its own `loss`); `eval_`, `val_` and
    `test_` names stay as printed."""
    named_loss = named_loss or bool(_EVAL_LOSSES & metrics.keys())
    return {name if name.startswith(("val", "eval", "test")) else f"val_{name}": value
            for name, value in metrics.items() if not (named_loss and name == "loss")}


def _tested(metrics: dict[str, float]) -> dict[str, float]:
    """A test set's evaluation (Keras evaluate() after a fit that validated): every figure a
    `test_` one (`loss` is `test_loss`), so none replaces the validation's."""
    return {name if name.startswith("test") else "test_" + name.removeprefix("val_"): value
            for name, value in metrics.items()}


def _names_a_column(words: list[str]) -> bool:
    """Whether a line of words may head a table: a word or a pair of them is a name the
    vocabulary knows (a position, `Training Loss`, `valid_loss`), so prose is not a header."""
    pairs = [" ".join(words[i:i + 2]) for i in range(len(words) - 1)]
    return len(words) >= 2 and any(canonical(name) in LEXICON or canonical(name).startswith("val_")
                                   for name in words + pairs)


def _grouped(words: list[str], count: int) -> list[str] | None:
    """A single-spaced header's words as `count` column names: two words make one name where the
    vocabulary knows the pair (`Training Loss`, `Learning Rate`), else each word is one (a
    snake_case word or a position is a name on its own: fastai's `epoch train_loss valid_loss`)."""
    names: list[str] = []
    i = 0
    while i < len(words):
        pair = " ".join(words[i:i + 2])
        joinable = "_" not in pair and canonical(words[i]) not in ("step", "epoch")  # `epoch train_loss`
        known = joinable and i + 1 < len(words) and (canonical(pair) in LEXICON
                                                     or canonical(pair).startswith("val_"))
        names.append(pair if known else words[i])
        i += 2 if known else 1
    return names if len(names) == count else None


def _record_starts(raw: str) -> list[int]:
    """Where each record glued into a raw line starts (0 and each glued record's start, in order)."""
    message, first_stamp = _GLUED_MESSAGE.search(raw), _GLUED_STAMP.search(raw, 1)
    if message is None and first_stamp is None:
        return [0]  # most lines: nothing glued
    messages = _GLUED_MESSAGE.finditer(raw, message.start()) if message else ()  # on from the first: no rescan
    starts = [0, *(glued.end() for glued in messages if _FIGURE_END.search(raw, 0, glued.start() + 1))]
    for stamp in _GLUED_STAMP.finditer(raw, first_stamp.start()) if first_stamp else ():
        colour = _COLOUR_BEFORE.search(raw, 0, stamp.start())
        start = colour.start() if colour else stamp.start()
        if _RECORD_END.search(raw, 0, start):
            starts.append(start)
    return sorted(starts)


def _folded_rows(words: list[str], text: str) -> list[Reading]:
    """The rows of a two-column table (`Step Training Loss`) folded onto one line (`1 1.737000 2 1.738000
    ... 30 0.660900`, a notebook's output pasted where newlines are lost): each (position, figure) pair
    a row, the positions rising."""
    columns = _grouped(words, 2)
    if columns is None or canonical(columns[0]) not in ("step", "epoch") or not _FOLDED_ROWS.fullmatch(text):
        return []
    rows = [(int(position), float(figure)) for position, figure in _FOLDED_PAIR.findall(text)]
    if any(later <= earlier for (earlier, _), (later, _) in zip(rows, rows[1:], strict=False)):
        return []
    readings = []
    for position, figure in rows:
        metrics: dict[str, float] = {}
        add_metric(metrics, columns[1], figure)
        at_step = canonical(columns[0]) == "step"
        readings.append(Reading("table", metrics, step=position if at_step else None,
                                epoch=None if at_step else float(position)))
    return readings


class LineReader:
    """Per-log reader state: the user's declared formats (tried first), the latest column header
    and the latest announced epoch."""

    def __init__(self, formats: list[DeclaredFormat] | None = None) -> None:
        self._formats = active_formats() if formats is None else formats
        self._columns: list[str] | None = None
        self._starts: list[int] = []  # where the header's cells begin, for a row with blanks
        self._heading: tuple[list[str], str] | None = None  # an aligned header's columns and its line
        self._zero_based = False  # a table's `epoch/epochs` cell counts from 0 (a `0/N` row was read)
        # the latest header whose first column is the position (`Epoch  GPU_mem  box_loss ...`)
        self._position_table: tuple[list[str], list[int], tuple[list[str], str]] | None = None
        self._epoch: tuple[int, int] | None = None  # Keras `Epoch e/E`, 1-based
        self._epoch_bar: int | None = None  # the total of the bar under Keras' epoch header
        self._epoch_full = False  # that bar reached its total: a bar starting over is another's
        self._per_epoch = _PerEpochSteps()
        self._evaluating = False  # inside a block opened by an evaluation header, until a step
        self._named_loss = False  # that block printed its `eval_loss`: a bare `loss` in it repeats it
        self._dangling: str | None = None  # a name that ended the previous line
        self._above = ""  # the previous raw line, and the widest seen with how many were that wide
        self._widest = (0, 0)
        self._spaced: list[str] | None = None  # a header's words, single-spaced: grouped by its row
        self._summary = False  # inside the Trainer's `***** train metrics *****` block
        self._notebook: Reading | None = None  # HF's notebook bar over the table of its history
        self._block: list[str] | None = None  # a JSON object's lines, from its lone `{` on
        self._task = "eval"  # the task of Detectron2's copypaste table (`Task: bbox`)
        self._widget: str | None = None  # a notebook bar's first line, its count on the next
        self._state: dict[str, float] = {}  # the open block's top-level position (trainer_state.json)
        self._val_loss: float | None = None  # the latest validation loss, as printed
        self._fit_validated = False  # a Keras fit's epoch bar printed `val_` figures
        self._cut: str | None = None  # a Megatron line wrapped before a figure: the next line goes on
        self._dict_tail: str | None = None  # a printed dict a wrap cut, read again whole with its rest
        self._bar_cut: str | None = None  # a bar wrapped inside its `[...]`: the next line may close it
        self._name_cut: str | None = None  # a Keras line's last name, cut before its colon by a wrap
        self._epoch_read: float | None = None  # the latest epoch a line gave (a bar's fraction)
        self._step_read = 0  # the furthest step a line gave
        self._bare_pairs = BarePairs()  # a log of bare `step loss` lines

    def read(self, raw: str) -> list[Reading]:
        """Every reading in one raw log line (in each of the records glued into it, in order)."""
        readings = self._read(raw)
        line = raw.rstrip("\r\n")
        widest, times = self._widest
        self._widest = (len(line), 1) if len(line) > widest else (widest, times + (len(line) == widest))
        self._above = line
        return readings

    def _read(self, raw: str) -> list[Reading]:
        """`read`, before the line's width is noted."""
        above, self._above = self._above, ""  # the line above joins only the first record glued in a line
        if len(starts := _record_starts(raw)) > 1:
            return [reading for start, end in zip(starts, [*starts[1:], len(raw)], strict=True)
                    for reading in self._read(raw[start:end])]
        text = normalize(raw)
        if not text.strip():
            return []
        cut, self._cut = self._cut, None
        if cut is not None and "|" in text and not megatron_line(text):
            text = f"{cut} {text.strip()}"  # its wrapped rest (the space at the wrap on either line)
        if megatron_cut(text):  # read up to the cut field, whole once its rest comes
            self._cut, text = text, text[:text.rindex("|") + 1]
        opened, self._bar_cut = self._bar_cut, None
        if opened is not None and _CLOSES_POSTFIX.fullmatch(text):
            text = opened + text.strip()
        if text.count("[") > text.count("]") and looks_like_bar(text):
            self._bar_cut, text = text, _without_cut_item(text)
        fragment, self._name_cut = self._name_cut, None
        if fragment is not None and _NAME_REST.match(text):
            text = fragment + text.lstrip()  # `- ac` + `c: 0.95 - val_loss: ...`
        tail, self._dict_tail = self._dict_tail, None
        if tail is not None and "{" not in text and _CONTINUES_DICT.match(text):
            text = tail + text.strip()  # a terminal's hard wrap adds nothing: `'epo` + `ch': 0.2}`
        if "{'" in text and text.count("{") > text.count("}") and _CUT_DICT.search(text):
            self._dict_tail = text[text.rindex("{"):]  # read as far as it goes; the whole dict again with its rest
        head, self._widget = self._widget, text.strip() if "%" in text and _WIDGET_HEAD.fullmatch(text) else None
        if head and _WIDGET_COUNT.match(text):
            text = f"{head} {text.strip()}"
        if self._formats and (declared := declared_reading(self._formats, text)) is not None:
            return [declared[1]]
        if "#" in text and _CONFIG_COMMENT.match(text):
            return []
        if (self._block is not None or self._summary) and _INTERJECTED.search(text) or (
                "\u2502" in text and _ROUNDED_AWAY.fullmatch(text)):
            return []
        if self._block is not None or "{" in text and _OPENS_BLOCK.fullmatch(text):
            return self._in_block(text)
        if text.startswith(_COPYPASTE):
            return self._copypaste(text[len(_COPYPASTE):])
        if (columns := _header(text)) is not None:
            self._columns, self._starts, self._heading = columns, _starts(text), (columns, text)
            if canonical(columns[0]) in ("step", "epoch"):
                self._position_table = (columns, self._starts, self._heading)
            # YOLOv3/v5/v7 (anchor-based: an objectness loss) count epochs from 0; Ultralytics 8 has none
            self._zero_based = self._zero_based or any(name.lower() in _OBJECTNESS for name in columns)
            return []
        if _SPACED_HEADER.fullmatch(text) and _names_a_column(text.split()) and not says_run_ended(text):
            self._spaced = text.split()  # `Step Training Loss Validation Loss`: tabs lost in a paste
            return []
        if self._spaced and (columns := _grouped(self._spaced, len(text.split()))) is not None:
            self._columns = columns
        elif self._spaced and (folded := _folded_rows(self._spaced, text)):
            self._spaced = None
            return folded
        self._spaced = None
        if "/" in text and len(self._columns or ()) != len(_YOLOV5_RESULTS_COLUMNS) and _YOLOV5_RESULTS_ROW.fullmatch(text):
            self._columns, self._starts = list(_YOLOV5_RESULTS_COLUMNS), []
        if self._columns is not None and not self._heads(text):
            return []  # another table's row, its header not printed above it here
        if self._columns is not None and (row := self._row(text)) is not None:
            # a notebook table's row is history: the bar above it stays the run's position
            return [row, replace(self._notebook)] if self._notebook else [row]
        if "Epoch " in text and (epoch := _KERAS_EPOCH.fullmatch(text)) is not None:
            if self._epoch_read is not None and int(epoch[1]) - 1 < self._epoch_read <= int(epoch[1]):
                return []  # a summary's heading under the bar that counted this epoch: it is over
            self._epoch_read = float(int(epoch[1]) - 1)
            self._epoch, self._epoch_bar, self._epoch_full = (int(epoch[1]), int(epoch[2])), None, False
            self._evaluating = False  # a new epoch trains: the last one's validation bar is over
            return [Reading("keras", {"total_epochs": float(epoch[2])},
                            epoch=float(int(epoch[1]) - 1))]
        name, self._dangling = self._dangling, None
        if name is not None and _BARE_NUMBER.fullmatch(text):
            metrics: dict[str, float] = {}
            add_metric(metrics, name, float(text))
            return [Reading("key-value", metrics)]
        if name is not None and _OPENS_WITH_FIGURE.match(text.lstrip()) and self._wrapped(above, raw):
            text = f"{name}: {text.lstrip()}"
        elif (field := self._cut_field(above, raw)) and (_FIGURE_REST if ":" in field else _NAME_REST).match(raw):
            text = normalize(field + raw)
        if (":" in text or "***" in text) and _EVAL_SECTION.match(text) or "metric" in text and _METRIC_TABLE.fullmatch(text):
            self._evaluating, self._named_loss = True, False
            return []
        if _SUMMARY_SECTION.fullmatch(text):
            self._summary, self._columns = True, None  # its `name value` rows are no open table's
        else:
            self._summary = self._summary and _SUMMARY_ROW.fullmatch(text) is not None
        readings = parse_record(text) or self._bare_pairs.read(text)
        if ("Step " in text or "Epoch " in text) and (trailing := _TRAILING_HEADER.search(text)):
            self._spaced = trailing[1].split()  # its rows may follow folded onto one line
        if readings:
            self._notebook = readings[-1] if readings[-1].format == "hf-notebook" else None
        if self._summary:
            for reading in readings:
                reading.rounded = True
                if "train_loss" in reading.metrics:  # `train_loss = 0.5678`: the run's mean
                    reading.metrics.pop("loss", None)
                if text.split()[0] == "_step":  # W&B's count of log calls, not the position
                    reading.step = None
                if reading.step is not None and reading.step < self._step_read:
                    reading.step = None  # the history's last count (W&B `iter 999` under step=1000): no new run
        bar = _KERAS_BAR.match(text) if self._epoch else None
        if (bar or self._epoch and _KERAS_EPOCH_END.match(text)) and (name_cut := _KERAS_CUT_NAME.search(text)):
            self._name_cut = name_cut[1]
        # fit's epoch-end bar prints its validation beside the loss (`- loss: 0.41 - val_loss: 0.05`);
        # evaluate()'s never does, so such a bar is training's whatever bars came between
        fits = bar is not None and any(name.startswith("val_") for reading in readings for name in reading.metrics)
        self._evaluating = self._evaluating and not fits
        evaluates = bar is not None and not fits and (self._epoch_bar not in (None, int(bar[2])) or self._epoch_full
                                                      and int(bar[1]) < int(bar[2]))
        # after a fit that printed its own validation, evaluate()'s bar scores another set (the
        # test set: handson-ml3's `model.evaluate(X_test, y_test)`): `test_` figures, fit's val_loss stays
        tested = evaluates and self._fit_validated
        self._fit_validated = self._fit_validated or fits
        for reading in readings:
            if reading.format in PER_EPOCH_FORMATS:
                self._per_epoch.run_wide(reading)
            if tested:
                reading.metrics = _tested(reading.metrics)
                continue
            if "Saving dict" in text and _EVAL_DICT.search(text):
                reading.metrics = _evaluation(reading.metrics)
            elif reading.step is not None and (reading.metrics or not self._evaluating):
                self._evaluating = False  # a bare `global_step = 5468` in an evaluation's results is not training
            elif self._evaluating and _OPTIMISER_FIGURES & reading.metrics.keys():
                self._evaluating = False  # a heading over a sample (`Test Prompt:`) opened no evaluation
            elif (self._evaluating or _only_scores(reading.metrics) or bar is None and self._repeats_validation(reading)
                  or _scores_overlap(reading)):
                reading.metrics = _evaluation(reading.metrics, self._evaluating and self._named_loss)
                self._named_loss = self._named_loss or bool(_EVAL_LOSSES & reading.metrics.keys())
            if "val_loss" in reading.metrics:
                self._val_loss = reading.metrics["val_loss"]
        if text.rstrip()[-1:] == ":" and (dangling := _DANGLING.search(text)):
            self._dangling = dangling[1]
        if evaluates:
            # `313/313 ... - loss: 0.08` of model.evaluate after fit, or its first `32/768 ... ETA`
            # under the epoch whose bar was full: what follows, until a step, is the evaluation's
            self._evaluating = True
            for reading in readings:
                reading.metrics = reading.metrics if tested else _evaluation(reading.metrics)
        elif bar is not None and self._epoch is not None and int(bar[2]) > 0:
            self._epoch_bar, self._epoch_full = int(bar[2]), bar[1] == bar[2]
            _place_in_epoch(readings, self._epoch, int(bar[1]) / int(bar[2]))
        elif self._epoch is not None and _KERAS_EPOCH_END.match(text):
            self._epoch_full = True
            _place_in_epoch(readings, self._epoch, 1.0)
        self._epoch_read = next((r.epoch for r in reversed(readings) if r.epoch is not None), self._epoch_read)
        self._step_read = max((r.step for r in readings if r.step is not None), default=self._step_read)
        return readings

    def _wrapped(self, above: str, raw: str) -> bool:
        """Whether a line continues the one above in a text wrapped at a fixed width, the widest line
        seen twice: word-wrapped (`word_wrap`) or hard-wrapped at a blank (`terminal_wrap`)."""
        widest, times = self._widest
        line = raw.rstrip("\r\n")
        return times > 1 and (word_wrap(above.rstrip(), line, widest) or terminal_wrap(above, line, widest) is not None)

    def _cut_field(self, above: str, raw: str) -> str | None:
        """The last field of the line above when a fixed-width hard wrap cut it mid-word (`terminal_wrap`
        at the widest width seen twice), to be read again with the line that holds its rest."""
        widest, times = self._widest
        if times < 2 or len(above) != widest or terminal_wrap(above, raw.rstrip("\r\n"), widest) != ("", widest):
            return None
        field = _LAST_FIELD.search(normalize(above))
        return field[0] if field else None

    def _copypaste(self, text: str) -> list[Reading]:
        """Detectron2's `copypaste: Task: bbox`, `copypaste: AP,AP50,...`, `copypaste: 40.2,61.0,...`:
        the evaluation's figures, named by task (`val_bbox/ap50`)."""
        if task := _COPYPASTE_TASK.fullmatch(text):
            self._task = task[1]
            return []
        if (columns := _header(text)) is not None:
            self._columns, self._starts = [f"{self._task}/{name}" for name in columns], []
            return []
        row = self._row(text) if self._columns is not None else None
        if row is None:
            return []
        row.metrics = _evaluation(row.metrics)
        return [row]

    def _in_block(self, text: str) -> list[Reading]:
        """A JSON object pretty-printed over lines (`json.dumps(..., indent=2)`, W&B's summary):
        read whole once its braces close; a block that is no JSON (a Python dict printed so) or
        runs too long is read line by line."""
        if self._block is None:
            self._state = {}
        block = (self._block or []) + [text.strip()]
        self._block = block
        joined = "".join(block)
        if joined.count("{") > joined.count("}") and len(block) < MAX_BLOCK_LINES:
            opened = "".join(block[:-1])
            field = _STATE_FIELD.fullmatch(block[-1])
            if field and opened.count("[") == opened.count("]") and opened.count("{") - opened.count("}") == 1:
                self._state[field[1]] = float(field[2])
            entries = _list_entry(block)
            return entries + self._state_position() if entries or field else []
        self._block = None
        tag, _, body = joined.partition("{")
        try:
            json.loads("{" + body)
        except ValueError:
            return [reading for line in block for reading in parse_record(line)]
        reading = json_object(joined)
        if reading is not None and _EVAL_SECTION.match(tag):  # `eval metrics: {`
            reading.metrics = _evaluation(reading.metrics)
        return [reading] if reading is not None else []

    def _repeats_validation(self, reading: Reading) -> bool:
        """Whether a bare `Loss: 22.111196517944336` (no position, no other figure) is the validation
        loss just printed as `22.1112`, repeated in full by the evaluation's own summary
        (luxonis-train's callbacks/luxonis_progress_bar.py `print_results`: `Loss: {loss}`)."""
        if self._val_loss is None or reading.epoch is not None or set(reading.metrics) != {"loss"}:
            return False
        _, _, decimals = repr(self._val_loss).partition(".")
        return "e" not in decimals and abs(reading.metrics["loss"] - self._val_loss) <= 0.5 * 10 ** -len(decimals)

    def _state_position(self) -> list[Reading]:
        """The open state's own position (`global_step`, `epoch`, `max_steps` above its history),
        repeated after each history entry: a paste cut inside `log_history` is still at the state's
        step, not at the last entry it kept."""
        if "global_step" not in self._state:
            return []
        total = self._state.get("max_steps")
        return [Reading("hf-trainer-state", {}, step=int(self._state["global_step"]),
                        total=int(total) if total else None, epoch=self._state.get("epoch"))]

    def _heads(self, text: str) -> bool:
        """Whether a line may be a row of the open header, its first cell matched to the kind of the
        first column: an `epoch/epochs` row goes back under the latest header that starts with the
        position, and a name then as many figures (`all  10700  57824  0.503 ...`) is no row of such
        a header. Ultralytics prints its validation header `Class  Images ... mAP50-95):` on its bar
        between training rows, and W&B's output.log sets the rows apart from the headers they sat
        under (ultralytics/ultralytics engine/trainer.py `progress_string`, models/yolo/detect/val.py
        `get_desc`)."""
        assert self._columns is not None
        if self._position_table is None:
            return True
        if self._position_table[0] is not self._columns:
            if _EPOCH_CELL.match(text):
                self._columns, self._starts, self._heading = self._position_table
            return True
        if not _NAME_CELL.match(text):
            return True
        cells = _cells(text)
        return len(cells) != len(self._columns) or not all(_ROW_CELL.fullmatch(cell) for cell in cells[1:])

    def _row(self, text: str) -> Reading | None:
        """The figures of a row under the header, one per column (`151/200` as epoch of total)."""
        assert self._columns is not None
        cells = _cells(text)
        columns = self._columns
        if len(cells) != len(columns) and "\t" in text:  # tabs for runs of spaces, but a full
            cells = _cells(text.replace("\t", " "))  # column left one space (`0.04801 0.0004782`)
        if len(cells) == len(columns) + 1 and _unnamed_index(text, self._starts):
            cells = cells[1:]
        if len(cells) > len(columns) and self._heading and self._heading[0] is columns:
            columns = _split_where_cells_start(self._heading[1], text, len(cells)) or columns
        if len(cells) != len(columns):  # YOLOv5's `%11s` leaves one space before `mAP@.5:.95`
            columns = " ".join(columns).split()
        if len(cells) != len(columns) and (aligned := _aligned(text, self._starts, self._columns)):
            columns, cells = aligned
        if len(cells) < len(columns) and self._heading and self._heading[0] is self._columns and (
                ended := _right_aligned(self._heading[1], text, self._columns)):
            columns, cells = ended
        if len(cells) < len(columns) and "\t" in text and canonical(columns[0]) == "step":
            # tabs for the space runs of a fixed-width row with blank cells (nerfstudio's table
            # before its first evaluation) leave no trace of which column went blank: only the
            # first cell, the row's position, is sure of its column
            columns, cells = columns[:1], cells[:1]
        if len(cells) != len(columns):  # no row of this table (most lines under a header): no cell read
            return None
        figures = [_ROW_CELL.fullmatch(cell) for cell in cells]
        numeric = [figure is not None for figure in figures]
        blank = cells.count("")  # a CSV row leaves what was not logged with it empty (Lightning's
        # metrics.csv: `0,,99,,0.612,,`, lightning/fabric/loggers/csv_logs.py `csv.DictWriter`)
        if sum(numeric) < max(1, len(cells) - blank - 1):
            return None
        metrics: dict[str, float] = {}
        epoch = step = None
        validation = not numeric[0]  # `all  498  70099  0.937 ...`: an evaluation summary
        for name, cell, figure in zip(columns, cells, figures, strict=True):
            if name.lower() == "epoch" and "/" in cell and figure:
                done, total = (int(part) for part in cell.split("/", 1))
                # YOLOv5/YOLOv7 train.py count from 0 (`f'{epoch}/{epochs - 1}'`), Ultralytics 8 from 1
                # (`f"{epoch + 1}/{self.epochs}"`): a row at `0/N`, or the header's objectness column, says
                # which, for the rows after it too
                self._zero_based = self._zero_based or done == 0
                epoch = float(done if self._zero_based else done - 1)
                metrics["total_epochs"] = float(total + self._zero_based)
                continue
            value = to_float(figure["figure"] or figure[0]) if figure else to_float(cell.rstrip("GMKB"))
            if value is not None and canonical(name) == "step" and not validation:
                step = int(value)
            elif value is not None and canonical(name) == "epoch" and not validation:
                epoch = value  # fastai's `epoch  train_loss  valid_loss  accuracy  time` rows
            elif value is not None:
                add_metric(metrics, ("val_" if validation else "") + name, value)
        if not metrics and epoch is None and step is None:
            return None
        _total_as_loss(metrics)
        if "total_epochs" in metrics and epoch is not None:
            epoch += _bar_share(text)
        return Reading("table", metrics, step=step, epoch=epoch)
