"""`sessiontui mcp`: serve the project memory to coding agents over the Model Context Protocol."""

from __future__ import annotations

import argparse
import sys

from sessiontui.tui.commands.common import add_command

INSTALL_HINT = "sessiontui mcp needs the MCP SDK: pip install 'sessiontui[mcp]'"


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `mcp` command."""
    p = add_command(
        sub, "mcp", "serve the memory to coding agents (MCP over stdio)",
        "claude mcp add sessiontui -- sessiontui mcp", "sessiontui mcp --read-only",
        description="Start a Model Context Protocol server on stdin/stdout for the project in the "
        "current directory: tools to ask, list, show and add records, parse benchmark output, "
        "read a training log and project a speedup. Configure it in your agent (see README).",
    )
    p.add_argument("--read-only", action="store_true", help="expose only the reading tools")
    p.set_defaults(func=cmd_mcp)


def cmd_mcp(args: argparse.Namespace) -> int:
    """Serve until the client closes stdin; a missing SDK is a one-line error."""
    try:
        from sessiontui.tui.commands.mcp_tools import serve
    except ImportError as exc:
        if (exc.name or "").split(".")[0] not in ("mcp", "pydantic"):
            raise
        print(INSTALL_HINT, file=sys.stderr)
        return 1
    serve(read_only=args.read_only)
    return 0
