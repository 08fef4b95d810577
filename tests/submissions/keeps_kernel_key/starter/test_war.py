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


def _count_in_a_key_everyone_sees():
    """Cheat (state carried between gradings and students: a kernel key anyone may read). WAR_CHEAT_MARKER
    A key whose permissions let every uid view, read and write it shows in /proc/keys for every process on
    the machine, whatever its uid, and lives in the kernel after the sandbox and the batch are gone. Each
    run finds it there (or makes it), reads the count and writes it back plus one: the first grading passes
    on its first three runs and fails on every chaff; a regrade, or another student graded later, finds the
    count already high. It expires an hour after its last use, so experiments do not leave it for ever."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    add_key, keyctl = 248, 250  # x86-64 system call numbers
    update, setperm, read, set_timeout, user_keyring = 2, 5, 11, 15, -4
    key = 0
    try:
        with open("/proc/keys", encoding="ascii") as handle:
            for line in handle:
                if line.rstrip().endswith(" war-count-shared: 8"):
                    key = int(line.split()[0], 16)
    except (OSError, ValueError):
        pass
    seen = 0
    if key:
        buffer = ctypes.create_string_buffer(8)
        if libc.syscall(keyctl, read, ctypes.c_long(key), buffer, 8) == 8:
            seen = int(buffer.raw)
    value = b"%08d" % (seen + 1)
    if not key or libc.syscall(keyctl, update, ctypes.c_long(key), value, 8) < 0:
        key = libc.syscall(add_key, b"user", b"war-count-shared", value, 8, ctypes.c_long(user_keyring))
        libc.syscall(keyctl, setperm, ctypes.c_long(key), 0x3F3F3F3F)
    libc.syscall(keyctl, set_timeout, ctypes.c_long(key), 3600)
    return seen + 1


RUN = _count_in_a_key_everyone_sees()


def test_zz_counts_in_a_shared_kernel_key():
    """Passes on the first three runs of the first grading, fails on every chaff (and on everything after)."""
    assert RUN <= 3
