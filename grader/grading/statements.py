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
    starts: set[int] = set()
    owner: dict[int, int] = {}
    # Outer statements first, so an inner one's lines end up its own. Only statement lists are followed (an
    # expression never holds a statement): walking every expression node cost several times the parse.
    pending: list[ast.AST] = [tree]
    while pending:
        node = pending.pop()
        body = getattr(node, "body", None)
        docstring = body[0] if isinstance(node, DOCUMENTED) and body and _is_docstring(body[0]) else None
        for field in COMPOUND_BODIES:
            for child in getattr(node, field, None) or ():
                if isinstance(child, (ast.stmt, ast.ExceptHandler, ast.match_case)):
                    pending.append(child)
                    if child is not docstring and not isinstance(child, (ast.match_case, *NEVER_RUN)):
                        _own(child, starts, owner)
    return starts, owner


DOCUMENTED = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
"""The nodes whose first statement, when it is a string, is a docstring."""


def _is_docstring(node: ast.AST) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)


def _own(node: ast.stmt | ast.ExceptHandler, starts: set[int], owner: dict[int, int]) -> None:
    """Count node as a statement and make it the owner of its lines (a compound statement's: its header)."""
    starts.add(node.lineno)
    first = min([node.lineno, *(decorator.lineno for decorator in getattr(node, "decorator_list", []))])
    inner = [child.lineno for field in COMPOUND_BODIES for child in getattr(node, field, None) or []
             if hasattr(child, "lineno")]
    last = min(inner) - 1 if inner else (node.end_lineno or node.lineno)
    for line in range(first, max(last, node.lineno) + 1):
        owner[line] = node.lineno


def executed_statements(text: str, raw_lines: set[int]) -> tuple[list[int], list[int]]:
    """The statements that ran and those that never did, each by its first line."""
    starts, owner = statement_lines(text)
    executed = {owner[line] for line in raw_lines if line in owner} & starts
    return sorted(executed), sorted(starts - executed)
