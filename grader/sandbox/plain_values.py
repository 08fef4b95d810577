"""What leaves the worker, made plain: student values encoded with their types, exceptions described, printed
output capped, and StudentFault for what a call cannot go on from.

A module of the worker's runtime (stdlib only, beside worker.py in the sandbox; see worker.py's docstring).
Everything here touches student objects, so it keeps its own references to the builtins it calls: student code
may replace builtins once it is imported.
"""

from __future__ import annotations

import io
import os
import traceback

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Protocol  # annotations only: importing typing cost every worker 4 ms

    class StudentSession(Protocol):
        """What the stand-ins (trusted_units.py, trusted_cards.py) use of the session that loaded the student's
        package (operations.Session), named here so that neither imports operations, which imports them."""

        modules: list[Any]
        queue_class: Any

        def name(self, name: str) -> Any: ...

        def queue(self, cards: list[Any]) -> Any: ...

_type, _len, _str, _repr = type, len, str, repr

MAX_INT_BITS = 4096
"""An int larger than this is sent as an opaque value (JSON and the trusted side cap digits anyway)."""

MAX_ITEMS = 10_000
"""A queue or list longer than this is cut: no honest answer in this assignment comes near it."""

MAX_TEXT = 300
"""Characters kept of a repr or message."""

OUTPUT_CAP = 64 * 1024
"""Characters of printed output kept per call."""


class StudentFault(Exception):
    """Student code did something the call cannot go on from (a missing name, a bad size)."""


class CappedText(io.TextIOBase):
    """A text stream that keeps the first OUTPUT_CAP characters and counts the rest."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.kept = 0
        self.dropped = 0

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if _type(text) is not str:
            text = _str(text)
        room = OUTPUT_CAP - self.kept
        if room > 0:
            piece = text[:room]
            self.parts.append(piece)
            self.kept += _len(piece)
        self.dropped += max(0, _len(text) - max(room, 0))
        return _len(text)

    def take(self) -> tuple[str, bool]:
        text, truncated = "".join(self.parts), self.dropped > 0
        self.parts, self.kept, self.dropped = [], 0, 0
        return text, truncated


def encode(value: Any, depth: int = 0) -> Any:
    """A JSON value saying exactly what value is: str, int, bool, None as themselves, the rest tagged."""
    kind = _type(value)
    if kind is str:
        return value if _len(value) <= MAX_TEXT * 10 else value[: MAX_TEXT * 10]
    if kind is bool or value is None:
        return value
    if kind is int:
        if value.bit_length() <= MAX_INT_BITS:
            return value
        return {"object": "int", "repr": f"an int of {value.bit_length()} bits"}
    if kind is float:
        return {"float": value}  # inf and nan included: the trusted side's JSON reader takes them
    if (kind is tuple or kind is list) and depth < 4:
        items = [encode(item, depth + 1) for item in value[:MAX_ITEMS]]
        return {"tuple" if kind is tuple else "list": items}
    return {"object": safe_text(lambda: kind.__qualname__), "repr": safe_text(lambda: _repr(value))}


def safe_text(produce: Any) -> str:
    """Text from student-defined code, or a placeholder if that code misbehaves."""
    try:
        text = produce()
        return text[:MAX_TEXT] if _type(text) is str else "<not text>"
    except BaseException:  # noqa: BLE001 - anything the student's __repr__ does is contained here
        return "<unprintable>"


def queue_size(queue: Any, *, bounded: bool) -> int:
    """The student queue's size(), which must be a whole number (and, bounded, 0..MAX_ITEMS to drain it)."""
    size = queue.size()
    if _type(size) is not int or (bounded and not 0 <= size <= MAX_ITEMS):
        what = "a small whole number" if bounded else "a whole number"
        raise StudentFault(f"Queue.size() returned {safe_text(lambda: _repr(size))}, not {what}")
    return size


def describe(error: BaseException, root: str) -> dict:
    """An exception as plain data, its traceback cut to frames in the student's own files."""
    if "null bytes" in safe_text(lambda: _str(error)):
        found = find_nul_byte(root)
        if found:
            return {"type": "SyntaxError", "message": f"{found[0]} line {found[1]} holds a NUL byte (\\x00), "
                                                      "which Python source cannot contain", "traceback": ""}
    frames = [
        frame for frame in _frames(error.__traceback__)
        if os.path.realpath(frame.filename).startswith(root + os.sep)
    ]
    for frame in frames:
        frame.filename = os.path.relpath(os.path.realpath(frame.filename), root)
    lines = traceback.format_list(frames)
    return {
        "type": safe_text(lambda: _type(error).__name__),
        "message": safe_text(lambda: _str(error)),
        "traceback": "".join(lines)[-4000:],
    }


def _frames(tb: Any) -> list:
    """traceback.extract_tb's frames; where a repaired call's stand-ins hide some of them (AttributeError: see
    repair_server.py), the others, read one by one."""
    try:
        return list(traceback.extract_tb(tb))
    except AttributeError:
        pass
    frames = []
    while tb is not None:
        try:
            code = tb.tb_frame.f_code
            frames.append(traceback.FrameSummary(code.co_filename, tb.tb_lineno, code.co_name))
        except AttributeError:
            pass  # a stand-in's frame: never one of the student's files
        tb = tb.tb_next
    return frames


def find_nul_byte(root: str) -> tuple[str, int] | None:
    """The first student .py file (relative path) and line holding a NUL byte, if any."""
    for folder, folders, files in os.walk(root):
        folders.sort()
        for name in sorted(files):
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                try:
                    with open(path, "rb") as handle:
                        data = handle.read()
                except OSError:
                    continue
                if b"\0" in data:
                    return os.path.relpath(path, root), data[: data.index(b"\0")].count(b"\n") + 1
    return None
