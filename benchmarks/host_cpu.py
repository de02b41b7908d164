"""App CPU on a real host, measured the way a user runs it, against a minimal Textual app and nvitop.

The scenario (issue 13): `sessiontui` in a git project whose memory holds the demo's baselines,
following a SpecForge `train_eagle3.py` log that grows by one tqdm `\\r` update every 1.75 s
(~0.57 step/s), written by a separate process that is not counted; tmux at 160x48; a PyTorch
matmul load on the GPU when PyTorch sees one. Compared, interleaved in each round:

- `minimal`: one Static and one 200-point Sparkline updated at 1 Hz (benchmarks/minimal_app.py);
- `nvitop`: nvitop's default view, when nvitop is importable and NVML works;
- `sessiontui`: the app in that project;
- `idle`: the app in a git project with the same memory but no followed log, the GPU at rest
  (the load is stopped while it is measured, and started again for nvitop and sessiontui).

CPU is the user+system time of the pane's process tree over the window, as % of one core.
Targets: sessiontui <= 1.0x nvitop and <= 1.3x minimal; idle <= 1.0x minimal.
`--variant NAME=DIR` (repeatable) measures the app imported from DIR (a folder holding a
`sessiontui` package, e.g. an older commit's tree) as one more contender, interleaved; each
variant follows a project built by its own code (a newer store is refused by older code, which
would then follow nothing and look cheaper), and counts as up only once its card shows a step.
Run: `.venv/bin/python benchmarks/host_cpu.py [--rounds 2] [--seconds 35] [--capture DIR]
[--variant old=/tmp/old-tree]`.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import psutil
from minimal_app import READY_TEXT
from tui_cpu import SESSIONTUI, average_cpu_pct

HERE = Path(__file__).resolve().parent
STEPS_PER_S = 1 / 1.75
TARGETS = (("sessiontui", "minimal", 1.3), ("sessiontui", "nvitop", 1.0), ("idle", "minimal", 1.0))


@dataclass
class Contender:
    """One app in the comparison: how to start it, where, and how to tell it is up."""

    name: str
    command: list[str]
    ready: Callable[[str], bool]
    cwd: Path | None = None
    gpu_load: bool | None = None  # the GPU load running (True), stopped (False), either (None)


def sessiontui_shown(screen: str) -> bool:
    """The app is up: its key bar is drawn and the GPU pane has its first sample."""
    return "Quit" in screen and "waiting for the first GPU sample" not in screen


def following_shown(screen: str) -> bool:
    """The app is up and its training card has read the followed log."""
    return sessiontui_shown(screen) and "step " in screen and "catching up" not in screen


# Run by a variant's interpreter: its own followed project, alive until stdin closes.
PROJECT_MAKER = """
import sys
from pathlib import Path
sys.path.insert(0, sys.argv[2])
from host_cpu import followed_project
print("PROJECT", followed_project(Path(sys.argv[1])), flush=True)
sys.stdin.read()
"""


class VariantProject:
    """A followed project built, and its log grown, by a variant's own code."""

    def __init__(self, root: Path, code: Path) -> None:
        self.env = {**os.environ, "PYTHONPATH": os.pathsep.join(
            [str(code), *filter(None, [os.environ.get("PYTHONPATH")])])}
        self.process = subprocess.Popen(
            [sys.executable, "-c", PROJECT_MAKER, str(root), str(HERE)], env=self.env,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        lines = iter(self.process.stdout.readline, "")
        said = next((line for line in lines if line.startswith("PROJECT ")), "")
        if not said:
            raise SystemExit(f"variant {code}: no project built (exit {self.process.wait()})")
        self.dir = Path(said.split(" ", 1)[1].strip())

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait()


def variant_contender(root: Path, name: str, code: Path, projects: list[VariantProject]) -> Contender:
    """The app imported from `code`, in a project its own code built."""
    project = VariantProject(root / name, code)
    projects.append(project)
    command = ["env", f"PYTHONPATH={project.env['PYTHONPATH']}", sys.executable, "-m",
               "sessiontui.tui.cli"]
    return Contender(name, command, following_shown, project.dir, gpu_load=True)


def git_init(directory: Path) -> None:
    """Make `directory` a git project with one commit, as a user's project is."""
    if shutil.which("git") is None:
        print(f"no git on this host: {directory.name} is a plain folder")
        return
    env = {**os.environ, "GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "bench@example.com",
           "GIT_COMMITTER_NAME": "bench", "GIT_COMMITTER_EMAIL": "bench@example.com"}
    for command in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "start"]):
        subprocess.run(["git", *command], cwd=directory, env=env, check=True, capture_output=True)


def followed_project(root: Path) -> Path:
    """The demo project (seeded memory, followed log) grown by its own job process at 0.57 step/s.

    The job exits with this process; it is not a child of the measured app.
    """
    from sessiontui.tui.demo import launch_demo

    demo = launch_demo(root / "followed", steps_per_s=STEPS_PER_S)
    demo.wait_ready()
    git_init(demo.dir)
    return demo.dir


def idle_project(root: Path) -> Path:
    """A git project with the same memory and no followed log."""
    from sessiontui.project_memory.store import Store
    from sessiontui.tui.demo import planned_demo, seed_memory

    plan = planned_demo(root / "idle")
    plan.dir.mkdir(parents=True)
    with Store(plan.store_path) as store:
        seed_memory(store)
    (plan.dir / "README.md").write_text("idle project\n", encoding="utf-8")
    git_init(plan.dir)
    return plan.dir


def nvml_works() -> bool:
    from sessiontui.collectors.gpu import GpuCollector

    collector = GpuCollector()
    try:
        return collector.sample().available
    finally:
        collector.close()


def start_gpu_load() -> subprocess.Popen | None:
    """A PyTorch bf16 matmul loop on GPU 0 when PyTorch sees a GPU; None otherwise."""
    if importlib.util.find_spec("torch") is None:
        return None
    from gpu_live import start_load

    try:
        return start_load(seconds=3600)
    except SystemExit as why:
        print(f"no GPU load: {why}")
        return None


def contenders(root: Path, *, with_nvitop: bool) -> list[Contender]:
    """In measuring order: the GPU load is stopped for `idle` and started again after `minimal`."""
    apps = [
        Contender("idle", [str(SESSIONTUI)], sessiontui_shown, idle_project(root), gpu_load=False),
        Contender("minimal", [sys.executable, str(HERE / "minimal_app.py"), "sparkline"],
                  lambda screen: READY_TEXT in screen),
    ]
    if with_nvitop:
        apps.append(Contender("nvitop", [sys.executable, "-m", "nvitop"],
                              lambda screen: "NVITOP" in screen, gpu_load=True))
    apps.append(Contender("sessiontui", [str(SESSIONTUI)], following_shown,
                          followed_project(root), gpu_load=True))
    return apps


class GpuLoad:
    """The PyTorch matmul load, started and stopped as each contender needs it."""

    def __init__(self) -> None:
        self.process: subprocess.Popen | None = None
        self.ever = False

    def want(self, running: bool | None) -> None:
        if running and self.process is None:
            self.process = start_gpu_load()
            self.ever = self.ever or self.process is not None
        elif running is False and self.process is not None:
            self.stop()

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=35.0, help="measurement window per app")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds ignored after start")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--size", default="160x48", help="tmux pane size, WxH")
    parser.add_argument("--only", help="comma-separated contenders to run (default: all)")
    parser.add_argument("--capture", type=Path, help="write each app's last screen of round 1 here")
    parser.add_argument("--variant", action="append", default=[], metavar="NAME=DIR",
                        help="also measure the app imported from DIR (repeatable)")
    args = parser.parse_args()
    size = tuple(int(n) for n in args.size.split("x"))
    if shutil.which("tmux") is None:
        raise SystemExit("host_cpu needs tmux on PATH")
    with_nvitop = importlib.util.find_spec("nvitop") is not None and nvml_works()
    load = GpuLoad()
    root = Path(tempfile.mkdtemp(prefix="host-cpu-"))
    projects: list[VariantProject] = []
    try:
        apps = contenders(root, with_nvitop=with_nvitop)
        for name, code in (variant.split("=", 1) for variant in args.variant):
            apps.append(variant_contender(root, name, Path(code).resolve(), projects))
        if args.only:
            apps = [app for app in apps if app.name in args.only.split(",")]
        runs: dict[str, list[float]] = {app.name: [] for app in apps}
        if args.capture:
            args.capture.mkdir(parents=True, exist_ok=True)
        for number in range(1, args.rounds + 1):
            for app in apps:
                load.want(app.gpu_load)
                capture = args.capture / f"{app.name}.txt" if args.capture and number == 1 else None
                runs[app.name].append(average_cpu_pct(
                    app.command, app.ready, seconds=args.seconds, warmup_s=args.warmup,
                    size=size, cwd=app.cwd, capture=capture,
                ))
            print(f"round {number}: " + ", ".join(f"{n} {r[-1]:.2f}%" for n, r in runs.items()),
                  flush=True)
        report(runs, args, load.ever, with_nvitop)
    finally:
        load.stop()
        for project in projects:
            project.close()
        shutil.rmtree(root, ignore_errors=True)


def report(runs: dict[str, list[float]], args: argparse.Namespace, loaded: bool,
           with_nvitop: bool) -> None:
    """Medians, per-round ratios and the targets."""
    print(f"pane {args.size}, {args.seconds:.0f} s per app after {args.warmup:.0f} s warm-up, "
          f"{args.rounds} interleaved round(s), {psutil.cpu_count()} cores, "
          f"GPU load {'on (off for idle)' if loaded else 'off'}, nvitop {'measured' if with_nvitop else 'absent'}")
    medians = {name: statistics.median(values) for name, values in runs.items()}
    for name, value in medians.items():
        rounds = " ".join(f"{v:.2f}" for v in runs[name])
        print(f"{name:<11} median {value:6.2f}% of a core   rounds: {rounds}")
    for top, bottom, target in TARGETS:
        if top in runs and bottom in runs:
            per_round = " ".join(f"{a / b:.2f}" for a, b in zip(runs[top], runs[bottom],
                                                               strict=True))
            with contextlib.suppress(ZeroDivisionError):
                print(f"RATIO {top}/{bottom} = {medians[top] / medians[bottom]:.2f}x "
                      f"(target <= {target}x; per round {per_round})")


if __name__ == "__main__":
    main()
