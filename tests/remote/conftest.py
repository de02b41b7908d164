"""The `serve` fixture: real `sessiontui serve` processes, stopped after each test."""

from tests.remote.serving import serve  # noqa: F401 - a fixture, found here by pytest
