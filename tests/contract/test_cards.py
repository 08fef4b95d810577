"""Card order, the deck, shuffling and dealing."""

from __future__ import annotations

from collections import Counter

import pytest

from .helpers import drain

ORDER = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "Jo"]
"""Every card, weakest first."""


def test_card_values_run_from_1_for_1_to_14_for_the_joker(impl):
    """card_value gives 1 for "1" up to 13 for "K" and 14 for "Jo", each a plain int."""
    values = [impl.card_value(card) for card in ORDER]
    assert all(type(value) is int for value in values)
    assert values == list(range(1, 15))


@pytest.mark.parametrize(("higher", "lower"), [("Jo", "K"), ("K", "Q"), ("Q", "J"), ("J", "10"), ("10", "9")])
def test_card_order_is_by_rank_not_alphabetical(impl, higher, lower):
    """Jo > K > Q > J > 10 > 9: the order of ranks, not of the strings."""
    assert impl.card_value(higher) > impl.card_value(lower)


@pytest.mark.parametrize("not_a_card", [11, "11", "A", None, 1, "jo", ""], ids=repr)
def test_card_value_rejects_anything_else_naming_it(impl, not_a_card):
    """card_value raises ValueError whose message contains repr() of the rejected value."""
    with pytest.raises(ValueError) as raised:
        impl.card_value(not_a_card)
    assert repr(not_a_card) in str(raised.value)


def test_make_deck_has_54_cards_four_of_each_rank_and_two_jokers(impl):
    """make_deck() is the 54-card deck: ranks in order, four of each, then the two Jokers."""
    deck = impl.make_deck()
    assert type(deck) is list and all(type(card) is str for card in deck)
    assert deck == [rank for rank in ORDER[:-1] for _ in range(4)] + ["Jo", "Jo"]


def test_make_deck_without_jokers_has_52_cards(impl):
    """make_deck(jokers=False) is the same deck without the two Jokers."""
    deck = impl.make_deck(jokers=False)
    assert len(deck) == 52
    assert Counter(deck) == Counter({rank: 4 for rank in ORDER[:-1]})


def test_make_deck_returns_a_new_list_each_time(impl):
    """Changing one deck from make_deck does not change the next."""
    first = impl.make_deck()
    first.clear()
    assert len(impl.make_deck()) == 54


def test_shuffle_with_the_same_seed_gives_the_same_order(impl):
    """shuffle(deck, seed) is reproducible: the same seed gives the same order."""
    deck = impl.make_deck()
    first = impl.shuffle(deck, 7)
    assert impl.shuffle(deck, 7) == first, "shuffle(deck, 7) called again (yours) differs from its first order (expected)"
    assert impl.shuffle(deck, 7) != impl.shuffle(deck, 8)


def test_shuffle_returns_a_new_list_and_leaves_the_deck_alone(impl):
    """shuffle returns a new list holding the same cards; the deck passed in keeps its order."""
    deck = impl.make_deck()
    before = list(deck)
    shuffled = impl.shuffle(deck, 1)
    assert type(shuffled) is list and shuffled is not deck
    assert deck == before
    assert Counter(shuffled) == Counter(before) and shuffled != before


def test_deal_alternates_starting_with_p1(impl):
    """deal gives the 1st, 3rd, 5th... card to P1 and the 2nd, 4th... to P2, in order, front first."""
    p1, p2 = impl.deal(["K", "2", "Jo", "7", "10", "3"])
    assert type(p1) is impl.Queue and type(p2) is impl.Queue
    assert drain(p1) == ["K", "Jo", "10"]
    assert drain(p2) == ["2", "7", "3"]


def test_deal_splits_the_full_deck_27_and_27(impl):
    """A 54-card deck deals into two queues of 27."""
    p1, p2 = impl.deal(impl.make_deck())
    assert p1.size() == 27 and p2.size() == 27


def test_deal_gives_the_odd_card_to_p1(impl):
    """With an odd number of cards P1 gets one more than P2."""
    p1, p2 = impl.deal(["5", "6", "7"])
    assert drain(p1) == ["5", "7"]
    assert drain(p2) == ["6"]
