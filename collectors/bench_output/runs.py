"""Runs of one tool a user pasted one after another, each under a label line they typed (`main:`,
`PR:`, `commit abc123`, `with -rtr`, `**baseline**`, `## Run 2`, `rtr=yes`): one rule for every
reader whose results are runs of lines, so each run is its own record, named by its label."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

# A line a user typed over a run, never one a tool prints: Markdown bold or a heading; words ending
# in a colon (`main:`, `` `-c 8192 -fa`: ``); settings alone (`rtr=yes`); or words without a tool's
# marks (`commit 24c010b3 (last known good)`, `before`, a diff's `---`): tools' lines carry `:`,
# `=`, `|` or `[` inside them, or are dots (a model's loading progress), a sentence's full stop
# (`Starting warmup with 1 sequences...`) or a section title between rules (`-----TTFT-----`); nor is
# a command the user ran (`$ ...`, `❯ ...`, `./...`, `python ...`, a line continued by `\`, two `--flags`).
_LABEL = re.compile(
    r"(?![-=]{3,}[^\n]*\w[^\n]*[-=]{3,}$)(?![^\n]*\w[^\n]*[.!?]$)(?![$❯>]|\./|python|[^\n]*\\$|[^\n]* --\w[^\n]* --\w)"
    r"(?:\*\*[^*\n]+\*\*:?|#{1,6}[ \t]+\S[^\n]*"
    r"|[^:=|\[\]\n]*[^\s:=|\[\]\n]:"
    r"|[\w.+-]+=[\w.+-]+(?:[ \t,]+[\w.+-]+=[\w.+-]+)*"
    r"|[^:=|\[\]\n.]*[^\s:=|\[\]\n.][^:=|\[\]\n]*)"
)
_DECORATION = "*#` \t:"
_TAG = re.compile(r"<[^<>\n]*>")  # HTML a paste kept (`<details><summary>No RTR</summary>`): no name


@dataclass
class Run:
    """The lines of one run and the label lines the user typed above it, from line `start` on."""

    start: int = 0
    labels: list[str] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    complete: bool = False

    @property
    def label(self) -> str | None:
        """The run's name: its first label line and its last (`commit 24c010b3 · rtr=yes`), or None."""
        names = (_TAG.sub("", label).strip() for label in self.labels)
        named = [name for name in names if any(c.isalpha() for c in name)]
        return " · ".join(dict.fromkeys(named[:1] + named[-1:])) or None

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


def is_label(line: str) -> bool:
    """Whether a line is one a user typed to name a run (see _LABEL), not one a tool printed."""
    return bool(line.strip()) and bool(_LABEL.fullmatch(line.strip()))


def labels_apart(lines: list[str]) -> frozenset[int]:
    """The indexes of label lines standing apart: the text's first line, or under a blank line or
    another such label (the tools print label-like lines inside their blocks, never apart so)."""
    found: set[int] = set()
    for index, line in enumerate(lines):
        # (where a line stands first: the label pattern's look-aheads cost ~18 µs a line)
        if (not index or not lines[index - 1].strip() or index - 1 in found) and is_label(line):
            found.add(index)
    return frozenset(found)


def labelled_runs(text: str, completes: Callable[[int, str], bool], apart: bool = False) -> list[Run]:
    """The runs of a text: a label line standing between complete runs (the run above holds a
    line `completes`, given its index and text, says ends a result) starts a new one; with
    `apart`, only a label standing apart (labels_apart: the known tools print label-like lines
    inside their blocks, `Per-position acceptance (%):`). Labels above a run
    name it; when two or more stand together, all but the last are an outer name (`commit
    24c010b3`) kept for the runs after it (`rtr=yes`, then `rtr=no`) until another replaces it."""
    lines = text.split("\n")
    standing = labels_apart(lines) if apart else frozenset(i for i, line in enumerate(lines) if is_label(line))
    runs = [Run()]
    outer: list[str] = []
    for index, line in enumerate(lines):
        run = runs[-1]
        if index in standing:
            if run.complete:
                run = Run(start=index)
                runs.append(run)
            run.labels.append(line.strip().strip(_DECORATION))
        else:
            if line.strip() and run.labels and not run.text.strip():  # the labels over this run are all read
                if len(run.labels) > 1:
                    outer = run.labels[:-1]
                elif outer and len(runs) > 1:
                    run.labels[:0] = outer
            run.lines.append(line)
            run.complete = run.complete or completes(index, line)
    return [run for run in runs if run.complete]


def run_labels(text: str, completes: Callable[[int, str], bool], apart: bool = False) -> list[tuple[int, str | None]]:
    """(first line, label) of each run the text holds when it holds two or more, else []."""
    runs = labelled_runs(text, completes, apart)
    return [(run.start, run.label) for run in runs] if len(runs) > 1 else []


def label_of(starts: list[tuple[int, str | None]], line: int) -> str | None:
    """The label of the run (of run_labels) that holds a line."""
    return next((label for start, label in reversed(starts) if start <= line), None)
