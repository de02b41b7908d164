"""The `sessiontui` command line: a thin argparse front end that imports heavy modules lazily."""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from typing import NoReturn

from sessiontui.tui.commands import modules_for

_INVALID_CHOICE = re.compile(r"invalid choice: '([^']*)' \(choose from (.*)\)")


class OneLineParser(argparse.ArgumentParser):
    """Usage errors in one line (no usage dump) with a "did you mean" for a typo, exit code 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}{self._suggestion(message)} (see --help)\n")

    def _suggestion(self, message: str) -> str:
        """The closest valid word to a mistyped command, choice or option."""
        from sessiontui.tui.commands.common import did_you_mean

        if found := _INVALID_CHOICE.search(message):
            return did_you_mean(found[1], re.findall(r"'([^']*)'", found[2]))
        if message.startswith("unrecognized arguments: "):
            first = message.removeprefix("unrecognized arguments: ").split()[0]
            if first.startswith("-"):
                return did_you_mean(first.partition("=")[0], _option_strings(self))
        return ""


def _option_strings(parser: argparse.ArgumentParser) -> set[str]:
    """Every option of a parser and of its subcommands (argparse reports a subcommand's stray
    option from the top-level parser)."""
    found = set(parser._option_string_actions)
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for child in action.choices.values():
                found |= _option_strings(child)
    return found


def version() -> str:
    """The installed package's version."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("sessiontui")
    except PackageNotFoundError:
        return "unknown"


EPILOG = """\
exit codes: 0 ok; 1 runtime failure (one line on stderr); 2 usage or invalid input;
  `sync --status`: 0 in sync, 1 something to sync; `salvage`: 3 when records were lost.
JSON: every command that prints takes --json (docs/json.md); FILE arguments take - for stdin/stdout.

examples:
  sessiontui                                  open the app
  sessiontui ask "what's the baseline?"
  sessiontui list --kind benchmark --json
  sessiontui completion bash > ~/.local/share/bash-completion/completions/sessiontui"""


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser; with a known `command`, only its module registers (a one-shot CLI starts faster)."""
    parser = OneLineParser(
        prog="sessiontui",
        description="Remember, watch and answer for a long ML session. No command opens the app.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"sessiontui {version()}",
                        help="print the version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in modules_for(command):
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; errors become one line on stderr and a non-zero exit."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv:  # the app: no parser to build, no command modules to import
        from sessiontui.tui.commands.app import cmd_app

        return cmd_app()
    from sessiontui.tui.commands.common import EscapedOutput  # after the app's branch

    streams = sys.stdout, sys.stderr  # stored text may hold terminal controls: shown escaped
    sys.stdout, sys.stderr = EscapedOutput(sys.stdout), EscapedOutput(sys.stderr)
    try:
        return _run(argv)
    finally:
        sys.stdout, sys.stderr = streams


def _run(argv: list[str]) -> int:
    """Parse and run one command, turning expected failures into one line and an exit code."""
    from sessiontui.project_memory.records import RecordError
    from sessiontui.project_memory.store import StoreError

    args = build_parser(argv[0]).parse_args(argv)
    if not getattr(args, "func", None):
        build_parser().print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except StoreError as exc:
        print(f"sessiontui: {exc}", file=sys.stderr)
        return 1
    except RecordError as exc:  # implausible values: nothing was stored
        print(f"sessiontui: not stored: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("sessiontui: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
