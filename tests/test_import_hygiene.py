"""Domain packages never pull in Textual; one-shot commands import only what they need."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from sessiontui.project_memory.records import Record
from sessiontui.project_memory.store import Store

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


ASK = {"ask", "speedup", "common"}  # speedup: the settings reader the question shares with `speedup`
# An answer in words reads trusted rows: no exports, no JSON escaping, no speedup arithmetic
# unless asked for it, and no shutil (argparse sizes help to the terminal with it: only help);
# a question without options builds no parser at all (argparse and gettext: a tenth of its start).
# Nor does it start a process, a thread or a log, read a settings file it does not have, split a
# command it does not show, or look up the package's version (each a cost a question never needs).
ASK_NOT = ("pynvml", "sessiontui.collectors", "sessiontui.project_memory.exchange", "shutil",
           "argparse", "gettext", "sessiontui.tui.commands.parser", "subprocess", "threading",
           "logging", "ctypes", "tomllib", "shlex", "tempfile", "importlib.metadata")


@pytest.mark.parametrize(("argv", "also_not", "commands"), [
    (["ask", "what is the baseline?"], (*ASK_NOT, "sessiontui.project_memory.speedup"), ASK),
    (["ask", "current speedup?"], ASK_NOT, ASK),
    (["bench", "add", "--config", "c=1", "--value", "50"], ("sessiontui.collectors.bench_output",),
     {"bench", "memory", "common", "parser"}),
])
def test_one_shot_commands_import_only_what_they_need(tmp_path, argv: list[str], also_not: tuple,
                                                      commands: set[str]) -> None:
    """A one-shot command imports no app, no editing or fuzzy-matching library, no process
    table, and no other command's module (each costs a short command's start); an answer
    resolves none of the record fields' types (validation's, a third of the records' import)."""
    with Store(tmp_path / "memory.db") as store:  # a baseline and a result: the answers are read
        for value, baseline in ((50.0, True), (80.0, False)):
            store.add(Record(kind="benchmark", config=f"c{value:g}", value=value, baseline=baseline,
                             concurrency=1))
    probe = (
        f"import sys, json; from sessiontui.tui.cli import main; main({argv!r});"
        "from sessiontui.project_memory.records import _declared_types;"
        "print(_declared_types.cache_info().currsize); print(json.dumps(sorted(sys.modules)))"
    )
    env = {"SESSIONTUI_DIR": str(tmp_path), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env,
                         check=True, cwd=tmp_path)
    *_, resolved, modules_line = out.stdout.strip().splitlines()
    assert resolved == "0" or argv[0] != "ask"  # a write validates: it needs them
    loaded = json.loads(modules_line)
    heavy = [m for m in loaded if m.split(".")[0] in HEAVY or m.startswith(also_not)]
    assert heavy == []
    prefix = "sessiontui.tui.commands."
    modules = {m.removeprefix(prefix) for m in loaded if m.startswith(prefix)}
    assert modules == commands


def test_as_a_program_the_command_leaves_its_imports_to_no_collection(tmp_path) -> None:
    """Run as the program, the CLI freezes what its imports built (the collector walked it all
    again at exit) and collects the command's own work; a caller's in-process use is untouched."""
    probe = (  # an option: the parser's path, which returns (a plain question ends the process)
        "import gc, sys; from sessiontui.tui.cli import main; sys.argv = ['sessiontui', 'ask', '--json', 'baseline?'];"
        "main(); print('gc', gc.get_freeze_count() > 1000, gc.isenabled());"
        "gc.unfreeze(); main(['ask', 'baseline?']); print('gc', gc.get_freeze_count())"
    )
    env = {"SESSIONTUI_DIR": str(tmp_path), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env,
                         check=True, cwd=tmp_path)
    said = [line.split()[1:] for line in out.stdout.splitlines() if line.startswith("gc ")]
    assert said == [["True", "True"], ["0"]]


@pytest.mark.parametrize(("memory", "code"), [("memory.db", 0), ("damaged", 1)])
def test_a_plain_question_as_the_program_ends_once_its_answer_is_out(tmp_path, memory: str,
                                                                     code: int) -> None:
    """Run as the program, a plain question ends the process itself (no teardown) after its
    whole answer reached the pipe, with its exit code; in-process, `main` returns as before."""
    with Store(tmp_path / "memory.db") as store:
        store.add(Record(kind="benchmark", config="c50", value=50.0, baseline=True, concurrency=1))
    if memory == "damaged":
        (tmp_path / "memory.db").write_bytes(b"not a database " * 100)
    env = {"SESSIONTUI_DIR": str(tmp_path), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    said = {}
    for way, call in (("program", "sys.argv = ['sessiontui', 'ask', 'baseline?']; main()"),
                      ("in-process", "main(['ask', 'baseline?'])")):
        probe = f"import sys; from sessiontui.tui.cli import main; code = {call}; print('returned', code)"
        said[way] = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                                   env=env, cwd=tmp_path)
    program, in_process = said["program"], said["in-process"]
    assert (program.returncode, program.stdout, program.stderr) == (
        code, in_process.stdout.removesuffix(f"returned {code}\n"), in_process.stderr)
    assert "c50" in program.stdout or "damaged" in program.stderr
