"""play_game: a whole game, its end, and the GameResult it reports."""

from __future__ import annotations

import pytest

FIELDS = ("winner", "rounds", "wars", "longest_war_chain", "p1_cards", "p2_cards", "history")
"""GameResult's fields, in order."""


def deck_for(p1: str, p2: str) -> list[str]:
    """The deck that deals P1's cards and P2's cards (front first) when dealt alternately, P1 first."""
    first, second = p1.split(), p2.split()
    deck = [card for pair in zip(first, second) for card in pair]
    return deck + first[len(second):] + second[len(first):]


def fields(result) -> dict:
    """A GameResult's fields as a dict of plain values, after checking every field has its plain type."""
    values = {name: getattr(result, name) for name in FIELDS}
    assert type(values["winner"]) is str
    for name in FIELDS[1:6]:
        assert type(values[name]) is int, f"{name} is {values[name]!r}, not an int"
    history = values["history"]
    assert type(history) is tuple, f"history is a {type(history).__name__}, not a tuple"
    for entry in history:
        assert type(entry) is tuple and len(entry) == 2 and all(type(size) is int for size in entry), entry
    return values


def test_a_seeded_game_ends_by_a_win_or_the_round_limit(impl):
    """A 54-card game returns a GameResult: a winner holding all 54 cards, or a draw."""
    result = impl.play_game(max_rounds=1000, seed=7)
    assert type(result) is impl.GameResult
    game = fields(result)
    assert game["winner"] in ("P1", "P2", "draw")
    assert 1 <= game["rounds"] <= 1000
    if game["winner"] == "P1":
        assert (game["p1_cards"], game["p2_cards"]) == (54, 0)
    elif game["winner"] == "P2":
        assert (game["p1_cards"], game["p2_cards"]) == (0, 54)


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4])
def test_every_card_is_still_there_after_every_round(impl, seed):
    """No card is lost or made: the two queue sizes add up to 54 after every round and at the end."""
    game = fields(impl.play_game(seed=seed))
    assert game["p1_cards"] + game["p2_cards"] == 54
    assert all(p1_size + p2_size == 54 for p1_size, p2_size in game["history"])


def test_history_has_one_entry_per_round_ending_with_the_final_sizes(impl):
    """history holds the two queue sizes after every round: as many entries as rounds, the last one final."""
    game = fields(impl.play_game(seed=11))
    assert len(game["history"]) == game["rounds"]
    assert game["history"][-1] == (game["p1_cards"], game["p2_cards"])


def test_the_round_limit_ends_the_game_as_a_draw(impl):
    """max_rounds=5 cannot see a 54-card game won: exactly 5 rounds, then a draw."""
    game = fields(impl.play_game(max_rounds=5, seed=3))
    assert game["winner"] == "draw"
    assert game["rounds"] == 5 and len(game["history"]) == 5
    assert game["p1_cards"] + game["p2_cards"] == 54


def test_no_round_at_all_with_max_rounds_0(impl):
    """max_rounds=0 plays nothing: a draw after 0 rounds, 27 cards each, empty history."""
    game = fields(impl.play_game(max_rounds=0, seed=3))
    assert game == {
        "winner": "draw", "rounds": 0, "wars": 0, "longest_war_chain": 0,
        "p1_cards": 27, "p2_cards": 27, "history": (),
    }


def test_the_same_seed_replays_the_same_game(impl):
    """Two games with the same seed are identical, field by field."""
    first = fields(impl.play_game(seed=2024))
    again = fields(impl.play_game(seed=2024))
    assert again == first, "play_game(seed=2024) played again (yours) differs from its first game (expected)"


def test_a_given_deck_is_dealt_as_it_is(impl):
    """play_game(deck=...) deals that list unshuffled (seed or not) and leaves the list unchanged."""
    deck = ["K", "1", "Q", "2"]
    for seed in (None, 5):
        game = fields(impl.play_game(deck=deck, seed=seed))
        assert game == {
            "winner": "P1", "rounds": 2, "wars": 0, "longest_war_chain": 0,
            "p1_cards": 4, "p2_cards": 0, "history": ((3, 1), (4, 0)),
        }
    assert deck == ["K", "1", "Q", "2"]


def test_a_war_belongs_to_the_round_that_started_it(impl):
    """A round that goes to war counts once in rounds and in wars, and gets one history entry."""
    deck = deck_for("5 2 3 4 K", "5 6 8 9 Q")
    game = fields(impl.play_game(deck=deck))
    assert game == {
        "winner": "P1", "rounds": 1, "wars": 1, "longest_war_chain": 1,
        "p1_cards": 10, "p2_cards": 0, "history": ((10, 0),),
    }


def test_a_war_that_ties_again_is_a_chain_of_2(impl):
    """longest_war_chain counts 1 for a war plus 1 for each face-up tie inside it."""
    deck = deck_for("5 2 3 4 9 6 7 8 K", "5 2 3 4 9 6 7 8 Q")
    game = fields(impl.play_game(deck=deck))
    assert game == {
        "winner": "P1", "rounds": 1, "wars": 1, "longest_war_chain": 2,
        "p1_cards": 18, "p2_cards": 0, "history": ((18, 0),),
    }


def test_a_war_lost_at_its_first_check_is_a_chain_of_1(impl):
    """A player short at a war's first availability check: the war still counts, with a chain of 1."""
    # Round 1: K beats 2, so P1 keeps 4 cards. Round 2: 5 v 5 leaves P1 3 cards, too few: P2 wins them all.
    game = fields(impl.play_game(deck=deck_for("2 5 3 4 6", "K 5 7 8 9")))
    assert game == {
        "winner": "P2", "rounds": 2, "wars": 1, "longest_war_chain": 1,
        "p1_cards": 0, "p2_cards": 10, "history": ((4, 6), (0, 10)),
    }


def test_a_war_lost_at_the_check_after_a_tie_is_a_chain_of_2(impl):
    """A player short after one face-up tie: a chain of 2 (1 for the war, plus 1 for the tie)."""
    # Round 1: K beats 2. Round 2: 5 v 5, then 9 v 9 face up; P1 has 3 cards left, too few: P2 wins them all.
    game = fields(impl.play_game(deck=deck_for("2 5 3 4 6 9 1 1 1", "K 5 7 8 10 9 J J J")))
    assert game == {
        "winner": "P2", "rounds": 2, "wars": 1, "longest_war_chain": 2,
        "p1_cards": 0, "p2_cards": 18, "history": ((8, 10), (0, 18)),
    }


def test_the_longest_chain_is_the_longest_war_of_the_game_not_the_last(impl):
    """A chain-2 war in round 1 and a chain-1 war in round 2: wars is 2 and longest_war_chain is 2."""
    # Round 1: 5 v 5, tie again on 9 v 9, then K beats Q. Round 2: 10 v 10, J beats 3 and P2 has no card left.
    deck = deck_for("5 2 3 4 9 6 7 8 K  10 1 1 1 J", "5 2 3 4 9 6 7 8 Q  10 Jo Jo 4 3")
    game = fields(impl.play_game(deck=deck))
    assert game == {
        "winner": "P1", "rounds": 2, "wars": 2, "longest_war_chain": 2,
        "p1_cards": 28, "p2_cards": 0, "history": ((23, 5), (28, 0)),
    }


def test_a_war_where_both_run_short_ends_the_game_as_a_draw(impl):
    """resolve_war's "draw" ends play_game at once: winner "draw", each player keeps its own cards."""
    game = fields(impl.play_game(deck=deck_for("5 2", "5 3")))
    assert game == {
        "winner": "draw", "rounds": 1, "wars": 1, "longest_war_chain": 1,
        "p1_cards": 2, "p2_cards": 2, "history": ((2, 2),),
    }


@pytest.mark.parametrize("max_rounds", [-1, 2.5, "10"], ids=repr)
def test_a_bad_round_limit_is_rejected(impl, max_rounds):
    """max_rounds that is not an int >= 0 raises ValueError."""
    with pytest.raises(ValueError):
        impl.play_game(max_rounds=max_rounds, seed=1)
