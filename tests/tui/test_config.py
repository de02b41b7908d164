"""Settings: lenient loading with reasons, and tomlkit edits that keep the user's file intact."""

from __future__ import annotations

from pathlib import Path

import pytest
import tomlkit

from sessiontui.tui.config import (
    SETTINGS,
    Config,
    add_followed_log,
    config_path,
    default_text,
    load_config,
)

USER_FILE = """\
# my settings for the llama drafter project
refresh_s = 2   # faster please

# logs I care about
logs = [
    "runs/a.log",  # first run
    # the second one
    "runs/b.log",
]
stall_after_s = 300

[extra]   # a table some other tool reads
owner = "me"
"""


def test_missing_file_gives_defaults(tmp_path: Path) -> None:
    assert load_config(tmp_path / "nope.toml") == Config()


def test_reads_typed_settings(tmp_path: Path) -> None:
    path = tmp_path / "sessiontui.toml"
    path.write_text(
        'logs = ["train.log"]\nrefresh_s = 2\ngpu_refresh_s = 0.5\n'
        'default_metric = "ttft_ms"\nstall_after_s = 120\n'
    )
    config = load_config(path)
    assert config == Config(
        logs=["train.log"], refresh_s=2.0, gpu_refresh_s=0.5, default_metric="ttft_ms",
        stall_after_s=120.0,
    )
    assert isinstance(config.refresh_s, float)
    assert config.log_paths(tmp_path) == [tmp_path / "train.log"]


def test_bad_toml_gives_defaults_and_one_line(tmp_path: Path) -> None:
    path = tmp_path / "sessiontui.toml"
    path.write_text('logs = ["a.log"\nrefresh_s = = 1\n')
    config = load_config(path)
    assert config.logs == [] and config.refresh_s == 1.0
    assert len(config.problems) == 1 and "\n" not in config.problems[0]
    assert str(path) in config.problems[0]


@pytest.mark.parametrize(
    ("text", "field_name"),
    [
        ('refresh_s = "fast"', "refresh_s"),
        ("refresh_s = -1", "refresh_s"),
        ("gpu_refresh_s = true", "gpu_refresh_s"),
        ('logs = "train.log"', "logs"),
        ("logs = [1, 2]", "logs"),
        ('default_metric = ""', "default_metric"),
    ],
)
def test_wrong_types_keep_defaults_with_a_reason(
    tmp_path: Path, text: str, field_name: str
) -> None:
    path = tmp_path / "sessiontui.toml"
    path.write_text(text + '\nstall_after_s = 60\n')
    config = load_config(path)
    assert getattr(config, field_name) == getattr(Config(), field_name)
    assert config.stall_after_s == 60.0  # the good setting next to it still applies
    assert len(config.problems) == 1 and field_name in config.problems[0]


def test_unknown_setting_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "sessiontui.toml"
    path.write_text("refresh = 3\n")
    config = load_config(path)
    assert config.refresh_s == 1.0
    assert config.problems and "'refresh'" in config.problems[0]


def test_add_followed_log_keeps_comments_and_layout(tmp_path: Path) -> None:
    path = tmp_path / "sessiontui.toml"
    path.write_text(USER_FILE)
    assert add_followed_log(path, "runs/c.log") is True
    text = path.read_text()
    # every original line survives, in order, and the new entry joins the multi-line array
    added = '    "runs/b.log",\n    "runs/c.log",\n'
    assert text == USER_FILE.replace('    "runs/b.log",\n', added)
    assert load_config(path).logs == ["runs/a.log", "runs/b.log", "runs/c.log"]


def test_add_followed_log_never_duplicates(tmp_path: Path) -> None:
    path = tmp_path / "sessiontui.toml"
    path.write_text(USER_FILE)
    assert add_followed_log(path, "runs/a.log") is False
    assert add_followed_log(path, "./runs/b.log") is False
    assert path.read_text() == USER_FILE
    assert add_followed_log(path, "runs/c.log") is True
    assert add_followed_log(path, "runs/c.log") is False
    assert load_config(path).logs.count("runs/c.log") == 1


def test_add_followed_log_puts_a_missing_key_at_top_level(tmp_path: Path) -> None:
    path = tmp_path / "sessiontui.toml"
    path.write_text('# mine\nrefresh_s = 2\n\n[extra]\nowner = "me"\n')
    add_followed_log(path, "train.log")
    document = tomlkit.parse(path.read_text())
    assert document["logs"] == ["train.log"]
    assert "logs" not in document["extra"]
    assert path.read_text().startswith("# mine\nrefresh_s = 2\n")


def test_add_followed_log_creates_a_documented_file(tmp_path: Path) -> None:
    path = config_path(tmp_path / "project")
    assert path == tmp_path / "project" / "sessiontui.toml"
    add_followed_log(path, "train.log")
    config = load_config(path)
    assert config.logs == ["train.log"] and not config.problems
    text = path.read_text()
    assert all(setting.metadata["doc"] in text for setting in SETTINGS)


def test_add_followed_log_refuses_to_overwrite_a_broken_file(tmp_path: Path) -> None:
    path = tmp_path / "sessiontui.toml"
    path.write_text("logs = [\n")
    with pytest.raises(ValueError, match="not valid TOML"):
        add_followed_log(path, "train.log")
    assert path.read_text() == "logs = [\n"


def test_default_text_loads_as_the_defaults() -> None:
    document = tomlkit.parse(default_text())
    assert Config(**document.unwrap()) == Config()


def test_following_a_log_writes_through_a_linked_settings_file(tmp_path: Path) -> None:
    (tmp_path / "dotfiles").mkdir()
    target, link = tmp_path / "dotfiles" / "sessiontui.toml", tmp_path / "sessiontui.toml"
    target.write_text("# mine\n")
    link.symlink_to(target)
    assert add_followed_log(link, "runs/a.log") is True
    assert link.is_symlink() and "runs/a.log" in target.read_text()


def test_the_default_file_loads_no_reader_and_a_declared_format_is_active(tmp_path: Path) -> None:
    """`formats = []` (every new file says it) costs the app's first frame no reader import;
    a declared format is still parsed and made active for the readers."""
    import subprocess
    import sys

    empty, declared = tmp_path / "empty.toml", tmp_path / "declared.toml"
    empty.write_text(default_text())
    declared.write_text('[[formats]]\nname = "mine"\npattern = "it {step} loss {loss}"\n')
    probe = (
        "import sys; from pathlib import Path; from sessiontui.tui.config import load_config;"
        f"load_config(Path({str(empty)!r}), Path('/nonexistent'));"
        "print('sessiontui.collectors.trainlog' in sys.modules);"
        f"load_config(Path({str(declared)!r}), Path('/nonexistent'));"
        "from sessiontui.collectors.trainlog.declared import active_formats;"
        "print([f.name for f in active_formats()])"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.split("\n")[:2] == ["False", "['mine']"]
