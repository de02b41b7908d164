"""The serving-benchmark result layout SGLang and vLLM share: the printed block and JSON keys.

Both tools print `{:<40} {:<10}` label/value lines between a `==== Serving Benchmark Result ====`
line and a line of `=`, with `----Section----` headings (sglang/bench_serving.py,
vllm/benchmarks/serve.py); their JSON results use the same metric names.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from sessiontui.collectors.bench_output.common import figures_of, number, present, slug, whole
from sessiontui.project_memory.records import Record

# `==== Serving Benchmark Result ====`, SGLang's `== Offline Throughput Benchmark Result ==`
# (its `=` rules may be lost in a paste: ` Serving Benchmark Result ` alone on its line, or commented
# out with the closing rule: `#==== Serving Benchmark Result ====`)
_BLOCK_START = re.compile(r"^(?:#?=+ *)?(?:[A-Za-z][\w -]*? )?Benchmark Result(?: *=+)?\s*$")
# The title over a label SGLang or vLLM prints first under it: the title alone claims no output (a
# Go load tester prints it, behind log timestamps, over labels of its own).
OWN_TITLE = (r"Benchmark Result(?: =+)?[ \t]*\r?\n[ \t]*"
             r"(?:Backend|Successful requests|Traffic request rate|Max request concurrency)\b")


def own_json(keys: str) -> str:
    """A pattern for a JSON result with `output_throughput` after one of the tool's own `keys`
    (vLLM's `model_id`, SGLang's `backend`): the key alone is any script's."""
    return rf'"(?:{keys})\w*"\s*:[\s\S]{{0,4000}}?"output_throughput"'


_RULE = re.compile(r"^#?={10,}\s*$")  # the closing line: 50 `=` as printed, at least 10 if cut
_SECTION = re.compile(r"^-{3,}\s*(.*?)\s*-{3,}\s*$")
_LABEL_VALUE = re.compile(r"^\s*([^:]+?)\s*:\s*(\S.*?)\s*$")


@dataclass
class Block:
    """One `==== Benchmark Result ====` block: its labelled values in order, with their section."""

    start: int
    rows: list[tuple[str, str, str]] = field(default_factory=list)  # (section, label, raw value)
    closed: bool = False  # its closing line of `=` was printed: the block is complete
    end: int = 0  # the offset after its last line read

    def get(self, *labels: str) -> str | None:
        """The raw value of the first of `labels` present (labels compared in lower case)."""
        wanted = {label.lower() for label in labels}
        return next((raw for _, label, raw in self.rows if label.lower() in wanted), None)

    def labels(self) -> set[str]:
        """All labels of the block, lower case."""
        return {label.lower() for _, label, _ in self.rows}


def result_blocks(text: str) -> Iterator[Block]:
    """Every result block; one cut before its closing line comes out with `closed` False, and
    a paste that starts inside one, below its title, is that block."""
    titled = "Benchmark Result" in text
    inside = None if titled else _start_inside_a_block(text)
    if not titled and inside is None:
        return
    block: Block | None = None if inside is None else Block(start=inside)
    section = ""
    offset = 0
    for line in text.splitlines(keepends=True):
        stripped = line.strip()
        if offset < (inside or 0):  # a command or a sentence above the cut block
            offset += len(line)
            continue
        if _BLOCK_START.match(stripped):
            if block is not None and block.rows:
                block.closed = block.closed or _after_a_closing_rule(stripped)
                yield block
            block, section = Block(start=offset), ""
        elif block is not None and _RULE.match(stripped):
            block.closed, block.end = True, offset + len(line)
            if block.rows:
                yield block
            block = None
        elif block is not None:
            heading = _SECTION.match(stripped)
            pair = _LABEL_VALUE.match(line)
            if heading:
                section = " ".join(heading.group(1).split())
            elif pair:  # a label copied from a rendered page may hold doubled spaces (`Output  token`)
                block.rows.append((section, " ".join(pair.group(1).split()), pair.group(2)))
                block.end = offset + len(line)
            elif stripped.endswith(":"):
                section = stripped[:-1]
        offset += len(line)
    if block is not None and block.rows:
        yield block


# a value a README's template prints where a run's number goes (`xxx`, `XX.XX`, `<value>`)
_PLACEHOLDER = re.compile(r"[xX?]{2,}(?:\.[xX?]+)?|<[^<>\d]*>")


def without_templates(text: str) -> str:
    """The text without result blocks a README shows as templates (a value a placeholder, as
    `Benchmark duration (s):  xxx`): no run, and no cut block, so a table of the real results
    below it is read as the result. A template ends at its closing rule or its first blank line
    (the tools print none inside a block)."""
    for block in reversed(list(result_blocks(text))):
        if any(_PLACEHOLDER.fullmatch(raw.strip()) for _, _, raw in block.rows):
            blank = _BLANK_LINE.search(text, block.start, block.end)
            text = text[:block.start] + text[blank.end() if blank else block.end:]
    return text


_BLANK_LINE = re.compile(r"\n[ \t]*\n")


def _after_a_closing_rule(title: str) -> bool:
    """Whether a title line begins with the previous block's closing rule glued on (ten `=` or
    more beyond the title's own fill, a paste that lost the line break between two blocks)."""
    return len(title) - len(title.lstrip("=")) >= len(title) - len(title.rstrip("=")) + 10


_OUTPUT_RATE_LINE = re.compile(r"(?im)^[ \t]*Output token throughput \(tok/s\):")
# a block's `----Time to First Token----` heading, not a script's `--- concurrency=4 ---` banner over a run
_SECTION_LINE = re.compile(r"(?m)^[ \t]*-{3,}[^-\n=]+-{3,}[ \t]*$")


def _start_inside_a_block(text: str) -> int | None:
    """Where a paste cut above a block's title starts that block: its first `label: value` line
    (a command or a sentence may come before) when it is one of the block's own labels and the
    paste holds its output rate and a `----Section----` heading; None for any other paste."""
    if not (_OUTPUT_RATE_LINE.search(text) and _SECTION_LINE.search(text)):
        return None
    offset = 0
    for line in text.splitlines(keepends=True):
        if pair := _LABEL_VALUE.match(line):
            return offset if pair[1].lower() in _BLOCK_FIGURES.keys() | _BLOCK_FIELDS else None
        offset += len(line)
    return None


# Figure names shared by the SGLang and vLLM serving benchmarks, printed label -> figure.
_BLOCK_FIGURES = {
    "total token throughput (tok/s)": "total_tok_s",
    "total throughput (tok/s)": "total_tok_s",  # SGLang before 0.4
    "input token throughput (tok/s)": "prompt_tok_s",
    "request throughput (req/s)": "request_throughput",
    "request goodput (req/s)": "request_goodput",
    "peak output token throughput (tok/s)": "peak_output_tok_s",
    "peak concurrent requests": "peak_concurrent_requests",
    "benchmark duration (s)": "bench_duration_s",
    "successful requests": "completed_requests",
    "failed requests": "failed_requests",
    "total input tokens": "total_input_tokens",
    "total generated tokens": "total_output_tokens",
    "concurrency": "mean_concurrency",
    "traffic request rate": "request_rate",
    "request rate configured (rps)": "request_rate",
    "drafts": "drafts",
    "draft tokens": "draft_tokens",
    "accepted tokens": "accepted_tokens",
}
# Labels that become record fields rather than figures.
_BLOCK_FIELDS = frozenset(
    {
        "output token throughput (tok/s)",
        "max request concurrency",
        "max reqeuest concurrency",
        "maximum request concurrency",
        "accept length",
        "acceptance length",
        "backend",
    }
)
# The same figures under their names in the tools' JSON results.
_JSON_FIGURES = {
    "total_throughput": "total_tok_s",
    "total_token_throughput": "total_tok_s",
    "input_throughput": "prompt_tok_s",
    "request_throughput": "request_throughput",
    "request_goodput": "request_goodput",
    "max_output_tokens_per_s": "peak_output_tok_s",
    "max_concurrent_requests": "peak_concurrent_requests",
    "duration": "bench_duration_s",
    "completed": "completed_requests",
    "failed": "failed_requests",
    "total_input_tokens": "total_input_tokens",
    "total_output_tokens": "total_output_tokens",
    "concurrency": "mean_concurrency",
    "request_rate": "request_rate",
}
_LATENCY_NAMES = {
    "ttft": "ttft",
    "tpot": "tpot",
    "itl": "itl",
    "e2e latency": "e2e",
    "e2el": "e2e",
    "e2e_latency": "e2e",
}
# SGLang's offline embeddings block prints `Average e2e latency (s)`: the mean, in seconds
_PRINTED_LATENCY = re.compile(r"^(mean|average|median|std|max|min|p\d+(?:\.\d+)?)\s+(.+?)\s*\((ms|s)\)$", re.I)
_JSON_LATENCY = re.compile(r"^(mean|median|std|max|min|p\d+(?:\.\d+)?)_(.+)_ms$")
_POSITION = re.compile(r"^(?:position\s+)?(\d+)$", re.I)  # `Position 0:`, or `0:` (vllm#51742)
TOTAL_LABELS = ("total token throughput (tok/s)", "total throughput (tok/s)")


def complete_block_records(
    text: str, problems: list[str], source_format: str, keep: Callable[[Block], bool],
    record_of: Callable[[str, Block], Record | None],
) -> list[Record]:
    """Records of the result blocks `keep` accepts; a block cut before its closing line is stored
    with what it printed and marked `partial`; one whose headline (output token throughput)
    was not printed whole is reported in `problems`."""
    records = []
    for block in result_blocks(text):
        if not keep(block):
            continue
        record = record_of(text, block)
        if record is None:  # said, so that no other reader guesses at a block its tool printed
            problems.append(cut_block(block, source_format) if not block.closed else
                            f"{source_format}: result block without a whole output token "
                            "throughput, not stored")
            continue
        if not block.closed:
            record.partial = missing_parts(block)
        records.append(record)
    return records


def cut_block(block: Block, source_format: str) -> str:
    """What to say about a block cut before its headline figure: nothing of it is stored."""
    last = block.rows[-1][1] if block.rows else "its header"
    return (f"{source_format}: result block cut after `{last}`, before its output token "
            "throughput (no closing line), not stored")


def missing_parts(block: Block) -> list[str]:
    """What a block cut before its closing line may lack: the total throughput when it was not
    printed, and the section it stopped in with every section the tools print after it."""
    missing = [] if block.get(*TOTAL_LABELS) is not None else ["total_tok_s"]
    last_section = block.rows[-1][0].lower() if block.rows else ""
    if "speculative" in last_section or "position" in last_section:
        return [*missing, "speculative decoding"]
    return [*missing, "latency"]


def _latency_name(stat: str, quantity: str) -> str:
    """`ttft_ms_p99`-style figure name for a latency statistic."""
    quantity = _LATENCY_NAMES.get(quantity.lower(), slug(quantity))
    return f"{quantity}_ms_{slug(stat)}"


def block_figures(block: Block) -> dict[str, float]:
    """Every figure of a serving result block except those kept as record fields."""
    pairs: list[tuple[str, object]] = []
    for section, label, raw in block.rows:
        key = label.lower()
        latency = _PRINTED_LATENCY.match(label)
        position = _POSITION.match(label)
        if key in _BLOCK_FIELDS:
            continue
        if latency:
            stat, quantity, unit = latency.groups()
            value = number(raw) if unit.lower() == "ms" else _milliseconds(raw)
            pairs.append((_latency_name("mean" if stat.lower() == "average" else stat, quantity), value))
        elif position and "position" in section.lower():
            pairs.append((f"accept_pos_{int(position.group(1)) + 1}", _percent(raw)))
        elif key == "acceptance rate (%)":
            pairs.append(("acceptance_rate", _percent(raw)))
        else:
            pairs.append((_BLOCK_FIGURES.get(key, slug(label)), raw))
    return figures_of(pairs)


def json_figures(result: dict[str, Any]) -> dict[str, float]:
    """The throughput and latency figures of a JSON benchmark result."""
    pairs: list[tuple[str, object]] = []
    for key, value in result.items():
        latency = _JSON_LATENCY.match(key)
        if key in _JSON_FIGURES:
            pairs.append((_JSON_FIGURES[key], value))
        elif latency:
            pairs.append((_latency_name(*latency.groups()), value))
    return figures_of(pairs)


def _milliseconds(raw: str) -> float | None:
    """A time printed in seconds, in milliseconds."""
    value = number(raw)
    return None if value is None else value * 1000.0


def _percent(raw: str) -> float | None:
    """A printed percentage as a fraction (85.00 -> 0.85)."""
    value = number(raw)
    return None if value is None else value / 100.0


def position_figures(rates: Iterable[object]) -> dict[str, float]:
    """Per-position acceptance fractions as `accept_pos_1`, `accept_pos_2`, ..."""
    return figures_of((f"accept_pos_{i}", rate) for i, rate in enumerate(rates, start=1))


def workload(args: dict[str, str]) -> dict[str, Any]:
    """Model, dataset and (for random datasets) lengths from a printed argparse Namespace."""
    dataset = present(args.get("dataset_name"))
    fields: dict[str, Any] = {"model": present(args.get("model")), "dataset": dataset}
    if dataset and dataset.startswith("random"):
        fields["input_len"] = whole(args.get("input_len")) or whole(args.get("random_input_len"))
        fields["output_len"] = whole(args.get("output_len")) or whole(args.get("random_output_len"))
    return {name: value for name, value in fields.items() if value is not None}


def is_vllm_json(result: dict[str, Any]) -> bool:
    """Whether a JSON result has vLLM's `--save-result` layout (SGLang's lacks these keys)."""
    return "model_id" in result or any(key.startswith("spec_decode_") for key in result)
