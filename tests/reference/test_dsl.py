"""The card-game language's War (the `dsl` preset): 3 down + 1 up, shuffled pick-up, 52 cards, short of 4 loses."""

from __future__ import annotations

from collections import Counter

import pytest

from reference import Queue, play_game, resolve_war
from reference.rules import DSL_RULES
from reference.simulate import simulate
from reference.variants import build_deck, play_dealt, strength


def q(*cards: str) -> Queue[str]:
    """A queue holding the cards, the first one at the front."""
    queue: Queue[str] = Queue()
    for card in cards:
        queue.enqueue(card)
    return queue


def test_the_deck_is_a_standard_52_with_the_ace_high():
    """build_deck gives 52 cards and no Joker; the Ace ("1") beats the King."""
    deck = build_deck(DSL_RULES)
    assert len(deck) == 52 and "Jo" not in deck
    assert strength("1", DSL_RULES) > strength("K", DSL_RULES) > strength("2", DSL_RULES)


def test_a_war_is_three_cards_down_and_the_fourth_up_and_the_winner_takes_all_ten():
    """Tied 7s: P1's 2 3 4 go down and 9 up against P2's 5 6 8 and 8 up; P1 takes the 10 cards, in some order."""
    first, second = q("2", "3", "4", "9", "K"), q("5", "6", "8", "8", "Q")
    assert resolve_war(first, second, "7", "7", DSL_RULES) == "P1"
    assert list(first)[0] == "K" and list(second) == ["Q"]
    assert Counter(list(first)[1:]) == Counter(["7", "2", "3", "4", "9", "7", "5", "6", "8", "8"])


@pytest.mark.parametrize("held", [0, 1, 2, 3])
def test_a_player_short_of_four_cards_for_a_war_loses_at_once(held):
    """Tied 7s, P1 holding fewer than 4 cards: P1 loses the war and the game; P2 ends with every card."""
    first, second = q(*["2", "3", "4"][:held]), q("5", "6", "8", "9", "J")
    assert resolve_war(first, second, "7", "7", DSL_RULES) == "P2"
    assert list(first) == [] and len(list(second)) == 5 + 2 + held


def test_both_short_of_four_cards_is_a_draw():
    """Tied 7s with 3 cards each: neither can fight the war; a draw, each pile back to its owner."""
    first, second = q("2", "3", "4"), q("5", "6", "8")
    assert resolve_war(first, second, "7", "7", DSL_RULES) == "draw"
    assert Counter(list(first) + list(second)) == Counter(["2", "3", "4", "5", "6", "8", "7", "7"])


def test_the_won_cards_are_shuffled_with_the_games_seed():
    """Seeded games replay exactly; across seeds a battle's two cards go under both ways round."""
    games = [play_game(seed=seed, rules=DSL_RULES, max_rounds=2000) for seed in range(6)]
    assert games == [play_game(seed=seed, rules=DSL_RULES, max_rounds=2000) for seed in range(6)]
    orders = set()
    for seed in range(20):
        winner = q("9")
        assert play_dealt(winner, q("3"), DSL_RULES, seed=seed).winner == "P1"
        orders.add(tuple(winner))
    assert orders == {("9", "3"), ("3", "9")}


def test_whole_games_end_with_one_player_holding_all_52_cards_or_a_draw():
    """play_game under the preset: a winner holds 52 cards; the simulator plays it as well."""
    for seed in range(10):
        game = play_game(seed=seed, rules=DSL_RULES, max_rounds=5000)
        assert game.p1_cards + game.p2_cards == 52
        if game.winner != "draw":
            assert {game.p1_cards, game.p2_cards} == {0, 52}
    result = simulate(DSL_RULES, games=20, max_rounds=2000)
    assert result.p1_wins + result.p2_wins + result.capped + result.stalemates == 20
