"""Shared fixtures: an isolated project memory, and ways to run `sessiontui`: the real binary
(run_cli) or the CLI's main in this process (run_main)."""

from __future__ import annotations

import gc
import io
import itertools
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import settings

from sessiontui.project_memory.store import Store

# CI (`.ci/run` sets HYPOTHESIS_PROFILE=ci) draws the same examples every run, so a landing is
# never decided by a coin toss; a developer's run draws fresh ones, which is where new failures
# are found (and then fixed with a fixed example of their own).
settings.register_profile("ci", derandomize=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

# A suite started in the background of a shell (`make test &`) inherits SIGINT ignored, and so
# would every process it starts: the tests that stop the CLI with Ctrl-C need it delivered.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto`: two workers a core, at most eight; most tests wait on a child process or an
    app's next frame, so one worker a core leaves the cores idle (2 cores: 110 s -> 96 s)."""
    return min(2 * (os.cpu_count() or 1), 8)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Slow tests first: started last, a 40 s wheel install would be the run's whole tail."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


def sessiontui_command() -> list[str]:
    """The installed console script, or the module when running from a bare checkout."""
    script = Path(sys.executable).with_name("sessiontui")
    if script.exists():
        return [str(script)]
    found = shutil.which("sessiontui")
    return [found] if found else [sys.executable, "-m", "sessiontui.tui.cli"]


_USER_CONFIGS = itertools.count()


@pytest.fixture(autouse=True)
def no_user_config(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests never read the real user-level ~/.config/sessiontui/config.toml: each test has a
    folder of its own, made only by a test that writes there (pytest's mktemp for every test
    lists the whole temporary folder each time, thousands of entries by a worker's end)."""
    folder = tmp_path_factory.getbasetemp() / "xdg" / str(next(_USER_CONFIGS))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(folder))


@pytest.fixture(autouse=True)
def terminal_size_from_the_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """pytest-xdist workers carry COLUMNS=80 and LINES=24 in their environment, which a child
    app would take over its real terminal's size (a 100x30 tmux pane drew at 80x24)."""
    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.delenv("LINES", raising=False)


@pytest.fixture(autouse=True)
def quick_pilot(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pilot apps scroll without animation (Pilot waits out each one: the same end state, a
    second later), and Pilot's idle check looks every 5 ms instead of 20 (it waits at least
    one look per key and pause). Textual is pinned: setattr fails loudly if a name goes."""
    import textual._wait
    import textual.constants

    monkeypatch.setattr(textual.constants, "TEXTUAL_ANIMATIONS", "none")
    monkeypatch.setattr(textual._wait, "SLEEP_GRANULARITY", 0.005)


_PARSED_CSS: dict[tuple, list] = {}


@pytest.fixture(autouse=True)
def css_parsed_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every Pilot app parses the same stylesheets; a worker parses each (with its theme's
    variables) once instead of once an app (a seventh of an app's start at 160x48). The parse is Textual's
    own; only its per-app cache becomes per-process."""
    from textual.css.stylesheet import Stylesheet

    parse = Stylesheet._parse_rules

    def parsed_once(sheet: Stylesheet, css: str, read_from: tuple, *args: object, **kwargs: object) -> list:
        key = (css, read_from, args, tuple(sorted(kwargs.items())), tuple(sorted(sheet._variables.items())))
        if key not in _PARSED_CSS:
            _PARSED_CSS[key] = parse(sheet, css, read_from, *args, **kwargs)
        return _PARSED_CSS[key]

    monkeypatch.setattr(Stylesheet, "_parse_rules", parsed_once)


@pytest.fixture
def memory_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private `.sessiontui` folder for this test, also seen by subprocesses."""
    path = tmp_path / "memory"
    monkeypatch.setenv("SESSIONTUI_DIR", str(path))
    return path


@pytest.fixture
def store(memory_dir: Path) -> Store:
    with Store(memory_dir / "memory.db") as opened:
        yield opened


@pytest.fixture
def run_cli(memory_dir: Path, tmp_path: Path):
    """Run `sessiontui ARGS` in a subprocess with the private memory; returns CompletedProcess."""

    def run(*args: str, input: str | bytes | None = None, check: bool = False,
            cwd: Path | None = None, env: dict[str, str] | None = None):
        env = {**os.environ, "SESSIONTUI_DIR": str(memory_dir), "PYTHONUNBUFFERED": "1", **(env or {})}
        text = not isinstance(input, bytes)
        return subprocess.run(
            [*sessiontui_command(), *args], input=input, capture_output=True, text=text,
            env=env, cwd=cwd or tmp_path, check=check, timeout=120,
        )

    return run


@pytest.fixture
def run_main(memory_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
             capsys: pytest.CaptureFixture[str]):
    """Run `sessiontui ARGS` in this process (the CLI's `main`, output captured), with the private
    memory; returns a CompletedProcess like run_cli. For a command's logic: a process start costs
    ~0.2 s of CPU. Tests about the process itself (exit through a shell, signals, stdin bytes,
    resource limits, another user) use run_cli."""
    from sessiontui.tui.cli import main

    def run(*args: str, input: str | bytes | None = None, check: bool = False, cwd: Path | None = None,
            env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
        capsys.readouterr()  # what the test printed before is not this command's
        data = input if isinstance(input, bytes) else (input or "").encode()
        with monkeypatch.context() as patch:
            for name, value in (env or {}).items():
                patch.setenv(name, value)
            patch.chdir(cwd or tmp_path)
            patch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
            try:
                code = main(list(args))
            except SystemExit as exc:  # argparse's usage errors and --help (it printed the message)
                code = exc.code if isinstance(exc.code, int) else int(exc.code is not None)
        out, err = capsys.readouterr()
        if isinstance(input, bytes):  # bytes in, bytes out: as run_cli
            out, err = out.encode(), err.encode()
        result = subprocess.CompletedProcess(["sessiontui", *args], code, out, err)
        if check:
            result.check_returncode()
        return result

    return run


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config: pytest.Config) -> None:
    """At the end pytest collects garbage five times over the whole heap, to report what finalizers
    raise; each pass takes a worker 0.4 s. Here the same passes run until one finds nothing, then
    what survived is frozen: pytest's passes still see everything made after, and none of it twice."""
    for _ in range(5):
        if not gc.collect():
            break
    gc.freeze()
