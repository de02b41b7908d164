"""Stale baselines and unfair comparisons are flagged; like-for-like ones stay silent."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sessiontui.project_memory.records import Record
from sessiontui.project_memory.trust import (
    RanOn,
    fairness_line,
    flag_map,
    staleness,
    staleness_line,
    tuning_differences,
)

NOW = datetime(2026, 11, 30, tzinfo=UTC)
BASE_CMD = ("NCCL_ALGO=Tree python -m sglang.launch_server --model-path m --tp 4 "
            "--num-continuous-decode-steps 4 --cuda-graph-max-bs 8 --port 30000")
SPEC_CMD = ("python -m sglang.launch_server --model-path m --tp 4 --cuda-graph-max-bs 8 --port 30001 "
            "--speculative-algorithm EAGLE3 --speculative-num-steps 3 --speculative-eagle-topk 1 "
            "--speculative-num-draft-tokens 4")


def bench(**fields) -> Record:
    defaults = dict(config="x", value=90.0, concurrency=1, engine="sglang",
                    created_at=(NOW - timedelta(days=2)).isoformat())
    return Record("benchmark", **(defaults | fields))


def test_flag_map_reads_flags_and_engine_environment() -> None:
    flags = flag_map("NCCL_ALGO=Tree HOME=/x python -m sglang.launch_server --tp 4 "
                     "--enable-torch-compile --mem_fraction_static=0.8 -- --ignored")
    assert flags == {"env:NCCL_ALGO": "Tree", "--tp": "4", "--enable-torch-compile": "true",
                     "--mem-fraction-static": "0.8"}
    assert flag_map(None) == {} and flag_map("python 'unbalanced --x 1") == {"--x": "1"}


def test_differing_tuning_is_named_and_the_feature_is_not() -> None:
    baseline = bench(baseline=True, command=BASE_CMD)
    result = bench(config="SGLang + EAGLE3", value=82.3, command=SPEC_CMD)
    names = [d.name for d in tuning_differences(result, baseline)]
    assert names == ["--num-continuous-decode-steps", "env:NCCL_ALGO"]
    line = fairness_line(result, baseline)
    assert "Not like-for-like" in line and "--num-continuous-decode-steps: 4 on the baseline, absent" in line


def test_identical_tuning_is_silent() -> None:
    baseline = bench(baseline=True, command=SPEC_CMD.split(" --speculative")[0])
    result = bench(value=95.0, command=SPEC_CMD)
    assert tuning_differences(result, baseline) == [] and fairness_line(result, baseline) == ""
    assert fairness_line(bench(), bench(command=SPEC_CMD)) == ""  # one side unrecorded: nothing to say


def test_configured_feature_flags_are_not_tuning() -> None:
    baseline = bench(baseline=True, command="serve --tp 4")
    result = bench(command="serve --tp 4 --my-drafter on")
    assert tuning_differences(result, baseline)
    assert tuning_differences(result, baseline, feature_flags=("--my-drafter",)) == []


def test_stale_baseline_names_both_versions_and_the_command_to_rerun() -> None:
    baseline = bench(baseline=True, engine_version="0.5.1", driver_version="580.159",
                     cuda_version="12.8", gpus=["NVIDIA H200"] * 4, command=BASE_CMD)
    result = bench(config="SGLang + EAGLE3", engine_version="0.5.3", driver_version="590.44",
                   cuda_version="12.8", gpus=["NVIDIA H200"] * 4)
    assert staleness(baseline, None, now=NOW) == []
    line = staleness_line(baseline, result, now=NOW)
    assert "engine version 0.5.1 vs 0.5.3" in line and "driver 580.159 vs 590.44" in line
    assert "sglang 0.5.1 / driver 580.159" in line and "sglang 0.5.3 / driver 590.44" in line
    assert f"sessiontui record --baseline -- {BASE_CMD}" in line


def test_same_stack_is_not_stale_but_age_is() -> None:
    baseline = bench(baseline=True, engine_version="0.5.1", driver_version="580.159")
    result = bench(engine_version="0.5.1", driver_version="580.159")
    assert staleness_line(baseline, result, now=NOW) == ""
    old = bench(baseline=True, created_at=(NOW - timedelta(days=90)).isoformat())
    assert staleness(old, None, now=NOW) == ["measured 90 days ago (older than 30 days)"]
    assert staleness(old, None, now=NOW, stale_after_days=120) == []


def test_gpu_count_and_model_matter_engine_versions_of_other_engines_do_not() -> None:
    baseline = bench(baseline=True, engine="vllm", engine_version="0.11.0", gpus=["NVIDIA H100"])
    result = bench(engine="sglang", engine_version="0.5.3", gpus=["NVIDIA H200", "NVIDIA H200"])
    reasons = staleness(baseline, RanOn.of(result), now=NOW)
    assert reasons == ["GPU model NVIDIA H100 vs NVIDIA H200", "GPU count 1 vs 2"]
