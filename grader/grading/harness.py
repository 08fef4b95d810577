"""The pytest plugin of the trusted grading process: the `student` fixture and the results it records.

Loaded with `-p grader.grading.harness` by the runner. It never imports the submission: every call goes to
the sandboxed worker through grader.sandbox.channel, and only plain values come back.
"""

from __future__ import annotations

import importlib
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from ..limits import TimeLimits
from ..results import CATEGORY_TITLES
from ..sandbox.channel import GraderFault, StudentMissing, StudentProblem, StudentRaised, StudentTimeout, Ungradable, WorkerClient
from . import reproduction
from .calls import WORDS, Call
from .deadlines import ReferenceClock, call_text
from .recorded import Recorded, SeenTest, telemetry_from_json
from .run_settings import RunSettings
from .scoring import is_hidden
from .checks import Mismatch, decode, show

SPEC_VARIABLE = "WAR_GRADER_SPEC"
"""Path of a JSON file holding a RunSettings (grader/grading/run_settings.py)."""

FOREIGN_ANSWER = ("the process running your code answered in a form the grader never asked for "
                  "(does your code change objects that are not its own?)")
"""An honest worker's answers always have the shape below: any other shape is the student code's doing."""


def _shaped(value: Any, *keys: str) -> dict[str, Any]:
    """value if it is a dict holding keys, else the student's fault (a patched worker)."""
    if type(value) is not dict or any(key not in value for key in keys):
        raise StudentMissing(FOREIGN_ANSWER)
    return value

RESULTS_VARIABLE = "WAR_GRADER_RESULTS"
"""Path where the plugin writes what it saw, as JSON."""

MANIFEST_VARIABLE = "WAR_GRADER_MANIFEST"
"""With --collect-only: path where the plugin writes the suites' test ids, titles, categories and weights."""


@dataclass(frozen=True)
class RoundOutcome:
    """What one call left behind: the returned value and both queues, front first."""

    result: Any
    p1: list[Any]
    p2: list[Any]
    stacks: list[list[Any]] | None = None


class Student:
    """The submission as the hidden tests see it: typed calls that return decoded plain values.

    trusted runs a call with one unit repaired, everything else the student's own: True or "structures" puts
    the worker's own correct Queue and Stack in place of the student's; "Queue.dequeue" or "Stack.pop" that one
    method, working on the student's own storage; "card_value", "play_round",
    "resolve_war" or "deal" the worker's own version of that function (a counterfactual run). Every call leaves `last_call`, the lines of Python
    that replay it, and a call made twice with different answers marks the submission nondeterministic.
    """

    def __init__(self, client: WorkerClient | InProcessClient, times: TimeLimits) -> None:
        self.client = client
        self.times = times
        self.last_call = ""

    def _call(self, call: Call, reproduction: str, **args: Any) -> Any:
        self.last_call = reproduction
        op = call.op
        timeout = self.times.ceiling(call.rule.ceiling)
        encoded = json.dumps(args, sort_keys=True)  # once per call: the client uses it for the request too
        key = call_text(op, encoded)
        if key in RECORDER.hung:
            # The very same call already ran out of time in an earlier test: it would again, at the same cost.
            raise StudentTimeout(f"{RECORDER.hung[key]}; the same call, made again here, was not run a second time")
        try:
            value = self.client.call(op, timeout=timeout, encoded_args=encoded, **args)
        except StudentRaised as error:
            _remember(key, ["raised", (error.exception or {}).get("type")], op)
            raise
        except StudentTimeout as error:
            RECORDER.hung[key] = error.sentence
            raise
        _remember(key, value, op)
        return value

    def queue_ops(self, *ops: tuple[Any, ...]) -> list[dict[str, Any]]:
        """Apply (method, *args) steps to a new Queue; per step {"value": v} or {"raised": {...}}."""
        return self._steps(self._call(Call.STRUCTURE_OPS, reproduction.structure_steps("Queue", list(ops)),
                                      kind="Queue", ops=[list(op) for op in ops]))

    def stack_ops(self, *ops: tuple[Any, ...]) -> list[dict[str, Any]]:
        """Apply (method, *args) steps to a new Stack."""
        return self._steps(self._call(Call.STRUCTURE_OPS, reproduction.structure_steps("Stack", list(ops)),
                                      kind="Stack", ops=[list(op) for op in ops]))

    def card_values(self, cards: list[Any]) -> list[dict[str, Any]]:
        """card_value of each card: {"value": v} or {"raised": {...}}."""
        lines = reproduction.plain_call("card_value", "card").replace(
            "print(card_value(card))", f"for card in {show(cards)}:\n    print(card, card_value(card))")
        return self._steps(self._call(Call.CARD_VALUES, lines, cards=cards))

    def make_deck(self, **kwargs: Any) -> Any:
        """The student's make_deck(**kwargs)."""
        arguments = ", ".join(f"{key}={value!r}" for key, value in kwargs.items())
        return decode(self._call(Call.CALL, reproduction.plain_call("make_deck", arguments), function="make_deck",
                                 kwargs=kwargs))

    def shuffle(self, deck: list[str], seed: int | None) -> Any:
        """The student's shuffle(deck, seed)."""
        return decode(self._call(Call.CALL, reproduction.plain_call("shuffle", f"{show(deck)}, {seed!r}"),
                                 function="shuffle", kwargs={"deck": deck, "seed": seed}))

    def deal(self, deck: list[str], trusted: bool | str = False) -> tuple[list[Any], list[Any]]:
        """The student's deal(deck), both queues drained front first."""
        value = _shaped(self._call(Call.DEAL, reproduction.deal_call(deck), deck=deck, trusted=trusted), "p1", "p2")
        return decode(value["p1"]), decode(value["p2"])

    def play_round(self, p1: list[str], p2: list[str], rules: dict[str, Any] | None = None,
                   trusted: bool | str = False) -> RoundOutcome:
        """play_round on queues holding p1 and p2."""
        value = _shaped(self._call(Call.PLAY_ROUND, reproduction.round_call(p1, p2, rules), p1=p1, p2=p2, rules=rules,
                                   trusted=trusted), "result", "p1", "p2")
        return RoundOutcome(decode(value["result"]), decode(value["p1"]), decode(value["p2"]))

    def resolve_war(self, p1: list[str], p2: list[str], c1: str, c2: str,
                    rules: dict[str, Any] | None = None, trusted: bool | str = False) -> RoundOutcome:
        """resolve_war on queues holding p1 and p2 after c1 and c2 tied; also every Stack's pushes."""
        value = _shaped(self._call(Call.RESOLVE_WAR, reproduction.war_call(p1, p2, c1, c2, rules), p1=p1, p2=p2, c1=c1,
                                   c2=c2, rules=rules, trusted=trusted), "result", "p1", "p2")
        stacks = [decode(pushes) for pushes in value["stacks"]] if type(value.get("stacks")) is list else []
        return RoundOutcome(decode(value["result"]), decode(value["p1"]), decode(value["p2"]), stacks)

    def play_game(self, rules: dict[str, Any] | None = None, trusted: bool | str = False, **kwargs: Any) -> dict[str, Any]:
        """The fields of play_game(**kwargs)'s result, decoded."""
        value = _shaped(self._call(Call.PLAY_GAME, reproduction.game_call(kwargs, rules),
                                   kwargs=kwargs, rules=rules, trusted=trusted))
        return {key: decode(item) for key, item in value.items()}

    def replay(self, decks: list[list[str]], max_rounds: int, detail: bool = False,
               trusted: bool | str = False) -> list[dict[str, Any]]:
        """Each deck played with the student's play_round/resolve_war: sizes per round and final queues."""
        return self._call(Call.REPLAY, "", decks=decks, max_rounds=max_rounds,
                          detail=detail, trusted=trusted)

    @staticmethod
    def _steps(steps: Any) -> list[dict[str, Any]]:
        if type(steps) is not list or not all(type(step) is dict for step in steps):
            raise StudentMissing(FOREIGN_ANSWER)
        return [{"value": decode(step["value"])} if "value" in step else step for step in steps]


def _remember(key: str, answer: Any, op: str) -> None:
    """Keep each call's answer; a repeated call with another answer marks the submission nondeterministic.

    Answers are compared as JSON text, and only when a call comes again (most never do)."""
    if key not in RECORDER.answers:
        RECORDER.answers[key] = answer
        return
    seen = RECORDER.answers[key]
    if json.dumps(seen, sort_keys=True) != json.dumps(answer, sort_keys=True) \
            and not RECORDER.extra.get("nondeterministic"):
        RECORDER.extra["nondeterministic"] = (
            f"the same {op} call gave different answers within one run: your code draws on something other than "
            "its arguments and the game's seed (the clock, os.urandom, random.SystemRandom, or state left over "
            "from an earlier call), so its grade may change from one run to the next")


class InProcessClient:
    """The worker's operations run in this process on trusted code (the reference): the benchmark's floor.

    Never used for a submission: it imports the package it is given.
    """

    def __init__(self, package: str) -> None:
        from ..sandbox import worker  # noqa: PLC0415 - the worker's operations, imported as a module here

        module = importlib.import_module(package)
        self.session = worker.Session(str(Path(str(module.__file__)).parent.parent), package)
        self.restarts = 0
        self.coverage: dict[str, set[int]] = {}

    def call(self, op: str, timeout: float | None = None, *, encoded_args: str | None = None, **args: Any) -> Any:
        """The operation's value after a JSON round trip, as the real channel would give it."""
        return json.loads(json.dumps(getattr(self.session, "op_" + op)(**args)))

    def stop(self) -> None:
        """Nothing to stop in process."""

    def output(self) -> tuple[str, bool]:
        """Nothing is captured in process."""
        return "", False


class Recorder:
    """What the session saw, written to RESULTS_VARIABLE's file at the end."""

    def __init__(self) -> None:
        self.tests: dict[str, dict[str, Any]] = {}
        self.ungradable = ""
        self.grader_fault = ""
        self.extra: dict[str, Any] = {}
        self.client: WorkerClient | InProcessClient | None = None
        self.client_error: Exception | None = None
        self.answers: dict[str, Any] = {}
        self.hung: dict[str, str] = {}
        """Calls that ran out of time, by their request, with the sentence that said so."""
        self.student: Student | None = None
        self.times: TimeLimits | None = None
        """The run's time limits, once its settings are read."""
        self.hidden: tuple[str, ...] = ()
        """The tests hidden from students, once the settings are read (grading.toml's [visibility] hidden)."""
        self.group: bool | None = None
        """Whether the tests running now are hidden ones (None before the first)."""


RECORDER = Recorder()
"""The one recorder of this process."""


def _load_settings() -> RunSettings:
    path = os.environ.get(SPEC_VARIABLE)
    if not path:
        raise GraderFault(f"{SPEC_VARIABLE} is not set: run the suites through war-grader")
    try:
        return RunSettings.read(path)
    except ValueError as error:
        raise GraderFault(str(error)) from None


@pytest.fixture(scope="session")
def student() -> Student:
    """The submission, started once in its sandbox; restarted by the client after crashes."""
    if RECORDER.client is None and RECORDER.client_error is None:
        try:
            settings = _load_settings()
            RECORDER.times, RECORDER.hidden = settings.times, settings.hidden
            RECORDER.client = _start_client(settings)
        except Ungradable as error:
            RECORDER.ungradable, RECORDER.client_error = str(error), error
        except GraderFault as error:
            RECORDER.grader_fault, RECORDER.client_error = str(error), error
    if RECORDER.client_error is not None:
        raise RECORDER.client_error
    assert RECORDER.client is not None
    if RECORDER.student is None:
        assert RECORDER.times is not None
        RECORDER.student = Student(RECORDER.client, RECORDER.times)
    return RECORDER.student


def _start_client(settings: RunSettings) -> WorkerClient | InProcessClient:
    """The sandboxed worker of the submission, or the in-process floor for the benchmark."""
    if settings.in_process:
        return InProcessClient(settings.in_process)
    assert settings.spec is not None  # RunSettings.from_json: a spec or in_process
    times = settings.times
    deadlines = ReferenceClock(multiple=times.deadline_multiple, floor=times.deadline_floor) \
        if settings.deadlines else None
    client = WorkerClient(settings.spec, times=times, deadlines=deadlines, words=WORDS)
    client.start()
    return client


@pytest.fixture(scope="session")
def record() -> dict[str, Any]:
    """Session-wide data a test hands to the report (e.g. telemetry)."""
    return RECORDER.extra


def pytest_configure(config: pytest.Config) -> None:
    """Register the markers the suites use."""
    config.addinivalue_line("markers", "category(name): the grading category of every test in a module")
    config.addinivalue_line("markers", "weight(n): this test's share of its category (default 1)")
    config.addinivalue_line("markers", "rule(text): the handout's rule this test checks, shown even when hidden")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run the categories in CATEGORY_TITLES order: small calls first, whole games last, so a submission
    that hangs in a game cannot use up the timeouts that the other categories' tests would need."""
    order = {category: index for index, category in enumerate(CATEGORY_TITLES)}

    def rank(item: pytest.Item) -> int:
        marker = item.get_closest_marker("category")
        return order.get(marker.args[0], len(order)) if marker else len(order)

    items.sort(key=rank)


def pytest_collection_finish(session: pytest.Session) -> None:
    """In manifest mode, write every test's id, title, category and weight."""
    path = os.environ.get(MANIFEST_VARIABLE)
    if not path:
        return
    entries = []
    for item in session.items:
        category = item.get_closest_marker("category")
        weight = item.get_closest_marker("weight")
        rule = item.get_closest_marker("rule")
        doc = (getattr(getattr(item, "function", None), "__doc__", None) or item.name).strip().splitlines()[0]
        entries.append({
            "id": item.nodeid,
            "name": doc.rstrip("."),
            "category": category.args[0] if category else "",
            "weight": float(weight.args[0]) if weight else 1.0,
            "rule": str(rule.args[0]) if rule else "",
        })
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(entries, handle)


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Tell the worker client which category's timeouts the coming calls count against; between a hidden test and
    a visible one, start a fresh worker: a value student code raises or returns in a visible test can never carry
    what a hidden test passed (a worker lives across tests, and its scratch with it)."""
    marker = item.get_closest_marker("category")
    if RECORDER.times is None:  # before the first test's fixtures: which tests are hidden is known from the start
        try:
            settings = _load_settings()
            RECORDER.times, RECORDER.hidden = settings.times, settings.hidden
        except GraderFault:
            pass  # the student fixture says so
    hidden = is_hidden(item.nodeid, RECORDER.hidden)
    if isinstance(RECORDER.client, WorkerClient):
        RECORDER.client.category = marker.args[0] if marker else ""
        if RECORDER.group is not None and hidden != RECORDER.group:
            RECORDER.client.renew()  # hidden tests and visible ones never share a worker (nor what it kept)
    RECORDER.group = hidden
    if RECORDER.student is not None:
        RECORDER.student.last_call = ""


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """Record each test's outcome with its sentence, difference and the student's exception."""
    outcome = yield
    report = outcome.get_result()
    if report.when == "call" or (report.when == "setup" and report.outcome != "passed"):
        RECORDER.tests[item.nodeid] = _describe(report, call)


def _describe(report: pytest.TestReport, call: pytest.CallInfo[None]) -> dict[str, Any]:
    """One test's entry: outcome, sentence, difference, exception, duration, the lines that reproduce the
    failing call, and where its failure may come from a bug charged elsewhere."""
    entry: dict[str, Any] = {"outcome": "passed", "sentence": "", "difference": None, "exception": None,
                             "duration": report.duration, "reproduction": "", "explained_by": [], "plays": [],
                             "diagnosis": ""}
    if report.outcome == "passed":
        return entry
    error = call.excinfo.value if call.excinfo is not None else None
    last_call = RECORDER.student.last_call if RECORDER.student is not None else ""
    explained_by = getattr(error, "explained_by", None)
    plays = getattr(error, "plays", None)
    entry.update(plays=[key for key in plays if type(key) is str] if isinstance(plays, list) else [],
                 diagnosis=str(getattr(error, "diagnosis", "") or ""),
                 explained_by=explained_by if isinstance(explained_by, list) else [],
                 reproduction=getattr(error, "reproduction", "") or last_call)
    if isinstance(error, Mismatch):
        entry.update(outcome="failed", sentence=error.sentence, difference=error.difference)
    elif isinstance(error, StudentProblem):
        entry.update(outcome=error.outcome, sentence=error.sentence, exception=error.exception)
    elif isinstance(error, Ungradable):
        entry.update(outcome="error", sentence=f"not run: {error}")
    elif isinstance(error, GraderFault):
        entry.update(outcome="error", sentence=f"not run: the grader failed ({error})")
        RECORDER.grader_fault = RECORDER.grader_fault or str(error)
    elif isinstance(error, AssertionError):
        entry.update(outcome="failed", sentence=str(error).splitlines()[0] if str(error) else "a check failed")
    else:
        # An exception in the trusted test code itself is the grader's fault, not the student's.
        text = f"{type(error).__name__}: {error}" if error is not None else str(report.longrepr)[-300:]
        entry.update(outcome="error", sentence=f"the grader failed while checking this ({text[:300]})")
        RECORDER.grader_fault = RECORDER.grader_fault or f"a hidden test crashed: {text[:300]}"
    return entry


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Stop the worker, and write everything (the coverage its replies carried included) to the results file."""
    path = os.environ.get(RESULTS_VARIABLE)
    client = RECORDER.client
    started = time.monotonic()
    if client is not None:
        try:
            client.stop()
        except GraderFault as error:  # what the worker's uid left stayed: the grader's fault, said with its cause
            RECORDER.grader_fault = RECORDER.grader_fault or str(error)
    if not path:
        return
    output, truncated = client.output() if client is not None else ("", False)
    # from_json: the entries the suites filled in are checked and their texts cut to their caps here, so the
    # record written is the record the runner reads (one that does not check is not written: a grader fault).
    Recorded(
        tests={test: SeenTest.from_json(entry) for test, entry in RECORDER.tests.items()},
        ungradable=RECORDER.ungradable,
        grader_fault=RECORDER.grader_fault,
        output=output,
        output_truncated=truncated,
        coverage={name: sorted(lines) for name, lines in client.coverage.items()} if client is not None else {},
        restarts=client.restarts if client is not None else 0,
        telemetry=telemetry_from_json(RECORDER.extra.get("telemetry")),
        nondeterministic=RECORDER.extra.get("nondeterministic", ""),
        teardown_seconds=time.monotonic() - started,
    ).write(path)
