"""Whole-game properties of the reference over many seeded games.

Each game is replayed round by round with the reference's own play_round and resolve_war, so the checks
run after every round, and the replay must agree with play_game for the same seed.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import astuple, dataclass

import pytest

from reference import DEFAULT_RULES, GameResult, Rules, deal, make_deck, play_game, play_round, resolve_war, shuffle

SEEDS = range(300)
"""Games under the handout's rules."""

VARIANT_SEEDS = range(100)
"""Games under each rule variant."""

MAX_ROUNDS = 1000
DECK = Counter(make_deck())
"""The multiset of the 54 cards: every game holds exactly these, always."""


@dataclass(frozen=True)
class Replay:
    """A game replayed round by round, and what was wrong after any of its rounds."""

    result: GameResult
    """The GameResult the replay adds up to."""
    problems: tuple[str, ...]
    """Each round after which the cards were not exactly the deck, described."""


def replay(seed: int, rules: Rules = DEFAULT_RULES, max_rounds: int = MAX_ROUNDS) -> Replay:
    """Play seed's game with play_round and resolve_war, checking the multiset of cards after every round."""
    p1, p2 = deal(shuffle(make_deck(), seed))
    rounds = wars = longest = 0
    history: list[tuple[int, int]] = []
    problems: list[str] = []
    winner = ""
    while not p1.is_empty() and not p2.is_empty() and rounds < max_rounds:
        rounds += 1
        outcome = play_round(p1, p2, rules)
        if isinstance(outcome, tuple):
            wars += 1
            chain = _chain_length(p1, p2, rules)
            longest = max(longest, chain)
            if resolve_war(p1, p2, outcome[1], outcome[2], rules) == "draw":
                winner = "draw"
        history.append((p1.size(), p2.size()))
        held = Counter(p1) + Counter(p2)
        if held != DECK or p1.size() + p2.size() != 54:
            problems.append(f"round {rounds}: extra {dict(held - DECK)}, missing {dict(DECK - held)}")
        if winner:
            break
    if not winner:
        winner = "P1" if p2.is_empty() and not p1.is_empty() else "P2" if p1.is_empty() and not p2.is_empty() else "draw"
    result = GameResult(winner, rounds, wars, longest, p1.size(), p2.size(), tuple(history))
    return Replay(result, tuple(problems))


def _chain_length(p1, p2, rules: Rules) -> int:
    """How many cycles the war about to be fought takes, read off the queues without changing them."""
    first, second = list(p1), list(p2)
    need, chain = rules.face_down + 1, 1
    while len(first) >= need and len(second) >= need:
        up1, up2 = first[need - 1], second[need - 1]
        if up1 != up2:
            break
        first, second, chain = first[need:], second[need:], chain + 1
    return chain


@pytest.fixture(scope="module")
def replays() -> dict[int, Replay]:
    """The handout-rules game of every seed, replayed once for all the tests of this module."""
    return {seed: replay(seed) for seed in SEEDS}


def test_the_54_cards_are_exactly_the_deck_after_every_round(replays):
    """After every round of every game the two queues hold exactly make_deck()'s multiset: none lost, none made."""
    broken = {seed: r.problems[:3] for seed, r in replays.items() if r.problems}
    assert not broken


def test_round_by_round_play_adds_up_to_play_game(replays):
    """play_round + resolve_war, replayed by hand, give the same GameResult as play_game for the same seed."""
    differ = [seed for seed, r in replays.items() if play_game(max_rounds=MAX_ROUNDS, seed=seed) != r.result]
    assert not differ


def test_a_winner_holds_all_54_cards(replays):
    """Every game won by P1 or P2 ends with all 54 cards in the winner's queue."""
    for seed, r in replays.items():
        result = r.result
        if result.winner == "P1":
            assert (result.p1_cards, result.p2_cards) == (54, 0), seed
        elif result.winner == "P2":
            assert (result.p1_cards, result.p2_cards) == (0, 54), seed
    assert any(r.result.winner != "draw" for r in replays.values())


def test_a_draw_is_the_round_limit_or_a_war_both_players_ran_short_of(replays):
    """A drawn game stopped at max_rounds, or its last round was a war (both players short)."""
    for seed, r in replays.items():
        result = r.result
        if result.winner == "draw":
            assert result.rounds == MAX_ROUNDS or result.wars >= 1, seed


def test_rounds_stay_within_the_limit_and_history_has_one_entry_per_round(replays):
    """rounds <= max_rounds, len(history) == rounds, every entry sums to 54 and the last is the final count."""
    for seed, r in replays.items():
        result = r.result
        assert 1 <= result.rounds <= MAX_ROUNDS, seed
        assert len(result.history) == result.rounds, seed
        assert all(a + b == 54 for a, b in result.history), seed
        assert result.history[-1] == (result.p1_cards, result.p2_cards), seed


def test_wars_and_chains_are_consistent(replays):
    """wars <= rounds, and longest_war_chain is 0 exactly when there was no war."""
    for seed, r in replays.items():
        result = r.result
        assert 0 <= result.wars <= result.rounds, seed
        assert (result.longest_war_chain == 0) == (result.wars == 0), seed


def test_a_seed_replays_its_game_exactly():
    """play_game with the same seed twice gives GameResults equal field by field."""
    for seed in range(0, 300, 10):
        first, second = play_game(seed=seed), play_game(seed=seed)
        assert astuple(first) == astuple(second), seed


def test_a_small_round_limit_is_respected():
    """With max_rounds=50 no game plays more than 50 rounds, and one still going is a draw."""
    for seed in range(0, 300, 10):
        result = play_game(max_rounds=50, seed=seed)
        assert result.rounds <= 50 and len(result.history) == result.rounds, seed
        if result.rounds == 50 and result.p1_cards and result.p2_cards:
            assert result.winner == "draw", seed


@pytest.mark.parametrize(
    "rules", [Rules(face_down=2), Rules(collect="loser_first")], ids=["face_down=2", "loser_first"]
)
def test_the_rule_variants_also_keep_every_card(rules):
    """Rules(face_down=2) and Rules(collect="loser_first") also hold exactly the deck after every round."""
    for seed in VARIANT_SEEDS:
        r = replay(seed, rules)
        assert not r.problems, (seed, r.problems[:3])
        assert play_game(max_rounds=MAX_ROUNDS, seed=seed, rules=rules) == r.result, seed
        if r.result.winner != "draw":
            assert max(r.result.p1_cards, r.result.p2_cards) == 54, seed
