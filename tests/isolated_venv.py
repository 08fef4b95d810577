"""A fresh virtual environment that sees only chosen packages of ours: what "nothing else installed" looks like.

It has no pip of its own and reaches the chosen entries of this environment's site-packages through a .pth
file pointing at a folder of symlinks, so tests can run pip and pytest in it without any network.
"""

from __future__ import annotations

import subprocess
import sys
import sysconfig
from pathlib import Path
from typing import Callable

PYTEST_ONLY = frozenset({"pytest", "_pytest", "py.py", "pluggy", "iniconfig", "packaging", "pygments", "pip"})
"""pytest, what it needs, and pip (to run `pip install pytest`, which finds it already there)."""


def pytest_only(name: str) -> bool:
    """Keep pytest, its dependencies and pip (packages and their .dist-info folders)."""
    return name.split("-", 1)[0] in PYTEST_ONLY


def everything_but_war_grader(name: str) -> bool:
    """Keep every installed package except war-grader itself (its editable finder and .pth files too)."""
    return not name.lower().startswith(("war_grader", "__editable__", "__pycache__")) and not name.endswith(".pth")


MakeVenv = Callable[..., Path]
"""make_venv's type: what tests/conftest.py's fresh_venv fixture gives (the tests reach make_venv only through it)."""


def make_venv(folder: Path, keep: Callable[[str], bool], python: str = sys.executable) -> Path:
    """Create the environment in folder, for python (this interpreter by default), and return its bin folder.

    For another version of Python the entries kept must be pure Python: a compiled module built for this one is
    not found there (coverage falls back to its Python tracer, MarkupSafe to its Python escaping)."""
    subprocess.run([python, "-m", "venv", "--without-pip", str(folder)], check=True)
    farm = folder / "host-packages"
    farm.mkdir()
    for entry in Path(sysconfig.get_path("purelib")).iterdir():
        if keep(entry.name):
            (farm / entry.name).symlink_to(entry)
    site_packages = next(folder.glob("lib/python*/site-packages"))
    (site_packages / "host-packages.pth").write_text(f"{farm}\n", encoding="utf-8")
    return folder / "bin"
