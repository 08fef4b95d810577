"""How one Part E run gets its implementation: loaded from code in memory (never a file a test could read),
each module under names salted per run, then hidden from the tests (its code objects, the frames and objects
that lead to it, the audit events that could reach it). Part of Part E's runtime, beside in_sandbox.py, which
imports it as a top-level module; it runs inside the sandbox with the standard library only."""

from __future__ import annotations

import os
import sys
from typing import Any

class Sources:
    """A meta path finder serving the package from memory, at the student's own file paths."""

    def __init__(self, package: str, folder: str, sources: dict[str, str], code: dict[str, Any]) -> None:
        self.package, self.folder, self.sources, self.code = package, folder, sources, code

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        import importlib.util  # noqa: PLC0415

        if name == self.package:
            file = "__init__.py"
        elif name.startswith(self.package + ".") and name.count(".") == 1:
            file = name.rpartition(".")[2] + ".py"
        else:
            return None
        if file not in self.sources:
            return None
        spec = importlib.util.spec_from_loader(name, self,  # type: ignore[arg-type]
                                               origin=os.path.join(self.folder, file),
                                               is_package=file == "__init__.py")
        if spec is not None and file == "__init__.py":
            spec.submodule_search_locations = [self.folder]
        if spec is not None:
            spec.has_location = True
        return spec

    def create_module(self, spec: Any) -> None:
        return None

    def exec_module(self, module: Any) -> None:
        file = module.__spec__.origin
        name = os.path.basename(file)
        code = None
        if isinstance(self.code.get(name), str):
            import base64  # noqa: PLC0415
            import marshal  # noqa: PLC0415

            try:
                code = marshal.loads(base64.b64decode(self.code[name]))
            except (ValueError, TypeError, EOFError):
                code = None
        if code is None or getattr(code, "co_filename", None) != file:
            code = flat_code(self.sources[name], file)
        module.__file__ = file
        exec(code, module.__dict__)  # noqa: S102 - the implementation under test


def load_all(finder: Sources, salt: int) -> None:
    """Import every module of the implementation now, then forget its sources and code: nothing a test can reach
    (the loader, this frame) holds them afterwards. Before each module, the salt (the trusted side's, per run)
    allocates a few objects that stay alive, so where the implementation's objects lie in memory (their id())
    says nothing about which implementation it is."""
    import importlib  # noqa: PLC0415
    import random  # noqa: PLC0415

    padding = random.Random(salt)
    names = sorted(finder.sources, key=lambda file: file != "__init__.py")
    for file in names:
        _BALLAST.append([bytearray(padding.randrange(1, 512)) for _ in range(padding.randrange(1, 64))])
        module = finder.package if file == "__init__.py" else f"{finder.package}.{file[:-3]}"
        try:
            importlib.import_module(module)
        except BaseException:  # noqa: BLE001, S110 - the test's own import reports it, the same on every run
            pass
    finder.sources.clear()
    finder.code.clear()


_BALLAST: list[Any] = []
"""The salt's objects (kept alive until the child ends)."""

HIDDEN_ATTRIBUTES = {"__code__": "__code__", "f_code": "f_code", "gi_code": "gi_code", "cr_code": "cr_code",
                     "ag_code": "ag_code", "tb_frame": "tb_frame", "gi_frame": "gi_frame", "cr_frame": "cr_frame",
                     "ag_frame": "ag_frame"}
"""Attributes that lead to a code object (CPython raises the audit event object.__getattr__ for each)."""

DENIED_EVENTS = ("gc.get_objects", "gc.get_referrers", "gc.get_referents", "sys.settrace", "sys.setprofile",
                 "sys._current_frames")
"""Ways to reach any object or frame at all, denied once the implementation is loaded."""


def hide_implementation(files: frozenset[str]) -> None:
    """From now on, in this child, the implementation's code objects cannot be read: an audit hook (which no code
    can remove) refuses with RuntimeError every step that would reach one (a function's __code__, a frame's
    f_code, a traceback's frame...), the ways to find arbitrary objects (gc), tracing, ctypes (raw memory) and
    opening a process's memory. files: the implementation's modules (test files may sit beside them, in the
    package). See the module docstring for why."""

    def code_of(obj: Any, name: str) -> Any:
        if name in ("tb_frame",):
            return obj.tb_frame.f_code
        if name in ("gi_frame", "cr_frame", "ag_frame"):
            frame = getattr(obj, name)
            return frame.f_code if frame is not None else None
        return getattr(obj, name)

    inside = [False]

    def hook(event: str, args: Any) -> None:
        if inside[0]:
            return
        if event == "object.__getattr__":
            name = args[1] if len(args) > 1 else ""
            if name not in HIDDEN_ATTRIBUTES:
                return
            inside[0] = True
            try:
                code = code_of(args[0], name)
                hidden = getattr(code, "co_filename", "") in files  # not a test file beside them
            except BaseException:  # noqa: BLE001 - what cannot be checked is refused
                hidden = True
            finally:
                inside[0] = False
            if hidden:
                raise RuntimeError("the implementation's code is hidden from tests")
        elif event in DENIED_EVENTS or event.startswith("ctypes."):
            raise RuntimeError(f"{event} is not available to tests")
        elif event == "open" and args and isinstance(args[0], (str, bytes)):
            inside[0] = True
            try:
                path = os.path.realpath(os.fsdecode(args[0]))
            finally:
                inside[0] = False
            if path.startswith("/proc/") and os.path.basename(path) in ("mem", "pagemap", "environ", "maps"):
                raise RuntimeError("a process's memory is not available to tests")

    sys.addaudithook(hook)



def flat_code(source: str, file: str) -> Any:
    """The module's code with every line number 1 (the same as grader/part_e/runner.py's flat_code): a traceback
    or a frame's line number says nothing of where in the implementation it was."""
    import ast  # noqa: PLC0415

    tree = ast.parse(source, file)
    for node in ast.walk(tree):
        if "lineno" in node._attributes:
            node.lineno = node.end_lineno = 1  # type: ignore[attr-defined]
            node.col_offset = node.end_col_offset = 0  # type: ignore[attr-defined]
    return compile(tree, file, "exec", dont_inherit=True)


def serve_dataclass_code(path: str) -> None:
    """Let dataclasses find the code it writes for the starter's classes compiled already.

    dataclasses writes each class's methods (__init__, __eq__, ...) as text and compiles it: about 0.7 ms a class on
    Python 3.11, in every run, for the implementation's Rules and GameResult. The zygote compiles the texts the
    starter's classes give (path: a JSON list, recorded by the trusted side) once; a run whose classes write the same
    text execs that code, which is the very code compile() would make. A text not there is compiled as before and
    not kept: what a run can find here is the same in every run, and only the starter's (which every student has)."""
    import dataclasses  # noqa: PLC0415
    import json  # noqa: PLC0415

    try:
        with open(path, encoding="utf-8") as file:
            texts = json.load(file)
    except (OSError, ValueError):
        return
    compiled: dict[str, Any] = {}
    for text in texts if isinstance(texts, list) else ():
        if isinstance(text, str):
            try:
                compiled[text] = compile(text, "<string>", "exec", dont_inherit=True)
            except (SyntaxError, ValueError):
                continue

    def exec_compiled(source: Any, globals: Any = None, locals: Any = None, /) -> None:  # noqa: A002
        if isinstance(source, str):  # as dataclasses' own exec compiles it: none of this module's __future__ flags
            source = compiled.get(source) or compile(source, "<string>", "exec", dont_inherit=True)
        exec(source, globals, locals)  # noqa: S102 - dataclasses' generated methods

    if compiled:
        dataclasses.exec = exec_compiled  # type: ignore[attr-defined]  # the name dataclasses calls


def magic() -> str:
    import importlib.util  # noqa: PLC0415

    return importlib.util.MAGIC_NUMBER.hex()
