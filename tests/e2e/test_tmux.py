"""End to end: the installed `sessiontui demo` in a 100x30 tmux pane answers a typed question."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

import psutil
import pytest

from sessiontui.project_memory.answer import fmt
from sessiontui.project_memory.ask import ask
from sessiontui.project_memory.store import Store
from sessiontui.tui.demo import seed_memory

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from tmux_session import TmuxSession, tmux_available  # noqa: E402

pytestmark = pytest.mark.skipif(not tmux_available(), reason="tmux is not installed")
INSTALLED = Path(sys.executable).parent / "sessiontui"  # the console script, not the source tree

QUESTION = "what's the baseline?"
STARTUP_DEADLINE_S = 90  # generous: a cold start on a loaded CI runner; not a timing assertion


def shows_on(session: TmuxSession) -> Callable[..., str]:
    """`shows(*texts)`: wait until the pane shows every text and return the screen (or fail,
    printing it)."""

    def shows(*texts: str) -> str:
        screen = session.wait_for(lambda s: all(t in s for t in texts),
                                  timeout_s=STARTUP_DEADLINE_S)
        assert screen is not None, f"never showed {texts}:\n{session.screen()}"
        return screen

    return shows


def expected_answer(tmp_path: Path) -> tuple[str, str]:
    """The answer's headline and number, computed in-process from the same seeded memory."""
    with Store(tmp_path / "expected.db") as store:
        seed_memory(store)
        answer = ask(store, QUESTION)
    return answer.text.splitlines()[0].split(":")[0], fmt(answer.figures["reference_value"])


def test_demo_answers_the_baseline_question(tmp_path: Path) -> None:
    headline, value = expected_answer(tmp_path)
    temp = tmp_path / "tmp"  # the demo's temporary folder is made here, so cleanup can be seen
    temp.mkdir()
    user_memory = tmp_path / "user-memory"
    env = {"TMPDIR": str(temp), "SESSIONTUI_DIR": str(user_memory)}
    status = tmp_path / "exit-status"
    # A shell records the app's exit status: under load tmux can be slow to mark the pane dead.
    # Written whole, then renamed: the file never exists empty (`>` creates it before echo writes).
    wrapper = ["sh", "-c", '"$0" demo; echo $? > "$1.part"; mv "$1.part" "$1"', str(INSTALLED),
               str(status)]
    session = TmuxSession(wrapper, width=100, height=30, env=env)
    try:
        session.start()
        shown = session.wait_for(
            lambda screen: "Training" in screen and "Quit" in screen, timeout_s=STARTUP_DEADLINE_S
        )
        assert shown, f"the app never showed:\n{session.screen()}"
        assert list(temp.iterdir()), "the demo project is not in the temporary folder"

        session.send_keys("/")
        # Typed text goes to the ask bar once it has focus; the footer then drops the app keys.
        session.wait_for(lambda screen: "Quit" not in screen, timeout_s=STARTUP_DEADLINE_S)
        session.send_keys(QUESTION, literal=True)
        session.send_keys("Enter")
        answered = session.wait_for(
            lambda screen: headline in screen and value in screen, timeout_s=STARTUP_DEADLINE_S
        )
        assert answered, f"no answer with {value} on screen:\n{session.screen()}"

        session.send_keys("C-q")
        exited = session.wait_for(lambda _: status.exists(), timeout_s=STARTUP_DEADLINE_S)
        assert exited is not None, f"the app did not quit:\n{session.screen()}"
        assert status.read_text().strip() == "0", session.screen()
        assert list(temp.iterdir()) == [], "the demo folder was not removed on exit"
        assert not user_memory.exists(), "the demo touched the user's memory"
    finally:
        session.close()


def test_demo_folder_is_removed_when_the_terminal_goes_away(tmp_path: Path) -> None:
    temp = tmp_path / "tmp"
    temp.mkdir()
    session = TmuxSession([str(INSTALLED), "demo"], width=100, height=30, env={"TMPDIR": str(temp)})
    try:
        session.start()
        assert session.wait_for(lambda screen: "Quit" in screen, timeout_s=STARTUP_DEADLINE_S), (
            f"the app never showed:\n{session.screen()}"
        )
        app = psutil.Process(session.pane_pid())
    finally:
        session.close()  # kills the tmux server: the app gets SIGHUP, like a closed window
    app.wait(timeout=STARTUP_DEADLINE_S)
    assert list(temp.iterdir()) == [], "the demo folder outlived its terminal"


def test_closing_the_window_keeps_the_followed_run(tmp_path: Path) -> None:
    """`sessiontui` in a project following a log: a killed terminal still leaves its run record."""
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)  # the project root, without needing git itself
    log = project / "train.log"
    steps = [f"step {n}: {{'acc_0': 0.7, 'loss': {3 - n / 100:.2f}}}\n" for n in range(1, 151)]
    log.write_text("".join(steps[:120]))
    (project / "sessiontui.toml").write_text('# my settings\nlogs = ["train.log"]\n')
    env = {"SESSIONTUI_DIR": str(project / ".sessiontui")}
    session = TmuxSession([str(INSTALLED)], width=100, height=30, env=env, cwd=project)
    try:
        session.start()
        shown = session.wait_for(lambda screen: "120" in screen and "Quit" in screen,
                                 timeout_s=STARTUP_DEADLINE_S)
        assert shown, f"the followed run never showed:\n{session.screen()}"
        with log.open("a") as out:  # plain progress: the run record saves it lazily
            out.write("".join(steps[120:]))
        assert session.wait_for(lambda screen: "150" in screen, timeout_s=STARTUP_DEADLINE_S)
        app = psutil.Process(session.pane_pid())
    finally:
        session.close()  # SIGHUP, like a closed tmux window
    app.wait(timeout=STARTUP_DEADLINE_S)
    with Store(project / ".sessiontui" / "memory.db") as store:
        runs = store.list("run")
    assert [(run.log_path, run.step) for run in runs] == [(str(log), 150)]


def test_a_day_in_the_app_add_filter_open_delete_undo_follow_unfollow(tmp_path: Path) -> None:
    """The installed `sessiontui` on a new project, driven by keys as a user types them."""
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    config = project / "sessiontui.toml"
    config.write_text("# my settings\nrefresh_s = 1.0  # keep this comment\n")
    env = {"SESSIONTUI_DIR": str(project / ".sessiontui")}
    session = TmuxSession([str(INSTALLED)], width=100, height=30, env=env, cwd=project)

    shows = shows_on(session)

    try:
        session.start()
        shows("Quit", "Training")
        # Add a benchmark through the form: one burst of keys, Tab between the fields.
        session.send_keys("b")
        shows("New benchmark")
        session.send_keys("e2e-bench-7", literal=True)
        session.send_keys("Tab", "Tab")
        session.send_keys("123.4", literal=True)
        session.send_keys("C-s")
        shows("Added benchmark")
        # Filter to it, then open its detail view.
        session.send_keys("3")
        shows("/ Filter")  # the Memory pane has the keys
        session.send_keys("C-f")
        session.send_keys("e2e-bench", literal=True)
        session.send_keys("Enter")
        # The filter holds the words (its placeholder is gone) and the table has the keys again.
        filtered = session.wait_for(
            lambda s: "filter: words" not in s and "⏎ Open" in s and "123.4 tok/s" in s,
            timeout_s=STARTUP_DEADLINE_S,
        )
        assert filtered is not None, session.screen()
        session.send_keys("Enter")
        screen = shows("config", "value", "123.4", "host")
        assert "e2e-bench-7" in screen
        # Delete from the detail view, then undo.
        session.send_keys("d")
        shows("Delete benchmark", "(u undoes)")  # the view asks first, as the pane's d does
        session.send_keys("y")
        shows("Deleted benchmark")
        session.wait_for(lambda s: "123.4 tok/s" not in s, timeout_s=STARTUP_DEADLINE_S)
        session.send_keys("u")
        shows("Restored benchmark", "123.4 tok/s")
        # Follow a log the job has not written yet (the app asks), then stop following it.
        session.send_keys("f")
        shows("Follow a training log")
        session.send_keys("train.log", literal=True)
        session.send_keys("Enter")
        shows("does not exist yet")
        session.send_keys("y")
        shows("added to sessiontui.toml")
        assert "train.log" in config.read_text()
        session.send_keys("F")
        shows("Stop following which log?")
        session.send_keys("Enter")
        shows("removed from sessiontui.toml")
        text = config.read_text()
        assert "train.log" not in text and "# keep this comment" in text
        session.send_keys("C-q")
    finally:
        session.close()
    with Store(project / ".sessiontui" / "memory.db") as store:
        [bench] = store.list("benchmark")
    assert (bench.config, bench.value) == ("e2e-bench-7", 123.4)


def test_a_bracketed_paste_with_colour_codes_is_stored_as_pasted(tmp_path: Path) -> None:
    """tmux pastes bracketed (`paste-buffer -p`): the note keeps the text in order, codes gone."""
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    env = {"SESSIONTUI_DIR": str(project / ".sessiontui")}
    session = TmuxSession([str(INSTALLED)], width=100, height=30, env=env, cwd=project)
    try:
        session.start()
        assert session.wait_for(lambda s: "Quit" in s, timeout_s=STARTUP_DEADLINE_S)
        session.send_keys("n")
        assert session.wait_for(lambda s: "New note" in s, timeout_s=STARTUP_DEADLINE_S)
        session.tmux("set-buffer", "AAA \x1b[31mBBB\x1b[0m")
        session.tmux("paste-buffer", "-p", "-t", "app")
        assert session.wait_for(lambda s: "AAA BBB" in s, timeout_s=STARTUP_DEADLINE_S), (
            session.screen())
        session.send_keys("C-s")
        assert session.wait_for(lambda s: "Added note" in s, timeout_s=STARTUP_DEADLINE_S)
        session.send_keys("C-q")
    finally:
        session.close()
    with Store(project / ".sessiontui" / "memory.db") as store:
        assert [note.text for note in store.list("note")] == ["AAA BBB"]


def _lines(first: int, last: int) -> str:
    """Megatron iteration lines of a 100-step run, time-stamped half a second apart."""
    return "".join(f"2026-01-02 03:00:{s // 2:02d}.{5 * (s % 2)}00 INFO iteration {s:8d}/{100:8d} | "
                   f"lm loss: {3 - s / 100:.6E} |\n" for s in range(first, last + 1))


def test_a_run_that_stops_crashes_restarts_and_finishes_reads_the_same_everywhere(
        tmp_path: Path) -> None:
    """The installed app in tmux, `train status`, `list` and `serve` on one log's life; the
    stall limit comes from the setting (10 s): long enough that all three readers agree on
    "running" on a loaded machine, short enough that the stop is seen without a long wait."""
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    log = project / "train.log"
    log.write_text(_lines(1, 20))
    (project / "sessiontui.toml").write_text(
        'logs = ["train.log"]\nstall_after_s = 10\nrefresh_s = 0.5\n')
    env = {"SESSIONTUI_DIR": str(project / ".sessiontui")}
    full_env = {**os.environ, **env}
    serve = subprocess.Popen([str(INSTALLED), "serve", "--listen", "127.0.0.1:0", "--no-gpu",
                              "--interval", "0.5"], cwd=project, env=full_env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    session = TmuxSession([str(INSTALLED)], width=100, height=30, env=env, cwd=project)

    def cli(*args: str) -> object:
        done = subprocess.run([str(INSTALLED), *args], cwd=project, env=full_env,
                              capture_output=True, text=True, timeout=60)
        return json.loads(done.stdout) if done.returncode == 0 else None

    def readers() -> dict[str, tuple]:
        status = cli("train", "status", "--log", "train.log", "--json")
        listed = (cli("list", "--kind", "run", "--json") or {}).get("records", [])
        latest = max(listed, key=lambda r: r.get("log_run") or 0) if listed else {}
        page = urllib.request.urlopen(url, timeout=10).read().decode()
        served = re.search(r'train_status\{[^}]*status="(\w+)"\} 1\.0', page)
        step = re.search(r"train_step\{[^}]*\} ([\d.]+)", page)
        attempt = re.search(r"train_attempt\{[^}]*\} ([\d.]+)", page)
        return {
            "train status": (status["status"], status["step"], status["attempt"]) if status else (),
            "list": (latest.get("status"), latest.get("step"), (latest.get("log_run") or 0) + 1),
            "serve": (served[1] if served else None, int(float(step[1])) if step else None,
                      int(float(attempt[1])) if attempt else None),
        }

    def phase(status: str, step: int, attempt: int, *on_screen: str) -> None:
        shown = session.wait_for(lambda s: all(t in s for t in (status, *on_screen)),
                                 timeout_s=STARTUP_DEADLINE_S)
        assert shown, f"the card never read {status}:\n{session.screen()}"
        deadline = time.monotonic() + STARTUP_DEADLINE_S
        want = dict.fromkeys(("train status", "list", "serve"), (status, step, attempt))
        while (seen := readers()) != want and time.monotonic() < deadline:
            time.sleep(0.2)  # the readers poll on their own schedules: look again
        assert seen == want

    try:
        assert serve.stdout is not None
        url = serve.stdout.readline().split()[1]
        session.start()
        phase("running", 20, 1, "step 20/100")
        phase("stalled", 20, 1, "stalled for")  # 10 s after the last step, by the setting
        with log.open("a") as out:
            out.write(_lines(21, 66) + "Traceback (most recent call last):\n"
                      '  File "train.py", line 9, in step\n'
                      "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 7.82 GiB.\n")
        phase("crashed", 66, 1, "step 66/100")
        log.write_text(_lines(1, 10))  # relaunched with `python train.py > train.log`
        phase("running", 10, 2, "train.log #2", "attempt 1 crashed at step 66")
        with log.open("a") as out:
            out.write(_lines(11, 100))
        phase("finished", 100, 2, "step 100/100")
        session.send_keys("C-q")
    finally:
        session.close()
        serve.terminate()
        serve.communicate(timeout=30)


def test_keys_walk_escape_then_b_end_then_d_and_slash_filter(tmp_path: Path) -> None:
    """The demo at 80x24: `/` filters the Memory pane, Esc then `b` (one write, as typed fast)
    opens the benchmark form, End then `d` offers the last row by name."""
    from sessiontui.project_memory.records import DEFAULT_METRIC
    from sessiontui.project_memory.reference import reference_for
    from sessiontui.tui.widgets.memory_pane import matches, ordered

    with Store(tmp_path / "expected.db") as store:
        seed_memory(store)
        reference = reference_for(store, DEFAULT_METRIC)
        last = [r for r in ordered(store.list(), reference) if matches(r, ["eagle3"])][-1]
    temp = tmp_path / "tmp"
    temp.mkdir()
    env = {"TMPDIR": str(temp), "SESSIONTUI_DIR": str(tmp_path / "user-memory")}
    session = TmuxSession([str(INSTALLED), "demo"], width=80, height=24, env=env)

    shows = shows_on(session)

    try:
        session.start()
        shows("Quit")
        session.send_keys("3")
        shows("/ Filter", "llama-3.1-8b")  # the memory is read (the baselines are listed)
        session.send_keys("/")
        session.send_keys("eagle3", literal=True)
        screen = session.wait_for(lambda s: "llama-3.1-8b" not in s and "eagle3" in s,
                                  timeout_s=STARTUP_DEADLINE_S)
        assert screen is not None, f"the filter did not narrow the list:\n{session.screen()}"
        session.send_keys("Escape", "b")  # one write: the app reads ESC b
        shows("New benchmark")
        assert "eagle3b" not in session.screen()
        session.send_keys("Escape")
        session.wait_for(lambda s: "New benchmark" not in s and "⏎ Open" in s,
                         timeout_s=STARTUP_DEADLINE_S)  # the table has the keys again
        session.send_keys("End", "d")
        shows(f"Delete {last.kind}", "(u undoes)", last.label[:20])  # the last row, named
        session.send_keys("n")
        session.send_keys("C-q")
    finally:
        session.close()
