"""`sessiontui serve` as real processes on loopback ports, read by prometheus_client's parser and
by the remote-host collector; a killed process shows unreachable, then answers again."""

from __future__ import annotations

import re
import urllib.error
import urllib.request

import pytest
from prometheus_client.parser import text_string_to_metric_families

from sessiontui.collectors.remote import RemoteCollector, RemoteHost
from sessiontui.project_memory.store import Store
from tests.remote.serving import WAIT_S, specforge, wait_for


def families(text: str) -> dict:
    return {family.name: family for family in text_string_to_metric_families(text)}


def run_value(text: str, name: str, run: str, **labels: str) -> float | None:
    family = families(text).get(name)
    for sample in family.samples if family else ():
        if sample.labels.get("run") == run and all(sample.labels.get(k) == v
                                                    for k, v in labels.items()):
            return sample.value
    return None


def test_two_serve_processes_read_by_the_parser_and_the_host_collector(serve, tmp_path) -> None:
    first, second = tmp_path / "a" / "train.log", tmp_path / "b" / "drafter.log"
    for log in (first, second):
        log.parent.mkdir()
    first.write_text(specforge(1, 40, 400))
    second.write_text(specforge(1, 10, 100))
    one, two = serve(first), serve(second)
    assert one.port != two.port

    wait_for(lambda: run_value(one.text(), "sessiontui_train_step", "a/train"), "run a/train")
    text = one.text()
    parsed = families(text)
    assert all(name.startswith("sessiontui_") for name in parsed)  # only ours: no process_*
    assert all(family.type == "gauge" and not name.endswith("_total")
               for name, family in parsed.items())
    assert run_value(text, "sessiontui_train_step", "a/train") == 40
    assert run_value(text, "sessiontui_train_total_steps", "a/train") == 400
    assert run_value(text, "sessiontui_train_learning_rate", "a/train") == 0.0002
    assert run_value(text, "sessiontui_train_acceptance_ratio", "a/train", position="1") == 0.5
    assert run_value(text, "sessiontui_train_status", "a/train", status="running") == 1
    assert run_value(text, "sessiontui_train_status", "a/train", status="crashed") == 0
    step = parsed["sessiontui_train_step"].samples[0]
    assert set(step.labels) == {"host", "run"}

    with first.open("a") as log:  # the follower keeps reading while it serves
        log.write(specforge(41, 60, 400))
    wait_for(lambda: run_value(one.text(), "sessiontui_train_step", "a/train") == 60, "step 60")

    collector = RemoteCollector([RemoteHost("node-1", one.url), RemoteHost("node-2", two.url)])
    try:
        wait_for(lambda: all(s.runs for s in collector.sample()), "runs on both hosts")
        node1, node2 = collector.sample()
    finally:
        collector.close()
    (run1,), (run2,) = node1.runs, node2.runs
    assert (run1.source, run1.step, run1.total_steps) == ("a/train", 60, 400)
    assert (run2.source, run2.step, run2.total_steps) == ("drafter", 10, 100)
    assert run2.acc == (0.71, 0.5) and run2.status == "running"
    assert run1.last_update is not None and run1.loss == pytest.approx(2.4)


def test_killed_serve_is_unreachable_then_back_by_itself(serve, tmp_path) -> None:
    log = tmp_path / "train.log"
    log.write_text(specforge(1, 5, 50))
    served = serve(log)
    collector = RemoteCollector([RemoteHost("node-2", served.url, timeout_s=2)])
    try:
        wait_for(lambda: collector.sample()[0].runs, "the run")
        served.process.kill()
        served.process.wait(WAIT_S)
        down = collector.sample()[0]
        assert not down.reachable and down.error == "connection refused"
        assert re.fullmatch(r"unreachable since \d\d:\d\d: connection refused", down.problem())
        assert collector.sample()[0].down_since == down.down_since  # the outage's start stays

        serve(log, port=served.port)
        wait_for(lambda: collector.sample()[0].runs, "the host back")
        back = collector.sample()[0]
        assert back.reachable and back.down_since is None and back.problem() is None
        assert back.runs[0].step == 5
    finally:
        collector.close()


def test_serve_keeps_the_run_record_and_saves_it_on_sigterm(serve, tmp_path, memory_dir) -> None:
    log = tmp_path / "eagle3" / "train.log"
    log.parent.mkdir()
    log.write_text(specforge(1, 30, 300))
    served = serve(log)
    wait_for(lambda: run_value(served.text(), "sessiontui_train_step", "eagle3/train") == 30,
             "step 30")
    served.stop()
    assert served.process.returncode == 0
    with Store(memory_dir / "memory.db") as store:
        record = store.run_for_log(str(log))
    assert record is not None and record.step == 30 and record.total_steps == 300


def test_serve_answers_only_metrics(serve, tmp_path) -> None:
    served = serve()
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(served.url.replace("/metrics", "/records"), timeout=5)
    assert refused.value.code == 404


def test_busy_port_is_one_line_error(serve, run_cli) -> None:
    served = serve()
    result = run_cli("serve", "--listen", f"127.0.0.1:{served.port}", "--no-gpu")
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1 and "cannot listen on 127.0.0.1" in result.stderr


def test_bad_listen_address_is_a_usage_error(run_cli) -> None:
    result = run_cli("serve", "--listen", "localhost")
    assert result.returncode == 2 and "expected HOST:PORT" in result.stderr


# -- the HTTP side: prometheus_client's handler over the cached sample --------------------------
@pytest.fixture
def http(tmp_path):
    """An in-process metrics server holding one run's sample, with a short idle timeout."""
    from sessiontui.collectors.exporter import Exporter, ServedRun
    from sessiontui.collectors.trainlog import read_log
    from sessiontui.tui.metrics_service import start_server

    log = tmp_path / "train.log"
    log.write_text(specforge(1, 12, 120))
    exporter = Exporter("node-1")
    exporter.update(None, [ServedRun("drafter", read_log(log))])
    server = start_server(exporter, "127.0.0.1", 0, idle_timeout_s=0.5)
    yield f"http://127.0.0.1:{server.server_address[1]}/metrics", server
    server.shutdown()
    server.server_close()


def test_head_gives_the_headers_of_get_without_a_body(http) -> None:
    url, _ = http
    with urllib.request.urlopen(urllib.request.Request(url, method="HEAD"), timeout=5) as head:
        assert head.status == 200 and head.read() == b""
        length = int(head.headers["Content-Length"])
    with urllib.request.urlopen(url, timeout=5) as got:
        assert len(got.read()) == length > 0


def test_gzip_and_openmetrics_are_negotiated(http) -> None:
    import gzip

    url, _ = http
    asked = urllib.request.Request(url, headers={"Accept-Encoding": "gzip",
                                                 "Accept": "application/openmetrics-text; version=1.0.0"})
    with urllib.request.urlopen(asked, timeout=5) as got:
        assert got.headers["Content-Encoding"] == "gzip"
        assert got.headers["Content-Type"].startswith("application/openmetrics-text")
        text = gzip.decompress(got.read()).decode()
    assert text.endswith("# EOF\n") and "drafter" in text
    with urllib.request.urlopen(url, timeout=5) as plain:
        assert plain.headers["Content-Type"].startswith("text/plain") and "Content-Encoding" not in plain.headers
        assert run_value(plain.read().decode(), "sessiontui_train_step", "drafter") == 12


def test_a_gzipped_page_is_compressed_once_per_sample(http, tmp_path) -> None:
    """Scrapes between two samples get the same compressed bytes; the next sample's are new."""
    import gzip

    from sessiontui.collectors.exporter import ServedRun
    from sessiontui.collectors.trainlog import read_log

    url, server = http
    asked = urllib.request.Request(url, headers={"Accept-Encoding": "gzip"})

    def scrape() -> bytes:
        with urllib.request.urlopen(asked, timeout=5) as got:
            return got.read()

    first = scrape()
    page, content_type = server.exporter.page()
    held = server.gzipped(page, content_type)
    assert held == first == scrape() and server.gzipped(page, content_type) is held  # not again
    log = tmp_path / "later.log"
    log.write_text(specforge(1, 30, 120))
    server.exporter.update(None, [ServedRun("drafter", read_log(log))])
    assert run_value(gzip.decompress(scrape()).decode(), "sessiontui_train_step", "drafter") == 30


def test_an_idle_connection_is_closed(http) -> None:
    import socket

    url, server = http
    with socket.create_connection(server.server_address[:2], timeout=10) as idle:
        assert idle.recv(1) == b""  # the server hung up on a connection that sent nothing
