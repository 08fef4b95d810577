"""The public contract is sound: it passes on the reference, fails only with NotImplementedError on the
starter, and the starter offers exactly the reference's public API with the given parts untouched (its Rules
being the reference's restricted to the two rules students implement).

The contract itself runs in a subprocess through pytester (`pytest tests/contract --impl X`), and its
outcomes are read from the junit XML report, keyed by test id.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import importlib.util
import inspect
import re
import shutil
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import pytest

from grader.chaffs import chaff, chaff_sources, write_package
from tests.contract.test_assignment_examples import parse_examples

ROOT = Path(__file__).resolve().parents[1]
CONTRACT = ROOT / "tests" / "contract"
MODULES = ("structures", "cards", "rules", "game")
"""The contract modules, besides the package's __init__."""

CONTRACT_FILES = {"__init__.py", *(f"{name}.py" for name in MODULES)}
"""Every Python module of the starter: no __main__.py, no instructor-only module."""

STARTER_TESTS = {"test_war.py"}
"""The starter's Part E skeleton: the students' own tests, not a module of the package."""

CONTRACT_DUNDERS = {"__init__", "__len__"}
"""Special methods that are part of the contract (on top of every public name)."""

REFERENCE_ONLY_DUNDERS = {
    # Debugging conveniences of the reference. Not in the contract: students choose the storage, and
    # the tests read a queue only through dequeue/is_empty, so they need neither.
    "__iter__": "iterating a queue or stack without removing anything",
    "__repr__": "showing a queue or stack's items",
}
"""Special methods the reference defines that the starter leaves out on purpose, with why."""

GIVEN_NAMES = {"cards": {"RANKS", "JOKER"}, "game": {"GameResult"}, "structures": {"T"}}
"""Names given complete in the starter, besides rules.py (checked against the reference on its own)."""

STUDENT_RULES = ("face_down", "collect")
"""The fields of the starter's Rules: the rule decisions the assignment asks students to implement."""

STUDENT_COLLECT_ORDERS = ("winner_first", "loser_first")
"""The values of Rules.collect the assignment asks for; the reference's other orders are the instructor's."""

CODE_MODULES = ("structures", "cards", "game")
"""The contract modules students write code in (rules.py is given)."""


@dataclass(frozen=True)
class Outcome:
    """How one contract test ended, from the junit report."""

    result: str
    """"passed", "failure", "error" or "skipped"."""
    message: str
    """The failure's or error's message ("" when it passed)."""
    text: str
    """The failure's or error's full report."""


_runs: dict[tuple[str, ...], tuple[int, str, dict[str, Outcome]]] = {}


def run_contract(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, *options: str
) -> tuple[int, str, dict[str, Outcome]]:
    """Run tests/contract in a subprocess with these options: exit code, output, outcome per test id."""
    if options not in _runs:
        # As if run from the repository root (`python -m pytest` puts it first on sys.path): the checkout's
        # own packages win over whatever an older editable install recorded for them.
        monkeypatch.setenv("PYTHONPATH", str(ROOT))
        report = pytester.path / f"contract-{len(_runs)}.xml"
        result = pytester.runpytest_subprocess(
            str(CONTRACT), *options, f"--junitxml={report}", "-p", "no:cacheprovider", timeout=120
        )
        output = "\n".join(result.outlines + result.errlines)
        outcomes: dict[str, Outcome] = {}
        if report.is_file():
            for case in ElementTree.parse(report).iter("testcase"):
                test_id = f"{case.get('classname')}::{case.get('name')}"
                outcome = Outcome("passed", "", "")
                for child in case:
                    if child.tag in ("failure", "error", "skipped"):
                        outcome = Outcome(child.tag, child.get("message", ""), child.text or "")
                        break
                assert test_id not in outcomes, f"two tests share the id {test_id}"
                outcomes[test_id] = outcome
        _runs[options] = (result.ret, output, outcomes)
    return _runs[options]


def test_every_contract_test_passes_on_the_reference_by_default(pytester, monkeypatch):
    """Without --impl the contract runs against the reference, and every test passes."""
    code, output, outcomes = run_contract(pytester, monkeypatch)
    assert "war contract: --impl reference (package reference)" in output
    assert len(outcomes) >= 50, output
    failed = {test_id: outcome.message for test_id, outcome in outcomes.items() if outcome.result != "passed"}
    assert not failed
    assert code == 0, output


def test_every_contract_test_fails_on_the_starter_with_not_implemented_error(pytester, monkeypatch):
    """--impl starter: the same tests all fail, each with NotImplementedError raised inside the starter."""
    _, _, on_reference = run_contract(pytester, monkeypatch)
    code, output, outcomes = run_contract(pytester, monkeypatch, "--impl", "starter")
    assert "war contract: --impl starter (package starter)" in output
    assert set(outcomes) == set(on_reference)
    wrong = {
        test_id: f"{outcome.result}: {outcome.message}"
        for test_id, outcome in outcomes.items()
        if outcome.result != "failure"
        or not outcome.message.startswith("NotImplementedError: ")
        or not re.search(r"starter/\w+\.py:\d+: NotImplementedError\s*$", outcome.text)
    }
    assert not wrong
    assert code == 1, output


def test_a_copy_is_found_by_its_folder_or_the_folder_holding_it(pytester, monkeypatch, tmp_path):
    """--impl takes a copy's package folder or the folder holding it, whatever the package is called."""
    package = tmp_path / "student" / "my_war"
    shutil.copytree(ROOT / "reference", package, ignore=shutil.ignore_patterns("__pycache__", "__main__.py"))
    _, _, on_reference = run_contract(pytester, monkeypatch)
    for value in (str(package.parent), str(package)):
        code, output, outcomes = run_contract(pytester, monkeypatch, "--impl", value)
        assert f"war contract: --impl {value} (folder {package.resolve()})" in output
        assert set(outcomes) == set(on_reference)
        assert all(outcome.result == "passed" for outcome in outcomes.values()), output
        assert code == 0, output


def test_an_impl_that_is_neither_a_package_nor_a_folder_is_a_usage_error(pytester, monkeypatch, tmp_path):
    """--impl naming nothing stops pytest at once with a one-line usage error (exit code 4)."""
    missing = tmp_path / "no_such_copy"
    code, output, outcomes = run_contract(pytester, monkeypatch, "--impl", str(missing))
    assert code == 4
    assert f"--impl {missing}: no such folder" in output
    assert outcomes == {}


# --- the starter's API against the reference's ---------------------------------------------------------


def package(name: str) -> ModuleType:
    """The package `reference` or `starter` of this checkout."""
    imported = importlib.import_module(name)
    assert getattr(imported, "__file__", None) == str(ROOT / name / "__init__.py"), (
        f"`import {name}` does not give {ROOT / name}: run from the repository root (python -m pytest), "
        "or reinstall (pip install -e .) if the editable install predates the package"
    )
    return imported


def module(package_name: str, name: str) -> ModuleType:
    """One contract module of a package."""
    package(package_name)
    return importlib.import_module(f"{package_name}.{name}")


def source_tree(package_name: str, name: str) -> ast.Module:
    """The parsed source of one contract module."""
    return ast.parse((ROOT / package_name / f"{name}.py").read_text(encoding="utf-8"))


def defined_names(tree: ast.Module) -> dict[str, ast.AST]:
    """The top-level names a module's source defines (functions, classes, assignments), with their nodes."""
    names: dict[str, ast.AST] = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names[node.name] = node
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    names[target.id] = node
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names[node.target.id] = node
    return names


def public(names) -> set[str]:
    """The names that are part of the contract: not starting with "_"."""
    return {name for name in names if not name.startswith("_")}


def methods(node: ast.ClassDef) -> set[str]:
    """The methods a class's source defines."""
    return {item.name for item in node.body if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))}


def contract_methods(node: ast.ClassDef) -> set[str]:
    """The methods of a class that are part of the contract: public ones plus __init__ and __len__."""
    return {name for name in methods(node) if not name.startswith("_") or name in CONTRACT_DUNDERS}


class _Shown:
    """A default value shown by a fixed text in a signature."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


def signature(obj: object) -> str:
    """inspect.signature as text, a Rules default shown by the students' fields only (the reference's has more)."""
    shown = inspect.signature(obj)
    parameters = []
    for parameter in shown.parameters.values():
        if type(parameter.default).__name__ == "Rules":
            fields = ", ".join(f"{name}={getattr(parameter.default, name)!r}" for name in STUDENT_RULES)
            parameter = parameter.replace(default=_Shown(f"Rules({fields})"))
        parameters.append(parameter)
    return str(shown.replace(parameters=parameters))


def test_the_starter_exports_the_references_all():
    """starter/__init__.py's __all__ is the reference's, and every name in it exists."""
    reference, starter = package("reference"), package("starter")
    assert list(starter.__all__) == list(reference.__all__)
    assert all(hasattr(starter, name) for name in starter.__all__)


@pytest.mark.parametrize("name", CODE_MODULES)
def test_each_contract_module_defines_the_same_public_names(name):
    """Every contract module of the starter defines exactly the reference's public top-level names."""
    assert public(defined_names(source_tree("starter", name))) == public(defined_names(source_tree("reference", name)))


@pytest.mark.parametrize("name", CODE_MODULES)
def test_public_functions_and_classes_have_the_same_signatures_and_docstrings(name):
    """Every public function, class and contract method: same inspect.signature and same docstring."""
    reference, starter = module("reference", name), module("starter", name)
    for item_name, node in defined_names(source_tree("reference", name)).items():
        if item_name.startswith("_") or not isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            continue
        ours, theirs = getattr(reference, item_name), getattr(starter, item_name)
        assert signature(theirs) == signature(ours), item_name
        assert theirs.__doc__ == ours.__doc__, item_name
        if isinstance(node, ast.ClassDef):
            starter_node = defined_names(source_tree("starter", name))[item_name]
            assert contract_methods(starter_node) == contract_methods(node), item_name
            for method in contract_methods(node):
                label = f"{item_name}.{method}"
                ours_method, theirs_method = getattr(ours, method), getattr(theirs, method)
                assert signature(theirs_method) == signature(ours_method), label
                assert theirs_method.__doc__ == ours_method.__doc__, label


@pytest.mark.parametrize("name", MODULES)
def test_the_reference_has_no_special_method_the_starter_lacks_unless_excluded(name):
    """A special method of the reference is in the starter too, or listed in REFERENCE_ONLY_DUNDERS."""
    starter_names = defined_names(source_tree("starter", name))
    for class_name, node in defined_names(source_tree("reference", name)).items():
        if not isinstance(node, ast.ClassDef) or class_name.startswith("_"):
            continue
        dunders = {method for method in methods(node) if method.startswith("__") and method.endswith("__")}
        missing = dunders - methods(starter_names[class_name]) - set(REFERENCE_ONLY_DUNDERS)
        assert not missing, f"{class_name}: add {sorted(missing)} to the starter or to REFERENCE_ONLY_DUNDERS"


def field_docstrings(tree: ast.Module, class_name: str) -> dict[str, str]:
    """The docstrings written under the fields of a class in a module's source (name: docstring)."""
    (node,) = [item for item in tree.body if isinstance(item, ast.ClassDef) and item.name == class_name]
    docs: dict[str, str] = {}
    for item, after in zip(node.body, node.body[1:]):
        if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
            if isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant):
                docs[item.target.id] = after.value.value
    return docs


def test_the_starters_rules_module_offers_only_rules_and_default_rules():
    """starter/rules.py defines Rules and DEFAULT_RULES, both also in the reference: no variant, no preset."""
    starter_names = public(defined_names(source_tree("starter", "rules")))
    assert starter_names == {"Rules", "DEFAULT_RULES"}
    assert starter_names <= public(defined_names(source_tree("reference", "rules")))


def test_the_starters_rules_are_the_references_restricted_to_the_students_fields():
    """The starter's Rules has face_down and collect, typed, defaulted and documented as in the reference."""
    reference, starter = module("reference", "rules"), module("starter", "rules")
    theirs = {field.name: field for field in dataclasses.fields(starter.Rules)}
    ours = {field.name: field for field in dataclasses.fields(reference.Rules)}
    assert tuple(theirs) == STUDENT_RULES
    for name in STUDENT_RULES:
        assert (theirs[name].type, theirs[name].default) == (ours[name].type, ours[name].default), name
    assert starter.Rules.__dataclass_params__.frozen
    assert starter.Rules.__doc__ == reference.Rules.__doc__
    assert starter.DEFAULT_RULES == starter.Rules()
    assert {name: getattr(starter.DEFAULT_RULES, name) for name in STUDENT_RULES} == {
        name: getattr(reference.DEFAULT_RULES, name) for name in STUDENT_RULES
    }
    starter_docs = field_docstrings(source_tree("starter", "rules"), "Rules")
    reference_docs = field_docstrings(source_tree("reference", "rules"), "Rules")
    assert starter_docs["face_down"] == reference_docs["face_down"]
    assert all(f'"{value}"' in starter_docs["collect"] for value in STUDENT_COLLECT_ORDERS)


@pytest.mark.parametrize(
    ("field", "value"),
    [("face_down", value) for value in (0, 1, 2, 3, 7, -1, True, 2.0, "3", None)]
    + [("collect", value) for value in ("winner_first", "loser_first", "winner first", "", None)],
    ids=repr,
)
def test_the_starters_rules_accept_and_refuse_the_values_the_reference_does(field, value):
    """For the students' two fields, Rules(...) accepts what the reference's does, else a ValueError naming both."""
    outcomes = []
    for package_name in ("reference", "starter"):
        try:
            made = module(package_name, "rules").Rules(**{field: value})
        except ValueError as error:
            assert field in str(error) and repr(value) in str(error), package_name
            outcomes.append("refused")
        else:
            outcomes.append(("made", getattr(made, field)))
    assert outcomes[0] == outcomes[1]


def test_the_starters_rules_refuse_the_instructors_collect_orders():
    """A collect value beyond winner_first and loser_first (the reference's experiments) is a ValueError."""
    reference, starter = module("reference", "rules"), module("starter", "rules")
    others = [order for order in reference.COLLECT_ORDERS if order not in STUDENT_COLLECT_ORDERS]
    assert others, "the reference has no other collect order: simplify this test"
    for order in others:
        with pytest.raises(ValueError, match="collect"):
            starter.Rules(collect=order)


def test_the_handout_describes_every_field_of_the_starters_rules():
    """ASSIGNMENT.md gives each field of the starter's Rules with its type and default, and no other field."""
    handout = (ROOT / "starter" / "ASSIGNMENT.md").read_text(encoding="utf-8")
    section = handout.split("### `rules.py` (given)", 1)[1].split("\n### ", 1)[0]
    for field in dataclasses.fields(module("starter", "rules").Rules):
        assert f"`{field.name}: {field.type} = {field.default!r}`".replace("'", '"') in section, field.name
    for field in dataclasses.fields(module("reference", "rules").Rules):
        if field.name not in STUDENT_RULES:
            assert f"`{field.name}" not in section and f"Rules({field.name}=" not in handout, field.name


@pytest.mark.parametrize(("name", "given"), sorted(GIVEN_NAMES.items()))
def test_the_given_parts_are_the_references_own_source(name, given):
    """RANKS, JOKER, T and GameResult are in the starter exactly as the reference writes them."""
    reference, starter = defined_names(source_tree("reference", name)), defined_names(source_tree("starter", name))
    for item in given:
        assert ast.dump(starter[item]) == ast.dump(reference[item]), item


def raised_message(body: list[ast.stmt]) -> str | None:
    """The message of a body that is exactly [docstring,] raise NotImplementedError("..."), else None."""
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    if len(body) != 1 or not isinstance(body[0], ast.Raise) or not isinstance(body[0].exc, ast.Call):
        return None
    call = body[0].exc
    if not (isinstance(call.func, ast.Name) and call.func.id == "NotImplementedError" and len(call.args) == 1):
        return None
    try:
        message = ast.literal_eval(call.args[0])
    except ValueError:
        return None
    return message if isinstance(message, str) else None


@pytest.mark.parametrize("name", CODE_MODULES)
def test_every_starter_body_raises_not_implemented_error_naming_its_function(name):
    """Each public function and contract method of the starter only raises NotImplementedError("Name: ...")."""
    for item_name, node in defined_names(source_tree("starter", name)).items():
        if item_name in GIVEN_NAMES.get(name, set()):
            continue
        if isinstance(node, ast.FunctionDef):
            functions = {item_name: node}
        elif isinstance(node, ast.ClassDef):
            functions = {f"{item_name}.{item.name}": item for item in node.body if isinstance(item, ast.FunctionDef)}
        else:
            continue
        for label, function in functions.items():
            message = raised_message(function.body)
            assert message is not None, f"{label} does more than raise NotImplementedError"
            assert message.startswith(f"{label}: ") and len(message) > len(label) + 10, label


def test_the_starter_holds_only_the_contract_modules_and_no_private_helper():
    """starter/ has the five contract modules (no __main__.py, no instructor-only module) and no _helpers."""
    assert {path.name for path in (ROOT / "starter").glob("*.py")} == CONTRACT_FILES | STARTER_TESTS
    for name in ("structures", "cards", "game"):
        for item_name, node in defined_names(source_tree("starter", name)).items():
            assert not item_name.startswith("_"), f"starter/{name}.py defines {item_name}"
            if isinstance(node, ast.ClassDef):
                assert all(not m.startswith("_") or m.startswith("__") for m in methods(node)), item_name


def test_the_handout_is_beside_the_starter_with_a_forced_war_example():
    """starter/ASSIGNMENT.md exists and holds worked examples, at least one of them a war."""
    handout = (ROOT / "starter" / "ASSIGNMENT.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```war-example\n(.*?)^```", handout, re.MULTILINE | re.DOTALL)
    assert any(re.search(r"^resolve_war:", block, re.MULTILINE) for block in blocks)


@pytest.mark.parametrize(
    "path",
    sorted(CONTRACT.glob("test_*.py")) + [ROOT / "tests" / "test_contract_harness.py",
                                          ROOT / "tests" / "reference" / "test_game_properties.py"],
    ids=lambda path: path.name,
)
def test_every_test_has_a_one_line_docstring(path):
    """Each test function names the behaviour it pins down in a one-line docstring."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
            doc = ast.get_docstring(node)
            assert doc and "\n" not in doc, f"{path.name}::{node.name}"


def test_a_failing_copy_sees_whole_queues_and_examples_named_by_their_heading(pytester, monkeypatch, tmp_path):
    """On a copy whose war winner takes the opponent's pile first, failures show both queues in full, uncut."""
    folder = write_package(chaff_sources(chaff("opponent_pile_first")), tmp_path)
    code, output, outcomes = run_contract(pytester, monkeypatch, "--impl", str(folder))
    assert code == 1
    assert "yours:    9 Q 8 6 5 7 K 4 3 2 7\nE         expected: 9 K 4 3 2 7 Q 8 6 5 7" in output
    assert "yours:    J Q 3 2 1 9 J 10 1 7 K 8 6 5 9 4 3  2 7" in output  # 19 cards, still whole
    assert "Use -v" not in output and "truncated" not in output and "-vv" not in output
    failed_examples = {test_id.split("[", 1)[1].rstrip("]") for test_id, outcome in outcomes.items()
                       if "worked_example" in test_id and outcome.result == "failure"}
    assert failed_examples == {"A forced war, step by step", "A war that ties again", "Two cards down instead of three"}
    assert 'P1\'s queue after the example "A forced war, step by step" (ASSIGNMENT.md, line ' in output


def test_every_worked_example_is_named_by_its_heading_in_the_handout():
    """The worked-example tests' ids are the headings above the examples in ASSIGNMENT.md, each once."""
    handout = (ROOT / "starter" / "ASSIGNMENT.md").read_text(encoding="utf-8")
    names = [example["heading"] for example in parse_examples(handout)]
    assert len(names) == len(set(names)) >= 5
    for name in names:
        assert f"\n### {name}\n" in handout


def _contract_conftest() -> ModuleType:
    """tests/contract/conftest.py loaded as a plain module, to call its explanations directly."""
    spec = importlib.util.spec_from_file_location("contract_conftest", CONTRACT / "conftest.py")
    assert spec and spec.loader
    loaded = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(loaded)
    return loaded


@pytest.mark.parametrize(
    ("left", "right", "lines"),
    [
        (["9", "Q", "8"], ["9", "K", "8"], ["9 Q 8 == 9 K 8",
                                            "position 2 differs (front first, counted from 1): yours Q, expected K",
                                            "yours:    9 Q 8", "expected: 9 K 8", "            ^"]),
        ([], ["K", "10"], ["(empty) == K 10", "yours has 0 items, expected 2", "yours:    (empty)",
                           "expected: K 10", "          ^"]),
        (["10", "J"], ["10"], ["10 J == 10", "yours has 2 items, expected 1: the first 1 agree", "yours:    10 J",
                               "expected: 10", "             ^"]),
        ([5, "3"], ["5", "3"], ["5 '3' == '5' '3'", "position 1 differs (front first, counted from 1): "
                                "yours 5, expected '5'", "yours:    5   '3'", "expected: '5' '3'", "          ^"]),
    ],
    ids=["a-card-differs", "empty", "one-too-many", "int-beside-str"],
)
def test_a_failed_queue_comparison_is_explained_whole_with_the_first_difference_marked(left, right, lines):
    """The contract's explanation of two different queues: both in full, aligned, a caret under the first difference."""
    assert _contract_conftest().pytest_assertrepr_compare("==", left, right) == lines


def test_a_failed_field_comparison_names_each_differing_field():
    """Two dicts of GameResult fields: one line per field that differs, the others left out."""
    explained = _contract_conftest().pytest_assertrepr_compare(
        "==", {"winner": "P1", "rounds": 3, "wars": 0}, {"winner": "P1", "rounds": 3, "wars": 1}
    )
    assert explained == ["yours == expected, key by key:", "wars: yours 0, expected 1"]
