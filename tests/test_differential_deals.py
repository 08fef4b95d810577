"""The differential test's deals hold every situation its rule names, as the reference plays them."""

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
