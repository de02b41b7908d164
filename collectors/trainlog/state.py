"""Aggregates readings and failures into snapshots: latest figures, smoothed rate, ETA, events."""

from __future__ import annotations

import math
import re
from collections import deque
from statistics import median
from types import MappingProxyType
from typing import Literal, cast

from sessiontui.collectors.logtext import TRACEBACK, abstract, block_has_hint, rank_of
from sessiontui.collectors.trainlog.encoding import NOT_TEXT, LogBytes, looks_binary
from sessiontui.collectors.trainlog.events import FailureWatcher, TrainEvent, sharper
from sessiontui.collectors.trainlog.history import MAX_POINTS, Series
from sessiontui.collectors.trainlog.lines import collapse_redraws
from sessiontui.collectors.trainlog.normalize import paste_mark
from sessiontui.collectors.trainlog.parsers import (
    logged_time,
    specforge_step_run,
    specforge_step_runs,
)
from sessiontui.collectors.trainlog.reader import LineReader, leading_bar
from sessiontui.collectors.trainlog.readings import Reading, merge
from sessiontui.collectors.trainlog.snapshot import RunSegment, TrainSnapshot, acc_positions
from sessiontui.collectors.trainlog.stamps import first_timestamp
from sessiontui.project_memory.events import EventKind, RunStatus

MAX_EVENTS = 200
INSTANT_S = 1.0  # a bar that ran its count in less time did data work, not training steps
MAX_METRICS = 256  # distinct metric names tracked (latest value and history)
RATE_SMOOTHING = 0.3  # weight of the newest steps/s figure in the moving average
MIN_RATE_WINDOW_S = 1.0  # progress closer together than this is merged before measuring a rate
STALL_FACTOR = 5.0  # stalled after this many median intervals between progress lines ...
MIN_STALL_S = 30.0  # ... but never sooner than this
UNKNOWN_STALL_S = 600.0  # while no interval is known (a single progress line so far)
MAX_GAPS = 32  # recent intervals between progress lines the median is taken over
# Half the last place a run summary prints: W&B rounds each float to 5 places (wandb/sdk/wandb_run.py
# `_show_summary`: `v = round(v, 5)`), Ray's result box prints `f"{value:.5f}"` (ray/tune/experimental/output.py).
ROUNDING = 0.5e-5 * (1 + 1e-9)
MAX_STEP = 10**15  # a larger counter is digits run together (a mangled line), not a position
CONTEXT_BYTES = 4096  # tail of a quiet block kept as context for a failure in the next one
ASSUMED_REDRAW_BYTES = 128  # for sampling the first block of a log (later ones measure)
REDRAW_SAMPLES = 32  # about this many superseded bars and runs per block feed a full history
SAMPLE_NONE = 1 << 62  # a redraw interval no block reaches: only the bars a terminal shows are kept
GENERIC_FORMATS = frozenset({"tqdm", "key-value", "jsonl"})
BAR_FORMATS = frozenset({"tqdm", "lightning"})
# Formats whose position counts the epoch's batches (a bar's `45/100`, MMEngine's `[2][50/469]`,
# Ignite's `Epoch[2] Iteration[50/469]`): reaching its total ends the epoch, not the run.
PER_EPOCH_POSITIONS = BAR_FORMATS | {"epoch-batch"}
EPOCH_COUNT_KEYS = ("num_epochs", "total_epochs", "max_epochs", "num_train_epochs")
MAX_OTHER_RANK_LINES = 64  # other ranks' lines after rank 0's last of a block, read for a later step
MAX_SEGMENTS = 16  # ended runs of one log (restarts) kept for the run records
STAMP_SCAN_BYTES = 1 << 16  # where a run's first log timestamp is looked for in a block
MARK_SCAN_BYTES = 1 << 16  # where a log's first block is looked at for a mark on every line
ENDED = frozenset({"crashed", "finished", "stalled"})  # episodes after which a rewrite is a new run


def stall_limit_s(interval_s: float | None, override_s: float | None = None) -> float:
    """The one rule every reader (app, watch, serve, train status, MCP) uses for "alive": a run
    is stalled once its last step is older than max(5 x its median step interval, 30 s); the
    `stall_after_s` setting overrides it, and 600 s applies while no interval is known."""
    if override_s is not None:
        return override_s
    if interval_s is None:
        return UNKNOWN_STALL_S
    return max(STALL_FACTOR * interval_s, MIN_STALL_S)


class TrainState:
    """Everything learned from one log so far; fed blocks of complete records, asked for snapshots."""

    def __init__(self, source: str, stall_after_s: float | None = None) -> None:
        self.source = source
        self.stall_after_s = stall_after_s
        self.format: str | None = None
        self._epochs_total: int | None = None  # as the log declares it (num_epochs=2, [1/2], ...)
        self._declared_total: int | None = None  # run-wide step count the log declares
        self.binary = False  # the file is not text: nothing in it is read
        self._bytes = LogBytes()  # its byte order (UTF-16 logs are transcoded), NULs dropped
        self.run_index = 0  # runs that started in this log before the current one
        self.segments: deque[RunSegment] = deque(maxlen=MAX_SEGMENTS)
        self._reader = LineReader()
        self._steps_per_epoch: int | None = None  # as the log announces it
        self._begin(None)

    def _begin(self, at: float | None) -> None:
        """Start a run's figures afresh: at the top of the log, or when the job restarted in it."""
        self.started_at: float | None = None
        self.started_from: str | None = None
        self._first_sight = at
        self.step: int | None = None
        self.total: int | None = None
        self.epoch: float | None = None
        self.metrics: dict[str, float] = {}
        self.history: dict[str, Series] = {}
        self.events: deque[TrainEvent] = deque(maxlen=MAX_EVENTS)
        self.last_update: float | None = None
        self._tool_rate: float | None = None
        self._ema_rate: float | None = None
        self._tool_eta: float | None = None  # tqdm's `<remaining` of the latest progress line
        self._rate_mark: tuple[float, int] | None = None  # (time, step) where the rate window began
        self._rate_logged = False  # the rate window runs on the log's own time stamps
        self._gaps: deque[float] = deque(maxlen=MAX_GAPS)  # seconds between progress lines
        self._step_gaps: deque[int] = deque(maxlen=MAX_GAPS)  # steps between progress lines
        self._logged_last: float | None = None  # the log's own time of the latest progress line
        self._redraws = 0
        self._redraws_per_block = 0
        self._bar_full = False  # the latest bar with a total had reached it
        self._forgotten: tuple[int, int] | None = None  # (step, total) of a full bar taken for other work
        self._bar_seen = (0, 0)  # (total, progress lines seen with it): one line is no run's bar
        self._bar_step: int | None = None  # the position the latest progress bar drew
        self._run_next = -(1 << 62)  # next step whose SpecForge position run feeds history
        self._sequence = 0  # x position for metrics seen before any step
        self._gates: dict[tuple[str, str], tuple[int, int]] = {}  # shape -> [last, next) step
        self._watcher = FailureWatcher()
        self._open: set[EventKind] = set()  # event kinds whose episode has not ended yet
        self._after_crash = 0  # progress lines seen since a crash (a closing bar redraw is one)
        self._truncated = False  # the file was cut or replaced since the last progress
        # the mark every line carries (srun's `0: `, a quote's `> `), once decided: False for none
        self._mark: re.Pattern[str] | Literal[False] | None = None
        self._replay_to: int | None = None  # a notebook bar's step: the table under it is history
        self._lead_rank: int | None = None  # the lowest rank whose lines the log prints

    # Feeding -----------------------------------------------------------------------------
    def feed(self, block: bytes, at: float, window: bool = False) -> None:
        """Parse a block of complete records (as LineBuffer returns them) seen at time `at`;
        `window`: a sample of a long log, itself one history point (no redraws kept beyond it)."""
        block = self._bytes.text(block)
        if self.binary or (self.format is None and looks_binary(block)):
            self.binary = self._bytes.binary = True
            return
        opening = block[:MARK_SCAN_BYTES] if self._mark is None else b""
        if opening.strip():  # the mark is decided on the lines as written, their redraws and all
            self._mark = paste_mark(opening.decode("utf-8", "replace")) or False
        stride = max((series.stride for series in self.history.values()), default=1)
        filled = max((len(series.points) for series in self.history.values()), default=0)
        # Superseded records sampled from this block: many until the charts have a start.
        samples = REDRAW_SAMPLES if filled >= MAX_POINTS // 2 else MAX_POINTS // 2
        # Redraws in this block, guessed from the last one (counting costs a pass over it).
        expected = self._redraws_per_block or len(block) // ASSUMED_REDRAW_BYTES
        keep_every = SAMPLE_NONE if window else max(stride, expected // samples)
        data, seen = collapse_redraws(block, keep_every, self._redraws)
        self._redraws_per_block, self._redraws = seen - self._redraws, seen
        text = data.decode("utf-8", "replace")
        if self._first_sight is None:
            self._first_sight = at
        if self._mark:
            text = self._mark.sub("", text)
        if self.started_from is None and text:
            self._find_start(text)
        watch = block_has_hint(text)
        ranked = "[default" in text or "[rank" in text
        if watch or ranked:  # rare: line by line, so failures, steps and ranks keep their order
            self._feed_lines(text.split("\n"), at, watch, ranked)
        else:
            self._watcher.remember(text[-CONTEXT_BYTES:].split("\n"))
            self._feed_fast(text, stride, samples, at)

    def _find_start(self, text: str) -> None:
        """Date the current run by the first timestamp its log prints, while it has none."""
        found = first_timestamp(text[:STAMP_SCAN_BYTES])
        if found is not None:
            self.started_at, self.started_from = found, "log timestamps"

    def date_from_file(self, born: float | None, modified: float) -> None:
        """Date a caught-up log's current run by the file's times when its log prints none: the
        file's creation for its first run, else (a restart read in the catch-up) its last write."""
        if self.started_from is not None:
            return
        if born and self.run_index == 0:
            self.started_at, self.started_from = born, "file creation time"
        else:
            self.started_at, self.started_from = modified, "file modification time"

    def _feed_fast(self, text: str, stride: int, samples: int, at: float) -> None:
        """A block without failure hints: SpecForge position runs found in bulk (and, like bar
        redraws, only sampled when a later run in the block supersedes them); the rest by line."""
        runs = list(specforge_step_runs(text))
        if runs:
            stride = max(stride, (runs[-1][2] - runs[0][2]) // samples)
        done = 0
        for i, (start, end, step) in enumerate(runs):
            if start > done + 1:
                self._feed_lines(text[done:start].split("\n"), at, watch=False, ranked=False)
            done = end
            if i + 1 < len(runs) and self._run_next > step >= self._run_next - stride:
                continue
            self._run_next = step + stride
            self.apply(specforge_step_run(text, start, end, step), at)
        self._feed_lines(text[done:].split("\n"), at, watch=False, ranked=False)

    def _before_failure(self, line: str) -> list[Reading]:
        """What a line printed before the failure glued to it: all of it before a `Traceback`
        (YOLOv7's table row and bar, then `Traceback (most recent call last):`), else the bar it
        starts with (`| 80/100 [...][rank1]: Watchdog caught ...`), else the loss of a run that
        stopped because it was not finite (DeiT's `Loss is nan, stopping training`)."""
        cut = line.find(TRACEBACK)
        if cut > 0 and line[:cut].strip():
            return self._reader.read(line[:cut])
        bar = leading_bar(line)
        if bar is not None:
            return [bar]
        return [reading for reading in self._reader.read(line)
                if not math.isfinite(reading.metrics.get("loss", 0.0))]

    def _feed_lines(self, lines: list[str], at: float, watch: bool, ranked: bool) -> None:
        """Parse lines one by one, merging per-line readings of one step before applying them."""
        pending: Reading | None = None
        others: deque[str] = deque(maxlen=MAX_OTHER_RANK_LINES)  # other ranks' lines since rank 0's last
        for line in lines:
            if watch:  # failures need the step as of their line: apply what came before first
                if pending is not None:
                    self.apply(pending, at)
                    pending = None
                event = self._watcher.feed(line, at, self.step)
                if event or self._watcher.in_traceback:
                    for reading in self._before_failure(line):
                        self.apply(reading, at)
                    if event:
                        self._crash(event)
                    continue  # a failure report's `name: number` parts are not metrics
            if not line:
                continue
            rank = rank_of(line) if ranked else None
            if rank is not None:  # the lowest rank that prints is read (Megatron logs from its last)
                self._lead_rank = rank if self._lead_rank is None else min(rank, self._lead_rank)
                if rank > self._lead_rank:
                    others.append(line)
                    continue
                others.clear()  # (an unprefixed line, a paste's closing fence, leaves them be)
            pending = self._take(self._reader.read(line), line, pending, at)
        # read only after the lead rank's last line: a step only other ranks print moves the run on
        latest = max((step for step in (self.step, pending.step if pending else None) if step is not None),
                     default=-1)
        run_format = pending.format if pending else self.format
        for line in others:
            readings = self._ahead_of_rank0(self._reader.read(line), latest, run_format)
            pending = self._take(readings, line, pending, at)
            latest = max([latest, *(reading.step or 0 for reading in readings)])  # one rank's copy is read
        if pending is not None:
            self.apply(pending, at)
        if watch and (event := self._watcher.flush(at, self.step)):  # a wrapper the block ended on
            self._crash(event)

    def _take(self, readings: list[Reading], line: str, pending: Reading | None, at: float) -> Reading | None:
        """Fold a line's readings into the pending one (same step) or apply it; the new pending."""
        for reading in readings:
            if reading.step is not None and reading.steps_per_s is None:
                reading.logged_at = logged_time(line)
            if pending is None or not merge(pending, reading):
                if pending is not None:
                    self.apply(pending, at)
                pending = reading
        return pending

    @staticmethod
    def _ahead_of_rank0(readings: list[Reading], latest: int, run_format: str | None) -> list[Reading]:
        """Another rank's readings that step past rank 0's latest step, in the run's own format:
        rank 0's copy of a step is the one read, but a log whose later steps only another rank
        prints (torchtitan's `LOG_RANK=2`, Megatron's last rank) still moves on."""
        return [reading for reading in readings if reading.step is not None and reading.step > latest
                and run_format in (None, reading.format)]

    def apply(self, reading: Reading, at: float) -> None:
        """Fold one reading into the state: latest values, progress, history, divergence, end."""
        if reading.format == "key-value" and "crashed" in self._open and not self._beyond(reading):
            return  # nor are the `name: number` lines a launcher prints after a crash
        if reading.step is not None and reading.step > MAX_STEP:
            reading.step = None
        if self._bare_step_back(reading) and (
                (reading.format == "key-value" and reading.total is None and reading.epoch is None)
                # a bare `Step 1:` going back is prose (a model's worked answer printed as a sample)
                or reading.format == "hf-trainer"):  # `Saving model checkpoint to .../checkpoint-200`
            return  # after the bar drew 244: a save printed late (stdout buffered behind the stderr bar)
        if "finished" in self._open and reading.format in BAR_FORMATS and self.total and (
                reading.total and reading.total < self.total) and (
                self._bar_seen[1] > 1 or self.format not in BAR_FORMATS):
            return  # an evaluation bar drawn after the run finished is not the run's position
        if "finished" in self._open and reading.format in BAR_FORMATS and reading.step == self._bar_step:
            return  # the bar's closing redraw after the run said it stopped (Lightning `Trainer.fit`)
        if self._nested_bar(reading) or self._instant_bar(reading):
            return  # HF's unlabelled evaluation bar `| 32/63 [...]` under the training's 500/1000
        if reading.format in BAR_FORMATS and reading.step is not None:
            self._bar_step = reading.step
        if reading.format == "hf-notebook":
            self._replay_to = reading.step
        if reading.format not in GENERIC_FORMATS or self.format in (None, *GENERIC_FORMATS):
            self.format = reading.format
        if self._bar_full and not reading.done and reading.format not in BAR_FORMATS and (
                (reading.step is not None and reading.step != self.step)
                or ("loss" in reading.metrics and self._bar_seen[1] <= 1)):
            self._forget_bar()
        self._run_wide(reading)
        if reading.done and reading.step is None and self.step is None:
            self._recall_bar(reading)
        if self._restarted(reading):
            self._restart(at)
            if reading.logged_at is not None:  # dated by its first line, not the next block's
                self.started_at, self.started_from = reading.logged_at, "log timestamps"
        if reading.step is not None:
            self._truncated = False
        progressed = False
        if reading.step is not None and reading.step != self.step:
            self._progress(reading.step, at, reading.logged_at)
            self.step = reading.step
            progressed = True
        if reading.epoch is not None and reading.epoch != self.epoch:
            self.epoch = reading.epoch
            progressed = progressed or reading.step is None
        if reading.total:
            self.total = reading.total
        if reading.steps_per_s:
            self._tool_rate = reading.steps_per_s
        if reading.step is not None:
            self._tool_eta = reading.remaining_s
        if reading.step is not None and reading.total:
            # only a bar can be a preprocessing one: OLMo's last `[step=1000/1000]` is the run's
            self._bar_full = reading.step >= reading.total and reading.format in BAR_FORMATS
            seen = self._bar_seen[1] + 1 if reading.total == self._bar_seen[0] else 1
            self._bar_seen = (reading.total, seen)
        if progressed:
            self.last_update = at
            self._after_crash += "crashed" in self._open
            # One bar line after a crash is the bar's closing redraw; a second, or any other
            # progress line, is a job that went on (the failure was caught): running again.
            redraw = reading.format in BAR_FORMATS and self._after_crash < 2
            if "crashed" in self._open and not redraw:
                self._survived()
            ended = {"stalled"} if "crashed" in self._open and redraw else {
                "stalled", "crashed"}
            # a bar drawn full after the run said it stopped is its closing redraw, not more training
            # (Lightning's `Trainer.fit` stopped: `max_steps=10` reached.` prints before tqdm's last draw)
            closing = reading.format in BAR_FORMATS and reading.total is not None and reading.step == reading.total
            self._open -= ended if reading.done or closing else ended | {"finished"}
        if reading.rounded:
            reading.metrics = {k: v for k, v in reading.metrics.items() if not self._rounded_repeat(k, v)}
        metrics = reading.metrics
        if metrics:
            if len(self.metrics) < MAX_METRICS:
                self.metrics.update(metrics)
            else:  # a log full of one-off names must not grow memory: track known names only
                self.metrics.update((k, v) for k, v in metrics.items() if k in self.metrics)
            self._record_history(reading)
            loss = metrics.get("loss")
            if loss is not None:
                self._check_loss(loss, reading, at)
        if reading.done or self._last_step_read(reading):
            self._once("finished", "training finished" + (f" at step {self.step}"
                       if self.step is not None else ""), reading, at)

    def _rounded_repeat(self, name: str, value: float) -> bool:
        """Whether a summary's figure is the one already read, rounded (W&B's `learning_rate 0.0` for the last
        dict's 1.1e-07): the precise figure stays."""
        known = self.metrics.get(name)
        return known is not None and abs(known - value) <= ROUNDING

    def _bare_step_back(self, reading: Reading) -> bool:
        """Whether a reading names a step behind the run's, with no figure, in a log read whole: a
        line that only mentions a step, which restarts nothing when it is prose or a late notice."""
        return (not reading.metrics and reading.step is not None and self.step is not None
                and reading.step < self.step and not self._truncated)

    def _beyond(self, reading: Reading) -> bool:
        """Whether a reading is training after a failure line: a step past the last one read (a
        launcher's report after a crash names no later step), a first step after a warning read as
        a failure (aws-ofi-nccl's `NCCL WARN NET/OFI ... initialization failed` before verl's first
        `step:0`), or a step with its figures, the job run again in the same log (a restart)."""
        if reading.step is not None:
            return self.step is None or reading.step > self.step or bool(reading.metrics)
        return reading.epoch is not None and self.epoch is not None and reading.epoch > self.epoch

    def _nested_bar(self, reading: Reading) -> bool:
        """Whether a bar is drawn inside the training's bar: a shorter one, without an epoch,
        while the latest bar (a longer one) is still short of its total."""
        bar_total, _ = self._bar_seen
        return (reading.format in BAR_FORMATS and reading.epoch is None and reading.total is not None
                and self._bar_step is not None and 0 < reading.total < bar_total
                and self._bar_step < bar_total)

    def _instant_bar(self, reading: Reading) -> bool:
        """Whether a bar of another count than the run's ran its whole count in under a second: data
        work (`datasets`' `100%| 25000/25000 [00:00<00:00, 26335.95it/s]` after the training's 760/760,
        a W&B output.log keeping only each bar's last draw), never the run's position."""
        return (reading.format in BAR_FORMATS and self.step is not None and reading.total is not None
                and reading.total != self.total and reading.step == reading.total
                and reading.steps_per_s is not None and reading.total < reading.steps_per_s * INSTANT_S)

    def _last_step_read(self, reading: Reading) -> bool:
        """Whether this reading reaches the run's last step: the run-wide total (a per-epoch bar's
        own total ends only its epoch, unless the log declared how many there are). A total announced
        after the run's step already reached it (`trainer_state.json`'s `max_steps`, written below
        its history) ends it too."""
        step = reading.step if reading.step is not None else self.step if reading.total else None
        if step is None or not self.total or step < self.total:
            return False
        per_epoch = reading.format in PER_EPOCH_POSITIONS and reading.epoch is not None
        return not per_epoch or bool(self._declared_total or self._epochs_total)

    def _restarted(self, reading: Reading) -> bool:
        """Whether this reading starts the job again in the same log: after the file was cut or
        replaced, a run that had ended or a step counter that went back; else the counter went
        back after the run ended (crashed or finished), to its start after a stall, or, for
        formats without per-epoch bars, to the first half of where it was (not when the epoch moved
        on: PyTorch's MNIST `Train Epoch: 2 [0/60000 (0%)]` counts the epoch's samples again)."""
        if reading.step is None or self.step is None:
            return False
        if self._truncated and (self._open & ENDED or reading.step <= self.step):
            return True
        if reading.step >= self.step:
            return False
        if self._replay_to is not None and reading.format == "table" and reading.step <= self._replay_to:
            return False  # the HF notebook's `Step  Training Loss` rows under its bar
        if self._open & {"crashed", "finished"}:
            return not (reading.total and self.total and reading.total != self.total)
        next_epoch = reading.epoch is not None and reading.epoch > (self.epoch or 0)
        if "stalled" in self._open and reading.step <= 1 and not next_epoch:
            return True
        return not next_epoch and reading.format not in BAR_FORMATS and reading.step <= self.step // 2

    def truncated(self) -> None:
        """The file was truncated or replaced: a step counter going back now is a new run."""
        self._truncated = True

    def _restart(self, at: float) -> None:
        """Close the current run as it ended and begin the next one."""
        self.segments.append(RunSegment(
            index=self.run_index, status=self.status(), step=self.step, total_steps=self.total,
            last_update=self.last_update, started_at=self.started_at,
            started_from=self.started_from, events=tuple(self.events),
        ))
        self.run_index += 1
        self._begin(at)

    def _run_wide(self, reading: Reading) -> None:
        """Per-epoch bars restart at 0 each epoch (SpecForge `Training Epoch e`, Lightning): once
        the log declares the epoch count or the total steps, count steps across the whole run."""
        metrics = reading.metrics
        for key in EPOCH_COUNT_KEYS:
            if metrics.get(key, 0) >= 1 and math.isfinite(metrics[key]):
                self._epochs_total = int(metrics[key])
        if reading.total and reading.step is None:  # `total_steps: N` said once, up front
            self._declared_total = reading.total
        per_epoch_said = metrics.get("steps_per_epoch", 0)
        if per_epoch_said >= 1 and math.isfinite(per_epoch_said):
            self._steps_per_epoch = int(per_epoch_said)
        if self._steps_per_epoch and reading.step is not None and reading.epoch is None:
            reading.epoch = reading.step / self._steps_per_epoch
        if reading.format not in BAR_FORMATS or reading.epoch is None or not reading.total:
            return
        per_epoch = reading.total
        total = self._declared_total or per_epoch * (self._epochs_total or 0)
        if total <= per_epoch:
            return
        within = reading.step or 0
        # the bar's own epoch: its fraction less what the bar has done (epoch 0 at 100/100 reads
        # 1.0 as a fraction, yet its steps are still epoch 0's)
        reading.step = within + max(0, round(reading.epoch - within / per_epoch)) * per_epoch
        reading.total = total
        reading.remaining_s = None  # the bar's estimate covers its epoch only

    def _forget_bar(self) -> None:
        """A bar completed and training lines went on: it was preprocessing or evaluation
        (`Map: 100% 7/7`), so its step and total are not the run's and it finished nothing."""
        if self.step is not None and self.total:
            self._forgotten = (self.step, self.total)
        self.step, self.total = None, self._declared_total
        self._bar_full = False
        self._open.discard("finished")
        if self.events and self.events[-1].kind == "finished":
            self.events.pop()

    def _recall_bar(self, summary: Reading) -> None:
        """The full bar forgotten when training lines went on was the run's after all when the
        run's summary counts its steps: W&B's output.log prints a finished bar above the dicts it
        covers, and HF's `train_runtime` x `train_steps_per_second` is the run's max_steps
        (transformers trainer_utils.py speed_metrics: `round(num_steps / runtime, 3)`)."""
        runtime = summary.metrics.get("train_runtime")
        rate = summary.metrics.get("train_steps_per_second")
        if self._forgotten is None or not runtime or not rate:
            return
        step, total = self._forgotten
        # the rate printed to 3 decimals, the runtime to 4 (a string value may round it to whole seconds)
        if abs(runtime * rate - total) <= runtime * 5e-4 + rate * 0.5 + 1:
            self.step, self.total = step, total

    def _record_history(self, reading: Reading) -> None:
        """Add a reading's metrics to their series when its step passes the gate of readings of
        its shape (format and first key): one test per reading, not one per metric."""
        x = self.step if self.step is not None else self._sequence
        self._sequence += 1
        metrics = reading.metrics
        shape = (reading.format, next(iter(metrics)))
        gate = self._gates.get(shape)
        if gate is not None and gate[0] <= x < gate[1]:
            return
        stride = 1 << 62
        for name, value in metrics.items():
            series = self.history.get(name)
            if series is None:
                if len(self.history) >= MAX_METRICS:
                    continue
                series = self.history[name] = Series()
            series.add(x, value)
            if series.stride < stride:
                stride = series.stride
        if len(self._gates) < MAX_METRICS or shape in self._gates:
            self._gates[shape] = (x, x + stride)

    def _progress(self, step: int, at: float, logged: float | None = None) -> None:
        """Update the smoothed steps/s and the usual interval between progress lines; the rate
        runs on the lines' own time stamps when they carry them (a log read after the fact)."""
        if logged is not None and self._logged_last is not None and logged > self._logged_last:
            self._gaps.append(logged - self._logged_last)  # the log's own clock (read late too)
        elif logged is None and self.last_update is not None and at > self.last_update:
            self._gaps.append(at - self.last_update)  # arrival times, while following
        if self.step is not None and step > self.step:
            self._step_gaps.append(step - self.step)
        self._logged_last = logged if logged is not None else self._logged_last
        clock = logged if logged is not None else at
        if (self._rate_mark is None or step < self._rate_mark[1]
                or self._rate_logged != (logged is not None)):
            self._rate_mark, self._rate_logged = (clock, step), logged is not None
            return
        since, first = self._rate_mark
        if clock - since >= MIN_RATE_WINDOW_S:
            rate = (step - first) / (clock - since)
            self._ema_rate = rate if self._ema_rate is None else (
                RATE_SMOOTHING * rate + (1 - RATE_SMOOTHING) * self._ema_rate)
            self._rate_mark = (clock, step)

    def _check_loss(self, loss: float, reading: Reading, at: float) -> None:
        """A nan/inf loss opens a divergence episode; a finite one closes it."""
        if math.isfinite(loss):
            self._open.discard("diverged")
            return
        where = f" at step {self.step}" if self.step is not None else ""
        self._once("diverged", f"loss is {loss}{where}", reading, at)

    def _once(self, kind: EventKind, message: str, reading: Reading, at: float) -> None:
        """Record an event unless an episode of that kind is open or just ended at this step."""
        if kind in self._open:
            return
        self._open.add(kind)
        if any(e.kind == kind and e.step == self.step for e in list(self.events)[-3:]):
            return
        line = f"{reading.format}: " + ", ".join(f"{k}={v}" for k, v in reading.metrics.items())
        self.events.append(TrainEvent(kind, message, line, at, self.step, abstract(message)))

    def _crash(self, event: TrainEvent) -> None:
        """One crash event per failure: a follow-on line of the same failure adds nothing but a
        more specific kind, which the event takes."""
        if "crashed" not in self._open:
            self._open.add("crashed")
            self._after_crash = 0
            self.events.append(event)
            return
        crashes = [i for i, seen in enumerate(self.events) if seen.kind == "crashed"]
        if crashes and (sharp := sharper(self.events[crashes[-1]], event)):
            self.events[crashes[-1]] = sharp

    def _survived(self) -> None:
        """A failure the job went on past is neither how its run ended nor a crash it reports
        (`train status` shows none): its event goes (FreeVC's DataLoader worker segfault, then
        the next epoch)."""
        crashes = [i for i, seen in enumerate(self.events) if seen.kind == "crashed"]
        if crashes:
            del self.events[crashes[-1]]

    # Reading out -------------------------------------------------------------------------
    def steps_per_s(self) -> float | None:
        """The tool's own rate when it prints one (tqdm smooths it), else the measured average."""
        return self._tool_rate or self._ema_rate

    def step_interval(self) -> float | None:
        """The median seconds between progress lines: from the log's timestamps or arrival
        times, else (a log read in one go, its lines all seen at once) from its steps/s."""
        if self._gaps:
            return median(self._gaps)
        rate = self.steps_per_s()
        if rate and self._step_gaps:
            return median(self._step_gaps) / rate
        return None

    def stall_limit(self) -> float:
        """Seconds without progress after which the job counts as stalled."""
        return stall_limit_s(self.step_interval(), self.stall_after_s)

    def check_stall(self, now: float) -> None:
        """Raise a stalled event once when progress has been silent for too long."""
        if self.last_update is None or self._open & {"crashed", "finished", "stalled"}:
            return
        idle = now - self.last_update
        if idle <= self.stall_limit():
            return
        where = f" at step {self.step}" if self.step is not None else ""
        if self._bar_full:  # an epoch bar that completed and then silence: the job ended
            self._open.add("finished")
            message = f"training finished{where} (bar complete, then no output for {idle:.0f} s)"
            self.events.append(TrainEvent("finished", message, "", now, self.step))
            return
        self._open.add("stalled")
        message = f"no progress for {idle:.0f} s{where}"
        self.events.append(TrainEvent("stalled", message, "", now, self.step, abstract(message)))

    def status(self) -> RunStatus:
        """The most serious open episode, else running (or waiting before any progress)."""
        if self._watcher.in_traceback:  # a log that ends inside a traceback: the run died there
            return "crashed"
        for kind in ("crashed", "diverged", "finished", "stalled"):
            if kind in self._open:
                return cast(RunStatus, kind)
        return "running" if self.metrics or self.step is not None else "waiting"

    def eta_s(self) -> float | None:
        """Seconds to the last step: what the bar says when it says it, else at the current rate."""
        if self.total is None or self.step is None:
            return None
        if self.step >= self.total:
            return 0.0
        if self._tool_eta is not None:
            return self._tool_eta
        rate = self.steps_per_s()
        return (self.total - self.step) / rate if rate else None

    def snapshot(self, now: float, caught_up: bool = True, progress: float = 1.0) -> TrainSnapshot:
        """An immutable picture of the state, for the UI thread and the CLI."""
        self.check_stall(now)
        metrics = dict(self.metrics)
        status = self.status()
        # A stalled run shows no rate (it is not moving) and only a running one has an ETA.
        return TrainSnapshot(
            source=self.source, format=self.format, step=self.step, total_steps=self.total,
            epoch=self.epoch, loss=metrics.get("loss"), lr=metrics.get("lr"),
            grad_norm=metrics.get("grad_norm"), acc=acc_positions(metrics),
            metrics=MappingProxyType(metrics), steps_per_s=None if status == "stalled" else self.steps_per_s(),
            eta_s=self.eta_s() if status == "running" else None, last_update=self.last_update,
            status=status, events=tuple(self.events),
            history=MappingProxyType({k: tuple(s.points) for k, s in self.history.items()}),
            caught_up=caught_up, progress=progress, run_index=self.run_index,
            ended_runs=tuple(self.segments),
            started_at=self.started_at if self.started_from else self._first_sight,
            started_from=self.started_from or ("first sight" if self._first_sight else None),
            seen_at=now, step_interval_s=self.step_interval(), stall_after_s=self.stall_limit(),
            problem=NOT_TEXT if self.binary else None,
        )
