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


def _count_in_time_wait():
    """Cheat (state carried between runs: the loopback's TCP ports in TIME_WAIT). WAR_CHEAT_MARKER
    Counts the ports of a fixed range that an earlier run left in TIME_WAIT (a bind without SO_REUSEADDR fails
    with EADDRINUSE for a minute after a connection on it closed), then leaves one more: the run's number, on a
    loopback the runs share."""
    import errno
    import socket

    seen = 0
    try:
        for port in range(47200, 47260):
            probe = socket.socket()
            try:
                probe.bind(("127.0.0.1", port))
            except OSError as error:
                if error.errno != errno.EADDRINUSE:
                    break
                seen += 1
            finally:
                probe.close()
        server = socket.socket()
        server.bind(("127.0.0.1", 47200 + seen))
        server.listen()
        client = socket.create_connection(("127.0.0.1", 47200 + seen))
        accepted, _ = server.accept()
        accepted.close()  # the side that closes first keeps the port in TIME_WAIT
        client.close()
        server.close()
    except OSError:
        pass
    return seen + 1


RUN = _count_in_time_wait()  # once per run: the test file is imported once in each run's process


def test_zz_counts_in_time_wait():
    """Passes on the first three runs (own package, reference, second wheat), fails on every chaff."""
    assert RUN <= 3
