"""resolve_war: the war started by two tied cards, one Stack war pile per player.

Every test has already taken the tied cards (here "7" and "7") off the queues, as play_round does.
"""

from __future__ import annotations

from .helpers import cards, drain, plain, queue_from


def test_each_player_puts_three_down_and_one_up(impl):
    """A war cycle takes exactly four cards from each queue (3 face down + 1 face up)."""
    p1, p2 = queue_from(impl, "2 3 4 K 9 9"), queue_from(impl, "5 6 8 Q 10 10")
    assert plain(impl.resolve_war(p1, p2, "7", "7")) == "P1"
    assert drain(p2) == cards("10 10")
    assert drain(p1)[:2] == cards("9 9")


def test_the_winner_collects_its_own_pile_then_the_opponents_top_card_first(impl):
    """P1 wins: P1's pile popped top first (face-up card first, tied card last), then P2's pile the same way."""
    p1, p2 = queue_from(impl, "2 3 4 K 9"), queue_from(impl, "5 6 8 Q 10")
    assert plain(impl.resolve_war(p1, p2, "7", "7")) == "P1"
    assert drain(p1) == cards("9  K 4 3 2 7  Q 8 6 5 7")
    assert drain(p2) == cards("10")


def test_p2_collects_its_own_pile_first_too(impl):
    """P2 wins: P2's own pile first, then P1's, each popped top first."""
    p1, p2 = queue_from(impl, "2 3 4 5 9"), queue_from(impl, "6 8 10 J 1")
    assert plain(impl.resolve_war(p1, p2, "Q", "Q")) == "P2"
    assert drain(p1) == cards("9")
    assert drain(p2) == cards("1  J 10 8 6 Q  5 4 3 2 Q")


def test_a_face_up_tie_repeats_the_war_on_the_same_piles(impl):
    """Equal face-up cards: another cycle is added to the same piles; the winner takes all of them."""
    p1, p2 = queue_from(impl, "2 3 4 9  5 6 8 K  J"), queue_from(impl, "1 10 J 9  1 2 3 Q  4")
    assert plain(impl.resolve_war(p1, p2, "7", "7")) == "P1"
    assert drain(p1) == cards("J  K 8 6 5 9 4 3 2 7  Q 3 2 1 9 J 10 1 7")
    assert drain(p2) == cards("4")


def test_loser_first_collects_the_opponents_pile_first(impl):
    """Rules(collect="loser_first"): the winner takes the opponent's pile first, then its own."""
    p1, p2 = queue_from(impl, "2 3 4 K 9"), queue_from(impl, "5 6 8 Q 10")
    rules = impl.Rules(collect="loser_first")
    assert plain(impl.resolve_war(p1, p2, "7", "7", rules)) == "P1"
    assert drain(p1) == cards("9  Q 8 6 5 7  K 4 3 2 7")
    assert drain(p2) == cards("10")


def test_face_down_2_puts_two_down_and_one_up(impl):
    """Rules(face_down=2): each cycle takes 2 face-down cards and 1 face-up card from each queue."""
    p1, p2 = queue_from(impl, "2 3 K 9"), queue_from(impl, "4 5 Q 10")
    assert plain(impl.resolve_war(p1, p2, "7", "7", impl.Rules(face_down=2))) == "P1"
    assert drain(p1) == cards("9  K 3 2 7  Q 5 4 7")
    assert drain(p2) == cards("10")


def test_exactly_face_down_plus_one_cards_is_enough(impl):
    """A player holding exactly 4 cards can still fight a cycle (the check is "at least 4")."""
    p1, p2 = queue_from(impl, "2 3 4 3"), queue_from(impl, "5 6 8 Jo")
    assert plain(impl.resolve_war(p1, p2, "7", "7")) == "P2"
    assert drain(p1) == []
    assert drain(p2) == cards("Jo 8 6 5 7  3 4 3 2 7")


def test_a_player_short_at_the_first_cycle_loses_everything(impl):
    """P1 has 3 cards (< 4): P2 takes its own pile, then P1's, then P1's remaining cards front first."""
    p1, p2 = queue_from(impl, "2 3 Jo"), queue_from(impl, "5 6 8 Q 10")
    assert plain(impl.resolve_war(p1, p2, "K", "K")) == "P2"
    assert drain(p1) == []
    assert drain(p2) == cards("5 6 8 Q 10  K  K  2 3 Jo")


def test_a_player_short_after_a_repeat_loses_everything(impl):
    """After a face-up tie P2 has 1 card left: P1 takes both piles (own first), then P2's last card."""
    p1, p2 = queue_from(impl, "2 3 4 9  5 6 8 10"), queue_from(impl, "Q J K 9  1")
    assert plain(impl.resolve_war(p1, p2, "7", "7")) == "P1"
    assert drain(p1) == cards("5 6 8 10  9 4 3 2 7  9 K J Q 7  1")
    assert drain(p2) == []


def test_loser_first_also_orders_the_piles_when_a_player_runs_short(impl):
    """Rules(collect="loser_first") with P2 short: P1 takes P2's pile, then its own, then P2's remaining cards."""
    p1, p2 = queue_from(impl, "2 3 4 9  5 6 8 10"), queue_from(impl, "Q J K 9  1")
    rules = impl.Rules(collect="loser_first")
    assert plain(impl.resolve_war(p1, p2, "7", "7", rules)) == "P1"
    assert drain(p1) == cards("5 6 8 10  9 K J Q 7  9 4 3 2 7  1")
    assert drain(p2) == []


def test_both_short_is_a_draw_and_each_takes_its_own_pile_back(impl):
    """Both players short: "draw"; each pops its own pile back onto its own queue, top card first."""
    p1, p2 = queue_from(impl, "2 3 4 9  5"), queue_from(impl, "6 8 10 9  J")
    assert plain(impl.resolve_war(p1, p2, "7", "7")) == "draw"
    assert drain(p1) == cards("5  9 4 3 2 7")
    assert drain(p2) == cards("J  9 10 8 6 7")


def test_both_short_at_the_first_cycle_gives_back_the_tied_cards(impl):
    """Both players short at once: "draw"; each tied card goes to the back of its owner's queue."""
    p1, p2 = queue_from(impl, "2 3"), queue_from(impl, "4")
    assert plain(impl.resolve_war(p1, p2, "Jo", "Jo")) == "draw"
    assert drain(p1) == cards("2 3 Jo")
    assert drain(p2) == cards("4 Jo")
