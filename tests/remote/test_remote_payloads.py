"""Remote hosts read from recorded real payloads (dcgm-exporter, a Prometheus server's query API)
served over loopback HTTP, and what a host that misbehaves looks like."""

from __future__ import annotations

import contextlib
import json
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from sessiontui.collectors.remote import RemoteCollector, RemoteHost
from tests.remote.local_http import serving

FIXTURES = Path(__file__).parent.parent / "fixtures" / "remote"


def body(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


def scrape(host: RemoteHost):
    collector = RemoteCollector([host])
    try:
        return collector.sample()[0]
    finally:
        collector.close()


def test_dcgm_exporter_h100_payload_gives_eight_gpus_as_reported() -> None:
    with serving(lambda path: (200, body("dcgm_h100_eks.prom"))) as (url, requested):
        snapshot = scrape(RemoteHost("h100-node", url + "/metrics", "dcgm-exporter"))
    assert requested == ["/metrics"]
    assert snapshot.reachable and snapshot.problem() is None and snapshot.runs == ()
    assert snapshot.reported_as == "ip-100-64-171-120.ec2.internal"
    gpus = snapshot.gpu.gpus
    assert [gpu.index for gpu in gpus] == list(range(8))
    third = gpus[3]
    assert third.name == "NVIDIA H100 80GB HBM3"
    assert third.uuid == "GPU-3cc59718-d7df-49ac-07a3-a6cedfe263c6"
    assert (third.temp_c, third.power_w, third.util_pct) == (29.0, 69.771, 0.0)
    assert third.mem_util_pct == 0.0 and gpus[7].mem_util_pct is None  # only GPUs 0-5 had it
    assert "mem_used_mib" not in third.unavailable  # never reported by this source: not listed
    assert "temp_c" not in third.unavailable
    assert snapshot.gpu.driver == "580.105.08"  # from the DCGM_FI_DRIVER_VERSION label


def test_dcgm_blank_value_means_not_supported() -> None:
    with serving(lambda path: (200, body("dcgm_readme_blank.prom"))) as (url, _):
        snapshot = scrape(RemoteHost("readme", url, "dcgm-exporter"))
    (gpu,) = snapshot.gpu.gpus
    assert (gpu.sm_clock_mhz, gpu.mem_clock_mhz) == (139.0, 405.0)
    assert gpu.unavailable["memory_temp"] == "not supported (blank value)"


def test_dcgm_2026_lowercase_hostname_and_mig_instance() -> None:
    with serving(lambda path: (200, body("dcgm_mig_hostname.prom"))) as (url, _):
        snapshot = scrape(RemoteHost("k8s", url, "dcgm-exporter"))
    full, mig = snapshot.gpu.gpus
    assert snapshot.reported_as == "dcgm-exporter-wwwjh"  # the 2026 lower-case label
    assert (full.index, full.name) == (1, "NVIDIA RTX 2000 Ada Generation")
    assert (mig.index, mig.name) == (2, "NVIDIA A30 MIG 1g.6gb")
    assert full.mem_total_mib is None  # free memory alone does not give the total


def test_dcgm_pod_labelled_payload_keeps_clocks() -> None:
    with serving(lambda path: (200, body("dcgm_l40s_vllm.prom"))) as (url, _):
        (gpu,) = scrape(RemoteHost("l40s", url, "dcgm-exporter")).gpu.gpus
    assert (gpu.name, gpu.sm_clock_mhz, gpu.mem_clock_mhz) == ("NVIDIA L40S", 2520.0, 9001.0)


def prometheus_answer(path: str) -> tuple[int, bytes]:
    """Both recorded query responses as one instant vector (as one regex query returns them)."""
    results = [json.loads(body(name))["data"]["result"]
               for name in ("prometheus_query_fb_used.json", "prometheus_query_gpu_temp.json")]
    merged = {"status": "success", "data": {"resultType": "vector",
                                            "result": results[0] + results[1]}}
    return 200, json.dumps(merged).encode()


def test_prometheus_query_api_with_label_selector() -> None:
    host = RemoteHost("eks", "", "prometheus", 'Hostname="ip-100-64-171-120.ec2.internal"')
    with serving(prometheus_answer) as (url, requested):
        snapshot = scrape(RemoteHost(host.name, url + "/", host.kind, host.selector))
    (path,) = requested
    assert urlsplit(path).path == "/api/v1/query"
    query = parse_qs(urlsplit(path).query)["query"][0]
    assert 'Hostname="ip-100-64-171-120.ec2.internal"' in query
    assert re.search(r'__name__=~"DCGM_FI_DEV_\.\*', query)
    gpus = snapshot.gpu.gpus
    assert len(gpus) == 8 and gpus[0].temp_c == 27.0 and gpus[0].mem_used_mib == 0.0
    assert gpus[0].power_w is None and "power_w" not in gpus[0].unavailable


def test_prometheus_error_answer_is_one_line_warning() -> None:
    error = {"status": "error", "errorType": "bad_data",
             "error": 'invalid parameter "query": 1:2: parse error: unexpected "="'}
    with serving(lambda path: (400, json.dumps(error).encode())) as (url, _):
        snapshot = scrape(RemoteHost("prom", url, "prometheus", "Hostname=="))
    assert snapshot.reachable and snapshot.gpu.gpus == ()
    problem = snapshot.problem()
    assert problem is not None and "\n" not in problem
    assert problem.startswith("unreadable prometheus answer: query failed: bad_data")


def test_html_page_instead_of_metrics_is_one_line_warning() -> None:
    page = b"<html>\n<body>login required</body>\n</html>\n"
    with serving(lambda path: (200, page)) as (url, _):
        snapshot = scrape(RemoteHost("proxy", url, "dcgm-exporter"))
    problem = snapshot.problem()
    assert problem is not None and "\n" not in problem
    assert problem == ("unreadable dcgm-exporter answer: an HTML page, not metrics: is the URL the "
                       "metrics endpoint?")


def test_http_error_is_an_outage_with_its_status() -> None:
    with serving(lambda path: (503, b"down for maintenance")) as (url, _):
        snapshot = scrape(RemoteHost("maint", url, "sessiontui"))
    assert not snapshot.reachable and snapshot.error == "HTTP 503 Service Unavailable"
    assert re.fullmatch(r"unreachable since \d\d:\d\d: HTTP 503 Service Unavailable",
                        snapshot.problem() or "")


def test_silent_host_times_out() -> None:
    import socket

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)  # accepts connections but never answers
    try:
        port = listener.getsockname()[1]
        snapshot = scrape(RemoteHost("hung", f"http://127.0.0.1:{port}/metrics", timeout_s=0.3))
    finally:
        listener.close()
    assert snapshot.error == "no answer within 0.3 s"


@contextlib.contextmanager
def dripping(header_first: bool) -> Iterator[str]:
    """A host answering one byte every 0.1 s (from its first byte, or after prompt headers)."""
    import socket

    listener = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()
    page = body("dcgm_l40s_vllm.prom")
    head = f"HTTP/1.1 200 OK\r\nContent-Length: {len(page)}\r\n\r\n".encode()

    def answer() -> None:
        conn, _ = listener.accept()
        with conn, contextlib.suppress(OSError):  # the client hangs up at its deadline
            conn.recv(65536)
            if header_first:
                conn.sendall(head)
            for byte in (page if header_first else head + page):
                if stop.wait(0.1):
                    return
                conn.sendall(bytes([byte]))

    thread = threading.Thread(target=answer, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}/metrics"
    finally:
        stop.set()
        listener.close()
        thread.join()


@pytest.mark.parametrize("header_first", [True, False], ids=["slow body", "slow headers"])
def test_a_slow_host_is_cut_at_its_deadline_and_holds_no_other(header_first: bool) -> None:
    with dripping(header_first) as slow_url, serving(lambda path: (200, body("dcgm_l40s_vllm.prom"))) as (
            url, _):
        collector = RemoteCollector([RemoteHost("slow", slow_url, "dcgm-exporter", timeout_s=0.5),
                                     RemoteHost("fine", url, "dcgm-exporter")])
        try:
            slow, fine = collector.sample()
        finally:
            collector.close()
    assert not slow.reachable and slow.error == "no answer within 0.5 s"
    assert fine.reachable and len(fine.gpu.gpus) == 1
