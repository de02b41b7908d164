"""Other hosts' GPUs and runs, scraped from endpoints users already run: another `sessiontui
serve`, NVIDIA's dcgm-exporter, or a Prometheus server's query API.

Each host becomes a snapshot built from the same objects the local collectors make (a
GpuSnapshot, TrainSnapshots), so every pane and command renders them unchanged. Scraping never
raises: an unreachable host says since when and why, a malformed payload is a one-line warning.
Each scrape has a whole-request deadline (its host's timeout_s) and each host its own schedule:
a host that answers slowly is reported late, without holding the others.
prometheus_client and urllib are imported on first scrape, not with this module.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # imported where used: the settings file names RemoteHost, start-up stays light
    from concurrent.futures import Future, ThreadPoolExecutor

    from sessiontui.collectors.gpu import GpuSample, GpuSnapshot
    from sessiontui.collectors.trainlog.snapshot import TrainSnapshot

KINDS = ("sessiontui", "dcgm-exporter", "prometheus")
DEFAULT_TIMEOUT_S = 2.0
MAX_PAYLOAD_BYTES = 16 << 20  # a metrics page larger than this is not one we understand

# DCGM writes a "blank" (no value: not supported, or not yet sampled) as the largest values of
# its integer types, DCGM_INT32_BLANK = 0x7FFFFFF0 and DCGM_INT64_BLANK = 0x7FFFFFFFFFFFFFF0 (and
# a few above each). No utilisation, MiB, watt, degree or MHz reading comes near the first.
DCGM_BLANK = float(0x7FFFFFF0)

# Prometheus series -> (GpuSample field, factor to its unit). The same fields from either source.
DCGM_FIELDS: dict[str, tuple[str, float]] = {
    "DCGM_FI_DEV_GPU_UTIL": ("util_pct", 1.0),
    "DCGM_FI_DEV_MEM_COPY_UTIL": ("mem_util_pct", 1.0),
    "DCGM_FI_DEV_FB_USED": ("mem_used_mib", 1.0),
    "DCGM_FI_DEV_FB_TOTAL": ("mem_total_mib", 1.0),
    "DCGM_FI_DEV_POWER_USAGE": ("power_w", 1.0),
    "DCGM_FI_DEV_POWER_MGMT_LIMIT": ("power_limit_w", 1.0),
    "DCGM_FI_DEV_GPU_TEMP": ("temp_c", 1.0),
    "DCGM_FI_DEV_SM_CLOCK": ("sm_clock_mhz", 1.0),
    "DCGM_FI_DEV_MEM_CLOCK": ("mem_clock_mhz", 1.0),
}
DCGM_FB_PARTS = ("DCGM_FI_DEV_FB_USED", "DCGM_FI_DEV_FB_FREE", "DCGM_FI_DEV_FB_RESERVED")
DCGM_PREFIX = "DCGM_FI_DEV_"
SHOWN_FIELDS = ("util_pct", "mem_used_mib", "mem_total_mib", "power_w", "temp_c", "sm_clock_mhz",
                "mem_clock_mhz")
HOST_LABELS = ("Hostname", "hostname", "host")
DRIVER_LABEL = "DCGM_FI_DRIVER_VERSION"  # dcgm-exporter labels every series with the driver
CHUNK_BYTES = 64 << 10


@dataclass(frozen=True)
class RemoteHost:
    """One `[[hosts]]` entry: where to scrape and what speaks there."""

    name: str
    url: str
    kind: str = "sessiontui"
    selector: str = ""  # prometheus only: label matchers, e.g. Hostname="node-2"
    timeout_s: float = DEFAULT_TIMEOUT_S


@dataclass(frozen=True)
class Reading:
    """One sample of a series: its name, labels and value."""

    name: str
    labels: Mapping[str, str]
    value: float


@dataclass(frozen=True)
class RemoteSnapshot:
    """What a remote host showed at its last scrape (or why it showed nothing)."""

    host: RemoteHost
    at: float
    gpu: GpuSnapshot
    runs: tuple[TrainSnapshot, ...] = ()  # sessiontui endpoints: source is the run name
    reported_as: str = ""  # the host name the endpoint's labels give (Hostname, hostname, host)
    error: str | None = None  # why the host does not answer
    down_since: float | None = None  # first failed scrape of the current outage
    warning: str | None = None  # the payload could not be read (one line)

    @property
    def reachable(self) -> bool:
        return self.error is None

    def problem(self) -> str | None:
        """One line for people: "unreachable since 10:42: connection refused", or the warning."""
        if self.error is not None:
            since = time.strftime("%H:%M", time.localtime(self.down_since or self.at))
            return f"unreachable since {since}: {self.error}"
        return self.warning

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form: the host, the GPU snapshot's keys, and its runs."""
        return {
            "host": self.host.name, "kind": self.host.kind, "url": self.host.url,
            "reported_as": self.reported_as, "reachable": self.reachable, "problem": self.problem(),
            **self.gpu.to_dict(),
            "runs": [run.to_dict() for run in self.runs],
        }


class PayloadError(ValueError):
    """A host answered, but not with metrics we can read."""


# -- parsing ---------------------------------------------------------------------------------
def text_readings(text: str) -> list[Reading]:
    """Samples of a Prometheus text-format page, read by prometheus_client's parser."""
    from prometheus_client.parser import text_string_to_metric_families

    try:
        return [
            Reading(sample.name, sample.labels, float(sample.value))
            for family in text_string_to_metric_families(text)
            for sample in family.samples
        ]
    except (ValueError, TypeError, IndexError) as exc:
        raise PayloadError(f"not the Prometheus text format: {_first_line(exc)}") from None


def query_readings(data: Any) -> list[Reading]:
    """Samples of a Prometheus `/api/v1/query` instant-vector response."""
    if not isinstance(data, dict):
        raise PayloadError("not a Prometheus query response")
    if data.get("status") != "success":
        raise PayloadError(f"query failed: {data.get('errorType', '?')}: {data.get('error', '?')}")
    result = data.get("data", {}).get("result") if isinstance(data.get("data"), dict) else None
    if not isinstance(result, list):
        raise PayloadError("query response without a result list")
    readings = []
    for item in result:
        try:
            labels = {str(k): str(v) for k, v in item["metric"].items()}
            name = labels.pop("__name__")
            readings.append(Reading(name, labels, float(item["value"][1])))
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            raise PayloadError(f"unreadable query result: {str(item)[:80]}") from None
    return readings


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return (text[0] if text else type(exc).__name__)[:120]


def _label(labels: Mapping[str, str], names: Iterable[str]) -> str:
    return next((labels[name] for name in names if labels.get(name)), "")


def reported_name(readings: Sequence[Reading]) -> str:
    """The host name(s) the series carry in their labels, in order of first appearance."""
    names = dict.fromkeys(_label(r.labels, HOST_LABELS) for r in readings)
    return ", ".join(name for name in names if name)


def _gpu_key(labels: Mapping[str, str]) -> tuple[str, str, str]:
    """One physical GPU or MIG instance: (host, gpu index, MIG instance)."""
    return _label(labels, HOST_LABELS), labels.get("gpu", ""), labels.get("GPU_I_ID", "")


def gpus_from_readings(readings: Sequence[Reading], source: str) -> tuple[GpuSample, ...]:
    """GPU samples from dcgm-exporter (`DCGM_FI_DEV_*`) or sessiontui (`sessiontui_gpu_*`) series;
    a field the source does not report, or reports as blank, is "not available" with why."""
    from sessiontui.collectors.exporter import GPU_METRICS, PREFIX

    ours = {PREFIX + name: (field, 1.0 / factor) for field, (name, _, factor) in GPU_METRICS.items()}
    fields = {**DCGM_FIELDS, **ours}
    values: dict[tuple[str, str, str], dict[str, float | None]] = {}
    labels: dict[tuple[str, str, str], Mapping[str, str]] = {}
    memory_parts: dict[tuple[str, str, str], dict[str, float]] = {}
    for reading in readings:
        known = fields.get(reading.name)
        if known is None and not reading.name.startswith(DCGM_PREFIX):
            continue
        key = _gpu_key(reading.labels)
        if not key[1]:
            continue
        labels.setdefault(key, reading.labels)
        row = values.setdefault(key, {})
        blank = reading.value >= DCGM_BLANK or not math.isfinite(reading.value)
        if reading.name in DCGM_FB_PARTS and not blank:
            memory_parts.setdefault(key, {})[reading.name] = reading.value
        if known is not None:
            row[known[0]] = None if blank else reading.value * known[1]
        elif blank:  # a field we do not show, reported as blank: still say it is not supported
            row[reading.name.removeprefix(DCGM_PREFIX).lower()] = None
    hosts = {key[0] for key in values}
    return tuple(
        _sample(key, labels[key], row, _memory_total(memory_parts.get(key, {})), source,
                len(hosts) > 1)
        for key, row in sorted(values.items(), key=lambda item: _order(item[0]))
    )


def _memory_total(parts: Mapping[str, float]) -> float | None:
    """Installed memory from dcgm-exporter's parts: used + free (+ reserved), when both are there."""
    if DCGM_FB_PARTS[0] in parts and DCGM_FB_PARTS[1] in parts:
        return sum(parts.values())
    return None


def _order(key: tuple[str, str, str]) -> tuple:
    host, gpu, instance = key
    return host, int(gpu) if gpu.isdigit() else 1 << 30, gpu, instance


def _sample(key: tuple[str, str, str], labels: Mapping[str, str], row: dict[str, float | None],
            memory_total: float | None, source: str, with_host: bool) -> GpuSample:
    from sessiontui.collectors.gpu import GpuSample

    host, gpu, instance = key
    if row.get("mem_total_mib") is None and memory_total is not None:
        row["mem_total_mib"] = memory_total
    name = _label(labels, ("modelName", "model"))
    if instance:
        name = f"{name} MIG {labels.get('GPU_I_PROFILE', instance)}".strip()
    if with_host:
        name = f"{host} {name}".strip()
    unavailable = {  # a field the source never reports is simply absent, not listed
        f: "not supported (blank value)" for f in dict.fromkeys([*SHOWN_FIELDS, *row])
        if f in row and row[f] is None
    }
    return GpuSample(
        index=int(gpu) if gpu.isdigit() else 0, name=name,
        uuid=_label(labels, ("UUID", "uuid")),
        util_pct=row.get("util_pct"), mem_util_pct=row.get("mem_util_pct"),
        mem_used_mib=row.get("mem_used_mib"), mem_total_mib=row.get("mem_total_mib"),
        power_w=row.get("power_w"), power_limit_w=row.get("power_limit_w"),
        temp_c=row.get("temp_c"), sm_clock_mhz=row.get("sm_clock_mhz"),
        mem_clock_mhz=row.get("mem_clock_mhz"),
        throttle=(), processes=(), unavailable=unavailable,
    )


def runs_from_readings(readings: Sequence[Reading]) -> tuple[TrainSnapshot, ...]:
    """The runs a sessiontui endpoint serves, as training snapshots named by their run."""
    from sessiontui.collectors.exporter import (
        ACCEPTANCE,
        PREFIX,
        RUN_STATUSES,
        STATUS,
        TRAIN_METRICS,
    )

    fields = {PREFIX + name: field for field, (name, _) in TRAIN_METRICS.items()}
    runs: dict[str, dict[str, Any]] = {}
    for reading in readings:
        run = reading.labels.get("run")
        if run is None or not reading.name.startswith(PREFIX + "train_"):
            continue
        row = runs.setdefault(run, {"acc": {}, "status": "waiting"})
        if reading.name in fields:
            row[fields[reading.name]] = reading.value
        elif reading.name == PREFIX + ACCEPTANCE and reading.labels.get("position", "").isdigit():
            row["acc"][int(reading.labels["position"])] = reading.value
        elif reading.name == PREFIX + STATUS and reading.value == 1:
            status = reading.labels.get("status", "")
            row["status"] = status if status in RUN_STATUSES else row["status"]
    return tuple(_run(name, row) for name, row in sorted(runs.items()))


def _whole(value: float | None) -> int | None:
    return None if value is None else int(value)


def _run(name: str, row: dict[str, Any]) -> TrainSnapshot:
    from types import MappingProxyType

    from sessiontui.collectors.trainlog.snapshot import TrainSnapshot

    acc: dict[int, float] = row["acc"]
    positions: list[float] = []
    while len(positions) in acc:  # consecutive positions from 0, as the follower reports them
        positions.append(acc[len(positions)])
    metrics: dict[str, float] = {key: row[key] for key in ("loss", "lr") if key in row}
    return TrainSnapshot(
        source=name, format=None, step=_whole(row.get("step")),
        total_steps=_whole(row.get("total_steps")), epoch=None, loss=row.get("loss"),
        lr=row.get("lr"), grad_norm=None, acc=tuple(positions),
        metrics=MappingProxyType(metrics), steps_per_s=row.get("steps_per_s"),
        eta_s=row.get("eta_s"), last_update=row.get("last_update"), status=row["status"],
        events=(), history=MappingProxyType({}), caught_up=True, progress=1.0,
    )


# -- scraping --------------------------------------------------------------------------------
def query_url(host: RemoteHost) -> str:
    """The URL to fetch: the page itself, or a Prometheus instant query for GPU and run series."""
    if host.kind != "prometheus":
        return host.url
    from urllib.parse import urlencode

    matchers = ['__name__=~"DCGM_FI_DEV_.*|sessiontui_.*"']
    selector = host.selector.strip().strip("{}").strip()
    if selector:
        matchers.append(selector)
    base = host.url.rstrip("/")
    if not base.endswith("/api/v1/query"):
        base += "/api/v1/query"
    return f"{base}?{urlencode({'query': '{' + ','.join(matchers) + '}'})}"


def _reason(exc: BaseException, timeout_s: float) -> str:
    """Why a host did not answer, in a few lower-case words."""
    import socket
    import urllib.error

    if isinstance(exc, urllib.error.HTTPError):
        return f"HTTP {exc.code} {exc.reason}"
    if isinstance(exc, urllib.error.URLError):
        exc = exc.reason if isinstance(exc.reason, BaseException) else exc
    if isinstance(exc, TimeoutError | socket.timeout):
        return f"no answer within {timeout_s:g} s"
    if isinstance(exc, socket.gaierror):
        return "unknown host name"
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror[0].lower() + exc.strerror[1:]
    if isinstance(exc, OSError) and exc.args:
        return str(exc.args[-1])[:120] or type(exc).__name__
    return _first_line(exc) or type(exc).__name__


def fetch(host: RemoteHost) -> bytes:
    """The body the host answers with; an HTTP error with a Prometheus error body is returned
    as that body (it says what was wrong with the query). Raises OSError when it cannot, and
    TimeoutError when the whole body has not arrived within the host's timeout_s."""
    import urllib.error
    import urllib.request

    deadline = time.monotonic() + host.timeout_s
    request = urllib.request.Request(query_url(host), headers={"Accept": "text/plain, */*"})
    try:
        with urllib.request.urlopen(request, timeout=host.timeout_s) as response:
            return _read_until(response, deadline)
    except urllib.error.HTTPError as exc:
        if host.kind == "prometheus" and exc.code in (400, 422, 503):
            return _read_until(exc, deadline)
        raise


def _read_until(response: Any, deadline: float) -> bytes:
    """The body, read in chunks up to MAX_PAYLOAD_BYTES; TimeoutError past the deadline (a host
    that sends a byte at a time never resets it)."""
    body = bytearray()
    while len(body) < MAX_PAYLOAD_BYTES:
        if time.monotonic() > deadline:
            raise TimeoutError("the answer did not arrive in time")
        chunk = response.read1(CHUNK_BYTES) if hasattr(response, "read1") else response.read(CHUNK_BYTES)
        if not chunk:
            break
        body += chunk
    return bytes(body[:MAX_PAYLOAD_BYTES])


def readings_of(host: RemoteHost, body: bytes) -> list[Reading]:
    """Parse a host's answer according to its kind; PayloadError when it is not what it should be."""
    import json

    if host.kind == "prometheus":
        try:
            return query_readings(json.loads(body))
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise PayloadError(f"not JSON: {_first_line(exc)}") from None
    text = body.decode("utf-8", "replace")
    if text.lstrip()[:1] == "<":  # a login page, a proxy's error page
        raise PayloadError("an HTML page, not metrics: is the URL the metrics endpoint?")
    return text_readings(text)


def driver_version(readings: Sequence[Reading]) -> str | None:
    """The driver version dcgm-exporter puts in its labels (several, joined, when they differ)."""
    versions = dict.fromkeys(r.labels[DRIVER_LABEL] for r in readings if r.labels.get(DRIVER_LABEL))
    return ", ".join(versions) or None


@dataclass
class _Outage:
    since: float
    reason: str


@dataclass
class _Scrape:
    """A scrape under way: its result to come and when it started (monotonic seconds)."""

    future: Future[RemoteSnapshot]
    started: float


@dataclass
class RemoteCollector:
    """Scrapes every configured host in parallel, each on its own schedule with a whole-request
    deadline; never raises."""

    hosts: Sequence[RemoteHost]
    clock: Callable[[], float] = time.time
    _outages: dict[str, _Outage] = field(default_factory=dict)
    _pool: ThreadPoolExecutor | None = None
    _running: dict[str, _Scrape] = field(default_factory=dict)

    def sample(self) -> tuple[RemoteSnapshot, ...]:
        """One snapshot per host, in configuration order, waiting for each host no longer than
        its own deadline: a host still answering then is reported as not answering in time
        (and not asked again until that scrape ends)."""
        from concurrent.futures import wait

        if not self.hosts:
            return ()
        if self._pool is None:
            from concurrent.futures import ThreadPoolExecutor

            # one worker per host: a host stuck in a slow answer never takes another's turn
            self._pool = ThreadPoolExecutor(len(self.hosts), thread_name_prefix="remote-scrape")
        now = time.monotonic()
        for host in self.hosts:
            if host.name not in self._running:
                self._running[host.name] = _Scrape(self._pool.submit(self.scrape, host), now)
        due = max(self._running[h.name].started + h.timeout_s for h in self.hosts)
        wait([self._running[h.name].future for h in self.hosts], timeout=max(0.0, due - now))
        return tuple(self._result(host) for host in self.hosts)

    def _result(self, host: RemoteHost) -> RemoteSnapshot:
        running = self._running[host.name]
        if not running.future.done():
            return self._down(host, self.clock(), f"no answer within {host.timeout_s:g} s")
        del self._running[host.name]
        return running.future.result()

    def _down(self, host: RemoteHost, at: float, reason: str) -> RemoteSnapshot:
        """The snapshot of a host that did not answer; its outage started at the first failure."""
        from sessiontui.collectors.gpu import GpuSnapshot

        outage = self._outages.setdefault(host.name, _Outage(at, ""))
        outage.reason = reason
        gpu = GpuSnapshot(False, f"unreachable: {reason}", at, None, ())
        return RemoteSnapshot(host, at, gpu, error=reason, down_since=outage.since)

    def scrape(self, host: RemoteHost) -> RemoteSnapshot:
        """Fetch and read one host; an outage starts at the first failure and ends by itself."""
        from sessiontui.collectors.gpu import GpuSnapshot

        at = self.clock()
        try:
            body = fetch(host)
        except Exception as exc:  # any failure to fetch is this host's outage, never ours
            return self._down(host, at, _reason(exc, host.timeout_s))
        self._outages.pop(host.name, None)
        try:
            readings = readings_of(host, body)
        except PayloadError as exc:
            warning = f"unreadable {host.kind} answer: {exc}"
            return RemoteSnapshot(host, at, GpuSnapshot(False, warning, at, None, ()),
                                  warning=warning)
        gpus = gpus_from_readings(readings, host.kind)
        reason = None if gpus else f"no GPU metrics from this {host.kind} endpoint"
        gpu = GpuSnapshot(bool(gpus), reason, at, driver_version(readings), gpus)
        runs = runs_from_readings(readings) if host.kind != "dcgm-exporter" else ()
        return RemoteSnapshot(host, at, gpu, runs, reported_name(readings))

    def close(self) -> None:
        """Stop the scraping threads."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
            self._running.clear()


def scrape_once(host: RemoteHost) -> RemoteSnapshot:
    """One scrape of one host, for the command line."""
    collector = RemoteCollector([host])
    try:
        return collector.scrape(host)
    finally:
        collector.close()
