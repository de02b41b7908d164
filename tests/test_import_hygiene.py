"""Domain packages never pull in Textual; the question path never pulls in GitPython either."""

from __future__ import annotations

import json
import subprocess
import sys

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


def test_ask_path_imports_neither_textual_nor_gitpython(tmp_path) -> None:
    probe = (
        "import sys, json; from sessiontui.tui.cli import main; main(['ask', 'what is the baseline?']);"
        "print(json.dumps([m for m in sys.modules if m.split('.')[0] in ('textual', 'git', 'rich')]))"
    )
    env = {"SESSIONTUI_DIR": str(tmp_path), "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, check=True)
    assert json.loads(out.stdout.strip().splitlines()[-1]) == []
