"""`sessiontui sync` through a real bare git remote and three clones of it."""

from __future__ import annotations

import itertools
import json
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import git
import pytest

from sessiontui.project_memory.records import Record
from sessiontui.project_memory.store import Store
from sessiontui.project_memory.sync_state import load_state, unsynced
from sessiontui.tui.commands.sync import (
    SYNC_FILE,
    SyncError,
    _resolve_conflict,
    merge_file,
    sync_with_remote,
)

DAY1, DAY2, DAY3 = (f"2026-03-0{d}T10:00:00+00:00" for d in (1, 2, 3))


@dataclass
class Clone:
    """One teammate: a clone of the shared repository and a memory of their own."""

    repo: git.Repo
    store: Store

    def sync(self) -> None:
        sync_with_remote(self.store, self.repo)

    def everything(self) -> list[dict]:
        return sorted((r.to_dict() for r in self.store.list() + self.store.list(deleted=True)),
                      key=lambda r: r["id"])


@pytest.fixture(autouse=True)
def git_identity(monkeypatch: pytest.MonkeyPatch) -> None:
    for role in ("AUTHOR", "COMMITTER"):
        monkeypatch.setenv(f"GIT_{role}_NAME", "teammate")
        monkeypatch.setenv(f"GIT_{role}_EMAIL", "teammate@example.invalid")


@pytest.fixture(scope="module")
def made_once(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A bare repository with one commit on main, as a team's shared remote, and three clones of
    it: git builds them once (a dozen git processes), each test copies them."""
    made = tmp_path_factory.mktemp("sync-repos")
    identity = {f"GIT_{role}_{part}": value for role in ("AUTHOR", "COMMITTER")
                for part, value in (("NAME", "teammate"), ("EMAIL", "teammate@example.invalid"))}
    bare = made / "remote.git"
    git.Repo.init(bare, bare=True, initial_branch="main").close()
    seed = git.Repo.clone_from(bare, made / "seed")
    (made / "seed" / "README").write_text("project\n")
    seed.git.add("README")
    seed.git.commit("-m", "start", env=identity)
    seed.git.push("origin", "HEAD:main")
    seed.close()
    for name in "abc":
        git.Repo.clone_from(bare, made / name).close()
    return made


@pytest.fixture
def remote(made_once: Path, tmp_path: Path) -> Path:
    """This test's own copy of the shared remote."""
    return Path(shutil.copytree(made_once / "remote.git", tmp_path / "remote.git", symlinks=True))


def copied_clone(made_once: Path, name: str, remote: Path) -> git.Repo:
    """A copy of clone NAME whose origin is this test's remote (the URL is in .git/config)."""
    work = Path(shutil.copytree(made_once / name, remote.parent / name, symlinks=True))
    config = work / ".git" / "config"
    config.write_text(config.read_text().replace(str(made_once / "remote.git"), str(remote)))
    return git.Repo(work)


@pytest.fixture
def clones(made_once: Path, remote: Path):
    made = []
    for name in "abc":
        made.append(Clone(copied_clone(made_once, name, remote),
                          Store(remote.parent / f"memory-{name}" / "memory.db")))
    yield made
    for clone in made:
        clone.store.close()
        clone.repo.close()


def note(text: str, id: str) -> Record:
    return Record(kind="note", id=id, text=text, created_at=DAY1, updated_at=DAY1)


def edit(store: Store, record_id: str, at: str, **changes: object) -> None:
    """An edit made at a known time (Store.update would stamp the current second)."""
    record = store.get(record_id, include_deleted=True)
    for name, value in {**changes, "updated_at": at}.items():
        setattr(record, name, value)
    store.put_all([record])


@pytest.mark.parametrize("order", list(itertools.permutations(range(3))))
def test_three_clones_end_identical_with_nothing_lost_in_any_order(clones, order) -> None:
    a, b, c = clones
    a.store.add_all([note("shared x", "n-x"), note("shared y", "n-y"), note("shared z", "n-z")])
    for clone in clones:
        clone.sync()
    # Then, offline: a and b edit x (b later), b deletes y, c edits z; each adds a note.
    edit(a.store, "n-x", DAY2, text="x as a wrote it")
    edit(b.store, "n-x", DAY3, text="x as b wrote it")
    edit(b.store, "n-y", DAY2, deleted_at=DAY2)
    edit(c.store, "n-z", DAY2, text="z as c wrote it")
    for clone, name in zip(clones, "abc", strict=True):
        clone.store.add(note(f"new from {name}", f"n-{name}"))

    for i in order + order:  # two rounds: the last clone of the first round saw everything
        clones[i].sync()

    ends = [clone.everything() for clone in clones]
    assert ends[0] == ends[1] == ends[2]
    files = {(Path(clone.repo.working_tree_dir) / SYNC_FILE).read_text() for clone in clones}
    assert len(files) == 1
    final = {r["id"]: r for r in ends[0]}
    assert set(final) == {"n-x", "n-y", "n-z", "n-a", "n-b", "n-c"}
    assert final["n-x"]["text"] == "x as b wrote it"
    assert [v["text"] for v in final["n-x"]["history"]] == ["x as a wrote it"]
    assert final["n-y"]["deleted_at"] == DAY2 and final["n-y"]["history"] == []
    assert final["n-z"]["text"] == "z as c wrote it" and final["n-z"]["history"] == []
    assert not any(unsynced(clone.store, load_state(clone.store.path.parent)) for clone in clones)


def test_a_conflict_left_by_a_plain_git_pull_is_resolved_from_both_sides(clones) -> None:
    a, b, _ = clones
    a.store.add(note("before", "n-0"))
    a.sync()
    b.sync()
    a.store.add(note("a's new note", "n-a"))
    edit(a.store, "n-0", DAY2, text="a's edit")
    a.sync()
    b.store.add(note("b's new note", "n-b"))
    edit(b.store, "n-0", DAY3, text="b's edit")
    merge_file(b.store, Path(b.repo.working_tree_dir) / SYNC_FILE)
    b.repo.git.commit("-am", "b's memory")
    with pytest.raises(git.GitCommandError):
        b.repo.git.pull("--no-rebase", "origin", "main")  # git stops: both changed the file
    shared = Path(b.repo.working_tree_dir) / SYNC_FILE
    assert "<<<<<<<" in shared.read_text()

    b.sync()  # resolves the markers, finishes git's merge, pushes
    a.sync()

    assert "<<<<<<<" not in shared.read_text()
    assert a.everything() == b.everything()
    final = {r["id"]: r for r in a.everything()}
    assert set(final) == {"n-0", "n-a", "n-b"}
    assert final["n-0"]["text"] == "b's edit"
    assert [v["text"] for v in final["n-0"]["history"]] == ["a's edit"]
    assert not b.repo.git.diff("--name-only", "--diff-filter=U")


def test_cli_sync_shares_records_and_says_what_it_did(remote: Path, tmp_path: Path, run_main) -> None:
    work = tmp_path / "work"
    git.Repo.clone_from(remote, work).close()
    run_main("note", "add", "from the command line", check=True, cwd=work)
    assert unsynced_via_state(run_main, work)
    done = run_main("sync", "--push", "--json", check=True, cwd=work)
    report = json.loads(done.stdout)
    assert report["pushed"] == "origin/main" and report["total"] == 1 and report["sent"] == 1
    log = subprocess.run(["git", "log", "--oneline", "origin/main", "--", SYNC_FILE], cwd=work,
                         capture_output=True, text=True, check=True).stdout
    assert "sessiontui sync" in log
    assert "from the command line" in (work / SYNC_FILE).read_text()
    assert not unsynced_via_state(run_main, work)

    teammate = tmp_path / "teammate"
    git.Repo.clone_from(remote, teammate).close()
    theirs = {"SESSIONTUI_DIR": str(tmp_path / "teammate-memory")}
    received = json.loads(run_main("sync", "--push", "--json", check=True, cwd=teammate, env=theirs).stdout)
    assert received["received"] == 1 and received["total"] == 1
    listed = run_main("list", check=True, cwd=teammate, env=theirs).stdout
    assert "from the command line" in listed


def unsynced_via_state(run_cli, work: Path) -> bool:
    """Whether the memory has changes the last sync did not share (as the app would tell)."""
    text = run_cli("sync", "--status", cwd=work).stdout
    return "unsynced" in text


def test_sync_outside_git_is_one_line(run_main, tmp_path: Path) -> None:
    done = run_main("sync", cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr == "sessiontui sync: not inside a git repository: sync shares the memory through one\n"


def test_a_row_this_version_cannot_read_stays_local_and_sync_goes_on(clones) -> None:
    a, b, _ = clones
    a.store.add_all([note("fine", "n-ok"), note("will break", "n-bad")])
    a.store._db.execute("UPDATE records SET body = 'not json' WHERE id = 'n-bad'")  # a damaged row
    a.sync()
    b.sync()
    assert [r["id"] for r in b.everything()] == ["n-ok"]
    assert "n-bad" not in (Path(a.repo.working_tree_dir) / SYNC_FILE).read_text()


def test_conflicts_in_the_users_own_files_undo_the_pull_and_say_so(clones) -> None:
    a, b, _ = clones
    for clone, text in ((a, "a's readme\n"), (b, "b's readme\n")):
        (Path(clone.repo.working_tree_dir) / "README").write_text(text)
        clone.repo.git.commit("-am", "readme")
    a.store.add(note("a's note", "n-a"))
    a.sync()
    b.store.add(note("b's note", "n-b"))
    with pytest.raises(SyncError, match="conflicts in 'README' and was undone"):
        b.sync()
    git_dir = Path(b.repo.git_dir)
    assert not (git_dir / "rebase-merge").exists() and not (git_dir / "rebase-apply").exists()
    assert (Path(b.repo.working_tree_dir) / "README").read_text() == "b's readme\n"
    assert [r["id"] for r in b.everything()] == ["n-b"]  # nothing stored is lost


# -- what real git leaves behind; concurrent changes ------------------------------------------
SAME_SECOND = "2026-03-02T10:00:00+00:00"


def shared(clone) -> Path:
    return Path(clone.repo.working_tree_dir) / SYNC_FILE


def stop_a_pull_on_the_memory_file(a, b) -> None:
    """a pushes an edit of n-0; b commits its own and runs a plain `git pull --rebase`, which
    stops on the shared file (as after a SIGKILL during `sync --push`)."""
    a.store.add(note("before", "n-0"))
    a.sync()
    b.sync()
    edit(a.store, "n-0", DAY2, text="a's edit")
    a.sync()
    b.store.add(note("b's note", "n-b"))
    merge_file(b.store, shared(b))
    b.repo.git.commit("-am", "b's memory")
    with pytest.raises(git.GitCommandError):
        b.repo.git.pull("--rebase", "origin", "main")
    assert (Path(b.repo.git_dir) / "rebase-merge").exists() or (Path(b.repo.git_dir) / "rebase-apply").exists()


def test_plain_sync_finishes_a_rebase_stopped_on_the_memory_file(clones) -> None:
    a, b, _ = clones
    stop_a_pull_on_the_memory_file(a, b)
    merge_file_report = subprocess.run(["git", "status", "--porcelain"], cwd=b.repo.working_tree_dir,
                                       capture_output=True, text=True, check=True).stdout
    assert f"UU {SYNC_FILE}" in merge_file_report
    _resolve_conflict(b.repo, b.store, shared(b))  # what `sessiontui sync` runs first
    status = b.repo.git.status("--porcelain")
    assert "UU" not in status and not (Path(b.repo.git_dir) / "rebase-merge").exists()
    assert not b.repo.head.is_detached
    b.sync()  # and --push then works: no "HEAD is detached"
    a.sync()
    assert a.everything() == b.everything()
    assert {r["id"] for r in a.everything()} == {"n-0", "n-b"}


def test_a_resolved_but_unfinished_rebase_is_continued(clones) -> None:
    """Killed after `git add` but before `git rebase --continue`: nothing unmerged, still rebasing."""
    a, b, _ = clones
    stop_a_pull_on_the_memory_file(a, b)
    b.repo.git.checkout("--theirs", SYNC_FILE)
    b.repo.git.add(SYNC_FILE)
    b.sync()
    a.sync()
    assert not b.repo.head.is_detached and a.everything() == b.everything()


def test_other_conflicts_are_refused_in_one_line_naming_files_with_spaces(clones) -> None:
    a, b, _ = clones
    for clone, text in ((a, "a\n"), (b, "b\n")):
        (Path(clone.repo.working_tree_dir) / "my notes.txt").write_text(text)
        clone.repo.git.add("my notes.txt")
        clone.repo.git.commit("-m", "notes")
    a.repo.git.push("origin", "HEAD:main")
    with pytest.raises(git.GitCommandError):
        b.repo.git.pull("--no-rebase", "origin", "main")
    with pytest.raises(SyncError, match="conflicts in 'my notes.txt'") as stopped:
        b.sync()
    assert "\n" not in str(stopped.value)


def test_a_committed_symlink_is_never_written_through(clones, tmp_path: Path) -> None:
    a, _, _ = clones
    outside = tmp_path / "outside.toml"
    outside.write_text("keep me\n")
    os.chmod(outside, 0o600)
    shared(a).symlink_to(outside)
    a.store.add(note("private", "n-p"))
    with pytest.raises(SyncError, match="symbolic link"):
        a.sync()
    with pytest.raises(SyncError, match="symbolic link"):
        merge_file(a.store, shared(a))
    assert outside.read_text() == "keep me\n" and outside.stat().st_mode & 0o777 == 0o600


def test_a_push_refused_by_a_hook_says_so_and_stays_unsynced(clones, remote: Path, run_main) -> None:
    a, _, _ = clones
    hook = remote / "hooks" / "pre-receive"
    hook.write_text("#!/bin/sh\necho 'pushes are frozen for the release'\nexit 1\n")
    hook.chmod(0o755)
    a.store.add(note("waiting", "n-w"))
    with pytest.raises(SyncError, match="refused the push.*frozen for the release"):
        a.sync()
    assert load_state(a.store.path.parent).push_failed
    env = {"SESSIONTUI_DIR": str(a.store.path.parent)}
    status = run_main("sync", "--status", "--json", cwd=Path(a.repo.working_tree_dir), env=env)
    assert status.returncode == 1 and json.loads(status.stdout)["unsynced"] is True
    hook.unlink()
    a.sync()
    status = run_main("sync", "--status", cwd=Path(a.repo.working_tree_dir), env=env)
    assert status.returncode == 0, status.stdout


def test_a_delete_beats_an_edit_of_the_same_second_on_every_clone(clones) -> None:
    a, b, c = clones
    a.store.add(note("doomed", "n-d"))
    for clone in clones:
        clone.sync()
    edit(a.store, "n-d", SAME_SECOND, deleted_at=SAME_SECOND)
    edit(b.store, "n-d", SAME_SECOND, text="edited, concurrently")
    for clone in (b, a, c, b, a):
        clone.sync()
    for clone in clones:
        [record] = [r for r in clone.everything() if r["id"] == "n-d"]
        assert record["deleted_at"] == SAME_SECOND
        assert [v.get("text") for v in record["history"]] == ["edited, concurrently"]


def test_every_superseded_edit_is_named(clones, run_main) -> None:
    a, b, _ = clones
    a.store.add(note("x", "n-x"))
    a.sync()
    b.sync()
    edit(a.store, "n-x", "2026-03-02T10:42:03.250000+00:00", text="a's", revision=3)
    edit(b.store, "n-x", "2026-03-02T10:42:03.500000+00:00", text="b's", revision=2)
    b.sync()  # b's edit goes first; a's (higher revision) then replaces it
    env = {"SESSIONTUI_DIR": str(a.store.path.parent)}
    a.store.close()
    assert run_main("sync", "--push", cwd=Path(a.repo.working_tree_dir), env=env).returncode == 0
    result = run_main("sync", "--push", "--json", cwd=Path(b.repo.working_tree_dir),
                     env={"SESSIONTUI_DIR": str(b.store.path.parent)})
    assert result.returncode == 0, result.stderr
    [replaced] = json.loads(result.stdout)["superseded"]
    assert (replaced["id"], replaced["field"], replaced["yours"], replaced["by"]) == (
        "n-x", "text", "b's", "edit")
    assert replaced["at"].startswith("2026-03-02T10:42:03.25")


def test_superseded_line_reads_as_the_issue_asks() -> None:
    from sessiontui.project_memory.sync import Superseded

    line = Superseded("b-12ab", "value", 51.0, "edit", "2026-03-02T10:42:03.4+00:00").line()
    assert line == ("b-12ab: your value 51.0 replaced by a teammate's edit of 2026-03-02 10:42:03 UTC; "
                    "kept in history")


