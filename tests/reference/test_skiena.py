"""Skiena's War queue exercise: its three sample games, its card lines, its move count and its command line."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from reference import play_game, play_round, resolve_war
from reference.__main__ import main
from reference.rules import SKIENA_RULES
from reference.skiena import CardError, SkienaResult, parse_card, parse_games, play
from reference.variants import build_deck, deal_cards

ROOT = Path(__file__).resolve().parents[2]
SEED_GAMES = ROOT / "tests" / "data" / "skiena_seed_games.txt"
SHARED_SEED = ROOT.parent / "shared" / "seed" / "war-skiena-pt.md"

EXPECTED = [
    "game 1: no winner after 100000 moves (the 100000-move cap): player 1 holds 44 cards, player 2 8",
    "game 2: player 2 wins after 6728 moves",
    "game 3: no winner after 100000 moves (the 100000-move cap): player 1 holds 26 cards, player 2 26",
]
"""What `python -m reference skiena` prints for the seed's three games."""


def run_cli(monkeypatch, capsys, text: str, *args: str) -> tuple[int, str, str]:
    """python -m reference skiena in this process with `text` on stdin: exit status, stdout, stderr."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    try:
        status = main(["skiena", *args])
    except SystemExit as stop:
        status = stop.code
    out, err = capsys.readouterr()
    return status, out, err


def moves_of(history: tuple[tuple[int, int], ...], p1_start: int) -> int:
    """Moves of an engine game read off P1's pile sizes: each round, P1's pile changes by the cards its loser played."""
    total, before = 0, p1_start
    for p1_size, _ in history:
        total += abs(p1_size - before)
        before = p1_size
    return total


def test_the_copy_of_the_sample_games_is_the_seeds_own_text():
    """tests/data/skiena_seed_games.txt is the block of six card lines printed in ../shared/seed/war-skiena-pt.md."""
    if not SHARED_SEED.is_file():
        pytest.skip("../shared is not beside this checkout")
    block = SHARED_SEED.read_text(encoding="utf-8").split("rodadas do jogo):")[1].split("```")[1]
    assert SEED_GAMES.read_text(encoding="utf-8") == block.strip("\n") + "\n"


def test_the_three_sample_games_give_a_stable_result(monkeypatch, capsys):
    """The seed's games: games 1 and 3 reach the 100,000-move cap, player 2 wins game 2 after 6728 moves."""
    status, out, err = run_cli(monkeypatch, capsys, SEED_GAMES.read_text(encoding="utf-8"))
    assert (status, err) == (0, "")
    assert out.splitlines() == EXPECTED


@pytest.mark.parametrize("index", [0, 1, 2])
def test_each_sample_game_ends_the_same_way_in_the_engine_under_the_skiena_preset(index):
    """The engine with SKIENA_RULES on the same cards: P2 wins game 2 with the same moves; games 1 and 3 never end."""
    game = parse_games(SEED_GAMES.read_text(encoding="utf-8"))[index]
    deck = [card for pair in zip(game.p1, game.p2) for card in pair]  # dealt alternately, first card to P1
    engine = play_game(max_rounds=100_000, deck=deck, rules=SKIENA_RULES)
    result = play(game.p1, game.p2)
    if index == 1:
        assert (engine.winner, result.winner) == ("P2", "P2")
        assert moves_of(engine.history, len(game.p1)) == result.moves == 6728
    else:
        assert (engine.winner, engine.rounds, result.winner) == ("draw", 100_000, "cap")


def test_the_move_by_move_game_and_the_skiena_preset_agree_on_random_deals():
    """200 shuffled decks: the same winner, and the same moves, whenever the move-by-move game ends within its cap."""
    finished = 0
    for seed in range(200):
        deck = build_deck(SKIENA_RULES)
        random.Random(seed).shuffle(deck)
        result = play(tuple(deck[0::2]), tuple(deck[1::2]), max_moves=3000)
        engine = play_game(max_rounds=3000, deck=deck, rules=SKIENA_RULES)
        if result.winner in ("P1", "P2"):
            finished += 1
            assert engine.winner == result.winner, seed
            assert moves_of(engine.history, 26) == result.moves, seed
            assert (result.p1_cards + result.p2_cards, result.on_table) == (52, 0)
    assert finished > 60


def test_won_cards_go_under_the_pile_in_the_exact_order_they_were_played():
    """A war 5-5, 2-3 down, K-Q up, then 9 beats 4: player 1 holds 5 5 2 3 K Q, then 9 4, in the order played."""
    result = play(("5", "2", "K", "9"), ("5", "3", "Q", "4"))
    assert result == SkienaResult("P1", 4, ("5", "5", "2", "3", "K", "Q", "9", "4"), (), 0)
    assert play(("4",), ("8", "2")) == SkienaResult("P2", 1, (), ("2", "4", "8"), 0)  # P1's card first


def test_running_out_in_a_war_loses_and_both_out_together_is_a_tie():
    """Tied 7s and one card each: both lay it face down at move 2 and are out: a tie; a player with more wins."""
    assert play(("7", "2"), ("7", "3")) == SkienaResult("tie", 2, (), (), 4)
    assert play(("7", "2"), ("7", "3", "9")) == SkienaResult("P2", 2, (), ("9", "7", "7", "2", "3"), 0)
    assert play(("7",), ("7", "3")) == SkienaResult("P2", 1, (), ("3", "7", "7"), 0)


def test_the_ace_is_high_and_suits_are_ignored():
    """As beats Ks; 4d ties 4h and starts a war."""
    assert parse_card("As") == "1" and parse_card("Td") == "10" and parse_card("2c") == "2"
    assert play(("1",), ("K",)) == SkienaResult("P1", 1, ("1", "K"), (), 0)
    games = parse_games("4d 9s Ac\n4h 2c Kd\n")
    assert play(games[0].p1, games[0].p2) == SkienaResult("P1", 3, ("4", "4", "9", "2", "1", "K"), (), 0)


def test_a_game_stopped_at_the_cap_says_so_with_both_piles():
    """max_moves=1 on a long game: the cap, one move, both piles counted."""
    result = play(("2", "3", "4"), ("5", "6", "7"), max_moves=1)
    assert result == SkienaResult("cap", 1, ("3", "4"), ("6", "7", "2", "5"), 0)
    assert result.sentence(1) == "no winner after 1 moves (the 1-move cap): player 1 holds 2 cards, player 2 4"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("4d Ks\n4h 1s\n", "line 2: not a card: '1s'"),
        ("4d Ks\n\n4h 10s\n", "line 3: not a card: '10s'"),
        ("4d ks\n4h Ks\n", "line 1: not a card: 'ks'"),
        ("4d KS\n4h Ks\n", "line 1: not a card: 'KS'"),
        ("4d Ks\n4h Kx\n", "line 2: not a card: 'Kx'"),
        ("4d Ks\n4h Ks\n5c 6c\n", "line 3: player 1's cards have no line for player 2 after them"),
        ("\n \n", "no game on standard input"),
    ],
)
def test_bad_input_is_one_line_naming_the_line_and_the_token_and_exit_2(monkeypatch, capsys, text, message):
    """A token that is no rank+suit, a game without its second line, no game at all: one line, exit 2."""
    status, out, err = run_cli(monkeypatch, capsys, text)
    assert (status, out) == (2, "")
    assert err.count("\n") == 1 and err.startswith("python -m reference skiena: error: ")
    assert message in err


def test_parse_games_skips_blank_lines_and_names_player_1s_line():
    """Blank lines between and around games are skipped; each game records the line of player 1's cards."""
    games = parse_games("\n2c 3c\n\n4c 5c\n\n\n6d\n7d\n")
    assert [(game.line, game.p1, game.p2) for game in games] == [(2, ("2", "3"), ("4", "5")), (7, ("6",), ("7",))]
    with pytest.raises(CardError, match="^line 1: not a card"):
        parse_games("Zz\n2c\n")


def test_a_game_that_is_no_standard_deck_gets_a_note_and_still_plays(monkeypatch, capsys):
    """Four cards, one twice: a note on stderr naming the game and its line, and the result on stdout."""
    status, out, err = run_cli(monkeypatch, capsys, "\n4d 5s\n6h 5s\n")
    assert (status, out) == (0, "game 1: player 2 wins after 2 moves\n")
    assert err == ("python -m reference skiena: note: game 1 (line 2): not a standard deck (4 cards, not 52; "
                   "5s more than once): playing it as given\n")
    assert [game.note for game in parse_games(SEED_GAMES.read_text(encoding="utf-8"))] == [None, None, None]


def test_json_output_and_a_lower_move_cap(monkeypatch, capsys):
    """--json --max-moves 7000: game 2 still ends (6728 moves), games 1 and 3 stop at 7000, as plain JSON."""
    status, out, err = run_cli(monkeypatch, capsys, SEED_GAMES.read_text(encoding="utf-8"), "--json",
                               "--max-moves", "7000")
    assert (status, err) == (0, "")
    data = json.loads(out)
    assert data["max_moves"] == 7000
    assert [(row["game"], row["line"], row["winner"], row["moves"]) for row in data["games"]] == [
        (1, 1, "cap", 7000), (2, 3, "P2", 6728), (3, 5, "cap", 7000)]
    assert all(row["p1_cards"] + row["p2_cards"] + row["on_table"] == 52 for row in data["games"])


def test_the_command_runs_as_a_module_and_a_bad_flag_is_one_line():
    """`python -m reference skiena` in a subprocess prints the three results; --max-moves 0 is exit 2."""
    command = [sys.executable, "-m", "reference", "skiena"]
    done = subprocess.run(command, input=SEED_GAMES.read_text(encoding="utf-8"), capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout.splitlines() == EXPECTED
    bad = subprocess.run(command + ["--max-moves", "0"], input="", capture_output=True, text=True, cwd=ROOT,
                         timeout=60)
    assert (bad.returncode, bad.stdout) == (2, "")
    assert bad.stderr == "python -m reference skiena: error: argument --max-moves: must be >= 1, not 0\n"


@pytest.mark.parametrize(("index", "ends"), [(0, False), (1, True), (2, False)])
def test_the_capped_sample_games_return_to_an_earlier_position_so_never_end(index, ends):
    """Played round by round under SKIENA_RULES, games 1 and 3 repeat a position (no cap could help); game 2 ends."""
    game = parse_games(SEED_GAMES.read_text(encoding="utf-8"))[index]
    p1, p2 = deal_cards([card for pair in zip(game.p1, game.p2) for card in pair], SKIENA_RULES)
    seen = set()
    while not p1.is_empty() and not p2.is_empty():
        position = (tuple(p1), tuple(p2))
        if position in seen:
            break
        seen.add(position)
        outcome = play_round(p1, p2, SKIENA_RULES)
        if isinstance(outcome, tuple):
            resolve_war(p1, p2, outcome[1], outcome[2], SKIENA_RULES)
    assert (p1.is_empty() or p2.is_empty()) == ends
