"""Grading settings: defaults, a file, the environment and the command line, in that order of weakness."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from grader.config import SETTINGS, ConfigError, load_config
from corpus import corpus

ROOT = Path(__file__).resolve().parent.parent


def test_the_shipped_defaults_give_100_points_over_seven_categories():
    """grading.toml inside the package sets the issue's weights, Extensions' 4 and Part E's 20 included, summing to 100"""
    config = load_config(environ={})
    assert config.points == {"data_structures": 8, "joker_dominance": 12, "normal_rounds": 8, "forced_war": 20,
                             "exhaustion": 16, "full_game": 12, "extensions": 4, "student_tests": 20}
    assert sum(config.points.values()) == 100
    assert config.limits.memory_bytes == 1024**3
    assert config.sandbox == "auto"


def test_command_line_beats_environment_beats_file_beats_default(tmp_path):
    """Each layer overrides the one below, and the source of each value is remembered"""
    file = tmp_path / "grading.toml"
    file.write_text("[limits]\ncall_timeout = 4.0\ngame_timeout = 12.0\nsubmission_timeout = 50\n")
    environ = {"WAR_GRADER_LIMITS_GAME_TIMEOUT": "13", "WAR_GRADER_LIMITS_SUBMISSION_TIMEOUT": "40"}
    config = load_config(file, {"limits.submission_timeout": 30.0}, environ=environ)
    assert (config.times.call_timeout, config.times.game_timeout, config.times.submission_timeout) == (4.0, 13.0, 30.0)
    assert config.sources["limits.call_timeout"] == str(file)
    assert config.sources["limits.game_timeout"] == "$WAR_GRADER_LIMITS_GAME_TIMEOUT"
    assert config.sources["limits.submission_timeout"] == "the command line"


@pytest.mark.parametrize(("text", "message"), [
    ("[limits]\ncall_timeout = -3\n", "limits.call_timeout = -3 from {file} must be > 0"),
    ("[limits]\nmemory_mb = 'lots'\n", "limits.memory_mb = 'lots' from {file} is not a whole number"),
    ("[sandbox]\nlevel = 'docker'\n", "sandbox.level = 'docker' from {file} must be one of auto, bwrap"),
    ("[points]\nbonus = 5\n", "unknown setting points.bonus in {file}"),
    ("[limits\n", "{file} is not valid TOML"),
])
def test_a_bad_value_names_the_setting_and_where_it_came_from(tmp_path, text, message):
    """A bad setting is one sentence naming the key, the value and the file"""
    file = tmp_path / "grading.toml"
    file.write_text(text)
    with pytest.raises(ConfigError) as caught:
        load_config(file, environ={})
    assert message.format(file=file) in str(caught.value)


def test_a_bad_environment_value_names_the_variable():
    """A bad WAR_GRADER_* value names the variable it came from"""
    with pytest.raises(ConfigError, match=r"from \$WAR_GRADER_LIMITS_OPEN_FILES must be >= 16"):
        load_config(environ={"WAR_GRADER_LIMITS_OPEN_FILES": "3"})


def test_a_missing_config_file_is_one_sentence(tmp_path):
    """A config path that does not exist is reported, not a traceback"""
    with pytest.raises(ConfigError, match="cannot read the config file"):
        load_config(tmp_path / "nope.toml", environ={})


def test_every_setting_is_described_once():
    """Each setting has one help text and a unique environment variable"""
    names = [setting.env for setting in SETTINGS]
    assert len(names) == len(set(names))
    assert all(setting.help for setting in SETTINGS)


def test_deadlines_scratch_and_plain_have_defaults_and_overrides(tmp_path):
    """deadline_multiple, deadline_floor, scratch_mb and allow_plain default to the shipped values and are read
    from a file like any other key"""
    config = load_config(environ={})
    assert (config.times.deadline_multiple, config.times.deadline_floor, config.allow_plain) == (20.0, 0.5, False)
    assert config.limits.scratch_bytes == 64 * 1024**2
    file = tmp_path / "grading.toml"
    file.write_text("[limits]\ndeadline_multiple = 50\ndeadline_floor = 1.5\nscratch_mb = 8\n"
                    "[sandbox]\nallow_plain = true\n")
    config = load_config(file, environ={})
    assert (config.times.deadline_multiple, config.times.deadline_floor, config.allow_plain) == (50.0, 1.5, True)
    assert config.limits.scratch_bytes == 8 * 1024**2
    file.write_text("[limits]\ndeadline_multiple = 0.5\n")
    with pytest.raises(ConfigError, match="limits.deadline_multiple = 0.5 from .* must be >= 1"):
        load_config(file, environ={})


@pytest.mark.parametrize(("text", "message"), [
    ("[limits]\ngame_timeout = inf\n", "limits.game_timeout = inf from {file} must be > 0 and <= 3600"),
    ("[limits]\ncall_timeout = nan\n", "limits.call_timeout = nan from {file} must be > 0 and <= 3600"),
    ("[points]\nexhaustion = 1e308\n", "points.exhaustion = 1e+308 from {file} must be >= 0 and <= 1000000"),
    ("[limits]\nmemory_mb = 1e300\n", "limits.memory_mb = 1e+300 from {file} must be >= 64 and <= 1048576"),
    ("[limits]\nsubmission_timeout = inf\n", "limits.submission_timeout = inf from {file} must be > 0 and <= 86400"),
    ("[limits]\ndeadline_floor = 5.0\n",
     "limits.deadline_floor = 5.0 from {file} must be <= limits.call_timeout (2.0 from the defaults)"),
    ("[limits]\ncall_timeout = 20.0\ndeadline_floor = 12.0\n",
     "limits.deadline_floor = 12.0 from {file} must be <= limits.game_timeout (10.0 from the defaults)"),
])
def test_an_infinite_huge_or_inverted_value_is_refused_with_its_range(tmp_path, text, message):
    """Issue 20 item 5: inf, nan, 1e308 points and a floor above its ceiling are one line naming key and range"""
    file = tmp_path / "grading.toml"
    file.write_text(text)
    with pytest.raises(ConfigError) as caught:
        load_config(file, environ={})
    assert str(caught.value) == message.format(file=file)


def test_a_lower_call_timeout_lowers_the_shipped_floor_with_it():
    """--timeout 0.2 under the shipped 0.5 s floor: the floor follows the ceiling instead of refusing the run"""
    config = load_config(overrides={"limits.call_timeout": 0.2}, environ={})
    assert (config.times.call_timeout, config.times.deadline_floor) == (0.2, 0.2)


@pytest.mark.parametrize(("text", "suggestion"), [
    ("[limits]\ncall_timout = 1\n", "unknown setting limits.call_timout in {file}; did you mean limits.call_timeout?"),
    ("[limit]\ncall_timeout = 1\n", "unknown setting limit.call_timeout in {file}; did you mean limits.call_timeout?"),
    ("[points]\nmemory_mb = 5\n", "unknown setting points.memory_mb in {file}; did you mean limits.memory_mb?"),
    ("[points]\nbonus = 5\n", "unknown setting points.bonus in {file}"),
])
def test_an_unknown_setting_suggests_the_nearest_known_one(tmp_path, text, suggestion):
    """Issue 20 item 5: a misspelt key or section gets a did-you-mean; a key like none gets none"""
    file = tmp_path / "grading.toml"
    file.write_text(text)
    with pytest.raises(ConfigError) as caught:
        load_config(file, environ={})
    assert str(caught.value) == suggestion.format(file=file)



def test_points_of_1e308_stop_grade_before_anything_is_graded(tmp_path):
    """war-grader grade with such points: exit 2 and one line naming the key and range, no results.json"""
    file = tmp_path / "grading.toml"
    file.write_text("[points]\nexhaustion = 1e308\n")
    completed = subprocess.run([sys.executable, "-m", "grader", "grade", str(corpus() / "perfect"),
                                "--out", str(tmp_path / "out"), "--config", str(file)],
                               capture_output=True, text=True, timeout=120, cwd=ROOT, env={"PATH": "/usr/bin:/bin"})
    assert completed.returncode == 2
    assert completed.stderr.strip().splitlines() == [
        f"war-grader: points.exhaustion = 1e+308 from {file} must be >= 0 and <= 1000000"]
    assert not list(tmp_path.glob("out/*/results.json"))


def test_the_limits_on_counts_have_defaults_and_overrides(tmp_path):
    """scratch_files, coverage_lines, reply_mb, json_depth, zip_members and zip_mb default to grading.toml's values,
    which the records' own defaults repeat, and a file overrides each"""
    from grader.sandbox.isolation import Limits
    from grader.submissions import ZipLimits

    config = load_config(environ={})
    limits = config.limits
    assert (limits.scratch_files, limits.coverage_lines, limits.reply_bytes, limits.json_depth) == \
        (10_000, 100_000, 32 * 1024**2, 32)
    assert config.zip_limits == ZipLimits(members=10_000, bytes=20 * 1024**2) == ZipLimits()
    assert (Limits().scratch_files, Limits().coverage_lines, Limits().reply_bytes, Limits().json_depth) == \
        (limits.scratch_files, limits.coverage_lines, limits.reply_bytes, limits.json_depth)
    file = tmp_path / "grading.toml"
    file.write_text("[limits]\nscratch_files = 500\ncoverage_lines = 5000\nreply_mb = 4\njson_depth = 16\n"
                    "zip_members = 50\nzip_mb = 2\n")
    config = load_config(file, environ={})
    assert (config.limits.scratch_files, config.limits.coverage_lines, config.limits.reply_bytes,
            config.limits.json_depth) == (500, 5000, 4 * 1024**2, 16)
    assert config.zip_limits == ZipLimits(members=50, bytes=2 * 1024**2)
    file.write_text("[limits]\njson_depth = 1000\n")
    with pytest.raises(ConfigError, match="limits.json_depth = 1000 from .* must be >= 8 and <= 256"):
        load_config(file, environ={})


def test_each_setting_is_described_once_and_shown_the_same_everywhere():
    """grading.toml's comment on each key, docs/settings.md's table and the command line's help all come from
    SETTINGS: the toml comments on or just above each key spell its help, and the docs hold settings_table()"""
    import re

    from grader.config import CLI_HELP, SETTINGS, settings_table

    root = Path(__file__).resolve().parent.parent
    toml = (root / "grader" / "grading.toml").read_text(encoding="utf-8").splitlines()
    section = ""
    described: dict[str, str] = {}
    for index, line in enumerate(toml):
        if match := re.match(r"\[(\w+)\]", line):
            section = match.group(1)
        elif match := re.match(r"(\w+) = ", line):
            comment = line.split("#", 1)[1].strip() if "#" in line and not line.startswith("hidden") else ""
            above, back = [], index - 1
            while not comment and back >= 0 and toml[back].startswith("# "):
                above.insert(0, toml[back][2:].strip())
                back -= 1
            described[f"{section}.{match.group(1)}"] = comment or " ".join(above)
    for setting in SETTINGS:
        name = f"{setting.section}.{setting.key}"
        assert described.get(name, "").endswith(setting.help), f"grading.toml's comment on {name}"
        assert CLI_HELP[name].startswith(setting.help)
    docs = (root / "docs" / "settings.md").read_text(encoding="utf-8")
    assert settings_table() in docs, "docs/settings.md's table is not SETTINGS': run python -m grader.config --table"


def test_the_command_line_help_of_a_setting_is_its_declaration(capsys):
    """war-grader grade --help shows call_timeout's and the sandbox level's declared help with their defaults"""
    from grader.cli import main

    with pytest.raises(SystemExit):
        main(["grade", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    assert "most seconds for one call into student code (grading.toml limits.call_timeout; default 2)" in shown
    assert 'isolation: auto, bwrap, unshare, uid, plain (grading.toml sandbox.level; default "auto")' in shown
