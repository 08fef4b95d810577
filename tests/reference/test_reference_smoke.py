"""A first check that the reference plays a whole game."""

from reference import play_game


def test_a_seeded_game_ends_with_every_card_accounted_for():
    """A 54-card game ends by a win or at the limit, with all 54 cards in the two queues."""
    result = play_game(max_rounds=1000, seed=7)
    assert result.p1_cards + result.p2_cards == 54
    assert result.winner in ("P1", "P2", "draw")
