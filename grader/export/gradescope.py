"""`war-grader export gradescope FILE.zip`: Gradescope's autograder format, with the grader as a bundled wheel.

The zip holds, at its root: setup.sh (Ubuntu's Python and bubblewrap, then setup_python.sh), setup_python.sh
(a virtual environment with the wheel and its dependencies from PyPI), run_autograder (grades
/autograder/submission into /autograder/results/results.json), grading.toml (the instructor's settings) and
the wheel. Gradescope unpacks it into /autograder/source; every script takes its root from $AUTOGRADER.
"""

from __future__ import annotations

import shutil
import tempfile
import tomllib
import zipfile
from importlib.resources import files
from pathlib import Path, PurePosixPath

from ..config import load_config
from .classroom import ExportError
from .templating import render
from .wheel import FIXED_TIME, build_wheel

SCRIPTS = ("setup.sh", "setup_python.sh", "run_autograder")
"""The executable scripts, each rendered from its template."""


def late_files(config_path: Path) -> dict[str, bytes]:
    """The files [late] names (extensions, grace_used), by their path relative to grading.toml, to ship beside
    it; ExportError for one outside its folder (the zip has no place for it)."""
    table = tomllib.loads(config_path.read_text(encoding="utf-8")).get("late")
    found: dict[str, bytes] = {}
    for key in ("extensions", "grace_used"):
        name = table.get(key) if isinstance(table, dict) else None
        if not isinstance(name, str):
            continue
        relative = PurePosixPath(name.replace("\\", "/"))
        if relative.is_absolute() or ".." in relative.parts or relative.as_posix() in (*SCRIPTS, "grading.toml"):
            raise ExportError(f"{config_path}: late.{key} = {name!r}: for the Gradescope zip keep the file in "
                              "grading.toml's folder and name it by a relative path")
        found[relative.as_posix()] = (config_path.parent / name).read_bytes()
    return found


def export_gradescope(target: Path, *, config_path: Path | None = None) -> list[str]:
    """Write the autograder zip at target; return the names of the files in it."""
    if target.suffix != ".zip":
        raise ExportError(f"{target}: the autograder must be a .zip file")
    load_config(config_path)  # a bad setting fails here, on the instructor's machine, not on Gradescope
    settings = config_path.read_bytes() if config_path else files("grader").joinpath("grading.toml").read_bytes()
    beside = late_files(config_path) if config_path else {}
    with tempfile.TemporaryDirectory(prefix="war-grader-export-") as scratch:
        wheel = build_wheel(Path(scratch))
        entries = {name: render(f"{name}.jinja", wheel=wheel.name).encode() for name in SCRIPTS}
        entries["grading.toml"] = settings
        entries.update(beside)
        entries[wheel.name] = wheel.read_bytes()
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    with zipfile.ZipFile(partial, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries.items():
            entry = zipfile.ZipInfo(name, FIXED_TIME)
            entry.external_attr = (0o755 if name in SCRIPTS else 0o644) << 16
            entry.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(entry, data)
    shutil.move(partial, target)
    return list(entries)
