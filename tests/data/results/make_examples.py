"""Build the example results the report tests render, and write them here as <student>/results.json.

Run `.venv/bin/python tests/data/results/make_examples.py` after a change to grader/results.py; the report tests
check that the committed files are exactly what this script writes, so they always match the schema.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from grader.results import (
    CATEGORY_TITLES,
    CategoryScore,
    CoveredFile,
    Difference,
    ExceptionInfo,
    GradeResult,
    Telemetry,
    TestResult,
    write_results,
)
from reference import Queue, Rules, make_deck, play_game, play_round, resolve_war, shuffle

INJECTION = '<script>alert(1)</script>"><img src=x onerror=alert(2)>'
"""Markup a student could put anywhere: in their name, output, exception messages and code."""

SUITE: list[tuple[str, str, str, float, bool]] = [
    (
        "test_structures.py::test_queue_is_fifo",
        "Queue: items leave in the order they arrived",
        "data_structures",
        2,
        False,
    ),
    (
        "test_structures.py::test_stack_is_lifo",
        "Stack: the last item pushed is popped first",
        "data_structures",
        2,
        False,
    ),
    (
        "test_structures.py::test_dequeue_empty_raises",
        "Queue: dequeue on an empty queue raises IndexError",
        "data_structures",
        2,
        False,
    ),
    (
        "test_structures.py::test_peek_does_not_remove",
        "Queue and Stack: peek leaves the item in place",
        "data_structures",
        2,
        False,
    ),
    (
        "test_structures.py::test_size_and_is_empty",
        "Queue and Stack: size and is_empty agree",
        "data_structures",
        2,
        False,
    ),
    ("test_joker.py::test_joker_beats_king", "Joker beats King", "joker_dominance", 2, False),
    ("test_joker.py::test_joker_beats_every_rank", "Joker beats every rank from 1 to K", "joker_dominance", 2, False),
    ("test_joker.py::test_joker_vs_joker_is_war", "Joker against Joker starts a war", "joker_dominance", 2, False),
    (
        "test_joker.py::test_joker_face_up_in_war",
        "Secret: a Joker turned face up wins the war",
        "joker_dominance",
        2,
        True,
    ),
    (
        "test_rounds.py::test_winner_enqueues_own_card_first",
        "The round's winner enqueues its own card first",
        "normal_rounds",
        3,
        False,
    ),
    ("test_rounds.py::test_tie_returns_war_tuple", 'A tie returns ("war", c1, c2)', "normal_rounds", 3, False),
    (
        "test_rounds.py::test_empty_queue_wins_for_other",
        "An empty queue means the other player has won",
        "normal_rounds",
        2,
        False,
    ),
    (
        "test_rounds.py::test_ten_beats_nine",
        "Secret: 10 beats 9 (ranks are not compared as text)",
        "normal_rounds",
        2,
        True,
    ),
    (
        "test_forced_war.py::test_three_down_one_up",
        "A war places three cards face down and one face up",
        "forced_war",
        4,
        False,
    ),
    (
        "test_forced_war.py::test_winner_collects_own_pile_first",
        "The war's winner collects its own pile first",
        "forced_war",
        4,
        False,
    ),
    (
        "test_forced_war.py::test_double_war_uses_same_piles",
        "Secret: a second war adds to the same piles",
        "forced_war",
        3,
        True,
    ),
    (
        "test_forced_war.py::test_war_piles_are_stacks",
        "Secret: war piles are returned top card first",
        "forced_war",
        3,
        True,
    ),
    (
        "test_exhaustion.py::test_short_player_loses_game",
        "A player without four cards loses the war",
        "exhaustion",
        3,
        False,
    ),
    (
        "test_exhaustion.py::test_winner_collects_piles_when_opponent_short",
        "The winner collects both piles when the opponent runs short",
        "exhaustion",
        3,
        False,
    ),
    ("test_exhaustion.py::test_both_short_is_draw", "Secret: both players short ends in a draw", "exhaustion", 2, True),
    (
        "test_full_game.py::test_game_ends_by_win_or_limit",
        "A 54-card game ends by a win or at the round limit",
        "full_game",
        4,
        False,
    ),
    ("test_full_game.py::test_cards_are_conserved", "No card is lost or copied during a game", "full_game", 3, False),
    (
        "test_full_game.py::test_seeded_game_matches_reference",
        "Secret: a seeded game matches the reference",
        "full_game",
        3,
        True,
    ),
    ("test_extensions.py::test_wars_are_counted", "GameResult.wars counts the rounds that went to war", "extensions", 2,
     False),
    ("part_e::jokers", "Your tests: Joker dominance with mini-decks", "student_tests", 5, False),
]
"""The hidden suites' tests: node id, title, category, points, hidden from students (and one Part E scenario)."""

RULES: dict[str, str] = {
    "test_structures.py::test_queue_is_fifo": "A Queue gives its items back first in, first out.",
    "test_structures.py::test_stack_is_lifo": "A Stack gives its items back last in, first out.",
    "test_structures.py::test_dequeue_empty_raises": "dequeue and pop on an empty structure raise IndexError.",
    "test_joker.py::test_joker_beats_king": "The Joker beats every other card.",
    "test_joker.py::test_joker_beats_every_rank": "The Joker beats every other card.",
    "test_joker.py::test_joker_face_up_in_war": "A Joker turned face up in a war beats every other card.",
    "test_rounds.py::test_winner_enqueues_own_card_first": "A round's winner enqueues its own card, then the other.",
    "test_rounds.py::test_ten_beats_nine": "Cards compare by rank, never as text: 10 beats 9.",
    "test_forced_war.py::test_three_down_one_up": "A war cycle takes 3 cards face down and 1 face up from each queue.",
    "test_forced_war.py::test_winner_collects_own_pile_first": "The winner of a war collects its own pile first.",
    "test_forced_war.py::test_double_war_uses_same_piles": "A face-up tie fights another cycle on the same piles.",
    "test_forced_war.py::test_war_piles_are_stacks": "War piles are popped top first.",
    "test_exhaustion.py::test_short_player_loses_game": "A player short of cards in a war loses it and the game.",
    "test_exhaustion.py::test_both_short_is_draw": "Both players short in a war is a draw.",
    "test_full_game.py::test_seeded_game_matches_reference": "A seeded game is played round for round as the rules say.",
}
"""The handout rule each test checks, for the examples that fill TestResult.rule (not every test has one)."""

STRUCTURES = '''"""Queue and Stack for the War project."""


class Queue:
    """First in, first out."""

    def __init__(self):
        self._items = []

    def enqueue(self, item):
        self._items.append(item)

    def dequeue(self):
        if not self._items:
            return None
        return self._items.pop(0)

    def peek(self):
        return self._items[0]

    def is_empty(self):
        return len(self._items) == 0

    def size(self):
        return len(self._items)


class Stack:
    """Last in, first out."""

    def __init__(self):
        self._items = []

    def push(self, item):
        self._items.append(item)

    def pop(self):
        return self._items.pop()

    def peek(self):
        return self._items[-1]

    def is_empty(self):
        return not self._items

    def size(self):
        return len(self._items)
'''

WAR = '''"""War: rounds, wars and a whole game."""

import random

from structures import Queue, Stack

RANKS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "Jo"]


def value(card):
    return RANKS.index(card)


def play_round(p1, p2):
    if p1.is_empty() or p2.is_empty():
        if p1.is_empty() and p2.is_empty():
            return "draw"
        return "P2" if p1.is_empty() else "P1"
    c1 = p1.dequeue()
    c2 = p2.dequeue()
    if value(c1) > value(c2):
        p1.enqueue(c1)
        p1.enqueue(c2)
        return "P1"
    if value(c2) > value(c1):
        p2.enqueue(c2)
        p2.enqueue(c1)
        return "P2"
    return ("war", c1, c2)


def collect(winner, mine, theirs):
    # collect the piles (opponent's first)
    while not theirs.is_empty():
        winner.enqueue(theirs.pop())
    while not mine.is_empty():
        winner.enqueue(mine.pop())


def resolve_war(p1, p2, c1, c2):
    pile1, pile2 = Stack(), Stack()
    pile1.push(c1)
    pile2.push(c2)
    while True:
        for _ in range(3):
            pile1.push(p1.dequeue())
            pile2.push(p2.dequeue())
        pile1.push(p1.dequeue())
        pile2.push(p2.dequeue())
        if value(pile1.peek()) > value(pile2.peek()):
            collect(p1, pile1, pile2)
            return "P1"
        if value(pile2.peek()) > value(pile1.peek()):
            collect(p2, pile2, pile1)
            return "P2"
        print("war again!")


def play_game(max_rounds=1000, seed=None):
    deck = [rank for rank in RANKS[:-1] for _ in range(4)] + ["Jo", "Jo"]
    random.Random(seed).shuffle(deck)
    p1, p2 = Queue(), Queue()
    for index, card in enumerate(deck):
        (p1 if index % 2 == 0 else p2).enqueue(card)
    rounds = 0
    while not p1.is_empty() and not p2.is_empty() and rounds < max_rounds:
        rounds += 1
        outcome = play_round(p1, p2)
        if isinstance(outcome, tuple):
            resolve_war(p1, p2, outcome[1], outcome[2])
        if rounds % 100 == 0:
            print("round", rounds, p1.size(), p2.size())
    if p1.is_empty():
        return "P2"
    if p2.is_empty():
        return "P1"
    return "draw"
'''


def examples() -> dict[str, GradeResult]:
    """The example results, keyed by the folder each is written to."""
    return {
        "perfect_score": perfect_score(),
        "collects_opponent_first": collects_opponent_first(),
        "no_war_module": no_war_module(),
        "markup_everywhere": markup_everywhere(),
        "jokers_lose_to_kings": jokers_lose_to_kings(),
    }


def perfect_score() -> GradeResult:
    """Every test passed and the full game matches the reference."""
    tests = [_test(entry) for entry in SUITE]
    reference = _history(Rules())
    return _result(
        "perfect_score",
        tests,
        sandbox="bwrap",
        coverage=[_covered("structures.py", STRUCTURES), _covered("war.py", WAR, 'return "draw"')],
        telemetry=Telemetry(deck=DECK, max_rounds=1000, reference=reference, student=reference),
    )


def collects_opponent_first() -> GradeResult:
    """Collects the opponent's pile first, runs dry in a war, and fails in every way a test can."""
    expected, actual = _war_queues(Rules()), _war_queues(Rules(collect="loser_first"))
    first = next(index for index, (one, two) in enumerate(zip(expected, actual, strict=True)) if one != two)
    debug = "".join(f"round {n}: P1 plays 7, P2 plays 7\nWAR!\n" for n in range(1, 4))
    failures: dict[str, dict[str, object]] = {
        "test_structures.py::test_dequeue_empty_raises": dict(
            outcome="failed",
            sentence="dequeue() on an empty Queue returned None instead of raising IndexError.",
            difference=Difference("What dequeue() gave on an empty Queue", ["IndexError"], [None], 0),
        ),
        "test_rounds.py::test_ten_beats_nine": dict(
            outcome="missing", sentence="No result came back for this test: the worker stopped before it ran."
        ),
        "test_forced_war.py::test_winner_collects_own_pile_first": dict(
            outcome="failed",
            sentence="After P1 won the war, P1's queue held the cards in the wrong order: "
            "the winner must collect its own pile first, then the opponent's.",
            difference=Difference("P1's queue after the war (front first)", expected, actual, first),
            output=debug,
            reproduction="from starter import Queue, play_round, resolve_war\n"
            'p1, p2 = Queue(), Queue()\n'
            'for card in ["7", "2", "3", "4", "Q", "9"]:\n'
            "    p1.enqueue(card)\n"
            'for card in ["7", "5", "6", "8", "J", "1"]:\n'
            "    p2.enqueue(card)\n"
            "outcome = play_round(p1, p2)  # (\"war\", \"7\", \"7\")\n"
            "print(resolve_war(p1, p2, outcome[1], outcome[2]))\n"
            "print([p1.dequeue() for _ in range(p1.size())])",
        ),
        "test_forced_war.py::test_double_war_uses_same_piles": dict(
            outcome="failed",
            sentence="After a double war, P2's queue held the cards in the wrong order.",
            difference=Difference("P2's queue after the double war", ["K", "3", "2"], ["K", "2", "3"], 1),
        ),
        "test_exhaustion.py::test_winner_collects_piles_when_opponent_short": dict(
            outcome="error",
            sentence="resolve_war raised IndexError when P2 had only 2 cards left: "
            "check that each player still has 4 cards before every war cycle.",
            exception=ExceptionInfo(
                type="IndexError",
                message="pop from empty list",
                traceback='Traceback (most recent call last):\n  File "war.py", line 45, in resolve_war\n'
                "    pile2.push(p2.dequeue())\n"
                '  File "structures.py", line 16, in dequeue\n    return self._items.pop(0)\n'
                "IndexError: pop from empty list\n",
            ),
            output="war again!\n",
        ),
        "test_exhaustion.py::test_both_short_is_draw": dict(
            outcome="timeout",
            sentence="The test did not finish within 10 seconds: "
            "resolve_war may loop forever when both players run short.",
        ),
        "test_full_game.py::test_game_ends_by_win_or_limit": dict(
            outcome="crash",
            sentence="The process running this test died (killed by SIGKILL), most likely by using too much memory.",
            output="round 100 27 27\n" * 400,
        ),
        "test_full_game.py::test_seeded_game_matches_reference": dict(
            outcome="failed",
            sentence="With seed 7 the game ended after 153 rounds; the reference ends after 120.",
        ),
    }
    tests = [_test(entry, **failures.get(entry[0], {})) for entry in SUITE]
    return _result(
        "collects_opponent_first",
        tests,
        sandbox="unshare",
        sandbox_warning="bubblewrap is not installed here, so this ran under unshare: no network and its own "
        "process tree, but your files were visible read-only.",
        output=debug + "war again!\n" + "round 100 27 27\n" * 3,
        coverage=[
            _covered("structures.py", STRUCTURES),
            _covered("war.py", WAR, 'return "draw"', 'return "P2" if p1.is_empty()'),
        ],
        telemetry=Telemetry(
            deck=DECK, max_rounds=1000, reference=_history(Rules()), student=_history(Rules(collect="loser_first"))
        ),
    )


def no_war_module() -> GradeResult:
    """Ungradable: the submission has no war.py, so no test could run."""
    return _result(
        "no_war_module",
        [],
        outcome="ungradable",
        reason="Your submission has no war.py (it holds War.py.txt): the grader looks for play_round, "
        "resolve_war and play_game in war.py.",
        sandbox="bwrap",
    )


def markup_everywhere() -> GradeResult:
    """A student whose name, output, exception, code and values all carry markup that must stay text."""
    tests = [
        _test(
            entry,
            outcome="error",
            sentence=f"play_round raised ValueError {INJECTION}",
            difference=Difference(f"queue {INJECTION}", [INJECTION, "K"], ["K", INJECTION], 0),
            exception=ExceptionInfo(
                "ValueError", INJECTION, f'  File "war.py", line 3, in play_round\n    {INJECTION}\n'
            ),
            output=INJECTION + "\n\x1b[31mred\x1b[0m and a bell \x07\n",
        )
        if entry[0] == "test_rounds.py::test_tie_returns_war_tuple"
        else _test(entry)
        for entry in SUITE
    ]
    source = f'"""{INJECTION}"""\nNAME = "{INJECTION}"\nprint(NAME)\n'
    return _result(
        INJECTION,
        tests,
        sandbox="plain",
        sandbox_warning=f"no isolation {INJECTION}",
        output=INJECTION,
        coverage=[_covered(f"war{INJECTION}.py", source)],
        telemetry=Telemetry(
            deck=DECK, max_rounds=1000, reference=_history(Rules()), student=None, student_error=INJECTION
        ),
    )


def jokers_lose_to_kings() -> GradeResult:
    """Jokers lose to kings: charged once in Joker dominance, a war failure excused, a hidden replay failed; random
    numbers not drawn from the seed."""
    reproduction = (
        "from starter import Queue, play_round\n"
        "p1, p2 = Queue(), Queue()\n"
        'p1.enqueue("Jo")\n'
        'p2.enqueue("K")\n'
        "print(play_round(p1, p2))  # the reference returns 'P1'"
    )
    failures: dict[str, dict[str, object]] = {
        "test_joker.py::test_joker_beats_king": dict(
            outcome="failed",
            sentence="play_round with P1 holding Jo and P2 holding K should return 'P1' but returned 'P2'.",
            reproduction=reproduction,
        ),
        "test_rounds.py::test_winner_enqueues_own_card_first": dict(
            outcome="failed",
            sentence="P1's queue after P1 won the round is wrong: position 1 holds 5 where '5' was expected",
            difference=Difference("P1's queue after P1 won the round", ["5", "3"], [5, "3"], 0),
            reproduction="from starter import Queue, play_round\n"
            "p1, p2 = Queue(), Queue()\n"
            'p1.enqueue("5")\n'
            'p2.enqueue("3")\n'
            "print(play_round(p1, p2))\n"
            "print([p1.dequeue() for _ in range(p1.size())])  # the reference: ['5', '3']",
        ),
        "test_forced_war.py::test_three_down_one_up": dict(
            outcome="excused",
            sentence="follows from: the Joker beats every other card, charged in Joker dominance",
            follows_from="follows from: the Joker beats every other card, charged in Joker dominance",
            difference=Difference("P1's queue after the war", ["Jo", "K"], ["K"], 1),
            reproduction="from starter import Queue, resolve_war\n# a war whose face-up cards are Jo and K",
        ),
        "test_joker.py::test_joker_face_up_in_war": dict(
            outcome="failed",
            sentence="SECRET-SENTENCE: resolve_war with Jo face up against K returned 'P2'.",
            reproduction="SECRET-REPLAY: resolve_war(['Jo', '2', '3'], ['K', '4', '5'], '9', '9')",
        ),
        "test_forced_war.py::test_war_piles_are_stacks": dict(
            outcome="excused",
            sentence="SECRET-SENTENCE: follows from: the Joker beats every other card, charged in Joker dominance",
            follows_from="follows from: the Joker beats every other card, charged in Joker dominance",
            difference=Difference("SECRET-LABEL", ["SECRET-Jo"], ["K"], 0),
            reproduction="SECRET-REPLAY: resolve_war(['2', '3', '4', 'Jo'], ['5', '6', '8', 'K'], '7', '7')",
        ),
        "test_full_game.py::test_seeded_game_matches_reference": dict(
            outcome="failed",
            sentence="SECRET-SENTENCE: deal 17, round 48: P1's queue is wrong at position 3.",
            difference=Difference("SECRET-LABEL: deal 17, P1's queue", ["SECRET-Q", "2"], ["K", "2"], 0),
            reproduction="SECRET-REPLAY: play_game(deck=[...], max_rounds=1000)",
        ),
    }
    tests = [_test(entry, **failures.get(entry[0], {})) for entry in SUITE]
    return _result(
        "jokers_lose_to_kings",
        tests,
        sandbox="bwrap",
        nondeterministic="play_game(seed=3), called twice, played two different games: your code uses random "
        "numbers that do not come from the seed.",
    )


DECK = shuffle(make_deck(), 7)
"""The deck of the telemetry game: the reference's seed 7."""


def _history(rules: Rules) -> list[list[int]]:
    """Queue sizes after each round of the seed-7 game under these rules."""
    return [list(sizes) for sizes in play_game(deck=DECK, rules=rules).history]


def _war_queues(rules: Rules) -> list[str]:
    """P1's queue after one forced war won by P1, under these rules."""
    p1, p2 = _queue(["7", "2", "3", "4", "Q", "9"]), _queue(["7", "5", "6", "8", "J", "1"])
    outcome = play_round(p1, p2, rules)
    assert isinstance(outcome, tuple)
    resolve_war(p1, p2, outcome[1], outcome[2], rules)
    cards = []
    while not p1.is_empty():
        cards.append(p1.dequeue())
    return cards


def _queue(cards: list[str]) -> Queue[str]:
    """A reference Queue holding these cards, front first."""
    queue: Queue[str] = Queue()
    for card in cards:
        queue.enqueue(card)
    return queue


def _test(entry: tuple[str, str, str, float, bool], outcome: str = "passed", **detail: object) -> TestResult:
    """One test of SUITE with this outcome: full points when passed, none otherwise."""
    node, name, category, points, hidden = entry
    return TestResult(
        id=node,
        name=name,
        category=category,
        score=points if outcome in ("passed", "excused") else 0,
        max_score=points,
        outcome=outcome,
        hidden=hidden,
        duration=0.012 if outcome != "timeout" else 10.0,
        rule=RULES.get(node, ""),
        **detail,  # type: ignore[arg-type]
    )


def _covered(path: str, source: str, *never_run: str) -> CoveredFile:
    """A file whose executable lines all ran, except those holding one of the `never_run` snippets."""
    lines = source.splitlines()
    executable = [
        number
        for number, line in enumerate(lines, start=1)
        if line.strip() and not line.strip().startswith(("#", '"""'))
    ]
    missing = [n for n in executable if any(snippet in lines[n - 1] for snippet in never_run)]
    executed = [n for n in executable if n not in missing]
    percent = round(100 * len(executed) / len(executable), 2) if executable else 100.0
    return CoveredFile(path=path, source=source, executed=executed, missing=missing, percent=percent)


def _result(
    student: str,
    tests: list[TestResult],
    *,
    outcome: str = "graded",
    reason: str = "",
    sandbox: str,
    sandbox_warning: str = "",
    output: str = "",
    coverage: list[CoveredFile] | None = None,
    telemetry: Telemetry | None = None,
    nondeterministic: str = "",
) -> GradeResult:
    """A whole result, its category totals summed from its tests (from SUITE's points when there are none)."""
    categories = [
        CategoryScore(
            id=key,
            title=title,
            score=sum(test.score for test in tests if test.category == key),
            max_score=sum(points for _, _, category, points, _ in SUITE if category == key),
        )
        for key, title in CATEGORY_TITLES.items()
    ]
    return GradeResult(
        student=student,
        outcome=outcome,
        reason=reason,
        score=sum(category.score for category in categories),
        max_score=sum(category.max_score for category in categories),
        categories=categories,
        tests=tests,
        sha256=hashlib.sha256(student.encode()).hexdigest(),
        grader_version="0.1.0",
        sandbox=sandbox,
        sandbox_warning=sandbox_warning,
        graded_at="2026-05-09T14:03:12+00:00",
        execution_time=3.25,
        timings={"prepare": 0.5, "tests": 2.5, "total": 3.25},
        output=output,
        coverage=coverage or [],
        telemetry=telemetry,
        nondeterministic=nondeterministic,
    )


def main() -> None:
    """Write every example to <folder>/results.json beside this script."""
    here = Path(__file__).resolve().parent
    for folder, result in examples().items():
        write_results(result, here / folder / "results.json")
        print(f"wrote {folder}/results.json")


if __name__ == "__main__":
    main()
