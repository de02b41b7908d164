"""Domain packages never pull in Textual; one-shot commands import only what they need."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

PROBE = """
import json, sys, importlib, pkgutil
from sessiontui import collectors, project_memory
for pkg in (project_memory, collectors):
    for mod in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
        importlib.import_module(mod.name)
print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] in ("textual", "git"))))
"""


def test_domain_packages_do_not_import_textual() -> None:
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True)
    assert not [m for m in json.loads(out.stdout) if m.startswith("textual")]


HEAVY = ("textual", "rich", "git", "tomlkit", "tomli", "rapidfuzz", "psutil", "platformdirs")


ASK = {"ask", "speedup"}  # speedup: the settings reader the question shares with `speedup`


@pytest.mark.parametrize(("argv", "also_not", "commands"), [
    (["ask", "what is the baseline?"], ("pynvml", "sessiontui.collectors"), ASK),
    (["ask", "current speedup?"], ("pynvml", "sessiontui.collectors"), ASK),
    (["bench", "add", "--config", "c=1", "--value", "50"], ("sessiontui.collectors.bench_output",),
     {"bench", "memory"}),
])
def test_one_shot_commands_import_only_what_they_need(tmp_path, argv: list[str], also_not: tuple,
                                                      commands: set[str]) -> None:
    """A one-shot command imports no app, no editing or fuzzy-matching library, no process
    table, and no other command's module (each costs a short command's start)."""
    probe = (
        f"import sys, json; from sessiontui.tui.cli import main; main({argv!r});"
        "print(json.dumps(sorted(sys.modules)))"
    )
    env = {"SESSIONTUI_DIR": str(tmp_path), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env,
                         check=True, cwd=tmp_path)
    loaded = json.loads(out.stdout.strip().splitlines()[-1])
    heavy = [m for m in loaded if m.split(".")[0] in HEAVY or m.startswith(also_not)]
    assert heavy == []
    prefix = "sessiontui.tui.commands."
    modules = {m.removeprefix(prefix) for m in loaded if m.startswith(prefix)}
    assert modules == commands | {"common", "parser"}


def test_as_a_program_the_command_leaves_its_imports_to_no_collection(tmp_path) -> None:
    """Run as the program, the CLI freezes what its imports built (the collector walked it all
    again at exit) and collects the command's own work; a caller's in-process use is untouched."""
    probe = (
        "import gc, sys; from sessiontui.tui.cli import main; sys.argv = ['sessiontui', 'ask', 'baseline?'];"
        "main(); print('gc', gc.get_freeze_count() > 1000, gc.isenabled());"
        "gc.unfreeze(); main(['ask', 'baseline?']); print('gc', gc.get_freeze_count())"
    )
    env = {"SESSIONTUI_DIR": str(tmp_path), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env,
                         check=True, cwd=tmp_path)
    said = [line.split()[1:] for line in out.stdout.splitlines() if line.startswith("gc ")]
    assert said == [["True", "True"], ["0"]]
