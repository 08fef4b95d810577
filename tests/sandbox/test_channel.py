"""The line to the worker: what a hostile call costs the grader (its deadline, its restarts), and no more."""

from __future__ import annotations

import pytest

from grader.sandbox.channel import StudentCrash, StudentMissing, StudentTimeout
from grader.sandbox.isolation import LEVELS

from sandbox_probe import available, probe_client, run, runtime, tmp_path  # noqa: F401 - fixtures

STRONGEST = next((level for level in LEVELS if available(level)), "plain")
"""The strongest sandbox level that works here."""


def test_an_endless_loop_is_stopped_within_a_few_milliseconds_of_its_deadline(tmp_path, runtime):
    """The clock is read more often as a deadline nears: three endless loops with a 0.5 s deadline are charged
    under 0.55 s at the median (read every 0.1 s, half of them would pass 0.55); a loaded machine wakes the reader late,
    so no loop may pass 0.6 s. test_process_clock holds the exact reading times"""
    client = probe_client(tmp_path, runtime, STRONGEST, call_timeout=0.5)
    charged = []
    try:
        for _ in range(3):
            with pytest.raises(StudentTimeout, match="within 0.5 s"):
                run(client, "while True:\n    pass")
            charged.append(client.last_charged)
    finally:
        client.stop()
    assert all(0.5 <= seconds < 0.6 for seconds in charged) and sorted(charged)[1] < 0.55, charged


def _outcomes(client, category: str, codes: list[str]) -> list[str]:
    """Each call's outcome in a category: its value, "crash", or "not run" (a crash the client refused to risk)."""
    client.category = category
    outcomes = []
    for code in codes:
        try:
            outcomes.append(run(client, code))
        except StudentCrash as crash:
            outcomes.append("not run" if crash.sentence.startswith("not run") else "crash")
    return outcomes


EXIT = "import os\nos._exit(0)"
"""A call that ends the worker."""


def test_a_category_whose_every_call_ends_the_worker_stops_restarting_it(tmp_path, runtime):
    """After 5 calls in a category that all ended the worker, its later calls are not run (no restart for
    each), and say why; another category still gets its calls, and an answer there keeps them coming"""
    client = probe_client(tmp_path, runtime, STRONGEST)
    try:
        assert _outcomes(client, "forced_war", [EXIT] * 7) == ["crash"] * 5 + ["not run"] * 2
        assert client.restarts == 4
        client.category = "forced_war"
        with pytest.raises(StudentCrash, match="ended in each of the 5 calls before this one in Forced war, so that category"):
            run(client, "result = 'never run'")
        assert _outcomes(client, "exhaustion", ["result = 'ok'"] + [EXIT] * 6) == ["ok"] + ["crash"] * 6
    finally:
        client.stop()


def test_the_sentence_of_a_call_not_run_after_5_timeouts_names_its_category(tmp_path, runtime):
    """After 5 time-outs in Full game the next call there is not run, and its sentence names Full game (the
    harness repeats it for the same call in an Extensions test, where "this category" would be false);
    Extensions' own calls still run"""
    client = probe_client(tmp_path, runtime, STRONGEST, call_timeout=0.2)
    try:
        client.category = "full_game"
        for _ in range(5):
            with pytest.raises(StudentTimeout, match="did not finish"):
                run(client, "while True:\n    pass")
        with pytest.raises(StudentTimeout, match="timed out 5 times in Full game, so that category's remaining"):
            run(client, "result = 'never run'")
        client.category = "extensions"
        assert run(client, "result = 'ran'") == "ran"
    finally:
        client.stop()


FLOOD = """
import sys
recorder = next(finder.recorder for finder in sys.meta_path if hasattr(finder, "recorder"))
state = {"next": 1}

def flood():
    first = state["next"]
    state["next"] += PER_REPLY
    return [{"path": "probe/__init__.py", "executed": list(range(first, first + PER_REPLY))}]

recorder.new_lines = flood
result = "replaced"
"""
"""Student code that replaces the worker's line recorder: every reply then carries PER_REPLY new line numbers."""


@pytest.mark.parametrize("per_reply", [1001, 400])
def test_a_submission_that_floods_the_line_record_is_charged_and_not_called_again(tmp_path, runtime, per_reply):
    """Past coverage_lines (1000 here) in one reply, or in all over three replies of 400 new numbers each, the
    call fails as the student's fault with one sentence, the record the grader keeps stays within the limit, and
    no later call of the submission is made (the union grew to 11 GB and took 144 s when nothing bounded it)"""
    client = probe_client(tmp_path, runtime, STRONGEST, coverage=True, coverage_lines=1000)
    sentence = "reported more than 1000 lines of your files as run"
    try:
        outcomes = []
        for _ in range(4):
            try:
                outcomes.append(run(client, FLOOD.replace("PER_REPLY", str(per_reply)) if not outcomes
                                    else "result = 'ok'"))
            except StudentMissing as missing:
                assert sentence in missing.sentence
                outcomes.append("not run" if missing.sentence.startswith("not run") else "charged")
        assert outcomes == (["charged", "not run", "not run", "not run"] if per_reply > 1000 else
                            ["replaced", "ok", "charged", "not run"])
        assert client.coverage_count <= 1000 + per_reply
        assert sum(len(lines) for lines in client.coverage.values()) <= 1000 + per_reply
    finally:
        client.stop()


DEEP_LINE = """
import os
line = b"[" * 100 + b"]" * 100 + b"\\n"
for fd in range(3, 20):
    try:
        os.write(fd, line)
    except OSError:
        pass
result = "wrote"
"""
"""Student code writing a line nested 100 deep on every descriptor it can, the worker's reply pipe among them."""


def test_a_line_nested_past_json_depth_on_the_reply_pipe_is_the_students_fault(tmp_path, runtime):
    """The channel reads every line with bounded_json: a line nested deeper than json_depth fails the call with one
    sentence (it was ignored, as a line answering nothing), and the next call gets a new worker"""
    client = probe_client(tmp_path, runtime, STRONGEST)
    try:
        with pytest.raises(StudentMissing, match="sent the grader a line nested more than 32 deep"):
            run(client, DEEP_LINE)
        assert run(client, "result = 'ok'") == "ok"
    finally:
        client.stop()
