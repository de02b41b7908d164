"""`sessiontui gpu --host NAME` and `train status --host NAME` read another host's endpoint."""

from __future__ import annotations

import json
from pathlib import Path

from tests.remote.local_http import serving
from tests.remote.serving import specforge, wait_for

FIXTURES = Path(__file__).parent.parent / "fixtures" / "remote"


def hosts_file(folder: Path, **urls: tuple[str, str]) -> None:
    tables = [f'[[hosts]]\nname = "{name}"\nurl = "{url}"\nkind = "{kind}"\n'
              for name, (url, kind) in urls.items()]
    (folder / "sessiontui.toml").write_text("\n".join(tables))


def test_gpu_json_for_a_dcgm_host(run_main, tmp_path: Path) -> None:
    payload = (FIXTURES / "dcgm_h100_eks.prom").read_bytes()
    with serving(lambda path: (200, payload)) as (url, _):
        hosts_file(tmp_path, eks=(url + "/metrics", "dcgm-exporter"))
        result = run_main("gpu", "--json", "--host", "eks")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert (data["host"], data["kind"], data["reachable"], data["available"]) == (
        "eks", "dcgm-exporter", True, True)
    assert len(data["gpus"]) == 8 and data["gpus"][5]["power_w"] == 66.619
    table = run_main("gpu", "--host", "eks")  # the server is gone now: a one-line outage
    assert table.returncode == 1
    assert table.stderr.startswith("sessiontui: eks: unreachable since ")
    assert "GPU: not available (unreachable: connection refused)" in table.stdout


def test_unknown_host_names_the_known_ones(run_main, tmp_path: Path) -> None:
    hosts_file(tmp_path, a=("http://127.0.0.1:9/metrics", "sessiontui"))
    result = run_main("train", "status", "--host", "b")
    assert result.returncode == 1 and "no host 'b'" in result.stderr and "known: a" in result.stderr


def test_train_status_of_a_serving_host(run_main, serve, tmp_path: Path) -> None:
    log = tmp_path / "drafter" / "train.log"
    log.parent.mkdir()
    log.write_text(specforge(1, 12, 120))
    served = serve(log)
    hosts_file(tmp_path, gpu7=(served.url, "sessiontui"))
    wait_for(lambda: "drafter/train" in served.text(), "the run")
    result = run_main("train", "status", "--host", "gpu7", "--json")
    assert result.returncode == 0, result.stderr
    run = json.loads(result.stdout)  # the shape of `train status --json`, plus the host
    assert (run["host"], run["source"], run["step"], run["total_steps"]) == (
        "gpu7", "drafter/train", 12, 120)
    assert run["acc"] == [0.712, 0.5]
    text = run_main("train", "status", "--host", "gpu7")
    assert text.stdout.startswith("drafter/train @ gpu7\nrunning")
    missing = run_main("train", "status", "--host", "gpu7", "--run", "other")
    assert missing.returncode == 1 and "reports no run 'other'" in missing.stderr


def test_a_page_that_is_not_metrics_exits_1_in_one_line(run_main, tmp_path: Path) -> None:
    error = {"status": "error", "errorType": "bad_data", "error": "1:2: parse error: unexpected \"=\""}
    answers = {"/api/v1/query": (400, json.dumps(error).encode()), "/login": (200, b"<html>login</html>")}
    with serving(lambda path: answers[path.split("?")[0]]) as (url, _):
        hosts_file(tmp_path, badsel=(url, "prometheus"), portal=(url + "/login", "dcgm-exporter"))
        selector = run_main("gpu", "--host", "badsel")
        html = run_main("gpu", "--host", "portal", "--json")
    assert selector.returncode == 1 and selector.stderr.count("\n") == 1
    assert selector.stderr.startswith("sessiontui: badsel: unreadable prometheus answer: query failed: bad_data")
    assert html.returncode == 1 and html.stderr.count("\n") == 1 and "an HTML page" in html.stderr
