"""Guards for the three places the app leans on Textual's private code (pinned at 8.2.8).

Each fails with a message naming the private API and what depends on it, so a Textual upgrade
is a known list of re-checks rather than a snapshot diff. When a hash changes: read the new
source, adapt (or drop) our code, then put the new hash here. See docs/upstream.md.
"""

from __future__ import annotations

import hashlib
import inspect
from collections.abc import Callable

import pytest
from textual._compositor import Compositor
from textual._xterm_parser import XTermParser
from textual.drivers import linux_driver
from textual.screen import Screen
from textual.widgets import DataTable

from sessiontui.tui.compositor import PartialCompositor
from sessiontui.tui.paste import PasteSafeParser


def source_hash(function: Callable[..., object]) -> str:
    return hashlib.sha256(inspect.getsource(function).encode()).hexdigest()[:16]


# (private function, its source hash in Textual 8.2.8, what of ours depends on it)
PINNED = [
    (Compositor._get_renders, "8ac93299aa5d3bef",
     "tui/compositor.py PartialCompositor overrides it to pick widgets by region, not clip "
     "(if Textual now picks by region, drop PartialCompositor: docs/upstream.md)"),
    (XTermParser.feed, "a2ae8e648629c0a1",
     "tui/paste.py PasteSafeParser feeds it pasted text without escape sequences"),
    (XTermParser.__init__, "d72babb3e40ab7da",
     "tui/paste.py PasteSafeParser calls it with `debug` only"),
    (linux_driver.LinuxDriver.run_input_thread, "d796af6d69db337d",
     "tui/paste.py install() replaces the module global `XTermParser` this method builds"),
]


@pytest.mark.parametrize("function, pinned, ours", PINNED, ids=lambda v: getattr(v, "__qualname__", ""))
def test_private_textual_code_we_lean_on_is_unchanged(
    function: Callable[..., object], pinned: str, ours: str
) -> None:
    name = f"{function.__module__}.{function.__qualname__}"
    assert source_hash(function) == pinned, (
        f"Textual changed the private {name}: {ours}. Re-check that code against the new "
        "source, then update its hash in tests/tui/test_textual_internals.py.")


def test_the_linux_driver_still_builds_its_parser_from_the_module_global() -> None:
    assert "XTermParser(" in inspect.getsource(linux_driver.LinuxDriver.run_input_thread), (
        "textual.drivers.linux_driver no longer builds `XTermParser(...)` by its module global: "
        "tui/paste.py install() would silently stop cleaning pastes")
    assert issubclass(PasteSafeParser, XTermParser)


def test_the_screen_still_has_a_replaceable_compositor() -> None:
    screen = Screen()
    assert isinstance(getattr(screen, "_compositor", None), Compositor), (
        "textual.screen.Screen._compositor is gone: tui/app.py get_default_screen assigns "
        "PartialCompositor there")
    assert hasattr(PartialCompositor(), "visible_widgets"), (
        "textual._compositor.Compositor.visible_widgets is gone: PartialCompositor reads it")


def test_the_data_table_caches_memory_table_purges_are_still_there() -> None:
    table = DataTable()
    missing = [name for name in ("_data", "_cell_render_cache", "_row_render_cache", "_line_cache")
               if not hasattr(table, name)]
    assert not missing, (
        f"textual.widgets.DataTable lost {', '.join(missing)}: tui/widgets/memory_pane.py "
        "MemoryTable.update_row purges one row's entries from them")
    assert "cell_cache_key: CellCacheKey = (" in inspect.getsource(DataTable._render_cell), (
        "textual.widgets.DataTable._render_cell keys its cache differently: MemoryTable.update_row "
        "drops the entries whose key starts with the row's key")
