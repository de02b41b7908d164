"""The app's short dialogs: a prompt, a check, maybe a confirmation, then one call.

Each takes the app (to push its screens and say what happened) and the call to make once the
user has answered; the screens are imported on first use, so start-up does not pay for them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from sessiontui.tui.messages import one_line

if TYPE_CHECKING:
    from textual.app import App

    from sessiontui.project_memory.records import Record
    from sessiontui.tui.widgets.gpu_view import ProcessRow
    from sessiontui.tui.widgets.memory_pane import MemoryPane

EXPORT_NAME = "sessiontui-memory.toml"


def _confirm(app: App[None], question: str, then: Callable[[], object]) -> None:
    """Ask a yes/no question; `then` runs only on yes."""
    from sessiontui.tui.screens.confirm import ConfirmScreen

    def answered(yes: bool | None) -> None:
        if yes:
            then()

    app.push_screen(ConfirmScreen(question), answered)


def follow_log(app: App[None], followed: Sequence[Path], resolve: Callable[[Path], Path],
               follow: Callable[[str], object]) -> None:
    """Ask for a log to follow; a path that does not exist yet is followed only if the user
    says so (the job may not have created it yet)."""
    from sessiontui.tui.screens.prompt import PromptScreen

    def answered(log: str | None) -> None:
        if not log:
            return
        path = resolve(Path(log))
        if path in followed:
            app.notify(f"Already following {one_line(log)}.", markup=False)
        elif path.is_dir():
            app.notify(f"{one_line(log)} is a folder: give the log file in it.",
                       severity="warning", markup=False)
        elif path.exists():
            follow(log)
        else:
            _confirm(app, f"{path} does not exist yet. Follow it anyway and wait for the job to "
                          "create it?", lambda: follow(log))

    app.push_screen(PromptScreen("Follow a training log (saved to sessiontui.toml)",
                                 placeholder="path/to/train.log"), answered)


def unfollow_log(app: App[None], followed: Sequence[Path], unfollow: Callable[[Path], object]) -> None:
    """Choose a followed log to stop following."""
    if not followed:
        app.notify("No log is followed.", markup=False)
        return
    from sessiontui.tui.screens.choose import ChooseScreen

    def chosen(choice: str | None) -> None:
        if choice is not None:
            unfollow(Path(choice))

    app.push_screen(ChooseScreen("Stop following which log?", [str(path) for path in followed]),
                    chosen)


def export_memory(app: App[None], folder: Path, resolve: Callable[[Path], Path],
                  export: Callable[[Path], object]) -> None:
    """Ask where to export; an existing file is replaced only after the user says yes."""
    from sessiontui.tui.screens.prompt import PromptScreen

    def answered(target: str | None) -> None:
        if not target:
            return
        path = resolve(Path(target))
        if path.is_dir():
            path = path / EXPORT_NAME
        if path.exists():
            _confirm(app, f"{path} exists. Replace it?", lambda: export(path))
        else:
            export(path)

    app.push_screen(PromptScreen("Export the memory to TOML", value=str(folder / EXPORT_NAME)),
                    answered)


def signal_process(app: App[None], name: str, row: ProcessRow) -> None:
    """Send a signal to a GPU process only after a confirmation that names it."""
    from sessiontui.collectors.processes import signal_process as send
    from sessiontui.tui.screens.signal_confirm import SignalConfirm

    def answered(confirmed: bool | None) -> None:
        if not confirmed:
            return
        why_not = send(row.process.pid, row.info.started_at, name)
        if why_not is None:
            app.notify(f"Sent {name} to process {row.process.pid}", markup=False)
        else:
            app.notify(f"{name} not sent: {why_not}", severity="error", markup=False)

    app.push_screen(SignalConfirm(name, row), answered)


def open_record(app: App[None], record: Record, edit: Callable[[Record], object],
                delete: Callable[[Record], object]) -> None:
    """Every field of a record; the view's own keys hand it to `edit` or `delete`."""
    from sessiontui.tui.screens.record_view import RecordView

    def chosen(choice: str | None) -> None:
        if choice == "edit":
            edit(record)
        elif choice == "delete":
            delete(record)

    app.push_screen(RecordView(record), chosen)


def open_comparison(app: App[None], what: str, pane: MemoryPane, metric: str,
                    charts: Path) -> None:
    """A sweep or runs side by side, from the Memory pane's rows; why not, in one line."""
    from sessiontui.tui.screens.comparison_view import comparison_screen

    screen = comparison_screen(what, pane.records, pane.selected(), metric, charts,
                               pane.marked_records())
    if isinstance(screen, str):
        app.notify(screen, markup=False)
    else:
        app.push_screen(screen)


def save_screenshot(app: App[None], folder: Path) -> None:
    """An SVG of the screen in the project, and where it went (or why it did not)."""
    import time

    name = time.strftime("sessiontui-screenshot-%Y%m%d-%H%M%S.svg")
    try:
        saved = app.save_screenshot(name, str(folder))
    except OSError as exc:
        app.notify(f"Screenshot not saved: {exc.strerror}", severity="error", markup=False)
        return
    app.notify(f"Screenshot saved: {saved}", markup=False)
