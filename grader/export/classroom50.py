"""`war-grader export classroom50 OUT`: a Classroom 50 assignment: template, public bundle, runtime, grading workflow.

Classroom 50 grades in each student's own Actions job from a bundle published on the organization's public
Pages site, so the bundle holds only what the template already shows: the handout, the public tests and an
autograder.py of the standard library that scores them per category (all or nothing, as the old export did).
The hidden suites, the reference and grading.toml stay on the teacher's side, graded by the private
workflow written beside them; the export refuses a bundle holding any of them.
"""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Iterable

from .. import __version__
from ..config import Config, load_config
from ..results import CATEGORY_TITLES
from . import classroom
from .classroom import CHECKOUT, PART_E, PUBLIC_CATEGORIES, PYTHON_VERSION, SETUP_PYTHON, ExportError
from .templating import render

UPLOAD_ARTIFACT = "actions/upload-artifact@ea165f8d65b6e75b540449e92b4886f43607fa02  # v4.6.2"
DOWNLOAD_ARTIFACT = "actions/download-artifact@d3f86a106a0bac45b974a628896c90dbdf5c8093  # v4.3.0"
"""The artifact actions the grading workflow uses, pinned as docs/grade-class.yml pins them."""

NAME = re.compile(r"[a-z0-9][a-z0-9-]{1,38}")
"""A classroom's short name or an assignment's slug, as Classroom 50 accepts them."""

DEFAULT_ASSIGNMENT = "war"
"""The assignment's slug unless --assignment names another."""

ORG_PLACEHOLDER = "ORG"
"""What stands for the organization in the commands and the workflow when --org is not given."""

TEMPLATES = Path(__file__).resolve().parent / "templates"
AUTOGRADER = TEMPLATES / "classroom50_autograder.py"
CLONE_SCRIPT = TEMPLATES / "classroom50_clone.sh"
"""The bundle's entrypoint and the grading workflow's clone step, shipped as written."""

HIDDEN_SUITES = Path(__file__).resolve().parents[1] / "grading" / "suites"
REFERENCE = classroom.PROJECT_ROOT / "reference"
"""What must never reach the public bundle: the hidden suites (and their helpers) and the reference."""

TELLING_LINE = 40
"""A line at least this long (stripped) of a hidden suite, or of the reference but not the starter, is one no
public file has: finding one in the bundle means that file leaked."""

SECRET_SECTIONS = ("[visibility]", "[late]", "[reveal]")
"""grading.toml's sections that say what students must not see or know in advance."""

BUNDLE_FILES = ("autograder.py", "categories.json", "public/README.md", "public/pytest.ini",
                "public/tests/conftest.py")
"""The bundle's files besides the public tests (public/tests/contract/, as the template holds them)."""


@dataclass(frozen=True)
class Classroom50Export:
    """What was written: the bundle's folder, the scale, and the public tests' share of the (scaled) points."""

    bundle: Path
    scale: int
    public_points: int
    total_points: int


def export_classroom50(out: Path, *, classroom_name: str, assignment: str = DEFAULT_ASSIGNMENT,
                       org: str | None = None, config_path: Path | None = None) -> Classroom50Export:
    """Write OUT (new or empty): README.md, template/, the bundle, runtime.json and the grading workflow."""
    for label, value in (("--classroom", classroom_name), ("--assignment", assignment)):
        if not NAME.fullmatch(value):
            raise ExportError(f"{label} {value!r}: a name of 2 to 39 lowercase letters, digits and hyphens, "
                              "starting with a letter or digit")
    if org is not None and not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9-]{0,38}", org):
        raise ExportError(f"--org {org!r}: not a GitHub organization name")
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise ExportError(f"{out}: already exists and is not an empty folder")
    config = load_config(config_path)
    scale = scale_of(config.points)
    categories = [(key, CATEGORY_TITLES[key], scaled(config.points[key], scale)) for key in CATEGORY_TITLES
                  if key != PART_E and key in PUBLIC_CATEGORIES.values() and config.points[key] > 0]
    total = sum(scaled(config.points[key], scale) for key in CATEGORY_TITLES if config.points[key] > 0)
    public = sum(points for _, _, points in categories)
    bundle = out / "classroom50" / classroom_name / "autograders" / assignment
    try:
        _write(out, bundle, categories, scale, config)
        check_bundle(bundle, config)
        (out / "README.md").write_text(render("classroom50_readme.md.jinja", org=org or ORG_PLACEHOLDER,
                                              classroom=classroom_name, assignment=assignment, public=public,
                                              total=total, scale=scale), encoding="utf-8")
        workflow = out / "grading" / ".github" / "workflows" / "grade-classroom50.yml"
        workflow.parent.mkdir(parents=True)
        workflow.write_text(grading_workflow(org or ORG_PLACEHOLDER, classroom_name, assignment), encoding="utf-8")
    except ExportError:
        for child in out.iterdir() if out.is_dir() else ():
            shutil.rmtree(child) if child.is_dir() else child.unlink()
        raise
    return Classroom50Export(bundle, scale, public, total)


def scale_of(points: dict[str, float]) -> int:
    """The smallest of 1, 10, 100 and 1000 that makes every category's points whole (Part E's too)."""
    for power in range(4):
        if all((Fraction(str(value)) * 10 ** power).denominator == 1 for value in points.values()):
            return 10 ** power
    raise ExportError("points in grading.toml need at most 3 decimals to become whole Classroom 50 points")


def scaled(points: float, scale: int) -> int:
    """A category's points times the scale, whole (scale_of made it so)."""
    return int(Fraction(str(points)) * scale)


def grading_workflow(org: str, classroom_name: str, assignment: str) -> str:
    """The teacher's grading workflow (grade-classroom50.yml), filled in."""
    return render("grade-classroom50.yml.jinja", org=org, classroom=classroom_name, assignment=assignment,
                  checkout=CHECKOUT, setup_python=SETUP_PYTHON, upload_artifact=UPLOAD_ARTIFACT,
                  download_artifact=DOWNLOAD_ARTIFACT, python_version=PYTHON_VERSION,
                  clone=CLONE_SCRIPT.read_text(encoding="utf-8").rstrip("\n"))


def _write(out: Path, bundle: Path, categories: list[tuple[str, str, int]], scale: int, config: Config) -> None:
    """template/ (its handout with the closing section), the bundle and runtime.json."""
    template = out / "template"
    classroom.write_template(template, {key: title for key, title, _ in categories})
    handout = template / "README.md"
    handout.write_text(handout.read_text(encoding="utf-8") + render(
        "classroom50_handout.md.jinja", example="forced_war" if any(key == "forced_war" for key, _, _ in categories)
        else categories[0][0], categories=", ".join(key for key, _, _ in categories)), encoding="utf-8")
    public = bundle / "public"
    (public / "tests").mkdir(parents=True)
    shutil.copyfile(AUTOGRADER, bundle / "autograder.py")
    (bundle / "categories.json").write_text(json.dumps({
        "war_grader": __version__, "scale": scale, "python": PYTHON_VERSION,
        "categories": [{"key": key, "title": title, "points": points} for key, title, points in categories],
        "public_tests": PUBLIC_CATEGORIES}, indent=2) + "\n", encoding="utf-8")
    shutil.copyfile(handout, public / "README.md")
    (public / "pytest.ini").write_text("# The public tests as Classroom 50's runner runs them: no testpaths.\n"
                                       "[pytest]\naddopts = -p no:cacheprovider\n", encoding="utf-8")
    shutil.copyfile(template / "tests" / "conftest.py", public / "tests" / "conftest.py")
    shutil.copytree(template / "tests" / "contract", public / "tests" / "contract")
    (out / "runtime.json").write_text(json.dumps({"python": PYTHON_VERSION}) + "\n", encoding="utf-8")


def check_bundle(bundle: Path, config: Config) -> None:
    """Refuse a bundle holding anything but what the template shows: a file outside BUNDLE_FILES and the public
    tests, a line of a hidden suite or of the reference, a [visibility] hidden name, or grading.toml's secret
    sections."""
    files = {path.relative_to(bundle).as_posix(): path for path in sorted(bundle.rglob("*")) if path.is_file()}
    expected = {*BUNDLE_FILES, *(f"public/tests/contract/{name}" for name in classroom.public_files())}
    for name in files:
        if name not in expected:
            raise ExportError(f"the public bundle would hold {name}, which is no file of the template's: refused")
    texts = {name: path.read_text(encoding="utf-8", errors="replace") for name, path in files.items()}
    for name, text in texts.items():
        lines = {line.strip() for line in text.splitlines()}
        for what, telling in (("a hidden suite", _telling(HIDDEN_SUITES.glob("*.py"))),
                              ("the reference", _telling(REFERENCE.glob("*.py")) - _telling(
                                  classroom.STARTER.glob("*.py")))):
            if lines & telling:
                raise ExportError(f"the public bundle's {name} holds a line of {what}: refused")
        for pattern in config.hidden:
            literal = re.split(r"[*?\[]", pattern.rsplit("::", 1)[-1], maxsplit=1)[0]
            if len(literal) >= 8 and literal in text:
                raise ExportError(f"the public bundle's {name} names the hidden test {pattern}: refused")
        for section in SECRET_SECTIONS:
            if section in text:
                raise ExportError(f"the public bundle's {name} holds grading.toml's {section}: refused")


def _telling(paths: Iterable[Path]) -> set[str]:
    """The stripped lines at least TELLING_LINE long of some files."""
    return {line.strip() for path in paths for line in path.read_text(encoding="utf-8").splitlines()
            if len(line.strip()) >= TELLING_LINE}
