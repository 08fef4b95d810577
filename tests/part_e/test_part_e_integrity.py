"""Part E cannot be gamed (issue 17): the corpus's attacks on the students'-own-tests runs, graded through the
real sandbox once (with the whole corpus: tests/conftest.py's graded_corpus), then checked for what they must not
achieve.

The attacks are the corpus.json entries marked `at_most_twin` (each pinned at most at its honest twin's score
by tests/test_corpus.py). This file checks what a score cannot show: that nothing of the wheats or chaffs
leaves the sandbox, that nothing of a sandbox uid outlives the batch, and that a regrade scores the same.
"""

from __future__ import annotations

import ast
import hashlib
import html
import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from grader.chaffs import CHAFFS
from grader.batch import grade
from grader.report.html import render_student_report
from grader.results import read_results
from grader.sandbox.isolation import fresh_uids
from source_leaks import LONG_NUMBER, SECRET_LINE_LENGTH, public_text, readable, secret_lines
from corpus import PINNED, corpus

ROOT = Path(__file__).resolve().parents[2]
CORPUS = corpus()
EXPECTED = PINNED  # corpus.json, as WAR_GRADER_UPDATE_PINS=1 may rewrite it this session
CONFIG = ROOT / "tests" / "data" / "grading-test.toml"

ATTACKS = sorted(name for name, entry in EXPECTED.items() if entry.get("at_most_twin"))
"""The adversarial Part E suites."""

WITH_TESTS = sorted({*ATTACKS, *(name for name in EXPECTED if name.startswith("tests_"))})
"""Every corpus submission that carries tests of its own: the only ones whose code runs beside the wheats and
chaffs (the hidden suites run the reference on the trusted side, never in a sandbox)."""

def _sandbox_uids() -> range:
    """The uids this process's gradings ran as: those that go with its uid block (held, and cached, for its whole
    life), one per sandbox.

    Only a grader run as root gives its sandboxes uids of their own; otherwise they run as the caller, whose
    keys, IPC objects and processes are not the sandbox's to answer for."""
    if os.geteuid() != 0:
        pytest.skip("the sandboxes run as uids of their own only when the grader runs as root")
    return fresh_uids()


@pytest.fixture
def batch(graded_corpus: Path) -> Path:
    """Every corpus submission with tests of its own, graded under the tighter limits: as part of the whole corpus,
    graded once a session (tests/conftest.py's graded_corpus, shared with tests/test_corpus.py)."""
    assert all((graded_corpus / name / "results.json").is_file() for name in WITH_TESTS)
    return graded_corpus


def _outputs(batch: Path, name: str) -> dict[str, str]:
    """What a student and an instructor read of one submission: results.json, report.html, the instructor's view."""
    result = read_results(batch / name / "results.json")
    return {"results.json": readable(batch / name / "results.json"),
            "report.html": readable(batch / name / "report.html"),
            "instructor view": html.unescape(render_student_report(result, view="instructor"))}


@pytest.mark.parametrize("name", WITH_TESTS)
def test_no_output_holds_a_long_number(batch, name):
    """No results.json or report of a submission with tests holds a run of 40 or more digits (a line number, or
    any other number a test controls, carrying what it read)"""
    for where, text in _outputs(batch, name).items():
        found = LONG_NUMBER.search(text)
        assert found is None, f"{name}'s {where} holds a {len(found.group())}-digit number"


def test_no_output_holds_a_line_of_the_reference_or_a_chaff(batch):
    """No results.json or report of a submission with tests, nor the class's index and grades.csv, holds a line
    of the reference's or a chaff's source that students do not already have"""
    secrets = secret_lines(public_text())
    assert len(secrets) > 100  # the check has something to look for
    texts = {f"{name}'s {where}": text for name in WITH_TESTS for where, text in _outputs(batch, name).items()}
    texts["index.html"], texts["grades.csv"] = readable(batch / "index.html"), readable(batch / "grades.csv")
    leaks = {where: line for where, text in texts.items() for line in secrets if line in text}
    assert leaks == {}


def test_the_secret_lines_check_finds_a_leak():
    """The check above is not vacuous: a line of reference/game.py, and one of a chaff, are secret lines"""
    secrets = secret_lines(public_text())
    game = (ROOT / "reference" / "game.py").read_text(encoding="utf-8")
    assert any(line.strip() in secrets for line in game.splitlines())
    edited = {edit.new.strip() for variant in CHAFFS for edit in variant.edits}
    assert any(line in secrets for line in edited if len(line) >= SECRET_LINE_LENGTH)


def _keys_of(uid: int) -> list[str]:
    """Lines of /proc/keys as uid sees them (root is not shown other users' keys), keyrings named for the uid
    itself (its user and user-session keyrings, which the kernel makes on first use) left out when they are
    empty or hold only each other."""
    done = subprocess.run(["cat", "/proc/keys"], capture_output=True, text=True, timeout=10, check=False,
                          user=uid, group=uid, extra_groups=[])
    kept = []
    for line in done.stdout.splitlines():
        fields = line.split(None, 8)
        if len(fields) < 9 or fields[5] != str(uid):
            continue
        kind, rest = fields[7], fields[8]
        description, _, summary = rest.partition(": ")
        if kind == "keyring" and description in (f"_uid.{uid}", f"_uid_ses.{uid}") and summary in ("empty", "1"):
            continue
        kept.append(line)
    return kept


def test_no_kernel_key_of_a_sandbox_uid_is_left(batch):
    """After the batch, no uid the sandboxes ran as holds a kernel key (its own empty keyrings aside)"""
    uids = _sandbox_uids()
    users = []
    with open("/proc/key-users", encoding="ascii") as handle:
        for line in handle:
            uid = int(line.split(":")[0])
            if uid in uids:
                users.append(uid)
    assert {uid: _keys_of(uid) for uid in users if _keys_of(uid)} == {}


def test_no_ipc_object_of_a_sandbox_uid_is_left(batch):
    """After the batch, no System V message queue, semaphore or shared memory segment, and no POSIX queue or
    shared memory file, belongs to a uid the sandboxes ran as"""
    uids = _sandbox_uids()
    left = []
    for kind in ("msg", "sem", "shm"):
        with open(f"/proc/sysvipc/{kind}", encoding="ascii") as handle:
            header = handle.readline().split()
            for line in handle:
                row = dict(zip(header, line.split()))
                if int(row["uid"]) in uids or int(row["cuid"]) in uids:
                    left.append(f"{kind}: {line.strip()}")
    for folder in ("/dev/mqueue", "/dev/shm"):
        if os.path.isdir(folder):
            left += [entry.path for entry in os.scandir(folder) if entry.stat(follow_symlinks=False).st_uid in uids]
    assert left == []


def test_no_process_of_a_sandbox_uid_is_left(batch):
    """After the batch, no process runs as a uid the sandboxes ran as"""
    uids = _sandbox_uids()
    left = []
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                with open(f"/proc/{entry.name}/status", encoding="ascii", errors="replace") as handle:
                    owners = [line.split()[1:] for line in handle if line.startswith(("Uid:", "Gid:"))]
            except OSError:
                continue
            if any(int(value) in uids for values in owners for value in values):
                left.append(int(entry.name))
    assert left == []


def test_grading_an_attack_again_gives_the_same_score(batch, tmp_path):
    """Each attack, graded a second time right after the batch, gets the same score and the same Part E score"""
    again = grade(paths=[CORPUS / name for name in ATTACKS], out=tmp_path / "again", jobs=2, config_path=CONFIG)
    first = {name: read_results(batch / name / "results.json") for name in ATTACKS}
    changed = {result.student: (first[result.student].score, result.score) for result in again
               if result.score != first[result.student].score}
    assert changed == {}


def test_the_fingerprinting_attack_knows_todays_wheats():
    """fingerprints_source holds the digests of the sources the grader serves for its two correct
    implementations today, so the attack stays real when the reference or the wheat changes (the digests this
    test computes are the ones to put in its KNOWN["source"]; its "code" digests come from its _digests run on
    each implementation imported as `starter`)"""
    from grader.part_e.runner import implementations

    text = (CORPUS / "fingerprints_source" / "starter" / "test_war.py").read_text(encoding="utf-8")
    known = re.search(r"^KNOWN = (\{.*\})", text, re.MULTILINE)
    assert known is not None
    digests = {hashlib.sha256(json.dumps(sorted(sources.items())).encode()).hexdigest()
               for role, _, sources in implementations() if role == "wheat"}
    assert digests == set(ast.literal_eval(known.group(1))["source"])
