"""Regrade with a diff: a rerun that regrades students writes OUT/changes.csv (student, before, after,
rules_changed) for each score that moved, the index links it, a stopped run loses no change, and shards and
merge count each student once."""

from __future__ import annotations

import csv
import dataclasses
import json
import shutil
from pathlib import Path

import pytest

from grader import cli
from grader.batch import find_class, grade_into
from grader.batch.changes import HEADER, JOURNAL, Journal, changes_csv, diff, snapshot
from grader.config import load_config
from grader.report.input import try_load
from corpus import corpus

ROOT = Path(__file__).resolve().parents[2]
CORPUS = corpus()
FAST = ROOT / "tests" / "data" / "grading-test.toml"
EXAMPLES = ROOT / "tests" / "data" / "results"
JOKER_RULE = 'The Joker, "Jo", beats every rank: 1 < 2 < ... < 10 < J < Q < K < Jo'
"""The rule joker_below_king breaks (its only flaw: card_value gives the Joker 0)."""


def example(name: str):
    result, problem = try_load(EXAMPLES / name / "results.json")
    assert result is not None, problem
    return result


def changes(out: Path) -> list[dict[str, str]]:
    """OUT/changes.csv read back as a script would, its header checked."""
    with (out / "changes.csv").open(newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        assert tuple(reader.fieldnames or ()) == HEADER
        return list(reader)


def grades(out: Path) -> dict[str, str]:
    with (out / "grades.csv").open(newline="", encoding="utf-8") as handle:
        return {row["student"]: row["score"] for row in csv.DictReader(handle)}


def student(klass: Path, name: str, corpus: str) -> None:
    """klass/name holding a copy of a corpus submission (replacing what was there)."""
    shutil.rmtree(klass / name, ignore_errors=True)
    shutil.copytree(CORPUS / corpus, klass / name)


def settings(tmp_path: Path, extra: str) -> Path:
    """The fast test settings with more lines added (a changed setting makes a rerun regrade)."""
    path = tmp_path / "grading.toml"
    path.write_text(FAST.read_text(encoding="utf-8") + "\n" + extra, encoding="utf-8")
    return path


def grade(capsys, *args: str) -> str:
    """war-grader grade ... in this process; its stdout."""
    assert cli.main(["grade", *args, "--jobs", "2"]) == 0, capsys.readouterr().err
    return capsys.readouterr().out


# ---------------------------------------------------------------------------------------- the diff alone


def test_a_diff_names_each_rule_whose_outcome_changed_and_nothing_else():
    """perfect_score -> jokers_lose_to_kings: the rules that went from passing to failing, in suite order"""
    before, after = example("perfect_score"), example("jokers_lose_to_kings")
    change = diff(snapshot(before), after)
    assert change is not None and (change.before, change.after) == (before.score, after.score)
    failing = {test.rule or test.id for test in after.tests if test.outcome not in ("passed", "excused")}
    named = {line.rsplit(" (", 1)[0] for line in change.rules_changed}
    assert named == failing
    assert "The Joker beats every other card. (passed → 1 of 2 passed)" in change.rules_changed
    assert diff(snapshot(after), after) is None  # the same score is no change


def test_only_the_points_moving_leaves_rules_changed_empty():
    """A score moved by the points alone (same tests passed) is a change with no rule named"""
    result = example("perfect_score")
    before = dict(snapshot(result), score=result.score + 10)
    change = diff(before, result)
    assert change is not None and change.rules_changed == []
    rows = list(csv.reader(changes_csv([change]).splitlines()))
    assert rows == [list(HEADER), [result.student, f"{result.score + 10:g}", f"{result.score:g}", ""]]


def test_the_journal_keeps_the_first_score_before_and_the_students_not_yet_reported(tmp_path):
    """A stopped regrade resumed compares with the score before either run; a student outside the batch waits"""
    perfect, flawed = example("perfect_score"), example("jokers_lose_to_kings")
    journal = Journal(tmp_path)
    journal.record({"perfect_score": snapshot(flawed), "other": snapshot(flawed)})
    resumed = Journal(tmp_path)  # the next process reads it back
    resumed.record({"perfect_score": snapshot(perfect)})  # a second regrade's before does not replace the first
    [change] = resumed.changes([perfect])
    assert (change.before, change.after) == (flawed.score, perfect.score)
    resumed.settle([perfect])
    assert set(json.loads((tmp_path / JOURNAL).read_text())) == {"other"}
    Journal(tmp_path).settle([dataclasses.replace(flawed, student="other")])
    assert not (tmp_path / JOURNAL).exists()


# ---------------------------------------------------------------------------------------- grade twice


def test_a_regrade_writes_changes_csv_for_the_scores_that_moved_and_the_index_links_it(sandbox, tmp_path, capsys):
    """First run: no changes.csv. Rerun with bob fixed and other points: both listed with before and after, bob
    with the rule he now passes; carol (new) is not. A rerun that keeps everyone removes it."""
    klass, out = tmp_path / "class", tmp_path / "out"
    student(klass, "alice", "perfect")
    student(klass, "bob", "joker_below_king")
    first = grade(capsys, str(klass), "--out", str(out), "--config", str(FAST))
    assert not (out / "changes.csv").exists() and "changed" not in first
    assert "changes.csv" not in (out / "index.html").read_text(encoding="utf-8")
    before = grades(out)

    student(klass, "bob", "perfect")
    student(klass, "carol", "perfect")
    moved = settings(tmp_path, "[points]\nforced_war = 10\n")
    second = grade(capsys, str(klass), "--out", str(out), "--config", str(moved))
    after = grades(out)
    assert "2 scores changed: see" in second and f"{out}/changes.csv" in second
    rows = {row["student"]: row for row in changes(out)}
    assert sorted(rows) == ["alice", "bob"]  # carol was graded for the first time: not a change
    for name in ("alice", "bob"):
        assert (rows[name]["before"], rows[name]["after"]) == (before[name], after[name])
        assert before[name] != after[name]
    assert rows["alice"]["rules_changed"] == ""  # the points moved, not what passed
    assert rows["bob"]["rules_changed"].startswith(JOKER_RULE) and "(failed → passed)" in rows["bob"]["rules_changed"]
    index = (out / "index.html").read_text(encoding="utf-8")
    assert 'class="changes-link" href="./changes.csv"' in index
    assert not (out / JOURNAL).exists()

    third = grade(capsys, str(klass), "--out", str(out), "--config", str(moved))
    assert "changed" not in third and not (out / "changes.csv").exists()
    assert "changes.csv" not in (out / "index.html").read_text(encoding="utf-8")


def test_grade_json_gives_each_moved_score_its_change_and_no_other_student_one(sandbox, tmp_path, capsys):
    """--json: the students whose score moved carry "change" (before, after, rules changed) as changes.csv says;
    a student graded the same, or for the first time, carries none"""
    klass, out = tmp_path / "class", tmp_path / "out"
    student(klass, "bob", "joker_below_king")
    grade(capsys, str(klass), "--out", str(out), "--config", str(FAST))
    student(klass, "bob", "perfect")
    student(klass, "carol", "perfect")
    printed = {entry["extra_data"]["student"]: entry
               for entry in json.loads(grade(capsys, str(klass), "--out", str(out), "--config", str(FAST), "--json"))}
    row = changes(out)[0]
    assert printed["bob"]["change"]["before"] == float(row["before"]) < printed["bob"]["change"]["after"] \
        == float(row["after"]) == printed["bob"]["score"]
    assert "; ".join(printed["bob"]["change"]["rules_changed"]) == row["rules_changed"]
    assert "change" not in printed["carol"]
    again = json.loads(grade(capsys, str(klass), "--out", str(out), "--config", str(FAST), "--json"))
    assert len(again) == 2 and not any("change" in entry for entry in again)


def test_force_with_nothing_moved_writes_a_header_only_changes_csv(sandbox, tmp_path, capsys):
    """--force regrades everyone; no score moves: changes.csv holds the header alone, and the line says so"""
    klass, out = tmp_path / "class", tmp_path / "out"
    student(klass, "alice", "perfect")
    grade(capsys, str(klass), "--out", str(out), "--config", str(FAST))
    forced = grade(capsys, str(klass), "--out", str(out), "--config", str(FAST), "--force")
    assert "no score changed: 1 student regraded" in forced
    assert changes(out) == []


def test_a_regrade_stopped_half_way_loses_no_change(sandbox, tmp_path, monkeypatch):
    """The regrade is stopped after the first student is saved; the rerun reports both students' changes,
    each against the score the class had before the stopped run."""
    klass, out = tmp_path / "class", tmp_path / "out"
    student(klass, "alice", "joker_below_king")
    student(klass, "bob", "joker_below_king")
    config = load_config(FAST, environ={})
    submissions, _ = find_class([klass], out)
    grade_into(submissions, out, config, jobs=1)
    old = grades(out)

    student(klass, "alice", "perfect")
    student(klass, "bob", "perfect")
    submissions, _ = find_class([klass], out)

    def stop(result, kept):
        if not kept:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        grade_into(submissions, out, config, jobs=1, progress=stop)
    assert (out / JOURNAL).is_file() and not (out / "changes.csv").exists()
    report = grade_into(submissions, out, config, jobs=1)
    assert report.kept == 1 and report.regraded == 2
    rows = {row["student"]: row for row in changes(out)}
    assert sorted(rows) == ["alice", "bob"]
    assert all(rows[name]["before"] == old[name] != rows[name]["after"] for name in rows)
    assert all(rows[name]["rules_changed"].startswith(JOKER_RULE) for name in rows)
    assert not (out / JOURNAL).exists()


# ---------------------------------------------------------------------------------------- shards and merge


def test_shards_and_merge_count_each_change_once(sandbox, tmp_path, capsys):
    """Each shard writes its students' changes; merge into the folder of the last merge lists each student once
    (against that folder's results), and merge into a fresh folder takes the shards' rows."""
    klass = tmp_path / "class"
    names = ["ann", "ben", "cal", "dee"]
    for name in names:
        student(klass, name, "joker_below_king")
    shards = [tmp_path / f"shard-{i}" for i in (1, 2)]
    for index, shard in enumerate(shards, start=1):
        grade(capsys, str(klass), "--out", str(shard), "--config", str(FAST), "--shard", f"{index}/2")
    merged = tmp_path / "merged"
    assert cli.main(["merge", *map(str, shards), "--out", str(merged)]) == 0
    assert "changed" not in capsys.readouterr().out and not (merged / "changes.csv").exists()

    for name in names:
        student(klass, name, "perfect")
    for index, shard in enumerate(shards, start=1):
        grade(capsys, str(klass), "--out", str(shard), "--config", str(FAST), "--shard", f"{index}/2")
    per_shard = [row["student"] for shard in shards if (shard / "changes.csv").exists() for row in changes(shard)]
    assert sorted(per_shard) == names  # each student in the changes.csv of the one shard that graded it

    assert cli.main(["merge", *map(str, shards), "--out", str(merged)]) == 0
    assert "4 scores changed" in capsys.readouterr().out
    rows = changes(merged)
    assert [row["student"] for row in rows] == names  # class order, once each
    assert all(row["rules_changed"].startswith(JOKER_RULE) for row in rows)

    fresh = tmp_path / "fresh"
    assert cli.main(["merge", *map(str, shards), "--out", str(fresh)]) == 0
    capsys.readouterr()
    assert changes(fresh) == rows  # nothing lost when the merged folder is new: the shards' own rows

    again = cli.main(["merge", *map(str, shards), "--out", str(merged)])  # nothing moved since the last merge
    assert again == 0 and "no score changed: 4 students regraded" in capsys.readouterr().out
    assert changes(merged) == []
