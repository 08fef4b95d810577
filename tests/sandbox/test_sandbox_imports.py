"""The sandbox knows nothing of War: no module under grader/sandbox imports the reference, the starter, or the
layers that grade (their timings, categories and secrets are passed in from the grading side)."""

from __future__ import annotations

import ast
from pathlib import Path

import grader.sandbox

SANDBOX = Path(grader.sandbox.__file__).parent

FORBIDDEN = ("reference", "starter", "grader.grading", "grader.part_e", "grader.report", "grader.export",
             "grader.batch", "grader.results", "grader.config")
"""What the sandbox may not import: War's code and every grader layer that knows of War."""


def imported(path: Path) -> set[str]:
    """Every module path imports, relative imports made absolute (grader.sandbox.x)."""
    package = "grader.sandbox"
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                module = f"{base}.{node.module}" if node.module else base
            else:
                module = node.module or ""
            names.add(module)
            names.update(f"{module}.{alias.name}" for alias in node.names)
    return names


def test_no_sandbox_module_imports_war_or_the_grading_layers():
    """Every import under grader/sandbox (ast, function-level ones included) is outside FORBIDDEN"""
    modules = sorted(SANDBOX.glob("*.py"))
    assert len(modules) > 5
    found = {(path.name, name) for path in modules for name in imported(path)
             if any(name == bad or name.startswith(bad + ".") for bad in FORBIDDEN)}
    assert not found, found


def test_the_checker_sees_relative_and_nested_imports(tmp_path):
    """The checker itself: a relative import of ..grading and an import inside a function are both found"""
    module = tmp_path / "m.py"
    module.write_text("from ..grading import runner\n\ndef f():\n    import reference\n")
    assert {"grader.grading", "grader.grading.runner", "reference"} <= imported(module)
