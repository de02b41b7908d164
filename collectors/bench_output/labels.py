"""What a printed value looks like, and how its label and unit name the figure it is (`eval
rate` in tokens/s is the output rate, `RPS` the request rate, `TTFT (s)` the mean time to first
token in ms): the vocabulary every line the generic reader reads goes through."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import NamedTuple

from sessiontui.collectors.bench_output.common import slug

VALUE = re.compile(  # not the size of an Ollama tag (`mistral:7b`) or in a name (`Llama-2-7b-chat`): a model's;
    # nor an issue's number (`vLLM #49730`), nor a GPU's model number (`RTX 3090`, `GTX 1080`, `RX 7900`, `RTX PRO 6000`)
    r"(?<![\w.#])(?<![A-Za-z]-)(?<!(?i:[rg]tx) )(?<!(?i:\brx) )(?<!(?i:rtx pro) )(?!(?<=[A-Za-z\d]:)\d+(?:\.\d+)?[bBmM]\b)(?!(?<=[\w.]-)\d+(?:\.\d+)?[bB][-_.])([-+]?(?:\d{1,3}(?:\.\d{3})+,\d+(?![\d.,])"  # `1.234,5`: German
    r"|\d{1,3}(?:,\d{3})+(?![\d,])|\d+,\d{1,2}(?!\d)|\d+|(?<![^\s|:=(])(?=\.\d))(?:\.\d+)?"  # `.24`
    r"(?:[eE][-+]?\d+)?)(?![\d/])(?!(?:st|nd|rd|th)\b)"  # `2nd token`: an ordinal names, not a value
    r"(\s*±\s*[\d.]+)?\s*([A-Za-zµ%/][A-Za-z_/%µ().+ -]{0,30})?"
)
_DECIMAL_COMMA = re.compile(r"[-+]?\d+,\d{1,2}|[-+]?\d{1,3}(?:\.\d{3})+,\d+")
# MLPerf LoadGen's `Completed samples per second` counts queries (`samples/s`, optimum-benchmark's batch rows, does not)
RATE_UNIT = re.compile(
    r"(?<![A-Za-z])(?P<what>tok(?:en)?s?|t|req(?:uest)?s?|queries|q|infer(?:ence)?s?|generations|samples(?=[\s-]*per\b))"
    r"\s*(?:/|[\s-]*per[\s-]+)\s*"
    r"(?P<per>s|sec|secs|second|seconds|min|minute|minutes)\b", re.IGNORECASE)
_SHORT_RATES = {"rps": ("req", 1.0), "qps": ("req", 1.0), "rpm": ("req", 60.0),
                "tps": ("tok", 1.0), "tpm": ("tok", 60.0)}
# a snake_case name ending in its unit (`out_tok_s`, `e2e_req_s`, read with spaces for underscores);
# `min` after a word spelled out is its minimum (guidellm's `output_tokens_min`, pandas' `tokens  min`)
_UNIT_SUFFIX = re.compile(r"(?<![A-Za-z])(?P<what>tok(?:en)?s?|req(?:uest)?s?)\s(?P<per>s|sec|(?<=tok\s|req\s)min)\s*$",
                          re.I)
# llama-bench's test names (`pp512`, `tg128`) as column names: tokens per second, always
_TEST_NAME = re.compile(r"(?:pp|tg)\s*\d+", re.IGNORECASE)
_PER_TIME = re.compile(r"(?:\bper[\s-]+|/)(sec|secs|second|seconds|s|min|minute|minutes)\b", re.I)
_THROUGHPUT = re.compile(r"\bthroughput\b|\bspeed\b", re.IGNORECASE)
_CAMEL_HUMP = re.compile(r"(?<=[a-z])(?=[A-Z][a-z]|[A-Z]+\b)")  # `GenerationSpeed`, `generationTPS`
_TOTAL = re.compile(r"\btot(?:al)?\b|prompt\s*\+\s*completion|input\s*\+\s*output|^\s*tokens/min\b", re.I)
# `tokens/total_duration`: a total the rate divides by, the time, not the tokens it counts
_DENOMINATOR = re.compile(r"(?:/|\bper\b)\s*tot(?:al)?\b[\s_]*\w*", re.IGNORECASE)
_PROMPT = re.compile(r"prompt|prefill|\binput\b|\bpp\d*\b|encode|\bprocess|\bingest", re.IGNORECASE)
# llmperf's `request_output_throughput_token_per_s`: each request's own rate, a user's
_PER_USER = re.compile(r"per[ _-](?:user|req(?:uest)?)\b|/user\b|\buser\b|^(?:results )?request output throughput",
                       re.IGNORECASE)
_PEAK = re.compile(r"\bpeak\b|\bmax(?:imum)?\b|(?<!/)(?<!per )\bmin(?:imum)?\b|\bp\d+\b|\bstd\b", re.I)  # `per min`: a unit
_AUXILIARY = re.compile(r"sampl|\bload|tokeniz", re.IGNORECASE)  # rates of steps, not of the model
# AIPerf's `Effective`/`Active Decode Throughput`: a rate over the time requests were in flight, not the run's
_WINDOWED = re.compile(r"\b(?:effective|active)\b", re.IGNORECASE)
_E2E = re.compile(r"\be2e\b", re.IGNORECASE)
_GOODPUT = re.compile(r"goodput", re.IGNORECASE)
# a label over a rate's unit: the load asked for (`Concurrency : QPS 50.0`, a profile's name `Profile: ShareGPT 8RPS`);
# not a field before a comma, which holds its own value (perf_analyzer's `Concurrency: 2, throughput: 998.1 infer/sec`)
_LOAD_LABEL = re.compile(r"\bconcurren|\bload\b|\brate\b|\bmode\b|\bprofile\b", re.IGNORECASE)
_SETTING = re.compile(  # `Profile: constant @ 5.0 RPS` is the load asked for
    r"issue|target|configured|scheduled|request[ _]rate|traffic|burst|@\s*$|\bprofile\b", re.IGNORECASE
)
_ACCEPT_LENGTH = re.compile(r"\bacc(?:e?pt(?:ance|ed)?)?[ _.]*(?:len(?:gth)?\b|tokens per step)"
                            r"|\btau\b|\ba\.\s*len\b", re.IGNORECASE)  # ik_llama.cpp's `a.len`
# `AL`, upper case alone (a speculative table's column beside tok/s: `| Output tok/s | AL |`), is its accept length
_AL_COLUMN = re.compile(r"AL(?:\s*\([^)]*\))?")
_POSITION_NAME = re.compile(r"accept_pos_\d+")  # a table cell's per-position rate, named by table_row
_ACCEPT_RATE = re.compile(r"accept(?:ance)?[ _]rate", re.IGNORECASE)
_CONCURRENCY = re.compile(r"concurren|\bconcur\b|\bconc\b|\bparallel\b|num_clients|\bclients\b",
                          re.IGNORECASE)
_LATER_TOKENS = re.compile(r"\b2nd\b|\bsecond tokens?\b", re.IGNORECASE)  # OpenVINO: tokens after the first
_BATCH_LABEL = re.compile(r"bs|batch|batch[ _-]?size", re.IGNORECASE)  # a `bs` column is the batch size
# EvalScope's rich_display.py prints the statistic after the unit (`Latency (s) avg`)
_MEAN_LATENCY = re.compile(r"(?:avg|average|mean)[ _]latency(?:\s*\(s\))?|latency(?:\s*\(s\))?[ _](?:avg|average|mean)",
                           re.IGNORECASE)
# a snake-case name's unit word: `ttft_s`, `end_to_end_latency_s`, after a statistic `ttft_p50_s` or
# `itl_p99_us`, before one `ttft_s_mean` (llmperf's `results_ttft_s_quantiles_p50`), and as a JSON key's words
_TIME_SUFFIX = re.compile(r"[a-z\d][_ ](ns|us|ms|s)(?![a-z\d])")
# vLLM benchmark_latency's `{percentage}% percentile latency: {percentile} seconds` lines (read as
# `p90 latency`, see generic.py): the statistics of the run's latency, not another run's.
_STAT_LATENCY = re.compile(r"(p\d+)[ _]latency(?:\s*\((s|ms|sec)\))?", re.IGNORECASE)  # EvalScope's `P99 Lat.(s)`
_LATENCY_ABBREVIATION = re.compile(r"\bLat\.\s*", re.IGNORECASE)  # EvalScope's summary columns: `Avg Lat.(s)`
_STAT_LIST = re.compile(r"\(((?:min|max|ave|avg|mean|median|p?\d+)(?:,\s*(?:min|max|ave|avg|mean|median|p?\d+))+)\)",
                        re.IGNORECASE)
STAT_KEYS = frozenset({"avg", "mean", "min", "max", "std", "stddev", "median", "value", "sum", "p25", "p50", "p75",
                       "p90", "p95", "p99", "p1", "p5", "p10"})
_LATENCY = (
    # LMDeploy's CSV `FTL(ave)(s)`: its first token latency
    (re.compile(r"time to first token|(?<![a-z])(?:ttft|ftl)(?![a-z])|first[ _]token[ _]latency", re.I), "ttft"),
    (re.compile(r"time to second token|\bttst\b", re.I), "ttst"),
    (re.compile(r"time (?:per|to) output token|(?<![a-z])tpot(?![a-z])|per[- ]token latency", re.I), "tpot"),
    (re.compile(r"inter[- ]token latency|(?<![a-z])itl(?![a-z])", re.I), "itl"),
    (re.compile(r"req(?:uest)? latency|e2e|end[- ]to[- ]end|total latency", re.I), "e2e"),
)
_DURATION = re.compile(r"\bduration\b", re.IGNORECASE)  # a duration is kept in seconds, whatever unit it was printed in
_LATENCY_WORD = re.compile(r"^(?:\w+ )?latency \((?:ms|s|sec)\)$", re.IGNORECASE)
_TIME_UNIT = {"ms": 1e-3, "msec": 1e-3, "s": 1.0, "sec": 1.0, "secs": 1.0, "seconds": 1.0}
_IN_SECONDS = {"ms": 1e-3, "msec": 1e-3, "us": 1e-6, "usec": 1e-6, "µs": 1e-6,  # perf_analyzer: usec
               "ns": 1e-9, "nsec": 1e-9}  # MLPerf LoadGen's `Mean First Token latency (ns)`
_LABEL_TIME_UNIT = re.compile(r"\((ns|nsec|us|usec|µs|ms|msec)\)", re.IGNORECASE)
_STATS = (("median", "median"), ("p50", "p50"), ("p90", "p90"), ("p95", "p95"), ("p99", "p99"),
          ("max", "max"), ("min", "min"), ("std", "std"), ("stddev", "std"), ("sd", "std"), ("avg", "mean"), ("mean", "mean"),
          ("average", "mean"), ("ave", "mean"))
HEADLINES = ("output_tok_s", "throughput_tok_s", "total_tok_s", "request_throughput",
             "accept_length", "latency_s")
PROMPT_ONLY = (*HEADLINES, "prompt_tok_s")  # an output that measured prompt processing alone
SETTING_LABEL = re.compile(r"batch|concurren|\bconc\b|\bbs\b", re.IGNORECASE)  # keys, not phase figures


def _rate(text: str) -> tuple[str, float] | None:
    """(`tok` or `req`, seconds per unit of time) of a rate spelled in `text`, or None."""
    match = RATE_UNIT.search(text) or _UNIT_SUFFIX.search(text)
    if match:
        what = "req" if match["what"].lower().startswith(("r", "q", "i", "s", "g")) else "tok"  # infer/sec, generations/s
        return what, 60.0 if match["per"].lower().startswith("min") else 1.0
    if _TEST_NAME.fullmatch(text.strip()):
        return "tok", 1.0
    words = set(re.findall(r"[a-z]+", text.lower()))
    short = next((rate for short, rate in _SHORT_RATES.items() if short in words), None)
    return short or _counted_rate(text)


def _counted_rate(text: str) -> tuple[str, float] | None:
    """A rate whose unit leaves out what it counts, told by the label's nouns: `Request
    throughput (per sec)` (GenAI-Perf), or no unit at all, `Overall Output Throughput: 45.17`
    (llmperf), `GenerationSpeed` (koboldcpp's CSV), `decode_speed` (mllm's CSV), `Gen/s` (EvalScope's
    multi-turn overview), `predicted_per_second` (llama-server's `timings`): a throughput or
    speed of requests, else of tokens when the label names tokens, output, generation,
    processing, or is a decode or prefill speed."""
    per = _PER_TIME.search(text)
    if per is None and not _THROUGHPUT.search(text):
        return None
    if re.search(r"\breq(?:uest)?s?\b|\bquer(?:y|ies)\b", text, re.IGNORECASE):
        what = "req"
    elif re.search(r"\btok(?:en)?s?\b|\boutput\b|\bgen(?:erat|\b)|\bprocessing\b|\b(?:decode|prefill) speed"
                   r"|^(?:prompt|predicted) per second$", text, re.I):  # llama-server's `timings`
        what = "tok"
    else:
        return None
    return what, 60.0 if per is not None and per[1].lower().startswith("min") else 1.0


def _unit_word(unit: str) -> str:
    """The first word of a value's unit, lower case (`usec` of `usec (standard deviation`)."""
    return unit.strip().split(" ", 1)[0].lower()


def _latency_name(label: str, unit: str) -> tuple[str, float] | None:
    """(`ttft_ms_mean`-style name, factor to ms) of a latency statistic, or None."""
    suffixed = _TIME_SUFFIX.search(label)  # llmperf's `inter_token_latency_s`: words and a unit
    spaced = label.replace("_", " ") if suffixed else label
    quantity = next((name for pattern, name in _LATENCY if pattern.search(spaced)), None)
    if quantity is None:
        return None
    stat = _statistic(label)
    seconds = (re.fullmatch(r"\(?s(?:ec(?:onds?)?)?\)?", unit.strip().lower()) or (suffixed and suffixed[1] == "s")
               or re.search(r"\((?:s|sec|seconds?)\)", label))
    in_label = _LABEL_TIME_UNIT.search(label)
    printed = _unit_word(unit) or (in_label[1].lower() if in_label else "") or (suffixed[1] if suffixed else "")
    return f"{quantity}_ms_{stat}", 1000.0 if seconds else _IN_SECONDS.get(printed, 1e-3) * 1e3


def name_of(label: str, unit: str, context: str = "") -> tuple[str, float]:
    """The figure name of a labelled value and the factor that brings it to the figure's unit;
    a rate its label leaves unqualified takes its kind from the line before it (`context`)."""
    unqualified = bool(context) and _named_in(label, unit, "")[0] == "throughput_tok_s"
    name, factor = _named_in(label, unit, context if unqualified and _rate(unit) else "")
    if name == "request_throughput" and _LOAD_LABEL.search(context.rpartition(",")[2]):
        return "request_rate", factor  # `Concurrency : QPS 50.0 constant`: the load asked for, its unit first
    if name in PROMPT_ONLY and _BASELINE.search(label.replace("_", " ")):
        return f"baseline_{name}", factor  # `base_avg_pred_t/s` beside `spec_avg_pred_t/s`
    return name, factor


# Chinese words of a benchmark's label, read as the English ones the rules know (a vllm-ascend report's
# `总Token吞吐量` is the total token throughput, `输出Token吞吐量` the output one, `首Token时延` the time to
# first token, a `并发` column the concurrency); Traditional forms too
_CHINESE_WORDS = {"总": "total", "總": "total", "输出": "output", "輸出": "output", "输入": "input", "輸入": "input",
                  "吞吐量": "throughput", "吞吐": "throughput", "请求": "request", "請求": "request",
                  "平均": "mean", "中位数": "median", "中位數": "median", "并发": "concurrency", "並發": "concurrency",
                  "时延": "latency", "延迟": "latency", "時延": "latency", "延遲": "latency"}
_FIRST_TOKEN = re.compile(r"首\s*(?:token|字)\s*(?:时延|延迟|時延|延遲)", re.IGNORECASE)
_CHINESE_WORD = re.compile("|".join(sorted(_CHINESE_WORDS, key=len, reverse=True)))


def _in_english(label: str) -> str:
    """A label with its Chinese words read in English, spaced apart from the words beside them."""
    if label.isascii():
        return label
    label = _FIRST_TOKEN.sub(" time to first token ", label)
    return _CHINESE_WORD.sub(lambda word: f" {_CHINESE_WORDS[word[0]]} ", label).strip()


@functools.lru_cache(maxsize=4096)  # a log prints the same labels on every line
def _named_in(label: str, unit: str, context: str) -> tuple[str, float]:
    """name_of for a label, its unit and the context its rate is qualified by ("" for none)."""
    label = _CAMEL_HUMP.sub(" ", _in_english(label))  # koboldcpp's CSV `GenerationSpeed`, Mac-MLX's `generationTPS`
    label = _LATENCY_ABBREVIATION.sub("Latency ", label) if "." in label else label
    words = label.replace("_", " ")  # a rate's `total_token_throughput` reads as its words
    both = f"{context} {words} {unit}" if context else f"{words} {unit}"
    rate = _rate(unit) or _rate(words)
    if rate is not None:
        return _rate_name(words, both, rate)
    if position := _POSITION_NAME.fullmatch(label):
        return position[0], 0.01 if "%" in both else 1.0
    if _ACCEPT_LENGTH.search(label) or _AL_COLUMN.fullmatch(label.strip()):
        return "accept_length", 1.0
    if _ACCEPT_RATE.search(label):
        return "acceptance_rate", 0.01 if "%" in both else 1.0
    if _CONCURRENCY.search(label) and not re.search(r"peak|mean|avg|limit", label, re.I):  # a cap on a sweep is no run's
        return "concurrency", 1.0
    if _BATCH_LABEL.fullmatch(label.strip()):
        return "batch_size", 1.0
    if _MEAN_LATENCY.fullmatch(label.strip()):
        return "latency_s", _IN_SECONDS.get(_unit_word(unit), 1.0)
    if (stat := _STAT_LATENCY.fullmatch(label.strip())) and (
            scale := (_TIME_UNIT | _IN_SECONDS).get((stat[2] or _unit_word(unit)).lower())):  # perf_analyzer: usec
        percentile = stat[1].lower()
        return f"latency_s_{'median' if percentile == 'p50' else percentile}", scale
    latency = _latency_name(label, unit)
    if latency is not None:
        return latency
    if _LATENCY_WORD.search(label) and not _PEAK.search(label) and (scale := _TIME_UNIT.get(_unit_word(unit))):
        return "latency_s", scale  # `FT latency (ms)`: a run's latency, its only statistic
    if _DURATION.search(label) and (scale := (_TIME_UNIT | _IN_SECONDS).get(_unit_word(unit))) not in (None, 1.0):
        return slug(label.split(":")[-1] or label), scale  # Ollama's `load duration: 12.5ms`, `eval duration: 4.8s`
    return slug(label.split(":")[-1] or label), 1.0


def _rate_name(label: str, both: str, rate: tuple[str, float]) -> tuple[str, float]:
    """The figure name of a rate (`both`: its label, unit and context) and its factor to /s."""
    what, per = rate
    if what == "req" and _SETTING.search(label):
        return "request_rate", 1 / per  # the rate asked for, not the one measured
    if what == "req" and _GOODPUT.search(label):
        return "request_goodput", 1 / per  # the requests that met their latency goals, a part of the throughput
    if what == "req":
        return ("request_throughput" if not _PEAK.search(label) else slug(label)), 1 / per
    if _PER_USER.search(both) and not _WINDOWED.search(label):  # AIPerf's `E2E` one, over each request's
        phase = "prompt" if _PROMPT.search(label) else "output"  # whole latency, is another figure
        stat = _statistic(label)  # llmperf's `..._token_per_s_quantiles_p50` beside its `_mean`
        return f"{'e2e_' if _E2E.search(label) else ''}per_user_{phase}_tok_s{'' if stat == 'mean' else '_' + stat}", 1 / per
    if _PEAK.search(label) or _AUXILIARY.search(label) or _WINDOWED.search(label):
        return f"{slug(label)}_tok_s", 1 / per
    if _LATER_TOKENS.search(label):
        return "output_tok_s", 1 / per
    if _TOTAL.search(_DENOMINATOR.sub(" ", both)):
        return "total_tok_s", 1 / per
    if _PROMPT.search(both):
        return "prompt_tok_s", 1 / per
    if re.search(r"output|\bout\b|eval|decod|generat|complet|\bgen\b|\btg\d*\b|predicted", both, re.I):
        return "output_tok_s", 1 / per
    return "throughput_tok_s", 1 / per


def _statistic(label: str) -> str:
    """The statistic a label names (`p99`, `median` for p50, `max`), `mean` where it names none."""
    words = re.findall(r"[a-z0-9]+", label.lower())
    stat = next((word for word in words if re.fullmatch(r"p\d+", word)), None) or next(
        (name for word, name in _STATS if word in words), "mean")
    return "median" if stat == "p50" else stat  # one name for the 50th percentile, however printed


def printed_number(raw: str) -> float:
    """A printed number: `1,234.5` with thousands separators, `9,85` or `1.234,5` with a
    decimal comma."""
    if _DECIMAL_COMMA.fullmatch(raw):  # its dots, if any, separate thousands
        return float(raw.replace(".", "").replace(",", "."))
    return float(raw.replace(",", ""))


class Named(NamedTuple):
    """A value named as a figure, with how it was printed."""

    name: str
    value: float
    converted: bool  # brought to the figure's unit from another (`164.67 req/min`)
    rounding: float  # half a unit in its last printed digit, in the figure's unit (`2.74`: 0.005)


def named_values(label: str, values: list[tuple[str, str]], context: str) -> Iterator[Named]:
    """A label's values on one line, named: one per statistic when the label lists them
    (`latency(s)(min, max, ave): 0.6, 12.9, 4.4`), else the first value only."""
    stats = _STAT_LIST.search(label)
    listed = [word.strip() for word in stats[1].split(",")] if stats else []
    if len(listed) != len(values) or len(values) < 2:
        listed, values = [""], values[:1]
    base = label.replace(stats[0], " ") if stats and listed != [""] else label
    for stat, (raw_number, unit) in zip(listed, values, strict=True):
        word = {"ave": "avg"}.get(stat.lower(), stat.lower())
        word = f"p{word}" if word.isdigit() else word
        scale, unit = _si_prefix(unit)
        name, factor = name_of(f"{base} {word}" if word else label, unit, context)
        if name:
            decimals = len(raw_number.rpartition(".")[2]) if "." in raw_number else 0
            yield Named(name, printed_number(raw_number) * factor * scale, factor * scale != 1,
                        0.5 * 10.0 ** -decimals * abs(factor * scale) if decimals else 0.0)


_SI_PREFIX = re.compile(r"([kKM])(?:\s+|(?=[A-Za-z/]))")
_SI_SCALE = {"k": 1e3, "K": 1e3, "M": 1e6}


def _si_prefix(unit: str) -> tuple[float, str]:
    """(scale, unit) of a rate printed with an SI prefix (`12.3k tok/s`, `1.2M tokens/min`);
    (1, unit) for any other unit (`8.03 B` params, `4.58 GiB` are no rates)."""
    prefix = _SI_PREFIX.match(unit)
    if prefix is None or _rate(unit[prefix.end():]) is None:
        return 1.0, unit
    return _SI_SCALE[prefix[1]], unit[prefix.end():]
_BASELINE = re.compile(r"\bbase(?:line)?\b", re.IGNORECASE)  # the figure compared against
VALUE_FIRST = re.compile(r"([-+]?\d[\d,]*\.?\d*)\s+([A-Za-z][^|]*)")


def is_stat(label: str) -> bool:
    """Whether a label is a bare statistic (`Mean`, `P99`, pandas describe()'s `count`) that names
    nothing by itself."""
    word = label.strip().lower()
    return word in STAT_KEYS or word in ("average", "count") or bool(re.fullmatch(r"p\d+(?:\.\d+)?", word))
