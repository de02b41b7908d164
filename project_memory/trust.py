"""Whether a comparison can be trusted: a stale baseline, or tuning that differs beyond the feature.

A baseline is stale for a comparison when what it ran on differs from the result it is compared with
(engine version, NVIDIA driver, CUDA, GPU model or count) or it is older than the configured age. A
comparison is not like-for-like when the two commands differ in tuning flags that are not the
feature under test (for speculative decoding, the engine's speculative flags are the feature).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import NamedTuple

from sessiontui.project_memory.records import Record

STALE_AFTER_DAYS = 30.0
# The feature under test, per engine: flags that may differ between a result and its baseline.
FEATURE_FLAGS: dict[str, tuple[str, ...]] = {
    "sglang": ("--speculative-",),
    "vllm": ("--speculative-config", "--speculative-model", "--num-speculative-tokens",
             "--speculative-"),
    "trtllm": ("--speculative-config", "--spec-decode-", "--speculative-"),
}
SPEC_FLAGS: tuple[dict[str, tuple[str, ...]], ...] = (
    {"sglang": ("--speculative-num-draft-tokens",),
     "vllm": ("--speculative-config '{\"num_speculative_tokens\": N}'", "--num-speculative-tokens")},
    {"sglang": ("--speculative-num-steps",),
     "vllm": ("--speculative-config '{\"num_speculative_tokens\": N}'", "--num-speculative-tokens")},
    {"sglang": ("--speculative-draft-model-path",),
     "vllm": ("--speculative-config '{\"model\": PATH}'", "--speculative-model")},
    {"sglang": ("--speculative-algorithm EAGLE3",),
     "vllm": ("--speculative-config '{\"method\": \"eagle3\"}'",)},
)
"""The same speculative-decoding setting in each engine, current spelling first, then older ones
(docs.sglang.io advanced_features/speculative_decoding; docs.vllm.ai features/spec_decode)."""
# Flags that say where output goes or how the client talks, never how fast the engine is.
_NEUTRAL = frozenset((
    "--host", "--port", "--base-url", "--output-file", "--result-dir", "--result-filename",
    "--save-result", "--log-level", "--disable-tqdm", "--seed", "--num-prompts", "--dataset-path",
    "--dataset-name", "--backend", "--model", "--tokenizer", "--max-concurrency",
    "--request-rate", "--served-model-name", "--model-path", "--random-input-len",
    "--random-output-len", "--random-range-ratio", "--warmup-requests", "--trust-remote-code",
    "--api-key", "--label", "--tag", "--output-details", "-m",
))
ENGINE_ENV_PREFIXES = ("NCCL_", "SGLANG_", "VLLM_", "TORCH_", "TORCHINDUCTOR_", "PYTORCH_",
                       "TRTLLM_", "TLLM_", "NVIDIA_TF32_OVERRIDE", "CUDA_DEVICE_MAX_CONNECTIONS")
"""Environment settings that tune an engine (CUDA_VISIBLE_DEVICES, which picks GPUs, is not one)."""


class Difference(NamedTuple):
    """One flag or setting that is not the same on both sides (None: absent on that side)."""

    name: str
    result: str | None
    reference: str | None

    def describe(self) -> str:
        return f"{self.name}: {_shown(self.reference)} on the baseline, {_shown(self.result)} on the result"


def _shown(value: str | None) -> str:
    return "absent" if value is None else "set" if value == "true" else value


def _normal(flag: str) -> str:
    """`--num_continuous_decode_steps` and `--num-continuous-decode-steps` are one flag."""
    return "--" + flag.lstrip("-").replace("_", "-") if flag.startswith("--") else flag


def flag_map(command: str | None) -> dict[str, str]:
    """The flags and the engine-relevant environment settings of a command line.

    `NCCL_ALGO=Tree python -m sglang.launch_server --tp 4 --enable-torch-compile` gives
    `{"env:NCCL_ALGO": "Tree", "--tp": "4", "--enable-torch-compile": "true"}`.
    """
    if not command:
        return {}
    import shlex  # only when a command is read

    try:
        words = shlex.split(command)
    except ValueError:  # an unbalanced quote: read the words as they are
        words = command.split()
    flags: dict[str, str] = {}
    leading = True
    for i, word in enumerate(words):
        name, equals, value = word.partition("=")
        if leading and equals and name.isidentifier() and name.upper() == name:
            if name.startswith(ENGINE_ENV_PREFIXES):
                flags[f"env:{name}"] = value
            continue
        leading = False
        if word == "--":  # what follows is positional
            break
        if not word.startswith("--"):
            continue
        if equals:
            flags[_normal(name)] = value
        elif i + 1 < len(words) and not words[i + 1].startswith("--"):
            flags[_normal(word)] = words[i + 1]
        else:
            flags[_normal(word)] = "true"
    return flags


def record_flags(record: Record) -> dict[str, str]:
    """A record's flag map: the one stored at record time, else read from its command."""
    return dict(record.flags) if record.flags else flag_map(record.command)


def _is_feature(flag: str, engine: str | None, extra: tuple[str, ...]) -> bool:
    prefixes = extra + FEATURE_FLAGS.get((engine or "").lower(), ()) + (
        () if engine else tuple(p for group in FEATURE_FLAGS.values() for p in group))
    return flag.startswith(prefixes)


def tuning_differences(result: Record, reference: Record,
                       feature_flags: tuple[str, ...] = ()) -> list[Difference]:
    """Flags and settings that differ between two runs, beyond the feature under test.

    Only meaningful when both sides recorded a command or flags; otherwise there is nothing to say.
    """
    ours, theirs = record_flags(result), record_flags(reference)
    if not ours or not theirs:
        return []
    engine = result.engine or reference.engine
    extra = tuple(_normal(f) for f in feature_flags)
    names = sorted(set(ours) | set(theirs))
    return [
        Difference(name, ours.get(name), theirs.get(name))
        for name in names
        if ours.get(name) != theirs.get(name) and name not in _NEUTRAL
        and not _is_feature(name, engine, extra)
    ]


def fairness_line(result: Record, reference: Record, feature_flags: tuple[str, ...] = ()) -> str:
    """One line naming the tuning that differs, or "" when the comparison is like-for-like."""
    differences = tuning_differences(result, reference, feature_flags)
    if not differences:
        return ""
    shown = "; ".join(d.describe() for d in differences[:4])
    more = f" (+{len(differences) - 4} more)" if len(differences) > 4 else ""
    return f"Not like-for-like: tuning differs beyond the feature under test — {shown}{more}."


class RanOn(NamedTuple):
    """What a measurement ran on, as far as it is known."""

    engine: str | None
    engine_version: str | None
    driver: str | None
    cuda: str | None
    gpu_model: str | None
    gpu_count: int | None

    @classmethod
    def of(cls, record: Record) -> RanOn:
        return cls(record.engine, record.engine_version, record.driver_version, record.cuda_version,
                   record.gpus[0] if record.gpus else None, len(record.gpus) or None)

    def describe(self) -> str:
        """`SGLang 0.5.1 / driver 580.159 / CUDA 12.8 / 4x NVIDIA H200`, with what is known."""
        parts = [
            " ".join(p for p in (self.engine, self.engine_version) if p),
            f"driver {self.driver}" if self.driver else "",
            f"CUDA {self.cuda}" if self.cuda else "",
            (f"{self.gpu_count}x {self.gpu_model}" if self.gpu_count and self.gpu_count > 1
             else self.gpu_model or ""),
        ]
        return " / ".join(p for p in parts if p) or "unrecorded"


def _days_old(record: Record, now: datetime) -> float | None:
    try:
        created = datetime.fromisoformat(record.created_at)
    except (TypeError, ValueError):
        return None
    if created.tzinfo is None:
        created = created.replace(tzinfo=UTC)
    return (now - created).total_seconds() / 86400


def staleness(baseline: Record, against: RanOn | None, *, now: datetime | None = None,
              stale_after_days: float = STALE_AFTER_DAYS) -> list[str]:
    """Why `baseline` is stale compared with `against` (a result, or this host now): each reason."""
    reasons = []
    mine = RanOn.of(baseline)
    if against is not None:
        same_engine = not (mine.engine and against.engine) or mine.engine.lower() == against.engine.lower()
        checks = (
            ("engine version", mine.engine_version, against.engine_version, same_engine),
            ("driver", mine.driver, against.driver, True),
            ("CUDA", mine.cuda, against.cuda, True),
            ("GPU model", mine.gpu_model, against.gpu_model, True),
            ("GPU count", mine.gpu_count, against.gpu_count, True),
        )
        reasons += [f"{name} {a} vs {b}" for name, a, b, applies in checks
                    if applies and a is not None and b is not None and a != b]
    age = _days_old(baseline, now or datetime.now(UTC))
    if age is not None and age > stale_after_days:
        reasons.append(f"measured {age:.0f} days ago (older than {stale_after_days:g} days)")
    return reasons


def staleness_line(baseline: Record, result: Record | None, against: RanOn | None = None, *,
                   now: datetime | None = None, stale_after_days: float = STALE_AFTER_DAYS) -> str:
    """The one line an answer gives when a baseline is stale, with the command to re-run it."""
    target = against or (RanOn.of(result) if result is not None else None)
    reasons = staleness(baseline, target, now=now, stale_after_days=stale_after_days)
    if not reasons:
        return ""
    other = (f"; {result.config or 'the result'} on {target.describe()}" if result is not None and target
             else f"; this host now: {target.describe()}" if target else "")
    from sessiontui.project_memory.answer import pasteable

    rerun = (pasteable(("sessiontui", "record", "--baseline", "--"), baseline) if baseline.command
             else "`sessiontui record --baseline -- <the baseline's benchmark command>`")
    return (f"Stale baseline ({', '.join(reasons)}): measured on {RanOn.of(baseline).describe()}"
            f"{other} — re-run the baseline to compare fairly: {rerun}")


class TrustRules(NamedTuple):
    """The project's settings for these checks (`stale_after_days`, `feature_flags`)."""

    stale_after_days: float = STALE_AFTER_DAYS
    feature_flags: tuple[str, ...] = ()

    def notes(self, result: Record | None, reference: Record, *, now: datetime | None = None
              ) -> list[str]:
        """The lines an answer adds when comparing `result` with its number to beat: a stale
        baseline, tuning that is not like-for-like; none when the comparison can be trusted."""
        lines = [staleness_line(reference, result, now=now, stale_after_days=self.stale_after_days)]
        if result is not None:
            lines.append(fairness_line(result, reference, self.feature_flags))
        return [line for line in lines if line]


DEFAULT_RULES = TrustRules()


def flag_gotcha(question: str, engine: str | None) -> str:
    """A speculative flag named for the wrong engine: the spelling the asked engine takes, e.g.
    `sglang has no --num-speculative-tokens (vllm's spelling); sglang takes
    --speculative-num-draft-tokens`; "" when the question names no such flag."""
    text = question.lower()
    named = {f"--{word}" for word in re.findall(r"(?:--)?([a-z]+(?:-[a-z]+){2,})", text)}
    for row in SPEC_FLAGS:
        for owner, spellings in row.items():
            flags = {spelling.split()[0] for spelling in spellings if spelling.startswith("--")
                     and " " not in spelling}
            if not named & flags:
                continue
            target = engine if engine and engine != owner else next(
                (name for name in row if name != owner), None)
            if target is None or target not in row:
                continue
            current, *older = row[target]
            spelled = current + (f" (older versions: {', '.join(older)})" if older else "")
            return f"{target} has no {sorted(named & flags)[0]} ({owner}'s spelling); {target} takes {spelled}"
    return ""
