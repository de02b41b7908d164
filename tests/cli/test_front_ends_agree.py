"""The field table's promise: the command line, the app's form and an import accept and refuse
the same typed values (issue 27: the form used `int()`, the CLI `positive_int`, and the form
required a target's title that the store did not)."""

from __future__ import annotations

import dataclasses
import tomllib
from pathlib import Path

import pytest

from sessiontui.project_memory.exchange import import_toml
from sessiontui.project_memory.records import (
    FIELDS,
    Record,
    closest,
    record_problems,
    typed_fields,
)
from sessiontui.project_memory.store import Store, StoreError
from sessiontui.tui.cli import main
from sessiontui.tui.screens.record_form import FORMS, FieldError, parse_value

BASE = {"config": "eagle3", "value": "80"}
CASES = [  # (field, typed, accepted)
    ("value", "82.5", True), ("value", "0", False), ("value", "-5", False),
    ("value", "1e308", False), ("value", "fast", False), ("value", "nan", False),
    ("value", "", False),
    ("concurrency", "4", True), ("concurrency", "0", False), ("concurrency", "-1", False),
    ("concurrency", "3.5", False), ("concurrency", "many", False),
    ("accept_length", "2.5", True), ("accept_length", "1", True), ("accept_length", "0.5", False),
    ("accept_length", "5000", False),
    ("config", "", False), ("config", " ", False), ("config", "a b", True),
]


def by_cli(typed: dict[str, str], capsys: pytest.CaptureFixture[str]) -> bool:
    """`sessiontui bench add` with one flag per typed field (an empty text is an empty flag)."""
    flags = [arg for name, text in typed.items() for arg in (FIELDS[name].rule.flag, text)]
    try:
        code = main(["bench", "add", *flags])
    except SystemExit as exit_:  # argparse refusing a flag's text
        code = exit_.code
    capsys.readouterr()
    return code == 0


def by_form(kind: str, typed: dict[str, str]) -> bool:
    """What the record form does on save: parse each field, then the record's rules."""
    record = Record(kind=kind)
    try:
        values = {name: parse_value(FIELDS[name], text) for name, text in typed.items()}
    except FieldError:
        return False
    assert set(typed) <= set(FORMS[kind])
    return not record_problems(dataclasses.replace(record, **values))


def toml_value(text: str) -> str:
    """The text as TOML writes it: a number or boolean as is, anything else as a string."""
    try:
        tomllib.loads(f"v = {text}")
    except tomllib.TOMLDecodeError:
        return '"' + text + '"'
    return text


def by_import(kind: str, typed: dict[str, str], tmp_path: Path) -> bool:
    lines = [f'kind = "{kind}"', 'id = "x-1"', 'created_at = "2026-01-01T00:00:00Z"',
             *(f"{name} = {toml_value(text)}" for name, text in typed.items() if text)]
    path = tmp_path / "in.toml"
    path.write_text("format_version = 1\n[[record]]\n" + "\n".join(lines) + "\n")
    with Store(tmp_path / "import.db") as store:
        try:
            import_toml(store, path)
        except (StoreError, ValueError):
            return False
    return True


@pytest.mark.parametrize(("field", "typed", "accepted"), CASES)
def test_cli_form_and_import_agree(memory_dir: Path, tmp_path: Path, capsys, field: str,
                                   typed: str, accepted: bool) -> None:
    values = {**BASE, field: typed}
    verdicts = {"cli": by_cli(values, capsys), "form": by_form("benchmark", values),
                "import": by_import("benchmark", values, tmp_path)}
    assert verdicts == dict.fromkeys(verdicts, accepted)


@pytest.mark.parametrize(("typed", "accepted"), [
    ({"metric": "output_tok_s", "value": "90"}, True),  # a title is not needed, anywhere
    ({"metric": "output_tok_s", "value": "90", "title": "beat 90"}, True),
    ({"metric": "output_tok_s", "title": "beat 90"}, False),  # a target without its number
    ({"metric": "accept_length", "value": "0.5"}, False),
])
def test_form_and_import_agree_on_targets(tmp_path: Path, typed: dict, accepted: bool) -> None:
    assert by_form("target", typed) is by_import("target", typed, tmp_path) is accepted


def test_a_misspelt_field_gets_a_suggestion_from_the_table(run_main) -> None:
    fields = typed_fields()
    assert closest("valu", fields) == "value" and closest("acept_lenght", fields) == "accept_length"
    assert closest("zzzzzz", fields) is None
    added = run_main("note", "add", "n", check=True).stdout.split()[2].rstrip(":")
    result = run_main("edit", added, "--set", "valu=3")
    assert result.returncode == 2
    assert result.stderr.strip() == "sessiontui: no field 'valu' (did you mean value?)"
