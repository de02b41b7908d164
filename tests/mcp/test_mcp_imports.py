"""The MCP SDK is paid for by `sessiontui mcp` only, and its absence is one line."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

PROBE = """
import contextlib, io, json, sys
from sessiontui.tui.cli import main
with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):
    main({argv!r})
print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] in ("mcp", "mcp_types", "pydantic"))))
"""


@pytest.mark.parametrize("argv", [
    ["ask", "what is the baseline?"], ["--help"], ["list"], ["mcp", "--help"], ["no-such-command"],
])
def test_other_commands_do_not_import_the_mcp_sdk(argv: list[str], memory_dir) -> None:
    out = subprocess.run([sys.executable, "-c", PROBE.format(argv=argv)], capture_output=True,
                         text=True, check=True)
    assert json.loads(out.stdout.strip().splitlines()[-1]) == []


def test_without_the_sdk_mcp_says_how_to_install_it(memory_dir) -> None:
    probe = "import sys; sys.modules['mcp'] = None; from sessiontui.tui.cli import main; sys.exit(main(['mcp']))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert out.returncode == 1
    assert out.stderr == "sessiontui mcp needs the MCP SDK: pip install 'sessiontui[mcp]'\n"
