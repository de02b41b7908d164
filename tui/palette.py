"""Command-palette provider: every app action by name, read from the app's current command list."""

from __future__ import annotations

from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider


class SessionCommands(Provider):
    """The app's actions (add benchmark, follow a log, export, ...) for Ctrl+P."""

    def _commands(self) -> list[tuple[str, str, str]]:
        return self.app.palette_commands()  # type: ignore[attr-defined]

    async def discover(self) -> Hits:
        for name, help_text, action in self._commands():
            yield DiscoveryHit(name, partial(self.app.run_action, action), help=help_text)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for name, help_text, action in self._commands():
            score = matcher.match(name)
            if score > 0:
                yield Hit(
                    score, matcher.highlight(name), partial(self.app.run_action, action),
                    help=help_text,
                )
