"""The late policy: [late] in grading.toml read and refused line by line, the arithmetic at its edges, and the
verdict shown in results.json, grades.csv, the report, the index and Gradescope's results; Gradescope's
submission_metadata.json read into the policy. No grading here (tests/batch/test_late_grading.py grades)."""

from __future__ import annotations

import csv
import dataclasses
import io
import json
from datetime import datetime
from pathlib import Path

import pytest

from grader import cli
from grader.batch import grades_csv
from grader.batch.class_run import settings_digest
from grader.config import ConfigError, load_config
from grader.export.autograder import METADATA, STUDENT, gradescope_policy, read_metadata
from grader.export.gradescope_results import gradescope_results
from grader.grading.runner import with_late_policy
from grader.late import LateError, LatePolicy, Lateness, assess, check_students, duration, name_students
from grader.report.html import render_class_overview, render_student_report
from grader.results import GradeResult, read_results, write_results
from corpus import corpus

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "tests" / "data" / "results" / "collects_opponent_first" / "results.json"
DUE = "2026-12-01T23:59:00-05:00"


def moment(text: str) -> datetime:
    return datetime.fromisoformat(text)


def policy(**changes: object) -> LatePolicy:
    """Due 1 Dec 23:59 -05:00, 10% a started day, at most 50%, cut off a week later, 2 grace days."""
    base = LatePolicy(due=moment(DUE), penalty_per_day=10, max_penalty=50, cutoff=moment("2026-12-08T23:59:00-05:00"),
                      grace_days=0)
    return dataclasses.replace(base, **changes)  # type: ignore[arg-type]


def settings(folder: Path, late: str, files: dict[str, str] | None = None) -> Path:
    """folder/grading.toml with this [late] body (and the files beside it)."""
    for name, text in (files or {}).items():
        (folder / name).write_text(text, encoding="utf-8")
    path = folder / "grading.toml"
    path.write_text("[limits]\ncall_timeout = 1.0\n\n[late]\n" + late, encoding="utf-8")
    return path


# ------------------------------------------------------------------------------------------ the arithmetic


def test_exactly_at_the_due_date_is_on_time_and_costs_nothing():
    """Submitted at the due date to the second: on time, no penalty, the sentence says so"""
    late = assess(policy(), "alice", DUE, False, 80.0)
    assert late is not None and not late.late and late.penalty_percent == 0 and late.points_after == 80
    assert late.sentence == "submitted on time"


def test_one_second_late_is_one_started_day():
    """A second after the due date is late: one started day, 10% of the points"""
    late = assess(policy(), "alice", "2026-12-01T23:59:01-05:00", False, 80.0)
    assert late is not None and late.late and late.penalty_percent == 10 and late.points_after == 72
    assert late.sentence == "submitted 1 s late, \u221210%"


def test_the_same_moment_in_another_offset_is_the_same_lateness():
    """Offsets are honoured: 04:59 UTC on 2 Dec is 23:59 -05:00 on 1 Dec, so on time"""
    late = assess(policy(), "alice", "2026-12-02T04:59:00Z", False, 80.0)
    assert late is not None and not late.late


def test_the_issue_example_26_hours_late_with_one_grace_day():
    """26 h late with one grace day left: the grace day covers a day, the 2 h left are one started day, -10%"""
    late = assess(policy(grace_days=1), "alice", "2026-12-03T01:59:00-05:00", False, 50.0)
    assert late is not None
    assert late.sentence == "submitted 26 h late, 1 grace day used, \u221210%"
    assert (late.hours_late, late.grace_days_used, late.points_before, late.points_after) == (26.0, 1, 50.0, 45.0)


def test_grace_days_covering_all_the_lateness_cost_nothing_and_are_spent_whole():
    """Two started days and two grace days: both spent, no penalty; an hour late still spends a whole day"""
    late = assess(policy(grace_days=3), "alice", "2026-12-03T01:59:00-05:00", False, 50.0)
    assert late is not None and late.grace_days_used == 2 and late.penalty_percent == 0 and late.points_after == 50
    hour = assess(policy(grace_days=3), "alice", "2026-12-02T00:59:00-05:00", False, 50.0)
    assert hour is not None and hour.grace_days_used == 1 and hour.sentence.endswith("no penalty")


def test_grace_days_already_used_in_the_course_are_not_spent_again():
    """The ledger says alice used 2 of her 2 grace days: none left, the full penalty; bob still has his"""
    course = policy(grace_days=2, grace_used={"alice": 2})
    alice = assess(course, "alice", "2026-12-02T10:00:00-05:00", False, 50.0)
    bob = assess(course, "bob", "2026-12-02T10:00:00-05:00", False, 50.0)
    assert alice is not None and (alice.grace_days_used, alice.penalty_percent) == (0, 10)
    assert bob is not None and (bob.grace_days_used, bob.penalty_percent) == (1, 0)


def test_the_penalty_is_capped_at_max_penalty():
    """Six started days at 10% is 60%, capped at 50%"""
    late = assess(policy(), "alice", "2026-12-07T10:00:00-05:00", False, 80.0)
    assert late is not None and late.penalty_percent == 50 and late.points_after == 40


def test_after_the_cutoff_the_score_is_0_and_no_grace_day_is_spent():
    """A second after the cut-off: 0 points, marked cut off, grace days kept; at the cut-off itself: the curve"""
    after = assess(policy(grace_days=2), "alice", "2026-12-08T23:59:01-05:00", False, 80.0)
    assert after is not None and after.cut_off and after.points_after == 0 and after.grace_days_used == 0
    assert "after the cut-off" in after.sentence and after.sentence.endswith("0 points")
    at = assess(policy(grace_days=2), "alice", "2026-12-08T23:59:00-05:00", False, 80.0)
    assert at is not None and not at.cut_off and at.points_after == 40


def test_per_hour_penalties_count_started_hours():
    """penalty_per_hour = 2: 90 minutes late is two started hours, -4%"""
    late = assess(policy(penalty_per_day=0, penalty_per_hour=2), "alice", "2026-12-02T01:29:00-05:00", False, 50.0)
    assert late is not None and late.penalty_percent == 4 and late.points_after == 48


def test_an_extension_moves_the_due_date_and_the_cutoff_with_it():
    """alice's extension to 3 Dec: on time on 2 Dec, late a day after it, cut off a week after it"""
    course = policy(extensions={"alice": moment("2026-12-03T23:59:00-05:00")})
    on_time = assess(course, "alice", "2026-12-02T12:00:00-05:00", False, 80.0)
    assert on_time is not None and not on_time.late and on_time.extended and "extended" in on_time.sentence
    late = assess(course, "alice", "2026-12-04T12:00:00-05:00", False, 80.0)
    assert late is not None and late.due == "2026-12-03T23:59:00-05:00" and late.penalty_percent == 10
    still_in = assess(course, "alice", "2026-12-10T12:00:00-05:00", False, 80.0)
    assert still_in is not None and not still_in.cut_off
    other = assess(course, "bob", "2026-12-02T12:00:00-05:00", False, 80.0)
    assert other is not None and other.late and not other.extended


def test_marked_late_without_a_time_is_charged_one_started_day_and_says_so():
    """A Canvas _LATE_ mark with no time: one started day (10%), the sentence says no time was given"""
    late = assess(policy(), "alice", "", True, 80.0)
    assert late is not None and late.hours_late is None and late.late and late.points_after == 72
    assert "gives no time" in late.sentence and "1 started day" in late.sentence


def test_no_time_and_no_mark_is_not_late_and_says_nothing():
    """Nothing says when it came: no lateness recorded, the result left as it was"""
    assert assess(policy(), "alice", "", False, 80.0) is None
    result = read_results(EXAMPLE)
    assert with_late_policy(result, policy()) == result


def test_durations_read_as_a_person_writes_them():
    """Seconds, minutes, hours up to two days, then days and hours"""
    assert [duration(s) for s in (1, 59, 60, 3599, 3600, 26 * 3600, 49 * 3600)] == [
        "1 s", "59 s", "1 min", "59 min", "1 h", "26 h", "2 days 1 h"]


# ------------------------------------------------------------------------------------------ reading [late]


def test_a_full_late_section_is_read_with_its_files(tmp_path):
    """due, cutoff (TOML date-time or string), penalty, cap, grace days, extensions and the grace ledger"""
    path = settings(tmp_path, f'due = "{DUE}"\ncutoff = 2026-12-08T23:59:00-05:00\npenalty_per_day = 10\n'
                    'max_penalty = 50\ngrace_days = 3\nextensions = "extensions.csv"\ngrace_used = "ledger.csv"\n',
                    {"extensions.csv": "id,until\nalice,2026-12-03T23:59-05:00\n\n",
                     "ledger.csv": "id,days\nbob,2\n"})
    late = load_config(path, environ={}).late
    assert late is not None and late.due == moment(DUE) and late.cutoff == moment("2026-12-08T23:59:00-05:00")
    assert (late.penalty_per_day, late.max_penalty, late.grace_days) == (10, 50, 3)
    assert late.extensions == {"alice": moment("2026-12-03T23:59:00-05:00")} and late.grace_used == {"bob": 2}


def test_no_late_section_means_no_policy():
    """The shipped defaults have no [late]: nothing changes"""
    assert load_config(environ={}).late is None


@pytest.mark.parametrize(("body", "files", "message"), [
    ('due = "2026-12-01"\n', {}, "{toml} line 5: late.due = '2026-12-01' has no time zone offset"),
    ('due = "first of december"\n', {}, "{toml} line 5: late.due = 'first of december' is not an ISO 8601"),
    ("due = 2026-12-01T23:59:00\n", {}, "{toml} line 5: late.due = 2026-12-01T23:59:00 has no time zone offset"),
    (f'due = "{DUE}"\ncutoff = "2026-11-30T00:00Z"\n', {}, "{toml} line 6: late.cutoff (2026-11-30T00:00:00+00:00) "
     "is before late.due"),
    (f'due = "{DUE}"\npenalty_per_day = -5\n', {}, "{toml} line 6: late.penalty_per_day = -5 must be >= 0"),
    (f'due = "{DUE}"\ngrace_days = 1.5\n', {}, "{toml} line 6: late.grace_days = 1.5 is not a whole number"),
    (f'due = "{DUE}"\nmax_penalty = 150\n', {}, "{toml} line 6: late.max_penalty = 150 must be >= 0 and <= 100"),
    (f'due = "{DUE}"\npenalty_per_day = 5\npenalty_per_hour = 1\n', {}, "{toml} line 7: set penalty_per_day or "
     "penalty_per_hour, not both"),
    (f'due = "{DUE}"\npenalty_per_days = 5\n', {}, "{toml} line 6: unknown setting late.penalty_per_days; did you "
     "mean late.penalty_per_day?"),
    (f'due = "{DUE}"\nextensions = "missing.csv"\n', {}, "{toml} line 6: late.extensions: no file"),
    (f'due = "{DUE}"\nextensions = "ext.csv"\n', {"ext.csv": "id,until\nalice,2026-12-03T23:59-05:00\n"
                                                  "bob,2026-12-04\n"}, "{dir}/ext.csv line 3: until = "
     "'2026-12-04' has no time zone offset"),
    (f'due = "{DUE}"\nextensions = "ext.csv"\n', {"ext.csv": "id,until\nalice,2026-12-03T23:59-05:00\n"
                                                  "alice,2026-12-05T23:59-05:00\n"},
     "{dir}/ext.csv line 3: 'alice' is already on line 2; keep one line per student"),
    (f'due = "{DUE}"\nextensions = "ext.csv"\n', {"ext.csv": "student,date\n"},
     "{dir}/ext.csv line 1: the header should be id,until"),
    (f'due = "{DUE}"\nextensions = "ext.csv"\n', {"ext.csv": "id,until\nalice,2026-11-30T23:59-05:00\n"},
     "{toml} line 6: alice's extension (2026-11-30T23:59:00-05:00) is before late.due"),
    (f'due = "{DUE}"\ngrace_used = "used.csv"\n', {"used.csv": "id,days\nalice,-1\n"},
     "{dir}/used.csv line 2: days = '-1' should be a whole number"),
    (f'due = "{DUE}"\ngrace_used = "used.csv"\n', {"used.csv": "id,days\nalice,\u00b2\n"},
     "{dir}/used.csv line 2: days = '\u00b2' should be a whole number"),
])
def test_bad_late_settings_are_one_line_naming_the_file_and_the_line(tmp_path, body, files, message):
    """Malformed dates, no offset, cut-off before due, negative or fractional numbers, both curves, a typo, a
    missing file, a bad, duplicate or early line in a CSV: one line with the file, the line and the fix"""
    path = settings(tmp_path, body, files)
    with pytest.raises((ConfigError, LateError)) as caught:
        load_config(path, environ={})
    text = str(caught.value)
    assert "\n" not in text
    assert text.startswith(message.format(toml=path, dir=tmp_path)), text


def test_a_late_key_in_the_wrong_section_names_the_right_one(tmp_path):
    """due under [limits] is unknown there; the message points to late.due"""
    path = tmp_path / "grading.toml"
    path.write_text(f'[limits]\ndue = "{DUE}"\n')
    with pytest.raises(ConfigError, match="did you mean late.due"):
        load_config(path, environ={})


def test_the_command_line_refuses_a_bad_late_setting_with_exit_2(tmp_path, capsys):
    """war-grader grade with a [late] whose date has no offset: exit 2, one line on stderr, nothing graded"""
    path = settings(tmp_path, 'due = "2026-12-01T23:59"\n')
    out = tmp_path / "out"
    assert cli.main(["grade", str(corpus() / "perfect"), "--out", str(out), "--config",
                     str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "no time zone offset" in err and f"{path} line 5" in err
    assert not (out / "perfect").exists()


def test_an_unknown_student_in_the_extensions_file_stops_the_class_before_grading(tmp_path, capsys):
    """alcie is no student of the class: exit 2 naming the file's line and the nearest name, nothing graded"""
    klass = tmp_path / "class"
    for name in ("alice", "bob"):
        (klass / name).mkdir(parents=True)
        (klass / name / "war.py").write_text("X = 1\n")
    path = settings(tmp_path, f'due = "{DUE}"\nextensions = "ext.csv"\n',
                    {"ext.csv": "id,until\nbob,2026-12-03T23:59-05:00\nalcie,2026-12-03T23:59-05:00\n"})
    out = tmp_path / "out"
    assert cli.main(["grade", str(klass), "--out", str(out), "--config", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert err == (f"war-grader: {tmp_path}/ext.csv line 3: 'alcie' has no submission in this class; did you mean "
                   "'alice'? fix the id or remove the line")
    assert not out.exists()


def test_an_extension_for_a_student_who_has_not_submitted_is_a_note_not_a_refusal():
    """zed is like no one of the class: an extension granted before the work comes in; a line says so"""
    notes = check_students(policy(extensions={"zed": moment(DUE)}), ["alice", "bob"])
    assert notes == ["late.extensions: 'zed' has no submission in this class (yet); the line applies once it is graded"]
    assert check_students(policy(extensions={"bob": moment(DUE)}), ["alice", "bob"]) == []


ROSTER = ("id,name,email,github,section\n1001,Kiran Patel,kpatel@uni.edu,kpatel,L01\n"
          "1002,Ann Lee,alee@uni.edu,,L01\n1003,Zed Moore,zmoore@uni.edu,zmoore,L02\n")


def test_with_a_roster_extensions_and_the_ledger_name_students_as_the_gradebook_does(tmp_path):
    """Issue 28 item 2: with [late] roster, a row may name the student by the roster's id (1001: the clone
    war-kpatel, whose name ends with that student's login), GitHub login or email (alee@uni.edu: the submission
    alee), and the policy is keyed by the submissions; a student of the roster without a submission is a note; a
    row naming nobody is refused in one line"""
    path = settings(tmp_path, f'due = "{DUE}"\nextensions = "ext.csv"\ngrace_used = "ledger.csv"\n'
                    'roster = "roster.csv"\n',
                    {"ext.csv": "id,until\n1001,2026-12-03T23:59-05:00\nzmoore,2026-12-04T23:59-05:00\n",
                     "ledger.csv": "id,days\nalee@uni.edu,2\n", "roster.csv": ROSTER})
    late = load_config(path, environ={}).late
    assert late is not None and late.roster is not None
    named, notes = name_students(late, ["war-kpatel", "alee"])
    assert named.extensions == {"war-kpatel": moment("2026-12-03T23:59:00-05:00")}
    assert named.grace_used == {"alee": 2}
    assert notes == [f"{tmp_path / 'ext.csv'} line 3: 'zmoore' (1003 Zed Moore) has no submission in this class "
                     "(yet); the line applies once it is graded"]
    assert assess(named, "war-kpatel", "2026-12-02T10:00:00-05:00", False, 80.0).sentence.startswith(
        "submitted on time")
    (tmp_path / "ext.csv").write_text("id,until\n1009,2026-12-03T23:59-05:00\n")
    with pytest.raises(LateError, match=r"ext.csv line 2: '1009' is no student of roster.csv"):
        name_students(load_config(path, environ={}).late, ["war-kpatel", "alee"])


def test_without_a_roster_a_row_names_a_submission_as_before():
    """No [late] roster: the rows are the submissions' names; check_students's notes"""
    named, notes = name_students(policy(extensions={"bob": moment(DUE), "zed": moment(DUE)}), ["alice", "bob"])
    assert set(named.extensions) == {"bob", "zed"} and len(notes) == 1 and "'zed'" in notes[0]
    assert name_students(policy(extensions={"zed": moment(DUE)}), ["alice"], whole_class=False)[1] == []


def test_a_late_section_without_a_due_date_is_refused_before_grading(tmp_path, capsys):
    """[late] with a penalty and no due date (outside Gradescope): exit 2, the fix named"""
    path = settings(tmp_path, "penalty_per_day = 10\n")
    assert cli.main(["grade", str(corpus() / "perfect"), "--out", str(tmp_path / "out"),
                     "--config", str(path)]) == 2
    assert "has no due date; add due = " in capsys.readouterr().err


def test_the_settings_digest_leaves_the_late_policy_out(tmp_path):
    """The policy is applied after scoring, to kept results too: changing it keeps the tests' verdicts, so it is
    no part of what a result's tests depend on"""
    first = load_config(settings(tmp_path, f'due = "{DUE}"\npenalty_per_day = 10\n'), environ={})
    second = load_config(settings(tmp_path, f'due = "{DUE}"\npenalty_per_day = 20\n'), environ={})
    (tmp_path / "plain.toml").write_text("[limits]\ncall_timeout = 1.0\n", encoding="utf-8")
    none = load_config(tmp_path / "plain.toml", environ={})
    assert len({settings_digest(config, "bwrap") for config in (first, second, none)}) == 1
    (tmp_path / "slower.toml").write_text("[limits]\ncall_timeout = 2.5\n", encoding="utf-8")
    assert settings_digest(load_config(tmp_path / "slower.toml", environ={}), "bwrap") != settings_digest(none, "bwrap")


# ----------------------------------------------------------------------------------------------- the outputs


def late_result(points: float = 50.0, **changes: object) -> GradeResult:
    """The example result with its score set, submitted 26 h late under a 1-grace-day policy, the policy applied."""
    base = dataclasses.replace(read_results(EXAMPLE), score=points, submitted_at="2026-12-03T01:59:00-05:00",
                               **changes)  # type: ignore[arg-type]
    return with_late_policy(base, policy(grace_days=1))


def test_the_score_is_the_points_after_the_penalty_and_results_json_keeps_both(tmp_path):
    """score is after the penalty; extra_data.late holds the verdict; read back equal; old files still read"""
    result = late_result()
    assert result.score == 45 and result.late is not None and result.late.points_before == 50
    write_results(result, tmp_path / "results.json")
    data = json.loads((tmp_path / "results.json").read_text())
    assert data["score"] == 45 and data["extra_data"]["submitted_at"] == "2026-12-03T01:59:00-05:00"
    assert data["extra_data"]["late"]["sentence"] == "submitted 26 h late, 1 grace day used, \u221210%"
    assert read_results(tmp_path / "results.json") == result
    del data["extra_data"]["late"]
    assert GradeResult.from_json(data).late is None


def test_grades_csv_keeps_its_columns_first_and_adds_the_late_ones():
    """grades.csv read back with csv: the old columns in their order, then when, hours late, grace, penalty,
    points before; empty late cells where nothing says when"""
    on_time = read_results(EXAMPLE)
    rows = list(csv.DictReader(io.StringIO(grades_csv([late_result(), on_time]))))
    header = next(csv.reader(io.StringIO(grades_csv([on_time]))))
    assert header[:3] == ["student", "score", "max"] and header[-8:] == [
        "outcome", "reason", "nondeterministic", "submitted_at", "hours_late", "grace_days_used", "late_penalty",
        "points_before_late"]
    late = rows[0]
    assert (late["score"], late["submitted_at"], late["hours_late"], late["grace_days_used"], late["late_penalty"],
            late["points_before_late"]) == ("45", "2026-12-03T01:59:00-05:00", "26", "1", "10", "50")
    assert [rows[1][key] for key in ("submitted_at", "hours_late", "late_penalty")] == ["", "", ""]


def test_the_report_shows_the_sentence_and_the_points_before_near_the_score():
    """The student report: the sentence capitalised, the points before the penalty, the due date"""
    html = render_student_report(late_result())
    total = html.index('class="total-line"')
    line = html.index('class="late-line is-late"')
    assert total < line < html.index('class="facts"')
    assert "Submitted 26 h late, 1 grace day used, \u221210%" in html
    assert "50 points before the late penalty" in html
    assert "Submitted</dt>" in html


def test_a_submission_after_the_cutoff_keeps_its_full_report_with_0_points():
    """Cut off: score 0, the note says why, every test row still shown"""
    base = dataclasses.replace(read_results(EXAMPLE), submitted_at="2026-12-10T00:00:00-05:00")
    result = with_late_policy(base, policy())
    assert result.score == 0 and result.late is not None and result.late.cut_off
    html = render_student_report(result)
    assert "after the cut-off" in html and 'class="note late-cutoff"' in html
    on_time = render_student_report(base)
    assert html.count("<tr") == on_time.count("<tr") > 10 and html.count("Rule checked") == on_time.count("Rule checked")


def test_the_index_marks_late_submissions_beside_their_total():
    """The class overview: a late mark with the penalty on the late row, none on the on-time row"""
    html = render_class_overview([late_result(), dataclasses.replace(read_results(EXAMPLE), student="ontime")])
    assert html.count('class="late-mark"') == 1 and "late &minus;10%" in html


def test_gradescopes_results_say_the_sentence_in_the_top_level_output():
    """The Markdown summary Gradescope shows carries the sentence and the points before"""
    output = gradescope_results(late_result())["output"]
    assert "26 h late, 1 grace day used" in output and "50 points before the late penalty" in output


# ------------------------------------------------------------------------------------------------- Gradescope


def metadata(folder: Path, **changes: object) -> Path:
    """A submission_metadata.json in Gradescope's documented layout (gradescope-autograders.readthedocs.io)."""
    data: dict = {
        "id": 123456, "created_at": "2026-12-03T01:59:32.365935-05:00", "submission_method": "upload",
        "assignment": {"due_date": "2026-12-01T23:59:00.000000-05:00", "late_due_date": "2026-12-05T23:59:00-05:00",
                       "group_size": None, "group_submission": False, "id": 25828, "course_id": 1234,
                       "release_date": "2026-11-01T00:00:00-05:00", "title": "War", "total_points": "100.0"},
        "users": [{"email": "alice@example.edu", "id": 1234, "name": "Alice"}],
        "previous_submissions": [],
    }
    data.update(changes)
    path = folder / METADATA
    path.write_text(json.dumps(data))
    return path


def test_gradescope_metadata_gives_the_time_the_due_date_and_the_cutoff(tmp_path):
    """created_at is the submission time, due_date the due date, late_due_date the cut-off"""
    read = read_metadata(metadata(tmp_path), need_due=True)
    course = gradescope_policy(LatePolicy(penalty_per_day=10, grace_days=1), read)
    assert course.due == moment(DUE) and course.cutoff == moment("2026-12-05T23:59:00-05:00")
    late = assess(course, STUDENT, read.created_at, False, 50.0)
    assert late is not None and late.sentence == "submitted 26 h late, 1 grace day used, \u221210%"


def test_grading_toml_dates_win_over_gradescopes(tmp_path):
    """A due date and cut-off in grading.toml are the ones used"""
    read = read_metadata(metadata(tmp_path), need_due=False)
    course = gradescope_policy(policy(), read)
    assert course.due == moment(DUE) and course.cutoff == moment("2026-12-08T23:59:00-05:00")


def test_a_users_own_gradescope_extension_is_their_due_date_and_cutoff(tmp_path):
    """users[].assignment.due_date / late_due_date: the student's own dates, named an extension"""
    users = [{"email": "alice@example.edu", "id": 1, "name": "Alice",
              "assignment": {"due_date": "2026-12-03T23:59:00-05:00", "late_due_date": "2026-12-04T23:59:00-05:00"}}]
    read = read_metadata(metadata(tmp_path, users=users), need_due=True)
    course = gradescope_policy(LatePolicy(penalty_per_day=10), read)
    on_time = assess(course, STUDENT, read.created_at, False, 50.0)
    assert on_time is not None and not on_time.late and on_time.extended
    cut = assess(course, STUDENT, "2026-12-05T00:00:00-05:00", False, 50.0)
    assert cut is not None and cut.cut_off


def test_grace_ledger_and_extensions_are_found_by_the_users_email(tmp_path):
    """In Gradescope the student is known by email: the ledger's and the extensions file's ids are emails"""
    read = read_metadata(metadata(tmp_path), need_due=True)
    course = gradescope_policy(LatePolicy(penalty_per_day=10, grace_days=1, grace_used={"alice@example.edu": 1},
                                          extensions={"alice@example.edu": moment("2026-12-02T23:59:00-05:00")}),
                               read)
    late = assess(course, STUDENT, read.created_at, False, 50.0)
    assert late is not None and late.extended and late.grace_days_used == 0 and late.penalty_percent == 10


@pytest.mark.parametrize(("changes", "need_due", "message"), [
    ({"created_at": None}, True, "no created_at"),
    ({"assignment": {"late_due_date": None}}, True, "no assignment.due_date; Gradescope's metadata should have "
     "it, or set due in grading.toml's [late]"),
    ({"created_at": "yesterday"}, True, "created_at = 'yesterday' is not an ISO 8601 time with an offset"),
])
def test_gradescope_metadata_missing_a_field_is_one_line(tmp_path, changes, need_due, message):
    """A metadata file without created_at, or without the due date grading.toml does not set: one line"""
    path = metadata(tmp_path, **changes)
    with pytest.raises(LateError) as caught:
        read_metadata(path, need_due=need_due)
    assert str(caught.value) == f"{path}: {message}" or str(caught.value).startswith(f"{path}: {message}")
    assert read_metadata(metadata(tmp_path, assignment={}), need_due=False).due is None


def test_the_autograder_without_metadata_exits_2_before_grading(tmp_path, capsys):
    """run_autograder's module with [late] and no submission_metadata.json: one line, exit 2, no results.json"""
    from grader.export.autograder import main
    (tmp_path / "source").mkdir()
    settings(tmp_path / "source", "penalty_per_day = 10\n")
    (tmp_path / "submission").mkdir()
    assert main([str(tmp_path)]) == 2
    assert f"{tmp_path}/{METADATA}: missing" in capsys.readouterr().err
    assert not (tmp_path / "results").exists()


def test_lateness_round_trips_through_json():
    """to_json and from_json agree, marked-late's None hours included"""
    late = assess(policy(), "alice", "", True, 80.0)
    assert late is not None and Lateness.from_json(json.loads(json.dumps(late.to_json()))) == late


def test_the_gradescope_zip_ships_the_late_files_beside_grading_toml(tmp_path):
    """export gradescope takes the extensions file and the ledger along, by their relative names; a file
    outside grading.toml's folder has no place in the zip and is refused with one line"""
    from grader.export.classroom import ExportError
    from grader.export.gradescope import late_files
    path = settings(tmp_path, f'due = "{DUE}"\nextensions = "ext.csv"\ngrace_used = "used.csv"\n',
                    {"ext.csv": "id,until\n", "used.csv": "id,days\n"})
    assert late_files(path) == {"ext.csv": b"id,until\n", "used.csv": b"id,days\n"}
    (tmp_path / "inner").mkdir()
    inner = settings(tmp_path / "inner", f'due = "{DUE}"\nextensions = "../ext.csv"\n')
    with pytest.raises(ExportError, match="keep the file in grading.toml's folder"):
        late_files(inner)


def test_the_command_line_summary_and_junit_name_the_late_ones(tmp_path):
    """grade's summary counts the late, penalised and cut-off submissions; JUnit carries the sentence"""
    from grader.report.junit import write_junit
    cut = with_late_policy(dataclasses.replace(read_results(EXAMPLE), student="dave",
                                               submitted_at="2026-12-10T00:00:00-05:00"), policy())
    on_time = dataclasses.replace(read_results(EXAMPLE), student="alice")
    text = cli.summary([late_result(), cut, on_time], tmp_path)
    assert "2 late: 2 with a penalty, 1 after the cut-off (scored 0)" in text
    write_junit([late_result()], tmp_path / "junit.xml")
    assert 'name="late" value="submitted 26 h late, 1 grace day used, \u221210%"' in (
        tmp_path / "junit.xml").read_text(encoding="utf-8")
