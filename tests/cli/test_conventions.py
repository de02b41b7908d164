"""The habits of the tools people trust (gh, uv, llm, sqlite-utils): --version, completion
generated from the parser, help on every option, examples in every command's help, documented
exit codes, `-` for stdin/stdout, and a "did you mean" for typos."""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
from importlib.metadata import version
from pathlib import Path

import pytest

from sessiontui.tui.commands.completion import walk
from sessiontui.tui.commands.parser import build_parser


def every_parser() -> list[tuple[str, argparse.ArgumentParser]]:
    found = []

    def visit(parser: argparse.ArgumentParser, path: str) -> None:
        found.append((path, parser))
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, child in action.choices.items():
                    visit(child, f"{path} {name}")

    visit(build_parser(), "sessiontui")
    return found


def test_version(run_cli) -> None:
    result = run_cli("--version", check=True)
    assert result.stdout.strip() == f"sessiontui {version('sessiontui')}"


def test_every_option_has_help_and_every_command_examples() -> None:
    for path, parser in every_parser():
        assert (parser.epilog or "").count("EXAMPLES\n") == 1, path
        assert path == "sessiontui" or "sessiontui" in parser.epilog, path
        for action in parser._actions:
            if not isinstance(action, argparse._SubParsersAction):
                assert action.help, (path, action.option_strings or action.dest)


def test_examples_are_shown_as_written(run_main) -> None:
    shown = run_main("list", "--help", check=True).stdout
    assert "EXAMPLES\n  sessiontui list\n  sessiontui list --kind benchmark --limit 5 --json" in shown


@pytest.mark.parametrize(("argv", "hint"), [
    (["lst"], "did you mean list?"),
    (["list", "--kind", "benchmarks"], "did you mean benchmark?"),
    (["list", "--kinds", "note"], "did you mean --kind?"),
    (["edit", "n-1", "--set", "valu=3"], "did you mean value?"),
])
def test_typos_get_a_did_you_mean_and_exit_2(run_main, argv: list[str], hint: str) -> None:
    run_main("note", "add", "x", check=True)
    result = run_main(*argv)
    assert result.returncode == 2 and hint in result.stderr and result.stderr.count("\n") == 1


def test_exit_codes(run_cli, tmp_path: Path) -> None:
    assert run_cli("ask", "").returncode == 2
    assert run_cli("ask", "  ").returncode == 2
    assert run_cli("show", "n-nothing").returncode == 1
    assert "exit codes: 0 ok; 1 runtime failure" in run_cli("--help").stdout


def test_dash_is_stdin_and_stdout(run_cli, tmp_path: Path) -> None:
    run_cli("note", "add", "carried through a pipe", check=True)
    exported = run_cli("export", "-", check=True).stdout
    assert exported.startswith("# sessiontui project memory")
    elsewhere = {"SESSIONTUI_DIR": str(tmp_path / "elsewhere")}
    imported = run_cli("import", "-", "--json", input=exported, env=elsewhere, check=True)
    assert json.loads(imported.stdout) == {"schema_version": 1, "path": "-", "added": 1, "updated": 0}
    listed = json.loads(run_cli("list", "--json", env=elsewhere).stdout)["records"]
    assert [r["text"] for r in listed] == ["carried through a pipe"]
    bad = run_cli("import", "-", input="not toml [")
    assert bad.returncode == 1 and bad.stderr.startswith("sessiontui: standard input: not valid TOML")


def test_salvage_success_is_on_stdout_without_an_error_prefix(run_main, tmp_path: Path) -> None:
    run_main("note", "add", "kept", check=True)
    result = run_main("salvage", str(tmp_path / "rescued.toml"), check=True)
    assert result.stdout.startswith("salvaged 1 records") and result.stderr == ""
    piped = run_main("salvage", "-", check=True)
    assert piped.stdout.startswith("# sessiontui project memory")
    assert piped.stderr.startswith("salvaged 1 records")  # beside the TOML: a note, not an error


def test_completion_scripts_come_from_the_parser(run_main) -> None:
    levels = {level.path: level for level in walk(build_parser())}
    fish = run_main("completion", "fish", check=True).stdout
    zsh = run_main("completion", "zsh", check=True).stdout
    for path, level in levels.items():
        for option in level.options:
            assert f"-l {option[2:]}" in fish, (path, option)
            assert option in zsh, (path, option)
    assert zsh.startswith("#compdef sessiontui")
    assert run_main("completion", "tcsh").returncode == 2


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash")
@pytest.mark.parametrize(("words", "expected"), [
    ("sessiontui li", "list"),
    ("sessiontui list --ki", "--kind"),
    ("sessiontui list --kind ", "benchmark lesson note run target"),
    ("sessiontui completion ", "bash zsh fish --help"),
    ("sessiontui sync --st", "--status"),
])
def test_bash_completion_completes(run_main, tmp_path: Path, words: str, expected: str) -> None:
    script = tmp_path / "complete.bash"
    script.write_text(run_main("completion", "bash", check=True).stdout)
    line = words.split(" ")
    probe = (f"source {script}; COMP_WORDS=({' '.join(repr(w) for w in line)}); "
             f"COMP_CWORD={len(line) - 1}; _sessiontui; echo \"${{COMPREPLY[*]}}\"")
    out = subprocess.run(["bash", "-c", probe], capture_output=True, text=True, check=True).stdout
    assert re.sub(r"\s+", " ", out.strip()) == expected


def test_dash_reads_a_log_or_a_memory_file_from_stdin(run_cli, memory_dir: Path) -> None:
    log = (Path(__file__).parents[1] / "fixtures" / "trainlog" / "specforge_v2.log").read_text()
    from_stdin = json.loads(run_cli("speedup", "--log", "-", "--json", input=log, check=True).stdout)
    assert from_stdin["accept_length"] > 1 and from_stdin["acceptance_source"]
    run_cli("note", "add", "in the database", check=True)
    salvaged = run_cli("salvage", "--db", "-", input=(memory_dir / "memory.db").read_bytes(), check=True)
    assert b"in the database" in salvaged.stdout


def test_train_status_reads_a_log_from_stdin_and_followers_refuse_it(run_cli) -> None:
    log = (Path(__file__).parents[1] / "fixtures" / "crash" / "cuda_oom.log").read_text()
    status = json.loads(run_cli("train", "status", "--log", "-", "--json", input=log, check=True).stdout)
    assert status["step"] == 420 and status["events"][0]["kind"] == "crashed"
    for follower in (["watch", "--log", "-"], ["serve", "--log", "-", "--no-gpu"]):
        refused = run_cli(*follower)
        assert refused.returncode == 2 and "standard input cannot be followed" in refused.stderr


@pytest.mark.skipif(shutil.which("fish") is None, reason="no fish")
def test_fish_completion_completes(run_main, tmp_path: Path) -> None:
    script = tmp_path / "sessiontui.fish"
    script.write_text(run_main("completion", "fish", check=True).stdout)
    probe = (f"source {script}; complete -C 'sessiontui list --kind '; echo @; "
             "complete -C 'sessiontui sync --st'")
    out = subprocess.run(["fish", "-c", probe], capture_output=True, text=True, check=True).stdout
    kinds, sync = out.split("@\n")
    assert [line.split("\t")[0] for line in kinds.splitlines()] == [
        "benchmark", "lesson", "note", "run", "target"]
    assert sync.startswith("--status\t")


@pytest.mark.skipif(shutil.which("zsh") is None, reason="no zsh")
def test_zsh_completion_completes(run_main, tmp_path: Path) -> None:
    script = tmp_path / "_sessiontui"
    script.write_text(run_main("completion", "zsh", check=True).stdout)
    stubs = ('compadd() { shift; print -l -- "$@" }; _describe() { print -l -- "${(@P)${@[-1]}}" }; '
             "_files() { print FILES }; compdef() { }")
    probe = (f"{stubs}; source {script}; words=(sessiontui list --kind ''); CURRENT=4; _sessiontui; "
             "print @; words=(sessiontui import ''); CURRENT=3; _sessiontui")
    out = subprocess.run(["zsh", "-c", probe], capture_output=True, text=True, check=True).stdout
    kinds, import_ = out.split("@\n")
    assert kinds.split() == ["benchmark", "lesson", "note", "run", "target"]
    assert "--json:print the result as JSON (the contract of docs/json.md)" in import_
    assert import_.strip().endswith("FILES")
