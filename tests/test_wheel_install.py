"""The built wheel installs under `sessiontui.*` beside distributions that own the top-level
names `tui`, `collectors` and `project_memory` (PyPI has such: tui, collectors, project-memory),
which our folders would otherwise collide with."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
COLLIDING = {"tui": "tui", "collectors": "collectors", "project-memory": "project_memory"}


def _run(*command: str | Path, cwd: Path | None = None, env: dict[str, str] | None = None) -> str:
    done = subprocess.run([str(c) for c in command], capture_output=True, text=True, cwd=cwd,
                          env=env, timeout=900)
    assert done.returncode == 0, f"{command}: {done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    return done.stdout


def _wheel_owning(folder: Path, name: str, package: str) -> Path:
    """A wheel of distribution `name` 1.0 holding the top-level package `package` (built here:
    PyPI's own are sdists that need a 2010 setuptools to build, a third of this test's time)."""
    dist_info = f"{package}-1.0.dist-info"
    files = {
        f"{package}/__init__.py": "",
        f"{dist_info}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n",
        f"{dist_info}/WHEEL": "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }
    files[f"{dist_info}/RECORD"] = "".join(f"{path},,\n" for path in [*files, f"{dist_info}/RECORD"])
    wheel = folder / f"{package}-1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        for path, text in files.items():
            archive.writestr(path, text)
    return wheel


@pytest.mark.slow
def test_wheel_works_beside_colliding_distributions(tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    _run(sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", wheels, ROOT)
    wheel = next(wheels.glob("sessiontui-*.whl"))

    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=False)  # this pip installs into it (--python): no second pip
    python = env_dir / "bin" / "python"
    pip = [sys.executable, "-m", "pip", "-q", "--python", python]
    # Our dependencies come from this environment (its site-packages appended to the new one's
    # path, after it): what is tested is the wheel's own layout and entry point.
    site = Path(sysconfig.get_path("purelib", vars={"base": str(env_dir)}))
    (site / "deps-from-the-test-venv.pth").write_text(sysconfig.get_path("purelib") + "\n")
    _run(*pip, "install", "--no-deps", "--no-index", wheel,
         *[_wheel_owning(wheels, name, package) for name, package in COLLIDING.items()])
    listed = _run(sys.executable, "-m", "pip", "--python", python, "list", "--format=freeze")
    listed = listed.lower().replace("_", "-")
    assert all(f"{name}==" in listed for name in ("tui", "collectors", "project-memory")), listed

    # The top-level names belong to the other distributions; ours live under sessiontui.
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
