"""Grading settings: each described once, resolved command line over environment over file over default."""

from __future__ import annotations

import difflib
import os
import tomllib
from dataclasses import dataclass, field
from importlib.resources import files
from pathlib import Path
from typing import Any, Callable, Mapping

from .late import KEYS as LATE_KEYS
from .late import LatePolicy, parse_moment, read_policy
from .limits import TimeLimits
from .results import CATEGORY_TITLES
from .sandbox.isolation import LEVELS, Limits
from .submissions import ZipLimits
from .errors import UserError


class ConfigError(UserError, ValueError):
    """A setting has a value that cannot be used; the message says which and where it came from."""


@dataclass(frozen=True)
class Setting:
    """One setting: where it lives in grading.toml, how to check it, what it means."""

    section: str
    key: str
    kind: type
    help: str
    check: Callable[[Any], bool] = lambda value: True
    rule: str = ""

    @property
    def env(self) -> str:
        """Its environment variable."""
        return f"WAR_GRADER_{self.section}_{self.key}".upper()


def _between(low: float, high: int, *, above: bool = False) -> tuple[Callable[[Any], bool], str]:
    """A check that a number lies from low (or above it) to high, both finite, and the rule it states."""
    if above:
        return (lambda value: low < value <= high), f"> {low:g} and <= {high:d}"
    return (lambda value: low <= value <= high), f">= {low:g} and <= {high:d}"


MAX_POINTS = 1_000_000
"""Most points a category may carry: enough for any rubric, and the total stays a finite JSON number."""

MAX_SECONDS = 3600
"""Longest call_timeout, game_timeout and deadline_floor: an hour for one call is past any honest need."""

SETTINGS: tuple[Setting, ...] = (
    *(Setting("points", category, float, f"points for the {title} category", *_between(0, MAX_POINTS))
      for category, title in CATEGORY_TITLES.items()),
    Setting("limits", "call_timeout", float, "most seconds for one call into student code",
            *_between(0, MAX_SECONDS, above=True)),
    Setting("limits", "game_timeout", float, "most seconds for a call that plays whole games",
            *_between(0, MAX_SECONDS, above=True)),
    Setting("limits", "deadline_multiple", float, "a call's deadline is this many times the reference's own time "
            "for the same call (at least deadline_floor, at most call_timeout or game_timeout)",
            *_between(1, 1000)),
    Setting("limits", "deadline_floor", float, "seconds every call may take, however fast the reference is "
            "(at most call_timeout and game_timeout)", *_between(0, MAX_SECONDS, above=True)),
    Setting("limits", "submission_timeout", float, "seconds of student code in all, per submission "
            "(a safety net: max_timeouts is what stops a hanging submission)", *_between(0, 86400, above=True)),
    Setting("limits", "max_timeouts", int, "timed-out calls per category before that category's other tests "
            "are not run", *_between(1, 1_000_000)),
    Setting("limits", "memory_mb", int, "address space of the worker, in MiB", *_between(64, 2**20)),
    Setting("limits", "file_size_mb", int, "largest file student code may write, in MiB", *_between(1, 2**20)),
    Setting("limits", "scratch_mb", int, "MiB student code may write in all (its private /tmp under bwrap and "
            "unshare)", *_between(1, 2**20)),
    Setting("limits", "scratch_files", int, "files and folders student code may have in its scratch (its private "
            "/tmp) at once", *_between(16, 2**24)),
    Setting("limits", "coverage_lines", int, "line numbers the worker may report as run, in one reply and in all for "
            "one submission", *_between(1000, 2**26)),
    Setting("limits", "reply_mb", int, "largest line the sandbox may send the grader (a reply, a Part E report), in "
            "MiB", *_between(1, 1024)),
    Setting("limits", "json_depth", int, "deepest nesting of lists and objects in what the sandbox sends the grader",
            *_between(8, 256)),
    Setting("limits", "zip_members", int, "most members a submitted .zip may hold (checked before extracting)",
            *_between(1, 2**24)),
    Setting("limits", "zip_mb", int, "most MiB a submitted .zip's members may declare in all, uncompressed "
            "(checked before extracting)", *_between(1, 2**20)),
    Setting("limits", "open_files", int, "open file descriptors of the worker", *_between(16, 2**20)),
    Setting("limits", "processes", int, "processes for the worker's user", *_between(4, 2**22)),
    Setting("sandbox", "level", str, "isolation: " + ", ".join(("auto", *LEVELS)),
            lambda v: v in ("auto", *LEVELS), "one of auto, " + ", ".join(LEVELS)),
    Setting("sandbox", "coverage", bool, "measure which lines of the submission run"),
    Setting("sandbox", "allow_plain", bool, "grade at the plain level (resource limits only), where student "
            "code could read the hidden suites and the reference"),
    Setting("visibility", "hidden", list, "tests whose names and details students do not see (ids or fnmatch "
            "patterns); only their category's score shows in the student view",
            lambda v: all(isinstance(item, str) for item in v), "a list of strings"),
    Setting("reveal", "after", str, "when the student view starts showing hidden tests in full (inputs and replay "
            "lines): an ISO 8601 date with an offset, \"due\" for the [late] section's due date, or \"\" for never",
            lambda v: v in ("", "due") or parse_moment(v) is not None,
            'an ISO 8601 date and time with an offset, e.g. "2026-12-15T09:00-05:00", or "due" (the [late] '
            'due date), or "" (never)'),
)
"""Every setting war-grader reads."""


@dataclass(frozen=True)
class Config:
    """Resolved settings for one grading run."""

    points: dict[str, float]
    times: TimeLimits
    """The time settings (call_timeout, game_timeout, submission_timeout, max_timeouts, deadline_multiple,
    deadline_floor) and every limit derived from them (grader/limits.py)."""
    limits: Limits
    """The worker's resource limits."""
    zip_limits: ZipLimits
    """What a submitted .zip may hold, checked before anything is extracted."""
    sandbox: str
    coverage: bool
    hidden: tuple[str, ...]
    allow_plain: bool = False
    reveal_after: str = ""
    """[reveal] after as written: "" (never), "due" or an ISO 8601 date with an offset (grader/reveal.py reads it)."""
    late: LatePolicy | None = None
    """The late policy ([late] of the settings file, with its extensions and grace ledger); None without one."""
    sources: dict[str, str] = field(default_factory=dict)
    """Where each setting's value came from (for messages)."""


def load_config(path: Path | None = None, overrides: dict[str, Any] | None = None,
                environ: Mapping[str, str] | None = None) -> Config:
    """Defaults, then the file at path, then WAR_GRADER_* variables, then overrides ("section.key": value)."""
    values, sources, late = _layered_values(path, overrides, os.environ if environ is None else environ)
    return _config_of(values, sources, late)


def _layered_values(path: Path | None, overrides: dict[str, Any] | None,
                    env: Mapping[str, str]) -> tuple[dict[str, Any], dict[str, str], LatePolicy | None]:
    """Every setting's value ("section.key"), checked, with where it came from, and the file's [late] policy."""
    values: dict[str, Any] = {}
    sources: dict[str, str] = {}
    layers = [("the defaults", _read_toml(files("grader").joinpath("grading.toml").read_text(), "the defaults"))]
    late: LatePolicy | None = None
    if path is not None:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as error:
            raise ConfigError(f"cannot read the config file {path}: {error.strerror}") from None
        layers.append((str(path), _read_toml(text, str(path))))
        table = layers[-1][1].pop("late", None)
        if table is not None:
            if not isinstance(table, dict):
                raise ConfigError(f"[late] in {path} should be a table")
            late = read_policy(table, origin=Path(path), text=text)
    known = {(s.section, s.key) for s in SETTINGS}
    for origin, data in layers:
        for section, table in data.items():
            if not isinstance(table, dict):
                raise ConfigError(f"[{section}] in {origin} should be a table")
            for key, value in table.items():
                if (section, key) not in known:
                    raise ConfigError(f"unknown setting {section}.{key} in {origin}{_did_you_mean(section, key)}")
                values[f"{section}.{key}"], sources[f"{section}.{key}"] = value, origin
    for setting in SETTINGS:
        name = f"{setting.section}.{setting.key}"
        if setting.env in env:
            values[name], sources[name] = _parse_env(setting, env[setting.env]), f"${setting.env}"
    for name, value in (overrides or {}).items():
        if value is not None:
            values[name], sources[name] = value, "the command line"
    for setting in SETTINGS:
        name = f"{setting.section}.{setting.key}"
        values[name] = _checked(setting, values[name], sources[name])
    _check_floor(values, sources)
    return values, sources, late


def _config_of(values: dict[str, Any], sources: dict[str, str], late: LatePolicy | None) -> Config:
    """The Config the checked values make."""
    times = TimeLimits(
        call_timeout=values["limits.call_timeout"],
        game_timeout=values["limits.game_timeout"],
        submission_timeout=values["limits.submission_timeout"],
        max_timeouts=values["limits.max_timeouts"],
        deadline_multiple=values["limits.deadline_multiple"],
        deadline_floor=values["limits.deadline_floor"],
    )
    return Config(
        points={category: values[f"points.{category}"] for category in CATEGORY_TITLES},
        times=times,
        limits=Limits(
            memory_bytes=values["limits.memory_mb"] * 1024**2,
            file_bytes=values["limits.file_size_mb"] * 1024**2,
            open_files=values["limits.open_files"],
            processes=values["limits.processes"],
            scratch_bytes=values["limits.scratch_mb"] * 1024**2,
            cpu_seconds=times.worker_cpu_seconds,
            scratch_files=values["limits.scratch_files"],
            coverage_lines=values["limits.coverage_lines"],
            reply_bytes=values["limits.reply_mb"] * 1024**2,
            json_depth=values["limits.json_depth"],
        ),
        zip_limits=ZipLimits(members=values["limits.zip_members"], bytes=values["limits.zip_mb"] * 1024**2),
        sandbox=values["sandbox.level"],
        coverage=values["sandbox.coverage"],
        hidden=tuple(values["visibility.hidden"]),
        allow_plain=values["sandbox.allow_plain"],
        reveal_after=values["reveal.after"].strip(),
        late=late,
        sources=sources,
    )


def _read_toml(text: str, origin: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{origin} is not valid TOML: {error}") from None


def _parse_env(setting: Setting, text: str) -> Any:
    if setting.kind is list:
        return [item.strip() for item in text.split(",") if item.strip()]
    if setting.kind is bool:
        return text.strip().lower() in ("1", "true", "yes", "on")
    return text


_KIND_NAMES = {int: "a whole number", float: "a number", str: "a string", bool: "true or false", list: "a list"}


def _checked(setting: Setting, value: Any, origin: str) -> Any:
    """The value converted to the setting's type, or a ConfigError naming the setting and its origin."""
    name = f"{setting.section}.{setting.key}"
    try:
        if setting.kind in (int, float) and (isinstance(value, bool) or not isinstance(value, (int, float, str))):
            raise ValueError
        converted = setting.kind(value) if setting.kind in (int, float, str) else value
        if setting.kind is int and isinstance(value, float) and not value.is_integer():
            raise ValueError
        if not isinstance(converted, setting.kind):
            raise ValueError
    except (TypeError, ValueError):
        raise ConfigError(f"{name} = {value!r} from {origin} is not {_KIND_NAMES[setting.kind]}") from None
    if not setting.check(converted):
        raise ConfigError(f"{name} = {value!r} from {origin} must be {setting.rule}")
    return converted


def _did_you_mean(section: str, key: str) -> str:
    """"; did you mean limits.call_timeout?" for the closest known setting, or nothing if none is close."""
    keys: dict[str, list[str]] = {}
    for setting in SETTINGS:
        keys.setdefault(setting.section, []).append(setting.key)
    keys["late"] = list(LATE_KEYS)
    sections = [section] if section in keys else difflib.get_close_matches(section, list(keys), n=1)
    for near in sections:  # a mistyped key in its section, or the key under a mistyped section
        close = difflib.get_close_matches(key, keys[near], n=1)
        if close:
            return f"; did you mean {near}.{close[0]}?"
    elsewhere = [name for name, known in keys.items() if key in known]  # a known key in the wrong section
    return f"; did you mean {elsewhere[0]}.{key}?" if elsewhere else ""


def _check_floor(values: dict[str, Any], sources: dict[str, str]) -> None:
    """deadline_floor may not exceed call_timeout or game_timeout (the ceilings): a ConfigError naming both.

    The shipped floor (0.5 s) left in place under a lower ceiling (--timeout 0.2) is lowered to the ceiling.
    """
    floor = values["limits.deadline_floor"]
    for ceiling in ("limits.call_timeout", "limits.game_timeout"):
        if floor <= values[ceiling]:
            continue
        if sources["limits.deadline_floor"] == "the defaults":
            floor = values["limits.deadline_floor"] = values[ceiling]
            continue
        raise ConfigError(f"limits.deadline_floor = {floor!r} from {sources['limits.deadline_floor']} must be "
                          f"<= {ceiling} ({values[ceiling]!r} from {sources[ceiling]})")


def _shipped() -> dict[str, Any]:
    """The value grader/grading.toml gives each setting, by "section.key"."""
    data = _read_toml(files("grader").joinpath("grading.toml").read_text(), "the defaults")
    return {f"{s.section}.{s.key}": data.get(s.section, {}).get(s.key) for s in SETTINGS}


DEFAULTS: dict[str, Any] = _shipped()
"""The shipped value of every setting, by "section.key" (grading.toml's, read once)."""


def _shown(value: Any) -> str:
    """A default as the docs and the command line show it."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, list):
        return f"{len(value)} tests" if value else "none"
    return str(value)


CLI_HELP: dict[str, str] = {
    f"{s.section}.{s.key}": f"{s.help} (grading.toml {s.section}.{s.key}; default {_shown(DEFAULTS[f'{s.section}.{s.key}'])})"
    for s in SETTINGS
}
"""The command line's help for an option that sets a setting: its one description, where it lives, its default."""


def settings_table() -> str:
    """The Markdown table of every setting that docs/settings.md holds (tests/test_config.py keeps them equal)."""
    rows = ["| Key | Default | What it sets | Allowed |", "| --- | --- | --- | --- |"]
    for s in SETTINGS:
        name = f"{s.section}.{s.key}"
        rows.append(f"| `{name}` | `{_shown(DEFAULTS[name]).replace('|', '&#124;')}` | {s.help} | "
                    f"{s.rule or ('true or false' if s.kind is bool else s.kind.__name__)} |")
    return "\n".join(rows) + "\n"


if __name__ == "__main__":
    import sys

    if sys.argv[1:] != ["--table"]:
        sys.exit("usage: python -m grader.config --table")
    sys.stdout.write(settings_table())
