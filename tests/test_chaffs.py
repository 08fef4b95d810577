"""The wheat and the chaffs: the wheat keeps the public contract, and every chaff is a single edit that fits it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from grader.chaffs import CHAFFS, chaff, chaff_sources, wheat_sources, write_package, write_reference
from grader.results import CATEGORY_TITLES

ROOT = Path(__file__).resolve().parent.parent


def test_the_wheat_passes_every_public_contract_test(tmp_path):
    """The wheat, written as a package, passes tests/contract (run in a subprocess, never imported here)."""
    folder = write_package(wheat_sources(), tmp_path)
    completed = subprocess.run([sys.executable, "-m", "pytest", str(ROOT / "tests" / "contract"), "--impl",
                                str(folder), "-q", "-p", "no:cacheprovider"], cwd=ROOT, capture_output=True,
                               text=True, timeout=300, check=False)
    assert completed.returncode == 0, completed.stdout[-2000:]


def test_the_reference_can_be_written_as_a_student_package(tmp_path):
    """write_reference copies the reference's contract modules under the students' package name."""
    folder = write_reference(tmp_path)
    assert sorted(path.name for path in folder.iterdir()) == sorted(
        ["__init__.py", "structures.py", "cards.py", "rules.py", "game.py"])


@pytest.mark.parametrize("variant", CHAFFS, ids=lambda variant: variant.name)
def test_each_chaff_is_a_valid_edit_of_the_wheat_in_a_known_category(variant):
    """Every edit of a chaff occurs once in the wheat, the result compiles, and its category exists."""
    sources = chaff_sources(variant)
    assert sources != wheat_sources()
    for name, text in sources.items():
        compile(text, name, "exec")
    assert variant.category in CATEGORY_TITLES or variant.category == "extensions"
    assert variant.misconception and "\n" not in variant.misconception


def test_chaff_names_are_unique_and_there_are_at_least_twenty():
    """At least 20 distinct chaffs, each found by its name."""
    names = [variant.name for variant in CHAFFS]
    assert len(names) == len(set(names)) >= 20
    assert chaff("joker_below_king").category == "joker_dominance"
    with pytest.raises(KeyError):
        chaff("no_such_chaff")
