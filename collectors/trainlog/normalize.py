"""One normalisation for every training-log line, before any recogniser sees it: logger and
launcher prefixes stripped (by logtext's one stripper, which reads SageMaker's `#015` as the `\\r`
it stands for), thousands separators dropped (`5,856` -> `5856`), tensors printed as is read as their number
(`tensor(6.8830, device='cuda:2')` -> `6.8830`)."""

from __future__ import annotations

import re

from sessiontui.collectors.logtext import clean

_THOUSANDS = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")
# A PyTorch tensor printed as is: `tensor(6.8830, device='cuda:2')`, `tensor(0.5, grad_fn=<...>)`.
_TENSOR = re.compile(r"tensor\(\s*([-+]?(?:\d[\d.]*(?:[eE][-+]?\d+)?|nan|inf))(?:,[^()]*(?:\([^()]*\))?[^()]*)?\)")


def normalize(line: str) -> str:
    """The payload of a raw log line, as every recogniser expects it."""
    text = clean(line)
    if "tensor(" in text:
        text = _TENSOR.sub(r"\1", text)
    if "," in text:
        text = _THOUSANDS.sub("", text)
    if "\\|" in text:  # pasted from a Markdown table: `0%\|##3 \|` is a bar's `0%|##3 |`
        text = text.replace("\\|", "|")
    return text
