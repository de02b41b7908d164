"""`sessiontui serve`: a headless watcher with a Prometheus endpoint (GPUs and followed runs)."""

from __future__ import annotations

import argparse
import signal
import sys
from pathlib import Path
from typing import cast

DEFAULT_LISTEN = "127.0.0.1:9464"


def listen_address(text: str) -> tuple[str, int]:
    """An argparse type: HOST:PORT (port 0 picks a free one); [v6]:PORT for IPv6."""
    host, sep, port = text.rpartition(":")
    if not sep or not port.isdigit() or int(port) > 65535:
        raise argparse.ArgumentTypeError(f"expected HOST:PORT, got {text!r}")
    return host.strip("[]") or "127.0.0.1", int(port)


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `serve` subcommand."""
    from sessiontui.tui.commands.common import add_command, positive_float

    p = add_command(
        sub, "serve", "follow logs and serve GPU and training metrics to Prometheus",
        "sessiontui serve", "sessiontui serve --listen 0.0.0.0:9464 --log runs/exp3/train.log",
        "curl -s localhost:9464/metrics | grep sessiontui_",
        description="Follow the configured logs (and --log files) like `watch`, keeping their run "
                    "records, and serve this host's GPU samples and each run's progress in the "
                    "Prometheus text format at http://HOST:PORT/metrics. Ctrl-C stops.",
    )
    p.add_argument("--log", action="append", default=[], type=Path, metavar="FILE",
                   help="a log to follow besides those in sessiontui.toml (repeatable)")
    p.add_argument("--listen", type=listen_address, default=listen_address(DEFAULT_LISTEN),
                   metavar="HOST:PORT",
                   help=f"address to serve on (default {DEFAULT_LISTEN}: this host only)")
    p.add_argument("--interval", type=positive_float, metavar="S",
                   help="seconds between samples (default: refresh_s from sessiontui.toml)")
    p.add_argument("--no-gpu", action="store_true", help="do not sample GPUs (NVML)")
    p.set_defaults(func=cmd_serve)


def cmd_serve(args: argparse.Namespace) -> int:
    """Serve until Ctrl-C, SIGTERM or SIGHUP; the run records' last progress is saved on the way
    out."""
    from sessiontui.collectors.exporter import Exporter
    from sessiontui.collectors.run_watcher import RunWatcher
    from sessiontui.project_memory.paths import project_root
    from sessiontui.tui.commands.common import open_store
    from sessiontui.tui.config import config_path, load_config
    from sessiontui.tui.metrics_service import (
        Serve,
        Settings,
        gpu_sampler,
        host_name,
        run_names,
        start_server,
    )

    path = config_path(project_root())
    config = load_config(path)
    for problem in config.problems:
        print(f"sessiontui: {problem}", file=sys.stderr)
    if any(str(log) == "-" for log in args.log):
        print("sessiontui: serve follows log files by their path; standard input cannot be followed",
              file=sys.stderr)
        return 2
    logs = [*config.log_paths(path.parent), *(p.expanduser() for p in args.log)]
    logs = list(dict.fromkeys(p.absolute() for p in logs))
    host, port = args.listen
    exporter = Exporter(host_name())
    try:
        server = start_server(exporter, host, port)
    except OSError as exc:
        print(f"sessiontui: cannot listen on {host}:{port}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    sample, close_gpu = gpu_sampler() if not args.no_gpu else (None, lambda: None)
    gpus = [gpu.name for gpu in sample().gpus] if sample else []  # stamps the run records
    settings = Settings(refresh_s=args.interval or config.refresh_s,
                        gpu_refresh_s=args.interval or config.gpu_refresh_s,
                        stall_after_s=config.stall_after_s)
    bound_host, bound_port = cast("tuple[str, int]", server.server_address[:2])
    following = f"following {len(logs)} log{'s' if len(logs) != 1 else ''}"
    print(f"serving http://{bound_host}:{bound_port}/metrics ({following}; Ctrl-C stops)",
          flush=True)
    with open_store() as store:
        watches = [(name, RunWatcher(store, log, gpus=gpus, stall_after_s=settings.stall_after_s))
                   for name, log in zip(run_names(logs), logs, strict=True)]
        serve = Serve(exporter, watches, settings, sample)
        for signum in (signal.SIGTERM, signal.SIGHUP):  # a closed window saves progress too
            signal.signal(signum, lambda signum, frame: serve.stop.set())
        try:
            serve.run()
        except KeyboardInterrupt:
            pass
        finally:
            server.shutdown()
            close_gpu()
    return 0
