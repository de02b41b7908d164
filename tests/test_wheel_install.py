"""The built wheel installs under `sessiontui.*` beside the index's `tui`, `collectors` and
`project-memory` distributions, whose top-level names our folders would otherwise collide with."""

from __future__ import annotations

import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# Collectors 1.0 (2010) only builds with an old setuptools, without build isolation.
COLLIDING = ["tui", "collectors", "project-memory"]


def _run(*command: str | Path, cwd: Path | None = None, env: dict[str, str] | None = None) -> str:
    done = subprocess.run([str(c) for c in command], capture_output=True, text=True, cwd=cwd,
                          env=env, timeout=900)
    assert done.returncode == 0, f"{command}: {done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    return done.stdout


@pytest.mark.slow
def test_wheel_works_beside_colliding_distributions(tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    _run(sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", wheels, ROOT)
    wheel = next(wheels.glob("sessiontui-*.whl"))

    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=False)  # this pip installs into it (--python): no second pip
    python = env_dir / "bin" / "python"
    pip = [sys.executable, "-m", "pip", "-q", "--python", python]
    _run(*pip, "install", wheel)
    _run(*pip, "install", "setuptools<60", "wheel")
    _run(*pip, "install", "--no-build-isolation", *COLLIDING)
    listed = _run(sys.executable, "-m", "pip", "--python", python, "list", "--format=freeze")
    listed = listed.lower().replace("_", "-")
    assert all(f"{name}==" in listed for name in ("tui", "collectors", "project-memory")), listed

    # The top-level names belong to the other distributions (tui 1.1.1 is Python 2 code, so it is
    # located, not imported); ours live under sessiontui.
    probe = ("import importlib.util as u, sessiontui.tui.cli as cli; "
             "print(*[u.find_spec(n).origin for n in ('tui', 'collectors', 'project_memory')]); "
             "print(cli.__file__)")
    others, ours = _run(python, "-c", probe, cwd=tmp_path).splitlines()
    assert "sessiontui" not in others and str(env_dir) in others
    assert ours.endswith("sessiontui/tui/cli.py") and str(env_dir) in ours

    project = tmp_path / "project"
    project.mkdir()
    env = {**os.environ, "SESSIONTUI_DIR": str(project / ".sessiontui")}
    sessiontui = env_dir / "bin" / "sessiontui"
    assert "COMMAND" in _run(sessiontui, "--help", cwd=project, env=env)
    _run(sessiontui, "bench", "add", "--config", "SGLang baseline", "--value", "90.0", "--baseline",
         "--concurrency", "1", cwd=project, env=env)
    assert "90.0" in _run(sessiontui, "ask", "what's the baseline?", cwd=project, env=env)
    assert "demo" in _run(sessiontui, "demo", "--help", cwd=project, env=env)
