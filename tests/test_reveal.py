"""Reveal after the deadline: grading.toml's [reveal] after, read in one place (grader/reveal.py), and the student
view showing hidden tests in full once it has passed: never before, never the instructor's extras."""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from markupsafe import escape

from grader import cli
from grader.batch import find_class, grade_into, render
from grader.config import ConfigError, load_config
from grader.export.gradescope_results import gradescope_results
from grader.report.html import render_class_overview, render_student_report
from grader.report.input import try_load
from grader.reveal import reveal_date, revealed
from corpus import corpus

ROOT = Path(__file__).resolve().parent.parent
FAST = ROOT / "tests" / "data" / "grading-test.toml"
EXAMPLES = ROOT / "tests" / "data" / "results"
DATE = "2026-12-15T09:00-05:00"
AT = datetime(2026, 12, 15, 14, 0, tzinfo=UTC)
"""DATE, in UTC."""
HIDDEN_JOKER = "test_joker_dominance.py::test_joker_as_p1_beats_every_rank*"
"""Tests joker_below_king fails, hidden in these tests' settings."""


def settings(tmp_path: Path, after: str, *, hide: bool = False) -> Path:
    """The fast test settings with [reveal] after (and the Joker tests hidden, if asked)."""
    path = tmp_path / "grading.toml"
    hidden = f'[visibility]\nhidden = ["{HIDDEN_JOKER}"]\n' if hide else ""
    path.write_text(FAST.read_text(encoding="utf-8") + f'\n{hidden}[reveal]\nafter = "{after}"\n', encoding="utf-8")
    return path


def example(name: str):
    result, problem = try_load(EXAMPLES / name / "results.json")
    assert result is not None, problem
    return result


# ------------------------------------------------------------------------------------------- the setting


def test_no_reveal_by_default():
    """The shipped settings reveal nothing, at any date"""
    config = load_config(None, environ={})
    assert config.reveal_after == "" and reveal_date(config) is None
    assert not revealed(config, datetime(2100, 1, 1, tzinfo=UTC))


def test_a_date_with_an_offset_reveals_from_that_moment(tmp_path):
    """Before the date: hidden; at it and after: revealed, whatever the offset of `now`"""
    config = load_config(settings(tmp_path, DATE), environ={})
    assert reveal_date(config) == AT
    assert not revealed(config, AT - timedelta(seconds=1))
    assert revealed(config, AT)
    assert revealed(config, AT.astimezone(timezone(timedelta(hours=9))) + timedelta(days=3))
    with pytest.raises(ValueError, match="offset"):
        revealed(config, datetime(2027, 1, 1))  # a naive now is a mistake, not a guess


@pytest.mark.parametrize("after", ["2026-12-15", "2026-12-15T09:00", "next friday", "2026-13-01T09:00Z"])
def test_a_date_without_an_offset_or_malformed_is_refused_in_one_line(tmp_path, after):
    """Like every other setting: the key, the value, where it came from and what is wanted, in one line"""
    path = settings(tmp_path, after)
    with pytest.raises(ConfigError) as caught:
        load_config(path, environ={})
    message = str(caught.value)
    assert "\n" not in message and message.startswith(f"reveal.after = {after!r} from {path}")
    assert "ISO 8601" in message and "offset" in message


def test_the_environment_sets_it_too():
    """WAR_GRADER_REVEAL_AFTER, as for any setting"""
    config = load_config(None, environ={"WAR_GRADER_REVEAL_AFTER": DATE})
    assert reveal_date(config) == AT
    with pytest.raises(ConfigError, match=r"\$WAR_GRADER_REVEAL_AFTER"):
        load_config(None, environ={"WAR_GRADER_REVEAL_AFTER": "tomorrow"})


def test_due_without_a_due_date_is_refused_before_anything_is_graded(tmp_path, capsys):
    """after = "due" needs the [late] section's due date: without one, one line and exit 2, no output folder"""
    path = settings(tmp_path, "due")
    config = load_config(path, environ={})
    with pytest.raises(ConfigError, match=r'reveal.after = "due" .*no \[late\] due date'):
        reveal_date(config)
    out = tmp_path / "out"
    status = cli.main(["grade", str(corpus() / "perfect"), "--out", str(out),
                       "--config", str(path)])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and "[late]" in err
    assert not out.exists()


def test_due_reads_the_late_sections_due_date(tmp_path):
    """With a [late] section, "due" is its due date, read from the settings file"""
    path = tmp_path / "grading.toml"
    path.write_text(f'[late]\ndue = "{DATE}"\n\n[reveal]\nafter = "due"\n')
    config = load_config(path, environ={})
    assert reveal_date(config) == AT
    assert revealed(config, AT) and not revealed(config, AT - timedelta(minutes=1))


# ------------------------------------------------------------------------------------------- the pages


def test_the_student_view_shows_hidden_tests_in_full_only_once_revealed():
    """A hidden failure: before the reveal only its rule; after it, its sentence and replay lines, as the
    instructor view shows them; never the test id, its timing or the whole captured output"""
    result = example("jokers_lose_to_kings")
    hidden = next(test for test in result.tests if test.hidden and test.outcome == "failed" and test.reproduction)
    before = render_student_report(result, view="student")
    after = render_student_report(result, view="student", reveal=True)
    instructor = render_student_report(result, view="instructor")
    for page in (after, instructor):
        assert f'data-test-id="{hidden.id}"' in page
        assert str(escape(hidden.reproduction)) in page and str(escape(hidden.sentence)) in page
    assert f'data-test-id="{hidden.id}"' not in before and str(escape(hidden.reproduction)) not in before
    assert "hidden, revealed" in after and "hidden, revealed" not in instructor
    assert 'class="test-id"' not in after and 'class="test-id"' in instructor
    assert "Shown to instructors only" not in after
    assert 'class="hidden-summary"' in before and 'class="hidden-summary"' not in after


def test_the_index_says_when_the_student_view_reveals():
    """The class overview's note says the pages show hidden tests in full"""
    results = [example("jokers_lose_to_kings")]
    assert "after the reveal date" in render_class_overview(results, view="student", revealed=True)
    assert "after the reveal date" not in render_class_overview(results, view="student")


def test_grading_keeps_hidden_replay_lines_only_with_a_reveal_date_and_shows_them_once_it_passed(sandbox, tmp_path):
    """Without [reveal] a hidden failure keeps no replay lines (as before); with it they are kept in results.json,
    the student page shows them once the date has passed, and `report` renders them at a later date"""
    klass = tmp_path / "class"
    shutil.copytree(corpus() / "joker_below_king", klass / "bob")
    plain, future = tmp_path / "plain", tmp_path / "future"
    plain.mkdir()
    future.mkdir()

    def hidden_failures(out: Path, path: Path, now: datetime):
        config = load_config(path, environ={})
        submissions, _ = find_class([klass], out)
        report = grade_into(submissions, out, config, jobs=1, now=now)
        data = json.loads((out / "bob" / "results.json").read_text(encoding="utf-8"))
        failed = [test for test in data["tests"] if test["visibility"] == "hidden"
                  and test["extra_data"]["outcome"] == "failed"]
        assert failed
        return report, failed, (out / "bob" / "report.html").read_text(encoding="utf-8")

    no_reveal = settings(plain, "", hide=True)
    report, failed, page = hidden_failures(tmp_path / "out-plain", no_reveal, AT)
    assert not report.revealed and all(test["extra_data"]["reproduction"] == "" for test in failed)

    later = settings(future, DATE, hide=True)
    out = tmp_path / "out"
    report, failed, page = hidden_failures(out, later, AT - timedelta(days=1))
    assert not report.revealed
    replays = [test["extra_data"]["reproduction"] for test in failed]
    assert all("from starter import" in replay for replay in replays)
    assert not any(str(escape(replay)) in page for replay in replays)  # kept, not shown: the date is to come

    render(out, "student", reveal=revealed(load_config(later, environ={}), AT + timedelta(hours=1)))
    page = (out / "bob" / "report.html").read_text(encoding="utf-8")
    assert all(str(escape(replay)) in page for replay in replays)
    assert all(f'data-test-id="{test["extra_data"]["id"]}"' in page for test in failed)


def test_report_reads_the_reveal_date_from_config(tmp_path, capsys):
    """`war-grader report OUT --config FILE` after a date in the past renders the student view revealed"""
    result = example("jokers_lose_to_kings")
    out = tmp_path / "out"
    (out / result.student).mkdir(parents=True)
    shutil.copy(EXAMPLES / result.student / "results.json", out / result.student / "results.json")
    hidden = next(test for test in result.tests if test.hidden and test.reproduction)
    assert cli.main(["report", str(out)]) == 0
    assert f'data-test-id="{hidden.id}"' not in (out / result.student / "report.html").read_text(encoding="utf-8")
    past = settings(tmp_path, "2020-01-01T00:00Z")
    assert cli.main(["report", str(out), "--config", str(past)]) == 0
    assert "hidden tests revealed" in capsys.readouterr().out
    assert f'data-test-id="{hidden.id}"' in (out / result.student / "report.html").read_text(encoding="utf-8")


# ------------------------------------------------------------------------------------------- Gradescope


def test_gradescope_gets_each_hidden_test_in_full_under_a_visibility_it_lifts_later():
    """results.json is written at submission time: with [reveal], each hidden test's full entry is added for
    Gradescope to show after its due date ("due") or once grades are published (a date of its own), without a
    score, so the total and the visible entries stay as they were"""
    result = example("jokers_lose_to_kings")
    plain = gradescope_results(result)
    hidden = [test for test in result.tests if test.hidden]
    for after, visibility in (("due", "after_due_date"), (DATE, "after_published")):
        data = gradescope_results(result, reveal_after=after)
        assert data["tests"][:len(plain["tests"])] == plain["tests"] and data["score"] == plain["score"]
        added = data["tests"][len(plain["tests"]):]
        assert len(added) == len(hidden)
        assert all(entry["visibility"] == visibility and "score" not in entry for entry in added)
        failed = next(entry for entry, test in zip(added, hidden) if test.reproduction and test.outcome == "failed")
        assert "Replay it" in failed["output"] and "SECRET-REPLAY" in failed["output"]
    assert all(entry["visibility"] != "hidden" or "SECRET" not in entry["output"] for entry in plain["tests"])
    assert gradescope_results(result, reveal_after="") == plain


def test_setting_a_reveal_date_regrades_once_and_moving_it_does_not(tmp_path):
    """The settings digest (what a kept result must match) sees whether [reveal] is set, which decides whether
    hidden replay lines are kept, but not the date itself"""
    from grader.batch.class_run import settings_digest

    first, second = tmp_path / "a", tmp_path / "b"
    first.mkdir()
    second.mkdir()
    plain = load_config(FAST, environ={})
    early = load_config(settings(first, DATE), environ={})
    late = load_config(settings(second, "2027-01-10T00:00Z"), environ={})
    assert settings_digest(early, "bwrap") == settings_digest(late, "bwrap") != settings_digest(plain, "bwrap")
