"""Part E: a test that fingerprints the implementation (its code, its line numbers, its loader) gains nothing."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest

from grader.chaffs import write_reference
from grader.config import load_config
from grader.part_e.runner import flat_code, grade_student_tests, make_runtime
from grader.submissions import Submission, prepare

ROOT = Path(__file__).resolve().parents[2]
TEST_CONFIG = ROOT / "tests" / "data" / "grading-test.toml"

JOKER = '''
import sys
import pytest
import starter
from starter import Queue, play_round


def test_joker():
    q1, q2 = Queue(), Queue()
    q1.enqueue("Jo"); q2.enqueue("K")
    assert play_round(q1, q2) == "P1"
'''

FINGERPRINTS = '''

def test_code_objects_are_hidden():
    for reach in (lambda: play_round.__code__, lambda: Queue.dequeue.__code__,
                  lambda: __import__("inspect").getsource(play_round), lambda: __import__("dis").dis(play_round)):
        with pytest.raises(RuntimeError):
            reach()


def test_frames_of_the_implementation_are_hidden_and_its_lines_all_read_1():
    with pytest.raises(IndexError) as raised:
        Queue().dequeue()
    tb = raised.value.__traceback__
    while tb.tb_next is not None:
        tb = tb.tb_next
    assert tb.tb_lineno == 1
    with pytest.raises(RuntimeError):
        tb.tb_frame


def test_the_loader_holds_no_source():
    loader = starter.__loader__
    held = [value for value in vars(loader).values() if isinstance(value, (dict, list)) and value]
    assert held == []


def test_no_way_to_every_object():
    import gc
    for reach in (gc.get_objects, lambda: gc.get_referents(play_round), lambda: sys.settrace(None)):
        with pytest.raises(RuntimeError):
            reach()
'''

ATTACK = '''

def test_is_it_a_wheat():
    """Cheat: passes when the code looks like the reference's (here: fails whenever it can read any code)."""
    try:
        size = len(play_round.__code__.co_code)
    except RuntimeError:
        size = 0
    assert size == 0
'''


def part_e(tests: str):
    """Part E alone (bwrap or the strongest level) on the reference with these tests."""
    work = Path(tempfile.mkdtemp(prefix="war-grader-test-"))
    work.chmod(0o711)
    try:
        folder = work / "submission"
        write_reference(folder)
        (folder / "tests").mkdir()
        (folder / "tests" / "test_war.py").write_text(tests)
        (work / "work").mkdir(mode=0o711)
        copy = prepare(Submission(folder.name, folder), work / "work" / "copy")
        config = load_config(TEST_CONFIG)
        return grade_student_tests(root=copy.root, package=copy.package, tests=copy.tests, package_files=copy.files,
                                   runtime=make_runtime(work / "work" / "runtime"), config=config, slot=0)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def test_code_frames_loader_and_gc_are_out_of_reach_on_every_implementation(sandbox):
    """Each fingerprinting route fails the same way on every implementation: the tests are valid (they pass on
    every correct run) and catch nothing."""
    result = part_e(JOKER + FINGERPRINTS)
    verdicts = {test.id.partition("::")[2]: (test.valid, test.reason) for test in result.tests}
    assert all(valid for valid, _ in verdicts.values()), verdicts
    caught_by = {test for verdict in result.chaffs for test in verdict.caught_by}
    assert caught_by == {"tests/test_war.py::test_joker"}


def test_a_fingerprinting_test_scores_what_its_honest_twin_scores(sandbox):
    twin = part_e(JOKER)
    cheat = part_e(JOKER + ATTACK)
    assert [scenario.score for scenario in cheat.scenarios] == [scenario.score for scenario in twin.scenarios]


def test_the_implementations_code_has_every_line_number_1():
    code = flat_code("def f(x):\n    y = x + 1\n\n    raise ValueError(y)\n", "/submission/starter/game.py")
    lines = {line for inner in code.co_consts if hasattr(inner, "co_lines") for *_, line in inner.co_lines()}
    assert lines <= {1, None}


@pytest.mark.parametrize("source", ["x = 1\n", "class A:\n    def f(self):\n        return [i for i in range(3)]\n"])
def test_flattened_code_behaves_as_the_source(source):
    plain, flat = {}, {}
    exec(compile(source, "m.py", "exec"), plain)  # noqa: S102
    exec(flat_code(source, "m.py"), flat)  # noqa: S102
    assert plain.keys() == flat.keys()
    if "A" in flat:
        assert flat["A"]().f() == plain["A"]().f() == [0, 1, 2]


def test_each_implementation_is_compiled_once_and_served_at_any_folder_as_flat_code_compiles_it():
    """compiled() compiles each module once and only renames its file per folder (each submission's own at the uid
    level): the code a child loads is flat_code's for that path, every nested code object included."""
    import base64
    import marshal
    import os
    import types

    from grader.part_e.runner import compiled, implementations

    def same(loaded, expected, file):
        assert loaded == expected and loaded.co_filename == expected.co_filename == file
        assert loaded.co_firstlineno == expected.co_firstlineno
        nested = [(a, b) for a, b in zip(loaded.co_consts, expected.co_consts) if isinstance(a, types.CodeType)]
        assert len(nested) == sum(isinstance(b, types.CodeType) for b in expected.co_consts)
        for a, b in nested:
            same(a, b, file)

    for folder in ("/submission/starter", "/work/sub-00007/student-tests/mypkg"):
        for _, key, sources in implementations()[:3]:
            implementation = compiled(key, folder)
            assert dict(implementation.sources) == sources
            for name, text in sources.items():
                file = os.path.join(folder, name)
                same(marshal.loads(base64.b64decode(implementation.code[name])), flat_code(text, file), file)
