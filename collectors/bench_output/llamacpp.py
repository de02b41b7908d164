"""llama.cpp outputs: `llama-bench` (markdown, `-o csv|json|jsonl`), `llama-batched-bench` tables,
llama-server timing and draft-acceptance lines, and `llama-speculative` summaries.

Layouts follow llama.cpp builds b1275-b9700 (tools/llama-bench/llama-bench.cpp,
tools/batched-bench/batched-bench.cpp, tools/server/server.cpp, examples/speculative).
"""

from __future__ import annotations

import csv
import re
from typing import Any

from sessiontui.collectors.bench_output.common import (
    benchmark,
    figures_of,
    json_objects,
    median,
    number,
    slug,
    whole,
)
from sessiontui.collectors.bench_output.runs import labelled_runs
from sessiontui.project_memory.records import DEFAULT_METRIC, DEFAULT_UNIT, Record

ENGINE = "llama.cpp"
FORMATS = (
    "llama.cpp.llama-bench",
    "llama.cpp.llama-bench.json",
    "llama.cpp.llama-bench.csv",
    "llama.cpp.batched-bench",
    "llama.cpp.speculative",
    "llama.cpp.server_log",
)
# Text only these outputs print: one without a complete result is not read another way. (A
# `| model |` header is not one: other engines print llama-bench-style tables under it.)
MARKERS = re.compile(r"S_TG t/s|build_commit,|print_timing:|n_drafted|seconds, speed:")
# a test: `pp512`, `tg128`, `pp512+tg128`, mainline's depth test `tg128 @ d512` and ik_llama.cpp's `-gp`
# test `tg64@pp512` (generation after a 512-token prompt: the same depth)
_TEST = re.compile(r"^(?:pp\s*(\d+))?\s*\+?\s*(?:tg\s*(\d+))?(?:\s*@\s*(?:d|pp)\s*(\d+))?$")
_REPACKED = re.compile(r"\s*=+ Repacked \d+ tensors")  # ik_llama.cpp's `-rtr 1` loader line
_MEAN_STD = re.compile(r"\d[\d.]*\s*±\s*\d[\d.]*")
_BUILD = re.compile(r"build:\s*([0-9a-f]+) *\((\d+)\)")
_TEXT_COLUMNS = frozenset({"model", "size", "params", "backend", "test", "t/s", "dev", "devices"})
_JSON_FIGURES = ("n_gpu_layers", "n_batch", "n_ubatch", "n_threads", "flash_attn")
_CSV_HEADER = re.compile(r"^build_commit,build_number,.*\bavg_ts\b", re.MULTILINE)
# llama-batched-bench columns (S_* are tokens per second) -> figure names.
_BATCHED_FIGURES = {
    "n_kv": "n_kv",
    "t_pp s": "prompt_s",
    "s_pp t/s": "prompt_tok_s",
    "t_tg s": "gen_s",
    "t s": "total_s",
    "s t/s": "total_tok_s",
}
# llama-server `print_timing` (eval and prompt eval, one per task; `runs` before 2025, also inside
# the JSON log lines of 2024 builds; `=` padded to align beside `generation eval`) and its draft statistics.
_EVAL = re.compile(
    r"(prompt eval|\beval) time\s*=\s*([\d.]+) ms /\s*(\d+) (?:tokens|runs)\s*"
    r"\(\s*[\d.]+ ms per token,\s*([\d.]+) tokens per second\)"
)
# the same words after a program's own perf printer, not a server's: llama-cli's `llama_print_timings:`
# and `llama_perf_context_print:`, and `common_perf_print:` (llama.cpp common/sampling.cpp, newest builds)
_CLI_PERF = re.compile(r"llama_p|common_perf_print")
_DRAFT = re.compile(
    r"draft acceptance(?: rate)? =\s*([\d.]+) \(\s*(\d+) accepted /\s*(\d+) generated\)"
    r"(?:, mean (?:acceptance length|len) =\s*([\d.]+))?"  # `mean len` since 2026: the accept length
    r"(?:, acceptance rate per position = \(([\d., ]+)\))?"
)
# Newer llama-server's running rate every few seconds while a task decodes: `tg` is cumulative
# (`n_gen` in the llama-server Ollama bundles, `n_decoded` upstream).
_RUNNING = re.compile(r"print_timing: id\s+\d+ \| task (\d+) \| n_(?:decoded|gen) =\s*\d+, tg =\s*([\d.]+) t/s")
# llama-speculative / llama-speculative-simple end-of-run summary (`generated` in the first, 2023).
_SPEC_DECODED = re.compile(r"(?:decoded|generated)\s+(\d+) tokens in\s+([\d.]+) seconds, speed:\s+([\d.]+) t/s")
_SPEC_COUNT = re.compile(r"^(n_draft|n_predict|n_drafted|n_accept)\s*=\s*(\d+)\s*$", re.MULTILINE)
_SPEC_ACCEPT = re.compile(r"^accept\s*=\s*([\d.]+)%", re.MULTILINE)


def _version(commit: object, build: object) -> str | None:
    """A llama.cpp version the way releases name it: `b<build> (<commit>)`."""
    number_ = whole(build)
    commit = str(commit) if commit else ""
    if number_ is None:
        return commit or None
    return f"b{number_} ({commit})" if commit else f"b{number_}"


def _test_fields(prompt: int | None, gen: int | None, depth: int | None) -> dict[str, Any] | None:
    """Metric and lengths for a test: pp -> prompt tok/s, tg -> output tok/s, pp+tg -> total."""
    if gen and not prompt:
        fields: dict[str, Any] = {"metric": DEFAULT_METRIC, "output_len": gen}
    elif prompt and not gen:
        fields = {"metric": "prompt_tok_s", "input_len": prompt}
    elif prompt and gen:
        fields = {"metric": "total_tok_s", "input_len": prompt, "output_len": gen}
    else:
        return None
    fields["unit"] = DEFAULT_UNIT
    if depth:
        fields["figures"] = {"n_depth": float(depth)}
    return fields


def _cells(line: str) -> list[str]:
    """The cells of one markdown table row."""
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


_GAP = re.compile(r"\s{2,}")  # between the columns of a tab-separated copy of a table


def _table_records(text: str) -> list[Record]:
    """One record per row of every llama-bench or llama-batched-bench markdown table; llama-bench
    rows are versioned by the `build:` line after their table."""
    if "t/s" not in text and "±" not in text:
        return []
    records: list[Record] = []
    unversioned: list[Record] = []
    header: list[str] | None = None
    closed = True  # whether the header ends in `|`: a row that does not where it does was cut
    gapped = False  # a header copied tab-separated (its tabs now gaps of spaces), rows likewise
    for line in text.splitlines():
        build = _BUILD.search(line)
        if build:
            for earlier in unversioned:
                earlier.engine_version = _version(*build.groups())
            unversioned = []
        if _REPACKED.match(line):  # printed inside the table as each model loads: no row, not its end
            continue
        piped = line.count("|") >= 2  # rows only, outer pipes or not (GitHub's rendered table copies without them)
        cells = _cells(line) if piped else _GAP.split(line.strip())
        lowered = [cell.lower() for cell in cells]
        if "t/s" in lowered or "s_tg t/s" in lowered:
            header, closed, gapped = lowered, line.rstrip().endswith("|"), not piped
            continue
        if not piped and not (header and gapped and len(cells := line.split()) == len(header)):
            header = None
            continue
        if header and gapped:
            row = dict(zip(header, cells, strict=True))
        elif header:
            whole = line.rstrip().endswith("|") == closed and not set(line.strip()) <= set("|-: ")
            row = dict(zip(header, cells, strict=True)) if whole and len(cells) == len(header) else {}
        else:
            row = _headless_row(cells)
        record: Record | None
        if "s_tg t/s" in row:
            record = _batched_record(row)
        else:
            record = _row_record(row) if row else None
            if record is not None:
                unversioned.append(record)
        if record is not None:
            records.append(record)
    return records


def _headless_row(cells: list[str]) -> dict[str, str]:
    """A llama-bench row whose header the user elided, known by its last two cells (a test
    such as `pp512`, then `mean ± std`): its model, test and t/s; empty for any other row."""
    if len(cells) < 3 or not cells[-2] or not _TEST.match(cells[-2]) or not _MEAN_STD.fullmatch(cells[-1]):
        return {}
    return {"model": cells[0], "test": cells[-2], "t/s": cells[-1]}


def _row_test(row: dict[str, str]) -> dict[str, Any] | None:
    """Metric and lengths of a llama-bench row: its `test` cell, or the early n_prompt/n_gen ones."""
    if "test" not in row:
        return _test_fields(whole(row.get("n_prompt")), whole(row.get("n_gen")), None)
    test = _TEST.match(row["test"].strip())
    return _test_fields(*(whole(group) for group in test.groups())) if test else None


def _row_record(row: dict[str, str]) -> Record | None:
    """A record of one llama-bench table row; the value is the mean of `mean ± std`."""
    mean, _, std = row["t/s"].partition("±")
    value = number(mean)
    fields = _row_test(row)
    if value is None or fields is None:
        return None
    figures = fields.pop("figures", {})
    for column, cell in row.items():
        if column not in _TEXT_COLUMNS and number(cell) is not None:
            figures[slug(column)] = number(cell)
    if number(std) is not None:
        figures["t_s_std"] = number(std)
    return benchmark(
        value,
        "llama.cpp.llama-bench",
        engine=ENGINE,
        model=row.get("model") or None,
        concurrency=1,
        figures=figures,
        **fields,
    )


def _batched_record(row: dict[str, str]) -> Record | None:
    """A record of one llama-batched-bench row: generation tok/s over B parallel sequences."""
    value = number(row["s_tg t/s"])
    if value is None:
        return None
    batch = whole(row.get("b")) or 1  # llama-sweep-bench style tables have no B column
    return benchmark(
        value,
        "llama.cpp.batched-bench",
        engine=ENGINE,
        batch_size=batch,
        concurrency=batch,
        input_len=whole(row.get("pp")),
        output_len=whole(row.get("tg")),
        figures=figures_of((name, row.get(column)) for column, name in _BATCHED_FIGURES.items()),
    )


def _json_record(
    result: dict[str, Any], source_format: str = "llama.cpp.llama-bench.json"
) -> Record | None:
    """A record of one `-o json`/`-o jsonl`/`-o csv` test result."""
    value = number(result.get("avg_ts"))
    fields = _test_fields(
        whole(result.get("n_prompt")), whole(result.get("n_gen")), whole(result.get("n_depth"))
    )
    if value is None or fields is None:
        return None
    figures = fields.pop("figures", {})
    for name in _JSON_FIGURES:
        found = number(result.get(name))
        if found is not None:
            figures[name] = found
    std = number(result.get("stddev_ts"))
    if std is not None:
        figures["t_s_std"] = std
    return benchmark(
        value,
        source_format,
        engine=ENGINE,
        engine_version=_version(result.get("build_commit"), result.get("build_number")),
        model=str(result.get("model_type") or "") or None,
        concurrency=1,
        figures=figures,
        **fields,
    )


def _csv_records(text: str, problems: list[str]) -> list[Record]:
    """One record per row of `llama-bench -o csv` (every value quoted in older builds)."""
    header = _CSV_HEADER.search(text) if "build_commit," in text else None
    if header is None:
        return []
    lines = text[header.start() :].splitlines()
    names = lines[0].split(",")
    records = []
    for line in lines[1:]:
        if not line.strip() or line.lstrip().startswith("|"):
            break
        cells = next(csv.reader([line]))
        if len(cells) != len(names) or line.count('"') % 2:
            problems.append(f"llama.cpp.llama-bench.csv: row cut short ({len(cells)} of "
                            f"{len(names)} columns), not stored")
            continue
        record = _json_record(dict(zip(names, cells, strict=True)), "llama.cpp.llama-bench.csv")
        if record is not None:
            records.append(record)
    return records


def _server_records(text: str) -> list[Record]:
    """One summary record over llama-server's per-task timings (median generation tok/s) per
    run: tasks a line no server prints stands between (a user's label over each server's
    timings, a diff's `---` between its two logs) are another run's."""
    if "eval time" not in text:
        return _running_records(text)
    server = "\n".join(line for line in text.splitlines() if not _CLI_PERF.search(line))
    runs = labelled_runs(server, lambda _, line: any(m[0] == "eval" for m in _EVAL.findall(line)))
    records = [(run.label, record) for run in runs if (record := _server_record(run.text))]
    for label, record in records if len(records) > 1 else []:
        record.config = label
    return [record for _, record in records]


def _server_record(server: str) -> Record | None:
    """The summary record of one run's llama-server timings, or None without a generation rate."""
    timings = _EVAL.findall(server)
    generation = [number(m[3]) for m in timings if m[0] == "eval" and int(m[2]) > 1]
    value = median(v for v in generation if v)
    if value is None:
        return None
    figures = figures_of((("requests", len(generation)),
                          ("prompt_tok_s", median(v for m in timings if m[0] == "prompt eval" and (v := number(m[3]))))))
    return _with_drafts(benchmark(value, "llama.cpp.server_log", engine=ENGINE, figures=figures), server)


def _with_drafts(record: Record, server: str) -> Record:
    """A server record given its tasks' draft statistics (`draft acceptance = 0.44444 (228 accepted /
    513 generated), mean len = 2.33`): the acceptance over all drafted tokens, the median accept
    length, the last per-position rates."""
    drafts = _DRAFT.findall(server)
    accepted = sum(int(d[1]) for d in drafts)
    drafted = sum(int(d[2]) for d in drafts)
    positions = [d[4] for d in drafts if d[4]]
    record.figures.update(figures_of((("acceptance_rate", accepted / drafted if drafted else None),
                                      ("draft_tokens", drafted or None),
                                      ("accepted_tokens", accepted if drafted else None))))
    if positions:
        rates = [number(rate) for rate in positions[-1].split(",")]
        record.figures.update(figures_of((f"accept_pos_{i}", r) for i, r in enumerate(rates, start=1)))
        record.num_steps = len(rates)
    record.accept_length = median(v for d in drafts if (v := number(d[3])) is not None)
    return record


def _running_records(text: str) -> list[Record]:
    """A log of running rates only (no task finished in the paste): each task's latest `tg`,
    the rate over all it decoded so far, and their median over tasks."""
    latest = dict(_RUNNING.findall(text)) if "print_timing" in text else {}
    value = median(v for v in map(number, latest.values()) if v)
    if value is None:
        return []
    figures = figures_of((("requests", len(latest)),))
    return [_with_drafts(benchmark(value, "llama.cpp.server_log", engine=ENGINE, figures=figures), text)]


def _speculative_records(text: str) -> list[Record]:
    """One record per llama-speculative summary: a paste may hold several runs, the i-th
    decoding line going with the i-th block of counts, printed before or after it."""
    if "n_accept" not in text:
        return []
    ends = [m.end() for m in _SPEC_COUNT.finditer(text) if m[1] == "n_accept"]
    blocks = zip([0, *ends], ends, [*ends[1:], len(text)], strict=False)  # (start, end, next end)
    return [_speculative_record(text, block, decoded)
            for block, decoded in zip(blocks, _SPEC_DECODED.finditer(text), strict=False)]


def _speculative_record(text: str, block: tuple[int, int, int], decoded: re.Match[str]) -> Record:
    """A run's decoding speed with the counts before its `n_accept` line (text[start:end]) and
    the acceptance printed after it, before the next block's."""
    start, end, next_end = block
    counts = {m[1]: m[2] for m in _SPEC_COUNT.finditer(text, start, end)}
    accept = _SPEC_ACCEPT.search(text, end, next_end)
    figures = figures_of(counts.items())
    figures.update(figures_of((("decode_s", decoded[2]),
                               ("acceptance_rate", float(accept[1]) / 100 if accept else None))))
    return benchmark(
        float(decoded[3]),
        "llama.cpp.speculative",
        engine=ENGINE,
        concurrency=1,
        spec_algorithm="draft_model",
        num_steps=whole(counts.get("n_draft")),
        output_len=whole(decoded[1]),
        figures=figures,
    )


def parse(text: str, problems: list[str]) -> list[Record]:
    """Every llama.cpp result in the text."""
    json_results = [
        record
        for result in json_objects(text)
        if "avg_ts" in result and (record := _json_record(result))
    ]
    return [
        *_table_records(text),
        *json_results,
        *_csv_records(text, problems),
        *_speculative_records(text),
        *_server_records(text),
    ]
