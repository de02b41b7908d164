"""The headless metrics service behind `sessiontui serve` (the command is tui/commands/serve.py):
its loop follows logs like `watch` and samples the GPUs, its HTTP endpoint exposes them to
Prometheus.

One thread follows the logs and samples the GPUs on the configured cadence, then renders the
metrics once; the HTTP server's threads only copy those bytes out. Scrapes therefore cost the
followers nothing but a little GIL time, however many arrive at once.
"""

from __future__ import annotations

import gzip
import socket
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import Protocol

from prometheus_client.exposition import MetricsHandler, gzip_accepted

from sessiontui.collectors.exporter import Exporter, ServedRun
from sessiontui.collectors.gpu import GpuCollector, GpuSnapshot
from sessiontui.collectors.trainlog.snapshot import TrainSnapshot
from sessiontui.project_memory.runs import run_name

METRICS_PATHS = ("/metrics", "/")
BACKLOG = 256  # pending connections the listener holds: a burst of scrapes is queued, not refused
IDLE_TIMEOUT_S = 10.0  # a connection that sends nothing for this long is closed (a thread each)
SHUTDOWN_POLL_S = 0.05  # how often the listener checks for shutdown: SIGTERM exits well within 1 s


class Watch(Protocol):
    """What serve needs from a followed log: the shared RunWatcher's interface."""

    def catch_up(self) -> TrainSnapshot: ...

    def read(self) -> TrainSnapshot | None: ...

    def record(self, snapshot: TrainSnapshot) -> object: ...

    def close(self) -> None: ...


@dataclass
class Settings:
    """How serve follows and samples: the config's cadences and stall limit."""

    refresh_s: float = 1.0
    gpu_refresh_s: float = 1.0
    stall_after_s: float | None = None


class _MetricsServer(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = BACKLOG
    exporter: Exporter

    def __init__(self, address: tuple[str, int], handler: type[_Handler]) -> None:
        super().__init__(address, handler)
        self._gzipped: dict[str, tuple[bytes, bytes]] = {}  # content type -> (page, its gzip)

    def gzipped(self, body: bytes, content_type: str) -> bytes:
        """The page compressed once per sample: the scrapes between two samples get the same
        bytes (a page is one object per sample and format, so it is told by identity)."""
        held = self._gzipped.get(content_type)
        if held is None or held[0] is not body:
            held = self._gzipped[content_type] = (body, gzip.compress(body, compresslevel=5))
        return held[1]


class _Handler(MetricsHandler):
    """prometheus_client's handler in front of the cached sample: GET and HEAD /metrics, the
    format the Accept header negotiates (OpenMetrics or text), gzip when accepted; keep-alive
    connections idle for `timeout` seconds are closed."""

    server: _MetricsServer
    protocol_version = "HTTP/1.1"
    timeout = IDLE_TIMEOUT_S

    def do_GET(self) -> None:  # noqa: N802 - the name http.server dispatches to
        self._answer(with_body=True)

    def do_HEAD(self) -> None:  # noqa: N802
        self._answer(with_body=False)

    def _answer(self, *, with_body: bool) -> None:
        if self.path.split("?")[0] not in METRICS_PATHS:
            self.send_error(404, "only /metrics is served")
            return
        body, content_type = self.server.exporter.page(self.headers.get("Accept"))
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        if gzip_accepted(self.headers.get("Accept-Encoding") or ""):
            body = self.server.gzipped(body, content_type)
            self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if with_body:
            self.wfile.write(body)


def start_server(exporter: Exporter, host: str, port: int, *,
                 idle_timeout_s: float = IDLE_TIMEOUT_S) -> _MetricsServer:
    """Listen on host:port (port 0 picks a free one) in a daemon thread; OSError if it cannot."""
    handler = type("Handler", (_Handler,), {"timeout": idle_timeout_s})
    server = _MetricsServer((host, port), handler)
    server.exporter = exporter
    threading.Thread(target=server.serve_forever, args=(SHUTDOWN_POLL_S,), name="metrics-http",
                     daemon=True).start()
    return server


def run_names(paths: Sequence[Path]) -> list[str]:
    """The run label of each log: its run name, made unique with the folder when two collide."""
    names = [run_name(path) for path in paths]
    return [
        name if names.count(name) == 1 else f"{path.parent.name}/{path.name}"
        for name, path in zip(names, paths, strict=True)
    ]


class Serve:
    """Follows logs and samples the GPUs into an Exporter until `stop` is set."""

    def __init__(
        self, exporter: Exporter, watches: Sequence[tuple[str, Watch]], settings: Settings,
        gpu: Callable[[], GpuSnapshot] | None = None,
    ) -> None:
        self.exporter = exporter
        self.watches = list(watches)
        self.settings = settings
        self.stop = threading.Event()
        self._gpu = gpu
        self._latest: dict[str, TrainSnapshot] = {}
        self._gpu_snapshot: GpuSnapshot | None = None
        self._gpu_due = 0.0

    def run(self) -> None:
        """Publish at once (GPUs, no runs yet), catch the logs up, then follow them."""
        try:
            self._sample_gpu()
            self._publish()
            for name, watch in self.watches:
                if self.stop.is_set():  # a signal while catching up: the other logs can wait
                    return
                self._take(name, watch, watch.catch_up())
                self._publish()
            while not self.stop.wait(self.settings.refresh_s):
                self.tick()
        finally:
            for _, watch in self.watches:
                watch.close()

    def tick(self) -> None:
        """One round: read what is new in every log, sample the GPUs when due, render once."""
        for name, watch in self.watches:
            snapshot = watch.read()
            if snapshot is not None:
                self._take(name, watch, snapshot)
        self._sample_gpu()
        self._publish()

    def _take(self, name: str, watch: Watch, snapshot: TrainSnapshot) -> None:
        self._latest[name] = snapshot
        watch.record(snapshot)

    def _sample_gpu(self) -> None:
        if self._gpu is not None and time.monotonic() >= self._gpu_due:
            self._gpu_due = time.monotonic() + self.settings.gpu_refresh_s
            self._gpu_snapshot = self._gpu()

    def _publish(self) -> None:
        runs = [ServedRun(name, snapshot) for name, snapshot in self._latest.items()]
        self.exporter.update(self._gpu_snapshot, runs)


def gpu_sampler() -> tuple[Callable[[], GpuSnapshot], Callable[[], None]]:
    """The NVML collector's sample and close functions."""
    collector = GpuCollector()
    return collector.sample, collector.close


def host_name() -> str:
    """The `host` label: this machine's short name."""
    return socket.gethostname().split(".")[0]
