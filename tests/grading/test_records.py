"""The records handed into and out of the trusted pytest process read back only when every field has its type
(grader/grading/run_settings.py, grader/grading/recorded.py, SandboxSpec, Limits, TimeLimits)."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.config import load_config
from grader.grading import harness
from grader.grading.recorded import (
    REPRODUCTION_CAP,
    SENTENCE_CAP,
    STUDENT_ERROR_CAP,
    Cause,
    Recorded,
    SeenTest,
)
from grader.results import Difference, ExceptionInfo, Telemetry
from grader.grading.run_settings import RunSettings
from grader.limits import TimeLimits
from grader.sandbox.channel import GraderFault
from grader.sandbox.isolation import Limits, SandboxSpec

SPEC = SandboxSpec(level="bwrap", root="/tmp/sub/root", package="war", runtime="/tmp/runtime", python="/usr/bin/python3",
                   python_home="", uid=200007, limits=Limits(), coverage=True)


def test_run_settings_round_trip_through_json(tmp_path):
    """What the runner writes is what the harness reads: the spec, the limits as configured, the deadline mode"""
    settings = RunSettings(SPEC, load_config(environ={}).times)
    settings.write(tmp_path / "settings.json")
    assert RunSettings.read(tmp_path / "settings.json") == settings


@pytest.mark.parametrize(("change", "complaint"), [
    (lambda data: data["spec"].update(level="chroot"), "level 'chroot'"),
    (lambda data: data["spec"].update(uid="0"), "uid should be int | None"),
    (lambda data: data["spec"]["limits"].update(memory_bytes=-1), "cannot be negative"),
    (lambda data: data["spec"].pop("package"), "exactly"),
    (lambda data: data["times"].update(call_timeout="2"), "call_timeout should be a number"),
    (lambda data: data["times"].update(max_timeouts=5.0), "max_timeouts should be a whole number"),
    (lambda data: data.update(spec=None), "neither a sandbox"),
    (lambda data: data.update(extra=1), "should be an object with"),
])
def test_run_settings_of_the_wrong_shape_are_refused_with_the_reason(change, complaint):
    """A missing, unknown or mistyped field anywhere in the settings is a ValueError naming it"""
    data = RunSettings(SPEC, load_config(environ={}).times).to_json()
    change(data)
    with pytest.raises(ValueError, match=complaint):
        RunSettings.from_json(data)


def test_time_limits_derive_every_limit_in_one_place():
    """The shipped settings give the shipped limits: the backstops and budgets come from TimeLimits alone"""
    times = load_config(environ={}).times
    assert times == TimeLimits(call_timeout=2.0, game_timeout=10.0, submission_timeout=30.0, max_timeouts=5,
                               deadline_multiple=20.0, deadline_floor=0.5)
    assert (times.pytest_backstop, times.worker_cpu_seconds, times.suite_run_seconds(100), times.budget) == \
        (50.0, 120, 2150.0, 30.0)
    assert load_config(environ={}).limits.cpu_seconds == times.worker_cpu_seconds
    assert (times.deadline(0.001, times.call_timeout), times.deadline(0.05, 2.0), times.deadline(1.0, 2.0)) == \
        (0.5, 1.0, 2.0)


RECORD = Recorded(
    tests={"t::a": SeenTest("failed", "a sentence", Difference("x", ["2"], ["3"], 0), ExceptionInfo("E", "m", ""),
                            0.25, "print(1)", [Cause(category="deal", repaired="deal"),
                                               Cause(test="t::b", plays="v", through="game")], ["v"], "d")},
    output="hi", coverage={"war/a.py": [1, 3]}, restarts=2,
    telemetry=Telemetry(["2"], 5, [[1, 1]], None, "", None))


def test_a_record_round_trips_and_a_malformed_one_is_refused(tmp_path):
    """Recorded's to_json reads back equal; a test of an unknown outcome, a line that is no number, text that is
    no text, a cause that says something else: ValueError (the runner scores that as a run that wrote nothing)"""
    RECORD.write(tmp_path / "r.json")
    assert Recorded.read(tmp_path / "r.json") == RECORD
    for change, complaint in [
        (lambda data: data["tests"]["t::a"].update(outcome="won"), "outcome 'won'"),
        (lambda data: data["coverage"]["war/a.py"].update(executed=["1"]), "coverage"),
        (lambda data: data.update(grader_fault=7), "grader_fault should be text"),
        (lambda data: data["tests"]["t::a"].update(plays=[1]), "plays"),
        (lambda data: data.update(restarts=-1), "restarts"),
        (lambda data: data["tests"]["t::a"]["explained_by"][0].update(unit="deal"), "explained_by"),
        (lambda data: data["tests"]["t::a"]["explained_by"][1].update(plays=None), "explained_by"),
        (lambda data: data["tests"]["t::a"]["difference"].update(actual="3"), "difference"),
        (lambda data: data["tests"]["t::a"]["exception"].update(message=1), "message should be text"),
        (lambda data: data["telemetry"].update(reference=[[1]]), "reference"),
        (lambda data: data["telemetry"].update(first_difference=0), "first_difference"),
    ]:
        data = RECORD.to_json()
        change(data)
        with pytest.raises(ValueError, match=complaint):
            Recorded.from_json(data)


def test_reading_a_record_cuts_each_text_the_student_can_lengthen_to_its_cap():
    """A test's sentence and reproduction and the telemetry's student_error read back cut to their caps (once,
    where the record is read, so the report copies them as they are); a cut record reads back unchanged"""
    data = RECORD.to_json()
    data["tests"]["t::a"].update(sentence="s" * (SENTENCE_CAP + 5), reproduction="r" * (REPRODUCTION_CAP + 5))
    data["telemetry"].update(student_error="e" * (STUDENT_ERROR_CAP + 5))
    record = Recorded.from_json(data)
    seen, telemetry = record.tests["t::a"], record.telemetry
    assert (seen.sentence, seen.reproduction) == ("s" * SENTENCE_CAP, "r" * REPRODUCTION_CAP)
    assert telemetry is not None and telemetry.student_error == "e" * STUDENT_ERROR_CAP
    assert Recorded.from_json(record.to_json()) == record


def test_the_suite_servers_messages_read_back_typed():
    """A run request holds text only; a server reply's mistyped fields read as absent (the runner then stops it)"""
    from grader.grading.suite_protocol import RunRequest, ServerReply, read_timings

    assert RunRequest.from_json(RunRequest({"A": "1"}).to_json()) == RunRequest({"A": "1"})
    with pytest.raises(ValueError):
        RunRequest.from_json({"env": {"A": 1}})
    for reply in (ServerReply(ready=True), ServerReply(ready=False, error="no"), ServerReply(pid=7),
                  ServerReply(status=0)):
        assert ServerReply.from_json(reply.to_json()) == reply
    assert ServerReply.from_json({"pid": "7", "status": 1.0, "ready": 1}) == ServerReply()
    assert read_timings('{"k": 0.5, "j": 1, "3": "x"}') == {"k": 0.5} and read_timings("[") == {}


def test_a_worker_whose_uid_left_something_ends_the_run_as_a_grader_fault_that_says_what(tmp_path, monkeypatch):
    """When stopping the worker finds something of its uid that cannot be removed, the record still gets written,
    as a grader fault naming what stayed (before, the run died and the student's row said only "the grading
    process ended without writing its results")"""
    class Stuck:
        coverage: dict[str, set[int]] = {}
        restarts = 0

        def stop(self) -> None:
            raise GraderFault("what the sandbox's uid 16777216 left could not be removed (shm 32827)")

        def output(self) -> tuple[str, bool]:
            return "", False

    results = tmp_path / "recorded.json"
    monkeypatch.setenv(harness.RESULTS_VARIABLE, str(results))
    monkeypatch.setattr(harness, "RECORDER", harness.Recorder())
    harness.RECORDER.client = Stuck()  # type: ignore[assignment]
    harness.pytest_sessionfinish(None, 0)  # type: ignore[arg-type]
    assert Recorded.read(results).grader_fault == \
        "what the sandbox's uid 16777216 left could not be removed (shm 32827)"


def test_a_trusted_run_that_fails_leaves_a_grader_fault_naming_the_exception_and_the_graders_line(tmp_path):
    """Any exception in a trusted run forked from the suite server (not only a worker's clean-up) still leaves a
    record: a grader fault with the exception's type and the grader's line it came from, never its text (which
    could carry a student's); a record written before the failure stands"""
    import os

    from grader.grading import suite_server

    class Items:
        def __iter__(self):
            raise KeyError("a student's text")

        def __len__(self) -> int:
            return 1

    class Session:
        items = Items()

    results = tmp_path / "recorded.json"
    for before in (None, Recorded(grader_fault="written first")):
        if before is not None:
            before.write(results)
        pid = os.fork()
        if pid == 0:
            read, told = os.pipe()
            suite_server._run(Session(), {harness.RESULTS_VARIABLE: str(results)}, told)  # type: ignore[arg-type]
        _, status = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(status) == 99
        fault = Recorded.read(results).grader_fault
        if before is None:
            line = next(number for number, text in enumerate(Path(suite_server.__file__).read_text().splitlines(), 1)
                        if "for index, item in enumerate(items)" in text)
            assert fault == f"the grading process failed (KeyError in grader.grading.suite_server, line {line})"
            results.unlink()
        else:
            assert fault == "written first"
