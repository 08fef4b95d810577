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
