"""The memory commands as scripts and people use them: the first test through the real
`sessiontui` binary, the rest through the CLI's main in-process (run_main)."""

from __future__ import annotations

import json
from pathlib import Path


def test_bench_add_list_show_json_contract(run_cli) -> None:
    added = run_cli("bench", "add", "--config", "SGLang baseline", "--value", "50", "--baseline",
                    "--concurrency", "1", "--accept-length", "1.0", "--draft-tokens", "4",
                    "--notes", "tp1 cuda graphs", "--tag", "h200", "--tag", "llama8b", "--json", check=True)
    record = json.loads(added.stdout)["records"][0]
    for key in ("id", "kind", "created_at", "config", "metric", "value", "unit", "baseline",
                "accept_length", "num_draft_tokens", "concurrency", "notes", "tags", "host"):
        assert key in record
    assert record["metric"] == "output_tok_s" and record["value"] == 50.0 and record["baseline"] is True
    assert record["tags"] == ["h200", "llama8b"] and record["num_draft_tokens"] == 4

    listed = json.loads(run_cli("list", "--kind", "benchmark", "--json", check=True).stdout)["records"]
    assert [r["id"] for r in listed] == [record["id"]]
    shown = run_cli("show", record["id"][:6], check=True).stdout
    assert "SGLang baseline" in shown and "tp1 cuda graphs" in shown
    # shown to the second; the JSON keeps the stored microseconds (sync orders edits by them)
    created = next(line for line in shown.splitlines() if line.startswith("created_at ")).split()[1]
    assert created[:19] == record["created_at"][:19] and "." not in created
    as_json = json.loads(run_cli("show", record["id"], "--json", check=True).stdout)["records"][0]
    assert as_json["created_at"] == record["created_at"] == listed[0]["created_at"]


def test_times_are_shown_to_the_second() -> None:
    from sessiontui.tui.commands.common import to_the_second

    assert to_the_second("2026-12-01T18:29:19.123456+00:00") == "2026-12-01T18:29:19+00:00"
    assert to_the_second("2026-12-01T18:29:19Z") == "2026-12-01T18:29:19Z"  # as stored
    assert to_the_second("yesterday") == "yesterday"


def test_git_state_is_stamped_inside_a_repository(run_main, tmp_path: Path) -> None:
    import subprocess

    repo = tmp_path / "proj"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", "-b", "exp"], cwd=repo, check=True)
    (repo / "f").write_text("x")
    subprocess.run(["git", "-c", "user.email=a@b", "-c", "user.name=a", "commit", "-qam", "x",
                    "--allow-empty"], cwd=repo, check=True)
    subprocess.run(["git", "add", "f"], cwd=repo, check=True)
    record = json.loads(run_main("note", "add", "hello", "--json", cwd=repo, check=True).stdout)["records"][0]
    assert record["git_branch"] == "exp" and len(record["git_commit"]) == 40
    assert record["git_dirty"] is True


def test_lesson_note_edit_rm_restore(run_main) -> None:
    lesson = json.loads(run_main("lesson", "add", "--title", "Triton smem", "--symptom", "OutOfResources",
                                "--cause", "BLOCK too big", "--fix", "num_stages=2", "--json", check=True).stdout)["records"][0]
    run_main("note", "add", "packing", "was", "off", check=True)
    run_main("edit", lesson["id"], "--fix", "num_stages=1", "--set", "tags=triton,smem", check=True)
    shown = json.loads(run_main("show", lesson["id"], "--json", check=True).stdout)["records"][0]
    assert shown["fix"] == "num_stages=1" and shown["tags"] == ["triton", "smem"]
    run_main("rm", lesson["id"], check=True)
    assert [r["kind"] for r in json.loads(run_main("list", "--json").stdout)["records"]] == ["note"]
    assert lesson["id"] in run_main("list", "--trash").stdout
    run_main("restore", lesson["id"], check=True)
    assert len(json.loads(run_main("list", "--json").stdout)["records"]) == 2


def test_lesson_add_requires_its_fields(run_main) -> None:
    result = run_main("lesson", "add", "--title", "only a title")
    assert result.returncode != 0 and "--symptom" in result.stderr


def test_ask_json_contract(run_main) -> None:
    run_main("bench", "add", "--config", "baseline", "--value", "50", "--baseline", check=True)
    run_main("bench", "add", "--config", "eagle3", "--value", "60", "--accept-length", "2.2", check=True)
    out = json.loads(run_main("ask", "what's the baseline?", "--json", check=True).stdout)
    assert set(out) >= {"intent", "text", "records", "figures"}
    assert out["intent"] == "baseline" and out["figures"]["reference_value"] == 50.0
    speed = json.loads(run_main("ask", "current speedup?", "--json", check=True).stdout)
    assert speed["intent"] == "speedup" and abs(speed["figures"]["measured_speedup"] - 1.2) < 1e-9


def test_export_import_idempotent(run_main, tmp_path: Path) -> None:
    run_main("note", "add", "first", check=True)
    run_main("bench", "add", "--config", "c", "--value", "1.5", check=True)
    path = tmp_path / "export.toml"
    run_main("export", str(path), check=True)
    assert run_main("export", check=True).stdout == path.read_text()
    assert "0 added, 0 updated" in run_main("import", str(path), check=True).stdout


def test_bad_value_is_one_line_error(run_main) -> None:
    for value in ("abc", "nan"):
        result = run_main("bench", "add", "--config", "x", "--value", value)
        assert result.returncode != 0
        assert len(result.stderr.strip().splitlines()) == 1 and "--value" in result.stderr
    assert json.loads(run_main("list", "--json").stdout)["records"] == []


def test_corrupt_database_is_one_line_error_and_untouched(run_main, memory_dir: Path) -> None:
    memory_dir.mkdir(parents=True)
    db = memory_dir / "memory.db"
    db.write_bytes(b"\x00garbage" * 1000)
    before = db.read_bytes()
    for args in (("list",), ("ask", "what's the baseline?"), ("note", "add", "x")):
        result = run_main(*args)
        assert result.returncode != 0
        assert len(result.stderr.strip().splitlines()) == 1 and str(db) in result.stderr
        assert "Traceback" not in result.stderr
    assert db.read_bytes() == before


def test_unwritable_directory_is_one_line_error(run_main, tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    result = run_main("note", "add", "x", env={"SESSIONTUI_DIR": str(blocker / "sub")})
    assert result.returncode != 0
    assert len(result.stderr.strip().splitlines()) == 1 and "cannot create folder" in result.stderr


def test_bidi_overrides_and_zero_width_characters_are_shown_escaped(run_main) -> None:
    sneaky = "rm\u202e-rf\u200b /tmp\u2066x\u2069\ufeff"
    run_main("note", "add", sneaky, check=True)
    listed = run_main("list", check=True).stdout
    assert "rm\\u202e-rf\\u200b /tmp\\u2066x\\u2069\\ufeff" in listed
    assert not any(ch in listed for ch in "\u202e\u200b\u2066\u2069\ufeff")
    assert json.loads(run_main("list", "--json", check=True).stdout)["records"][0]["text"] == sneaky
