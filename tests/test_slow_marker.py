"""The `slow` marker: `pytest -m "not slow"` leaves out exactly the files tests/conftest.py names, CI runs all."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _slow_files() -> frozenset[str]:
    """tests/conftest.py's SLOW_FILES, loaded by path (`conftest` by name could be a corpus submission's)."""
    spec = importlib.util.spec_from_file_location("war_tests_conftest", ROOT / "tests" / "conftest.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.SLOW_FILES


SLOW_FILES = _slow_files()


def test_every_slow_file_exists():
    """A slow file renamed or removed would leave its successor in the fast run unnoticed"""
    missing = sorted(name for name in SLOW_FILES if not (ROOT / "tests" / name).is_file())
    assert not missing, f"tests/conftest.py's SLOW_FILES names files that are not in tests/: {missing}"


def test_the_slow_marker_selects_exactly_the_slow_files():
    """-m slow collects tests of every slow file and of no other; -m "not slow" still collects the rest"""
    def collected(expression: str) -> set[str]:
        run = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-m", expression],
                             cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert run.returncode == 0, run.stdout + run.stderr
        return {Path(line.split("::")[0]).name for line in run.stdout.splitlines() if "::" in line}

    slow, fast = collected("slow"), collected("not slow")
    assert slow == set(SLOW_FILES)
    assert fast and not fast & slow


def test_ci_runs_the_slow_tests_too():
    """The README's test line, which .ci/run runs verbatim, selects no marker: CI runs every test"""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    lines = re.findall(r"^    (.*)  # <- tests$", readme, flags=re.MULTILINE)
    assert len(lines) == 1 and "-m pytest" in lines[0]
    arguments = lines[0].rsplit("-m pytest", 1)[1].split()
    assert not {"-m", "-k"} & set(arguments), arguments
