"""How well the readers survive the ways a real paste differs from the log it was copied from.

For every corpus entry of one family, each transform below is applied alone (a Markdown fence,
CRLF, a BOM, ANSI colour, a logger prefix on every line, prose around the paste, warnings
interleaved, trailing spaces, tabs, NBSP), the result re-read, and the entry's unchanged
expectations checked. No transform cuts, reorders or changes a figure. A per-line transform
changes each `\n` line (a `\r` redraw is part of its line, as a terminal's log keeps it); a
prefix frames the non-blank lines. CRLF is applied only to files that decode as UTF-8.

`--reading-right` measures robustness alone (issue 24): only the entries that read right today
(not in the corpus tests' KNOWN_MISSES), so each failure listed is one a framing caused.

    python benchmarks/format_robustness.py                   # training logs
    python benchmarks/format_robustness.py --family bench    # benchmark outputs (crash: tails)
    python benchmarks/format_robustness.py -v                # and each failure, with why
    python benchmarks/format_robustness.py --reading-right -t rank0 -t quoted -t logging -t compose
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT))
import format_accuracy as accuracy  # type: ignore[import-not-found]  # noqa: E402
import format_accuracy_bench as bench  # type: ignore[import-not-found]  # noqa: E402

Transform = Callable[[str], str]
ESC = "\x1b"
_NUMBER = re.compile(r"(?<![\w.])[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?(?![\w.])")
_LABEL = re.compile(r"\b([A-Za-z][\w/ ]{0,24}?)(?=\s*[:=]\s*[-+\d])")
_SEPARATOR_SPACE = re.compile(r"(?<=[,|;]) ")
WARNINGS = [
    "/usr/lib/python3/dist-packages/torch/utils/data/dataloader.py:558: UserWarning: This DataLoader"
    " will create 8 worker processes in total. Our suggested max number of worker in current"
    " system is 4, which is smaller than what this DataLoader is going to create.",
    "  warnings.warn(_create_warning_msg(",
    "node1:12345:12399 [0] NCCL INFO Channel 00/02 :    0   1   2   3   4   5   6   7",
    "node1:12345:12399 [0] NCCL INFO Connected all rings",
    "[W socket.cpp:663] [c10d] The client socket has failed to connect to [localhost]:29500"
    " (errno: 99 - Cannot assign requested address).",
]


def _lines(text: str) -> list[str]:
    """The paste's `\n` lines, each with its own ending (its `\r` redraws inside it)."""
    return text.split("\n")


def _per_line(change: Callable[[str], str]) -> Transform:
    """A transform that changes each line's body and keeps its ending."""
    def apply(text: str) -> str:
        out = []
        for line in _lines(text):
            body = line.removesuffix("\r")
            out.append(change(body) + line[len(body):])
        return "\n".join(out)
    return apply


def _prefixed(prefix: str) -> Transform:
    """Every non-blank line under one logger or launcher prefix."""
    return _per_line(lambda body: prefix + body if body.strip() else body)


def _fenced(opening: str) -> Transform:
    """The paste inside a Markdown code fence, as in an issue."""
    return lambda text: f"{opening}\n{text.rstrip(chr(10))}\n```\n"


def _coloured(text: str) -> str:
    """Labels bold, numbers green (rich's and loguru's console colours)."""
    text = _LABEL.sub(lambda m: f"{ESC}[1m{m[1]}{ESC}[0m", text)
    return _NUMBER.sub(lambda m: f"{ESC}[32m{m[0]}{ESC}[0m", text)


def _interleaved(text: str) -> str:
    """Warning lines after the first line and again half-way (at a line boundary)."""
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    block = [warning + "\n" for warning in WARNINGS]
    middle = max(1, len(lines) // 2)
    return "".join(lines[:1] + block + lines[1:middle] + block + lines[middle:])


def _tabbed_prose(text: str) -> str:
    """Prose around the paste written with tabs, and a tab after each field separator
    (`, `, `| `, `; `) as an editor's paste leaves them."""
    body = _per_line(lambda line: _SEPARATOR_SPACE.sub("\t", line))(text.rstrip("\n"))
    return f"Here\tis\tmy\tlog:\n\t{body}\n\tany\tidea\twhat\tis\twrong?\n"


def _nbsp(body: str) -> str:
    """A web page's copy: spaces after `:`/`=` and runs of spaces kept by `&nbsp;`."""
    body = re.sub(r"(?<=[:=]) ", "\u00a0", body)
    return re.sub(r"  ", "\u00a0 ", body)


TRANSFORMS: dict[str, Transform] = {
    "none (control)": lambda text: text,
    "fence ```": _fenced("```"),
    "fence ```text": _fenced("```text"),
    "fence ```log": _fenced("```log"),
    "fence ```bash": _fenced("```bash"),
    "indented block (4 spaces)": _prefixed("    "),
    "indented block (tab)": _prefixed("\t"),
    "CRLF": lambda text: re.sub(r"\r?\n", "\r\n", text),
    "BOM": lambda text: "\ufeff" + text,
    "ANSI colour": _per_line(_coloured),
    "prefix logging": _prefixed("2024-05-01 10:00:00,123 - INFO - "),
    "prefix [rank0]:": _prefixed("[rank0]: "),
    "prefix sagemaker": _prefixed("[1,mpirank:0,algo-1]<stdout>:"),
    "prefix compose": _prefixed("trainer-1  | "),
    "prefix slurm 0:": _prefixed("0: "),
    "prefix glog": _prefixed("I1201 10:00:00.123456 12345 train.py:88] "),
    "quoted > ": _prefixed("> "),
    "details block": lambda text: f"<details><summary>full log</summary>\n\n```\n{text.rstrip(chr(10))}\n```\n</details>\n",
    "command line before": lambda text: f"$ torchrun --nproc_per_node=8 train.py --config cfg.yaml\n{text}",
    "prose around": lambda text: f"Here is my log:\n\n{text.rstrip(chr(10))}\n\nany idea what is wrong?\n",
    "warnings interleaved": _interleaved,
    "trailing spaces": _per_line(lambda body: body + "   "),
    "tabs for space runs": _per_line(lambda body: re.sub(r" {2,}", "\t", body)),
    "tabs in prose": _tabbed_prose,
    "NBSP": _per_line(_nbsp),
}
SCORERS: dict[str, accuracy.Scorer] = {
    "train": accuracy.score_train, "bench": bench.score_bench, "crash": bench.score_crash}


UTF8_ONLY = frozenset({"CRLF"})  # transforms a file in another encoding cannot take as text


def known_misses(family: str) -> set[str]:
    """The entries the corpus tests list as still read wrong (`bNN/file`)."""
    if family == "train":
        from tests.collectors.test_trainlog_corpus import KNOWN_MISSES as train_misses
        return set(train_misses)
    from tests.collectors.test_bench_output_corpus import KNOWN_MISSES as bench_misses
    return {name.removeprefix(f"{family}/") for name in bench_misses if name.startswith(f"{family}/")}


def entries(family: str, reading_right: bool = False) -> list[tuple[dict, Path]]:
    """Every corpus entry of one family with its file (only those read right today, if asked)."""
    misses = known_misses(family) if reading_right else set()
    return [(entry, index.parent / entry["file"])
            for index, data in accuracy.load_batches(family)
            for entry in data.get("output", [])
            if f"{index.parent.name}/{entry['file']}" not in misses]


def is_utf8(raw: bytes) -> bool:
    """Whether a file decodes as UTF-8 (not a UTF-16 log)."""
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def score(scorer: accuracy.Scorer, entry: dict, text: str, folder: Path) -> tuple[bool, str]:
    """(right, why not) for one transformed paste, read from a file as a user's would be."""
    path = folder / "paste.log"
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    try:
        return scorer(entry, path)
    except Exception as exc:  # noqa: BLE001 - a crash is a wrong reading, counted with the rest
        return False, f"{type(exc).__name__}: {exc}"


def main(argv: list[str] | None = None) -> int:
    """Print right/total per transform and for the family."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--family", choices=tuple(SCORERS), default="train")
    parser.add_argument("-t", "--transform", action="append",
                        help="only the transforms whose name contains this (repeatable)")
    parser.add_argument("--reading-right", action="store_true",
                        help="only entries read right today (not KNOWN_MISSES); list each failure")
    parser.add_argument("-v", "--verbose", action="store_true", help="list each failure")
    args = parser.parse_args(argv)
    scorer = SCORERS[args.family]
    found = [(entry, path, path.read_bytes()) for entry, path in entries(args.family, args.reading_right)]
    right_all = total_all = 0
    failures: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, transform in TRANSFORMS.items():
            if args.transform and not any(part in name for part in args.transform):
                continue
            right = total = 0
            for entry, path, raw in found:
                if name in UTF8_ONLY and not is_utf8(raw):
                    continue
                text = raw.decode("utf-8", "surrogateescape")
                ok, why = score(scorer, entry, transform(text), Path(tmp))
                right, total = right + ok, total + 1
                if not ok:
                    failures.append(f"    {name}: {path.parent.name}/{entry['file']}: {why[:160]}")
            print(f"{args.family} {name:26} {right}/{total}")
            right_all += right
            total_all += total
    if failures and (args.verbose or args.reading_right):
        print("\n".join(failures))
    print(f"{args.family} overall: {right_all}/{total_all} right")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
