"""The typed records Part E sends into its sandbox, and the JSON lines in_sandbox.py reads from them."""

from __future__ import annotations

import json

from grader.part_e.protocol import OWN_PACKAGE, Implementation, RunCommand, stop_line

COMMAND = RunCommand(root="/submission", package="starter", files=("tests/test_war.py",), scratch_bytes=1 << 20,
                     namespaced=True, sweep=True, private_tmp=True, scratch="/tmp", test_timeout=10.0,
                     import_timeout=10.0)


def test_a_field_not_set_is_left_out_of_the_line():
    """The reference's first run has no deadlines yet, and says so by their absence, as the zygote expects"""
    line = json.loads(COMMAND.with_select(["tests/test_war.py::test_a"]).line())
    assert line["op"] == "run" and line["select"] == ["tests/test_war.py::test_a"]
    assert "deadlines" not in line and "coverage" not in line
    assert json.loads(COMMAND.line()).keys() == line.keys() - {"select"}


def test_every_field_set_reaches_the_line_as_plain_json():
    command = RunCommand(**{**COMMAND.__dict__, "coverage": True, "deadlines": {"tests/test_war.py::test_a": 0.5}})
    line = json.loads(command.with_select(("tests/test_war.py::test_a",)).line())
    assert line["coverage"] is True and line["deadlines"] == {"tests/test_war.py::test_a": 0.5}
    assert line["files"] == ["tests/test_war.py"] and line["scratch_bytes"] == 1 << 20


def test_an_implementation_line_carries_its_salt_and_the_own_package_none():
    implementation = Implementation({"cards.py": "X = 1\n"}, {"cards.py": "AAAA"}, "0d0d")
    one, two = (json.loads(implementation.line(salt)) for salt in (1, 2))
    assert (one["sources"], one["code"], one["magic"], one["salt"], two["salt"]) == \
        ({"cards.py": "X = 1\n"}, {"cards.py": "AAAA"}, "0d0d", 1, 2)
    assert json.loads(OWN_PACKAGE) is None
    assert json.loads(stop_line(("tests/test_war.py::test_a",))) == {"stop_on": ["tests/test_war.py::test_a"]}
