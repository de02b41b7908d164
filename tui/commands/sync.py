"""`sessiontui sync [--push]`: share the memory through the project's own git repository.

The records live in one TOML file at the repository root; sync merges it with the local store
(project_memory.sync), and with `--push` commits it, runs `git pull --rebase` (resolving a
conflict in that file from both sides) and `git push`, through GitPython.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from sessiontui.project_memory.sync import SYNC_FILE, ConflictSides, Superseded
from sessiontui.tui.commands.common import add_command, add_json_options, open_store, print_json

if TYPE_CHECKING:
    import git

    from sessiontui.project_memory.records import Record
    from sessiontui.project_memory.store import Store

PUSH_ROUNDS = 3  # a push rejected because a teammate pushed first: pull, merge and try again


class SyncError(Exception):
    """Why sync stopped, in one line; nothing stored is lost."""


@dataclass
class SyncReport:
    """What a sync did: records the store took, records the file took, git conflicts resolved."""

    file: str
    received: int = 0
    sent: int = 0
    conflicts: int = 0
    total: int = 0
    pushed: str | None = None  # the remote branch pushed to
    superseded: list[Superseded] = field(default_factory=list)  # local edits a teammate's replaced

    def add(self, other: SyncReport | None, *, conflict: bool = False) -> None:
        """Count another merge of the same sync (one that resolved a git conflict, maybe)."""
        if other is not None:
            self.received += other.received
            self.sent += other.sent
            self.total = other.total
            self.conflicts += int(conflict)
            self.superseded += other.superseded


def _conflict_records(conflict: ConflictSides, where: str) -> list[Record]:
    """One version per record from both sides of a git conflict, each compared with their
    common ancestor to tell which side changed (without one, both versions are kept)."""
    from sessiontui.project_memory.exchange import parse_toml
    from sessiontui.project_memory.store import StoreError
    from sessiontui.project_memory.sync import merge, version_hash

    try:
        base = parse_toml(conflict.base, where) if conflict.base is not None else []
    except StoreError:  # an unreadable ancestor only costs a history entry, never a record
        base = []
    sides = [parse_toml(conflict.ours, where), parse_toml(conflict.theirs, where)]
    return merge(sides, {record.id: version_hash(record) for record in base})


def merge_file(store: Store, path: Path, conflict: ConflictSides | None = None) -> SyncReport:
    """Merge the shared file (or, while git has it conflicted, both its sides) into the store
    and the store into the file; remembers the result as the next merge's base."""
    from sessiontui.project_memory.exchange import parse_toml, records_toml, write_atomic
    from sessiontui.project_memory.records import is_invalid
    from sessiontui.project_memory.sync import (
        SYNCED_KINDS,
        changed,
        has_conflict_markers,
        merge,
        superseded,
    )
    from sessiontui.project_memory.sync_state import SyncState, load_state, save_state

    local = [  # a stored row this version cannot read stays here, to be repaired or salvaged
        r for r in store.list() + store.list(deleted=True) if r.kind in SYNCED_KINDS and not is_invalid(r)
    ]
    check_sync_file(path)
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    if conflict is not None:
        shared = _conflict_records(conflict, str(path))
    elif has_conflict_markers(text):
        raise SyncError(f"{path} holds conflict markers git no longer tracks: restore a clean "
                        f"version (git checkout HEAD -- {path.name}) and sync again")
    else:
        shared = parse_toml(text, str(path))
    state = load_state(store.path.parent)
    merged = merge([local, shared], state.versions)
    replaced = superseded(local, merged)
    incoming = changed(merged, local)
    store.put_all(incoming)
    outgoing = changed(merged, shared)
    if outgoing or len(merged) != len(shared) or conflict is not None:
        write_atomic(path, records_toml(merged))
    save_state(SyncState.after(store, merged, push_failed=state.push_failed), store.path.parent)
    return SyncReport(str(path), len(incoming), len(outgoing), 0, len(merged), superseded=replaced)


def check_sync_file(path: Path) -> None:
    """The shared file must be a regular file inside the work tree: a committed symlink (or a
    folder, a pipe) would make sync write the memory somewhere else."""
    if path.is_symlink():
        raise SyncError(f"{path} is a symbolic link (to {path.readlink()}): sync writes only a regular "
                        f"file inside the work tree; replace it (git rm {SYNC_FILE}) and sync again")
    if path.exists() and not path.is_file():
        raise SyncError(f"{path} is not a regular file: remove it (git rm {SYNC_FILE}) and sync again")



# -- git ------------------------------------------------------------------------------------------
def open_repo() -> git.Repo:
    """The repository of the current directory (GitPython is imported only here)."""
    import git

    try:
        return git.Repo(Path.cwd(), search_parent_directories=True)
    except (git.InvalidGitRepositoryError, git.NoSuchPathError):
        raise SyncError("not inside a git repository: sync shares the memory through one") from None


def _unmerged(repo: git.Repo) -> set[str]:
    """Paths git has conflicted (NUL-separated: a name may hold spaces)."""
    return {name for name in repo.git.diff("--name-only", "-z", "--diff-filter=U").split("\0") if name}


def _names(paths: set[str]) -> str:
    """File names for a one-line message, each quoted so that spaces cannot split them."""
    return ", ".join(repr(name) for name in sorted(paths))


def conflict_sides(repo: git.Repo) -> ConflictSides | None:
    """Git's own copies of both sides (and the ancestor) while the shared file is conflicted."""
    import git

    if SYNC_FILE not in _unmerged(repo):
        return None
    try:
        base: str | None = repo.git.show(f":1:{SYNC_FILE}")
    except git.GitCommandError:  # both sides added the file
        base = None
    return ConflictSides(repo.git.show(f":2:{SYNC_FILE}"), repo.git.show(f":3:{SYNC_FILE}"), base)


def _rebasing(repo: git.Repo) -> bool:
    git_dir = Path(repo.git_dir)
    return (git_dir / "rebase-merge").exists() or (git_dir / "rebase-apply").exists()


def _merging(repo: git.Repo) -> bool:
    return (Path(repo.git_dir) / "MERGE_HEAD").exists()


def _resolve_conflict(repo: git.Repo, store: Store, path: Path, *,
                      undo_others: bool = False) -> SyncReport | None:
    """Finish a rebase or merge stopped on the shared file (also one a killed `sync --push` left):
    resolve it from both sides, add it, continue, as often as the rebase stops on it. Refuses in
    one line when other files conflict, first undoing the rebase with `undo_others` (sync's own
    pull, at whichever replayed commit it stops); None when no git operation was under way."""
    reports = []
    editor = {"GIT_EDITOR": "true"}
    while _rebasing(repo) or _merging(repo):
        unmerged = _unmerged(repo)
        if unmerged - {SYNC_FILE} and undo_others:  # the user's own commits conflict
            repo.git.rebase("--abort")
            raise SyncError(f"git pull --rebase stopped on conflicts in {_names(unmerged - {SYNC_FILE})} "
                            "and was undone (the memory is merged locally): pull and resolve them, "
                            "then sync again")
        if unmerged - {SYNC_FILE}:
            operation = "a rebase" if _rebasing(repo) else "a merge"
            raise SyncError(f"git stopped {operation} on conflicts in {_names(unmerged - {SYNC_FILE})}: "
                            f"resolve them (or git {operation.split()[1]} --abort), then sync again")
        if unmerged:
            reports.append(merge_file(store, path, conflict_sides(repo)))
            repo.git.add(SYNC_FILE)
        if _rebasing(repo):
            nothing_left = not repo.git.diff("--cached", "--name-only")
            _git_step(repo, "rebase", "--skip" if nothing_left else "--continue", env=editor)
        else:
            _git_step(repo, "commit", "--no-edit", env=editor)
    if not reports:
        return None
    total = SyncReport(reports[0].file)
    for report in reports:
        total.add(report)
    return total


def _git_step(repo: git.Repo, *args: str, env: dict[str, str] | None = None) -> None:
    """Run a git command that may stop on a conflict (the caller looks for one)."""
    import git

    try:
        repo.git.execute(["git", *args], env=env)
    except git.GitCommandError as exc:
        if not _unmerged(repo):
            raise SyncError(f"git {args[0]} failed: {_first_line(exc)}") from None


def _first_line(exc: Exception) -> str:
    text = str(getattr(exc, "stderr", "") or exc).strip().strip("'").strip()
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("stderr:")]
    return lines[0] if lines else text.splitlines()[0] if text else "unknown error"


def _commit(repo: git.Repo) -> None:
    """Commit the shared file alone, when it changed."""
    if repo.git.status("--porcelain", "--", SYNC_FILE):
        repo.git.add(SYNC_FILE)
        repo.git.commit("-m", "sessiontui sync: project memory", "--", SYNC_FILE)


def _upstream(repo: git.Repo) -> tuple[str, str]:
    """The remote and branch to pull from and push to: the tracked branch, else origin/<branch>."""
    if repo.head.is_detached:
        raise SyncError("HEAD is detached: check out a branch to sync")
    branch = repo.active_branch
    tracking = branch.tracking_branch()
    if tracking is not None:
        return tracking.remote_name, tracking.remote_head
    if not repo.remotes:
        raise SyncError("the repository has no remote to push to: `git remote add origin URL`")
    remote = "origin" if "origin" in [r.name for r in repo.remotes] else repo.remotes[0].name
    return remote, branch.name


def _pull(repo: git.Repo, store: Store, path: Path, remote: str, branch: str) -> list[SyncReport]:
    """`git pull --rebase` (skipped while the remote branch does not exist yet); returns the
    merge that resolved conflicts in the shared file on the way (summed over replayed commits)."""
    if not repo.git.ls_remote("--heads", remote, branch):
        return []
    _git_step(repo, "pull", "--rebase", "--autostash", remote, branch)
    if not _unmerged(repo):
        return []
    report = _resolve_conflict(repo, store, path, undo_others=True)
    return [report] if report is not None else []


def _push(repo: git.Repo, remote: str, branch: str) -> bool:
    """Push; False when the remote moved on since the pull (try again), SyncError otherwise
    (a server hook's refusal says so, with the hook's first line)."""
    import git

    try:
        repo.git.push("--set-upstream", remote, f"HEAD:{branch}")
    except git.GitCommandError as exc:
        message = str(exc.stderr)
        if "[remote rejected]" in message or "hook declined" in message:
            said = [found[1].strip() for found in re.finditer(r"remote:(.*)", message) if found[1].strip()]
            why = f": {said[0]}" if said else ""
            raise SyncError(f"the remote refused the push (a server hook{why}); the memory is "
                            "merged and committed here, not shared") from None
        if "fetch first" in message or "non-fast-forward" in message or "[rejected]" in message:
            return False
        raise SyncError(f"git push failed: {_first_line(exc)}") from None
    return True


def _remember_push(store: Store, failure: str | None) -> None:
    """Keep why the last push failed (None: it succeeded), for `sync --status`."""
    from sessiontui.project_memory.sync_state import load_state, save_state

    state = load_state(store.path.parent)
    state.push_failed = failure
    save_state(state, store.path.parent)


def sync_with_remote(store: Store, repo: git.Repo) -> SyncReport:
    """Finish what a stopped sync or pull left, merge, commit, pull --rebase (resolving the
    shared file), merge again, push; a push that fails is remembered as unsynced."""
    import git

    try:
        report = _sync_and_push(store, repo)
    except (SyncError, git.GitCommandError) as exc:
        _remember_push(store, _first_line(exc) if isinstance(exc, git.GitCommandError) else str(exc))
        raise
    _remember_push(store, None)
    return report


def _sync_and_push(store: Store, repo: git.Repo) -> SyncReport:
    path = Path(str(repo.working_tree_dir)) / SYNC_FILE
    report = SyncReport(str(path))
    report.add(_resolve_conflict(repo, store, path), conflict=True)  # left by a pull or a kill
    remote, branch = _upstream(repo)
    report.add(merge_file(store, path))
    for _ in range(PUSH_ROUNDS):
        _commit(repo)
        for resolved in _pull(repo, store, path, remote, branch):
            report.add(resolved, conflict=True)
        report.add(merge_file(store, path))
        _commit(repo)
        if _push(repo, remote, branch):
            report.pushed = f"{remote}/{branch}"
            return report
    raise SyncError(f"git push was rejected {PUSH_ROUNDS} times (teammates pushing): run sync again")


# -- command ----------------------------------------------------------------------------------
def register(sub: argparse._SubParsersAction) -> None:
    """Add the `sync` command."""
    p = add_command(
        sub, "sync", f"share the memory through git ({SYNC_FILE})",
        "sessiontui sync            # merge with the file, no git commands",
        "sessiontui sync --push     # commit, pull --rebase, merge, push",
        "sessiontui sync --status || sessiontui sync --push",
        description=f"Merge the memory with {SYNC_FILE} at the repository root (by record id; "
        "concurrent edits: the later wins, the other is kept in the record's history; deletions "
        "travel as tombstones). With --push: commit it, git pull --rebase, merge again, git push.",
    )
    action = p.add_mutually_exclusive_group()
    action.add_argument("--push", action="store_true", help="also commit, pull --rebase and push")
    action.add_argument("--status", action="store_true",
                        help="only say whether the memory changed since the last sync")
    add_json_options(p, records=False)
    p.set_defaults(func=cmd_sync)


def print_status(as_json: bool) -> int:
    """Say whether records changed here since the last sync (no git involved): exit 0 in sync,
    1 with something to sync."""
    from sessiontui.project_memory.sync_state import load_state, unsynced

    store = open_store(create=False)
    pending, failed = False, None
    if store is not None:
        with store:
            state = load_state(store.path.parent)
            failed = state.push_failed
            pending = unsynced(store, state) or failed is not None
    if as_json:
        print_json({"unsynced": pending, "push_failed": failed} if failed else {"unsynced": pending})
    elif store is None:
        print("nothing recorded here yet")
    elif failed:
        print(f"unsynced: the last `sessiontui sync --push` did not reach the remote ({failed})")
    else:
        print("unsynced changes: run `sessiontui sync --push`" if pending else "no changes since the last sync")
    return 1 if pending else 0


def cmd_sync(args: argparse.Namespace) -> int:
    """Sync the current project's memory; problems are one line, exit 1."""
    if args.status:
        return print_status(args.json)
    import git

    try:
        repo = open_repo()
        with repo, open_store() as store:
            if args.push:
                report = sync_with_remote(store, repo)
            else:
                path = Path(str(repo.working_tree_dir)) / SYNC_FILE
                report = SyncReport(str(path))
                report.add(_resolve_conflict(repo, store, path), conflict=True)
                report.add(merge_file(store, path))
    except (SyncError, git.GitCommandError) as exc:
        print(f"sessiontui sync: {_first_line(exc) if isinstance(exc, git.GitCommandError) else exc}",
              file=sys.stderr)
        return 1
    if args.json:
        print_json(asdict(report))
    else:
        pushed = f"; pushed to {report.pushed}" if report.pushed else ""
        conflicts = f", {report.conflicts} git conflict(s) resolved" if report.conflicts else ""
        print(f"synced {report.total} records with {SYNC_FILE}: {report.received} received, "
              f"{report.sent} sent{conflicts}{pushed}")
        for replaced in report.superseded:
            print(replaced.line())
    return 0
