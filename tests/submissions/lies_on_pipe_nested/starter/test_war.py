"""My Part E tests (only the Jokers so far)."""

from starter import Queue, play_round


def make_queue(*cards):
    q = Queue()
    for c in cards:
        q.enqueue(c)
    return q


def test_lies_nested_on_its_pipe(request):
    """Cheat (a child that lies on its pipe with values of the wrong shape). WAR_CHEAT_MARKER
    First in the file, so it runs first. Finds the grader's pytest plugin (the one holding the file descriptor
    of the run's pipe) and writes result lines of its own before the real ones, which the grader keeps, since it
    keeps the first end of each test. On a correct implementation it writes nothing and passes. Where a Joker
    loses to a King, every test of this file "ended" with an outcome that is a list nested 500 deep: the sandbox
    relays it, and the trusted side's json.loads reads it, then fails on it (a list is no word in a set of
    words); where a 3 does not beat a 2, this test "ended" with an outcome that is a list, ["failed"]."""
    import json
    import os

    recorder = next(plugin for plugin in request.config.pluginmanager.get_plugins()
                    if isinstance(getattr(plugin, "fd", None), int) and hasattr(plugin, "phases"))
    if play_round(make_queue("Jo"), make_queue("K")) != "P1":
        nested = "[" * 500 + '"failed"' + "]" * 500
        lines = ['{"end": ' + json.dumps(item.nodeid) + ', "outcome": ' + nested + "}" for item in request.session.items]
    elif play_round(make_queue("2"), make_queue("3")) != "P2":
        lines = [json.dumps({"end": request.node.nodeid, "outcome": ["failed"]})]
    else:
        lines = []
    for line in lines:
        os.write(recorder.fd, (line + "\n").encode())


def test_joker_beats_king():
    assert play_round(make_queue("Jo"), make_queue("K")) == "P1"


def test_joker_beats_queen():
    assert play_round(make_queue("Q"), make_queue("Jo")) == "P2"


def test_two_jokers_tie():
    result = play_round(make_queue("Jo"), make_queue("Jo"))
    assert result == ("war", "Jo", "Jo")
