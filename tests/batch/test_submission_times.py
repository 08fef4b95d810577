"""When was it submitted: a class of Classroom clones graded at a deadline (`grade --at`) or at each one's last
commit (`--latest`), read out of git without touching the clone; and Canvas's bulk download, whose file names
say who submitted each file and whether Canvas marked it late."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import zipfile
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from grader import cli
from grader.batch import grade_run
from grader.canvas_names import read_canvas_name
from grader.commits import choose_commits, parse_deadline
from grader.config import load_config
from grader import git_read
from grader.git_read import commit_digest
from grader.submissions import (MAX_FILE_BYTES, Submission, SubmissionError, UsageError, find_submissions, prepare,
                                submission_digest)
from corpus import corpus

ROOT = Path(__file__).resolve().parents[2]
FAST = ROOT / "tests" / "data" / "grading-test.toml"
PERFECT = corpus() / "perfect" / "starter"
CORRECT = 100 - load_config(FAST, environ={}).points["student_tests"]
"""What a correct package without Part E tests of its own scores: everything but Part E."""

DEADLINE = "2026-12-01T23:59-05:00"
BEFORE = "2026-11-30T18:00:00-05:00"
AFTER = "2026-12-02T10:00:00-05:00"
LAST = "2026-12-03T09:30:00+01:00"
CLOCK = "committer date, which the student's computer clock sets"


def git(repository: Path, *args: str, date: str = BEFORE) -> str:
    """Run git in repository as a student would, the commit dated `date` (author and committer alike)."""
    env = {"PATH": os.environ["PATH"], "HOME": str(repository), "GIT_CONFIG_NOSYSTEM": "1",
           "GIT_AUTHOR_NAME": "Student", "GIT_AUTHOR_EMAIL": "s@example.edu", "GIT_COMMITTER_NAME": "Student",
           "GIT_COMMITTER_EMAIL": "s@example.edu", "GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date}
    return subprocess.run(["git", *args], cwd=repository, env=env, check=True, capture_output=True,
                          text=True).stdout.strip()


def commit(repository: Path, subject: str, date: str) -> str:
    """Commit everything in repository's working tree at date; the commit's full hash."""
    git(repository, "add", "-A")
    git(repository, "commit", "-q", "--allow-empty", "-m", subject, date=date)
    return git(repository, "rev-parse", "HEAD")


def clone(folder: Path) -> dict[str, str]:
    """A clone whose package is correct at the commit before the deadline; the first commit after it removes the
    package (nothing to grade), the second changes only the README. The three commits' hashes by name."""
    folder.mkdir(parents=True)
    git(folder, "init", "-q", "-b", "main")
    shutil.copytree(PERFECT, folder / "starter")
    (folder / "README.md").write_text("War\n")
    hashes = {"before": commit(folder, "Finish the game", BEFORE)}
    shutil.rmtree(folder / "starter")
    hashes["after"] = commit(folder, "Start over", AFTER)
    (folder / "README.md").write_text("War, again\n")
    hashes["last"] = commit(folder, "Notes", LAST)
    return hashes


def snapshot(folder: Path) -> str:
    """A digest of every file under folder, .git included, with its mode: anything written there changes it."""
    digest = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        digest.update(str(path.relative_to(folder)).encode() + b"%o" % path.lstat().st_mode)
        if path.is_file() and not path.is_symlink():
            digest.update(path.read_bytes())
    return digest.hexdigest()


# ------------------------------------------------------------------------------------------ --at's value


def test_a_deadline_needs_a_date_a_time_and_an_offset():
    """--at reads ISO 8601 with an offset (or Z); a date alone, a time without offset or nonsense is refused"""
    assert parse_deadline(DEADLINE) == datetime(2026, 12, 1, 23, 59, tzinfo=timezone(timedelta(hours=-5)))
    assert parse_deadline("2026-12-02T04:59Z") == parse_deadline(DEADLINE)
    for text, why in (("2026-12-01T23:59", "no offset"), ("2026-12-01", "without a time"),
                      ("tomorrow", "not a date"), ("2026-13-01T23:59-05:00", "not a date")):
        with pytest.raises(UsageError, match=why):
            parse_deadline(text)


@pytest.mark.parametrize("options", [["--at", "2026-12-01T23:59"], ["--at", "12/01/2026 11:59 PM"],
                                     ["--at", DEADLINE, "--latest"]])
def test_bad_submission_time_options_are_one_line_and_exit_2(tmp_path, capsys, options):
    """A deadline without an offset, a malformed one, or --at with --latest: one line on stderr, status 2,
    nothing written"""
    clone(tmp_path / "class" / "alice")
    status = cli.main(["grade", str(tmp_path / "class"), "--out", str(tmp_path / "out"), *options])
    error = capsys.readouterr().err
    assert status == 2 and error.count("\n") == 1 and error.startswith("war-grader: ")
    assert not (tmp_path / "out").exists()


# ------------------------------------------------------------------------------------------ choosing a commit


def test_at_chooses_the_last_commit_at_or_before_the_deadline_and_lists_the_later_ones(tmp_path):
    """The commit graded is the last by committer date at or before the deadline; the provenance names it (short
    hash, date, subject), says the student's clock set that date, and counts the later commits and the latest's
    date; submitted_at is its committer date"""
    hashes = clone(tmp_path / "alice")
    [alice], notes = choose_commits([Submission("alice", tmp_path / "alice")], at=parse_deadline(DEADLINE))
    assert notes == []
    assert alice.commit == hashes["before"] and alice.submitted_at == BEFORE and not alice.problem
    assert alice.provenance == (f'Graded commit {hashes["before"][:7]} of {BEFORE} ("Finish the game"), its last '
                                f"at or before the deadline 2026-12-01T23:59:00-05:00 by its {CLOCK}; 2 later "
                                f"commits not graded, the latest of {LAST}.")


def test_a_commit_at_the_deadline_itself_is_on_time(tmp_path):
    """At or before: a commit dated the deadline's very second is graded, with no later commit"""
    (tmp_path / "ann").mkdir()
    git(tmp_path / "ann", "init", "-q")
    on_time = commit(tmp_path / "ann", "Just in time", "2026-12-02T04:59:00+00:00")
    [ann], _ = choose_commits([Submission("ann", tmp_path / "ann")], at=parse_deadline(DEADLINE))
    assert ann.commit == on_time and ann.provenance.endswith("; no later commit.")


def test_latest_grades_the_last_commit_and_its_date_is_the_submission_time(tmp_path):
    """--latest: HEAD, its committer date as submitted_at (so the late policy applies), the clock named"""
    hashes = clone(tmp_path / "alice")
    [alice], _ = choose_commits([Submission("alice", tmp_path / "alice")], latest=True)
    assert alice.commit == hashes["last"] and alice.submitted_at == LAST
    assert alice.provenance == f'Graded its last commit, {hashes["last"][:7]} of {LAST} ("Notes"); the time it ' \
                               f"was submitted is its {CLOCK}."


def test_a_clone_with_nothing_before_the_deadline_or_no_commit_is_listed_ungradable(tmp_path):
    """Every commit after the deadline: "no submission before the deadline"; an empty repository: no commit.
    Both stay in the class, ungradable with one sentence, before any sandbox runs"""
    (tmp_path / "late").mkdir()
    git(tmp_path / "late", "init", "-q")
    (tmp_path / "late" / "war.py").write_text("X = 1\n")
    commit(tmp_path / "late", "Too late", AFTER)
    (tmp_path / "empty").mkdir()
    git(tmp_path / "empty", "init", "-q")
    late, empty = choose_commits([Submission("late", tmp_path / "late"), Submission("empty", tmp_path / "empty")],
                                 at=parse_deadline(DEADLINE))[0]
    assert late.problem.startswith("no submission before the deadline: its one commit is dated after 2026-12-01T23:59")
    assert not late.commit and not late.submitted_at and "1 later commit not graded" in late.provenance
    assert empty.problem == "no submission: the repository has no commit"
    for submission in (late, empty):
        with pytest.raises(SubmissionError, match="no submission"):
            prepare(submission, tmp_path / "work" / submission.student)


def test_a_folder_that_is_not_a_clone_is_graded_as_it_stands_with_a_line_saying_so(tmp_path):
    """Under --at a plain folder (or a .git that is a link or a file) has no time: a line for the instructor,
    a provenance for the report, its files graded, no commit and no submitted_at"""
    shutil.copytree(PERFECT, tmp_path / "plain" / "starter")
    (tmp_path / "linked").mkdir()
    (tmp_path / "linked" / ".git").symlink_to(tmp_path / "plain")
    found, notes = choose_commits([Submission("plain", tmp_path / "plain"), Submission("linked", tmp_path / "linked")],
                                  at=parse_deadline(DEADLINE))
    assert len(notes) == 2 and "plain: not a git repository, so --at cannot tell" in notes[0]
    for submission in found:
        assert not submission.commit and not submission.submitted_at and not submission.problem
        assert submission.provenance.startswith("Not a git repository: graded as its files stand")


def test_without_at_or_latest_nothing_changes(tmp_path):
    """No option: the working tree, as before, with no provenance"""
    clone(tmp_path / "alice")
    submissions = [Submission("alice", tmp_path / "alice")]
    assert choose_commits(submissions) == (submissions, [])


# ------------------------------------------------------------------------------------------ reading the commit


def test_the_chosen_commits_files_are_graded_and_the_clone_is_untouched(tmp_path):
    """prepare writes the chosen commit's files, not the working tree's, into its own folder; nothing in the
    clone (its .git included) changes"""
    hashes = clone(tmp_path / "alice")
    (tmp_path / "alice" / "starter").mkdir()
    (tmp_path / "alice" / "starter" / "__init__.py").write_text("WORKING_TREE = 1\n")  # uncommitted
    before = snapshot(tmp_path / "alice")
    [alice], _ = choose_commits([Submission("alice", tmp_path / "alice")], at=parse_deadline(DEADLINE))
    copy = prepare(alice, tmp_path / "work")
    assert sorted(copy.files) == sorted(f"starter/{p.name}" for p in PERFECT.glob("*.py"))
    assert (copy.root / "starter" / "game.py").read_bytes() == (PERFECT / "game.py").read_bytes()
    assert snapshot(tmp_path / "alice") == before
    assert not str(copy.root).startswith(str(tmp_path / "alice"))
    [last], _ = choose_commits([Submission("alice", tmp_path / "alice")], latest=True)
    assert last.commit == hashes["last"]
    with pytest.raises(SubmissionError, match="no package found"):
        prepare(last, tmp_path / "work-latest")  # the last commit has no package: not the working tree's


def test_a_hostile_clone_runs_nothing_and_another_users_clone_is_read(tmp_path):
    """Hooks, a smudge filter and an fsmonitor in the clone's own config never run; a clone owned by another user
    (git's "dubious ownership") is still read; links are never followed"""
    hashes = clone(tmp_path / "mallory")
    repository = tmp_path / "mallory"
    (repository / ".gitattributes").write_text("* filter=evil\n")
    shutil.copytree(PERFECT, repository / "starter")
    (repository / "starter" / "secret.py").symlink_to("/etc/passwd")
    (repository / ".hidden").mkdir()
    (repository / ".hidden" / "big.py").write_text("X = 1\n")
    evil = commit(repository, "Evil", BEFORE)
    marker = tmp_path / "ran"
    script = tmp_path / "evil.sh"
    script.write_text(f"#!/bin/sh\necho ran >> {marker}\ncat\n")
    script.chmod(0o755)
    for hook in ("post-checkout", "pre-commit", "reference-transaction", "post-index-change"):
        shutil.copy(script, repository / ".git" / "hooks" / hook)
    git(repository, "config", "filter.evil.smudge", str(script))
    git(repository, "config", "core.fsmonitor", str(script))
    git(repository, "config", "log.showSignature", "true")
    git(repository, "config", "gpg.program", str(script))
    os.chown(repository, 4321, 4321)
    for path in repository.rglob("*"):
        os.lchown(path, 4321, 4321)
    before = snapshot(repository)
    [mallory], _ = choose_commits([Submission("mallory", repository)], at=parse_deadline(DEADLINE))
    assert mallory.commit == evil != hashes["before"]
    copy = prepare(mallory, tmp_path / "work")
    assert (copy.root / "starter" / "game.py").read_bytes() == (PERFECT / "game.py").read_bytes()
    assert "starter/secret.py" not in copy.files and not (tmp_path / "work" / "checkout" / ".hidden").exists()
    assert not marker.exists() and snapshot(repository) == before


@pytest.mark.parametrize("tree, why", [("120000 blob {link}\tx.py\n100644 blob {code}\tx.py\n", "cannot be written out"),
                                       ("100644 blob {code}\t..\n", "unsafe path"),
                                       ("100644 blob {code}\t.git\n", "unsafe path")])
def test_a_crafted_tree_writes_nothing_outside_its_folder(tmp_path, tree, why):
    """A tree git itself would never write (a name twice, first as a link; "..", ".git") is refused: the student
    is ungradable and nothing is written through the link or beside the checkout"""
    repository = tmp_path / "mallory"
    repository.mkdir()
    git(repository, "init", "-q")
    target = tmp_path / "outside.py"
    code = subprocess.run(["git", "hash-object", "-w", "--stdin"], cwd=repository, input="X = 1\n",
                          capture_output=True, text=True, check=True).stdout.strip()
    link = subprocess.run(["git", "hash-object", "-w", "--stdin"], cwd=repository, input=str(target),
                          capture_output=True, text=True, check=True).stdout.strip()
    made = subprocess.run(["git", "mktree"], cwd=repository, input=tree.format(link=link, code=code),
                          capture_output=True, text=True, check=True).stdout.strip()
    crafted = git(repository, "commit-tree", made, "-m", "Crafted")
    with pytest.raises(SubmissionError, match=why):
        prepare(Submission("mallory", repository, commit=crafted), tmp_path / "work")
    assert not target.exists() and {p.name for p in tmp_path.iterdir()} <= {"mallory", "work"}


def test_a_commit_beyond_the_limits_is_ungradable_with_a_sentence(tmp_path, monkeypatch):
    """Too many files or too many bytes of Python in the commit: the student is ungradable, nothing written out
    beyond the limit; a .py file too large to copy is refused as in a folder"""
    hashes = clone(tmp_path / "alice")
    alice = Submission("alice", tmp_path / "alice", commit=hashes["before"])
    monkeypatch.setattr(git_read, "MAX_ENTRIES", 3)
    with pytest.raises(SubmissionError, match="more than 3 files"):
        prepare(alice, tmp_path / "many")
    monkeypatch.setattr(git_read, "MAX_ENTRIES", 100)
    monkeypatch.setattr(git_read, "MAX_PY_BYTES", 1000)
    with pytest.raises(SubmissionError, match=r"\.py files hold more than"):
        prepare(alice, tmp_path / "bytes")
    monkeypatch.setattr(git_read, "MAX_PY_BYTES", 64 * 2**20)
    (tmp_path / "alice" / "starter").mkdir()
    (tmp_path / "alice" / "starter" / "__init__.py").write_text("#" * (MAX_FILE_BYTES + 1))
    huge = commit(tmp_path / "alice", "Huge", LAST)
    with pytest.raises(SubmissionError, match="larger than 1024 KiB"):
        prepare(Submission("alice", tmp_path / "alice", commit=huge), tmp_path / "huge")


def test_a_result_graded_at_one_commit_is_never_kept_for_another(tmp_path):
    """The digest a result is kept by is the commit's, so two commits with the same files differ; a plain folder
    keeps its file hash"""
    (tmp_path / "ann").mkdir()
    git(tmp_path / "ann", "init", "-q")
    (tmp_path / "ann" / "war.py").write_text("X = 1\n")
    first = commit(tmp_path / "ann", "One", BEFORE)
    second = commit(tmp_path / "ann", "Same files", AFTER)
    at_first = Submission("ann", tmp_path / "ann", commit=first)
    at_second = Submission("ann", tmp_path / "ann", commit=second)
    assert submission_digest(at_first) == commit_digest(first) != submission_digest(at_second)
    assert submission_digest(Submission("ann", tmp_path / "ann")) not in (commit_digest(first), commit_digest(second))


# ------------------------------------------------------------------------------------------ Canvas


def test_canvas_names_give_the_student_and_the_late_mark():
    """Canvas's download names: the name part is the student with or without _LATE_, which marks it late"""
    late = read_canvas_name("smithjohn_LATE_123456_7890123_war.zip")
    on_time = read_canvas_name("smithjohn_123456_7890123_war-1.zip")
    assert late is not None and on_time is not None
    assert (late.student, late.late, late.uploaded) == ("smithjohn", True, "war.zip")
    assert (on_time.student, on_time.late, on_time.uploaded) == ("smithjohn", False, "war-1.zip")
    for other in ("smith_john.zip", "alice", "smithjohn_LATE_war.zip", "smithjohn_12a_345_war.zip", "lab_2_3"):
        assert read_canvas_name(other) is None


def test_a_canvas_download_is_read_and_other_names_are_unchanged(tmp_path):
    """A folder of Canvas files: each student named by the name part, marked late where _LATE_ says so, with a
    provenance; a folder where one name is not Canvas's keeps every name as it is"""
    canvas = tmp_path / "canvas"
    canvas.mkdir()
    for name in ("smithjohn_LATE_123456_7890123_war.zip", "doejane_123457_7890124_war.zip",
                 "leeann_123458_7890125_war.py"):
        (canvas / name).write_bytes(b"")
    found = {s.student: s for s in find_submissions([canvas]).submissions}
    assert sorted(found) == ["doejane", "leeann", "smithjohn"]
    assert found["smithjohn"].marked_late and not found["doejane"].marked_late
    assert found["smithjohn"].provenance == ("From Canvas's bulk download (smithjohn_LATE_123456_7890123_war.zip): "
                                             "Canvas marked it late, without saying when it came.")
    assert found["doejane"].provenance.endswith("Canvas did not mark it late.")
    assert all(not s.submitted_at for s in found.values())
    (canvas / "alice.zip").write_bytes(b"")
    mixed = find_submissions([canvas]).submissions
    assert [s.student for s in mixed] == ["alice", "doejane_123457_7890124_war", "leeann_123458_7890125_war",
                                          "smithjohn_LATE_123456_7890123_war"]
    assert not any(s.marked_late or s.provenance for s in mixed)
    [single] = find_submissions([canvas / "smithjohn_LATE_123456_7890123_war.zip"]).submissions
    assert single.student == "smithjohn" and single.marked_late


def test_a_canvas_download_flows_into_results_json(sandbox, tmp_path):
    """marked_late and the provenance reach results.json and the report (zips with no package: no sandbox run)"""
    canvas = tmp_path / "canvas"
    canvas.mkdir()
    for name in ("smithjohn_LATE_123456_7890123_war.zip", "doejane_123457_7890124_war.zip"):
        with zipfile.ZipFile(canvas / name, "w") as bundle:
            bundle.writestr("notes.txt", "no code\n")
    out = tmp_path / "out"
    assert cli.main(["grade", str(canvas), "--out", str(out), "--config", str(FAST), "--json"]) == 0
    late = json.loads((out / "smithjohn" / "results.json").read_text())["extra_data"]
    assert late["marked_late"] is True and "Canvas marked it late" in late["provenance"]
    assert json.loads((out / "doejane" / "results.json").read_text())["extra_data"]["marked_late"] is False
    assert "Canvas marked it late" in (out / "smithjohn" / "report.html").read_text()


# ------------------------------------------------------------------------------------------ a class, graded


def test_a_class_of_clones_graded_at_the_deadline_then_at_the_latest(sandbox, tmp_path, capsys):
    """--at grades alice's commit before the deadline (the later one that removes her package is not graded),
    lists bob (every commit late) as no submission and carol (not a clone) as graded as it stands; the report
    shows the provenance and the time. The same --at again keeps every result; --latest regrades alice at her
    last commit instead of keeping the result graded at another"""
    klass, out = tmp_path / "class", tmp_path / "out"
    hashes = clone(klass / "alice")
    (klass / "bob").mkdir(parents=True)
    git(klass / "bob", "init", "-q")
    (klass / "bob" / "notes.txt").write_text("no code yet\n")
    commit(klass / "bob", "Late", AFTER)
    (klass / "carol").mkdir()
    (klass / "carol" / "notes.txt").write_text("no code\n")

    grade = ["grade", str(klass), "--out", str(out), "--config", str(FAST), "--jobs", "2"]
    assert cli.main([*grade, "--at", DEADLINE]) == 0
    error = capsys.readouterr().err
    assert f"war-grader: {klass / 'carol'}: not a git repository, so --at cannot tell" in error
    results = {name: json.loads((out / name / "results.json").read_text()) for name in ("alice", "bob", "carol")}
    alice = results["alice"]["extra_data"]
    assert results["alice"]["score"] == CORRECT and alice["outcome"] == "graded"
    assert alice["submitted_at"] == BEFORE and hashes["before"][:7] in alice["provenance"]
    assert "2 later commits not graded" in alice["provenance"]
    assert results["bob"]["extra_data"]["outcome"] == "ungradable"
    assert results["bob"]["extra_data"]["reason"].startswith("no submission before the deadline")
    assert results["carol"]["extra_data"]["provenance"].startswith("Not a git repository")
    assert results["carol"]["extra_data"]["reason"].startswith("no package found")  # its files, as they stand
    page = (out / "alice" / "report.html").read_text()
    assert hashes["before"][:7] in page and "the student&#39;s computer clock sets" in page
    assert page.count("<dt>Submitted</dt>") == 1 and "2026-11-30 18:00 (UTC-05:00)" in page

    again = grade_run(paths=[klass], out=out, jobs=2, config_path=FAST, at=parse_deadline(DEADLINE))
    assert again.kept == 3

    latest = grade_run(paths=[klass], out=out, jobs=2, config_path=FAST, latest=True)
    assert latest.kept == 1  # carol only: alice's result was graded at another commit, bob's had none
    by_name = {result.student: result for result in latest.results}
    assert by_name["alice"].outcome == "ungradable" and "no package found" in by_name["alice"].reason
    assert by_name["alice"].submitted_at == LAST and hashes["last"][:7] in by_name["alice"].provenance
    assert by_name["bob"].reason.startswith("no package found") and by_name["bob"].submitted_at == AFTER


def test_at_grades_a_student_with_an_extension_at_their_own_due_date(sandbox, tmp_path):
    """--at the class's due date picks, for a student whose extension runs to 12-03, the last commit by 12-03
    (moved by the extension, as the cut-off is): dave's work of 12-02 is graded on time, and its provenance says
    the deadline was moved; erin, without an extension, is graded at the class's due date as before"""
    klass, out = tmp_path / "class", tmp_path / "out"
    for name in ("dave", "erin"):
        (klass / name).mkdir(parents=True)
        git(klass / name, "init", "-q", "-b", "main")
        (klass / name / "README.md").write_text("War\n")
        commit(klass / name, "Template", "2026-11-20T09:00:00-05:00")
        shutil.copytree(PERFECT, klass / name / "starter")
        commit(klass / name, "Finish the game", AFTER)
    (tmp_path / "extensions.csv").write_text("id,until\ndave,2026-12-03T23:59-05:00\n")
    settings = tmp_path / "grading.toml"
    settings.write_text(FAST.read_text() + f'\n[late]\ndue = "{DEADLINE}"\npenalty_per_day = 10\n'
                        f'extensions = "extensions.csv"\n')
    report = grade_run(paths=[klass], out=out, jobs=2, config_path=settings, at=parse_deadline(DEADLINE))
    by_name = {result.student: result for result in report.results}
    dave, erin = by_name["dave"], by_name["erin"]
    assert dave.outcome == "graded" and dave.score == CORRECT and dave.submitted_at == AFTER
    assert "moved by your extension" in dave.provenance and "2026-12-03T23:59:00-05:00" in dave.provenance
    assert dave.late is not None and not dave.late.late and dave.late.extended
    assert erin.outcome == "ungradable" and erin.reason.startswith("no package found")


def test_at_applies_an_extension_keyed_by_the_rosters_id_to_a_clone(sandbox, tmp_path):
    """Issue 28 items 1 and 2 together, as the README's walk writes them: extensions.csv names the student by the
    roster's id, the class is clones named war-<login>; with [late] roster the extension reaches war-dpark, whose
    work of 12-02 is graded on time at --at the class's due date"""
    klass, out = tmp_path / "class", tmp_path / "out"
    folder = klass / "war-dpark"
    folder.mkdir(parents=True)
    git(folder, "init", "-q", "-b", "main")
    (folder / "README.md").write_text("War\n")
    commit(folder, "Template", "2026-11-20T09:00:00-05:00")
    shutil.copytree(PERFECT, folder / "starter")
    commit(folder, "Finish the game", AFTER)
    (tmp_path / "extensions.csv").write_text("id,until\n1004,2026-12-03T23:59-05:00\n")
    (tmp_path / "roster.csv").write_text("id,name,email,github,section\n1004,Dana Park,dpark@uni.edu,dpark,L01\n")
    settings = tmp_path / "grading.toml"
    settings.write_text(FAST.read_text() + f'\n[late]\ndue = "{DEADLINE}"\npenalty_per_day = 10\n'
                        'extensions = "extensions.csv"\nroster = "roster.csv"\n')
    [dana] = grade_run(paths=[klass], out=out, jobs=1, config_path=settings, at=parse_deadline(DEADLINE)).results
    assert dana.outcome == "graded" and dana.score == CORRECT and dana.submitted_at == AFTER
    assert dana.late is not None and dana.late.extended and not dana.late.late
