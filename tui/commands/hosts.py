"""`--host NAME` for the commands that can read another host: the `[[hosts]]` entry it names."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sessiontui.collectors.remote import RemoteSnapshot


def add_host_option(parser: argparse.ArgumentParser) -> None:
    """The shared `--host NAME` option."""
    parser.add_argument("--host", metavar="NAME",
                        help="read a [[hosts]] entry of sessiontui.toml instead of this host")


def scrape_named(name: str) -> RemoteSnapshot | None:
    """Scrape the configured host called `name`; None (after one line on stderr) when unknown."""
    from sessiontui.collectors.remote import scrape_once
    from sessiontui.project_memory.paths import project_root
    from sessiontui.tui.config import config_path, load_config

    path = config_path(project_root())
    config = load_config(path)
    for problem in config.problems:
        print(f"sessiontui: {problem}", file=sys.stderr)
    host = next((host for host in config.hosts if host.name == name), None)
    if host is None:
        known = ", ".join(h.name for h in config.hosts) or "none configured"
        print(f"sessiontui: no host {name!r} in {path} (known: {known})", file=sys.stderr)
        return None
    snapshot = scrape_once(host)
    why: str | None = snapshot.problem()
    if why is None and not snapshot.gpu.available:
        why = snapshot.gpu.reason
    if why:
        print(f"sessiontui: {name}: {why}", file=sys.stderr)
    return snapshot


def answered(snapshot: RemoteSnapshot) -> bool:
    """Whether a host answered with metrics we could read (the exit status of `--host`)."""
    return snapshot.reachable and snapshot.warning is None
