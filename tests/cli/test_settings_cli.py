"""The user-level config.toml (platformdirs) merged under the project's sessiontui.toml, and
`sessiontui config show`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sessiontui.tui.config import load_config, user_config_path

USER = '''draft_overhead = 0.2
theme = "nord"
default_metric = "tok_s"
logs = ["somewhere.log"]

[[hosts]]
name = "node-2"
url = "http://node-2:9464/metrics"

[[hosts]]
name = "node-3"
url = "http://node-3:9400/metrics"
kind = "dcgm-exporter"
'''
PROJECT = '''draft_overhead = 0.15

[[hosts]]
name = "node-3"
url = "http://prometheus:9090"
kind = "prometheus"
'''


def write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(text, encoding="utf-8")
    return folder / name


def test_the_user_file_lives_where_platformdirs_says(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    assert user_config_path() == tmp_path / "xdg" / "sessiontui" / "config.toml"


@pytest.mark.parametrize("xdg", [None, "", "relative/config", "/abs/config"])
def test_the_user_file_is_platformdirs_own_without_importing_it(monkeypatch, tmp_path: Path,
                                                                  xdg: str | None) -> None:
    import platformdirs

    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    if xdg is None:
        monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    else:
        monkeypatch.setenv("XDG_CONFIG_HOME", xdg)
    expected = platformdirs.user_config_path("sessiontui", appauthor=False) / "config.toml"
    assert user_config_path() == expected


def test_the_project_is_merged_over_the_user_file(tmp_path: Path) -> None:
    user = write(tmp_path / "home", "config.toml", USER)
    project = write(tmp_path / "proj", "sessiontui.toml", PROJECT)
    config = load_config(project, user)
    assert config.draft_overhead == 0.15 and config.theme == "nord" and config.default_metric == "tok_s"
    assert [(h.name, h.kind) for h in config.hosts] == [("node-2", "sessiontui"), ("node-3", "prometheus")]
    assert config.logs == [] and any("logs is per project" in p for p in config.problems)
    assert config.sources["draft_overhead"] == str(project) and config.sources["theme"] == str(user)


def test_config_show_names_each_setting_source(run_main, tmp_path: Path) -> None:
    xdg = tmp_path / "xdg"
    user = write(xdg / "sessiontui", "config.toml", USER)
    project = write(tmp_path, "sessiontui.toml", PROJECT)
    env = {"XDG_CONFIG_HOME": str(xdg)}
    shown = json.loads(run_main("config", "show", "--json", env=env, check=True).stdout)
    assert (shown["user_file"], shown["project_file"]) == (str(user), str(project))
    assert shown["settings"]["draft_overhead"] == 0.15 and shown["settings"]["theme"] == "nord"
    assert shown["sources"]["theme"] == str(user) and shown["sources"]["refresh_s"] == "default"
    text = run_main("config", "show", env=env, check=True)
    assert 'theme = "nord"' in text.stdout and str(user) in text.stdout
    assert "logs is per project" in text.stderr
