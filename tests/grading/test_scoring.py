"""One scoring path: the hidden suites' tests and Part E's scenarios add up into their categories and the grand
total in grading/scoring.py, the same way."""

from __future__ import annotations

from grader.config import load_config
from grader.grading.recorded import Cause, Recorded, SeenTest
from grader.grading.scoring import GradingRun, ManifestEntry, excusals, score
from grader.results import CATEGORY_TITLES, ChaffVerdict, ScenarioScore, StudentTestsResult

MANIFEST = [
    ManifestEntry("test_forced_war.py::test_a", "A", "forced_war", 1.0),
    ManifestEntry("test_forced_war.py::test_b", "B", "forced_war", 1.0),
]


def scored(recorded: Recorded | None, student_tests: StudentTestsResult | None):
    """The GradeResult of a submission whose first forced-war test passed (the second failed)."""
    return score(student="alice", manifest=MANIFEST, config=load_config(), recorded=recorded, problem=("", ""),
                 run=GradingRun(sandbox="plain", version="0"), student_tests=student_tests)


RECORDED = Recorded(tests={"test_forced_war.py::test_a": SeenTest("passed"),
                           "test_forced_war.py::test_b": SeenTest("failed", "wrong pile")})


def test_part_e_scenarios_count_in_their_category_and_the_total_like_hidden_tests():
    """Each scenario is a row of the student_tests category; every category and the total are sums of rows."""
    config = load_config()
    share = config.points["student_tests"] / 4
    scenarios = [ScenarioScore("jokers", "Jokers", 2, 2, share, share),
                 ScenarioScore("forced_war", "Forced war", 1, 2, share / 2, share),
                 ScenarioScore("exhaustion", "Exhaustion", 0, 1, 0.0, share),
                 ScenarioScore("full_game", "Full game", 0, 1, 0.0, share)]
    part_e = StudentTestsResult("graded", chaffs=[ChaffVerdict("forced_war", "a missed bug", False, [])],
                                scenarios=scenarios)
    result = scored(RECORDED, part_e)
    rows = [test for test in result.tests if test.category == "student_tests"]
    assert [test.id for test in rows] == [f"part_e::{s.id}" for s in scenarios]
    assert [test.outcome for test in rows] == ["passed", "failed", "failed", "failed"]
    assert "Missed: a missed bug." in rows[1].sentence
    categories = {category.id: category for category in result.categories}
    assert list(categories) == list(CATEGORY_TITLES)
    assert categories["student_tests"].score == round(1.5 * share, 2)
    assert categories["student_tests"].max_score == config.points["student_tests"]
    assert categories["forced_war"].score == round(config.points["forced_war"] / 2, 2)
    assert result.score == round(sum(category.score for category in result.categories), 2)
    assert result.max_score == round(sum(config.points.values()), 2)
    assert result.student_tests is part_e


def test_without_part_e_its_category_scores_nothing_and_has_no_rows():
    """A submission whose tests were not judged (None) keeps Part E's points in the maximum and earns none."""
    result = scored(RECORDED, None)
    categories = {category.id: category for category in result.categories}
    assert categories["student_tests"].score == 0
    assert not [test for test in result.tests if test.category == "student_tests"]
    assert result.score == categories["forced_war"].score and result.student_tests is None


def test_tests_not_found_give_four_empty_scenario_rows_with_the_note():
    """No tests found: one row per scenario, each worth its share and scoring 0, saying why."""
    part_e = StudentTestsResult("no_tests", "No test files were found.")
    result = scored(RECORDED, part_e)
    rows = [test for test in result.tests if test.category == "student_tests"]
    share = round(load_config().points["student_tests"] / 4, 4)
    assert [(test.score, test.max_score, test.sentence) for test in rows] == [
        (0.0, share, "No test files were found.")] * 4


ROUND, GAME, WAR = "test_normal_rounds.py::test_r", "test_full_game.py::test_g", "test_forced_war.py::test_w"
CHAIN = [ManifestEntry(ROUND, "R", "normal_rounds", 1.0, "The winner of a round takes both cards"),
         ManifestEntry(GAME, "G", "full_game", 1.0, "A game ends with the reference's winner"),
         ManifestEntry(WAR, "W", "forced_war", 1.0, "A tie again repeats the war with the same piles")]


def test_a_failure_a_repaired_unit_explains_is_excused_while_that_units_own_test_is_charged():
    """A game failing only through play_round (a category cause) is excused, with the proof, while a Normal rounds
    test is charged; with that test passing there is nothing to follow from, and its own category never counts"""
    repaired = Cause(category="normal_rounds", repaired="play_round")
    seen = {ROUND: SeenTest("failed"), GAME: SeenTest("failed", explained_by=[repaired])}
    assert excusals(CHAIN, seen) == {GAME: (
        "follows from: The winner of a round takes both cards, charged in Normal rounds (run again with the "
        "reference's play_round in place of yours, this test passed)")}
    assert excusals(CHAIN, {**seen, ROUND: SeenTest("passed")}) == {}
    assert excusals(CHAIN, {**seen, GAME: SeenTest("failed", explained_by=[Cause(category="full_game")])}) == {}
    result = score(student="alice", manifest=CHAIN, config=load_config(), recorded=Recorded(tests=seen),
                   problem=("", ""), run=GradingRun(sandbox="plain", version="0"))
    rows = {test.id: test for test in result.tests}
    assert (rows[GAME].outcome, rows[GAME].score, rows[GAME].follows_from) == (
        "excused", rows[GAME].max_score, excusals(CHAIN, seen)[GAME])
    assert (rows[ROUND].outcome, rows[ROUND].score) == ("failed", 0.0)


def test_a_failure_a_rule_variant_explains_is_excused_only_when_the_named_test_plays_that_variant():
    """A cause naming a test and a variant holds when that test failed and the same variant reproduces it"""
    variant = Cause(test=WAR, plays="new_piles", through="game")
    game = SeenTest("failed", explained_by=[variant])
    assert excusals(CHAIN, {GAME: game, WAR: SeenTest("failed", plays=["new_piles"])}) == {GAME: (
        "follows from: A tie again repeats the war with the same piles, charged in Forced war (the reference, "
        "playing the rule your resolve_war plays, plays exactly your play_game's game on this deck, every field "
        "of GameResult and the whole history included)")}
    assert excusals(CHAIN, {GAME: game, WAR: SeenTest("failed", plays=["face_down=2"])}) == {}
    assert excusals(CHAIN, {GAME: game}) == {}


def test_a_face_down_count_relative_to_rules_is_named_across_rules():
    """A resolve_war that plays rules.face_down - 1 cards plays 2 under the default Rules and 1 under
    Rules(face_down=2): no absolute count fits both, the offset does, and the category says so; a count that is
    the same under every Rules keeps its own sentence"""
    from grader.grading import variants
    from grader.grading.scoring import category_diagnosis
    from grader.results import TestResult

    def failed(test_id: str, plays: list[variants.Variant]) -> TestResult:
        return TestResult(test_id, test_id, "forced_war", 0.0, 2.0, "failed", False, plays=tuple(v.key for v in plays),
                          diagnosis=plays[0].sentence)

    under_3 = {v.key: v for v in variants.war_variants(None)}
    under_2 = {v.key: v for v in variants.war_variants({"face_down": 2})}
    relative = [failed("a", [under_3["face_down=2"], under_3["face_down_offset=-1"]]),
                failed("b", [under_2["face_down=1"], under_2["face_down_offset=-1"]])]
    assert category_diagnosis(relative) == variants.face_down_offset(-1).sentence
    assert "1 card fewer face down" in category_diagnosis(relative)
    fixed = [failed("a", [under_3["face_down=1"], under_3["face_down_offset=-2"]]),
             failed("b", [under_2["face_down=1"], under_2["face_down_offset=-1"]])]
    assert category_diagnosis(fixed) == under_3["face_down=1"].sentence
    assert variants.sentence_of("face_down=1") == "" and variants.sentence_of("face_down_offset=x") == ""
