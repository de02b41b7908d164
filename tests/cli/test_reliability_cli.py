"""Issue 16: nothing lost, nothing wrong stored, never a traceback. What depends on the process
(file-size limits, endless stdin, a read-only folder as another user, concurrent writers) runs
the real binary (run_cli); the rest, and the writes that set those up, the CLI's main
in-process (run_main)."""

from __future__ import annotations

import contextlib
import json
import os
import resource
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from sessiontui.project_memory.store import Store
from tests.conftest import sessiontui_command

FIXTURES = Path(__file__).parents[1] / "fixtures"
# Root without these capabilities obeys file modes like any user, while still owning the checkout
# (a user such as `nobody` may not even reach a checkout in a private folder).
NO_OVERRIDE = "-dac_override,-dac_read_search"


def one_line_error(result: subprocess.CompletedProcess) -> str:
    assert "Traceback" not in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    return result.stderr


def listed(run_cli) -> list[dict]:
    return json.loads(run_cli("list", "--json", check=True).stdout)["records"]


# -- 1. export with run records ---------------------------------------------------------------
def test_export_of_a_project_with_a_run_record_round_trips(run_main, tmp_path: Path) -> None:
    log = tmp_path / "t.log"
    shutil.copy(FIXTURES / "trainlog" / "megatron.log", log)
    run_main("watch", "--once", "--log", str(log), check=True)
    out = tmp_path / "memory.toml"
    one = run_main("export", str(out))
    assert one.returncode == 0, one.stderr
    [run] = [r for r in tomllib.loads(out.read_text())["record"] if r["kind"] == "run"]
    assert run["milestones"] and run["log_path"] == str(log)
    fresh = run_main("import", str(out), env={"SESSIONTUI_DIR": str(tmp_path / "other")})
    assert fresh.returncode == 0 and "1 added" in fresh.stdout, fresh.stderr


# -- 2. bench add and edit keep to the bounds -------------------------------------------------
@pytest.mark.parametrize(
    ("flags", "named"),
    [
        (("--value", "-5"), "value"),
        (("--value", "0"), "value"),
        (("--value", "1e308"), "value"),
        (("--value", "5", "--concurrency", "0"), "concurrency"),
        (("--value", "5", "--concurrency", "-1"), "concurrency"),
        (("--value", "5", "--accept-length", "-2"), "accept_length"),
        (("--value", "5", "--accept-length", "0.5"), "accept_length"),
    ],
)
def test_bench_add_refuses_implausible_values(run_main, flags: tuple, named: str) -> None:
    result = run_main("bench", "add", "--config", "x", *flags)
    assert result.returncode == 2 and named in one_line_error(result)
    assert listed(run_main) == []


def test_bench_add_refuses_an_empty_config_and_edit_keeps_the_bounds(run_main) -> None:
    result = run_main("bench", "add", "--config", " ", "--value", "5")
    assert result.returncode == 2 and "config" in one_line_error(result)
    added = json.loads(run_main("bench", "add", "--config", "x", "--value", "5", "--json",
                               check=True).stdout)["records"][0]
    for flags in (("--value", "-1"), ("--set", "accept_length=0"), ("--set", "concurrency=0")):
        result = run_main("edit", added["id"], *flags)
        assert result.returncode == 2, result.stderr
        one_line_error(result)
    assert listed(run_main)[0]["value"] == 5.0


@pytest.mark.parametrize("written", ["-681.30", "1e308", "0.00"])
def test_record_from_refuses_implausible_parsed_values(run_main, tmp_path: Path, written: str) -> None:
    text = (FIXTURES / "bench" / "sglang_bench_serving.txt").read_text()
    assert "681.30" in text
    changed = tmp_path / "changed.txt"
    changed.write_text(text.replace("681.30", written))
    result = run_main("record", "--from", str(changed))  # exit 2: implausible, or not found at all
    assert result.returncode == 2, result.stdout
    one_line_error(result)
    assert listed(run_main) == []


# -- 3. and 12. import: all or nothing, every problem named -----------------------------------
def write(tmp_path: Path, text: str, name: str = "in.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


GOOD = '[[record]]\nkind = "note"\nid = "n-1"\ncreated_at = "2026-01-01T00:00:00+00:00"\ntext = "ok"\n'


@pytest.mark.parametrize(
    ("body", "named"),
    [
        ('value = "abc"', "record 2 value"),
        ("value = nan", "record 2 value"),
        ('baseline = "yes"', "record 2 baseline"),
        ("events = [1, 2]", "record 2 events"),
        ('created_at = "yesterday"', "record 2 created_at"),
        ('created_at = "2099-01-01T00:00:00+00:00"', "record 2 created_at: lies in the future"),
        ("concurrency = 0", "record 2 concurrency"),
        ('colour = "red"', "record 2 colour: is not a record field"),
    ],
)
def test_import_names_the_record_and_field_and_imports_nothing(
    run_main, tmp_path: Path, body: str, named: str
) -> None:
    bench = '[[record]]\nkind = "benchmark"\nid = "b-2"\nconfig = "c"\nvalue = 50.0\n'
    bench += 'created_at = "2026-01-01T00:00:00+00:00"\n'
    lines = [line for line in bench.splitlines() if line.split(" =")[0] != body.split(" =")[0]]
    path = write(tmp_path, GOOD + "\n".join([*lines, body]) + "\n")
    result = run_main("import", str(path))
    assert result.returncode == 1 and named in one_line_error(result)
    assert listed(run_main) == []  # the good first record was not imported either


def test_import_lists_every_problem_in_one_line(run_main, tmp_path: Path) -> None:
    path = write(tmp_path, 'record = "x"\n')
    assert run_main("import", str(path)).returncode == 1
    text = GOOD + GOOD.replace('"n-1"', '"n-2"').replace('text = "ok"', "text = 5")
    text += GOOD.replace('"n-1"', '"n-3"').replace('"2026', '"20x6')
    result = run_main("import", str(write(tmp_path, text)))
    message = one_line_error(result)
    assert "2 problem(s)" in message and "record 2 text" in message and "record 3 created_at" in message


def test_native_toml_datetimes_are_accepted_and_normalised(run_main, tmp_path: Path) -> None:
    text = GOOD.replace('"2026-01-01T00:00:00+00:00"', "2026-01-01T02:00:00+02:00")
    result = run_main("import", str(write(tmp_path, text)))
    assert result.returncode == 0, result.stderr
    assert listed(run_main)[0]["created_at"] == "2026-01-01T00:00:00+00:00"


def test_import_refuses_a_newer_format_and_unknown_top_level_keys(run_main, tmp_path: Path) -> None:
    newer = run_main("import", str(write(tmp_path, "format_version = 2\n" + GOOD)))
    assert newer.returncode == 1 and "newer sessiontui" in one_line_error(newer)
    unknown = run_main("import", str(write(tmp_path, 'format_version = 1\nowner = "me"\n' + GOOD)))
    assert unknown.returncode == 1 and "owner" in one_line_error(unknown)
    assert listed(run_main) == []


def test_duplicate_ids_with_different_content_are_reported(run_main, tmp_path: Path) -> None:
    same = run_main("import", str(write(tmp_path, GOOD + GOOD)))
    assert same.returncode == 0 and "1 added" in same.stdout
    other = GOOD + GOOD.replace('text = "ok"', 'text = "changed"')
    result = run_main("import", str(write(tmp_path, other, "other.toml")))
    assert result.returncode == 1 and "record 2 id: n-1 is also record 1" in one_line_error(result)


# -- 7. a future-dated import never reverts a later local edit ---------------------------------
def test_reimporting_an_export_after_a_local_edit_keeps_the_edit(run_main, tmp_path: Path) -> None:
    added = json.loads(run_main("bench", "add", "--config", "b", "--value", "50", "--baseline",
                               "--json", check=True).stdout)["records"][0]
    export = tmp_path / "e.toml"
    run_main("export", str(export), check=True)
    run_main("edit", added["id"], "--value", "77", check=True)
    run_main("import", str(export), check=True)
    assert listed(run_main)[0]["value"] == 77.0


# -- 8. damaged file: no write, salvage ---------------------------------------------------------
def test_a_damaged_memory_refuses_writes_and_salvage_recovers_it(
    run_main, memory_dir: Path, tmp_path: Path
) -> None:
    from tests.project_memory.test_store_reliability import damaged_memory

    memory_dir.mkdir()
    db = memory_dir / "memory.db"
    damaged_memory(db)  # 2,000 notes, three pages of the table overwritten
    before = db.read_bytes()
    refused = run_main("bench", "add", "--config", "c", "--value", "5")
    assert refused.returncode == 1 and "damaged" in one_line_error(refused)
    assert "salvage" in refused.stderr and db.read_bytes() == before
    out = tmp_path / "salvaged.toml"
    result = run_main("salvage", str(out))
    assert result.returncode == 3 and "could not be read (lost)" in result.stdout  # a result, not an error
    assert result.stderr == ""
    saved = tomllib.loads(out.read_text())["record"]
    lost = int(result.stdout.split("; ")[1].split()[0])
    assert len(saved) + lost == 2000 and len(saved) > 1900
    db.rename(memory_dir / "damaged.db")
    restored = run_main("import", str(out))
    assert restored.returncode == 0 and f"{len(saved)} added" in restored.stdout


# -- 9. export PATH ---------------------------------------------------------------------------
def test_export_to_a_missing_folder_or_a_folder(run_main, tmp_path: Path) -> None:
    run_main("note", "add", "n", check=True)
    missing = run_main("export", str(tmp_path / "nope" / "m.toml"))
    assert missing.returncode == 1 and "does not exist" in one_line_error(missing)
    folder = tmp_path / "out"
    folder.mkdir()
    done = run_main("export", str(folder), check=True)
    assert (folder / "sessiontui-memory.toml").is_file() and "sessiontui-memory.toml" in done.stdout
    assert not (tmp_path / "out.tmp").exists()


def limited_file_size(limit: int):
    """A preexec_fn: files may grow to `limit` bytes, past which writes fail (EFBIG), as on a
    full disk; SIGXFSZ ignored so the write returns an error instead of killing the process."""

    def apply() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return apply


def run_limited(memory_dir: Path, cwd: Path, limit: int, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "SESSIONTUI_DIR": str(memory_dir)}
    return subprocess.run([*sessiontui_command(), *args], capture_output=True, text=True, env=env,
                          cwd=cwd, preexec_fn=limited_file_size(limit), timeout=120)


def test_export_to_a_full_disk_leaves_no_partial_file(run_main, memory_dir: Path, tmp_path: Path) -> None:
    for letter in "xyz":
        run_main("note", "add", letter * 100_000, check=True)
    folder = tmp_path / "out"
    folder.mkdir()
    result = run_limited(memory_dir, tmp_path, 64 * 1024, "export", str(folder / "m.toml"))
    assert result.returncode == 1 and "File too large" in one_line_error(result)
    assert list(folder.iterdir()) == []


def test_a_full_disk_during_import_names_the_cause(run_main, memory_dir: Path, tmp_path: Path) -> None:
    run_main("note", "add", "first", check=True)
    notes = "".join(GOOD.replace('"n-1"', f'"n-{i}"').replace('"ok"', f'"{"x" * 500}"')
                    for i in range(2000))
    size = (memory_dir / "memory.db").stat().st_size
    result = run_limited(memory_dir, tmp_path, size + 64 * 1024, "import", str(write(tmp_path, notes)))
    message = one_line_error(result)
    assert result.returncode == 1 and "rollback" not in message and "nothing was written" in message
    assert len(listed(run_main)) == 1


# -- 11. control characters -------------------------------------------------------------------
def test_control_sequences_from_stored_text_are_escaped_but_json_is_exact(run_main) -> None:
    hostile = "clear\x1b[2J title\x1b]0;pwned\x07 clip\x1b]52;c;aGk=\x07 csi\x9b31m end"
    added = json.loads(run_main("note", "add", hostile, "--json", check=True).stdout)["records"][0]
    assert added["text"] == hostile  # JSON: the exact value
    for args in (("list",), ("show", added["id"]), ("note", "add", hostile)):
        out = run_main(*args, check=True).stdout
        assert "\x1b" not in out and "\x07" not in out and "\x9b" not in out
        assert "\\x1b[2J" in out or args == ("list",)
    assert "\\x1b" in run_main("list", check=True).stdout
    exported = run_main("export", check=True).stdout
    assert "\x9b" not in exported and tomllib.loads(exported)["record"][0]["text"] == hostile


def test_a_multi_line_label_keeps_list_at_one_line_per_record(run_main) -> None:
    run_main("bench", "add", "--config", "a\nb\tc", "--value", "50", check=True)
    run_main("note", "add", "first", check=True)
    lines = run_main("list", check=True).stdout.splitlines()
    assert len(lines) == 2 and "a\\nb\\tc" in lines[1]


def test_an_imported_id_with_control_characters_or_spaces_is_refused(run_main, tmp_path: Path) -> None:
    path = tmp_path / "in.toml"
    path.write_text('format_version = 1\n[[record]]\nkind = "note"\ntext = "t"\n'
                    'created_at = "2026-01-01T00:00:00Z"\nid = "x\\u001b[2J y"\n')
    result = run_main("import", str(path))
    assert result.returncode == 1 and "record 1 id: must be" in one_line_error(result)
    assert listed(run_main) == []


def test_the_revision_is_kept_by_the_store_not_edited(run_main) -> None:
    added = json.loads(run_main("note", "add", "n", "--json", check=True).stdout)["records"][0]
    result = run_main("edit", added["id"], "--set", f"revision={2**62}")
    assert result.returncode == 2 and "cannot set field 'revision'" in one_line_error(result)
    assert run_main("edit", added["id"], "--set", "text=m").returncode == 0


@pytest.mark.parametrize("args", [("import", "/dev/zero"), ("record", "--from", "/dev/zero")])
def test_an_endless_input_is_one_line_error_not_a_memory_blow_up(run_cli, args) -> None:
    result = run_cli(*args)
    assert result.returncode == 1 and "larger than" in one_line_error(result)


# -- 13. read-only folder ---------------------------------------------------------------------
@pytest.fixture
def read_only_memory() -> Iterator[Path]:
    """A memory folder a process without root's file-mode override can read but not write."""
    if os.geteuid() != 0 or shutil.which("setpriv") is None:
        pytest.skip("needs root and setpriv to run a command without write access")
    top = Path(tempfile.mkdtemp(prefix="sessiontui-ro-"))
    top.chmod(0o755)
    try:
        yield top / "memory"
    finally:
        shutil.rmtree(top)


def make_read_only(folder: Path) -> None:
    """Files 0444 and the folder 0555, as a read-only share or a colleague's project gives them."""
    for path in folder.iterdir():
        path.chmod(0o444)
    folder.chmod(0o555)


def as_reader(memory: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "SESSIONTUI_DIR": str(memory), "HOME": str(memory.parent)}
    command = ["setpriv", "--bounding-set", NO_OVERRIDE, "--", *sessiontui_command(), *args]
    return subprocess.run(command, capture_output=True, text=True, env=env, cwd=memory.parent,
                          timeout=120)


def test_read_commands_work_in_a_read_only_folder(run_main, read_only_memory: Path) -> None:
    env = {"SESSIONTUI_DIR": str(read_only_memory)}
    run_main("bench", "add", "--config", "base", "--value", "50", "--baseline", env=env, check=True)
    log = read_only_memory.parent / "t.log"
    shutil.copy(FIXTURES / "trainlog" / "megatron.log", log)
    log.chmod(0o644)
    make_read_only(read_only_memory)
    for args in (("list",), ("export",), ("ask", "what's the baseline?"),
                 ("train", "status", "--log", str(log)), ("speedup", "--acc", "0.7,0.5"),
                 ("show", "b-")):
        result = as_reader(read_only_memory, *args)
        assert result.returncode == 0, (args, result.stderr)
    assert "50" in as_reader(read_only_memory, "ask", "what's the baseline?").stdout
    refused = as_reader(read_only_memory, "note", "add", "x")
    assert refused.returncode == 1
    assert f"the memory folder {read_only_memory} is read-only" in one_line_error(refused)


def test_train_status_degrades_without_a_store(run_main, memory_dir: Path, tmp_path: Path) -> None:
    memory_dir.mkdir()
    (memory_dir / "memory.db").write_bytes(b"\x00garbage" * 1000)
    log = FIXTURES / "trainlog" / "megatron.log"
    result = run_main("train", "status", "--log", str(log))
    assert result.returncode == 0 and "step" in result.stdout
    assert "lessons were not matched" in one_line_error(result)


def test_a_damaged_body_is_listed_as_invalid_not_a_crash(run_main, memory_dir: Path) -> None:
    added = json.loads(run_main("bench", "add", "--config", "b", "--value", "50", "--baseline",
                               "--json", check=True).stdout)["records"][0]
    db = sqlite3.connect(memory_dir / "memory.db")
    with db:
        db.execute("UPDATE records SET body = json_set(body, '$.value', 'abc')")
    db.close()
    for args in (("list",), ("show", added["id"]), ("ask", "what's the baseline?"), ("export",)):
        result = run_main(*args)
        assert result.returncode == 0 and "Traceback" not in result.stderr, (args, result.stderr)
    assert "INVALID" in run_main("list").stdout


# -- issue 29: concurrent edits of one record ----------------------------------------------------
def test_concurrent_edits_of_other_fields_of_one_record_all_land(run_main, memory_dir: Path) -> None:
    added = json.loads(run_main("bench", "add", "--config", "b", "--value", "50", "--json",
                               check=True).stdout)["records"][0]
    fields = {"concurrency": 8, "batch_size": 4, "input_len": 1024, "output_len": 256,
              "num_steps": 3, "topk": 2}
    env = {**os.environ, "SESSIONTUI_DIR": str(memory_dir)}
    editors = [subprocess.Popen([*sessiontui_command(), "edit", added["id"], "--set", f"{name}={value}"],
                                env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
               for name, value in fields.items()]
    for editor in editors:
        _, err = editor.communicate(timeout=120)
        assert editor.returncode == 0, err
    [stored] = listed(run_main)
    assert {name: stored[name] for name in fields} == fields
    assert stored["revision"] == len(fields)


def test_a_draft_depth_past_the_limit_is_refused_in_one_line(run_main) -> None:
    result = run_main("speedup", "--acc", "0.8,0.6", "--depth", "100000")
    assert result.returncode == 2 and "must be 1 to 64, not 100000" in one_line_error(result)
    assert run_main("speedup", "--acc", "0.8,0.6", "--depth", "64").returncode == 0


def _killed_writer(memory: Path) -> None:
    """A memory whose last writer was SIGKILLed: its newest record only in the -wal file."""
    memory.mkdir(parents=True, exist_ok=True)
    code = ("import os, sys; from sessiontui.project_memory.records import Record; "
            "from sessiontui.project_memory.store import Store; s = Store(sys.argv[1]); "
            "s._db.execute('PRAGMA wal_autocheckpoint = 0'); "
            "s.add(Record(kind='note', text='only in the wal')); os.kill(os.getpid(), 9)")
    subprocess.run([sys.executable, "-c", code, str(memory / "memory.db")], check=False)
    assert (memory / "memory.db-wal").stat().st_size > 0


@pytest.mark.parametrize("shm", [True, False], ids=["with-shm", "wal-only"])
def test_reads_work_on_a_read_only_copy_holding_a_wal(read_only_memory: Path, shm: bool) -> None:
    _killed_writer(read_only_memory)
    if not shm:
        (read_only_memory / "memory.db-shm").unlink()
    make_read_only(read_only_memory)
    for args in (("list",), ("show", "n-"), ("ask", "any notes?")):
        result = as_reader(read_only_memory, *args)
        assert result.returncode == 0 and "Traceback" not in result.stderr, (args, result.stderr)
    assert "only in the wal" in as_reader(read_only_memory, "list").stdout


@pytest.mark.parametrize("killed", [True, False], ids=["killed-writer", "closed"])
def test_salvage_reads_a_memory_in_a_read_only_folder(read_only_memory: Path, killed: bool) -> None:
    _killed_writer(read_only_memory)
    if not killed:  # a writer that closed: no -wal, no -shm left
        Store(read_only_memory / "memory.db").close()
        assert not (read_only_memory / "memory.db-wal").exists()
    make_read_only(read_only_memory)
    out = read_only_memory.parent / "rescued.toml"
    result = as_reader(read_only_memory, "salvage", str(out))
    assert result.returncode == 0, result.stderr
    assert "only in the wal" in out.read_text()


@pytest.fixture
def small_disk() -> Iterator[Path]:
    """A 2 MB tmpfs of its own (needs root's mount), filled by the test."""
    folder = Path(tempfile.mkdtemp(prefix="sessiontui-disk-"))
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs",
                                             str(folder)], capture_output=True).returncode != 0:
        folder.rmdir()
        pytest.skip("needs root to mount a small tmpfs")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=False)
        folder.rmdir()


@pytest.mark.parametrize("killed", [True, False], ids=["killed-writer", "closed"])
def test_reads_work_on_a_full_disk(run_cli, run_main, small_disk: Path, killed: bool) -> None:
    memory = small_disk / "memory"
    env = {"SESSIONTUI_DIR": str(memory)}
    run_main("bench", "add", "--config", "base", "--value", "50", "--baseline", env=env, check=True)
    if killed:
        _killed_writer(memory)
    with (small_disk / "fill").open("wb") as fill, contextlib.suppress(OSError):
        while True:
            fill.write(b"\0" * 65536)
            fill.flush()
    for args in (("list",), ("show", "b-"), ("ask", "what's the baseline?")):
        result = run_cli(*args, env=env)
        assert result.returncode == 0 and "Traceback" not in result.stderr, (args, result.stderr)
    assert "50" in run_cli("ask", "what's the baseline?", env=env).stdout


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs Linux's /dev/full")
@pytest.mark.parametrize("args", [("ask", "what's the baseline?"), ("list", "--json")])
def test_output_to_a_full_disk_is_one_line_not_a_traceback(memory_dir: Path, tmp_path: Path,
                                                           args: tuple[str, ...]) -> None:
    """The real process with its stdout on a full device (the plain question's own exit too)."""
    env = {**os.environ, "SESSIONTUI_DIR": str(memory_dir)}
    with open("/dev/full", "w") as full:
        result = subprocess.run([*sessiontui_command(), *args], stdout=full, stderr=subprocess.PIPE,
                                text=True, env=env, cwd=tmp_path, timeout=120)
    assert result.returncode == 1
    assert result.stderr == "sessiontui: could not write the output: No space left on device\n"


def test_a_bug_in_a_reader_is_one_line_with_where_it_was_raised(run_main, tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from sessiontui.collectors.trainlog import follower

    def broken(self, final: bool = False):
        raise KeyError("epoch")

    monkeypatch.setattr(follower.LogFollower, "catch_up", broken)
    log = tmp_path / "train.log"
    log.write_text("step 1 loss 2.5\n")
    result = run_main("train", "status", "--log", str(log))
    assert result.returncode == 70
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert "internal error (KeyError: 'epoch' at test_reliability_cli.py:" in result.stderr
    with pytest.raises(KeyError):  # the debug switch shows the traceback
        run_main("train", "status", "--log", str(log), env={"SESSIONTUI_DEBUG": "1"})
