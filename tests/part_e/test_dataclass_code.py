"""Part E's zygote compiles the code dataclasses writes for the starter's classes once (run_sources.serve_dataclass_code):
a run's classes get the very methods they got before, only from code compiled already, and nothing in it is
anything but the starter's."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from grader.part_e import runner

PART_E = Path(runner.__file__).parent

CLASSES = """
from dataclasses import dataclass, fields


@dataclass(frozen=True)
class Rules:
    face_down: int = 3
    collect: str = "winner_first"


@dataclass(frozen=True)
class Elsewhere:
    size: int
"""

REPORT = """
import dataclasses, inspect, json
report = {}
for cls in (Rules, Elsewhere):
    report[cls.__name__] = {
        "signature": str(inspect.signature(cls)),
        "annotations": {name: repr(value) for name, value in cls.__init__.__annotations__.items()},
        "eq": cls(**{f.name: 1 for f in fields(cls)}) == cls(**{f.name: 1 for f in fields(cls)}),
        "frozen": cls.__dataclass_params__.frozen,
        "repr": repr(cls(**{f.name: 2 for f in fields(cls)})),
    }
served = getattr(dataclasses, "exec", None)
constants, work = [], list(served.__closure__[0].cell_contents.values()) if served else []
while work:  # every code object nested in the compiled texts
    code = work.pop()
    constants.append(code)
    work.extend(const for const in code.co_consts if isinstance(const, type(code)))
report["cached"] = {cls.__name__: cls.__init__.__code__ in constants for cls in (Rules, Elsewhere)}
report["kept"] = len(served.__closure__[0].cell_contents) if served else 0
print(json.dumps(report))
"""


def _classes_in_a_process(texts: list[str] | None, folder: Path) -> dict:
    """CLASSES declared in a fresh Python, after serve_dataclass_code(texts) when texts is not None, and what they are."""
    serve = ""
    if texts is not None:
        (folder / "texts.json").write_text(json.dumps(texts), encoding="utf-8")
        serve = (f"import sys; sys.path.insert(0, {str(PART_E)!r}); import run_sources; "
                 f"run_sources.serve_dataclass_code({str(folder / 'texts.json')!r})\n")
    script = serve + CLASSES + REPORT  # annotations evaluated: a __future__ flag leaked in would show as a name
    done = subprocess.run([sys.executable, "-I", "-c", script], capture_output=True, text=True, timeout=60,
                          check=True)
    return json.loads(done.stdout)


def test_the_texts_are_the_starters_classes_and_nothing_of_the_references() -> None:
    texts = runner.starter_dataclass_texts()
    assert texts, "the starter's dataclass code could not be recorded"
    joined = "\n".join(texts)
    assert "face_down" in joined and "winner" in joined  # Rules and GameResult
    assert "high_card" not in joined  # a field only the reference's Rules has
    for text in texts:
        compile(text, "<string>", "exec", dont_inherit=True)
    # the zygote reads them from the file make_runtime writes (the runtime cannot import runner.py)
    assert f'"{runner.DATACLASS_TEXTS}"' in (PART_E / "in_sandbox.py").read_text(encoding="utf-8")


def test_a_class_gets_the_same_methods_from_the_compiled_code(tmp_path: Path) -> None:
    (tmp_path / "declared.py").write_text(CLASSES.replace("class Elsewhere", "class NotRecorded"), encoding="utf-8")
    recorded = runner.dataclass_texts(tmp_path, "declared")
    rules_only = [text for text in recorded if "NotRecorded" not in text and "size" not in text]
    assert rules_only and len(rules_only) < len(recorded)
    plain = _classes_in_a_process(None, tmp_path)
    served = _classes_in_a_process(rules_only, tmp_path)
    assert served["cached"] == {"Rules": True, "Elsewhere": False}  # Rules from the zygote's code, the other compiled
    assert plain["cached"] == {"Rules": False, "Elsewhere": False}
    for name in ("Rules", "Elsewhere"):
        assert served[name] == plain[name]  # types, not strings, in the annotations: no __future__ flag leaked in
    assert plain["Rules"]["annotations"]["face_down"] == "<class 'int'>"
    assert served["kept"] == len(rules_only)  # a text not recorded is compiled for the run and not kept


def test_no_texts_no_change(tmp_path: Path) -> None:
    (tmp_path / "texts.json").write_text("not json", encoding="utf-8")
    script = (f"import sys, dataclasses; sys.path.insert(0, {str(PART_E)!r}); import run_sources; "
              f"run_sources.serve_dataclass_code({str(tmp_path / 'texts.json')!r}); "
              f"run_sources.serve_dataclass_code({str(tmp_path / 'missing.json')!r}); "
              "print(hasattr(dataclasses, 'exec'))")
    done = subprocess.run([sys.executable, "-I", "-c", script], capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout.strip() == "False"
