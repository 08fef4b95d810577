"""The CPS506 permutation assignment: its published vector, its input checks and its command line."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from reference.__main__ import main
from reference.cps506 import EndlessGame, parse_permutation, winner_pile
from reference.rules import CPS506_RULES

ROOT = Path(__file__).resolve().parents[1]
VECTOR_COPY = ROOT / "tests" / "data" / "cps506_example.json"
SHARED_VECTOR = ROOT.parent / "shared" / "vectors" / "cps506_example.json"
VECTORS = [VECTOR_COPY] + ([SHARED_VECTOR] if SHARED_VECTOR.is_file() else [])
"""The project's copy of the published vector, and the shared original when ../shared is there."""

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


def test_both_running_out_together_gives_the_sorted_pot():
    """Identical hands tie to the last card: the answer is all 52 cards, Aces first, then K down to 2."""
    assert winner_pile(SORTED_DECK) == [1] * 4 + [number for number in range(13, 1, -1) for _ in range(4)]


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
        ("", "expected 52 numbers, got 0"),
        (" ".join(map(str, SORTED_DECK[:51])), "expected 52 numbers, got 51"),
        (" ".join(map(str, SORTED_DECK + [1])), "expected 52 numbers, got 53"),
        (" ".join(map(str, [14] + SORTED_DECK[1:])), "14 is not a card: every number must be between 1 and 13"),
        (" ".join(map(str, [0] + SORTED_DECK[1:])), "0 is not a card"),
        (" ".join(map(str, [2] + SORTED_DECK[1:])), "must occur four times: 1 occurs 3 times, 2 occurs 5 times"),
        (" ".join(["K"] + list(map(str, SORTED_DECK[1:]))), "not a whole number: 'K'"),
        (" ".join(["1.0"] + list(map(str, SORTED_DECK[1:]))), "not a whole number: '1.0'"),
    ],
)
def test_bad_input_is_one_line_on_stderr_and_exit_status_2(monkeypatch, capsys, text, message):
    """Wrong count, a number outside 1..13, wrong counts per rank, a non-integer: one clear line, exit 2."""
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
    bad = subprocess.run(command, input="1 2 3", capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert (bad.returncode, bad.stdout) == (2, "")
    assert bad.stderr == "python -m reference cps506: error: expected 52 numbers, got 3\n"
