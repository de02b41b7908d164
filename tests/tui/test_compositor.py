"""The main screen's compositor: a change in one pane re-renders that pane, and what it sends the
terminal is what a whole-screen render shows there."""

from __future__ import annotations

from pathlib import Path

import pytest

from sessiontui.tui.app import SessionApp
from sessiontui.tui.compositor import PartialCompositor
from sessiontui.tui.widgets.ask_panel import AnswerPanel
from sessiontui.tui.widgets.memory_pane import MemoryPane
from tests.tui.app_fakes import HOST, SequenceCollector, gpu, gpu_snapshot, until

RISING = [gpu_snapshot(gpu(0, float(util)), gpu(1, 50.0)) for util in range(10, 100, 3)]


def make_app(tmp_path: Path) -> SessionApp:
    return SessionApp(tmp_path, store_path=tmp_path / "memory.db",
                      gpu_collector=SequenceCollector(*RISING),
                      host_collector=SequenceCollector(HOST), refresh_s=0.05)


async def test_a_gpu_sample_does_not_re_render_the_other_panes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rendered: list[str] = []
    for pane in (MemoryPane, AnswerPanel):
        original = pane.render_lines

        def counted(self, crop, original=original):
            rendered.append(type(self).__name__)
            return original(self, crop)

        monkeypatch.setattr(pane, "render_lines", counted)
    app = make_app(tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        await until(pilot, lambda: app.gpu_pane.samples >= 3)
        await pilot.pause()
        rendered.clear()
        drawn = app.gpu_pane.samples
        await until(pilot, lambda: app.gpu_pane.samples >= drawn + 5)
        await pilot.pause()
        assert rendered == []  # the GPU pane changed five times; the others were not drawn again
        assert isinstance(app.screen._compositor, PartialCompositor)


async def test_a_partial_update_sends_what_the_whole_screen_shows(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        await until(pilot, lambda: app.gpu_pane.samples >= 2)
        compositor = app.screen._compositor
        updates = []
        original = compositor.render_partial_update

        def kept():
            update = original()
            if update is not None:
                updates.append((update, [strip.text for strip in compositor.render_strips()]))
            return update

        compositor.render_partial_update = kept
        await until(pilot, lambda: len(updates) >= 3)
        for update, screen in updates:
            for y, x1, x2 in update.spans:
                sent = {}
                for (x, strip), end in zip(update.chops[y].items(), update.chop_ends[y], strict=True):
                    if strip is not None and x < x2 and end > x1:
                        for offset, char in enumerate(strip.text):
                            sent[x + offset] = char
                expected = screen[y][x1:x2]
                assert "".join(sent.get(x, "?") for x in range(x1, x2)) == expected
