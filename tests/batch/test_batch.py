"""A batch nothing can break: results saved as they are graded, resumed after a kill, a locked and checked --out,
class files from exactly this batch, and a class folder of any shape graded student by student."""

from __future__ import annotations

import csv
import errno
import fcntl
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

from grader import cli
from grader.batch import output
from grader.config import load_config
from grader.batch import find_class, grade_into
from grader.grading.runner import SCRATCH_PREFIX, remove_abandoned_scratch
from grader.report import html as report
from corpus import corpus

ROOT = Path(__file__).resolve().parents[2]
CORPUS = corpus()
FAST = ROOT / "tests" / "data" / "grading-test.toml"
PERFECT = CORPUS / "perfect" / "starter"
CORRECT = 100 - load_config(FAST, environ={}).points["student_tests"]
"""What a correct package without Part E tests of its own scores: everything but Part E."""


def war_grader(*args: str, tmpdir: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {"PATH": "/usr/bin:/bin", "CI": "true", **({"TMPDIR": str(tmpdir)} if tmpdir else {})}
    return subprocess.run([sys.executable, "-m", "grader", *args], capture_output=True, text=True, timeout=300,
                          cwd=ROOT, env=env)


def start_war_grader(*args: str, tmpdir: Path) -> subprocess.Popen[str]:
    """war-grader as a terminal starts it: with Ctrl-C's default action, even where this process ignores SIGINT (a
    pytest-xdist worker does, and a program started with SIGINT ignored keeps ignoring it, as Python does)."""
    return subprocess.Popen([sys.executable, "-m", "grader", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, cwd=ROOT, env={"PATH": "/usr/bin:/bin", "CI": "true", "TMPDIR": str(tmpdir)},
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def perfect(folder: Path, *, bare: bool = False) -> Path:
    """A correct submission: folder/starter (a student folder), or folder itself as the package (bare)."""
    shutil.copytree(PERFECT, folder if bare else folder / "starter")
    return folder


def grades(out: Path) -> dict[str, dict[str, str]]:
    with (out / "grades.csv").open(newline="", encoding="utf-8") as handle:
        return {row["student"]: row for row in csv.DictReader(handle)}


def saved(out: Path, student: str) -> dict:
    return json.loads((out / student / "results.json").read_text(encoding="utf-8"))


def index_count(out: Path) -> str:
    text = (out / "index.html").read_text(encoding="utf-8")
    return text.split("<h1>", 1)[1].split("</h1>", 1)[0]


def assert_consistent(out: Path, students: list[str]) -> None:
    """Every file in out agrees: grades.csv, index.html and each report.html say what each results.json says."""
    rows = grades(out)
    assert sorted(rows) == sorted(students)
    assert index_count(out) == f"{len(students)} submission{'s' * (len(students) != 1)}"
    for student in students:
        data = saved(out, student)
        assert rows[student]["score"] == f"{data['score']:g}"
        assert rows[student]["outcome"] == data["extra_data"]["outcome"]
        page = (out / student / "report.html").read_text(encoding="utf-8")
        assert data["extra_data"]["graded_at"].replace("T", " ")[:16] in page


def processes_mentioning(text: str) -> list[int]:
    """Processes whose command line or environment mentions text (the scratch folder of one run)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        for name in ("cmdline", "environ"):
            try:
                if text.encode() in (entry / name).read_bytes():
                    found.append(int(entry.name))
                    break
            except OSError:
                continue
    return found


def wait_for(condition, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


# ------------------------------------------------------------------------------------------ resume


def test_a_rerun_keeps_what_stands_regrades_what_changed_and_force_regrades_all(sandbox, tmp_path):
    """Resume: an unchanged student is kept, a changed one regraded, --force regrades; the index is this batch"""
    klass, out = tmp_path / "class", tmp_path / "out"
    perfect(klass / "alice")
    perfect(klass / "bob")
    first = war_grader("grade", str(klass), "--out", str(out), "--config", str(FAST), "--jobs", "2")
    assert first.returncode == 0, first.stderr
    stamps = {name: saved(out, name)["extra_data"]["graded_at"] for name in ("alice", "bob")}
    inodes = {name: (out / name / "results.json").stat().st_ino for name in ("alice", "bob")}

    game = klass / "bob" / "starter" / "game.py"
    game.write_text(game.read_text() + "\n# a changed byte\n")
    second = war_grader("grade", str(klass), "--out", str(out), "--config", str(FAST), "--jobs", "2")
    assert second.returncode == 0, second.stderr
    assert f"kept 1/2: alice: {CORRECT:g} / 100 (unchanged since the last run)" in second.stderr
    assert f"graded 2/2: bob: {CORRECT:g} / 100" in second.stderr
    assert "1 kept from the last run" in second.stdout
    assert (out / "alice" / "results.json").stat().st_ino == inodes["alice"]  # not even rewritten
    assert (out / "bob" / "results.json").stat().st_ino != inodes["bob"]
    assert_consistent(out, ["alice", "bob"])

    only_alice = war_grader("grade", str(klass / "alice"), "--out", str(out), "--config", str(FAST))
    assert only_alice.returncode == 0, only_alice.stderr
    assert_consistent(out, ["alice"])  # grading {alice} after {alice, bob}: the index says 1 submission
    assert (out / "bob" / "results.json").is_file()  # nothing lost
    assert cli.main(["report", str(out)]) == 0
    assert index_count(out) == "1 submission"  # report re-renders the last batch, as grades.csv lists it

    forced = war_grader("grade", str(klass / "alice"), "--out", str(out), "--config", str(FAST), "--force")
    assert forced.returncode == 0 and "graded 1/1: alice" in forced.stderr and "kept" not in forced.stderr
    assert (out / "alice" / "results.json").stat().st_ino != inodes["alice"]
    assert stamps["alice"] <= saved(out, "alice")["extra_data"]["graded_at"]


def test_each_report_is_written_the_moment_its_student_is_graded(sandbox, tmp_path):
    """report.html beside results.json as each student is saved (in the grading threads), not all at the end"""
    klass, out = tmp_path / "class", tmp_path / "out"
    perfect(klass / "alice")
    perfect(klass / "bob")
    submissions, _ = find_class([klass], out)
    seen: dict[str, bool] = {}

    def progress(result, kept):
        seen[result.student] = (out / result.student / "report.html").is_file()

    batch = grade_into(submissions, out, load_config(FAST, environ={}), jobs=2, progress=progress)
    assert seen == {"alice": True, "bob": True}
    assert not batch.write_error
    assert_consistent(out, ["alice", "bob"])


def test_a_changed_setting_regrades(sandbox, tmp_path):
    """A result graded under other settings does not stand: changing a time limit regrades"""
    klass, out = tmp_path / "class", tmp_path / "out"
    perfect(klass / "alice")
    assert war_grader("grade", str(klass), "--out", str(out), "--config", str(FAST)).returncode == 0
    again = war_grader("grade", str(klass), "--out", str(out), "--config", str(FAST), "--timeout", "1.5")
    assert again.returncode == 0 and "graded 1/1: alice" in again.stderr


def test_kill_9_mid_batch_then_the_same_command_finishes_without_regrading(sandbox, tmp_path):
    """kill -9 after the first results.json, then the same command: the finished are kept, every file agrees"""
    klass, out, tmpdir = tmp_path / "class", tmp_path / "out", tmp_path / "tmp"
    tmpdir.mkdir()
    names = ["s1", "s2", "s3", "s4"]
    for name in names:
        perfect(klass / name)
    command = ["grade", str(klass), "--out", str(out), "--config", str(FAST), "--jobs", "1"]
    process = start_war_grader(*command, tmpdir=tmpdir)
    try:
        assert wait_for(lambda: any((out / name / "results.json").exists() for name in names), 120)
        process.send_signal(signal.SIGKILL)
        process.wait(30)
    finally:
        if process.poll() is None:
            process.kill()
    finished = {name: saved(out, name) for name in names if (out / name / "results.json").exists()}
    assert 1 <= len(finished) < len(names)
    for data in finished.values():
        assert data["score"] == CORRECT  # whole files only: each one saved atomically
    assert not (out / "grades.csv").exists() and not (out / "index.html").exists()  # nothing that disagrees

    rerun = war_grader(*command, tmpdir=tmpdir)
    assert rerun.returncode == 0, rerun.stderr
    for name in finished:
        assert f": {name}: {CORRECT:g} / 100 (unchanged since the last run)" in rerun.stderr
        assert saved(out, name)["extra_data"]["graded_at"] == finished[name]["extra_data"]["graded_at"]
    assert rerun.stderr.count("graded ") == len(names) - len(finished)
    assert_consistent(out, names)


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_ctrl_c_stops_cleanly_keeps_the_finished_and_leaves_nothing_running(sandbox, tmp_path, stop):
    """Ctrl-C (or kill) mid-batch: exit 130, one line, finished results kept, no run or worker left, no scratch"""
    klass, out, tmpdir = tmp_path / "class", tmp_path / "out", tmp_path / "tmp"
    tmpdir.mkdir()
    perfect(klass / "a_first")
    for name in ("b_hangs", "c_hangs"):
        shutil.copytree(CORPUS / "infinite_loop_in_war", klass / name)
    process = start_war_grader("grade", str(klass), "--out", str(out), "--config", str(FAST), "--jobs", "1",
                               tmpdir=tmpdir)
    try:
        assert wait_for(lambda: (out / "a_first" / "results.json").exists(), 120)
        assert wait_for(lambda: processes_mentioning(str(tmpdir / SCRATCH_PREFIX)), 30)  # b_hangs is running
        time.sleep(1)
        process.send_signal(stop)
        interrupted = time.monotonic()
        _, stderr = process.communicate(timeout=60)
        stopped_after = time.monotonic() - interrupted
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130
    assert stopped_after < 6, f"{stopped_after:.1f} s from Ctrl-C to exit: the running submission was waited for"
    assert "interrupted" in stderr and "Traceback" not in stderr
    assert saved(out, "a_first")["score"] == CORRECT, saved(out, "a_first")["extra_data"]["reason"]
    assert not (out / "b_hangs" / "results.json").exists()
    assert wait_for(lambda: not processes_mentioning(str(tmpdir / SCRATCH_PREFIX)), 10)
    assert not list(tmpdir.glob(SCRATCH_PREFIX + "*"))


def test_scratch_left_by_a_killed_run_is_removed_and_a_live_one_is_not(tmp_path, monkeypatch):
    """A later run removes the scratch folder of a run killed with -9 (its lock is free), never a live one's"""
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr("tempfile.tempdir", None)
    dead, live = tmp_path / (SCRATCH_PREFIX + "dead"), tmp_path / (SCRATCH_PREFIX + "live")
    for folder in (dead, live):
        (folder / "sub-00000").mkdir(parents=True)
        (folder / ".lock").write_text("")
        os.utime(folder, (time.time() - 3600, time.time() - 3600))
    holder = os.open(live / ".lock", os.O_RDWR)
    fcntl.flock(holder, fcntl.LOCK_EX)
    try:
        assert remove_abandoned_scratch() == [dead]
    finally:
        os.close(holder)
    assert not dead.exists() and live.exists()


# ------------------------------------------------------------------------------------- output folder


def test_a_second_grader_on_the_same_out_is_refused_in_one_line(tmp_path):
    """Defect 7: while a grader holds --out, another one exits 2 with one line, before grading anything"""
    out = tmp_path / "out"
    out.mkdir()
    holder = os.open(out / output.LOCK_NAME, os.O_RDWR | os.O_CREAT)
    fcntl.flock(holder, fcntl.LOCK_EX)
    os.pwrite(holder, b"4242\n", 0)
    try:
        started = time.monotonic()
        completed = war_grader("grade", str(CORPUS / "perfect"), "--out", str(out), "--config", str(FAST))
    finally:
        os.close(holder)
    assert completed.returncode == 2
    assert completed.stderr.strip().count("\n") == 0 and "another war-grader is writing there" in completed.stderr
    assert "4242" in completed.stderr and not (out / "perfect").exists()
    assert time.monotonic() - started < 20


@pytest.mark.parametrize("shape", ["a_file", "under_a_file"])
def test_an_unusable_out_is_refused_before_grading(tmp_path, shape):
    """Defect 5: --out that is a file, or lies under one, is one line and status 2 before anything is graded"""
    (tmp_path / "file").write_text("")
    out = tmp_path / "file" if shape == "a_file" else tmp_path / "file" / "reports"
    completed = war_grader("grade", str(CORPUS / "perfect"), "--out", str(out), "--config", str(FAST))
    assert completed.returncode == 2 and "graded" not in completed.stderr
    assert completed.stderr.startswith(f"war-grader: --out {out}: ") and "Traceback" not in completed.stderr


def test_a_read_only_out_is_refused_before_grading(tmp_path):
    """Defect 5: --out on a read-only file system is one line and status 2 before anything is graded (a real
    read-only mount, in a mount namespace of the test's own: root would ignore mere permission bits)"""
    out = tmp_path / "reports"
    out.mkdir()
    grade = [sys.executable, "-m", "grader", "grade", str(CORPUS / "perfect"), "--out", str(out), "--config", str(FAST)]
    script = 'mount -t tmpfs -o ro war-grader-read-only "$1" && shift && exec "$@"'
    namespace = ["unshare", "--mount", "--propagation", "private"]
    if os.geteuid() != 0:
        namespace[1:1] = ["--user", "--map-root-user"]
    completed = subprocess.run([*namespace, "/bin/sh", "-c", script, "sh", str(out), *grade], capture_output=True,
                               text=True, timeout=120, cwd=ROOT, env={"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "CI": "true"})
    assert completed.returncode == 2 and "graded" not in completed.stderr, completed.stderr
    assert completed.stderr.startswith(f"war-grader: --out {out}: cannot write in it")
    assert completed.stderr.strip().count("\n") == 0


def test_too_little_free_space_is_refused_before_grading(tmp_path, monkeypatch, capsys):
    """Defect 5: --out on a disk without room for the class is refused up front, saying how much is wanted"""
    monkeypatch.setattr(output, "MIN_FREE_BYTES", 2**62)
    status = cli.main(["grade", str(CORPUS / "perfect"), "--out", str(tmp_path / "out"), "--config", str(FAST)])
    assert status == 2
    assert "MiB wanted for 1 student" in capsys.readouterr().err
    assert not (tmp_path / "out" / "perfect").exists()


def test_a_full_disk_while_writing_the_html_is_one_line_and_keeps_the_results(sandbox, tmp_path, monkeypatch, capsys):
    """Defect 8: a full disk while writing index.html exits 1 (not "bad usage"), summary printed, results saved"""
    real = report.write_atomically

    def full(path, data):
        if path.name == "index.html":
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        real(path, data)

    monkeypatch.setattr(report, "write_atomically", full)
    out = tmp_path / "out"
    status = cli.main(["grade", str(CORPUS / "perfect"), "--out", str(out), "--config", str(FAST)])
    printed = capsys.readouterr()
    assert status == 1
    assert "1 submission: 1 graded" in printed.out
    assert "No space left on device" in printed.err and "Traceback" not in printed.err
    assert saved(out, "perfect")["score"] == CORRECT and grades(out)["perfect"]["score"] == f"{CORRECT:g}"
    assert not (out / "index.html").exists() and not list(out.glob(".index.html.*"))  # no half-written page


def test_a_failed_results_write_leaves_the_old_file_whole(tmp_path, monkeypatch):
    """Defect 5: a results.json write cut short (full disk) leaves the previous file intact, never half of one"""
    from grader import results as results_module

    path = tmp_path / "results.json"
    path.write_text('{"old": true}\n')

    def cut(handle, *args):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(results_module.os, "fsync", cut)
    with pytest.raises(OSError):
        results_module.write_atomically(path, b'{"new": ' + b"1" * 100000 + b"}")
    assert path.read_text() == '{"old": true}\n' and list(tmp_path.iterdir()) == [path]


def test_leftover_unreadable_results_do_not_stop_later_runs(sandbox, tmp_path):
    """Defect 8: garbage results.json from an earlier run: another student's is ignored, the batch's regraded"""
    out = tmp_path / "out"
    for name in ("zoe", "perfect"):
        (out / name).mkdir(parents=True)
        (out / name / "results.json").write_text("{ not json")
    completed = war_grader("grade", str(CORPUS / "perfect"), "--out", str(out), "--config", str(FAST))
    assert completed.returncode == 0, completed.stderr
    assert "1 submission: 1 graded" in completed.stdout
    assert saved(out, "perfect")["score"] == CORRECT
    assert_consistent(out, ["perfect"])


# ---------------------------------------------------------------------------------- a hostile class


def test_a_class_of_every_shape_is_graded_student_by_student(sandbox, tmp_path):
    """Defects 1, 2, 3, 9, 19, 21, 22 end to end: a class with a bare package, a loose module, a damaged zip,
    a non-UTF-8 file name, students named like output files, a FIFO, an escape sequence and --out inside"""
    klass = tmp_path / "class"
    perfect(klass / "alice")
    perfect(klass / "bob", bare=True)  # a bare package among student folders
    shutil.copy(CORPUS / "single_file" / "war.py", klass / "carol.py")  # a loose module
    perfect(klass / "grades.csv")
    (klass / "grades.csv" / "starter" / os.fsdecode(b"caf\xe9.py")).write_text("X = 1\n")
    (klass / "grades.csv" / os.fsdecode(b"notes-\xff.txt")).write_text("")
    perfect(klass / "index.html")
    perfect(klass / "dave")
    (klass / "dave" / "starter" / "__init__.py").write_text("raise ValueError('\\x1b[2J\\x1b]0;pwned\\x07')\n")
    with zipfile.ZipFile(klass / "erin.zip", "w", compression=zipfile.ZIP_DEFLATED) as bundle:
        bundle.writestr("starter/__init__.py", "X = 1\n" * 2000)
    data = bytearray((klass / "erin.zip").read_bytes())
    data[60:100] = bytes(byte ^ 0xFF for byte in data[60:100])
    (klass / "erin.zip").write_bytes(bytes(data))
    os.mkfifo(klass / "frank.zip")
    out = klass / "reports"

    first = war_grader("grade", str(klass), "--out", str(out), "--config", str(FAST), "--jobs", "2")
    assert first.returncode == 0, first.stderr
    students = ["alice", "bob", "carol", "dave", "erin", "grades.csv-2", "index.html-2"]
    assert sorted(grades(out)) == students
    assert f"skipped {klass / 'frank.zip'}: not a submission" in first.stderr
    for name in ("alice", "bob", "carol", "grades.csv-2", "index.html-2"):
        assert saved(out, name)["score"] == CORRECT, name
    assert saved(out, "erin")["extra_data"]["outcome"] == "ungradable"
    assert "the zip cannot be read" in saved(out, "erin")["extra_data"]["reason"]
    assert saved(out, "dave")["extra_data"]["outcome"] == "ungradable"
    assert "\x1b" not in first.stdout + first.stderr and "\\x1b[2J" in first.stdout
    assert_consistent(out, students)

    second = war_grader("grade", str(klass), "--out", str(out), "--config", str(FAST), "--jobs", "2")
    assert second.returncode == 0, second.stderr
    assert "reports" not in grades(out) and second.stderr.count("(unchanged since the last run)") == len(students)
    assert f"skipped {out}: a war-grader output folder" in second.stderr


def test_kill_9_of_the_main_process_stops_its_runs_and_workers(sandbox, tmp_path):
    """Defect 4: killing only the main process does not leave runs and workers grading for nothing"""
    klass, out, tmpdir = tmp_path / "class", tmp_path / "out", tmp_path / "tmp"
    tmpdir.mkdir()
    perfect(klass / "a_first")
    shutil.copytree(CORPUS / "infinite_loop_in_war", klass / "b_hangs")
    slow = tmp_path / "slow.toml"  # b_hangs would take a minute: long after the main process is gone
    slow.write_text("[limits]\ncall_timeout = 5.0\ngame_timeout = 10.0\nsubmission_timeout = 120.0\n")
    process = start_war_grader("grade", str(klass), "--out", str(out), "--config", str(slow), "--jobs", "1",
                               tmpdir=tmpdir)
    try:
        assert wait_for(lambda: (out / "a_first" / "results.json").exists(), 120)
        assert wait_for(lambda: processes_mentioning(str(tmpdir / SCRATCH_PREFIX)), 30)  # b_hangs is running
        time.sleep(1)
        process.send_signal(signal.SIGKILL)
        process.wait(30)
    finally:
        if process.poll() is None:
            process.kill()
    killed = time.monotonic()
    assert wait_for(lambda: not processes_mentioning(str(tmpdir / SCRATCH_PREFIX)), 20)
    assert time.monotonic() - killed < 5, "the runs went on after the main process was killed"


def test_results_with_text_that_is_not_unicode_are_written_whole(tmp_path):
    """Defect 2: a lone surrogate (from a file name that is not UTF-8) never leaves results.json empty"""
    from dataclasses import replace

    from grader.results import read_results, write_results

    example = read_results(ROOT / "tests" / "data" / "results" / "perfect_score" / "results.json")
    odd = replace(example, outcome="ungradable", reason="caf" + os.fsdecode(b"\xe9") + ".py is larger than 1024 KiB")
    path = tmp_path / "odd" / "results.json"
    write_results(odd, path, settings="abc")
    back = read_results(path)
    assert back.reason == "caf?.py is larger than 1024 KiB" and back.score == example.score
    assert json.loads(path.read_text(encoding="utf-8"))["extra_data"]["settings"] == "abc"


def test_a_full_disk_mid_batch_stops_with_one_line_and_keeps_what_was_saved(sandbox, tmp_path, monkeypatch, capsys):
    """Defect 5: results.json cannot be written for the second student: exit 1, one line, the first kept whole"""
    klass, out = tmp_path / "class", tmp_path / "out"
    perfect(klass / "alice")
    perfect(klass / "bob")
    real = output.write_results

    def full(result, path, **kwargs):
        if result.student == "bob":
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))
        real(result, path, **kwargs)

    monkeypatch.setattr(output, "write_results", full)
    status = cli.main(["grade", str(klass), "--out", str(out), "--config", str(FAST), "--jobs", "1"])
    err = capsys.readouterr().err
    assert status == 1
    assert f"war-grader: {out / 'bob' / 'results.json'}: No space left on device" in err and "Traceback" not in err
    assert saved(out, "alice")["extra_data"]["student"] == "alice" and not (out / "bob").exists()  # whole JSON
    assert not (out / "grades.csv").exists() and not (out / "index.html").exists()


def test_report_refuses_a_folder_being_graded(tmp_path, capsys):
    """report on an output folder another war-grader holds is one line and status 2, and writes nothing"""
    out = tmp_path / "out"
    shutil.copytree(ROOT / "tests" / "data" / "results" / "perfect_score", out / "perfect_score")
    holder = os.open(out / output.LOCK_NAME, os.O_RDWR | os.O_CREAT)
    fcntl.flock(holder, fcntl.LOCK_EX)
    try:
        assert cli.main(["report", str(out)]) == 2
    finally:
        os.close(holder)
    assert "another war-grader is writing there" in capsys.readouterr().err
    assert not (out / "index.html").exists()
    assert cli.main(["report", str(out)]) == 0 and (out / "index.html").exists()
