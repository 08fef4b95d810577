"""The grader's layers: no module imports from a layer above its own, and the command line only parses and prints.

Every module under grader/ is parsed (never imported) and each of its imports, wherever it stands (a function's
body included), is placed in a layer by the longest declared prefix of its name. docs/development.md explains
the order.
"""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GRADER = ROOT / "grader"

LAYERS: tuple[tuple[str, ...], ...] = (
    ("grader", "grader.results", "grader.submissions", "grader.public_tests", "grader.chaffs", "grader.wheat",
     "grader.limits", "grader.errors", "grader.rubric", "grader.hidden", "grader.late", "grader.commits",
     "grader.git_read", "grader.canvas_names", "grader.gradescope_export", "grader.roster", "grader.hold"),
    ("grader.sandbox",),
    ("grader.config", "grader.reveal"),
    ("grader.part_e",),
    ("grader.grading",),
    ("grader.report",),
    ("grader.batch", "grader.similarity"),
    ("grader.export",),
    ("grader.cli", "grader.__main__"),
)
"""The layers, lowest first; a module may import from its own layer and the ones below. The bottom holds the
plain data every layer shares (result types, submissions, the chaffs and wheats as source, the time limits, the
folders to hide); sandbox/ runs code
and knows no settings file; config reads grading.toml into the sandbox's limits and everyone's settings; part_e
judges the student's own tests; grading runs the hidden suites and scores both; report renders results; batch is
the grading API, and similarity beside it compares the students' code; export packages it for Classroom and Gradescope (whose autograder calls batch); the command
line is the top."""

OUTSIDE = ("reference", "starter")
"""The assignment itself (the instructor's solution and the students' stubs): below every layer."""

CLI_API = ("grader.batch", "grader.export", "grader.similarity")
"""Where the command line gets its work done: anything from these."""

CLI_NAMES_ONLY = ("grader", "grader.config", "grader.errors", "grader.results")
"""From these the command line takes only types, errors and constants (the version, category titles), never a
function: it calls nothing below the API."""


def module_name(path: Path) -> str:
    """grader/grading/runner.py -> grader.grading.runner; a package's __init__.py is the package."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> list[tuple[int, str]]:
    """Every module of a file's imports, anywhere in it: (line, module)."""
    return imports_in(path.read_text(encoding="utf-8"), module_name(path), package=path.name == "__init__.py")


def imports_in(source: str, name: str, *, package: bool) -> list[tuple[int, str]]:
    """Every module source imports, anywhere in it, with relative imports resolved from the module name (a
    package when package); `from X import y` names X.y when y is a module of grader, else X."""
    here = name if package else name.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here.split(".")[:len(here.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found.extend((node.lineno, f"{target}.{alias.name}" if is_module(f"{target}.{alias.name}") else target)
                         for alias in node.names)
    return found


def is_module(name: str) -> bool:
    """Whether a dotted name is a module or package of the project (a file or folder under ROOT)."""
    path = ROOT.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def layer_of(module: str) -> int | None:
    """The index in LAYERS of a module of grader, by its longest declared prefix ("grader" itself, the package's
    __init__, only exactly); None for a module no layer declares."""
    best, index = -1, None
    for position, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            matches = module == prefix or (prefix != "grader" and module.startswith(prefix + "."))
            if matches and len(prefix) > best:
                best, index = len(prefix), position
    return index


def in_grader(module: str) -> bool:
    """Whether an imported module is grader's own."""
    return module == "grader" or module.startswith("grader.")


MODULES = sorted(GRADER.rglob("*.py"))


def test_every_module_of_grader_is_in_a_declared_layer():
    """A new package must be given its place in LAYERS (then it is checked like the others)"""
    assert MODULES
    assert [module_name(path) for path in MODULES if layer_of(module_name(path)) is None] == []


@pytest.mark.parametrize("path", MODULES, ids=lambda path: str(path.relative_to(ROOT)))
def test_no_module_imports_from_a_layer_above_its_own(path):
    """Each import of grader is from the module's own layer or one below it"""
    assert upward(imports(path), module_name(path)) == []


def upward(found: list[tuple[int, str]], name: str) -> list[str]:
    """The imports of module name that come from a layer above its own, one line each."""
    own = layer_of(name)
    assert own is not None, f"{name} is in no layer"
    above = []
    for line, module in found:
        layer = layer_of(module)
        if in_grader(module) and (layer is None or layer > own):
            above.append(f"line {line}: {module} ({LAYERS[layer][0] if layer is not None else 'no layer'}, "
                         f"above {LAYERS[own][0]})")
    return above


def test_the_layer_check_sees_an_upward_import_and_an_undeclared_package():
    """The check itself: a sandbox module importing grading (inside a function too) or a package no layer
    declares is caught; the assignment, the standard library and lower layers are not"""
    source = ("import os\nimport reference\nfrom .. import results\nfrom .isolation import LEVELS\n"
              "def f():\n    from ..grading.runner import grade_all\n    import grader.novelty\n")
    found = imports_in(source, "grader.sandbox.probe", package=False)
    assert [module for _, module in found] == ["os", "reference", "grader.results", "grader.sandbox.isolation",
                                               "grader.grading.runner", "grader.novelty"]
    assert upward(found, "grader.sandbox.probe") == [
        "line 6: grader.grading.runner (grader.grading, above grader.sandbox)",
        "line 7: grader.novelty (no layer, above grader.sandbox)"]
    assert imports_in("from . import __version__\n", "grader.cli", package=False) == [(1, "grader")]


def test_the_command_line_asks_the_api_for_all_its_work():
    """cli.py imports from grader only the API (grader.batch, grader.export, grader.similarity) and, from the layers below it,
    types, errors and constants, never a function: it parses and prints"""
    source = (GRADER / "cli.py").read_text(encoding="utf-8")
    taken = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            assert not any(in_grader(alias.name) for alias in node.names), f"line {node.lineno}: import of grader"
        if not isinstance(node, ast.ImportFrom) or not (node.level or in_grader(node.module or "")):
            continue
        target = ".".join(["grader"] + ([node.module] if node.module else [])) if node.level else str(node.module)
        if any(target == api or target.startswith(api + ".") for api in CLI_API):
            continue
        assert target in CLI_NAMES_ONLY, f"line {node.lineno}: cli.py imports from {target}"
        module = importlib.import_module(target)
        taken.extend((node.lineno, target, alias.name, getattr(module, alias.name)) for alias in node.names)
    assert taken  # the check looked at something
    assert [(line, f"{target}.{name}") for line, target, name, value in taken if inspect.isroutine(value)] == []


def test_every_error_of_grader_belongs_to_one_of_the_two_families():
    """Each exception class grader/ declares derives from UserError or InternalError (ApiError from their common
    base), except those of the scripts that run inside the sandbox and two private signals, each named here"""
    import importlib
    import inspect

    from grader.errors import InternalError, UserError, WarGraderError

    own = {"grader.sandbox.bounded_json.Refused": "a refusal the reader turns into the student's crash",
           "grader.sandbox.channel.StudentProblem": "the student's fault, reported in the student's report",
           "grader.sandbox.channel.Ungradable": "the student's fault: the submission cannot be graded",
           "grader.sandbox.plain_values.StudentFault": "copied into the sandbox's runtime",
           "grader.sandbox.syscall_allowlist.Unavailable": "turned into SandboxError where it is raised",
           "grader.part_e.session.Stopped": "Part E's end, reported in the student's report",
           "grader.grading.checks.Mismatch": "an AssertionError, as pytest reports it"}
    checked = 0
    for path in sorted(GRADER.rglob("*.py")):
        name = module_name(path)
        if "templates" in path.parts or name in ("grader.part_e.in_sandbox", "grader.part_e.run_world",
                                                 "grader.part_e.run_sources", "grader.part_e.run_session",
                                                 "grader.sandbox.worker",
                                                 "grader.__main__") or name.endswith("suites.conftest"):
            continue
        if "/suites/" in str(path) or "wheat" in path.parts:
            continue
        module = importlib.import_module(name)
        for cls_name, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ != name or not issubclass(cls, BaseException):
                continue
            qualified = f"{name}.{cls_name}"
            checked += 1
            if any(issubclass(cls, known) for known in (UserError, InternalError)):
                continue
            if cls is WarGraderError or (issubclass(cls, WarGraderError) and cls_name == "ApiError"):
                continue
            assert any(issubclass(cls, base) for base in [importlib.import_module(q.rsplit(".", 1)[0]).__dict__[
                q.rsplit(".", 1)[1]] for q in own]), f"{qualified} is in neither family"
    assert checked >= 20


def test_no_two_modules_import_each_other():
    """No module of grader/ imports a module that imports it back: at the top, inside a function (an import
    inside a function hides a cycle from the interpreter, not from the reader) or for annotations alone (under
    `if TYPE_CHECKING:`, which runs nothing but still ties the two modules together for the reader)"""
    graph: dict[str, set[str]] = {}
    for path in sorted(GRADER.rglob("*.py")):
        if "templates" in path.parts:
            continue
        name = module_name(path)
        graph[name] = {module for _, module in imports(path) if module.startswith("grader.") and module != name}
    pairs = sorted({tuple(sorted((a, b))) for a, targets in graph.items() for b in targets
                    if a in graph.get(b, set())})
    assert not pairs, f"modules that import each other: {pairs}"
