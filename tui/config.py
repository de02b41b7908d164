"""`sessiontui.toml`: typed, documented settings, read leniently, edited keeping comments."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sessiontui.project_memory.records import DEFAULT_METRIC

if TYPE_CHECKING:
    from sessiontui.project_memory.trust import TrustRules

if TYPE_CHECKING:  # imported when a [[hosts]] table is read: most projects have none
    from sessiontui.collectors.remote import RemoteHost

CONFIG_NAME = "sessiontui.toml"
USER_CONFIG_NAME = "config.toml"
PROJECT_ONLY = frozenset({"logs"})  # settings the user-level file may not hold


@dataclass
class Config:
    """The settings of one project; every field has a default so a missing file is fine."""

    logs: list[str] = field(
        default_factory=list,
        metadata={"doc": "Training logs to follow, relative to this file or absolute."},
    )
    refresh_s: float = field(
        default=1.0, metadata={"doc": "Seconds between training-log and host updates."}
    )
    gpu_refresh_s: float = field(default=1.0, metadata={"doc": "Seconds between GPU samples."})
    gpu_interconnect: bool = field(
        default=False,
        metadata={"doc": "Also read PCIe and NVLink throughput in the GPU pane (slow NVML calls)."},
    )
    default_metric: str = field(
        default=DEFAULT_METRIC,
        metadata={"doc": "Benchmark metric that baselines and speedups are read from."},
    )
    stall_after_s: float | None = field(
        default=None,
        metadata={
            "doc": "Seconds without a new step before a run counts as stalled (unset: auto).",
            "example": 600,
        },
    )
    draft_overhead: float | None = field(
        default=None,
        metadata={
            "doc": "Draft time / target step time for theoretical speedups in ask and speedup "
                   "(unset: measured from benchmarks, else 0.1).",
            "example": 0.15,
        },
    )
    stale_after_days: float = field(
        default=30.0,
        metadata={"doc": "Days after which a baseline counts as stale and answers say so."},
    )
    feature_flags: list[str] = field(
        default_factory=list,
        metadata={"doc": "Engine flags that are the feature under test (besides the engines' "
                         "speculative flags): a speedup may differ in these and stay like-for-like."},
    )
    hosts_refresh_s: float = field(
        default=5.0, metadata={"doc": "Seconds between scrapes of the [[hosts]] below."}
    )
    hosts: list[RemoteHost] = field(
        default_factory=list,
        metadata={
            "doc": "Other hosts shown in the GPU and Training panes, one [[hosts]] table each "
                   "(at the end of the file); kind: sessiontui, dcgm-exporter or prometheus.",
            "example": [
                {"name": "node-2", "url": "http://node-2:9464/metrics", "kind": "sessiontui"},
                {"name": "node-3", "url": "http://prometheus:9090", "kind": "prometheus",
                 "selector": 'Hostname="node-3"'},
            ],
        },
    )
    theme: str | None = field(
        default=None,
        metadata={"doc": "The app's colour theme (a Textual theme name; unset: Textual's default). "
                         "Usually set once for you in the user-level config.toml.",
                  "example": "nord"},
    )
    formats: list[dict] = field(
        default_factory=list,
        metadata={
            "doc": "Log line formats no built-in reader knows, one [[formats]] table each (at the "
                   "end of the file): a pattern with {step} {total} {loss} {lr} {epoch} or any "
                   "metric name; see docs/formats.md and `sessiontui formats test FILE`.",
            "example": [{"name": "my-trainer", "pattern": "it {step}/{total} | loss {loss}"}],
        },
    )
    problems: list[str] = field(default_factory=list, metadata={"internal": True})
    sources: dict[str, str] = field(default_factory=dict, compare=False,  # name -> file it came from
                                    metadata={"internal": True})

    def log_paths(self, base: Path) -> list[Path]:
        """The followed logs as paths, relative entries taken from `base` (the file's folder)."""
        return [base / Path(log).expanduser() for log in self.logs]


def trust_rules(config: Config) -> TrustRules:
    """The settings that say when a comparison can be trusted, for the answers."""
    from sessiontui.project_memory.trust import TrustRules

    return TrustRules(config.stale_after_days, tuple(config.feature_flags))


SETTINGS = tuple(f for f in fields(Config) if not f.metadata.get("internal"))


def config_path(project_dir: Path) -> Path:
    """Where a project's settings live: `<project>/sessiontui.toml`."""
    return Path(project_dir) / CONFIG_NAME


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _checked(name: str, value: Any) -> Any:
    """The plain value of one setting, or a ValueError that says what was expected."""
    if name in ("logs", "feature_flags"):
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            return [str(v) for v in value]
        raise ValueError("expected a list of strings")
    if name == "gpu_interconnect":
        if isinstance(value, bool):
            return value
        raise ValueError("expected true or false")
    if name == "theme":
        if isinstance(value, str) and value.strip():
            return value.strip()
        raise ValueError("expected a theme name, e.g. \"nord\"")
    if name == "default_metric":
        if isinstance(value, str) and value.strip():
            return str(value)
        raise ValueError("expected a metric name")
    if name == "draft_overhead":
        if _is_number(value) and 0 <= value < 10:
            return float(value)
        raise ValueError("expected a fraction of a target step, 0 or more (e.g. 0.15)")
    if _is_number(value) and value > 0:
        return float(value)
    raise ValueError(f"expected a number of {'days' if name.endswith('_days') else 'seconds'} > 0")


def _host(entry: Any) -> RemoteHost:
    """One `[[hosts]]` table as a RemoteHost, or a ValueError that says what is wrong."""
    from sessiontui.collectors.remote import KINDS, RemoteHost

    if not isinstance(entry, dict):
        raise ValueError("expected a table with name and url")
    unknown = set(entry) - {"name", "url", "kind", "selector", "timeout_s"}
    if unknown:
        raise ValueError(f"unknown key {sorted(unknown)[0]!r}")
    name, url, kind = entry.get("name"), entry.get("url"), entry.get("kind", "sessiontui")
    if not isinstance(name, str) or not name.strip():
        raise ValueError("name is missing")
    if not isinstance(url, str) or not url.startswith(("http://", "https://")):
        raise ValueError(f"{name}: url must start with http:// or https://")
    if kind not in KINDS:
        raise ValueError(f"{name}: kind must be one of {', '.join(KINDS)}, got {kind!r}")
    selector = entry.get("selector", "")
    if not isinstance(selector, str):
        raise ValueError(f"{name}: selector must be a string of label matchers")
    timeout = entry.get("timeout_s", 2.0)
    if not _is_number(timeout) or timeout <= 0:
        raise ValueError(f"{name}: timeout_s must be a number of seconds > 0")
    return RemoteHost(name.strip(), url, kind, selector, float(timeout))


def _hosts(value: Any, problems: list[str]) -> list[RemoteHost]:
    """Every valid `[[hosts]]` entry; each bad one is a problem line and left out."""
    if not isinstance(value, list):
        problems.append("hosts: expected [[hosts]] tables; no remote hosts")
        return []
    hosts: list[RemoteHost] = []
    for number, entry in enumerate(value, 1):
        try:
            host = _host(entry)
        except ValueError as exc:
            problems.append(f"hosts entry {number}: {exc}; left out")
            continue
        if any(known.name == host.name for known in hosts):
            problems.append(f"hosts entry {number}: {host.name} is listed twice; left out")
            continue
        hosts.append(host)
    return hosts


_DECLARED = "sessiontui.collectors.trainlog.declared"  # where the active formats live


def _formats(value: Any, problems: list[str]) -> list[dict]:
    """The `[[formats]]` tables, made the formats every training-log reader tries first."""
    tables = [entry for entry in value if isinstance(entry, dict)] if isinstance(value, list) else []
    if not tables and _DECLARED not in sys.modules:
        return tables  # none declared and none active: the readers (a tenth of a second) load later
    from sessiontui.collectors.trainlog.declared import parse_formats, use_formats

    formats, found = parse_formats(tables)
    problems.extend(found)
    use_formats(formats)
    return tables


def user_config_path() -> Path:
    """The user-level settings, for what is not per project ([[hosts]], theme, draft_overhead):
    `~/.config/sessiontui/config.toml` on Linux, an absolute XDG_CONFIG_HOME honoured, as
    platformdirs does (worked out here: importing it cost `ask` 3 ms); platformdirs' elsewhere."""
    if sys.platform.startswith("linux"):
        base = os.environ.get("XDG_CONFIG_HOME", "")
        base = base if os.path.isabs(base) else os.path.expanduser("~/.config")
        return Path(base) / "sessiontui" / USER_CONFIG_NAME
    from platformdirs import user_config_path as folder

    return folder("sessiontui", appauthor=False) / USER_CONFIG_NAME


def load_config(path: Path, user_path: Path | None = None) -> Config:
    """Settings from `path` merged over the user-level file (default: user_config_path()) and the
    defaults; a missing file gives defaults, a bad one defaults plus `problems`."""
    config = Config()
    _read_into(config, user_config_path() if user_path is None else user_path, user=True)
    _read_into(config, path, user=False)
    return config


def _read_into(config: Config, path: Path, *, user: bool) -> None:
    """Apply the settings of one file to `config` (the project's over the user's: a [[hosts]]
    entry of the project replaces the user's of the same name, the others are kept)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        return  # no file: no parser imported (`ask` starts faster)
    except (OSError, UnicodeDecodeError) as exc:
        config.problems.append(f"{path}: cannot read settings ({exc}); using defaults")
        return
    import tomllib  # reading needs no layout: the stdlib parser imports and runs several times faster

    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        config.problems.append(f"{path}: cannot read settings ({exc}); using defaults")
        return
    known = {f.name for f in SETTINGS}
    for name, value in document.items():
        if name not in known:
            config.problems.append(f"{path}: unknown setting {name!r} ignored")
            continue
        if user and name in PROJECT_ONLY:
            config.problems.append(f"{path}: {name} is per project: set it in {CONFIG_NAME}; ignored")
            continue
        if name == "formats":
            config.formats = _formats(value, config.problems)
            continue
        if name == "hosts":
            problems: list[str] = []
            hosts = _hosts(value, problems)
            named = {host.name for host in hosts}
            config.hosts = [host for host in config.hosts if host.name not in named] + hosts
            config.problems.extend(f"{path}: {problem}" for problem in problems)
            config.sources[name] = str(path)
            continue
        try:
            setattr(config, name, _checked(name, value))
            config.sources[name] = str(path)
        except ValueError as exc:
            config.problems.append(f"{path}: {name}: {exc}, got {value!r}; using the default")


def default_text() -> str:
    """A commented settings file listing every setting with its default, for a new project."""
    import tomlkit  # edits only: it keeps the user's comments and layout

    lines = ["# sessiontui settings; the app keeps your comments when it edits this file.", ""]
    for setting in sorted(SETTINGS, key=lambda s: s.name == "hosts"):  # tables after the keys
        lines.append(f"# {setting.metadata['doc']}")
        factory = setting.default_factory
        default = factory() if callable(factory) else setting.default
        if default is None or setting.name == "hosts":
            example = tomlkit.dumps({setting.name: setting.metadata["example"]}).strip()
            lines.extend("# " + line if line else "#" for line in example.splitlines())
        else:
            lines.append(tomlkit.dumps({setting.name: default}).strip())
        lines.append("")
    return "\n".join(lines)


def _same_log(a: str, b: str, base: Path) -> bool:
    """Whether two `logs` entries name one file (relative entries taken from `base`)."""
    def resolved(log: str) -> str:
        return os.path.normpath(base / os.path.expanduser(log))

    return resolved(a) == resolved(b)


def _write_atomically(path: Path, text: str) -> None:
    """Replace the file in one rename, keeping its mode, so a crash never leaves half a file."""
    import shutil

    path = Path(os.path.realpath(path))  # a linked settings file keeps its link
    temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        temp.write_text(text, encoding="utf-8")
        if path.exists():
            shutil.copymode(path, temp)
        os.replace(temp, path)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise


def _logs_document(path: Path) -> tuple[Any, Any]:
    """The settings as an editable document (a commented default when missing) and its `logs`.

    Raises ValueError when the file is not valid TOML or `logs` not a list, rather than overwrite it.
    """
    import tomlkit
    from tomlkit.exceptions import TOMLKitError

    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        text = default_text()
    try:
        document = tomlkit.parse(text)
    except TOMLKitError as exc:
        raise ValueError(f"{path}: not valid TOML ({exc}); fix it before following logs") from None
    logs = document.get("logs")
    if logs is None:
        document["logs"] = tomlkit.array()
        logs = document["logs"]
    elif not isinstance(logs, list):
        raise ValueError(f"{path}: logs is not a list; fix it before following logs")
    return document, logs


def add_followed_log(path: Path, log: str) -> bool:
    """Add `log` to the followed logs, keeping comments and layout; False when already there."""
    import tomlkit

    path = Path(path)
    document, logs = _logs_document(path)
    if any(isinstance(entry, str) and _same_log(entry, log, path.parent) for entry in logs):
        return False
    logs.append(log)
    path.parent.mkdir(parents=True, exist_ok=True)
    _write_atomically(path, tomlkit.dumps(document))
    return True


def remove_followed_log(path: Path, log: str) -> bool:
    """Remove every entry naming `log` from the followed logs, keeping comments; False if none."""
    import tomlkit

    path = Path(path)
    if not path.exists():
        return False
    document, logs = _logs_document(path)
    named = [i for i, entry in enumerate(logs)
             if isinstance(entry, str) and _same_log(entry, log, path.parent)]
    for index in reversed(named):
        del logs[index]
    if not named:
        return False
    _write_atomically(path, tomlkit.dumps(document))
    return True
