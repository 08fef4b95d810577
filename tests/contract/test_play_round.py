"""play_round: one battle between the front cards of the two queues."""

from __future__ import annotations

import pytest

from .helpers import cards, drain, plain, queue_from


def test_the_higher_card_wins_and_goes_back_winners_card_first(impl):
    """P1's higher card wins: "P1", and P1 enqueues its own card, then P2's, at the back."""
    p1, p2 = queue_from(impl, "K 2"), queue_from(impl, "3 4")
    assert plain(impl.play_round(p1, p2)) == "P1"
    assert drain(p1) == cards("2 K 3")
    assert drain(p2) == cards("4")


def test_p2_wins_the_mirror_round_the_same_way(impl):
    """P2's higher card wins: "P2", and P2 enqueues its own card, then P1's."""
    p1, p2 = queue_from(impl, "3 8"), queue_from(impl, "9 5")
    assert plain(impl.play_round(p1, p2)) == "P2"
    assert drain(p1) == cards("8")
    assert drain(p2) == cards("5 9 3")


def test_ten_beats_nine(impl):
    """Ranks compare by value: "10" beats "9" although "10" < "9" as strings."""
    p1, p2 = queue_from(impl, "9"), queue_from(impl, "10")
    assert plain(impl.play_round(p1, p2)) == "P2"
    assert drain(p1) == []
    assert drain(p2) == cards("10 9")


@pytest.mark.parametrize(
    ("p1_cards", "p2_cards", "winner", "p1_after", "p2_after"),
    [("Jo", "K", "P1", "Jo K", ""), ("K", "Jo", "P2", "", "Jo K")],
    ids=["joker-for-P1", "joker-for-P2"],
)
def test_the_joker_beats_a_king_from_either_side(impl, p1_cards, p2_cards, winner, p1_after, p2_after):
    """Jo beats K whichever player holds it; the Joker's owner takes both, Joker first."""
    p1, p2 = queue_from(impl, p1_cards), queue_from(impl, p2_cards)
    assert plain(impl.play_round(p1, p2)) == winner
    assert drain(p1) == cards(p1_after)
    assert drain(p2) == cards(p2_after)


def test_a_tie_returns_war_with_both_cards_and_enqueues_nothing(impl):
    """Equal cards: ("war", c1, c2) is returned, both cards are out of the queues and nothing is added."""
    p1, p2 = queue_from(impl, "7 2 3"), queue_from(impl, "7 K")
    assert plain(impl.play_round(p1, p2)) == ("war", "7", "7")
    assert drain(p1) == cards("2 3")
    assert drain(p2) == cards("K")


def test_two_jokers_tie_and_start_a_war(impl):
    """Jo against Jo is a tie like any other: ("war", "Jo", "Jo")."""
    p1, p2 = queue_from(impl, "Jo 4"), queue_from(impl, "Jo")
    assert plain(impl.play_round(p1, p2)) == ("war", "Jo", "Jo")
    assert drain(p1) == cards("4")
    assert drain(p2) == []


@pytest.mark.parametrize(
    ("p1_cards", "p2_cards", "winner"),
    [("", "5 6", "P2"), ("5 6", "", "P1")],
    ids=["P1-empty", "P2-empty"],
)
def test_an_empty_queue_loses_and_no_card_is_played(impl, p1_cards, p2_cards, winner):
    """A queue empty at the start of the round: the other player is returned and its queue is untouched."""
    p1, p2 = queue_from(impl, p1_cards), queue_from(impl, p2_cards)
    assert plain(impl.play_round(p1, p2)) == winner
    assert drain(p1) == cards(p1_cards)
    assert drain(p2) == cards(p2_cards)


def test_two_empty_queues_are_a_draw(impl):
    """Both queues empty at the start of the round: "draw"."""
    p1, p2 = impl.Queue(), impl.Queue()
    assert plain(impl.play_round(p1, p2)) == "draw"
    assert p1.is_empty() and p2.is_empty()
