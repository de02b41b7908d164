"""`[[hosts]]` in sessiontui.toml: valid entries become RemoteHosts, each bad one a problem line."""

from __future__ import annotations

from pathlib import Path

from sessiontui.collectors.remote import RemoteHost, query_url
from sessiontui.tui.config import add_followed_log, default_text, load_config

HOSTS = """\
logs = ["train.log"]

[[hosts]]
name = "node-2"
url = "http://node-2:9464/metrics"

[[hosts]]  # the GPU exporter of the serving box
name = "serving"
url = "http://10.0.0.7:9400/metrics"
kind = "dcgm-exporter"
timeout_s = 0.5

[[hosts]]
name = "node-3"
url = "http://prometheus:9090"
kind = "prometheus"
selector = '{Hostname="node-3", job="dcgm"}'

[[hosts]]
name = "typo"
url = "http://x:1/metrics"
kind = "dcgm"

[[hosts]]
url = "http://nameless:1/metrics"

[[hosts]]
name = "node-2"
url = "http://again:1/metrics"

[[hosts]]
name = "ftp"
url = "ftp://files/metrics"
"""


def test_hosts_entries_read_and_bad_ones_listed(tmp_path: Path) -> None:
    path = tmp_path / "sessiontui.toml"
    path.write_text(HOSTS)
    config = load_config(path)
    assert config.hosts == [
        RemoteHost("node-2", "http://node-2:9464/metrics"),
        RemoteHost("serving", "http://10.0.0.7:9400/metrics", "dcgm-exporter", timeout_s=0.5),
        RemoteHost("node-3", "http://prometheus:9090", "prometheus",
                   '{Hostname="node-3", job="dcgm"}'),
    ]
    assert config.logs == ["train.log"]
    assert len(config.problems) == 4
    assert all(line.count("\n") == 0 for line in config.problems)
    assert "kind must be one of sessiontui, dcgm-exporter, prometheus, got 'dcgm'" in (
        config.problems[0])
    assert "name is missing" in config.problems[1]
    assert "node-2 is listed twice" in config.problems[2]
    assert "url must start with http://" in config.problems[3]


def test_hosts_not_tables_is_a_problem_not_a_crash(tmp_path: Path) -> None:
    path = tmp_path / "sessiontui.toml"
    path.write_text('hosts = "node-2"\n')
    config = load_config(path)
    assert config.hosts == [] and "expected [[hosts]] tables" in config.problems[0]


def test_prometheus_query_combines_names_and_selector() -> None:
    host = RemoteHost("node-3", "http://prometheus:9090/", "prometheus",
                      '{Hostname="node-3", job="dcgm"}')
    url = query_url(host)
    assert url.startswith("http://prometheus:9090/api/v1/query?query=")
    from urllib.parse import parse_qs, urlsplit

    query = parse_qs(urlsplit(url).query)["query"][0]
    assert query == '{__name__=~"DCGM_FI_DEV_.*|sessiontui_.*",Hostname="node-3", job="dcgm"}'


def test_default_file_documents_hosts_last_and_stays_valid(tmp_path: Path) -> None:
    text = default_text()
    assert text.rstrip().splitlines()[-1].startswith("# selector")
    path = tmp_path / "sessiontui.toml"
    assert add_followed_log(path, "train.log")  # writes the default text, then edits it
    config = load_config(path)
    assert config.problems == [] and config.logs == ["train.log"] and config.hosts == []
    uncommented = path.read_text().replace("# [[hosts]]", "[[hosts]]").replace("# name", "name")
    uncommented = uncommented.replace("# url", "url").replace("# kind", "kind")
    uncommented = uncommented.replace("# selector", "selector")
    path.write_text(uncommented)
    assert [host.name for host in load_config(path).hosts] == ["node-2", "node-3"]


def test_following_a_log_keeps_hosts_tables(tmp_path: Path) -> None:
    path = tmp_path / "sessiontui.toml"
    path.write_text(HOSTS)
    assert add_followed_log(path, "other.log")
    config = load_config(path)
    assert config.logs == ["train.log", "other.log"] and len(config.hosts) == 3


def test_bare_cli_and_settings_never_import_prometheus_client(tmp_path: Path) -> None:
    import json
    import subprocess
    import sys

    (tmp_path / "sessiontui.toml").write_text(HOSTS)
    probe = (
        "import sys, json; from sessiontui.tui.cli import main; main(['ask', 'baseline?']);"
        "from sessiontui.tui.config import load_config; load_config('sessiontui.toml');"
        "print(json.dumps([m for m in sys.modules if m.startswith(('prometheus_client', 'urllib.request'))]))"
    )
    env = {"SESSIONTUI_DIR": str(tmp_path / "memory"), "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env,
                         cwd=tmp_path, check=True)
    assert json.loads(out.stdout.strip().splitlines()[-1]) == []
