"""`sessiontui demo`: the full app on a bundled demo project, no GPU or running job needed."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from sessiontui.tui.commands.common import add_command, positive_float


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `demo` command."""
    parser = add_command(
        sub, "demo", "open the app on a demo project (live training log, replayed GPUs, seeded memory)",
        "sessiontui demo", "sessiontui demo --log-format specforge --steps-per-s 5",
        description="Open the app on a demo project in a temporary folder, removed on exit.",
    )
    parser.add_argument(
        "--keep", metavar="DIR", type=Path,
        help="build the demo in DIR and keep it afterwards (for debugging)",
    )
    parser.add_argument(
        "--log-format", choices=("train_eagle3", "specforge"), default="train_eagle3",
        help="SpecForge log style: train_eagle3.py tqdm bar (default) or `specforge train` dicts",
    )
    parser.add_argument(
        "--steps-per-s", type=positive_float, default=1.5, metavar="N",
        help="training steps appended to the demo log per second (default 1.5)",
    )
    parser.set_defaults(func=cmd_demo)


def cmd_demo(args: argparse.Namespace) -> int:
    """Build the demo (in its job process, while the app loads), isolate it, run the app, clean up."""
    import shutil
    import tempfile

    from sessiontui.tui.demo import launch_demo

    directory = args.keep or Path(tempfile.mkdtemp(prefix="sessiontui-demo-"))
    demo = launch_demo(directory, style=args.log_format, steps_per_s=args.steps_per_s)
    try:
        from sessiontui.project_memory.paths import ENV_DIR
        from sessiontui.tui.app import SessionApp
        from sessiontui.tui.config import load_config
        from sessiontui.tui.hangup import exit_on_hang_up

        try:
            demo.wait_ready()
        except ValueError as exc:
            print(f"sessiontui demo: {exc}", file=sys.stderr)
            return 2
        os.environ[ENV_DIR] = str(demo.memory_dir)  # nothing may reach the user's real memory
        app = SessionApp(
            demo.dir,
            store_path=demo.store_path,
            gpu_collector=demo.gpu_collector(),
            config_path=demo.config_path,
            config=load_config(demo.config_path),  # follows the demo log listed there
            keep_dir=Path.cwd(),  # exports and screenshots outlive the demo's temporary folder
        )

        def clean_up() -> None:
            app.stop_collectors()
            demo.stop()
            if args.keep is None:
                shutil.rmtree(directory, ignore_errors=True)

        exit_on_hang_up(clean_up)
        app.run()
    finally:
        demo.stop()
        if args.keep is None:
            shutil.rmtree(directory, ignore_errors=True)
    return int(app.return_code or 0)
