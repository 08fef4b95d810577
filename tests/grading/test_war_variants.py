"""The grader's rule variants (grader/grading/variants.py) agree with the reference where the reference has the
same rule, so a variant names the rule a student plays only when it is that rule."""

from __future__ import annotations

import random

import pytest

from grader.grading import expected, variants
from reference import make_deck


def _wars(count: int) -> list[tuple[list[str], list[str], str, str]]:
    """count wars on random queues of 0 to 14 cards, some with ties again on the face-up cards."""
    rng = random.Random(7)
    wars = []
    for _ in range(count):
        deck = make_deck()
        rng.shuffle(deck)
        tied = rng.choice(deck[:20])
        n1, n2 = rng.randrange(0, 15), rng.randrange(0, 15)
        p1, p2 = deck[20:20 + n1], deck[35:35 + n2]
        if rng.random() < 0.3 and len(p1) > 3 and len(p2) > 3:
            p2[3] = p1[3]
        wars.append((p1, p2, tied, tied))
    return wars


WARS = _wars(300)


@pytest.mark.parametrize("face_down", [0, 1, 2, 3, 4])
@pytest.mark.parametrize("collect", ["winner_first", "loser_first", "played"])
def test_the_variants_rules_the_reference_has_give_the_references_answers(face_down, collect):
    """face_down and collect, as variants, answer as the reference's Rules with the same fields"""
    for p1, p2, c1, c2 in WARS:
        want = expected.resolve_war(p1, p2, c1, c2, {"face_down": face_down, "collect": collect})
        got = variants.war(p1, p2, c1, c2, face_down=face_down, collect=collect)
        assert (got.result, got.p1, got.p2) == (want.result, want.p1, want.p2), (p1, p2, c1)


def test_the_handouts_round_is_the_references():
    """With no option changed, a round is the reference's play_round"""
    deck = make_deck()
    for a in deck[::3]:
        for b in deck[1::3]:
            want = expected.play_round([a, "5"], [b, "9"])
            got = variants.round_outcome([a, "5"], [b, "9"])
            assert (got.result, got.p1, got.p2) == (want.result, want.p1, want.p2)


def test_each_variant_changes_some_war():
    """No war variant is the handout in disguise: each one answers differently on some of the wars"""
    for variant in variants.war_variants(None):
        assert any((variants.war(*war, **variant.options).p1, variants.war(*war, **variant.options).result)
                   != (expected.resolve_war(*war).p1, expected.resolve_war(*war).result) for war in WARS), variant.key


@pytest.mark.parametrize("face_down", [0, 1, 2, 3, 4, 5])
@pytest.mark.parametrize("collect", ["winner_first", "loser_first"])
def test_a_variants_whole_game_is_the_references_under_the_same_rules(face_down, collect):
    """variants.game with face_down and collect gives every field of the reference's play_game with those Rules
    (the winner, rounds, wars, longest war chain, cards and history), on each fixed deck"""
    from reference import Rules, play_game

    for deck in expected.fixed_decks(12):
        want = play_game(deck=deck, max_rounds=expected.DIFFERENTIAL_ROUNDS, rules=Rules(face_down=face_down,
                                                                                        collect=collect))
        got = variants.game(deck, expected.DIFFERENTIAL_ROUNDS, face_down=face_down, collect=collect)
        assert got == {field: getattr(want, field) for field in got}


def test_a_war_chain_counts_each_face_up_tie():
    """war_chain's count is 1 for a war its first cycle decides and 1 more for each face-up tie"""
    assert variants.war_chain(["2", "3", "4", "K", "6"], ["5", "6", "7", "8", "9"], "7", "7")[1] == 1
    twice = (["2", "3", "4", "9", "1", "1", "1", "K", "5"], ["5", "6", "7", "9", "2", "2", "2", "Q", "6"], "8", "8")
    assert variants.war_chain(*twice)[1] == 2
    assert variants.war_chain(*twice, face_down=1)[1] == 1


def test_card_value_answers_name_only_the_order_they_are():
    """card_value's answers name the Ace high, the Joker ranked as text or read as a Jack, or no Joker only when
    they are exactly that order; the handout's own values, and a Joker below the King, name nothing"""
    cards = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "Jo"]

    def answers(values):
        return [{"value": value} if value is not None else {"raised": {"type": "ValueError"}} for value in values]

    handout = list(range(1, 15))
    assert variants.value_variants(cards, answers(handout)) == []
    assert variants.value_variants(cards, answers([14, *range(2, 14), 15])) == [variants.ACE_HIGH]
    assert variants.value_variants(cards, answers([*range(1, 12), 13, 14, 12])) == [variants.JOKER_AS_TEXT]
    assert variants.value_variants(cards, answers([*range(1, 14), None])) == [variants.NO_JOKERS]
    assert variants.value_variants(cards, answers([*range(1, 14), 11])) == [variants.JOKER_AS_JACK]
    assert variants.value_variants(cards, answers([14, *range(2, 14), 11])) == []  # the Ace high as well: two bugs
    assert variants.value_variants(cards, answers([*range(1, 13), 14, 13])) == []  # a Joker below the King
    assert variants.value_variants(cards, answers([1, *range(3, 11), 2, *range(11, 15)])) == [variants.TEN_AS_TEXT]
    assert variants.value_variants(cards[:-1], answers([14, *range(2, 14)])) == [variants.ACE_HIGH]


def test_a_shuffled_pick_up_is_what_random_shuffle_gives_in_a_workers_call():
    """The shuffled variant's winner holds its cards, then the handout's pick-up shuffled as a worker's call
    shuffles it (random seeded with CALL_SEED)"""
    from grader.sandbox.worker import CALL_SEED

    pot = ["K", "4", "3", "2", "7", "8", "7", "6", "5", "7"]
    random.Random(CALL_SEED).shuffle(pot)
    got = variants.war(["2", "3", "4", "K", "6"], ["5", "6", "7", "8", "9"], "7", "7", collect="shuffled")
    assert (got.result, got.p1, got.p2) == ("P1", ["6", *pot], ["9"])


def test_a_pile_taken_from_the_bottom_and_p1_winning_when_both_are_short():
    """bottom_first takes each pile tied card first, own pile first; both_short="P1" gives P1 both piles and P2's
    queue where the handout gives each player its own pile back"""
    got = variants.war(["2", "3", "4", "K", "6"], ["5", "6", "7", "8", "9"], "7", "7", bottom_first=True)
    assert (got.result, got.p1, got.p2) == ("P1", ["6", "7", "2", "3", "4", "K", "7", "5", "6", "7", "8"], ["9"])
    both = variants.war(["2", "3"], ["5"], "7", "7", both_short="P1")
    assert (both.result, both.p1, both.p2) == ("P1", ["2", "3", "7", "7", "5"], [])
    assert expected.resolve_war(["2", "3"], ["5"], "7", "7").result == "draw"


def test_a_joker_read_as_a_jack_ties_the_jack_and_loses_to_the_queen():
    """joker_as_jack: Jo against J is a war, Jo against Q is lost, Jo against 10 is won, as "Jo"[0] == "J" gives"""
    assert variants.round_outcome(["Jo", "3"], ["J", "4"], joker_as_jack=True).result == ("war", "Jo", "J")
    lost = variants.round_outcome(["Jo", "3"], ["Q", "4"], joker_as_jack=True)
    assert (lost.result, lost.p1, lost.p2) == ("P2", ["3"], ["4", "Q", "Jo"])
    assert variants.round_outcome(["10"], ["Jo"], joker_as_jack=True).result == "P2"


def test_an_availability_check_off_by_one_and_a_short_player_who_fights():
    """needs_more: a player with exactly 4 cards is short and loses; short_fights: a short player fights with what
    it has (its last card face up), so a short hand of high cards wins, and a player with no card still loses"""
    four = variants.war(["2", "3", "4", "K"], ["5", "6", "7", "8", "1"], "9", "9", needs_more=True)
    assert (four.result, four.p1, four.p2) == ("P2", [], ["5", "6", "7", "8", "1", "9", "9", "2", "3", "4", "K"])
    assert expected.resolve_war(["2", "3", "4", "K"], ["5", "6", "7", "8", "1"], "9", "9").result == "P1"
    fights = variants.war(["Q", "K", "K"], ["5", "6", "7", "8", "9"], "J", "J", short_fights=True)
    assert (fights.result, fights.p1, fights.p2) == ("P1", ["K", "K", "Q", "J", "8", "7", "6", "5", "J"], ["9"])
    assert variants.war([], ["5", "6", "7", "8"], "3", "3", short_fights=True).result == "P2"
