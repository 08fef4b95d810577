"""`grade --shard i/n` and `merge`: a class graded in slices and put back together gives the same grades."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from grader.cli import build_parser, main
from grader.batch.merge import MergeError, merge_shards
from grader.batch.shards import MANIFEST, Shard
from grader.results import read_results
from grader.submissions import Submission
from corpus import corpus

PROJECT = Path(__file__).resolve().parents[2]
CORPUS = corpus()
SETTINGS = PROJECT / "tests" / "data" / "grading-test.toml"
CLASS = ("perfect", "collects_opponent_first", "joker_below_king", "loser_card_first", "syntax_error",
         "single_file")
"""A small class of quick corpus submissions: full marks, three flawed ones, an ungradable one, a single file."""


@pytest.fixture(scope="module")
def graded_class(sandbox: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The class graded once whole (whole/) and once in 4 shards (shard-1..4/), then merged (merged/)."""
    base = tmp_path_factory.mktemp("shards")
    for name in CLASS:
        shutil.copytree(CORPUS / name, base / "class" / name)
    common = ["--config", str(SETTINGS), "--jobs", "2", "--json"]
    assert main(["grade", str(base / "class"), "--out", str(base / "whole"), "--junit", str(base / "whole.xml"),
                 *common]) == 0
    for index in range(1, 5):
        assert main(["grade", str(base / "class"), "--shard", f"{index}/4", "--out", str(base / f"shard-{index}"),
                     *common]) == 0
    shards = [str(base / f"shard-{index}") for index in (3, 1, 4, 2)]
    assert main(["merge", *shards, "--out", str(base / "merged"), "--junit", str(base / "merged.xml")]) == 0
    return base


def test_four_shards_merged_give_byte_for_byte_the_grades_of_one_run(graded_class):
    """grades.csv of the merged shards is the same bytes as grades.csv of one unsharded run."""
    whole = (graded_class / "whole" / "grades.csv").read_bytes()
    assert (graded_class / "merged" / "grades.csv").read_bytes() == whole
    assert whole.count(b"\n") == len(CLASS) + 1


def test_every_student_is_graded_by_exactly_one_shard(graded_class):
    """The shards' manifests split the class without overlap, and each shard graded only its own students."""
    graded = []
    for index in range(1, 5):
        folder = graded_class / f"shard-{index}"
        manifest = json.loads((folder / MANIFEST).read_text())
        assert (manifest["shard"], manifest["of"]) == (index, 4)
        assert sorted(path.parent.name for path in folder.glob("*/results.json")) == sorted(manifest["students"])
        graded += manifest["students"]
    assert sorted(graded) == sorted(CLASS)


def test_the_merged_folder_has_every_report_and_the_junit_file(graded_class):
    """merge writes index.html, each student's results.json and report.html, and the same JUnit suites as grade."""
    merged = graded_class / "merged"
    assert (merged / "index.html").is_file()
    for name in CLASS:
        assert read_results(merged / name / "results.json").student == name
        assert (merged / name / "report.html").is_file()
    suites = ET.parse(graded_class / "merged.xml").getroot().findall("testsuite")
    assert [suite.get("name") for suite in suites] == [line.split(",")[0] for line in
                                                        (merged / "grades.csv").read_text().splitlines()[1:]]
    whole = ET.parse(graded_class / "whole.xml").getroot().findall("testsuite")
    assert [(s.get("name"), s.get("tests"), s.get("failures"), s.get("errors")) for s in whole] == [
        (s.get("name"), s.get("tests"), s.get("failures"), s.get("errors")) for s in suites]


def test_a_shard_is_decided_by_the_student_name_alone():
    """Adding students never moves one already in the class to another shard; every name lands in one shard."""
    names = [f"student{n:03d}" for n in range(200)]
    shards = [Shard(index, 4) for index in range(1, 5)]
    owners = {name: [str(shard) for shard in shards if shard.holds(name)] for name in names}
    assert all(len(owner) == 1 for owner in owners.values())
    assert all(20 <= sum(owner == [str(shard)] for owner in owners.values()) for shard in shards)
    few = [Submission(name, Path(name)) for name in names[:10]]
    many = [Submission(name, Path(name)) for name in names]
    assert all(s in shards[0].select(many) for s in shards[0].select(few))


@pytest.mark.parametrize("text", ["0/4", "5/4", "2", "a/b", "1/0", "-1/3"])
def test_a_bad_shard_is_a_usage_error(text, capsys):
    """--shard must be i/n with 1 <= i <= n: exit status 2 and a line saying so."""
    with pytest.raises(SystemExit) as stopped:
        main(["grade", str(CORPUS / "perfect"), "--shard", text])
    assert stopped.value.code == 2 and "--shard" in capsys.readouterr().err


def fake_shard(folder: Path, index: int, count: int, everyone: list[str], students: list[str]) -> Path:
    """A shard output folder holding saved results (copies of a fixture) and its manifest."""
    fixture = PROJECT / "tests" / "data" / "results" / "perfect_score" / "results.json"
    for student in students:
        data = json.loads(fixture.read_text())
        data["extra_data"]["student"] = student
        (folder / student).mkdir(parents=True)
        (folder / student / "results.json").write_text(json.dumps(data))
    (folder / MANIFEST).write_text(json.dumps({"shard": index, "of": count, "class": everyone, "students": students}))
    return folder


def test_merge_puts_students_back_in_class_order(tmp_path):
    """Whatever order the shard folders come in, the results come back in the class's order."""
    everyone = ["c", "a", "b"]
    first = fake_shard(tmp_path / "1", 1, 2, everyone, ["a"])
    second = fake_shard(tmp_path / "2", 2, 2, everyone, ["c", "b"])
    assert [result.student for result in merge_shards([second, first])] == everyone


@pytest.mark.parametrize(("layout", "message"), [
    ([(1, 3, ["a"]), (2, 3, ["b"])], "shard 3/3 missing"),
    ([(1, 2, ["a"]), (1, 2, ["b"])], "are both shard 1/2"),
    ([(1, 2, ["a"]), (2, 3, ["b"])], "different class"),
])
def test_merge_refuses_shards_that_do_not_make_one_class(tmp_path, layout, message):
    """A missing shard, a shard given twice, or shards of different runs: one line, nothing merged."""
    folders = [fake_shard(tmp_path / str(n), index, count, ["a", "b"], students)
               for n, (index, count, students) in enumerate(layout)]
    with pytest.raises(MergeError, match=message):
        merge_shards(folders)


def test_merging_a_folder_that_is_no_shard_says_so(tmp_path, capsys):
    """An --out folder without shard.json is refused with exit status 2 and the reason."""
    (tmp_path / "plain").mkdir()
    assert main(["merge", str(tmp_path / "plain"), "--out", str(tmp_path / "merged")]) == 2
    assert "no shard.json" in capsys.readouterr().err


def test_a_shard_with_no_student_of_the_class_writes_an_empty_slice(tmp_path):
    """A slice the hash leaves empty grades nothing, exits 0 and still writes its manifest and a header-only csv."""
    empty = next(Shard(index, 2) for index in (1, 2) if not Shard(index, 2).holds("perfect"))
    out = tmp_path / "out"
    assert main(["grade", str(CORPUS / "perfect"), "--shard", str(empty), "--out", str(out), "--json"]) == 0
    assert (out / "grades.csv").read_text().count("\n") == 1
    assert json.loads((out / MANIFEST).read_text())["students"] == []


EXAMPLE = PROJECT / "docs" / "grade-class.yml"
"""The documented matrix workflow for an instructor's private grading repository."""


def example_commands(job: str) -> list[str]:
    """The war-grader lines of a job's run: steps in the example workflow."""
    from test_export_classroom import parse_yaml  # noqa: PLC0415 - the same small YAML reader

    workflow = parse_yaml(EXAMPLE.read_text(encoding="utf-8"))
    runs = [step["run"] for step in workflow["jobs"][job]["steps"] if "run" in step]
    return [line.strip() for run in runs for line in run.splitlines() if line.strip().startswith("war-grader ")]


def test_the_example_workflow_shards_as_many_slices_as_its_matrix_has():
    """Its matrix lists shards 1..N, SHARDS is N, and its grade and merge lines are valid war-grader commands."""
    from test_export_classroom import parse_yaml  # noqa: PLC0415

    workflow = parse_yaml(EXAMPLE.read_text(encoding="utf-8"))
    matrix = json.loads(workflow["jobs"]["grade"]["strategy"]["matrix"]["shard"])
    assert matrix == list(range(1, int(workflow["env"]["SHARDS"]) + 1))
    [grade_line] = example_commands("grade")
    [merge_line] = example_commands("merge")
    parser = build_parser()
    for shard in matrix:
        line = grade_line.replace("${{ matrix.shard }}", str(shard)).replace("$SHARDS", workflow["env"]["SHARDS"])
        args = parser.parse_args(shlex.split(line)[1:])
        assert (args.command, args.shard, args.out) == ("grade", Shard(shard, len(matrix)), Path(f"shard-{shard}"))
    assert parser.parse_args(shlex.split(merge_line)[1:]).command == "merge"
    assert "needs: grade" in EXAMPLE.read_text() or workflow["jobs"]["merge"]["needs"] == "grade"


def test_the_example_merge_step_run_verbatim_merges_downloaded_shards(graded_class, tmp_path):
    """Its merge line, run in a folder laid out as download-artifact leaves it, gives the unsharded grades.csv."""
    for index in range(1, 5):
        shutil.copytree(graded_class / f"shard-{index}", tmp_path / "shards" / f"shard-{index}")
    [merge_line] = example_commands("merge")
    bin_folder = Path(sys.executable).parent
    done = subprocess.run(["bash", "-e", "-c", merge_line], cwd=tmp_path, capture_output=True, text=True,
                          env={"PATH": f"{bin_folder}{os.pathsep}{os.environ['PATH']}"}, timeout=300)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "reports" / "grades.csv").read_bytes() == (graded_class / "whole" / "grades.csv").read_bytes()
    assert ET.parse(tmp_path / "reports" / "junit.xml").getroot().get("name") == "war-grader"
