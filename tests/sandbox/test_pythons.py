"""Every Python a course meets: bubblewrap and unshare start the grader's own interpreter, and on Python 3.12
and 3.13 (pyenv's builds, beside the suite's own 3.11) `war-grader check` passes and a small class of the corpus
gets exactly the grades corpus.json pins, the grades test_corpus.py holds the suite's own interpreter to."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable

import pytest

from grader.results import read_results

from isolated_venv import MakeVenv, everything_but_war_grader
from sandbox_probe import NAMESPACED_PARAMS
from corpus import PINS, corpus

ROOT = Path(__file__).resolve().parents[2]
CORPUS = corpus()
EXPECTED = json.loads(PINS.read_text())

OTHER_VERSIONS = ("3.12", "3.13")
"""The versions tried beside the suite's own (students' machines and Gradescope's newer images run them)."""

SMALL_CLASS = ("perfect", "joker_below_king", "tests_thorough", "fork_bomb")
"""A correct package, a flawed one, one with Part E tests of its own, and an attack that uses up its limits."""


def find_python(version: str) -> str | None:
    """pyenv's newest release build of version, else python<version> on PATH; None when neither runs as it."""
    pyenv = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    builds = [path for path in pyenv.glob(f"{version}.*/bin/python{version}")
              if re.fullmatch(rf"{re.escape(version)}\.\d+", path.parents[1].name)]
    builds.sort(key=lambda path: int(path.parents[1].name.rsplit(".", 1)[1]), reverse=True)
    for candidate in [*map(str, builds), shutil.which(f"python{version}")]:
        if candidate and _runs_as(candidate, version):
            return candidate
    return None


def _runs_as(python: str, version: str) -> bool:
    try:
        done = subprocess.run([python, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                              capture_output=True, text=True, timeout=60, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0 and done.stdout.strip() == version


PYTHONS = {version: find_python(version) for version in OTHER_VERSIONS}


def _version_param(version: str) -> Any:
    """A version, skipped where this machine has no such Python (never in CI, which must have them)."""
    absent = PYTHONS[version] is None and not os.environ.get("CI")
    return pytest.param(version, marks=pytest.mark.skipif(
        absent, reason=f"no Python {version} on this machine (looked in pyenv's versions and on PATH)"))


VERSION_PARAMS = [_version_param(version) for version in OTHER_VERSIONS]


@pytest.fixture(scope="module")
def python_of(sandbox: str, fresh_venv: MakeVenv) -> Callable[[str], Path]:
    """The python to run for a version: this one for "this", else a fresh virtual environment of that version
    (made once per module) holding the checkout (a .pth, as the editable install does) and this environment's
    packages but war-grader (pure Python there: tests/isolated_venv.py)."""
    folder = Path(tempfile.mkdtemp(prefix="war-grader-pythons-"))
    made: dict[str, Path] = {}

    def python(version: str) -> Path:
        if version == "this":
            return Path(sys.executable)
        interpreter = PYTHONS[version]
        if interpreter is None:
            pytest.fail(f"CI must have Python {version} (pyenv's), and this machine has none")
        if version not in made:
            bin_folder = fresh_venv(folder / version, everything_but_war_grader, python=interpreter)
            site_packages = next((folder / version).glob("lib/python*/site-packages"))
            (site_packages / "war-grader-checkout.pth").write_text(f"{ROOT}\n", encoding="utf-8")
            made[version] = bin_folder / "python"
        return made[version]

    yield python
    shutil.rmtree(folder, ignore_errors=True)


PROBE_VERSION = f"""
import json, shutil, sys, tempfile
from pathlib import Path
sys.path.insert(0, {str(ROOT / "tests")!r})
from grader.sandbox.isolation import make_runtime
from sandbox_probe import probe_client, run

folder = Path(tempfile.mkdtemp(prefix="war-grader-test-"))
folder.chmod(0o755)
(folder / "probe").mkdir()
client = probe_client(folder / "probe", make_runtime(folder / "runtime"), sys.argv[1])
try:
    inside = run(client, "import sys; result = [sys.version, sys.base_prefix]")
finally:
    client.stop()
    shutil.rmtree(folder, ignore_errors=True)
print(json.dumps({{"inside": inside, "outside": {{"list": [sys.version, sys.base_prefix]}}}}))
"""
"""Run by the interpreter under test with a level: the version and prefix of the worker's Python and of its own."""


@pytest.mark.parametrize("level", NAMESPACED_PARAMS)
@pytest.mark.parametrize("version", [pytest.param("this", id="this"), *VERSION_PARAMS])
def test_the_worker_runs_the_graders_own_python(python_of, tmp_path, level, version):
    """Under bubblewrap and unshare the worker starts on the grader's own interpreter (version and prefix): pyenv's
    3.12 and 3.13 could not start under bubblewrap, and its 3.11 ran the system's libpython 3.11 there instead"""
    done = subprocess.run([str(python_of(version)), "-c", PROBE_VERSION, level], capture_output=True, text=True,
                          timeout=120, check=False, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    seen = json.loads(done.stdout)
    assert seen["inside"] == seen["outside"]


@pytest.mark.parametrize("version", VERSION_PARAMS)
def test_check_passes(python_of, tmp_path, version):
    """`war-grader check` on this Python: the reference scores full marks and the starter 0"""
    done = subprocess.run([str(python_of(version)), "-m", "grader", "check", "--json"], capture_output=True,
                          text=True, timeout=300, check=False, cwd=tmp_path)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    checked = json.loads(done.stdout)
    assert {key: checked[key] for key in ("reference", "starter", "max_score", "ok")} == {
        "reference": 100.0, "starter": 0.0, "max_score": 100.0, "ok": True}
    assert checked["sandbox"] in ("bwrap", "unshare", "uid")


@pytest.mark.parametrize("version", VERSION_PARAMS)
def test_a_small_class_gets_the_pinned_grades(python_of, tmp_path, version):
    """A few corpus submissions graded on this Python (the corpus test's limits) get corpus.json's score, outcome
    and Part E score, the ones test_corpus.py requires of the suite's own Python"""
    out, config = tmp_path / "out", ROOT / "tests" / "data" / "grading-test.toml"
    students = [str(CORPUS / name) for name in SMALL_CLASS]
    done = subprocess.run([str(python_of(version)), "-m", "grader", "grade", *students,
                           "--out", str(out), "--jobs", "2", "--config", str(config)],
                          capture_output=True, text=True, timeout=600, check=False, cwd=tmp_path)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    graded, pinned = {}, {}
    for name in SMALL_CLASS:
        result = read_results(out / name / "results.json")
        part_e = next(category.score for category in result.categories if category.id == "student_tests")
        graded[name] = (result.score, result.outcome, part_e)
        pinned[name] = (EXPECTED[name]["score"], EXPECTED[name]["outcome"], EXPECTED[name].get("part_e", 0))
    assert graded == pinned, f"Python {version}"
