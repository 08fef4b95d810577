"""The CPS506 permutation assignment: its published vectors, its input checks and its command line."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from reference.__main__ import main
from reference import Queue, play_game, resolve_war
from reference.cps506 import EndlessGame, deck_note, parse_permutation, winner_pile
from reference.rules import CPS506_RULES

ROOT = Path(__file__).resolve().parents[2]
VECTOR_COPY = ROOT / "tests" / "data" / "cps506_example.json"
SHARED_VECTOR = ROOT.parent / "shared" / "vectors" / "cps506_example.json"
VECTORS = [VECTOR_COPY] + ([SHARED_VECTOR] if SHARED_VECTOR.is_file() else [])
"""The project's copy of the published vector, and the shared original when ../shared is there."""

MORE_COPY = ROOT / "tests" / "data" / "cps506_more.json"
SHARED_MORE = ROOT.parent / "shared" / "vectors" / "cps506_more.json"
MORE_VECTORS = json.loads(MORE_COPY.read_text(encoding="utf-8"))["vectors"]
"""Two more published cases: an instructor's test where a last card goes face down, a classmate's 6-card deck."""

SORTED_DECK = [number for number in range(1, 14) for _ in range(4)]
"""1 1 1 1 2 2 2 2 ... 13: dealt on top, both hands are the same, so every battle ties."""

ENDLESS_UNDER_PLAYED_ORDER = [
    8, 4, 12, 11, 10, 2, 2, 10, 1, 13, 9, 1, 2, 9, 6, 4, 13, 8, 9, 12, 10, 3, 11, 5, 4, 3,
    6, 7, 13, 6, 1, 11, 3, 12, 2, 11, 5, 3, 12, 4, 10, 6, 8, 5, 7, 8, 9, 5, 1, 7, 13, 7,
]
"""random.Random(0).shuffle of the sorted deck: with "played" pick-up instead of "sorted" it loops forever."""


def run_cli(monkeypatch, capsys, text: str, *args: str) -> tuple[int, str, str]:
    """python -m reference cps506 in this process with `text` on stdin: exit status, stdout, stderr."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    try:
        status = main(["cps506", *args])
    except SystemExit as stop:
        status = stop.code
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("path", VECTORS, ids=lambda path: path.parent.parent.name)
def test_the_published_vector_gives_the_published_winner_pile(path):
    """winner_pile(the published input) is the published pile, top first, for the copy and the shared original."""
    vector = json.loads(path.read_text(encoding="utf-8"))
    assert vector["rules"] == "cps506"
    assert winner_pile(vector["input"]) == vector["expected_winner_pile_top_first"]


def test_the_copy_of_the_vector_is_the_shared_one_byte_for_byte():
    """tests/data/cps506_example.json equals ../shared/vectors/cps506_example.json where that exists."""
    if not SHARED_VECTOR.is_file():
        pytest.skip("../shared is not beside this checkout")
    assert VECTOR_COPY.read_bytes() == SHARED_VECTOR.read_bytes()


@pytest.mark.parametrize("vector", MORE_VECTORS, ids=lambda vector: vector["name"].split(":")[0])
def test_the_more_published_vectors_give_their_expected_pile(vector):
    """Both vectors of cps506_more.json: the instructor's deal_8 test and the 6-card deck give the published pile."""
    assert winner_pile(vector["input"]) == vector["expected"]


def test_the_copies_of_the_more_vectors_are_the_shared_ones_byte_for_byte():
    """tests/data/cps506_more.json equals ../shared/vectors/cps506_more.json where that exists."""
    if not SHARED_MORE.is_file():
        pytest.skip("../shared is not beside this checkout")
    assert MORE_COPY.read_bytes() == SHARED_MORE.read_bytes()


def q(*cards: str) -> Queue[str]:
    """A queue holding the cards, the first one at the front."""
    queue: Queue[str] = Queue()
    for card in cards:
        queue.enqueue(card)
    return queue


def test_a_player_whose_last_card_goes_face_down_loses_and_the_winner_takes_the_sorted_pot():
    """Tied 5s, P2 holding one card: both lay a card face down, P2 has none to turn up and loses; P1 turns none up."""
    first, second = q("8", "9", "3"), q("Q")
    assert resolve_war(first, second, "5", "5", CPS506_RULES) == "P1"
    assert (list(first), list(second)) == (["9", "3", "Q", "8", "5", "5"], [])


def test_a_player_with_no_card_for_a_war_loses_and_nobody_lays_a_card_face_down():
    """Tied 5s on P1's last card: nobody lays a card down; P2 keeps its 3 and 8 in order, then adds the table 5 5."""
    first, second = q(), q("3", "8")
    assert resolve_war(first, second, "5", "5", CPS506_RULES) == "P2"
    assert (list(first), list(second)) == ([], ["3", "8", "5", "5"])


def test_a_game_ending_on_a_tie_with_an_empty_hand_gives_the_winners_cards_then_the_sorted_table():
    """Deck 5 5 13 2 deals P1 K 5 and P2 2 5: K takes 2, then 5 ties 5 with P2 empty; P1's pile is K 2, then 5 5."""
    assert winner_pile([5, 5, 13, 2]) == [13, 2, 5, 5]
    assert CPS506_RULES.short_war == "lay_down_if_both"


def test_both_running_out_together_gives_the_sorted_pot():
    """Identical hands tie to the last card: the answer is all 52 cards, Aces first, then K down to 2."""
    assert winner_pile(SORTED_DECK) == [1] * 4 + [number for number in range(13, 1, -1) for _ in range(4)]


@pytest.mark.parametrize(
    ("deck", "pile"),
    [([9, 9], [9, 9]), ([5, 5, 7, 7], [7, 7, 5, 5]), ([2, 2, 13, 13, 1, 1], [1, 1, 13, 13, 2, 2])],
)
def test_both_out_together_in_a_small_deck_gives_the_whole_pot_sorted(deck, pile):
    """Decks whose every battle ties until both hands are empty: a draw for the engine, every card sorted here."""
    game = play_game(deck=[str(number) if number <= 10 else "JQK"[number - 11] for number in deck], rules=CPS506_RULES)
    assert (game.winner, game.p1_cards + game.p2_cards) == ("draw", len(deck))
    assert winner_pile(deck) == pile


def test_decks_of_any_length_and_ranks_more_than_four_times_play():
    """20 cards, and 52 cards with the Ace five times, play to a pile holding exactly the cards given."""
    twenty = [3, 11, 7, 1, 9, 12, 2, 5, 13, 4, 8, 10, 6, 1, 9, 3, 12, 7, 2, 11]
    assert sorted(winner_pile(twenty)) == sorted(twenty)
    five_aces = [1] + SORTED_DECK[:-1]  # one King fewer, one Ace more
    assert sorted(winner_pile(five_aces)) == sorted(five_aces)


@pytest.mark.parametrize(
    ("deck", "note"),
    [
        (SORTED_DECK, None),
        ([2, 11, 13, 1, 1, 1], "not a full deck (6 numbers, not 52): playing it as given"),
        ([1] + SORTED_DECK[:-1], "not a full deck (1 occurs 5 times, not 4; 13 occurs 3 times, not 4): playing it as given"),
        ([1] * 5 + [2] * 3, "not a full deck (8 numbers, not 52; 1 occurs 5 times, not 4): playing it as given"),
    ],
)
def test_deck_note_says_how_a_deck_differs_from_a_full_one(deck, note):
    """No note for a full deck; a short deck's size, and any rank more than four times (all wrong ranks at 52)."""
    assert deck_note(deck) == note


def test_a_deal_that_returns_to_an_earlier_position_is_an_endless_game():
    """winner_pile raises EndlessGame, naming the rounds, when a position repeats (here under "played" pick-up)."""
    with pytest.raises(EndlessGame, match=r"never ends: after round \d+ it is back where it was after round \d+"):
        winner_pile(ENDLESS_UNDER_PLAYED_ORDER, replace(CPS506_RULES, collect="played"))
    assert sorted(winner_pile(ENDLESS_UNDER_PLAYED_ORDER)) == SORTED_DECK


def test_numbers_may_be_separated_by_whitespace_and_commas():
    """parse_permutation reads "1, 2\\n3 ..." with any mix of commas, spaces and newlines."""
    text = ", ".join(map(str, SORTED_DECK[:26])) + "\n" + "  ".join(map(str, SORTED_DECK[26:])) + ",\n"
    assert parse_permutation(text) == SORTED_DECK


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "expected at least 2 numbers (a full deck is 52), got 0"),
        ("7", "expected at least 2 numbers (a full deck is 52), got 1"),
        (" ".join(map(str, [14] + SORTED_DECK[1:])), "14 is not a card: every number must be between 1 and 13"),
        (" ".join(map(str, [0] + SORTED_DECK[1:])), "0 is not a card"),
        ("3 -1", "-1 is not a card"),
        (" ".join(["K"] + list(map(str, SORTED_DECK[1:]))), "not a whole number: 'K'"),
        (" ".join(["1.0"] + list(map(str, SORTED_DECK[1:]))), "not a whole number: '1.0'"),
    ],
)
def test_bad_input_is_one_line_on_stderr_and_exit_status_2(monkeypatch, capsys, text, message):
    """Fewer than 2 numbers, a number outside 1..13, a non-integer: one clear line, exit 2."""
    status, out, err = run_cli(monkeypatch, capsys, text)
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("python -m reference cps506: error: ")
    assert message in err


def test_the_command_prints_the_winner_pile_top_first_on_one_line(monkeypatch, capsys):
    """python -m reference cps506 prints the published pile as 52 integers separated by spaces."""
    vector = json.loads(VECTOR_COPY.read_text(encoding="utf-8"))
    status, out, err = run_cli(monkeypatch, capsys, ",".join(map(str, vector["input"])))
    assert (status, err) == (0, "")
    assert out == " ".join(map(str, vector["expected_winner_pile_top_first"])) + "\n"


def test_the_command_runs_as_a_module_and_rejects_bad_input_without_a_traceback():
    """`python -m reference cps506` in a subprocess: the vector gives exit 0, 51 numbers exit 2 with one line."""
    vector = json.loads(VECTOR_COPY.read_text(encoding="utf-8"))
    command = [sys.executable, "-m", "reference", "cps506"]
    good = subprocess.run(command, input=" ".join(map(str, vector["input"])), capture_output=True, text=True,
                          cwd=ROOT, timeout=60)
    assert good.returncode == 0, good.stderr
    assert list(map(int, good.stdout.split())) == vector["expected_winner_pile_top_first"]
    bad = subprocess.run(command, input="1 2 x", capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert (bad.returncode, bad.stdout) == (2, "")
    assert bad.stderr == "python -m reference cps506: error: not a whole number: 'x'\n"


def test_a_deck_that_is_no_full_permutation_gets_a_one_line_note_and_still_plays(monkeypatch, capsys):
    """The 6-card vector: exit 0, its pile on stdout, one note line on stderr."""
    vector = MORE_VECTORS[1]
    status, out, err = run_cli(monkeypatch, capsys, " ".join(map(str, vector["input"])))
    assert status == 0
    assert out == " ".join(map(str, vector["expected"])) + "\n"
    assert err == "python -m reference cps506: note: not a full deck (6 numbers, not 52): playing it as given\n"


def test_a_full_deck_plays_without_a_note(monkeypatch, capsys):
    """The instructor's deal_8 vector is a full deck: its pile and nothing on stderr."""
    vector = MORE_VECTORS[0]
    status, out, err = run_cli(monkeypatch, capsys, " ".join(map(str, vector["input"])))
    assert (status, err) == (0, "")
    assert out == " ".join(map(str, vector["expected"])) + "\n"
