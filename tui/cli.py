"""The `sessiontui` command line: a thin argparse front end that imports heavy modules lazily."""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Callable, Sequence

DEBUG_ENV = "SESSIONTUI_DEBUG"  # set: an internal error shows its traceback


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; errors become one line on stderr and a non-zero exit."""
    program = argv is None  # the process is this command (not a caller's in-process use)
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv:  # the app: no parser to build, no command modules to import
        if program:
            gc.disable()  # until the panes are filled (SessionApp's resume_collection)
        from sessiontui.tui.commands.app import cmd_app

        return cmd_app()
    if program:
        gc.disable()  # what the imports build lives as long as the process: nothing to collect
    from sessiontui.tui.commands.common import EscapedOutput  # after the app's branch

    streams = sys.stdout, sys.stderr  # stored text may hold terminal controls: shown escaped
    sys.stdout, sys.stderr = EscapedOutput(sys.stdout), EscapedOutput(sys.stderr)
    try:
        code = _run(argv, program)
    finally:
        sys.stdout, sys.stderr = streams
        if program:  # the command is done: the collector need not walk it all again at exit
            gc.freeze()
    if program and _is_plain_question(argv):
        _exit_now(code)
    return code


def _exit_now(code: int) -> None:
    """End the process without the interpreter's teardown, which frees every object one by one
    (a tenth of a question's time); a question holds no file, thread or exit hook to finish.
    Output that cannot be flushed (a closed pipe) is left to the usual exit, which reports it."""
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except OSError:
        return
    os._exit(code)


def _run(argv: list[str], program: bool = False) -> int:
    """Parse and run one command, turning expected failures into one line and an exit code."""
    from sessiontui.project_memory.records import RecordError
    from sessiontui.project_memory.store import StoreError
    from sessiontui.tui.commands.common import OutputError

    command = _plain_question(argv) or _parsed(argv)
    if program:  # the command's own work is collected as usual (watch and serve run for days)
        gc.freeze()
        gc.enable()
    try:
        return int(command() or 0)
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
    except OutputError as exc:
        _drop_stdout()
        print(f"sessiontui: could not write the output: {exc}", file=sys.stderr)
        return 1
    except Exception as exc:  # a bug of ours: one line the user can report, not a traceback
        if os.environ.get(DEBUG_ENV):
            raise
        where = _innermost_frame(exc)
        print(f"sessiontui: internal error ({type(exc).__name__}: {exc}{where}); "
              f"please report it (set {DEBUG_ENV}=1 for the traceback)", file=sys.stderr)
        return 70  # EX_SOFTWARE


def _innermost_frame(exc: BaseException) -> str:
    """` at file.py:123`, where the error was raised: what a report needs to find it."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return f" at {os.path.basename(tb.tb_frame.f_code.co_filename)}:{tb.tb_lineno}" if tb else ""


def _drop_stdout() -> None:
    """Point standard output at the null device, so that the exit's final flush of what could
    not be written raises nothing more (the Python docs' advice for a closed pipe)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


def _plain_question(argv: list[str]) -> Callable[[], int] | None:
    """`ask` with words and no option, answered without building the parser (argparse, its
    messages' translations and the command table cost a question a tenth of its time)."""
    if not _is_plain_question(argv):
        return None
    from sessiontui.tui.commands.ask import print_answer

    return lambda: print_answer(" ".join(argv[1:]))


def _is_plain_question(argv: list[str]) -> bool:
    """`ask` followed by words, none of them an option."""
    return argv[0] == "ask" and len(argv) > 1 and not any(word.startswith("-") for word in argv[1:])


def _parsed(argv: list[str]) -> Callable[[], int]:
    """The command argparse reads from `argv` (usage errors exit here, with code 2)."""
    from sessiontui.tui.commands.parser import build_parser

    args = build_parser(argv[0]).parse_args(argv)
    if not getattr(args, "func", None):
        build_parser().print_help()
        return lambda: 2
    return lambda: args.func(args)


if __name__ == "__main__":
    sys.exit(main())
