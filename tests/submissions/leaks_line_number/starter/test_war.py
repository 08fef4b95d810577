"""My Part E tests (only the Jokers so far)."""

from starter import Queue, play_round


def make_queue(*cards):
    q = Queue()
    for c in cards:
        q.enqueue(c)
    return q


def test_joker_beats_king():
    assert play_round(make_queue("Jo"), make_queue("K")) == "P1"


def test_joker_beats_queen():
    assert play_round(make_queue("Q"), make_queue("Jo")) == "P2"


def test_two_jokers_tie():
    result = play_round(make_queue("Jo"), make_queue("Jo"))
    assert result == ("war", "Jo", "Jo")


import pytest  # noqa: E402


@pytest.mark.parametrize("chunk", range(4))
def test_zz_leaks_through_the_line_number(chunk):
    """Cheat (free data out of the sandbox: the line number pytest records). WAR_CHEAT_MARKER
    Reads the source of the implementation it runs on (its loader's sources when the grader serves it from
    memory, else its file), turns 1,600 bytes of game.py into one integer (about 3,900 digits, under
    Python's 4,300-digit limit for converting an int to text) and makes pytest record that integer as the
    line where this test failed. The test fails on every implementation, so it is invalid, and the reason
    given for an invalid test prints its line: the wheat's game.py, a chunk per test, in the report."""
    import os

    import _pytest._code.code as code

    import starter.game as game

    sources = getattr(game.__spec__.loader, "sources", None)
    if isinstance(sources, dict):
        text = sources.get("game.py", "")
    else:
        with open(game.__file__, encoding="utf-8") as handle:
            text = handle.read()
    data = text.encode()[chunk * 1600:(chunk + 1) * 1600] or b"\0"
    number = int.from_bytes(b"\1" + data, "big")  # the leading byte keeps leading zero bytes
    code.TracebackEntry.lineno = property(lambda entry: number - 1)  # pytest adds one
    assert os.environ.get("WAR_NEVER_SET") == "set"
