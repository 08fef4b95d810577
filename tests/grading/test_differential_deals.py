"""The hidden tests' fixed deals hold every situation their rules name, as the reference plays them."""

from __future__ import annotations

import reference
from grader.grading import expected
from reference.game import _SHARED_RNG, _battle, _fight_war, _values
from reference.rules import DEFAULT_RULES


def situations(deck: list[str], max_rounds: int) -> set[str]:
    """What happens in one deal played by the reference's own round and war."""
    values = _values(DEFAULT_RULES)
    p1, p2 = reference.deal(list(deck))
    seen: set[str] = set()
    for _ in range(max_rounds):
        if p1.is_empty() or p2.is_empty():
            return seen
        outcome = _battle(p1, p2, DEFAULT_RULES, values, _SHARED_RNG)
        if isinstance(outcome, tuple):
            _, c1, c2 = outcome
            if c1 == "Jo":
                seen.add("a Joker tie")
            if p1.size() < 4 or p2.size() < 4:
                seen.add("a player short in a war")
            _, chain = _fight_war(p1, p2, c1, c2, DEFAULT_RULES, values, _SHARED_RNG)
            seen.add(f"a war of {min(chain, 3)} cycle(s)")
    seen.add("a game reaching the round limit")
    return seen


def test_the_differential_deals_hold_every_situation_their_rule_names():
    """Wars of one, two and three cycles, a Joker tie, a player short in a war and a game reaching the round
    limit: each happens in at least one of the deals the hidden differential test plays"""
    decks, _ = expected.differential()
    assert len(decks) == expected.DIFFERENTIAL_DEALS
    found: set[str] = set()
    for deck in decks:
        found |= situations(deck, expected.DIFFERENTIAL_ROUNDS)
    assert found == {"a war of 1 cycle(s)", "a war of 2 cycle(s)", "a war of 3 cycle(s)", "a Joker tie",
                     "a player short in a war", "a game reaching the round limit"}


def test_the_counter_decks_have_no_joker_and_exercise_every_counter():
    """The extension counters' decks (make_deck(jokers=False) shuffled with COUNTER_SEEDS) hold no Joker, so a
    wrong or missing Joker cannot touch them; between them they have wars of one cycle and of two and three
    (the longest chains the docstring gives: 3, then 2), and no player is ever short in a war in their games: each
    game is the same under every rule variant of a short player, so an Exhaustion bug leaves the counters alone"""
    from reference import play_game

    from grader.grading import variants

    short = [variant for variant in variants.war_variants(None)
             if variant.key in ("short_keeps_queue", "short_pot_lost", "short_with_enough", "short_fights",
                                "short_nothing_moves", "both_short_p1_wins")]
    assert len(short) == 6
    decks = expected.counter_decks()
    assert list(decks) == list(expected.COUNTER_SEEDS)
    found: set[str] = set()
    chains = []
    for deck in decks.values():
        assert len(deck) == 52 and "Jo" not in deck
        game = play_game(deck=deck, max_rounds=expected.DIFFERENTIAL_ROUNDS)
        assert game.winner in ("P1", "P2") and game.wars > 0
        chains.append(game.longest_war_chain)
        found |= situations(deck, expected.DIFFERENTIAL_ROUNDS)
        reference_game = variants.game(deck, expected.DIFFERENTIAL_ROUNDS)
        for variant in short:
            assert variants.game(deck, expected.DIFFERENTIAL_ROUNDS, **variant.options) == reference_game, variant.key
    assert chains == [3, 2]
    assert {"a war of 1 cycle(s)", "a war of 2 cycle(s)", "a war of 3 cycle(s)"} <= found
    assert "a player short in a war" not in found and "a Joker tie" not in found
