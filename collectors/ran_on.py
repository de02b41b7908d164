"""What a recorded benchmark command ran with: its flags, the engine settings in its environment,
and the installed version of its engine (asked of the command's own Python, not ours)."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path

from sessiontui.project_memory.trust import ENGINE_ENV_PREFIXES, flag_map

_PACKAGES = {"sglang": "sglang", "vllm": "vllm", "trtllm": "tensorrt_llm", "tensorrt-llm": "tensorrt_llm"}
_VERSION_TIMEOUT_S = 15.0
_PROBE = "import importlib.metadata as m, sys; print(m.version(sys.argv[1]))"


def command_flags(command: Sequence[str], environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The command's flags plus the engine-relevant settings of the environment it ran in."""
    flags = flag_map(shlex.join(command))
    env = os.environ if environ is None else environ
    flags.update({f"env:{k}": v for k, v in sorted(env.items()) if k.startswith(ENGINE_ENV_PREFIXES)})
    return flags


def _python_of(command: Sequence[str]) -> str | None:
    """The Python interpreter that runs the command: itself, or its console script's shebang."""
    if not command:
        return None
    program = shutil.which(command[0])
    if program is None:
        return None
    if Path(program).name.startswith("python"):
        return program
    try:
        with open(program, "rb") as script:
            first = script.readline(512)
    except OSError:
        return None
    if first.startswith(b"#!") and b"python" in first:
        words = first[2:].decode(errors="replace").split()
        return shutil.which(words[-1]) if words[0].endswith("/env") else words[0]
    return None


def engine_version(engine: str | None, command: Sequence[str]) -> str | None:
    """The installed version of the engine package in the command's Python; None when unknown."""
    package = _PACKAGES.get((engine or "").lower())
    python = _python_of(command)
    if package is None or python is None:
        return None
    try:
        done = subprocess.run([python, "-c", _PROBE, package], capture_output=True, text=True,
                              timeout=_VERSION_TIMEOUT_S)
    except (OSError, subprocess.TimeoutExpired):
        return None
    version = done.stdout.strip()
    return version if done.returncode == 0 and version else None
