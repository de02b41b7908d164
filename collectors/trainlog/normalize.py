"""One normalisation for every training-log line, before any recogniser sees it: logger and
launcher prefixes of every common shape stripped, SageMaker's `#015` read as the `\\r` it stands
for, thousands separators dropped (`5,856` -> `5856`), tensors printed as is read as their number
(`tensor(6.8830, device='cuda:2')` -> `6.8830`)."""

from __future__ import annotations

import re

from sessiontui.collectors.logtext import clean

_LEVEL = r"(?:INFO|WARNING|WARN|ERROR|DEBUG|CRITICAL|NOTICE)"
# Each shape, tried in turn at the head of the line until none matches (prefixes stack up:
# `[rank0]:[titan] 2025-06-16 22:30:48,735 - root - INFO - `).
_HEADS = re.compile(
    r"^\s*(?:"
    r"\[[^\]\n]{1,60}\]<std(?:out|err)>:"  # mpirun/SageMaker `[1,mpirank:0,algo-1]<stdout>:`
    r"|\[[^\]\n]{0,40}\d\d:\d\d:\d\d[^\]\n]{0,40}\]:?"  # `[05:27:23.812437]`, `[11/01 11:27:04 d2]:`
    rf"|\[{_LEVEL}\b[^\]\n]{{0,80}}\]:?"  # nanotron `[INFO|DP=0|PP=0|TP=0]:`
    r"|\[[\w.:-]{1,40}\]:"  # srun `[0434:0]:`, `[default0]:`
    r"|\[(?:titan|rank\s?\d+|Rank \d+)\]"  # torchtitan `[titan]`, Lightning `[rank: 0]`
    r"|\[rank: \d+\]"
    r"|\d\d/\d\d(?:/\d{2,4})? \d\d:\d\d:\d\d(?:[.,]\d+)?"  # mmengine `04/21 21:03:52`
    r"|\d{4}[-/]\d\d[-/]\d\d[T ][\d:.,]+(?:Z|[+-]\d\d:?\d\d)?(?: \|)?"  # time stamp
    r"|\d\d:\d\d:\d\d(?:[.,]\d+)?(?=\s)"  # a bare clock `20:39:20 [Epoch: 50] ...`
    r"|DLL \d{4}-\d\d-\d\d [\d:.]+ -"  # NVIDIA DLLogger
    rf"|(?:-\s*)?(?:[\w.]+ - )?{_LEVEL} - (?:[\w.]+ - )?"  # `root - INFO - `, `- mmdet - INFO - `
    rf"|{_LEVEL}:[\w.]+:"  # `INFO:__main__:`, `INFO:tensorflow:`
    r")\s*"
)
_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")
# A PyTorch tensor printed as is: `tensor(6.8830, device='cuda:2')`, `tensor(0.5, grad_fn=<...>)`.
_TENSOR = re.compile(r"tensor\(\s*([-+]?(?:\d[\d.]*(?:[eE][-+]?\d+)?|nan|inf))(?:,[^()]*(?:\([^()]*\))?[^()]*)?\)")
MAX_HEADS = 6  # prefixes stripped from one line at most


def normalize(line: str) -> str:
    """The payload of a raw log line, as every recogniser expects it."""
    if "#015" in line:  # SageMaker logs write each `\r` as `#015`: keep what a terminal shows
        segments = [segment for segment in line.split("#015") if segment.strip()]
        line = segments[-1] if segments else ""
    text = clean(line)
    for _ in range(MAX_HEADS):
        match = _HEADS.match(text)
        if match is None or not match.group(0):
            break
        text = text[match.end():]
    if "tensor(" in text:
        text = _TENSOR.sub(r"\1", text)
    if "," in text:
        text = _THOUSANDS.sub("", text)
    if "\\|" in text:  # pasted from a Markdown table: `0%\|##3 \|` is a bar's `0%|##3 |`
        text = text.replace("\\|", "|")
    return text
