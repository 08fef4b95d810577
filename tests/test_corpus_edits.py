"""The corpus written from its descriptions (tests/corpus.py): bases, files written whole, diffs, pins' update."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

import corpus as corpus_module
from corpus import DESCRIBED, EDITS, PINNED, WRITTEN, CorpusError, apply_diff, build, corpus, read_description
from grader.results import CATEGORY_TITLES, CategoryScore, GradeResult, write_results

ROOT = Path(__file__).resolve().parent.parent
CONTRACT = ("__init__.py", "cards.py", "game.py", "rules.py", "structures.py")


def test_every_pinned_submission_has_a_description_and_nothing_else_does():
    """edits/ holds one description per corpus.json entry, and written/ no folder of a submission not pinned"""
    assert sorted(path.stem for path in EDITS.glob("*.diff")) == sorted(PINNED)
    assert {path.name for path in WRITTEN.iterdir()} <= set(PINNED)


def test_each_written_submission_is_a_package_or_one_module():
    """Every generated submission holds the contract's five modules under starter/, or is one loose war.py"""
    for name in PINNED:
        folder = corpus() / name
        modules = sorted(path.name for path in (folder / "starter").glob("*.py") if path.name in CONTRACT)
        assert modules == list(CONTRACT) or sorted(path.name for path in folder.iterdir()) == ["war.py"], name


def test_perfect_is_the_wheat_with_the_rules_its_students_received():
    """perfect names the wheat as its base and no edit: its modules are grader/wheat's byte for byte"""
    assert read_description("perfect").base == "wheat" and read_description("perfect").diff == ""
    perfect = corpus() / "perfect" / "starter"
    for module in ("__init__.py", "cards.py", "game.py", "structures.py"):
        assert (perfect / module).read_bytes() == (ROOT / "grader" / "wheat" / module).read_bytes()
    assert (perfect / "rules.py").read_bytes() == (DESCRIBED / "older_starter_rules.py").read_bytes()


def test_a_cheat_is_its_honest_twin_plus_the_cheat():
    """counts_pid's description starts from its twin and only adds a test: the twin's tests stay as they were"""
    assert read_description("counts_pid").base == "counts_pid__honest"
    twin = (corpus() / "counts_pid__honest" / "starter" / "test_war.py").read_text(encoding="utf-8")
    cheat = (corpus() / "counts_pid" / "starter" / "test_war.py").read_text(encoding="utf-8")
    assert cheat.startswith(twin) and "def test_zz_counts_by_pid" in cheat[len(twin):]


def test_hand_written_packages_that_share_a_module_copy_it_from_one_another():
    """syntax_error's cards.py and structures.py are fork_bomb__honest's, written once; its game.py is its own"""
    assert {("starter/cards.py", "fork_bomb__honest"), ("starter/structures.py", "fork_bomb__honest")} <= set(
        read_description("syntax_error").copies)
    for module in ("cards.py", "structures.py"):
        assert (corpus() / "syntax_error" / "starter" / module).read_bytes() == (
            corpus() / "fork_bomb__honest" / "starter" / module).read_bytes()
    assert (WRITTEN / "syntax_error" / "starter" / "game.py").is_file()


DIFF = """--- a/game.py
+++ b/game.py
@@ -2,3 +2,3 @@
 two
-three
+THREE
 four
"""


def test_a_hunk_applies_where_its_lines_stand_even_when_the_base_moved_them():
    """A hunk applies at its line, or at the one other place its old lines stand (the base grew above it)"""
    files = {"game.py": b"one\ntwo\nthree\nfour\n"}
    apply_diff(files, DIFF, "x")
    assert files["game.py"] == b"one\ntwo\nTHREE\nfour\n"
    moved = {"game.py": b"zero\nzero\none\ntwo\nthree\nfour\n"}
    apply_diff(moved, DIFF, "x")
    assert moved["game.py"] == b"zero\nzero\none\ntwo\nTHREE\nfour\n"


def test_a_hunk_whose_lines_its_base_lacks_is_refused_by_name():
    """No fuzz: a hunk whose old lines are not in the base, or stand twice elsewhere, fails naming the place"""
    with pytest.raises(CorpusError, match=r"x\.diff: a hunk of game\.py at line 2 does not match its base"):
        apply_diff({"game.py": b"one\ntwo\n3\nfour\n"}, DIFF, "x")
    with pytest.raises(CorpusError, match="does not match"):
        apply_diff({"game.py": b"two\nthree\nfour\ntwo\nthree\nfour\n"}, DIFF, "x")
    with pytest.raises(CorpusError, match="edits game.py, which its base does not have"):
        apply_diff({}, DIFF, "x")


def test_a_base_that_leads_back_to_itself_is_refused(tmp_path, monkeypatch):
    """Two descriptions naming each other as base fail with the loop, not a RecursionError"""
    (tmp_path / "a.diff").write_text("base: b\n", encoding="utf-8")
    (tmp_path / "b.diff").write_text("base: a\n", encoding="utf-8")
    monkeypatch.setattr(corpus_module, "EDITS", tmp_path)
    with pytest.raises(CorpusError, match="a -> b -> a"):
        build("a")


def test_update_pins_rewrites_the_moved_pins_and_leaves_the_attacks_at_their_twins(tmp_path, monkeypatch):
    """WAR_GRADER_UPDATE_PINS: scores, outcomes and Part E follow a grading; an at_most_twin entry keeps its nulls"""
    pins = tmp_path / "corpus.json"
    shutil.copy(DESCRIBED / "corpus.json", pins)
    pinned = json.loads(pins.read_text(encoding="utf-8"))
    monkeypatch.setattr(corpus_module, "PINS", pins)
    monkeypatch.setattr(corpus_module, "PINNED", pinned)
    graded = tmp_path / "out"
    for name, entry in pinned.items():
        score = 12.5 if name == "perfect" else entry["score"] or 0.0
        part_e = 0.15 if name == "perfect" else entry.get("part_e") or 0.0
        categories = [CategoryScore(key, title, part_e if key == "student_tests" else 0.0, 1.0)
                      for key, title in CATEGORY_TITLES.items()]
        write_results(GradeResult(student=name, outcome=entry["outcome"], reason="", score=score, max_score=100,
                                  categories=categories, tests=[], sha256="0" * 64, grader_version="test",
                                  sandbox="plain", sandbox_warning="", graded_at="2026-12-02T00:00:00Z",
                                  execution_time=1.0), graded / name / "results.json")
    assert corpus_module.update_pins(graded) == [f"perfect: score {pinned_before('perfect')} -> 12.5",
                                                 "perfect: part_e None -> 0.15"]
    written = json.loads(pins.read_text(encoding="utf-8"))
    assert written["perfect"]["score"] == 12.5 and written["perfect"]["part_e"] == 0.15
    attack = next(name for name, entry in written.items() if entry.get("at_most_twin"))
    assert written[attack]["score"] is None and written[attack]["part_e"] is None
    assert corpus_module.update_pins(graded) == []  # a second update moves nothing


def pinned_before(name: str) -> object:
    """The score corpus.json pins for name today."""
    return json.loads((DESCRIBED / "corpus.json").read_text(encoding="utf-8"))[name]["score"]


def test_describe_turns_a_new_package_into_a_diff_and_whole_files_that_give_it_back(tmp_path, monkeypatch):
    """--describe: an edited wheat module goes in as a diff, a new module whole, and the two write the package back"""
    monkeypatch.setattr(corpus_module, "EDITS", tmp_path / "edits")
    monkeypatch.setattr(corpus_module, "WRITTEN", tmp_path / "written")
    (tmp_path / "edits").mkdir()
    package = tmp_path / "new" / "off_by_one_student"
    shutil.copytree(corpus() / "perfect", package)
    game = package / "starter" / "game.py"
    game.write_text(game.read_text(encoding="utf-8").replace("rules.face_down + 1", "rules.face_down + 2", 1),
                    encoding="utf-8")
    (package / "starter" / "_helper.py").write_text("HELP = 1\n", encoding="utf-8")
    description = corpus_module.describe(package, "wheat").read_text(encoding="utf-8")
    assert description.startswith("base: wheat\n\n--- a/starter/game.py\n")
    assert "+    cards_needed = rules.face_down + 2" in description
    whole = tmp_path / "written" / "off_by_one_student"
    assert sorted(path.name for path in whole.rglob("*") if path.is_file()) == ["_helper.py"]
    assert build("off_by_one_student") == {path.relative_to(package).as_posix(): path.read_bytes()
                                           for path in package.rglob("*") if path.is_file()}


def test_no_test_or_bench_script_reads_a_submission_under_tests_submissions():
    """Submissions are read from corpus(), never from tests/submissions/<name>, which holds only descriptions"""
    below = re.compile(r'"tests" / "submissions"(?! / "corpus\.json")'
                       r"|tests/submissions/(?!corpus\.json|README\.md|edits/|written/)\w")
    scripts = [path for folder in ("tests", "bench") for path in (ROOT / folder).rglob("*.py")
               if path.name != Path(__file__).name
               and not {"submissions", "data"} & set(path.relative_to(ROOT).parts)]
    found = [f"{path.relative_to(ROOT)}:{number}" for path in scripts
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
             if below.search(line)]
    assert len(scripts) > 50 and found == []
