"""Which statements of the student's files ran: the submission's modules compiled with a mark before each
statement, and the lines those marks stand for, sent with the worker's replies.

A module of the worker's runtime (stdlib only, beside worker.py in the sandbox; see worker.py's docstring).
LineRecorder's docstring says why marks and not a line tracer; the trusted side maps the lines onto the
statements it counts (grader/grading/statements.py).
"""

from __future__ import annotations

import ast
import builtins
import importlib.machinery
import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any  # annotations only: importing typing cost every worker 4 ms

# Keep our own references: student code may replace builtins after it is imported.
_type, _len, _isinstance, _getattr, _enumerate = type, len, isinstance, getattr, enumerate


class LineRecorder:
    """Which statements of the student's files ran: the student's modules are compiled with a mark before each
    statement, as pytest rewrites assertions.

    (A line tracer made every line of every call run about twelve times slower: under `sys.settrace` the
    interpreter takes its slow path for every frame, traced or not.) A mark is `__war_grader_ran__[i] = 1`, a
    store into a list: about 11 ns, against 29 for calling a set's add. Only statements are marked, never
    expressions, and each mark sits at its statement's own line, so tracebacks, line numbers and the source the
    student sees are unchanged. The line numbers go to the trusted side, which maps them onto the statements of
    the source (scoring). The record agrees with a line tracer's (tests/sandbox/test_line_recorder.py) but for two
    cases: an `except` clause counts as run when it caught the exception (a tracer also counts one that was only
    tested and let it pass), and code the student runs without importing it (exec of a string, a module loaded
    from a spec by hand) is not marked.
    """

    def __init__(self, root: str) -> None:
        self.prefix = os.path.realpath(root) + os.sep
        self.paths: list[str] = []
        """The student files compiled so far, relative to root."""
        self.ran: list[Any] = []
        """Per mark, 1 once its statement ran (the list student code sees as __war_grader_ran__)."""
        self.places: list[tuple[int, int]] = []
        """Per mark, the file (a place in paths) and line it stands for."""
        self.unseen = 0
        """How many marks had not run at the last reply that carried lines."""
        self.sent: set[int] = set()
        """The marks whose lines a reply already carried: each reply carries only new ones."""

    def start(self) -> None:
        """Mark every student module imported from now on."""
        setattr(builtins, MARK_NAME, self.ran)
        finders = sys.meta_path
        place = next((index for index, finder in _enumerate(finders)
                      if finder is importlib.machinery.PathFinder), _len(finders))
        finders.insert(place, StudentFinder(self))

    def owns(self, path: str) -> bool:
        """Whether path is one of the student's source files."""
        return path.endswith(".py") and os.path.realpath(path).startswith(self.prefix)

    def compile(self, data: bytes, path: str) -> Any:
        """The code of one student file, each statement marked; unmarked when it does not parse (so the
        student sees Python's own error) or is too deep to mark."""
        file = _len(self.paths)
        marks: dict[int, int] = {}

        def mark_for(line: int) -> int:
            if line not in marks:
                marks[line] = _len(self.places)
                self.places.append((file, line))
                self.ran.append(0)
                self.unseen += 1
            return marks[line]

        try:
            tree = ast.parse(data, path)
            mark_statements(tree, mark_for)
            code = compile(tree, path, "exec", dont_inherit=True)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return compile(data, path, "exec", dont_inherit=True)
        self.paths.append(os.path.realpath(path)[_len(self.prefix):])
        return code

    def new_lines(self) -> list[dict] | None:
        """The lines that ran since the last reply that carried some, or None if none did.

        Sent with the replies themselves, so a worker killed by a later call loses none of them and the
        grader never asks for them.
        """
        try:
            unseen = self.ran.count(0)
        except BaseException:  # noqa: BLE001 - student code may have put anything in the list
            return None
        if unseen == self.unseen:
            return None
        self.unseen = unseen
        lines: dict[str, set[int]] = {}
        for mark, ((file, line), value) in _enumerate(zip(self.places, self.ran)):
            if _type(value) is int and value == 1 and file < _len(self.paths) and mark not in self.sent:
                self.sent.add(mark)
                lines.setdefault(self.paths[file], set()).add(line)
        return [{"path": path, "executed": sorted(executed)} for path, executed in sorted(lines.items())]


MARK_NAME = "__war_grader_ran__"
"""The builtin list each mark stores into."""

STATEMENT_LISTS = ("body", "orelse", "finalbody")
"""The fields of an AST node that hold a list of statements."""


def mark_statements(tree: Any, mark_for: Any) -> None:
    """Put a mark before every statement of tree that runs (not docstrings, `global`, `nonlocal`, nor before a
    `from __future__` import, which must come first), and one at the top of every except clause.

    Only statement lists are followed (an expression never holds a statement): walking every node of the
    tree cost more than parsing it."""
    pending: list[Any] = [tree]
    while pending:
        node = pending.pop()
        for field in STATEMENT_LISTS:
            statements = _getattr(node, field, None)
            if _type(statements) is not list or not statements or not _isinstance(statements[0], ast.stmt):
                continue
            for statement in statements:
                pending.extend(_getattr(statement, "handlers", None) or ())
                pending.extend(_getattr(statement, "cases", None) or ())
            pending.extend(statements)
            marked: list[Any] = []
            first = 0
            if field == "body" and _isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef,
                                                       ast.AsyncFunctionDef)) and _is_docstring(statements[0]):
                marked.append(statements[0])
                first = 1
            if _isinstance(node, ast.Module):
                futures = first
                while futures < _len(statements) and _is_future_import(statements[futures]):
                    futures += 1
                marked.extend(statements[first:futures])
                marked.extend(_mark(statement, mark_for(statement.lineno)) for statement in statements[first:futures])
                first = futures
            for statement in statements[first:]:
                if not _isinstance(statement, (ast.Global, ast.Nonlocal)):
                    marked.append(_mark(statement, mark_for(statement.lineno)))
                marked.append(statement)
            if _isinstance(node, ast.ExceptHandler) and field == "body":
                marked.insert(0, _mark(node, mark_for(node.lineno)))
            setattr(node, field, marked)


def _is_future_import(statement: Any) -> bool:
    return _isinstance(statement, ast.ImportFrom) and statement.module == "__future__"


def _is_docstring(statement: Any) -> bool:
    return _isinstance(statement, ast.Expr) and _isinstance(statement.value, ast.Constant) \
        and _type(statement.value.value) is str


def _mark(where: Any, mark: int) -> Any:
    """`__war_grader_ran__[mark] = 1`, placed at where's line."""
    at = {"lineno": where.lineno, "col_offset": where.col_offset, "end_lineno": where.end_lineno,
          "end_col_offset": where.end_col_offset}
    target = ast.Subscript(ast.Name(MARK_NAME, ast.Load(), **at), ast.Constant(mark, **at), ast.Store(), **at)
    return ast.Assign([target], ast.Constant(1, **at), **at)


class StudentFinder:
    """Finds modules as Python's own path finder does, and loads the student's source files marked."""

    def __init__(self, recorder: LineRecorder) -> None:
        self.recorder = recorder

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        spec: Any = importlib.machinery.PathFinder.find_spec(name, path, target)
        loader: Any = spec.loader if spec is not None else None
        if _type(loader) is importlib.machinery.SourceFileLoader and self.recorder.owns(loader.path):
            spec.loader = MarkedLoader(loader.name, loader.path, self.recorder)
        return spec

    def invalidate_caches(self) -> None:
        importlib.machinery.PathFinder.invalidate_caches()


class MarkedLoader(importlib.machinery.SourceFileLoader):
    """A student's source file, compiled from its source with its statements marked."""

    def __init__(self, name: str, path: str, recorder: LineRecorder) -> None:
        super().__init__(name, path)
        self.recorder = recorder

    def get_code(self, fullname: str) -> Any:
        path = self.get_filename(fullname)
        return self.recorder.compile(self.get_data(path), path)
