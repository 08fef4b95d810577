"""Every field of Rules does what it says, on hand-made decks small enough to follow card by card."""

from __future__ import annotations

from dataclasses import replace

import pytest

from reference import DEFAULT_RULES, Queue, Rules, play_game, play_round, resolve_war
from reference.__main__ import main
from reference.rules import CPS506_RULES, DSL_RULES, PRESETS, SKIENA_RULES
from reference.variants import build_deck, deal_cards, describe, from_plain, play_dealt, preset, rules_from, strength
from reference.variants import to_plain


def q(*cards: str) -> Queue[str]:
    """A queue holding the cards, the first one at the front."""
    queue: Queue[str] = Queue()
    for card in cards:
        queue.enqueue(card)
    return queue


def cards(queue: Queue[str]) -> list[str]:
    """The queue's cards, front first."""
    return list(queue)


# --- the default and the presets ---------------------------------------------------------------------------


def test_the_default_rules_are_the_handouts_in_every_field():
    """Rules() is DEFAULT_RULES and the handout preset: 54 cards, alternate deal, 3 down, own pile first, forfeit."""
    assert Rules() == DEFAULT_RULES == PRESETS["handout"] == preset("handout")
    assert to_plain(Rules()) == {
        "face_down": 3,
        "collect": "winner_first",
        "deck": "handout",
        "high_card": "Jo",
        "deal": "alternate",
        "short_war": "forfeit",
    }


def test_the_cps506_preset_is_the_permutation_assignments_rules():
    """cps506: standard deck, Ace high, dealt on top, 1 down, sorted pick-up, cards go face down only while both hold one."""
    assert PRESETS["cps506"] == CPS506_RULES
    assert to_plain(CPS506_RULES) == {
        "face_down": 1,
        "collect": "sorted",
        "deck": "standard",
        "high_card": "1",
        "deal": "alternate_on_top",
        "short_war": "lay_down_if_both",
    }


def test_the_skiena_preset_is_the_queue_exercises_rules():
    """skiena: standard deck, Ace high, dealt alternately, 1 down, won cards as played, running out in a war loses."""
    assert PRESETS["skiena"] == SKIENA_RULES
    assert to_plain(SKIENA_RULES) == {
        "face_down": 1,
        "collect": "played",
        "deck": "standard",
        "high_card": "1",
        "deal": "alternate",
        "short_war": "lay_down",
    }


def test_the_dsl_preset_is_the_card_languages_rules():
    """dsl: standard deck, Ace high, dealt alternately, 3 down + 1 up, shuffled pick-up, short of 4 cards loses."""
    assert PRESETS["dsl"] == DSL_RULES
    assert to_plain(DSL_RULES) == {
        "face_down": 3,
        "collect": "shuffled",
        "deck": "standard",
        "high_card": "1",
        "deal": "alternate",
        "short_war": "forfeit",
    }


def test_an_unknown_preset_is_a_value_error_naming_the_choices():
    """preset("bogus") raises ValueError listing handout, cps506, skiena and dsl."""
    with pytest.raises(ValueError, match="handout, cps506, skiena, dsl"):
        preset("bogus")


def test_rules_from_puts_each_override_in_place_and_a_new_deck_brings_its_high_card():
    """rules_from changes only the given fields; switching deck without a high card takes the deck's usual one."""
    assert rules_from("handout", collect="loser_first") == Rules(collect="loser_first")
    assert rules_from("handout", face_down=None) == Rules()
    assert rules_from("handout", deck="standard").high_card == "1"
    assert rules_from("cps506", deck="handout").high_card == "Jo"
    assert rules_from("cps506", face_down=3) == replace(CPS506_RULES, face_down=3)


def test_describe_names_a_preset_or_the_fields_that_differ_from_the_base():
    """describe gives "handout", "cps506", "skiena", "dsl" or "handout + collect=loser_first"."""
    assert [describe(rules) for rules in PRESETS.values()] == ["handout", "cps506", "skiena", "dsl"]
    assert describe(Rules(collect="loser_first", face_down=1)) == "handout + face_down=1, collect=loser_first"
    assert describe(replace(CPS506_RULES, face_down=2), base="cps506") == "cps506 + face_down=2"


def test_rules_survive_the_round_trip_through_plain_values():
    """from_plain(to_plain(rules)) == rules, for every preset."""
    for rules in PRESETS.values():
        assert from_plain(to_plain(rules)) == rules


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("face_down", -1),
        ("face_down", 1.5),
        ("collect", "random"),
        ("deck", "tarot"),
        ("deal", "one_by_one"),
        ("short_war", "surrender"),
        ("short_war", "lay-down"),
        ("high_card", "A"),
    ],
)
def test_a_value_the_engine_cannot_play_is_a_value_error_naming_the_field(field, value):
    """Rules(**{field: bad}) raises ValueError whose message starts with the field's name."""
    with pytest.raises(ValueError, match=f"^{field} must be"):
        Rules(**{field: value})


def test_the_joker_cannot_be_the_high_card_of_a_deck_without_jokers():
    """Rules(deck="standard", high_card="Jo") is rejected."""
    with pytest.raises(ValueError, match="high_card must be one of 1, 2.*K with the standard deck"):
        Rules(deck="standard", high_card="Jo")


def test_no_high_card_means_the_decks_usual_top_card():
    """high_card=None becomes "Jo" for the handout deck and "1" (the Ace) for the standard deck."""
    assert Rules(high_card=None) == Rules(high_card="Jo") == Rules()
    assert Rules(deck="standard").high_card == "1"


# --- deck and high card ----------------------------------------------------------------------------------------


def test_the_standard_deck_has_52_cards_four_of_each_rank_and_no_joker():
    """deck="standard": 52 cards, no "Jo"; the handout deck keeps its 54 with two Jokers."""
    standard = build_deck(Rules(deck="standard"))
    assert len(standard) == 52 and "Jo" not in standard
    assert all(standard.count(rank) == 4 for rank in set(standard))
    handout = build_deck(Rules())
    assert len(handout) == 54 and handout.count("Jo") == 2


def test_ace_high_makes_the_1_beat_the_king():
    """Standard deck, Ace high: P1's "1" beats P2's "K" and P1 takes both, its own card first."""
    p1, p2 = q("1", "5"), q("K", "2")
    assert play_round(p1, p2, Rules(deck="standard")) == "P1"
    assert cards(p1) == ["5", "1", "K"]
    assert cards(p2) == ["2"]


def test_the_high_card_beats_everything_and_the_rest_keep_their_order():
    """high_card="7": 1 < 2 < ... < 6 < 8 < ... < K < 7; with the Jokers, high_card="1" puts the 1 above Jo."""
    seven = Rules(deck="standard", high_card="7")
    order = sorted(build_deck(seven), key=lambda card: strength(card, seven))
    assert order[::4] == ["1", "2", "3", "4", "5", "6", "8", "9", "10", "J", "Q", "K", "7"]
    ace_over_joker = Rules(high_card="1")
    assert strength("1", ace_over_joker) > strength("Jo", ace_over_joker) > strength("K", ace_over_joker)
    assert [strength(card, Rules()) for card in ("1", "K", "Jo")] == [1, 13, 14]


def test_a_joker_is_no_card_of_the_standard_deck():
    """play_round under the standard deck raises ValueError on a "Jo"."""
    with pytest.raises(ValueError, match="not a card of this deck: 'Jo'"):
        play_round(q("Jo"), q("K"), Rules(deck="standard"))


def test_a_non_card_gets_the_handouts_error_under_every_deck():
    """A string that is no card at all raises card_value's ValueError, naming it."""
    for rules in (Rules(), CPS506_RULES):
        with pytest.raises(ValueError, match="not a card: 'A'"):
            play_round(q("A"), q("K"), rules)


# --- deal ------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("deal", "p1", "p2"),
    [
        ("alternate", ["1", "3", "5"], ["2", "4"]),
        ("alternate_on_top", ["5", "3", "1"], ["4", "2"]),
        ("halves", ["1", "2", "3"], ["4", "5"]),
    ],
)
def test_each_deal_gives_each_player_its_cards_in_the_order_they_are_played(deal, p1, p2):
    """Dealing 1..5: alternate 1,3,5 / 2,4; on top 5,3,1 / 4,2; halves 1,2,3 / 4,5 (front first, P1 the odd card)."""
    first, second = deal_cards(["1", "2", "3", "4", "5"], Rules(deal=deal))
    assert (cards(first), cards(second)) == (p1, p2)


@pytest.mark.parametrize(
    ("deal", "winner", "history"),
    [
        ("alternate", "P1", ((3, 1), (2, 2), (3, 1), (4, 0))),
        ("alternate_on_top", "P1", ((1, 3), (2, 2), (3, 1), (4, 0))),
        ("halves", "P1", ((3, 1), (4, 0))),
    ],
)
def test_play_game_deals_the_deck_the_way_the_rules_say(deal, winner, history):
    """The same four cards K Q 2 3 make three different games under the three deals."""
    result = play_game(deck=["K", "Q", "2", "3"], rules=Rules(deal=deal))
    assert (result.winner, result.history) == (winner, history)


# --- face down -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("face_down", "winner", "p1", "p2"),
    [
        (0, "P2", ["9", "4"], ["5", "6", "3", "7", "2", "7"]),
        (1, "P1", ["4", "9", "2", "7", "5", "3", "7"], ["6"]),
        (2, "P2", [], ["6", "5", "3", "7", "4", "9", "2", "7"]),
    ],
)
def test_face_down_sets_how_many_cards_go_under_each_face_up_card(face_down, winner, p1, p2):
    """Tied 7s, P1 holding 2 9 4 and P2 3 5 6: 0 down compares 2 with 3, 1 down 9 with 5, 2 down 4 with 6."""
    first, second = q("2", "9", "4"), q("3", "5", "6")
    assert resolve_war(first, second, "7", "7", Rules(face_down=face_down)) == winner
    assert (cards(first), cards(second)) == (p1, p2)


# --- pick-up order ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("collect", "won"),
    [
        ("winner_first", ["9", "2", "7", "5", "3", "7"]),
        ("loser_first", ["5", "3", "7", "9", "2", "7"]),
        ("played", ["7", "7", "2", "3", "9", "5"]),
        ("sorted", ["9", "7", "7", "5", "3", "2"]),
    ],
)
def test_collect_sets_the_order_the_war_winner_adds_the_pot(collect, won):
    """P1 wins 7-2-9 against 7-3-5: own pile top first, the other's first, as played, or highest first."""
    first, second = q("2", "9", "4"), q("3", "5", "6")
    assert resolve_war(first, second, "7", "7", Rules(face_down=1, collect=collect)) == "P1"
    assert cards(first) == ["4", *won]
    assert cards(second) == ["6"]


def test_played_order_follows_a_chained_war_card_by_card():
    """A war that ties again is collected as played: tied cards, then P1's card then P2's at every step."""
    first, second = q("2", "9", "3", "K"), q("4", "9", "5", "Q")
    assert resolve_war(first, second, "7", "7", Rules(face_down=1, collect="played")) == "P1"
    assert cards(first) == ["7", "7", "2", "4", "9", "9", "3", "5", "K", "Q"]
    assert cards(second) == []


@pytest.mark.parametrize(
    ("collect", "won"),
    [("winner_first", ["8", "3"]), ("loser_first", ["8", "3"]), ("played", ["3", "8"]), ("sorted", ["8", "3"])],
)
def test_collect_sets_the_order_of_a_battle_won_outright(collect, won):
    """P2's 8 beats P1's 3: winner's card first (loser_first is about war piles), as played P1's 3 first."""
    first, second = q("3"), q("8", "5")
    assert play_round(first, second, Rules(collect=collect)) == "P2"
    assert cards(second) == ["5", *won]


def test_shuffled_pick_up_keeps_the_cards_and_replays_with_the_games_seed():
    """collect="shuffled" adds exactly the pot, and play_game with one seed plays the same game every time."""
    first, second = q("2", "9", "4"), q("3", "5", "6")
    assert resolve_war(first, second, "7", "7", Rules(face_down=1, collect="shuffled")) == "P1"
    assert cards(first)[0] == "4" and sorted(cards(first)[1:]) == sorted(["9", "2", "7", "5", "3", "7"])
    shuffled = Rules(collect="shuffled")
    games = [play_game(seed=seed, rules=shuffled, max_rounds=300) for seed in range(8)]
    assert games == [play_game(seed=seed, rules=shuffled, max_rounds=300) for seed in range(8)]
    assert any(game.history != play_game(seed=seed, max_rounds=300).history for seed, game in enumerate(games))


# --- short-handed wars -----------------------------------------------------------------------------------------


def test_forfeit_a_player_short_of_face_down_plus_one_cards_loses_at_once():
    """Handout: P1 holds 1 card for a 3-down war; P2 takes both piles and P1's last card without a fight."""
    first, second = q("5"), q("2", "3", "4", "6", "8")
    assert resolve_war(first, second, "7", "7", Rules()) == "P2"
    assert (cards(first), cards(second)) == ([], ["2", "3", "4", "6", "8", "7", "7", "5"])


def test_play_out_a_short_player_turns_its_last_card_face_up():
    """Play out: P1's only card is its face-up card against P2's 3 down + 1 up; the higher face-up card wins."""
    rules = Rules(short_war="play_out")
    first, second = q("5"), q("2", "3", "4", "6", "8")
    assert resolve_war(first, second, "7", "7", rules) == "P2"
    assert (cards(first), cards(second)) == ([], ["8", "6", "4", "3", "2", "7", "5", "7"])
    first, second = q("9"), q("2", "3", "4", "6", "8")
    assert resolve_war(first, second, "7", "7", rules) == "P1"
    assert (cards(first), cards(second)) == (["9", "7", "6", "4", "3", "2", "7"], ["8"])


def test_play_out_a_player_with_no_card_to_turn_up_loses_the_whole_pot():
    """Play out, 1 down: P1's last card ties, then P1 has nothing to turn up and P2 takes every card on the table."""
    first, second = q("4"), q("2", "4", "9")
    assert resolve_war(first, second, "7", "7", Rules(face_down=1, short_war="play_out")) == "P2"
    assert (cards(first), cards(second)) == ([], ["9", "4", "2", "7", "4", "7"])


def test_play_out_both_out_of_cards_together_is_a_draw_and_each_takes_its_pile_back():
    """Play out: both turn up their last card, tie, and have none left: "draw", each pile back to its owner."""
    first, second = q("4"), q("4")
    assert resolve_war(first, second, "7", "7", Rules(face_down=1, short_war="play_out")) == "draw"
    assert (cards(first), cards(second)) == (["4", "7"], ["4", "7"])


def test_lay_down_a_player_short_of_face_down_cards_lays_what_it_has_and_loses():
    """Lay down, 3 down: P1's 2 cards go face down beside P2's 3, P1 has none to turn up; P2 takes the table."""
    rules = Rules(short_war="lay_down")
    first, second = q("5", "9"), q("2", "3", "4", "6", "8")
    assert resolve_war(first, second, "7", "7", rules) == "P2"
    assert (cards(first), cards(second)) == ([], ["6", "8", "4", "3", "2", "7", "9", "5", "7"])


def test_lay_down_exactly_face_down_cards_leave_none_to_turn_up_and_lose():
    """Lay down, 3 down: P1 holds exactly 3 cards, lays them all and loses, though forfeit would also say so."""
    first, second = q("5", "9", "K"), q("2", "3", "4", "6", "8")
    assert resolve_war(first, second, "7", "7", Rules(short_war="lay_down")) == "P2"
    assert cards(first) == [] and sorted(cards(second)) == sorted(["5", "9", "K", "2", "3", "4", "6", "8", "7", "7"])


def test_lay_down_a_player_with_enough_cards_fights_on_and_collects_as_the_rules_say():
    """Lay down, 1 down, played order: a war both can fight is an ordinary war, chained wars included."""
    first, second = q("2", "9", "3", "K"), q("4", "9", "5", "Q")
    assert resolve_war(first, second, "7", "7", Rules(face_down=1, collect="played", short_war="lay_down")) == "P1"
    assert cards(first) == ["7", "7", "2", "4", "9", "9", "3", "5", "K", "Q"]


def test_lay_down_a_short_player_loses_in_the_second_cycle_of_a_chained_war():
    """Lay down, 1 down, played order: 9s tie again, P2's last card goes face down, P1 takes the table as played."""
    first, second = q("2", "9", "3", "K"), q("4", "9", "5")
    assert resolve_war(first, second, "7", "7", Rules(face_down=1, collect="played", short_war="lay_down")) == "P1"
    assert (cards(first), cards(second)) == (["K", "7", "7", "2", "4", "9", "9", "3", "5"], [])


def test_lay_down_both_short_together_is_a_draw_and_each_takes_its_pile_back():
    """Lay down, 1 down: both lay their last card face down and have none to turn up: "draw", piles back, top first."""
    first, second = q("4"), q("6")
    assert resolve_war(first, second, "7", "7", Rules(face_down=1, short_war="lay_down")) == "draw"
    assert (cards(first), cards(second)) == (["4", "7"], ["6", "7"])


def test_lay_down_if_both_an_empty_hand_loses_before_anyone_lays_down_where_lay_down_lays_one():
    """P1 empty at the war: lay_down has P2 lay its 3 into the pot; lay_down_if_both leaves 3 in P2's hand, in order."""
    first, second = q(), q("3", "8")
    assert resolve_war(first, second, "7", "7", Rules(face_down=1, collect="sorted", short_war="lay_down")) == "P2"
    assert cards(second) == ["8", "7", "7", "3"]
    first, second = q(), q("3", "8")
    assert resolve_war(first, second, "7", "7", Rules(face_down=1, collect="sorted", short_war="lay_down_if_both")) == "P2"
    assert cards(second) == ["3", "8", "7", "7"]


def test_lay_down_if_both_a_last_card_laid_face_down_still_loses_and_both_empty_is_a_draw():
    """With both holding a card they lay down as under lay_down: no card left to turn up loses; both empty draws."""
    rules = Rules(face_down=1, collect="sorted", short_war="lay_down_if_both")
    first, second = q("8", "9"), q("Q")
    assert resolve_war(first, second, "5", "5", rules) == "P1"
    assert (cards(first), cards(second)) == (["9", "Q", "8", "5", "5"], [])
    first, second = q(), q()
    assert resolve_war(first, second, "5", "5", rules) == "draw"
    assert (cards(first), cards(second)) == (["5"], ["5"])


def test_the_cps506_preset_sorts_the_pot_with_the_ace_on_top():
    """cps506: a war won by an Ace is added Ace first, then the rest by decreasing rank."""
    first, second = q("3", "1", "6"), q("K", "Q", "2")
    assert resolve_war(first, second, "5", "5", CPS506_RULES) == "P1"
    assert cards(first) == ["6", "1", "K", "Q", "5", "5", "3"]


def test_play_dealt_leaves_the_final_cards_in_the_queues():
    """play_dealt plays a dealt game to its end like play_game, and the winner's queue holds every card."""
    first, second = deal_cards(["K", "Q", "2", "3"], Rules(deal="alternate_on_top"))
    result = play_dealt(first, second, Rules(deal="alternate_on_top"))
    assert result == play_game(deck=["K", "Q", "2", "3"], rules=Rules(deal="alternate_on_top"))
    assert sorted(cards(first)) == sorted(["K", "Q", "2", "3"]) and cards(second) == []


# --- the handout's rules play exactly as before ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("seed", "rules", "max_rounds", "expected"),
    [
        (7, Rules(), 1000, ("P1", 120, 9, 2, 54, 0)),
        (1, Rules(), 1000, ("P1", 183, 9, 1, 54, 0)),
        (2, Rules(), 1000, ("P1", 281, 18, 1, 54, 0)),
        (7, Rules(face_down=1, collect="loser_first"), 300, ("P1", 239, 18, 2, 54, 0)),
        (1, Rules(face_down=1, collect="loser_first"), 300, ("draw", 300, 15, 1, 9, 45)),
        (2, Rules(face_down=1, collect="loser_first"), 300, ("draw", 300, 23, 2, 13, 41)),
    ],
)
def test_seeded_games_under_the_original_fields_play_as_before_the_variants(seed, rules, max_rounds, expected):
    """The games the engine played before the variant fields existed come out the same, round for round."""
    result = play_game(max_rounds=max_rounds, seed=seed, rules=rules)
    assert (result.winner, result.rounds, result.wars, result.longest_war_chain, result.p1_cards,
            result.p2_cards) == expected


# --- the one-game command line ---------------------------------------------------------------------------------


def test_the_one_game_command_prints_exactly_what_it_printed_before(capsys):
    """python -m reference --seed 7 (with or without --collect loser-first --face-down 1) prints as it always did."""
    assert main(["--seed", "7"]) == 0
    assert main(["--seed", "7", "--collect", "loser-first", "--face-down", "1", "--max-rounds", "300"]) == 0
    assert capsys.readouterr().out == (
        "P1 wins after 120 rounds (seed 7): 9 wars, longest war chain 2, final cards P1 54 / P2 0\n"
        "P1 wins after 239 rounds (seed 7): 18 wars, longest war chain 2, final cards P1 54 / P2 0\n"
    )


def test_the_one_game_command_plays_a_preset_and_single_fields(capsys):
    """--preset cps506 plays 52 cards; --deck standard --deal halves changes just those fields."""
    assert main(["--seed", "3", "--preset", "cps506"]) == 0
    assert capsys.readouterr().out.endswith("final cards P1 52 / P2 0\n")
    assert main(["--seed", "3", "--deck", "standard", "--deal", "halves", "--max-rounds", "5"]) == 0
    expected = play_game(max_rounds=5, seed=3, rules=Rules(deck="standard", deal="halves"))
    assert f"final cards P1 {expected.p1_cards} / P2 {expected.p2_cards}" in capsys.readouterr().out


def test_the_one_game_command_reports_a_bad_flag_in_one_line_and_exit_2(capsys):
    """--face-down -1 and --high-card Jo with the standard deck: one line on stderr, exit status 2."""
    for args in (["--face-down", "-1"], ["--deck", "standard", "--high-card", "Jo"]):
        with pytest.raises(SystemExit) as stop:
            main(args)
        assert stop.value.code == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("python -m reference: error: ")


def test_the_help_names_the_cps506_skiena_and_simulate_subcommands(capsys):
    """python -m reference --help lists `python -m reference cps506`, `... skiena` and `... simulate`."""
    with pytest.raises(SystemExit) as stop:
        main(["--help"])
    assert stop.value.code == 0
    out = capsys.readouterr().out
    for name in ("cps506", "skiena", "simulate"):
        assert f"python -m reference {name}" in out


@pytest.mark.parametrize("name", ["skiena", "dsl"])
def test_the_one_game_command_plays_the_new_presets_on_52_cards(capsys, name):
    """--preset skiena and --preset dsl play a 52-card game, as play_game does with the preset."""
    assert main(["--seed", "5", "--preset", name, "--max-rounds", "5000"]) == 0
    expected = play_game(max_rounds=5000, seed=5, rules=PRESETS[name])
    assert expected.p1_cards + expected.p2_cards == 52
    assert capsys.readouterr().out.endswith(f"final cards P1 {expected.p1_cards} / P2 {expected.p2_cards}\n")
