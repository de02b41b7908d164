"""Every app action by name, for the command palette (Textual's system commands) and help."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Command:
    """One palette entry: the name searched, what it does, the app action it runs."""

    name: str
    help: str
    action: str


COMMANDS = (
    Command("Ask a question", "Focus the ask bar (/; in the Memory pane / filters instead)",
            "focus_ask"),
    Command("Add benchmark", "Record a benchmark result", "add('benchmark')"),
    Command("Add lesson", "Record a failure and its fix", "add('lesson')"),
    Command("Add note", "Write a note into the memory", "add('note')"),
    Command("Open record", "Every field of the record under the cursor in the Memory pane",
            "memory('open')"),
    Command("Edit record", "Edit the record under the cursor in the Memory pane", "memory('edit')"),
    Command("Delete record", "Move the record under the cursor to the trash, after a question "
            "naming it (d; u undoes)", "memory('delete')"),
    Command("Undo delete", "Restore the last record deleted in this session", "undelete"),
    Command("Filter memory", "Filter the Memory pane: / there, or ctrl+f (words, kind:lesson, "
            "baseline, failed)", "filter_memory"),
    Command("Lesson from failure", "A lesson pre-filled from the last unmatched failure",
            "lesson_from_failure"),
    Command("Follow a log", "Follow a training log (saved to sessiontui.toml)", "follow_log"),
    Command("Stop following a log", "Stop following a training log (saved to sessiontui.toml)",
            "unfollow_log"),
    Command("Show sweep", "A sweep's metric by concurrency against the number to beat, and "
            "where it stops paying", "compare('sweep')"),
    Command("Compare runs", "Loss and accept length of the runs marked with space in the Memory "
            "pane (else the selected run and the newest other), at equal steps", "compare('runs')"),
    Command("Export memory to TOML", "Write the whole memory to a TOML file", "export"),
    Command("Screenshot", "Save an SVG of the screen in the project's .sessiontui folder",
            "screenshot"),
    Command("Show GPUs", "Switch to the GPUs pane", "view('gpu')"),
    Command("Show Training", "Switch to the Training pane", "view('training')"),
    Command("Show Memory", "Switch to the Memory pane", "view('memory')"),
    Command("Show Answer", "Switch to the Answer pane", "view('answer')"),
    Command("Help", "Every key, by pane; what the panes show, and the symbols (?)", "help"),
)
