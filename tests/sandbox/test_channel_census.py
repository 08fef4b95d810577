"""The channel census (issue 25, deny by default): at every sandbox level, nothing a run of student code leaves
behind is found by a later run of the same student or by a later student, and no run reaches a process not its
own, through any channel the census lists (tests/census_probe.py's CHANNELS; docs/sandbox.md says what each is).

Each level's census runs once (a module-scoped fixture) and each channel is a test of its own, failing with one
sentence per finding: who found what, or reached which process. Measured on a two-core machine shared with other
test runs: the whole module in 476 s, most of it the Gradescope level's two whole gradings. The levels:
bwrap and unshare (tests/channel_census.py, run by this machine's Python), uid (the same script under
tests/container_profile.py, Docker's default profile, as on Gradescope) and the Gradescope autograder
(run_autograder under that profile, two students one after the other, read back from results.json).
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from census_probe import CHANNELS
from channel_census import (PROBE, PYTHON_CHOICE, census_tests, merge, part_e_findings, probe_config, remove_marks,
                            worker_findings)
from sandbox_probe import available
from test_export_gradescope import unpack
from isolated_venv import MakeVenv, everything_but_war_grader
from corpus import corpus

PROJECT = Path(__file__).resolve().parents[2]
SCRIPT = PROJECT / "tests" / "channel_census.py"
PROFILE = [sys.executable, str(PROJECT / "tests" / "container_profile.py")]

LEVELS = [pytest.param(level, marks=pytest.mark.skipif(not available(level) or (level == "gradescope") and not
                                                        available("uid"), reason=f"{level} does not work here"))
          for level in ("bwrap", "unshare", "uid", "gradescope")]
"""Every level the census runs at, skipped where this machine cannot run it (in CI every one must)."""

CENSUS_SETTINGS = """
[limits]
call_timeout = 120.0
game_timeout = 120.0
deadline_floor = 120.0
submission_timeout = 2400.0
"""
"""The Gradescope level's grading.toml: one census run walks the whole file system its run sees (seconds), so
every deadline is far above it; nothing of the census hangs."""

_CENSUSES: dict[str, dict[str, list[str]]] = {}


def _in_container(keep: list[Path], *command: str, **options) -> subprocess.CompletedProcess[str]:
    kept = [argument for path in keep for argument in ("--keep", str(path))]
    return subprocess.run([*PROFILE, *kept, *command], capture_output=True, text=True, timeout=1800, **options)


def _script_census(level: str, token: str) -> dict[str, list[str]]:
    """bwrap, unshare: the script run here; uid: the script run under the container profile."""
    command = [sys.executable, str(SCRIPT), level, token]
    if level == "uid":
        done = _in_container([PROJECT], *command, cwd=PROJECT)
    else:
        done = subprocess.run(command, capture_output=True, text=True, timeout=1800, cwd=PROJECT)
    assert done.returncode == 0 and done.stdout.strip(), done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


WORKER_CENSUS = PYTHON_CHOICE + '''

def _census_at_import():
    """The hidden suites' worker imports this package: the census looks, then marks, and prints what it found
    (the worker's printed output reaches results.json). Part E's runs import the package too: not there."""
    import json, os, subprocess, sys
    if "_pytest" in sys.modules:
        return
    config = json.loads({config!r})
    config["run_root"] = os.getpid()
    probe = os.path.join(os.path.dirname(os.path.abspath(__file__)), "census_probe.py")
    try:
        done = subprocess.run([_python(), "-I", "-S", probe, json.dumps(config)], capture_output=True, text=True,
                              timeout=300)
        report = json.loads(done.stdout)
    except PermissionError:  # Landlock: no program may be executed, so the probe runs in this process
        report = _in_process(probe, config)
    except ValueError:
        print("WAR-CENSUS " + json.dumps("the probe failed: " + done.stderr[-300:]))
        return
    print("WAR-CENSUS " + json.dumps({{part: {{channel: [item[:100] for item in items[:2]]
                                             for channel, items in report[part].items() if items}}
                                      for part in ("found", "reached")}}))


_census_at_import()
'''


def _gradescope_submission(folder: Path, token: str, student: str, origins: list[str]) -> None:
    """A correct package whose import runs the census in the hidden suites' worker, with the instructor's
    thorough tests (which end every chaff's run before the census tests: only the wheats' runs walk the file
    system) followed by the census tests."""
    shutil.copytree(corpus() / "perfect", folder)
    package = folder / "starter"
    (package / "census_probe.py").write_text(PROBE.read_text())
    worker = probe_config(token, f"{student}-worker", origins)
    with open(package / "__init__.py", "a", encoding="utf-8") as handle:
        handle.write(WORKER_CENSUS.format(config=json.dumps(worker)))
    (folder / "tests").mkdir()
    (folder / "tests" / "census_probe.py").write_text(PROBE.read_text())
    model = (PROJECT / "grader" / "part_e" / "model" / "test_war.py").read_text()
    (folder / "tests" / "test_war.py").write_text(
        model + "\n" + census_tests(probe_config(token, f"{student}-tests", origins)))


def _gradescope_census(token: str, root: Path) -> dict[str, list[str]]:
    """Two students through run_autograder under the container profile, one after the other; what each found."""
    from grader.results import StudentTestsResult

    found = []
    a = [f"gradescope-a-{part}" for part in ("worker", "tests")]
    for student, origins, who in (("gradescope-a", a, "Gradescope, student A"),
                                  ("gradescope-b", a, "Gradescope, student B (after A)")):
        shutil.rmtree(root / "submission", ignore_errors=True)
        shutil.rmtree(root / "results", ignore_errors=True)
        _gradescope_submission(root / "submission", token, student, origins)
        (root / "results").mkdir()
        done = _in_container([root, PROJECT / ".venv"], str(root / "run_autograder"), cwd=root,
                             env={"PATH": os.environ["PATH"], "AUTOGRADER": str(root)})
        assert done.returncode == 0, done.stderr[-3000:]
        data = json.loads((root / "results" / "results.json").read_text(encoding="utf-8"))
        assert data["extra_data"]["sandbox"] == "uid"
        output = data["extra_data"]["captured_output"]["text"]
        reports = [line.partition("WAR-CENSUS ")[2] for line in output.splitlines() if "WAR-CENSUS " in line]
        if not reports:
            found.append({channel: [f"{who}'s worker printed no census report"] for channel in CHANNELS})
        for report in reports:
            found.append(worker_findings(report, f"{who}'s hidden-suites worker"))
        assert data["extra_data"]["student_tests"] is not None, (data["extra_data"].get("outcome"),
                                                                 data["extra_data"].get("reason"))
        part_e = StudentTestsResult.from_json(data["extra_data"]["student_tests"])
        found.append(part_e_findings(part_e, f"{who}'s Part E"))
    return merge(*found)


@pytest.fixture(scope="module")
def gradescope_root(fresh_venv: MakeVenv, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An autograder exported with the census's settings, set up as tests/export/test_export_gradescope.py sets one up."""
    from grader.cli import main

    root = tmp_path_factory.mktemp("census-gradescope") / "autograder"
    settings = root.parent / "census.toml"
    settings.write_text(CENSUS_SETTINGS)
    archive = root.parent / "autograder.zip"
    assert main(["export", "gradescope", str(archive), "--config", str(settings)]) == 0
    unpack(archive, root / "source")
    fresh_venv(root / "venv", everything_but_war_grader)
    env = {"PATH": os.environ["PATH"], "AUTOGRADER": str(root), "PYTHON": sys.executable, "PIP_NO_INDEX": "1",
           "HOME": str(root.parent)}
    subprocess.run(["bash", str(root / "source" / "setup_python.sh")], env=env, check=True, timeout=300,
                   cwd=root.parent, capture_output=True)
    shutil.copyfile(root / "source" / "run_autograder", root / "run_autograder")
    (root / "run_autograder").chmod(0o755)
    return root


@pytest.fixture(scope="module")
def census(sandbox: str, request: pytest.FixtureRequest):
    """The census at a level, run once per level for the whole module: {channel: [finding]}."""

    def at(level: str) -> dict[str, list[str]]:
        if level not in _CENSUSES:
            token = secrets.token_hex(4)
            try:
                if level == "gradescope":
                    _CENSUSES[level] = _gradescope_census(token, request.getfixturevalue("gradescope_root"))
                else:
                    _CENSUSES[level] = _script_census(level, token)
            except (AssertionError, OSError, subprocess.SubprocessError, ValueError) as error:
                # Said once for every channel of the level, not run again by each of them.
                _CENSUSES[level] = {channel: [f"the census did not run: {str(error)[:2000]}"] for channel in CHANNELS}
            finally:
                remove_marks(token)
        return _CENSUSES[level]

    return at


@pytest.mark.timeout(1800)  # the first test of a level runs its census: minutes at the Gradescope level
@pytest.mark.parametrize("channel", CHANNELS)
@pytest.mark.parametrize("level", LEVELS)
def test_no_later_run_or_student_finds_a_mark_and_no_run_reaches_another_process(census, level, channel):
    """Nothing left through this channel by one run is found by a later run of the same student (its worker
    restarted, its Part E's later runs) or by a later student in the same job slot, and no run could do anything
    through it to a process not its own"""
    findings = census(level)[channel]
    assert findings == [], f"{channel} at {level}: " + " | ".join(findings)


def test_the_census_finds_what_an_unsandboxed_run_leaves(sandbox):
    """The probe is not blind: run twice as an unprivileged uid with no sandbox at all, the second run finds the
    first's marks through the channels a plain process has (files, IPC, keys, a process left running, sockets)"""
    # `sandbox`: this is the census's control run, slow with it (the probe leaves marks and a process for 30 s)
    if os.geteuid() != 0 or shutil.which("setpriv") is None:
        pytest.skip("needs root and setpriv to run the probe as a uid of its own")
    token = secrets.token_hex(4)
    folder = Path(tempfile.mkdtemp(prefix="war-grader-census-"))  # a uid of its own can reach it (tmp_path is private)
    shutil.copy(PROBE, folder / "census_probe.py")
    for path in (folder, folder / "census_probe.py"):
        path.chmod(0o755)
    python = "/usr/bin/python3" if Path("/usr/bin/python3").exists() else sys.executable
    reports = []
    try:
        for origin in ("first", "second"):
            config = {**probe_config(token, origin, ["first"]), "run_root": os.getpid(), "daemon_seconds": 30}
            done = subprocess.run(["setpriv", "--reuid=65533", "--regid=65533", "--clear-groups", python, "-I", "-S",
                                   str(folder / "census_probe.py"), json.dumps(config)], capture_output=True,
                                  text=True, timeout=300, cwd="/")
            reports.append(json.loads(done.stdout))
    finally:
        remove_marks(token, ("first", "second"))
        shutil.rmtree(folder, ignore_errors=True)
    found = {channel for channel, items in reports[1]["found"].items() if items}
    assert {"files", "posix_shared_memory", "sysv_message_queue", "sysv_semaphore", "sysv_shared_memory", "keyring",
            "posix_message_queue", "processes", "abstract_unix_socket", "unix_socket_file", "listening_socket",
            "time_wait", "file_lock"} <= found, reports[1]["found"]
    assert not any(items for items in reports[0]["found"].values())
