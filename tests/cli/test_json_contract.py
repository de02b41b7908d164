"""Every command's `--json` against the shapes documented in docs/json.md (the table there is the
source: a row added to the docs is checked here, a command with --json missing from it fails)."""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from sessiontui.project_memory.records import Record
from sessiontui.project_memory.store import Store
from sessiontui.tui.cli import main
from sessiontui.tui.commands.parser import build_parser

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "json.md"
FIXTURES = ROOT / "tests" / "fixtures"
_ROW = re.compile(r"^\| `([^`]+)` \| (records|object) \| (.*) \|$", re.MULTILINE)


def documented() -> dict[str, tuple[str, list[str]]]:
    """command -> (shape, keys always present), read from the table in docs/json.md."""
    rows = {}
    for command, shape, keys in _ROW.findall(DOC.read_text(encoding="utf-8")):
        first_sentence = keys.split(";")[0].split("(")[0].split(" with ")[0]
        rows[command] = shape, re.findall(r"`([a-z_]+)`", first_sentence)
    return rows


def commands_with_json() -> set[str]:
    """Every command path whose parser has --json (walked from the real parser)."""
    found = set()

    def walk(parser: argparse.ArgumentParser, path: str) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, child in action.choices.items():
                    walk(child, f"{path} {name}".strip())
            elif "--json" in action.option_strings:
                found.add(path)

    walk(build_parser(), "")
    return found


def test_every_command_with_json_is_documented() -> None:
    rows = {command.split(" --")[0] for command in documented()}
    assert commands_with_json() - rows == set()
    assert documented()["sync --status"] == ("object", ["unsynced"])


@pytest.fixture
def project(tmp_path: Path, memory_dir: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """A git project holding one record of each kind the commands act on; returns their ids."""
    monkeypatch.chdir(tmp_path)
    subprocess.run(["git", "init", "-q", "-b", "main"], check=True)
    log = tmp_path / "train.log"
    log.write_text((FIXTURES / "trainlog" / "hf_trainer.log").read_text(encoding="utf-8"))
    ids = {}
    for name, argv in {
        "bench": ["bench", "add", "--config", "sglang c=1", "--value", "51.2", "--baseline"],
        "note": ["note", "add", "packing", "was", "off"],
        "gone": ["note", "add", "to", "remove"],
        "target": ["target", "set", "beat 90 tok/s single stream"],
    }.items():
        ids[name] = run_json([*argv, "--json"])["records"][0]["id"]
    run_json(["rm", ids["gone"], "--json"])
    ids["log"] = str(log)
    with Store(memory_dir / "memory.db") as store:
        for name in ("v1", "v2"):
            ids[name] = store.add(Record(kind="run", name=name, log_path=f"/runs/{name}/train.log",
                                         step=100, loss=2.0)).id
    return ids


def run_json(argv: list[str], capsys: pytest.CaptureFixture | None = None) -> dict:
    """Run one command in this process; returns its parsed stdout (one indented document)."""
    import io
    import sys

    out, saved = io.StringIO(), sys.stdout
    sys.stdout = out
    try:
        code = main(argv)
    finally:
        sys.stdout = saved
    text = out.getvalue()
    assert code in (0, 1), (argv, code, text)
    if argv[0] == "watch":  # JSON Lines: one compact document per line
        assert "\n" not in text.strip()
    else:
        assert text.startswith('{\n  "schema_version": 1,'), text[:80]
    return json.loads(text)


def invocations(ids: dict[str, str], tmp_path: Path) -> dict[str, list[str]]:
    """The command line to run for each documented row."""
    (tmp_path / "in.toml").write_text("format_version = 1\n", encoding="utf-8")
    return {
        "bench add": ["bench", "add", "--config", "eagle3 c=1", "--value", "88.4", "--accept-length", "3.1"],
        "lesson add": ["lesson", "add", "--title", "smem", "--symptom", "OutOfResources", "--cause", "big",
                       "--fix", "num_stages=2"],
        "note add": ["note", "add", "hello"],
        "list": ["list"],
        "show": ["show", ids["bench"]],
        "edit": ["edit", ids["note"], "--text", "packing was on"],
        "rm": ["rm", ids["note"]],
        "restore": ["restore", ids["gone"]],
        "target set": ["target", "set", "accept length 3.0"],
        "target rm": ["target", "rm", ids["target"]],
        "target list": ["target", "list"],
        "record": ["record", "--from", str(FIXTURES / "bench" / "sglang_bench_serving.txt")],
        "export": ["export"],
        "salvage": ["salvage", "-"],
        "import": ["import", str(tmp_path / "in.toml")],
        "ask": ["ask", "what's", "the", "baseline?"],
        "speedup": ["speedup", "--acc", "0.8,0.6,0.5"],
        "gpu": ["gpu"],
        "train status": ["train", "status", "--log", ids["log"]],
        "sync": ["sync"],
        "sync --status": ["sync", "--status"],
        "watch --once": ["watch", "--once", "--log", ids["log"]],
        "config show": ["config", "show"],
        "record --sweep": ["record", "--sweep", "concurrency=1,2", "--json", "--", sys.executable,
                           str(FIXTURES / "sweep" / "stub_bench_serving.py"), "--max-concurrency", "0"],
        "sweeps": ["sweeps"],
        "compare": ["compare", ids["v1"], ids["v2"]],
        "report": ["report"],
        "formats test": ["formats", "test", ids["log"]],
    }


def _empty(value: object) -> bool:
    if value in (None, "", [], {}):
        return True
    if isinstance(value, dict):
        return any(_empty(v) for v in value.values())
    return isinstance(value, list) and any(_empty(v) for v in value)


def test_every_documented_command_prints_its_shape(project: dict[str, str], tmp_path: Path) -> None:
    runs = invocations(project, tmp_path)
    assert set(runs) == set(documented())
    for command, (shape, keys) in documented().items():
        data = run_json([*runs[command], "--json"])
        assert data["schema_version"] == 1, command
        assert set(keys) <= set(data), (command, keys, sorted(data))
        if shape == "records":
            assert data["records"] and all({"id", "kind"} <= set(r) for r in data["records"]), command
            assert not any(_empty(r) for r in data["records"]), command


def test_full_keeps_null_and_empty_fields(project: dict[str, str]) -> None:
    compact = run_json(["show", project["note"], "--json"])["records"][0]
    full = run_json(["show", project["note"], "--json", "--full"])["records"][0]
    assert "value" not in compact and full["value"] is None and full["tags"] == []
    assert {k: v for k, v in full.items() if k in compact} == compact
