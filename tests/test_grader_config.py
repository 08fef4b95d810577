"""Grading settings: defaults, a file, the environment and the command line, in that order of weakness."""

from __future__ import annotations

import pytest

from grader.config import SETTINGS, ConfigError, load_config


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
    assert (config.call_timeout, config.game_timeout, config.submission_timeout) == (4.0, 13.0, 30.0)
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
    assert (config.deadline_multiple, config.deadline_floor, config.allow_plain) == (20.0, 0.5, False)
    assert config.limits.scratch_bytes == 64 * 1024**2
    file = tmp_path / "grading.toml"
    file.write_text("[limits]\ndeadline_multiple = 50\ndeadline_floor = 1.5\nscratch_mb = 8\n"
                    "[sandbox]\nallow_plain = true\n")
    config = load_config(file, environ={})
    assert (config.deadline_multiple, config.deadline_floor, config.allow_plain) == (50.0, 1.5, True)
    assert config.limits.scratch_bytes == 8 * 1024**2
    file.write_text("[limits]\ndeadline_multiple = 0.5\n")
    with pytest.raises(ConfigError, match="limits.deadline_multiple = 0.5 from .* must be >= 1"):
        load_config(file, environ={})
