"""Reading results.json for the reports: the result, or one sentence saying what is wrong with the file."""

from __future__ import annotations

import dataclasses
import json
import math
import types
import typing
from pathlib import Path
from typing import Any

from ..results import OUTCOMES, TEST_OUTCOMES, GradeResult


def result_paths(out: Path, students: list[str] | None) -> list[Path]:
    """The results.json files of an output folder: the named students' in their order, or (None) every
    <student>/results.json in it, by name, case aside (a folder starting with "." is the grader's own)."""
    if students is not None:
        return [out / student / "results.json" for student in students]
    return sorted((path for path in out.glob("*/results.json") if not path.parent.name.startswith(".")),
                  key=lambda path: path.parent.name.casefold())


def try_load(path: Path) -> tuple[GradeResult | None, str]:
    """The result in a results.json, or None and what is wrong with the file."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        return None, f"cannot read it: {error.strerror or error}"
    except UnicodeDecodeError:
        return None, "not UTF-8 text"
    except json.JSONDecodeError as error:
        return None, f"not JSON: {error.msg} at line {error.lineno}, column {error.colno}"
    return try_result(data)


def try_result(data: Any) -> tuple[GradeResult | None, str]:
    """The result a results.json's parsed JSON holds, or None and what is wrong with it."""
    try:
        result = GradeResult.from_json(data)
    except KeyError as error:
        return None, f"no {error} key"
    except (TypeError, ValueError, AttributeError, IndexError) as error:
        return None, _one_line(str(error))
    problem = _malformed(result)
    return (None, problem) if problem else (result, "")


def _one_line(text: str) -> str:
    """The first line of a message."""
    return text.strip().splitlines()[0] if text.strip() else "malformed"


def _malformed(result: GradeResult) -> str:
    """What in a result does not have the type results.py declares, or an unknown outcome; "" if nothing."""
    problem = _type_problem(result, GradeResult, "")
    if problem:
        return problem
    if result.outcome not in OUTCOMES:
        return f"outcome {result.outcome!r} is not one of {', '.join(OUTCOMES)}"
    for index, test in enumerate(result.tests):
        if test.outcome not in TEST_OUTCOMES:
            return f"tests[{index}].outcome {test.outcome!r} is not one of {', '.join(TEST_OUTCOMES)}"
    telemetry = result.telemetry
    for history in (telemetry.reference, telemetry.student or []) if telemetry else ():
        if any(len(sizes) != 2 for sizes in history):
            return "telemetry holds a round without exactly two queue sizes"
    return ""


def _type_problem(value: Any, hint: Any, where: str) -> str:
    """Where value departs from the type hint (dataclasses, lists, dicts, unions, scalars), or ""."""
    origin = typing.get_origin(hint)
    if hint is Any:
        return ""
    if origin in (typing.Union, types.UnionType):
        problems = [_type_problem(value, option, where) for option in typing.get_args(hint)]
        return "" if "" in problems else problems[-1]
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        if not isinstance(value, hint):
            return f"{where} is not an object of the right shape"
        hints = typing.get_type_hints(hint)
        for field in dataclasses.fields(hint):
            name = f"{where}.{field.name}" if where else field.name
            problem = _type_problem(getattr(value, field.name), hints[field.name], name)
            if problem:
                return problem
        return ""
    if origin is list:
        if not isinstance(value, list):
            return f"{where} is not a list"
        (item,) = typing.get_args(hint)
        return next((p for i, v in enumerate(value) if (p := _type_problem(v, item, f"{where}[{i}]"))), "")
    if origin is dict:
        if not isinstance(value, dict):
            return f"{where} is not an object"
        _, item = typing.get_args(hint)
        return next((p for k, v in value.items() if (p := _type_problem(v, item, f"{where}[{k!r}]"))), "")
    if hint is float:
        ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
        return "" if ok else f"{where} is {value!r}, not a number"
    if hint is type(None):
        return "" if value is None else f"{where} is not null"
    if isinstance(hint, type):
        ok = isinstance(value, hint) and (hint is bool or not isinstance(value, bool))
        return "" if ok else f"{where} is {value!r}, not {hint.__name__}"
    return ""
