"""What a recorded command ran with: flags, engine environment, the engine's installed version."""

from __future__ import annotations

import sys
from pathlib import Path

from sessiontui.collectors.ran_on import command_flags, engine_version


def test_command_flags_take_engine_environment_but_not_gpu_selection() -> None:
    flags = command_flags(["python", "-m", "sglang.bench_serving", "--max-concurrency", "1"],
                          {"NCCL_ALGO": "Tree", "CUDA_VISIBLE_DEVICES": "0", "HOME": "/root",
                           "SGLANG_ENABLE_TORCH_COMPILE": "1"})
    assert flags == {"--max-concurrency": "1", "env:NCCL_ALGO": "Tree",
                     "env:SGLANG_ENABLE_TORCH_COMPILE": "1"}


def test_engine_version_is_asked_of_the_commands_own_python(tmp_path: Path) -> None:
    # A fake engine package installed only for this interpreter's path: the probe must find it.
    site = tmp_path / "site"
    dist = site / "sglang-0.5.3.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: sglang\nVersion: 0.5.3\n")
    wrapper = tmp_path / "engine-env"
    wrapper.write_text(f"#!/bin/sh\nPYTHONPATH={site} exec {sys.executable} \"$@\"\n")
    wrapper.chmod(0o755)
    assert engine_version("sglang", [str(wrapper), "-m", "sglang.bench_serving"]) is None  # not Python
    python = tmp_path / "python3"
    python.symlink_to(wrapper)
    assert engine_version("sglang", [str(python), "-m", "sglang.bench_serving"]) == "0.5.3"
    script = tmp_path / "sglang-bench"  # a console script: its shebang names the Python
    script.write_text(f"#!{python}\nprint('hi')\n")
    script.chmod(0o755)
    assert engine_version("sglang", [str(script), "--max-concurrency", "1"]) == "0.5.3"
    assert engine_version("vllm", [str(python)]) is None  # not installed there
    assert engine_version("llama.cpp", [str(python)]) is None  # no Python package to ask
    assert engine_version("sglang", ["no-such-program-anywhere"]) is None
