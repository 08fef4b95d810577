"""The rubric is fair: every chaff (a correct solution with one rule changed) loses points in its own
category and in no other, graded as one class through the real grader."""

from __future__ import annotations

import csv
import shutil
import tempfile
from pathlib import Path

import pytest

from grader.chaffs import CHAFFS, Edit, chaff_sources, wheat_sources, write_package
from grader.batch import grade, write_outputs
from grader.results import CATEGORY_TITLES, GradeResult

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "tests" / "data" / "grading-test.toml"

MODEL_TESTS = ROOT / "grader" / "part_e" / "model" / "test_war.py"
"""The instructor's thorough Part E suite: every graded package carries it, so each is a whole submission and
its one bug can be seen not to cost Part E points either."""

CLOCK_SHUFFLE = Edit("cards.py", "    rng = random.Random(seed)\n", "    rng = random.SystemRandom()\n")
"""A shuffle that draws from the operating system, not the seed: no seeding in the worker can fix it."""


@pytest.fixture(scope="module")
def graded(sandbox: str) -> dict[str, GradeResult]:
    """The wheat, every chaff and one nondeterministic variant, written as packages with the model Part E tests
    beside them, and graded as one class."""
    folder = Path(tempfile.mkdtemp(prefix="war-grader-rubric-"))
    try:
        write_package(wheat_sources(), folder / "class" / "wheat")
        for variant in CHAFFS:
            write_package(chaff_sources(variant), folder / "class" / variant.name)
        sources = wheat_sources()
        sources["cards.py"] = sources["cards.py"].replace(CLOCK_SHUFFLE.old, CLOCK_SHUFFLE.new)
        write_package(sources, folder / "class" / "shuffles_from_the_os")
        for student in (folder / "class").iterdir():
            shutil.copyfile(MODEL_TESTS, student / "test_war.py")
        results = grade(paths=[folder / "class"], out=folder / "out", jobs=2, config_path=CONFIG)
        yield {result.student: result for result in results}
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _lost(result: GradeResult) -> dict[str, float]:
    return {c.id: round(c.max_score - c.score, 2) for c in result.categories if c.score < c.max_score}


def _elsewhere(result: GradeResult, category: str) -> list[tuple[str, str, str]]:
    """The tests that cost points outside category, with their outcome and sentence: what a failure shows."""
    return [(test.id, test.outcome, test.sentence) for test in result.tests
            if test.category != category and test.score < test.max_score]


def test_the_wheat_scores_full_marks(graded):
    """The correct student-style solution loses nothing, and is not flagged"""
    wheat = graded["wheat"]
    assert (wheat.outcome, wheat.score, wheat.max_score) == ("graded", 100.0, 100.0), _lost(wheat)
    assert wheat.nondeterministic == ""


@pytest.mark.parametrize("variant", CHAFFS, ids=lambda variant: variant.name)
def test_each_chaff_loses_points_in_its_own_category_and_no_other(graded, variant):
    """A chaff's one bug costs points in the category of the rule it breaks, and nowhere else"""
    result = graded[variant.name]
    assert result.outcome == "graded", result.reason
    assert set(_lost(result)) == {variant.category}, (_lost(result), _elsewhere(result, variant.category))


@pytest.mark.parametrize("variant", CHAFFS, ids=lambda variant: variant.name)
def test_failures_outside_the_charged_category_say_what_they_follow_from(graded, variant):
    """Every test a chaff fails outside its category is excused, naming the charged rule and its category"""
    result = graded[variant.name]
    elsewhere = [test for test in result.tests if test.category != variant.category and test.outcome != "passed"]
    assert all(test.outcome == "excused" for test in elsewhere), [(t.id, t.outcome) for t in elsewhere]
    title = CATEGORY_TITLES[variant.category]
    assert all(test.follows_from.startswith("follows from: ") and f"charged in {title} (" in test.follows_from
               for test in elsewhere), [t.follows_from for t in elsewhere]


UNITS_OF = {
    "data_structures": ("Queue and Stack", "Queue.dequeue (first in, first out, on your Queue's own storage)",
                        "Stack.pop (last in, first out, on your Stack's own storage)"),
    "joker_dominance": ("card_value", "play_round", "Joker order (above every rank) in your own helper or table that orders the cards"),
    "normal_rounds": ("card_value", "play_round"),
    "forced_war": ("resolve_war",),
    "exhaustion": ("resolve_war",),
    "full_game": ("deal",),
}
"""The units whose repair may excuse a failure that follows from a bug of each category."""


@pytest.mark.parametrize("variant", CHAFFS, ids=lambda variant: variant.name)
def test_each_excuse_is_backed_by_its_counterfactual_run(graded, variant):
    """Every excused test names the run that proved it: the same check passed again with the reference's version
    of a unit of the charged category in place of the chaff's, or the reference playing the rule variant the
    chaff plays gave exactly the chaff's answer both there and in the charged test"""
    result = graded[variant.name]
    for test in result.tests:
        if test.outcome != "excused":
            continue
        repaired = [unit for unit in UNITS_OF.get(variant.category, ())
                    if f"run again with the reference's {unit} in place of yours, this test passed" in test.follows_from]
        by_variant = "playing the rule your code plays there, gives exactly your answer" in test.follows_from
        assert repaired or by_variant, (test.id, test.follows_from)
        if by_variant:
            charged = [other for other in result.tests if other.category == variant.category and other.plays
                       and other.score < other.max_score and set(other.plays) & set(test.plays)]
            assert charged, (test.id, test.plays)


def test_the_excuses_of_the_rubric_class_are_proven_not_assumed(graded):
    """A failure no counterfactual run repairs is charged where it is: the exhaustion chaff that lets a short
    player keep its cards is not excused by a face-down rule its forced-war tests never showed"""
    keeps = graded["short_player_keeps_cards"]
    assert not [test.id for test in keeps.tests if test.outcome == "excused" and test.category == "exhaustion"]
    one = graded["one_face_down"]
    assert next(c for c in one.categories if c.id == "forced_war").diagnosis == \
        "Your resolve_war plays 1 card face down per war cycle; the handout says 3."


NAMED = {
    "ace_high": ("normal_rounds", "Your code ranks the Ace (\"1\") above the King; the handout says the Ace is the "
                                  "lowest rank."),
    "jokers_compared_as_text": ("joker_dominance", "Your code orders the Joker as text: \"Jo\" sorts between J and "
                                                   "Q, so it loses to Q and K; the handout says the Joker beats every "
                                                   "rank."),
    "ten_sorted_as_text": ("normal_rounds", "Your code orders the number ranks as text, so \"10\" sorts between "
                                            "\"1\" and \"2\" and loses to \"2\" through \"9\"; the handout says "
                                            "1 < 2 < ... < 9 < 10."),
    "pile_bottom_first": ("forced_war", "Your resolve_war's winner takes each war pile from the bottom (the tied card "
                                        "first); the handout says each pile is popped from the top (the face-up card "
                                        "first)."),
    "both_short_p1_wins": ("exhaustion", "Your resolve_war lets P1 win a war both players are too short for; the "
                                         "handout says that is a draw, each player taking its own pile back."),
    "loser_card_first": ("normal_rounds", "Your play_round's winner puts the opponent's card at the back of its "
                                          "queue before its own; the handout says its own card first."),
}
"""Chaffs whose one rule is a variant of the reference's: the sentence that names it, in its own category."""


@pytest.mark.parametrize("name", sorted(NAMED))
def test_the_rule_a_chaff_plays_is_named_in_its_category_only(graded, name):
    """The Ace high, the Joker or the number ranks ordered as text, the loser's card first, a pile taken from the
    bottom and P1 winning when both are short are each named, once, above the failures of the category they cost
    points in; the wheat and the chaffs no variant fits are named nowhere"""
    category, sentence = NAMED[name]
    assert {c.id: c.diagnosis for c in graded[name].categories if c.diagnosis} == {category: sentence}
    for other in ("wheat", "joker_below_king", "short_check_at_three", "lifo_queue", "deal_by_halves"):
        assert [c.diagnosis for c in graded[other].categories if c.diagnosis] == [], other


def test_every_visible_failure_can_be_reproduced_and_hidden_ones_keep_their_inputs(graded):
    """A visible failure carries lines of Python that call the student's package; a hidden one none, but its rule"""
    failures = [test for result in graded.values() for test in result.tests if test.outcome not in ("passed",)]
    visible = [test for test in failures if not test.hidden]
    hidden = [test for test in failures if test.hidden]
    assert visible and hidden
    assert all("from starter import" in test.reproduction for test in visible), \
        [test.id for test in visible if "from starter import" not in test.reproduction]
    assert all(test.reproduction == "" and test.rule for test in hidden)
    assert all(test.rule for result in graded.values() for test in result.tests)


def test_a_shuffle_drawn_from_the_os_is_flagged_nondeterministic(graded, tmp_path):
    """Code whose answers change between two identical calls is flagged, in its result and in grades.csv, and
    loses only the seeded replay"""
    result = graded["shuffles_from_the_os"]
    assert "different answers" in result.nondeterministic
    assert set(_lost(result)) == {"extensions"}
    write_outputs([graded["wheat"], result], tmp_path)
    with (tmp_path / "grades.csv").open(encoding="utf-8") as handle:
        rows = {row["student"]: row for row in csv.DictReader(handle)}
    assert rows["wheat"]["nondeterministic"] == "" and "different answers" in rows[result.student]["nondeterministic"]


def chaff_table(graded: dict[str, GradeResult]) -> str:
    """docs/rubric.md's table: each chaff, its bug in words, its category and the points it loses there."""
    lines = ["| chaff | the bug | category | points lost |", "| --- | --- | --- | --- |"]
    for variant in CHAFFS:
        lost = _lost(graded[variant.name]).get(variant.category, 0.0)
        lines.append(f"| `{variant.name}` | {variant.misconception} | {CATEGORY_TITLES[variant.category]} | {lost:g} |")
    return "\n".join(lines)


def test_the_docs_table_is_what_the_grader_gives(graded):
    """docs/rubric.md's chaff table lists every chaff with the category and the points this run charged it"""
    page = (ROOT / "docs" / "rubric.md").read_text(encoding="utf-8")
    assert chaff_table(graded) in page, "update docs/rubric.md's chaff table with:\n" + chaff_table(graded)
