"""The Prometheus metrics `sessiontui serve` exposes: GPU samples and followed runs' progress.

The names are a contract shared with the remote collector (collectors/remote.py), which reads them
back from another host's endpoint. The watcher renders the text once per sample; scrapes only read
those bytes, so a storm of scrapes never reaches the followers or NVML.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.exposition import CONTENT_TYPE_LATEST, choose_encoder

from sessiontui.collectors.gpu import GpuSnapshot
from sessiontui.collectors.trainlog.snapshot import TrainSnapshot
from sessiontui.project_memory.events import LIVE_STATUSES
from sessiontui.project_memory.specdec import accept_length

__all__ = ["CONTENT_TYPE_LATEST", "GPU_METRICS", "RUN_STATUSES", "TRAIN_METRICS", "Exporter",
           "ServedRun"]

PREFIX = "sessiontui_"
_MIB = 1024 * 1024

# Every status a run can have: a state set, one series each, 1 for the current one.
RUN_STATUSES = LIVE_STATUSES

# GpuSample field -> (metric name, help, factor to base units).
GPU_METRICS: dict[str, tuple[str, str, float]] = {
    "util_pct": ("gpu_utilization_ratio", "GPU busy time in the last sample period (0..1).", 0.01),
    "mem_util_pct": ("gpu_memory_utilization_ratio",
                     "Memory controller busy time in the last sample period (0..1).", 0.01),
    "mem_used_mib": ("gpu_memory_used_bytes", "GPU memory in use.", _MIB),
    "mem_total_mib": ("gpu_memory_total_bytes", "GPU memory installed.", _MIB),
    "power_w": ("gpu_power_watts", "Power draw.", 1.0),
    "power_limit_w": ("gpu_power_limit_watts", "Enforced power limit.", 1.0),
    "temp_c": ("gpu_temperature_celsius", "GPU core temperature.", 1.0),
    "sm_clock_mhz": ("gpu_sm_clock_hertz", "SM clock frequency.", 1e6),
    "mem_clock_mhz": ("gpu_memory_clock_hertz", "Memory clock frequency.", 1e6),
}

# TrainSnapshot field -> (metric name, help).
TRAIN_METRICS: dict[str, tuple[str, str]] = {
    "step": ("train_step", "Latest training step read from the log."),
    "total_steps": ("train_total_steps", "Steps the run will take, as its log says."),
    "steps_per_s": ("train_steps_per_second", "Training speed."),
    "eta_s": ("train_eta_seconds", "Time left to the last step at the current speed."),
    "loss": ("train_loss", "Latest training loss."),
    "lr": ("train_learning_rate", "Latest learning rate."),
    "last_update": ("train_last_update_timestamp_seconds",
                    "When the log last showed progress (Unix time)."),
    "attempt_number": ("train_attempt", "Which attempt of its log the run is: 1, then 2 after a restart."),
}
ACCEPTANCE = "train_acceptance_ratio"
ACCEPT_LENGTH = "train_accept_length_tokens"
STATUS = "train_status"
GPU_AVAILABLE = "gpu_available"


@dataclass(frozen=True)
class ServedRun:
    """A followed run as the endpoint names it: its run name and its latest snapshot."""

    name: str
    snapshot: TrainSnapshot


def _finite(value: float | None) -> bool:
    return value is not None and math.isfinite(value)


class _Families:
    """Builds the metric families of one sample (a prometheus_client custom collector)."""

    def __init__(self, host: str) -> None:
        self.host = host
        self.gpu: GpuSnapshot | None = None
        self.runs: Sequence[ServedRun] = ()

    def collect(self) -> Iterator[Metric]:
        yield from self._gpu_families()
        yield from self._run_families()

    def _gpu_families(self) -> Iterator[Metric]:
        gpu = self.gpu
        if gpu is None:
            return
        available = GaugeMetricFamily(PREFIX + GPU_AVAILABLE, "1 when NVML answers on this host.",
                                      labels=["host"])
        available.add_metric([self.host], 1.0 if gpu.available else 0.0)
        yield available
        labels = ["host", "gpu", "uuid", "model"]
        for field, (name, doc, factor) in GPU_METRICS.items():
            family = GaugeMetricFamily(PREFIX + name, doc, labels=labels)
            for sample in gpu.gpus:
                value = getattr(sample, field)
                if not sample.lost and _finite(value):
                    family.add_metric([self.host, str(sample.index), sample.uuid, sample.name],
                                      value * factor)
            yield family

    def _run_families(self) -> Iterator[Metric]:
        labels = ["host", "run"]
        for field, (name, doc) in TRAIN_METRICS.items():
            family = GaugeMetricFamily(PREFIX + name, doc, labels=labels)
            for run in self.runs:
                value = getattr(run.snapshot, field)
                if _finite(value):
                    family.add_metric([self.host, run.name], float(value))
            yield family
        acceptance = GaugeMetricFamily(
            PREFIX + ACCEPTANCE, "Drafter's conditional acceptance at each speculation position.",
            labels=[*labels, "position"])
        length = GaugeMetricFamily(
            PREFIX + ACCEPT_LENGTH, "Expected tokens per verify step, bonus token included.",
            labels=labels)
        status = GaugeMetricFamily(PREFIX + STATUS, "1 for the run's current status.",
                                   labels=[*labels, "status"])
        for run in self.runs:
            for position, value in enumerate(run.snapshot.acc):
                if _finite(value):
                    acceptance.add_metric([self.host, run.name, str(position)], value)
            tau = accept_length(run.snapshot.acc)
            if tau is not None and math.isfinite(tau):
                length.add_metric([self.host, run.name], tau)
            for name in RUN_STATUSES:
                status.add_metric([self.host, run.name, name],
                                  1.0 if run.snapshot.status == name else 0.0)
        yield from (acceptance, length, status)


@dataclass
class _Sample:
    """One sample's metric families, frozen, and its pages rendered so far (by content type)."""

    families: list[Metric]
    pages: dict[str, bytes]

    def collect(self) -> list[Metric]:
        """The registry interface prometheus_client's encoders read."""
        return self.families


class Exporter:
    """Holds the latest sample's metrics: `update()` from the watcher, `page()` per scrape."""

    def __init__(self, host: str) -> None:
        self._families = _Families(host)
        self._registry = CollectorRegistry(auto_describe=False)  # only ours: no process metrics
        self._registry.register(self._families)
        self._lock = threading.Lock()
        self._sample = _Sample([], {CONTENT_TYPE_LATEST: b""})

    def update(self, gpu: GpuSnapshot | None, runs: Sequence[ServedRun]) -> None:
        """Collect a new sample once and render the text format; scrapes keep reading the
        previous sample until it is ready."""
        with self._lock:
            self._families.gpu, self._families.runs = gpu, tuple(runs)
            families = list(self._registry.collect())
        sample = _Sample(families, {})
        sample.pages[CONTENT_TYPE_LATEST] = generate_latest(sample)
        self._sample = sample  # one reference swap: readers never see half a sample

    def page(self, accept: str | None = None) -> tuple[bytes, str]:
        """The latest metrics in the format the Accept header asks for (prometheus_client's
        negotiation: OpenMetrics or the text format) and its content type; each format is
        rendered at most once per sample."""
        encoder, content_type = choose_encoder(accept or "")
        sample = self._sample
        if content_type not in sample.pages:
            sample.pages[content_type] = encoder(sample)
        return sample.pages[content_type], content_type

    def payload(self) -> bytes:
        """The latest metrics in the Prometheus text format."""
        return self.page()[0]
