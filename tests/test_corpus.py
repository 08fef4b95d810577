"""The corpus of student-like submissions, graded through the real sandbox: exact scores, and no cheat wins."""

from __future__ import annotations

import csv
import json
import re
import shutil
from pathlib import Path

import pytest

from grader.batch import grade
from grader.results import CATEGORY_TITLES, read_results
from grader.sandbox.channel import WALL_FACTOR, WALL_SLACK
from corpus import DESCRIBED, PINNED, corpus

ROOT = Path(__file__).resolve().parent.parent
CORPUS = corpus()
EXPECTED = PINNED  # corpus.json, as WAR_GRADER_UPDATE_PINS=1 may rewrite it this session
MARKER = "WAR_CHEAT_" + "MARKER"  # spelled in two parts so this file does not carry it


@pytest.fixture
def graded(graded_corpus: Path) -> Path:
    """The whole corpus graded once a session (tests/conftest.py's graded_corpus, shared with
    tests/part_e/test_part_e_integrity.py), two at a time, under the tighter test limits."""
    return graded_corpus


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_submission_gets_its_exact_expected_score(graded, name):
    """Every corpus submission scores exactly what corpus.json records, with the recorded outcome (an attack on
    Part E, at_most_twin: at most its honest twin's score)"""
    result = read_results(graded / name / "results.json")
    entry = EXPECTED[name]
    if entry.get("at_most_twin"):  # an attack on Part E: pinned at most at its honest twin, checked below
        twin = read_results(graded / entry["honest_twin"] / "results.json")
        assert result.outcome == entry["outcome"]
        assert result.score <= twin.score, (f"{name} scored {result.score}, its honest twin {twin.score} "
                                            f"({twin.outcome}: {twin.reason})")
        return
    assert (result.score, result.outcome) == (entry["score"], entry["outcome"]), result.reason


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_flaw_costs_points_where_it_should_and_nowhere_else(graded, name):
    """Categories a flaw cannot touch are full marks; the categories it should lose are not"""
    result = read_results(graded / name / "results.json")
    if result.outcome != "graded":
        assert result.score == 0
        return
    entry = EXPECTED[name]
    for category in result.categories:
        if category.id == "student_tests":  # the student's own tests: pinned apart, by test_part_e_scores_...
            continue
        if category.id in entry["should_lose"]:
            assert category.score < category.max_score, f"{name} should lose points in {category.id}"
        elif category.id not in entry.get("may_lose", []):
            assert category.score == category.max_score, f"{name} lost points in {category.id}"


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_part_e_scores_are_pinned(graded, name):
    """Each submission's "Your tests (Part E)" score is exactly its pin (0 for one without tests); an attack on
    Part E (at_most_twin) scores at most its honest twin's"""
    part_e = _part_e(graded, name)
    if EXPECTED[name].get("at_most_twin"):  # an attack: no more than the same tests without it
        twin = EXPECTED[name]["honest_twin"]
        assert part_e <= _part_e(graded, twin), f"{name} scored {part_e} in Part E, {twin} {_part_e(graded, twin)}"
        return
    assert part_e == EXPECTED[name].get("part_e", 0)


def _part_e(graded: Path, name: str) -> float:
    """The "Your tests (Part E)" score of one graded corpus submission."""
    result = read_results(graded / name / "results.json")
    return next(category.score for category in result.categories if category.id == "student_tests")


def test_no_reference_or_wheat_source_appears_in_any_output(graded):
    """A distinctive line of reference/game.py and of a chaff is in no results.json and no report page"""
    from grader.report.html import render_student_report

    lines = ["Rules resolves the deck's usual high card", "fresh piles for the next cycle"]
    assert all(line in (ROOT / path).read_text() for line, path in zip(lines, ("reference/game.py", "grader/chaffs.py")))
    for name in EXPECTED:
        raw = (graded / name / "results.json").read_text()
        html = render_student_report(read_results(graded / name / "results.json"), view="instructor")
        assert not any(line in raw or line in html for line in lines), name


def test_no_output_holds_a_long_number_or_a_secret_source_line(graded):
    """No results.json or report.html of any corpus submission holds a run of 40 or more digits or a line of the
    reference's or a chaff's source that students do not have (tests/source_leaks.py)"""
    from source_leaks import leaks, public_text, readable, secret_lines

    texts = {f"{name}/{file}": readable(graded / name / file)
             for name in EXPECTED for file in ("results.json", "report.html")}
    assert leaks(texts, secret_lines(public_text())) == {}


@pytest.mark.parametrize("cheat", sorted(name for name, entry in EXPECTED.items() if entry["honest_twin"]))
def test_a_cheat_scores_no_more_than_the_honest_work_inside_it(graded, cheat):
    """Each cheat scores at most its twin without the cheat"""
    twin = EXPECTED[cheat]["honest_twin"]
    assert read_results(graded / cheat / "results.json").score <= read_results(graded / twin / "results.json").score


def test_no_cheat_left_a_trace_outside_its_own_results(graded):
    """No file of the project, of the suites or of another student's results carries a cheat's marker"""
    tainted = [path for folder in (ROOT / "grader", ROOT / "reference", ROOT / "starter", ROOT / "tests")
               for path in folder.rglob("*") if path.is_file() and DESCRIBED not in path.parents
               and path.suffix in (".py", ".json", ".toml", ".ini", ".pth") and MARKER in path.read_text(errors="ignore")]
    assert tainted == []
    honest = [name for name, entry in EXPECTED.items() if not entry.get("hostile")]
    for name in honest:
        assert MARKER not in (graded / name / "results.json").read_text()


def test_ungradable_submissions_say_why(graded):
    """A syntax error and an import-time crash are ungradable, each with its own sentence and place"""
    assert "SyntaxError: expected ':' (game.py, line 52)" in read_results(graded / "syntax_error" / "results.json").reason
    crash = read_results(graded / "crashes_at_import" / "results.json").reason
    assert "KeyError: 'A', at starter/cards.py line" in crash


def test_a_hanging_submission_costs_its_time_limits_and_no_more(graded):
    """The endless loop and the bombs stop after 5 timed-out calls a category, each at its own deadline (the
    floor for a call the reference answers at once), which a loaded machine may stretch on the wall clock
    to WALL_FACTOR times plus WALL_SLACK, and a restart"""
    for name in ("infinite_loop_in_war", "fork_bomb", "memory_bomb"):
        result = read_results(graded / name / "results.json")
        ran = [test for test in result.tests  # a call that already timed out is not run again: it costs nothing
               if test.outcome in ("timeout", "excused") and "not run a second time" not in test.sentence]
        deadlines = [float(match) for test in ran
                     for match in re.findall(r"did not finish within ([0-9.]+) s", test.sentence)]
        categories = [test.category for test in ran if test.outcome == "timeout" and "did not finish" in test.sentence]
        assert deadlines and all(categories.count(category) <= 5 for category in categories)
        assert result.execution_time < sum(WALL_FACTOR * deadline + WALL_SLACK + 3 for deadline in deadlines) + 15


def test_failures_come_with_a_sentence_and_the_queues_side_by_side(graded):
    """A wrong collection order is explained in words, with expected and actual queues"""
    result = read_results(graded / "collects_opponent_first" / "results.json")
    failed = [test for test in result.tests if test.outcome == "failed" and test.difference]
    assert failed and all(test.sentence and test.difference.first_difference is not None for test in failed)
    errored = read_results(graded / "no_exhaustion_check" / "results.json")
    assert any("resolve_war raised IndexError" in test.sentence for test in errored.tests)


def test_results_follow_gradescopes_schema(graded):
    """results.json has Gradescope's keys, a test entry per expected test, and our extra_data"""
    data = json.loads((graded / "perfect" / "results.json").read_text())
    assert {"score", "max_score", "execution_time", "output", "tests", "extra_data"} <= data.keys()
    assert all({"name", "score", "max_score", "status", "output", "tags", "visibility"} <= test.keys()
               for test in data["tests"])
    extra = data["extra_data"]
    assert len(extra["sha256"]) == 64 and extra["sandbox"] in ("bwrap", "unshare", "plain")
    assert extra["telemetry"]["student"] == extra["telemetry"]["reference"]
    assert any(file["percent"] > 50 for file in extra["coverage"])


def test_grades_csv_has_a_row_per_student_and_a_column_per_category(graded):
    """grades.csv: student, score, max, one column a category"""
    with (graded / "grades.csv").open() as handle:
        rows = list(csv.DictReader(handle))
    assert [row["student"] for row in rows] == sorted(EXPECTED)
    assert set(CATEGORY_TITLES) <= set(rows[0])
    perfect = next(row for row in rows if row["student"] == "tests_thorough")
    assert (perfect["score"], perfect["max"]) == ("100", "100")


UNSEEDED = ("shuffle_ignores_seed", "random_war_pickup")
"""The submissions that draw from Python's global random generator without the game's seed."""


def test_grading_three_times_gives_the_same_results(graded, tmp_path):
    """The submissions that use unseeded random, and a correct one, get the same score and the same test
    outcomes each of three gradings (the corpus's, then two more), and none is flagged nondeterministic; so does
    tests_unseeded_game, whose Part E tests play unseeded games (valid every time) beside a test of the clock
    (flagged every time)"""
    names = [*UNSEEDED, "perfect", "tests_unseeded_game"]
    first = {name: read_results(graded / name / "results.json") for name in names}
    verdicts = first["tests_unseeded_game"].student_tests
    assert verdicts is not None and verdicts.untrusted
    assert [(t.id.partition("::")[2], t.valid) for t in verdicts.tests] == [
        ("test_joker_beats_king", True), ("test_a_game_keeps_all_54_cards", True),
        ("test_a_game_counts_its_rounds_and_wars", True), ("test_a_game_starts_on_an_even_millisecond", False)]
    assert "nondeterministic" in verdicts.tests[-1].reason
    for run in range(2):
        again = grade(paths=[CORPUS / name for name in names], out=tmp_path / f"again{run}", jobs=2,
                      config_path=ROOT / "tests" / "data" / "grading-test.toml")
        for result in again:
            assert result.score == first[result.student].score, result.student
            assert [t.outcome for t in result.tests] == [t.outcome for t in first[result.student].tests]
            assert result.nondeterministic == "" == first[result.student].nondeterministic
            part_e, before = result.student_tests, first[result.student].student_tests
            assert (part_e is None) == (before is None)
            if part_e is not None and before is not None:
                assert [(t.id, t.valid, t.reason) for t in part_e.tests] == \
                    [(t.id, t.valid, t.reason) for t in before.tests]


def test_grades_csv_has_a_nondeterministic_column(graded):
    """grades.csv flags a submission whose answers changed within its run; the corpus has none"""
    with (graded / "grades.csv").open() as handle:
        rows = list(csv.DictReader(handle))
    assert all(row["nondeterministic"] == "" for row in rows)


def test_nothing_written_earns_nothing_outside_data_structures(graded):
    """An empty file, a file of one print and a package of only Queue and Stack show no rule of the game, so
    they score 0 in every category but Data structures (nothing is earned through an excuse either)"""
    for name in ("empty_file", "only_print", "only_structures"):
        result = read_results(graded / name / "results.json")
        assert [c.id for c in result.categories if c.score and c.id != "data_structures"] == [], name
        assert not [test.id for test in result.tests if test.outcome == "excused"], name
    assert next(c.score for c in read_results(graded / "only_structures" / "results.json").categories
                if c.id == "data_structures") == 8.0


DIAGNOSES = {
    "one_face_down": ("forced_war", "Your resolve_war plays 1 card face down per war cycle; the handout says 3."),
    "face_down_from_back": ("forced_war", "Your resolve_war takes the face-down cards from the back of each "
                                          "player's queue; the handout says from the front."),
    "no_jokers_chain_zero": ("joker_dominance", "Your code has no Joker: card_value(\"Jo\") raises an error; the "
                                                "handout's deck has two Jokers, \"Jo\", that beat every rank."),
    "random_war_pickup": ("forced_war", "Your resolve_war's winner shuffles the cards it wins before putting them "
                                        "at the back of its queue; the handout says its own pile first, each pile "
                                        "popped from the top."),
    "pot_lost_when_short": ("exhaustion", "Your resolve_war gives the war piles to nobody when a player is too "
                                          "short for a war; the handout says the winner takes both piles and the "
                                          "short player's cards."),
    "face_down_one_fewer": ("forced_war", "Your resolve_war plays 1 card fewer face down per war cycle than "
                                          "Rules(face_down=...) says; the handout says exactly face_down cards (3 by "
                                          "default)."),
    "joker_read_as_jack": ("joker_dominance", "Your code reads the Joker as a Jack: \"Jo\" is worth what \"J\" is, "
                                              "so it ties J (a war) and loses to Q and K; the handout says the Joker "
                                              "beats every rank."),
    "short_with_four_cards": ("exhaustion", "Your resolve_war treats a player with exactly 4 cards as too short for a "
                                            "war; the handout says 4 cards (3 down, 1 up) are enough to fight it."),
    "short_fights_with_what_it_has": ("exhaustion", "Your resolve_war lets a player too short for a war fight it "
                                                    "with the cards it has; the handout says that player loses the "
                                                    "war, and the other takes both piles and its cards."),
}


@pytest.mark.parametrize("name", sorted(DIAGNOSES))
def test_the_rule_a_war_variant_plays_is_named_above_its_failures(graded, name):
    """A category whose failures a rule variant reproduces names it in one sentence, in results.json and the
    report; a category no variant fits says nothing"""
    from markupsafe import escape

    from grader.report.html import render_student_report

    category, sentence = DIAGNOSES[name]
    result = read_results(graded / name / "results.json")
    assert {c.id: c.diagnosis for c in result.categories if c.diagnosis} == {category: sentence}
    assert f'<p class="diagnosis">{escape(sentence)}</p>' in render_student_report(result, view="student")
    for unnamed in ("joker_below_king", "perfect", "collects_opponent_first", "war_chain_not_tracked"):
        assert all(c.diagnosis == "" for c in read_results(graded / unnamed / "results.json").categories), unnamed


def test_a_program_is_told_only_what_it_plays(graded):
    """A Joker read as a Jack is never told it orders the Joker as text, in any test; an availability check off by
    one (short with 4 cards) is charged in Exhaustion alone and never told it plays another number face down"""
    jack = read_results(graded / "joker_read_as_jack" / "results.json")
    assert [test.id for test in jack.tests if "as text" in test.diagnosis] == []
    short = read_results(graded / "short_with_four_cards" / "results.json")
    assert [test.id for test in short.tests
            if "face down" in test.diagnosis or "Forced war" in test.follows_from] == []
    assert {c.id for c in short.categories if c.score < c.max_score and c.id != "student_tests"} == {"exhaustion"}


HELPER_REPAIRED = "Joker order (above every rank) in your own helper or table that orders the cards"

REPAIRED_WHERE_IT_IS = {
    "lifo_queue_read_directly": ("data_structures", "Queue.dequeue (first in, first out, on your Queue's own storage)"),
    "joker_compared_as_text_in_helper": ("joker_dominance", HELPER_REPAIRED),
    "joker_unknown_to_helper": ("joker_dominance", HELPER_REPAIRED),
}
"""Bugs no handout function's repair reaches alone (a Queue's list read by the game itself, a private helper that
orders cards), each with its own category and the smallest repair that proves its excuses (issue 27 items 2 and
8). A game whose Joker only meets a Queen or a King in a round is excused by repairing play_round, as before."""


@pytest.mark.parametrize("name", sorted(REPAIRED_WHERE_IT_IS))
def test_a_bug_no_handout_function_holds_is_repaired_where_it_is_and_charged_once(graded, name):
    """The bug costs points in its own category alone; every test it breaks elsewhere is excused by a repaired
    run, and the games no handout function's repair mends name the method or helper repaired"""
    category, words = REPAIRED_WHERE_IT_IS[name]
    result = read_results(graded / name / "results.json")
    assert {c.id for c in result.categories if c.score < c.max_score and c.id != "student_tests"} == {category}
    excused = [test for test in result.tests if test.outcome == "excused"]
    assert excused and all(test.category != category for test in excused)
    proofs = (words, "the reference's play_round in place of yours", "the reference's resolve_war in place of yours")
    assert all(any(proof in test.follows_from for proof in proofs) for test in excused), \
        [t.follows_from for t in excused]
    assert any(words in test.follows_from for test in excused if test.category in ("full_game", "extensions"))


def test_each_parametrized_case_has_a_name_of_its_own(graded):
    """No two rows of results.json share a name: a parametrized test's case is part of its name"""
    data = json.loads((graded / "perfect" / "results.json").read_text())
    names = [test["name"] for test in data["tests"]]
    assert len(names) == len(set(names)) and any(name.endswith(" [Q]") for name in names)
    from grader.report.html import render_student_report

    page = render_student_report(read_results(graded / "perfect" / "results.json"), view="instructor")
    assert "all 13 cases" in page and "both cards [" not in page  # the report still folds the cases


def test_a_war_variants_chain_is_charged_once_and_only_with_a_counter_seen_counting(graded, tmp_path):
    """one_face_down's longest_war_chain differs on the counters' deck of seed 2253 (3 cycles, 2 with face_down=1)
    only because its _War class plays 1 card down: its play_game is, field for field, the reference's game with
    face_down=1, and its counter is seen counting a chain of 3 right on a fixed deck where that game has one, so
    the failure follows from the Forced-war rule. The same student with a counter that never goes above 1 is
    charged there: repairing the face-down count alone would not make it pass."""
    result = read_results(graded / "one_face_down" / "results.json")
    chain = next(test for test in result.tests if test.id == "test_extensions.py::test_longest_war_chain[2253]")
    assert chain.outcome == "excused" and "charged in Forced war" in chain.follows_from
    assert "every field of GameResult" in chain.follows_from
    assert next(c for c in result.categories if c.id == "extensions").score == 4.0
    capped = tmp_path / "submissions" / "capped_chain"
    shutil.copytree(CORPUS / "one_face_down", capped)
    game = capped / "starter" / "game.py"
    text = game.read_text()
    assert "longest = max(longest, war.cycles)" in text
    game.write_text(text.replace("longest = max(longest, war.cycles)", "longest = max(longest, min(war.cycles, 1))"))
    [again] = grade(paths=[capped], out=tmp_path / "out", jobs=1,
                    config_path=ROOT / "tests" / "data" / "grading-test.toml")
    lost = {test.id: test.outcome for test in again.tests if test.category == "extensions" and test.score < test.max_score}
    assert lost == {"test_extensions.py::test_longest_war_chain[2253]": "failed",
                    "test_extensions.py::test_longest_war_chain[2364]": "failed"}


def test_a_joker_missing_from_an_inline_comparison_is_charged_once(graded):
    """jokerless_inline_order compares cards inline by RANKS.index in play_round and in its war, with no helper:
    its 54-card games (deck 6, the 40 deals) are excused by putting the Joker above "K" in that RANKS, its code
    otherwise its own, so the Joker is charged in Joker dominance alone; Full game charges only its own rule, the
    deck of 52 cards make_deck builds"""
    result = read_results(graded / "jokerless_inline_order" / "results.json")
    full = {test.id: test for test in result.tests if test.category == "full_game" and test.outcome != "passed"}
    charged = [test_id for test_id, test in full.items() if test.outcome != "excused"]
    assert charged == ["test_full_game.py::test_make_deck_has_54_cards"]
    by_table = [test_id for test_id, test in full.items() if HELPER_REPAIRED in test.follows_from]
    assert sorted(by_table) == ["test_full_game.py::test_a_54_card_deck_plays_to_the_reference_ending[6]",
                                "test_full_game.py::test_every_round_of_40_deals_matches_the_reference"]
    assert all("charged in Joker dominance" in test.follows_from for test in full.values() if test.outcome == "excused")


def test_a_hanging_war_is_graded_alike_whatever_order_its_tests_run_in(graded, tmp_path, monkeypatch):
    """infinite_loop_in_war graded with every hidden suite's tests in reverse order (the categories still in
    theirs): each test's outcome and score, and each category's, are those of the usual order, each excuse still
    charged in Forced war. Its chain tests try a second repair whose run hangs again; counted against the
    category's max_timeouts, those runs left none for the other tests' repaired runs when they came first
    (Extensions 0 of 4 reversed, 2.67 in the usual order)"""
    from grader.grading import runner

    usual = read_results(graded / "infinite_loop_in_war" / "results.json")
    hidden = [test.id for test in usual.tests if not test.id.startswith("part_e::")]
    usual_args = runner.suite_args
    monkeypatch.setattr(runner, "suite_args", lambda config: [*usual_args(config)[:-1], *reversed(hidden)])
    [reversed_run] = grade(paths=[CORPUS / "infinite_loop_in_war"], out=tmp_path / "out", jobs=1,
                           config_path=ROOT / "tests" / "data" / "grading-test.toml")
    ran = [test.id for test in reversed_run.tests if not test.id.startswith("part_e::")]
    assert ran != hidden and sorted(ran) == sorted(hidden)  # the tests did run in another order
    assert {t.id: (t.outcome, t.score) for t in reversed_run.tests} == {t.id: (t.outcome, t.score) for t in usual.tests}
    assert [(c.id, c.score) for c in reversed_run.categories] == [(c.id, c.score) for c in usual.categories]
    excused = [test for test in reversed_run.tests if test.outcome == "excused"]
    assert len(excused) == 8 and all("charged in Forced war" in test.follows_from for test in excused)


def test_a_missing_joker_leaves_the_counters_observed_and_unexcused(graded):
    """The counters are played on decks without Jokers (issue 27 item 4): a program without Jokers, even one whose
    cards are compared inline (jokerless_inline_order), passes every counter test outright, no excuse needed, and
    keeps all of Extensions while Joker dominance charges its Joker"""
    counters = ("test_wars_counts", "test_longest_war_chain", "test_history_records")
    for name in ("jokerless_inline_order", "joker_key_error", "joker_unknown_to_helper"):
        result = read_results(graded / name / "results.json")
        seen = [test for test in result.tests if test.category == "extensions"
                and test.id.split("::", 1)[1].startswith(counters)]
        assert len(seen) == 5 and all(test.outcome == "passed" for test in seen), name
        categories = {c.id: c for c in result.categories}
        assert categories["extensions"].score == categories["extensions"].max_score, name
        assert categories["joker_dominance"].score < categories["joker_dominance"].max_score, name
    no_chain = read_results(graded / "no_jokers_chain_zero" / "results.json")
    assert {test.id: test.outcome for test in no_chain.tests if test.category == "extensions" and test.outcome != "passed"} \
        == {"test_extensions.py::test_longest_war_chain[2253]": "failed",
            "test_extensions.py::test_longest_war_chain[2364]": "failed"}
