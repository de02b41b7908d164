"""One normalisation for every training-log line, before any recogniser sees it: logger and
launcher prefixes stripped (by logtext's one stripper, which reads SageMaker's `#015` as the `\\r`
it stands for), thousands separators dropped (`5,856` -> `5856`), tensors printed as is read as their number
(`tensor(6.8830, device='cuda:2')` -> `6.8830`), a figure, name or any span a paste set in Markdown bold or
inline code read bare (`**4.7581**` -> `4.7581`, `<**78:02:42, 281.24s/it]**` -> `<78:02:42, 281.24s/it]`),
a web page's no-break spaces read as spaces and trailing blanks dropped, and a line copied from a page's
HTML source read with its entities decoded (`&quot;loss&quot;` -> `"loss"`).
A log whose every line carries SLURM's `srun -l` task label (`0: `) is recognised as such from its
opening lines, and the labels dropped."""

from __future__ import annotations

import html
import re

from sessiontui.collectors.logtext import clean
from sessiontui.collectors.trainlog.vocabulary import CHINESE_NAMES

# A mark a whole paste carries on each line: `srun -l`'s task label (`0: `, a few task numbers
# repeated, where a script's own `100: loss 2.5` puts a different step on each line), or a quote a
# paste was kept in (a Markdown `> `, shell `# `, `// `; a blank quoted line is a bare `>`), or a
# diff's `+` on each added line (a log committed in a pull request, shown as its diff; in colour, as
# `git diff --color` prints it, after its escape code).
_PASTE_MARK = re.compile(r"^[ \t]*(?:(\d{1,4}): |(>|#|//)(?: |$)|(?:\x1b\[[\d;]*m)*(\+))", re.MULTILINE)
_WRAPPER = re.compile(r"\s*(?:(?:```|~~~)[\w-]*|</?details>.*|<summary>.*)\s*")  # a paste's wrapping lines
LABEL_SCAN_LINES = 200  # opening lines that decide whether a log carries a mark
LABELLED_SHARE = 0.8  # of its non-blank lines carry it
LINES_PER_TASK = 4  # at least, per distinct task label
# An HTML entity left in a line copied from a page's source (`{&quot;epoch&quot;: 27`, `&lt;stdout&gt;`).
_ENTITY = re.compile(r"&(?:quot|amp|lt|gt|apos|nbsp|#\d{2,4}|#x[\da-fA-F]{2,4});")
_SEPARATOR_TAB = re.compile(r"(?<=[,;|])\t+")
# `5,856`, `1,234,567.5`: a whole number grouped by threes, not a CSV row's cells (`0.001,149,`,
# `12,345,0.5`, `1,125,,0.55`: after a decimal, or before another comma and a figure, an empty cell
# or the row's end).
_GROUPED_DIGITS = re.compile(r"\d,\d{3}")  # what every grouped number holds: most lines skip _THOUSANDS' look-behinds
_THOUSANDS = re.compile(r"(?<![\w.,])\d{1,3}(?:,\d{3})+(?!\d|,\d|,,|,$)")
# A comma that ends a cell for sure (`,0.59865`, `,lr`, `,,`): no group of three digits after it. In a
# line with one and no `, `, every comma is a cell's: Ultralytics' results.csv writes `199,100.06,0.598`
# (engine/trainer.py save_metrics: epoch, seconds so far, `f"{x:.6g}"` joined by `,`), not 199100.06.
_CELL_COMMA = re.compile(r",(?!\d{3}(?!\d))")
# A PyTorch tensor printed as is: `tensor(6.8830, device='cuda:2')`, `tensor(0.5, grad_fn=<...>)`;
# a NumPy 2 scalar's repr, as a printed dict of them shows each (`{'loss': np.float64(0.5)}`: numpy 2.0's
# NEP 51 repr, `print(metrics)` of `np.mean` results).
_TENSOR = re.compile(r"(?:tensor|np\.(?:float|int|uint)\d{1,3})\(\s*([-+]?(?:\d[\d.]*(?:[eE][-+]?\d+)?|nan|inf))"
                     r"(?:,[^()]*(?:\([^()]*\))?[^()]*)?\)")

# A figure or a name a user set in Markdown bold (or italics) in a pasted line: `'loss': **4.7581**`
# (unsloth#344), `- **Train Loss**: 0.51`; not a banner's `*****`, a product `2*3*4` or `__init__`.
_EMPHASIS = re.compile(r"(?<![\w*])(?:(\*{1,2})(?P<name>[A-Za-z][\w/.@-]*(?: [\w/.@-]+){0,3})\1"
                       r"|(\*{1,2}|__)(?P<figure>[-+]?\d[\d.]*(?:[eE][-+]?\d+)?)\3)(?![\w*])")
# Emphasis or inline code around any other span of a pasted line, bar parts included (open-r1#161's
# `| 1/1000 [04:41<**78:02:42, 281.24s/it]**`, `` `loss: 0.5` ``): the span read bare. A span in `__`
# holds a figure or a blank, so a name such as `__init__` or `__main__` stays as it is.
_SPAN_MARK = re.compile(r"(?<![\w*`])(\*\*|`)(?=[^\s*`])([^`\n]+?)(?<=[^\s*`])\1(?![\w*`])"
                        r"|(?<!\w)__(?=\S)([^_\n]*[\d\s][^_\n]*?)(?<=\S)__(?!\w)")
# A position numbered with `#` (a custom loop's `print(f"Epoch #{epoch} Loss: {loss}")`, `Step #200`):
# the name and its number, as any loop prints them.
_NUMBERED = re.compile(r"(?<![\w#])(epoch|step|iter(?:ation)?|batch|update)\s?#\s?(?=\d)", re.IGNORECASE)

# A CJK input method's full-width punctuation (`Loss：1.98`, `，`) read as its ASCII form; a name
# the vocabulary knows in Chinese, standing before its colon, read as the English name.
_FULL_WIDTH = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)}
_CHINESE_NAME = re.compile(rf"(?<!\w)({'|'.join(CHINESE_NAMES)})(?=\s*:)")


def normalize(line: str) -> str:
    """The payload of a raw log line, as every recogniser expects it."""
    text = clean(html.unescape(line) if "&" in line and _ENTITY.search(line) else line)
    if not text.isascii():
        text = _CHINESE_NAME.sub(lambda name: CHINESE_NAMES[name[1]], text.translate(_FULL_WIDTH))
    if "tensor(" in text or "np." in text:
        text = _TENSOR.sub(r"\1", text)
    if "," in text and (", " in text or not _CELL_COMMA.search(text)) and _GROUPED_DIGITS.search(text):
        text = _THOUSANDS.sub(lambda grouped: grouped[0].replace(",", ""), text)
    if "#" in text:
        text = _NUMBERED.sub(r"\1 ", text)
    if "\t" in text:  # a tab after a field's separator stands for its space (`11,\t4.3969`)
        text = _SEPARATOR_TAB.sub(" ", text)
    if "*" in text or "__" in text:
        text = _EMPHASIS.sub(lambda emphasis: emphasis["name"] or emphasis["figure"], text)
        if "**" in text or "__" in text:
            text = _SPAN_MARK.sub(lambda span: span[2] or span[3], text)
    if "`" in text:
        text = _SPAN_MARK.sub(lambda span: span[2] or span[3], text)
    if "\xa0" in text:
        text = text.replace("\xa0", " ")
    text = text.rstrip()
    if "\\|" in text:  # pasted from a Markdown table: `0%\|##3 \|` is a bar's `0%|##3 |`
        text = text.replace("\\|", "|")
    return text


def opening_lines(text: str, redraws_in_line: bool = False) -> list[str]:
    """The first non-blank lines of a text: what decides whether a mark is on every line;
    `redraws_in_line`: a line's `\r` redraws are part of it, not lines of their own."""
    if redraws_in_line:
        opening = [line.replace("\r", "") for line in text.split("\n", LABEL_SCAN_LINES * 2)[:LABEL_SCAN_LINES * 2]]
    else:
        opening = re.split(r"[\r\n]", text, maxsplit=LABEL_SCAN_LINES * 2)[:LABEL_SCAN_LINES * 2]
    return [line for line in opening if line.strip()][:LABEL_SCAN_LINES]


def paste_mark(text: str) -> re.Pattern[str] | None:
    """The mark a log's opening lines nearly all start with (srun task labels, few distinct; or
    one quote mark), and a second one inside it (a diff kept in a Markdown quote: `> +Epoch 1/5`),
    as the pattern that removes them from every line; None without one."""
    outer = _one_mark(text)
    inner = _one_mark(outer.sub("", text)) if outer else None
    if outer and inner:
        return re.compile(f"{outer.pattern}(?:{inner.pattern.removeprefix('^')})?", re.MULTILINE)
    return outer


def _one_mark(text: str) -> re.Pattern[str] | None:
    """The outermost mark nearly every opening line starts with (a lone line's quote too); None
    without one. The lines a paste is wrapped in (a Markdown fence, `<details>`) are not the log's
    and do not count, nor do the bars a line redraws after its `\r`: a quote or a task label marks
    the line, not each redraw."""
    lines = [line for line in opening_lines(text, redraws_in_line=True) if not _WRAPPER.fullmatch(line)]
    marks = [match for line in lines if (match := _PASTE_MARK.match(line))]
    if len(marks) < min(2, len(lines)) or len(marks) < LABELLED_SHARE * len(lines):
        return None  # a one-line paste may be quoted (`> 'loss': 0.5, ...`); a task label needs more
    labels = {match[1] for match in marks}
    if None not in labels and len(marks) > 1 and len(labels) <= max(1, len(marks) // LINES_PER_TASK):
        return re.compile(r"^[ \t]*\d{1,4}: ", re.MULTILINE)
    quotes = {match[2] or match[3] for match in marks}
    if quotes == {"+"}:
        return re.compile(r"^[ \t]*(?:\x1b\[[\d;]*m)*\+", re.MULTILINE)
    if len(quotes) == 1 and None not in quotes:
        return re.compile(rf"^[ \t]*{re.escape(quotes.pop())}(?: |$)", re.MULTILINE)
    return None
