"""Benchmark results read from the benchmark tools' own output, as benchmark records."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from types import ModuleType

from sessiontui.collectors.bench_output import (
    aisbench,
    declared,
    generic,
    guidellm,
    llamacpp,
    sglang,
    tgi,
    trtllm,
    vllm,
)
from sessiontui.collectors.bench_output.common import (
    forget_matches,
    to_text,
    trim_cut_tail,
    without_logger_prefix,
)
from sessiontui.collectors.bench_output.runs import label_of, labelled_runs, run_labels
from sessiontui.collectors.bench_output.serving import without_templates
from sessiontui.collectors.logtext import clean
from sessiontui.project_memory.records import LARGEST, Record

_FAMILIES = (sglang, vllm, trtllm, llamacpp, guidellm, tgi, aisbench)
_SERVER_LOG = ".server_log"
_SETTING_HEADING = re.compile(
    r"[#=*\s-]*(?P<name>(?:max(?:imum)?[ _-]?)?concurrency|request[ _-]?rate|qps)\s*[=:]?\s*"
    r"(?P<value>\d+(?:\.\d+)?)[#=*:\s-]*", re.IGNORECASE)
# `c=1`, `Concurrency: 64` among a heading's or a bold settings line's other settings
_LOAD_NAMED = re.compile(r"(?<![\w-])(?:c|conc|concurrency)\s*[=:]\s*(\d+)(?![\d.])", re.IGNORECASE)
# `..., TP1, BF16 compute, concurrency 1, AIPerf GSM8K, ...`: the load as one item of a listed run's settings
_LISTED_LOAD = re.compile(r"[,;(]\s*(?:max(?:imum)?[ _-]?)?concurrency\s*[=:]?\s*(\d+)\s*(?=[,;)]|\.?\s*$)",
                          re.IGNORECASE)
# a sentence's concurrency: `Concurrency is 4.`, `concurrency=4.`, `at a concurrency of 8`, `8 concurrent
# requests`; not one value of a list (`concurrency 1, 4 and 16`, `4-16`)
_PROSE_LOAD = re.compile(r"\bconcurrency\s*(?:=|:|\bis\b|\bof\b|\bat\b)?\s*(\d+)(?!\.?\d|\s*(?:[,/-]|and|or|to)\s*\d)"
                         r"|(?<![\d.])(\d+)\s+concurrent\s+(?:requests|users|clients|sessions)\b", re.IGNORECASE)
_FIGURE_LINE = re.compile(r"\s*[-*>]*\s*[A-Za-z][\w ()/-]*:\s*[\d.]+\s*")  # `Maximum request concurrency: 4`
_SENTENCE = re.compile(r"\s*[A-Za-z][\w',]*(?:\s+[\w',]+){2,}\s*[.?!]")  # three words or more, then `?`
_LABEL_END = re.compile(r"[\w)\]]\s*[:=,]$")  # `throughput:`, `tg =`: a value should follow
KNOWN_FORMATS: tuple[str, ...] = (
    *(name for family in _FAMILIES for name in family.FORMATS), *generic.FORMATS)


@dataclass(frozen=True)
class ParseResult:
    """The results found in an output (those cut short marked `partial`), and one line per result
    left out because its headline figure was not printed whole (or per figure no run measures)."""

    records: list[Record] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def read_benchmark_output(data: str | bytes) -> ParseResult:
    """Every result in a tool's output, and what was left out.

    A result is whole when its block printed its closing line or every field its format always
    prints; one cut short keeps every figure printed whole and names what it lacks in
    `partial`, and is left out only when its headline figure (the throughput, or the tool's
    main rate) is missing. Lines a `[[formats]]` declaration with a `{value}` field matches are
    read by it alone. Output cut mid-write (a last line without its line break that may end
    inside a number) is read without that line. Server-log summaries only stand in for a
    benchmark client: when the same output also holds the client's own results (a script that
    starts the server and runs the benchmark), only those are returned, since the client
    measured what was asked for.
    """
    whole = to_text(data)
    text = trim_cut_tail(whole)
    if user_declared := declared.parse(text):  # the user's declaration wins for its lines
        return ParseResult(user_declared)
    try:
        parsed = _read(text, cut=text != whole or _ends_in_a_label(text))
        if not parsed.records and (inner := _json_text(text)):  # a wrapper's `"raw_output": "..."`
            return _read(trim_cut_tail(to_text(inner)))
        return parsed
    except Exception as exc:  # a reader's bug must cost the user a refusal in words, not a traceback
        return ParseResult(problems=[f"the reader failed on this output ({type(exc).__name__}: {exc}); "
                                     "nothing stored: please report it with the output"])
    finally:
        forget_matches()


def _json_text(text: str) -> str:
    """The text lines a JSON document of no known result shape holds in its strings (a wrapper
    script's `{"success": true, "raw_output": "...\\n=== Serving Benchmark Result ===\\n..."}`),
    in document order; "" when the text is no JSON document or holds no string of several lines."""
    if text.lstrip()[:1] not in ("{", "["):
        return ""
    try:
        document = json.loads(text)
    except ValueError:
        return ""
    if flat := _pytorch_benchmark_figures(document):
        return json.dumps(flat, indent=2)
    return "\n".join(value for value in _strings(document) if "\n" in value.strip())


def _pytorch_benchmark_figures(document: object) -> dict[str, object]:
    """The one JSON object of results a PyTorch benchmark-database list holds (vLLM's `*.pytorch.json`,
    vllm/benchmarks/lib/utils.py convert_to_pytorch_benchmark_format: one `{"metric": {"name":
    "tokens_per_second", "benchmark_values": [1035.2], "extra_info": {...}}}` per figure, the run's
    other results in each `extra_info`), as the tool's own `--output-json` prints it; {} for another
    document. A metric of several values (`latency`'s per-iteration samples) is a sample, no figure."""
    if not isinstance(document, list) or not all(
            isinstance(entry, dict) and isinstance(entry.get("metric"), dict) for entry in document):
        return {}
    flat: dict[str, object] = {}
    for entry in document:
        metric = entry["metric"]
        extra = metric.get("extra_info")
        flat.update({key: value for key, value in (extra if isinstance(extra, dict) else {}).items()
                     if isinstance(value, int | float) and not isinstance(value, bool)})
        values = metric.get("benchmark_values")
        if isinstance(metric.get("name"), str) and isinstance(values, list) and len(values) == 1:
            flat[metric["name"]] = values[0]
    return flat


def _strings(value: object) -> Iterator[str]:
    """Every string value of a parsed JSON document, in order."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _ends_in_a_label(text: str) -> bool:
    """Whether the last line is a label without its value (`eval`, `throughput:`; not a `====`
    rule), behind a logger prefix or not: a paste cut there. A sentence the user wrote below the
    output (`any idea what is wrong?`) is no label: the output's own last line above it is read."""
    above, _, last = text.rstrip().rpartition("\n")
    last = clean(last).rstrip()
    if _SENTENCE.fullmatch(last):
        return bool(above.strip()) and _ends_in_a_label(above)
    return bool(_LABEL_END.search(last)) or (
        any(c.isalpha() for c in last) and not any(c.isdigit() for c in last))


def _read(text: str, cut: bool = False) -> ParseResult:
    """The results of one output's text, each family tried in turn (see read_benchmark_output)."""
    records: list[Record] = []
    problems: list[str] = []
    text = without_templates(text)
    plain = without_logger_prefix(text)  # the known tools' blocks, also when printed through a logger
    for family in _FAMILIES:
        try:
            records.extend(family.parse(plain, problems))
        except Exception as exc:  # a layout we did not foresee must not cost the other formats
            problems.append(f"{_name(family)}: unreadable layout ({exc!r})")
    claimed = [family for family in _FAMILIES if family.MARKERS.search(plain)]
    if not records and not problems:
        if claimed:  # a known tool's output without a complete result: not read another way
            problems.append(f"{_name(claimed[0])}: output without a complete result")
        else:  # no known format: labelled lines, read by their names
            records = _without_talk(text, cut) or generic.parse(text, problems, prompt_only=not cut)
    elif records:  # another tool's result pasted above or below a known one's
        records.extend(_other_tools_results(text, records))
    if not records and problems and plain != text and not claimed:  # a title another tool printed
        records = generic.parse(text, [], prompt_only=not cut)
        problems = [] if records else problems
    client = [r for r in records if not (r.source_format or "").endswith(_SERVER_LOG)]
    if client and len(client) < len(records):
        client.extend(_labelled_server_runs(plain))
    kept = _with_prose_load(plain, _with_printed_load(plain, _in_printed_order(text, client or records)))
    _named_by_user_labels(plain, kept)
    return ParseResult(kept, problems + _drop_unmeasurable_figures(kept))


def _named_by_user_labels(text: str, records: list[Record]) -> None:
    """Records without a name, of runs a user pasted under labels they typed (`main:` over one
    vLLM block, `PR:` over the next), named by those labels (runs.labelled_runs): each record's
    run is the one where its headline figure is printed, after the record before it."""
    if len(records) < 2 or all(record.config for record in records):
        return
    places, after = [], 0
    for record in records:
        at = _printed_at(text, record.value, after)
        after = at + 1 if at < len(text) else after
        places.append(text.count("\n", 0, at))
    heads = set(places)
    starts = run_labels(text, lambda index, _: index in heads, apart=True)
    for record, line in zip(records, places, strict=True):
        record.config = record.config or label_of(starts, line)


def _drop_unmeasurable_figures(records: list[Record]) -> list[str]:
    """Figures outside what any run measures (a script's queue time counted from the epoch,
    1.7e12 ms) are left out, one line each, so the result they came with can still be stored."""
    dropped = []
    for number, record in enumerate(records, 1):
        for name, value in list(record.figures.items()):
            if not 0 <= value <= LARGEST:
                del record.figures[name]
                dropped.append(f"figure {name} = {value:g} of result {number} (outside 0..{LARGEST:g})")
    return dropped


def _labelled_server_runs(text: str) -> list[Record]:
    """Server-log summaries of runs a label of their own heads (`**Baseline (llama.cpp)**` over
    llama-server's timings, beside `**Main**` over another engine's lines): a run the user named
    apart, not the server side of the client's results."""
    runs = labelled_runs(text, lambda _, line: bool(line.strip()))
    found: list[Record] = []
    for run in runs if len(runs) > 1 else []:
        try:
            records = [record for family in _FAMILIES for record in family.parse(run.text, [])]
        except Exception:  # a layout a format did not foresee, as in _read: nothing from it
            continue
        if records and all((r.source_format or "").endswith(_SERVER_LOG) for r in records):
            for record in records:
                record.config = record.config or run.label
            found.extend(records)
    return found


_PARAGRAPH = re.compile(r"\n[ \t]*\n")
_LONE_HEADING = re.compile(r"[a-z][\w ]{0,30}:")  # `draft:`, `target:` printed over a blank line


def _other_tools_results(text: str, known: list[Record]) -> list[Record]:
    """Results of the blank-line separated paragraphs no known format claims (its marker, or a
    result it reads there), read by their labelled lines: another tool's result pasted above or
    below a known one's (Ollama's `--verbose` lines, then a llama-bench table, or the other way
    round). A heading standing alone as its paragraph (llama.cpp's `draft:` over a blank line)
    opens the known tool's own sections (its draft model's timings), so nothing after it is read.
    A result that repeats a known record's figure, or a server's periodic log, is not another, nor
    is a rate in a user's sentence beside other lines (`i have seen 12 tps at 0` under a question)."""
    figures = {round(value, 2) for record in known for value in (record.value or 0.0, *record.figures.values())}
    found: list[Record] = []
    for paragraph in _PARAGRAPH.split(text):
        if _LONE_HEADING.fullmatch(paragraph.strip()):
            break
        if _claimed(paragraph) or _is_prose(paragraph):
            continue
        words = "\n".join("" if _is_sentence(line.strip()) else line for line in paragraph.split("\n"))
        found.extend(record for record in generic.parse(words, [], prompt_only=False)
                     if not (record.source_format or "").endswith(_SERVER_LOG)
                     and round(record.value or 0.0, 2) not in figures)
    return found


# eight words or more, then `.`, `?` or `!` (inside a closing bracket or quote too: `(... warmup.)`),
# an aside's `)` (`... speed(max peak was 37.8 tokens/s)`), or a lead-in's `:` to the paste below
# (`So the predicted speed is about 5.1 tps.  Which is very close to the actual result:`)
_LABELLED_VALUE = re.compile(r"[A-Za-z)\]]\s*[:=]\s*[-+~]?\.?\d")  # `efficiency: 0.059`, `bs=8`
_PROSE_LINE = re.compile(r"(?:\S+\s+){7,}\S*(?:[.?!][)\]\"'”’]*|\)|:)\s*")
_LEAD_IN = re.compile(r"\s*(?:[A-Za-z][\w'-]*\s+){0,7}[A-Za-z][\w'-]*:\s*")  # `Here is my log:`


def _is_prose(paragraph: str) -> bool:
    """Whether a paragraph is the user's words about the known tool's result, not another tool's:
    sentences (`I see tg speed stays around 72t/s.`), with at most a lead-in (`Here is my log:`)
    or the command they ran (`$ vllm bench serve ...`) beside them."""
    lines = [line.strip() for line in paragraph.splitlines() if line.strip()]
    sentences = [line for line in lines if _is_sentence(line)]
    return bool(sentences) and all(
        line in sentences or _LEAD_IN.fullmatch(line) or line.startswith("$ ") for line in lines)


def _without_talk(text: str, cut: bool) -> list[Record]:
    """The results of the lines that are not the user's sentences (`it claimed 20–35 tok/s while
    also quoting 750 tokens in 133 s.`), when those lines hold any: rates quoted in prose about
    a table or a tool's lines are no runs of their own; [] when no line is prose or only it is."""
    lines = text.split("\n")
    said = without_logger_prefix(text).split("\n")  # a sentence logged with a prefix is one too
    said = said if len(said) == len(lines) else lines
    kept = ["" if _is_sentence(words) else line for line, words in zip(lines, said, strict=True)]
    return generic.parse("\n".join(kept), [], prompt_only=not cut) if kept != lines else []


def _is_sentence(line: str) -> bool:
    """Whether a line is a sentence of words, not a tool's labelled values (vLLM's `Avg prompt
    throughput: 558.7 tokens/s, ... CPU KV cache usage: 0.0%.` ends in a full stop too)."""
    return bool(_PROSE_LINE.fullmatch(line)) and _mostly_words(line) and not _LABELLED_VALUE.search(line)


def _mostly_words(line: str) -> bool:
    """Whether three in four of a line's tokens are words (a letter first, maybe ending in
    punctuation, maybe in brackets, quotes or Markdown's code quotes: `(The`, `conc-1`, `ttft_p95`,
    `warmup.)`, `` `H100 ``)."""
    tokens = [token.strip("()[]\"'“”‘’`") for token in line.split()]
    return sum(bool(re.fullmatch(r"[A-Za-z][\w'-]*[.,;:?!]?", token)) for token in tokens) * 4 >= len(tokens) * 3


def _claimed(paragraph: str) -> bool:
    """Whether a known format marks the paragraph as its own or reads a result from it (one it
    cannot read at all counts as its own: not read another way), behind a logger prefix too."""
    paragraph = without_logger_prefix(paragraph)
    if any(family.MARKERS.search(paragraph) for family in _FAMILIES):
        return True
    try:
        return any(family.parse(paragraph, []) for family in _FAMILIES)
    except Exception:  # a layout a format did not foresee, as in _read
        return True


def _in_printed_order(text: str, records: list[Record]) -> list[Record]:
    """Records of several tools' results pasted one after another, each tool's in the order its
    results were printed: a tool's place is where the first of its headline figures appears."""
    formats = list(dict.fromkeys(record.source_format for record in records))
    if len(formats) < 2:
        return records
    places = {name: min((_printed_at(text, r.value) for r in records if r.source_format == name),
                        default=len(text)) for name in formats}
    return sorted(records, key=lambda record: places[record.source_format])


def _printed_at(text: str, value: float | None, start: int = 0) -> int:
    """Where a figure is first printed from `start` on (`681.3` as `681.30`, `61.0` as `61`), or
    the text's end."""
    if value is None:
        return len(text)
    whole, _, fraction = repr(float(value)).partition(".")
    fraction = fraction.rstrip("0")
    pattern = rf"(?<![\d.]){re.escape(whole)}" + (rf"\.{fraction}0*(?![\d])" if fraction
                                                  else r"(?:\.0*)?(?![\d.])")
    found = re.compile(pattern).search(text, start)
    return found.start() if found else len(text)


_CONTINUED = re.compile(r"\\[ \t]*\r?\n")


def _with_printed_load(text: str, records: list[Record]) -> list[Record]:
    """Records given the load a heading or a printed command above each names (`# request rate
    8`, `## concurrency 64`, `... --max-concurrency 8`) where the block printed none: when there
    is one such line per record, paired in order; one such line alone, or a settings line (`##
    Results (load, c=1, 60s)`, `**Test configuration**: ..., Concurrency: 64`, a sentence listing
    the runs' settings `..., TP1, concurrency 1, ...`), names the load of every result in the paste."""
    commands = _CONTINUED.sub(" ", text)  # a command continued over `\` lines is one line
    loads = [load for line in commands.splitlines() if (load := _load_of(line)) is not None]
    if not loads or len(loads) not in (1, len(records)):
        return records
    for record, load in zip(records, loads * len(records) if len(loads) == 1 else loads, strict=True):
        if record.concurrency is not None or "request_rate" in record.figures:
            continue
        if "request_rate" in load:
            record.figures["request_rate"] = load["request_rate"]
        concurrency = load.get("concurrency")
        if concurrency is not None and concurrency == int(concurrency):
            record.concurrency = int(concurrency)
    return records


def _with_prose_load(text: str, records: list[Record]) -> list[Record]:
    """Records whose block printed no load given the concurrency a sentence above it states
    (`Concurrency is 4.`, `..., ISL=1024, concurrency=4. Results ...`, `with 8 concurrent
    requests`): the nearest such sentence before the record's headline figure and after the
    record before it, so one block's sentence never names the next block's run."""
    after = 0
    for record in records:
        at = _printed_at(text, record.value, after)
        if at < len(text) and record.concurrency is None and "request_rate" not in record.figures:
            stated = [found for line in text[after:at].splitlines() if (found := _prose_concurrency(line))]
            record.concurrency = stated[-1] if stated else None
        after = at + 1 if at < len(text) else after
    return records


def _prose_concurrency(line: str) -> int | None:
    """The one concurrency a line of prose states, or None (a command, a table row, a `label:
    value` figure line, or a list of several values `concurrency 1, 4 and 16`)."""
    if "--" in line or "|" in line or _FIGURE_LINE.fullmatch(line):
        return None
    found = _PROSE_LOAD.findall(line)
    values = {int(a or b) for a, b in found}
    return values.pop() if len(values) == 1 else None


def _load_of(line: str) -> dict[str, float] | None:
    """The concurrency or request rate a heading (not a `Concurrency: 1.00` figure; a script's
    `=== VLLM c=1 rep=1 ===` banner or a `[c=1 rep=1]` settings line too) or a printed command's flags
    set, or None for any other line."""
    run_heading = generic.is_run_heading(line)
    if "--" in line and not run_heading:
        return generic.command_load(line)
    heading = _SETTING_HEADING.fullmatch(line)
    if heading is None and (run_heading or line.lstrip().startswith(("#", "**"))) and (named := _LOAD_NAMED.search(line)):
        return {"concurrency": float(named[1])}
    if heading is None and (listed := _LISTED_LOAD.search(line)):
        return {"concurrency": float(listed[1])}
    whole_load = heading is not None and "." not in heading["value"] and ":" in line  # `concurrency: 4`, not `: 3.98`
    if heading is None or not (line.strip()[0] in "#=*-" or line.rstrip().endswith(":") or whole_load):
        return None
    name = heading["name"].lower()
    return {"request_rate" if "rate" in name or name == "qps" else "concurrency": float(heading["value"])}


def _name(family: ModuleType) -> str:
    """A format family's short name for messages (`sglang`)."""
    return family.__name__.rsplit(".", 1)[-1]


def parse_benchmark_output(data: str | bytes) -> list[Record]:
    """One benchmark record per complete result found in a tool's output; [] if none."""
    return read_benchmark_output(data).records


def derive_config_name(record: Record) -> str:
    """A readable configuration name: the name the output gave the row (`baseline`), engine,
    model, spec algorithm and concurrency (or the request rate of an open-loop run, or the
    batch size), each once (`Config A (bs=8)` is not followed by `bs=8`)."""
    parts = [record.config or "", record.engine or "",
             (record.model or "").rstrip("/").rsplit("/", 1)[-1]]
    if record.spec_algorithm:
        parts.append(record.spec_algorithm.upper())
    rate = record.figures.get("request_rate")
    if record.concurrency is not None:
        parts.append(f"c={record.concurrency}")
    elif rate is not None:
        parts.append(f"rate={rate:g}/s")
    elif record.batch_size is not None:
        parts.append(f"bs={record.batch_size}")
    return " ".join(part for index, part in enumerate(parts)
                    if part and not (index and part in parts[0]))
