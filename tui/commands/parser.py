"""The `sessiontui` argument parser: one-line usage errors with a "did you mean", the version,
and the exit codes in the top-level help (the completion scripts are generated from it too)."""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from typing import NoReturn, cast

from sessiontui.tui.commands import modules_for

_INVALID_CHOICE = re.compile(r"invalid choice: '([^']*)' \(choose from (.*)\)")


class OneLineParser(argparse.ArgumentParser):
    """Usage errors in one line (no usage dump) with a "did you mean" for a typo, exit code 2."""

    _printing = False  # help or usage is being formatted: sized to the terminal

    def format_usage(self) -> str:
        return self._sized(super().format_usage)

    def format_help(self) -> str:
        return self._sized(super().format_help)

    def _sized(self, format_text: Callable[[], str]) -> str:
        self._printing = True
        try:
            return format_text()
        finally:
            self._printing = False

    def _get_formatter(self) -> argparse.HelpFormatter:
        """argparse's formatter, sized to the terminal only for text to print: every
        `add_argument` builds one, and sizing it imports shutil (and three compression modules)."""
        if self._printing:
            return super()._get_formatter()
        formatter = cast(type[argparse.HelpFormatter], self.formatter_class)  # every kind takes a width
        return formatter(prog=self.prog, width=80)

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


class _Version(argparse.Action):
    """`--version`, looked up only when asked: importlib.metadata costs every command ~10 ms."""

    def __init__(self, option_strings: list[str], dest: str, help: str | None = None) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> NoReturn:
        print(f"sessiontui {version()}")
        parser.exit()


EPILOG = """\
exit codes: 0 ok; 1 runtime failure (one line on stderr); 2 usage or invalid input;
  `sync --status`: 0 in sync, 1 something to sync; `salvage`: 3 when records were lost.
JSON: every command that prints takes --json (docs/json.md); FILE arguments take - for stdin/stdout.

EXAMPLES
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
    parser.add_argument("--version", action=_Version, help="print the version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in modules_for(command):
        module.register(sub)
    return parser
