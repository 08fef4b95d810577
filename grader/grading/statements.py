"""The statements of a student's source file, and which of them ran, from the raw line numbers the worker sends
(a line tracer's or its marks': a statement over several lines may report any of them; a docstring or `global`
never runs)."""

from __future__ import annotations

import ast

COMPOUND_BODIES = ("body", "orelse", "finalbody", "handlers", "cases")
"""The fields holding a compound statement's inner statements: only its header lines are its own."""

NEVER_RUN = (ast.Global, ast.Nonlocal)
"""Statements that compile to nothing, so no line of theirs is ever seen running."""


def statement_lines(text: str) -> tuple[set[int], dict[int, int]]:
    """The first line of every statement that runs, and the statement each source line belongs to."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return set(), {}
    docstrings = {id(node.body[0]) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr)
                  and isinstance(node.body[0].value, ast.Constant) and isinstance(node.body[0].value.value, str)}
    starts: set[int] = set()
    owner: dict[int, int] = {}
    for node in ast.walk(tree):  # outer statements first, so an inner one's lines end up its own
        if not isinstance(node, (ast.stmt, ast.ExceptHandler)) or isinstance(node, NEVER_RUN) \
                or id(node) in docstrings:
            continue
        starts.add(node.lineno)
        first = min([node.lineno, *(decorator.lineno for decorator in getattr(node, "decorator_list", []))])
        inner = [child.lineno for field in COMPOUND_BODIES for child in getattr(node, field, None) or []
                 if hasattr(child, "lineno")]
        last = min(inner) - 1 if inner else (node.end_lineno or node.lineno)
        for line in range(first, max(last, node.lineno) + 1):
            owner[line] = node.lineno
    return starts, owner


def executed_statements(text: str, raw_lines: set[int]) -> tuple[list[int], list[int]]:
    """The statements that ran and those that never did, each by its first line."""
    starts, owner = statement_lines(text)
    executed = {owner[line] for line in raw_lines if line in owner} & starts
    return sorted(executed), sorted(starts - executed)
