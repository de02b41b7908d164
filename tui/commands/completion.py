"""`sessiontui completion bash|zsh|fish`: a shell completion script generated from the parser.

The argparse tree is walked once into a table (command path -> subcommands and options; option
-> its choices), and each shell gets a small static script reading that table: nothing runs
Python at tab time, and a new command or option is completed as soon as it is registered.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from dataclasses import dataclass, field

SHELLS = ("bash", "zsh", "fish")


@dataclass
class Level:
    """One command path's completions: its subcommands, options, and option value choices."""

    path: str
    commands: dict[str, str] = field(default_factory=dict)  # name -> help
    options: dict[str, str] = field(default_factory=dict)  # --flag -> help
    values: dict[str, list[str]] = field(default_factory=dict)  # --flag taking a value -> choices
    files: bool = False  # a positional argument that is free text or a file name


def walk(parser: argparse.ArgumentParser, path: str = "sessiontui") -> list[Level]:
    """Every command path of the parser, depth first."""
    level, below = Level(path), []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {choice.dest: choice.help or "" for choice in action._choices_actions}
            for name, child in action.choices.items():
                level.commands[name] = helps.get(name, "")
                below += walk(child, f"{path} {name}")
        elif not action.option_strings and action.choices:  # a positional with fixed values
            level.commands.update({str(choice): action.help or "" for choice in action.choices})
        elif not action.option_strings:
            level.files = True
        for option in action.option_strings:
            if option.startswith("--"):
                level.options[option] = (action.help or "").replace("%%", "%")
                if action.nargs != 0:
                    level.values[option] = [str(c) for c in action.choices or ()]
    return [level, *below]


def _words(level: Level) -> str:
    return " ".join([*level.commands, *level.options])


def bash_script(levels: list[Level]) -> str:
    """A bash completion function (zsh reads its own, below)."""
    table = []
    for level in levels:
        table.append(f"  [{shlex.quote(level.path)}]={shlex.quote(_words(level))}")
        table += [f"  [{shlex.quote(level.path + '|' + option)}]={shlex.quote(' '.join(choices))}"
                  for option, choices in level.values.items()]
    return "\n".join([
        "# sessiontui bash completion: eval \"$(sessiontui completion bash)\"",
        "declare -gA _sessiontui_table=(", *table, ")",
        "_sessiontui() {",
        '  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} at=sessiontui i next',
        "  for ((i=1; i<COMP_CWORD; i++)); do",
        '    next="$at ${COMP_WORDS[i]}"',
        '    [[ -n "${_sessiontui_table[$next]+x}" ]] && at=$next',
        "  done",
        '  if [[ -n "${_sessiontui_table[$at|$prev]+x}" ]]; then',
        '    COMPREPLY=($(compgen -W "${_sessiontui_table[$at|$prev]}" -- "$cur"))',
        "  else",
        '    COMPREPLY=($(compgen -W "${_sessiontui_table[$at]}" -- "$cur"))',
        "  fi",
        "}",
        "complete -o default -F _sessiontui sessiontui",
        "",
    ])


def zsh_script(levels: list[Level]) -> str:
    """A zsh completion function (#compdef), with each option's help as its description."""
    table = []
    for level in levels:
        described = [f"{name}:{text}" for name, text in [*level.commands.items(), *level.options.items()]]
        table.append(f"  {shlex.quote(level.path)} {shlex.quote(chr(10).join(described))}")
        table += [f"  {shlex.quote(level.path + '|' + option)} {shlex.quote(' '.join(choices))}"
                  for option, choices in level.values.items()]
        if level.files:
            table.append(f"  {shlex.quote(level.path + '|@files')} ''")
    return "\n".join([
        "#compdef sessiontui",
        "# sessiontui zsh completion: sessiontui completion zsh > ~/.zfunc/_sessiontui",
        "typeset -gA _sessiontui_table",
        "_sessiontui_table=(", *table, ")",
        "_sessiontui() {",
        "  local at=sessiontui i next prev=${words[CURRENT-1]}",
        "  for ((i=2; i<CURRENT; i++)); do",
        '    next="$at ${words[i]}"',
        "    (( ${+_sessiontui_table[$next]} )) && at=$next",
        "  done",
        '  if (( ${+_sessiontui_table[$at|$prev]} )); then',
        '    local -a choices=(${=_sessiontui_table[$at|$prev]})',
        "    if (( ${#choices} )); then compadd -- $choices; else _files; fi",
        "  else",
        '    local -a described=("${(@f)_sessiontui_table[$at]}")',
        "    _describe -t commands sessiontui described",
        "    (( ${+_sessiontui_table[$at|@files]} )) && _files",
        "  fi",
        "}",
        'if [[ "$funcstack[1]" = "_sessiontui" ]]; then _sessiontui "$@"; else compdef _sessiontui sessiontui; fi',
        "",
    ])


def fish_script(levels: list[Level]) -> str:
    """Fish `complete` lines, one per subcommand and option, each with its help."""
    paths = " ".join(shlex.quote(level.path) for level in levels)
    lines = [
        "# sessiontui fish completion: sessiontui completion fish > ~/.config/fish/completions/sessiontui.fish",
        f"set -g __sessiontui_paths {paths}",
        "function __sessiontui_at",
        "    set -l at sessiontui",
        "    for word in (commandline -opc)[2..-1]",
        '        contains -- "$at $word" $__sessiontui_paths; and set at "$at $word"',
        "    end",
        "    echo $at",
        "end",
        "complete -c sessiontui -f",
    ]
    for level in levels:
        when = shlex.quote(f"test (__sessiontui_at) = {shlex.quote(level.path)}")
        if level.files:
            lines.append(f"complete -c sessiontui -n {when} -F")
        for name, text in level.commands.items():
            lines.append(f"complete -c sessiontui -n {when} -a {shlex.quote(name)} -d {shlex.quote(text)}")
        for option, text in level.options.items():
            value = ""
            if option in level.values:
                choices = level.values[option]
                value = f" -x -a {shlex.quote(' '.join(choices))}" if choices else " -r -F"
            lines.append(f"complete -c sessiontui -n {when} -l {option[2:]}{value} -d {shlex.quote(text)}")
    return "\n".join([*lines, ""])


def cmd_completion(args: argparse.Namespace) -> int:
    from sessiontui.tui.commands.parser import build_parser

    levels = walk(build_parser())
    script = {"bash": bash_script, "zsh": zsh_script, "fish": fish_script}[args.shell](levels)
    sys.stdout.write(script)
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `completion` command."""
    from sessiontui.tui.commands.common import add_command

    p = add_command(
        sub, "completion", "print a shell completion script (bash, zsh or fish)",
        'eval "$(sessiontui completion bash)"            # in ~/.bashrc',
        "sessiontui completion zsh > ~/.zfunc/_sessiontui  # a folder on $fpath",
        "sessiontui completion fish > ~/.config/fish/completions/sessiontui.fish",
    )
    p.add_argument("shell", choices=SHELLS, help="the shell to complete in")
    p.set_defaults(func=cmd_completion)
