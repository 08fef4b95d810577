"""`war-grader similarity`: disguised copies found above every honest pair, the starter and the class's common code
discounted, the reference and a past class compared one way, the same bytes on every run, and the page the
instructor's alone. The class is built by tests/similarity_class.py from hand-written honest solutions."""

from __future__ import annotations

import html.parser
import itertools
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import similarity_class
from grader.batch import parse_deadline, render
from grader.cli import SimilarityProgress, main
from grader.similarity import compare_class, findings_json, run, similarity_run
from grader.similarity.compare import scores
from grader.similarity.fingerprints import fingerprint, tokens

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def findings(tmp_path_factory):
    """The class and a past class, compared once into OUT: (report, origins, OUT, the class, the past class)."""
    root = tmp_path_factory.mktemp("similarity")
    origins = similarity_class.build_class(root / "class")
    similarity_class.build_past(root / "past")
    report = similarity_run(paths=[root / "class"], out=root / "out", past=(root / "past",))
    return report, origins, root / "out", root / "class", root / "past"


def all_scores(report) -> dict[tuple[str, str], float]:
    """Every pair's score, those below the listed floor included (similarity.json lists only the others)."""
    return {(a, b): score for score, a, b in scores([report.code[name].own for name in report.students])}


def test_every_disguised_copy_scores_above_every_honest_pair(findings):
    """Renamed names, reordered functions, changed comments, loops rewritten, dead code added and one function
    copied alone each score above every pair whose code came from different honest work"""
    report, origins, *_ = findings
    scores = all_scores(report)
    copies = {tuple(sorted(pair)): scores.get(tuple(sorted(pair)), 0.0)
              for pair in similarity_class.DISGUISED.items()}
    honest = {(a, b): scores.get((a, b), 0.0) for a, b in itertools.combinations(report.students, 2)
              if not origins[a] & origins[b]}
    assert len(copies) == 6 and len(honest) > 40
    weakest = min(copies.items(), key=lambda item: item[1])
    closest = max(honest.items(), key=lambda item: item[1])
    assert weakest[1] > closest[1], (weakest, closest)
    listed = [(match.a, match.b) for match in report.pairs]
    assert set(copies) <= set(listed[:len(copies) + 2])  # the reference-like pair also heads the list


def test_untouched_starters_are_not_compared_and_pair_with_no_one(findings):
    """A starter handed in as received holds nothing of its own: listed as not compared, in no pair"""
    report, *_ = findings
    reasons = {item.student: item.reason for item in report.not_compared}
    for student in ("starter_ulla", "starter_viktor"):
        assert reasons[student] == "nothing of its own: only the starter's code"
        assert student not in report.students
        assert all(student not in (match.a, match.b) for match in report.pairs + report.reference + report.past)


def test_the_reference_like_submissions_head_the_reference_list(findings):
    """The lightly disguised reference is found as the reference's, ahead of every honest student"""
    report, *_ = findings
    ranked = [match.a for match in report.reference]
    assert set(ranked[:2]) == {"reference_renamed", "reference_recommented"}
    assert report.reference[1].score > 2 * report.reference[2].score


def test_a_copy_from_a_past_class_is_found_one_way(findings):
    """The student who disguised a past student's work heads the past list, matched to that student; past students
    are compared with this class only, never with one another or as the copier"""
    report, *_ = findings
    assert (report.past[0].a, report.past[0].b) == ("from_past_gwen", "past/gwen")
    assert report.past[0].score > 2 * report.past[1].score
    assert all(match.b.startswith("past/") and not match.a.startswith("past/") for match in report.past)
    assert all("/" not in match.a + match.b for match in report.pairs)


def test_two_runs_give_identical_bytes(findings, tmp_path):
    """The same class gives byte-identical similarity.json (and page) on every run"""
    report, _, out, klass, past = findings
    again = similarity_run(paths=[klass], out=tmp_path / "again", past=(past,))
    assert (tmp_path / "again" / "similarity.json").read_bytes() == (out / "similarity.json").read_bytes()
    assert (tmp_path / "again" / "similarity.html").read_bytes() == (out / "similarity.html").read_bytes()
    assert findings_json(again) == findings_json(report)
    data = json.loads((out / "similarity.json").read_text(encoding="utf-8"))
    assert [pair["score"] for pair in data["pairs"]] == sorted((pair["score"] for pair in data["pairs"]), reverse=True)
    assert str(klass) not in (out / "similarity.json").read_text(encoding="utf-8")  # no path of this machine


def test_the_json_is_the_same_whatever_the_interpreters_hash_seed(findings, tmp_path):
    """Two interpreters with different string hash seeds (as two machines have) write the same bytes"""
    _, _, out, klass, past = findings
    code = ("import sys; from pathlib import Path; from grader.similarity import similarity_run; "
            "similarity_run(paths=[Path(sys.argv[1])], out=Path(sys.argv[2]), past=(Path(sys.argv[3]),))")
    for seed in ("1", "2"):
        completed = subprocess.run([sys.executable, "-c", code, str(klass), str(tmp_path / seed), str(past)],
                                   cwd=ROOT, env={**os.environ, "PYTHONHASHSEED": seed}, capture_output=True,
                                   text=True, timeout=120)
        assert completed.returncode == 0, completed.stderr
        assert (tmp_path / seed / "similarity.json").read_bytes() == (out / "similarity.json").read_bytes()


def test_a_past_class_of_zips_is_read_as_grade_reads_it(findings, tmp_path):
    """A past class in another layout (each student a .zip) finds the same copy"""
    report, _, _, klass, past = findings
    (tmp_path / "zipped").mkdir()
    for student in past.iterdir():
        shutil.make_archive(str(tmp_path / "zipped" / student.name), "zip", student)
    again = compare_class(paths=[klass], past=(tmp_path / "zipped",))
    assert (again.past[0].a, again.past[0].b, again.past[0].score) == ("from_past_gwen", "zipped/gwen",
                                                                         report.past[0].score)


def test_the_progress_bar_is_drawn_only_on_a_terminal(monkeypatch, capsys):
    """On a terminal (not CI) a bar with the count; in a pipe nothing"""
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    bar = SimilarityProgress()
    bar(1, 2, "ann")
    bar(2, 2, "ben")
    assert "] 2/2 read ben" in capsys.readouterr().err
    monkeypatch.setattr(sys.stderr, "isatty", lambda: False)
    SimilarityProgress()(1, 2, "ann")
    assert capsys.readouterr().err == ""


def test_the_json_names_the_matched_spans(findings):
    """Each pair names its matched lines in both students' files, and those lines are the copied code"""
    report, _, out, klass, _ = findings
    data = json.loads((out / "similarity.json").read_text(encoding="utf-8"))
    pair = next(pair for pair in data["pairs"] if {pair["a"], pair["b"]} == {"amara", "renamed_amara"})
    assert 0 < pair["score"] <= 1 and pair["shared"] > 0
    span = max(pair["spans"], key=lambda span: span["a"]["lines"][1] - span["a"]["lines"][0])
    a_lines = (klass / pair["a"]).glob(f"**/{Path(span['a']['file']).name}")
    first, last = span["a"]["lines"]
    assert last > first and "def " in "".join(next(a_lines).read_text().splitlines(True)[first - 1:last])


def test_unreadable_and_empty_submissions_are_listed_with_their_reason(findings):
    """A zip that is not one and a package with no code are not compared, each with why"""
    report, *_ = findings
    reasons = {item.student: item.reason for item in report.not_compared}
    assert reasons["broken_zip"].startswith("unreadable: the zip cannot be read")
    assert reasons["empty_package"] == "empty: no Python code in its package"


def test_part_e_tests_and_public_test_files_are_left_out(tmp_path):
    """Two students with the same tests of their own (and the public test file) but their own code do not pair"""
    tests = (ROOT / "tests" / "contract" / "test_structures.py").read_text(encoding="utf-8")
    for name in ("amara", "chiara"):
        similarity_class.write_student(tmp_path / "class" / name, similarity_class.HONEST[name])
        (tmp_path / "class" / name / "tests").mkdir()
        (tmp_path / "class" / name / "tests" / "test_mine.py").write_text(tests, encoding="utf-8")
        (tmp_path / "class" / name / "starter" / "test_more.py").write_text(tests, encoding="utf-8")
    report = compare_class(paths=[tmp_path / "class"])
    assert report.students == ["amara", "chiara"]
    assert report.pairs == [] or report.pairs[0].score < 0.1
    assert not any("test" in span.a.file for match in report.pairs for span in match.spans)


def test_a_class_of_one_compares_no_pair_and_says_so(tmp_path):
    """One student: no pair, a note saying so, the reference still compared"""
    similarity_class.write_student(tmp_path / "class" / "solo", similarity_class.HONEST["amara"])
    report = compare_class(paths=[tmp_path / "class"])
    assert report.students == ["solo"] and report.pairs == []
    assert any(note.startswith("a class of one: no pair to compare") for note in report.notes)


def test_renaming_and_comments_leave_the_tokens_alone():
    """Names, literals, comments and docstrings are normalised away; the code's shape is not"""
    source = similarity_class.HONEST["chiara"]["game.py"]
    disguised = similarity_class.recommented(similarity_class.renamed({"game.py": source}, {"war1": "pile_x",
                                                                                               "top1": "t"}))
    assert [t.text for t in tokens(source)] == [t.text for t in tokens(disguised["game.py"])]
    assert fingerprint({"a.py": source}) and [t.text for t in tokens("x = 1\n")] != [t.text for t in tokens("x += 1\n")]


def test_a_broken_file_gives_its_tokens_up_to_the_break():
    """A file that stops tokenizing (an unterminated string, a NUL byte) still counts up to there"""
    assert [t.text for t in tokens("def f(a):\n    return a\n'''never closed")][:3] == ["def", "N", "("]
    assert [t.text for t in tokens("x = 1\n\0 y\n")][:3] == ["N", "=", "0"]


class Tags(html.parser.HTMLParser):
    """The tags of a page and its text."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)

    def handle_data(self, data):
        self.text.append(data)


def test_the_page_shows_the_pairs_side_by_side_with_student_text_escaped(findings, tmp_path):
    """similarity.html shows the closest pairs with their matched lines marked; a student's markup stays text"""
    _, _, out, *_ = findings
    page = (out / "similarity.html").read_text(encoding="utf-8")
    assert 'class="matched"' in page and "renamed_amara" in page
    assert "never a verdict" in page and "instructor only" in page
    hostile = dict(similarity_class.HONEST["amara"])
    markup = '    label = "</pre><script>alert(1)</script>"\n'
    hostile["game.py"] = hostile["game.py"].replace('    a = p1.dequeue()\n', '    a = p1.dequeue()\n' + markup)
    assert hostile["game.py"] != similarity_class.HONEST["amara"]["game.py"]
    similarity_class.write_student(tmp_path / "class" / "mallory", hostile)
    similarity_class.write_student(tmp_path / "class" / "trent", similarity_class.renamed(hostile, {"a": "x"}))
    similarity_run(paths=[tmp_path / "class"], out=tmp_path / "out")
    parsed = Tags()
    parsed.feed((tmp_path / "out" / "similarity.html").read_text(encoding="utf-8"))
    assert "script" not in parsed.tags
    assert 'label = "</pre><script>alert(1)</script>"' in "".join(parsed.text)


def test_the_instructor_view_links_the_page_and_the_student_view_never_does(tmp_path):
    """The instructor view of the class index links OUT/similarity.html; the students' index and reports do not"""
    out = tmp_path / "out"
    shutil.copytree(ROOT / "tests" / "data" / "results" / "perfect_score", out / "perfect_score")
    (out / "similarity.html").write_text("<p>findings</p>", encoding="utf-8")
    render(out, "student")
    render(out, "instructor")
    assert 'href="./../similarity.html"' in (out / "instructor" / "index.html").read_text(encoding="utf-8")
    for page in (out / "index.html", out / "perfect_score" / "report.html", out / "instructor" / "perfect_score" /
                 "report.html"):
        assert "similarity" not in page.read_text(encoding="utf-8"), page


def test_the_command_line_writes_both_files_and_says_what_it_found(findings, tmp_path, capsys):
    """similarity CLASS --out DIR --past PAST: both files written, the closest pair named, status 0"""
    _, _, _, klass, past = findings
    assert main(["similarity", str(klass), "--out", str(tmp_path / "out"), "--past", str(past)]) == 0
    printed = capsys.readouterr()
    assert (tmp_path / "out" / "similarity.json").is_file() and (tmp_path / "out" / "similarity.html").is_file()
    assert "closest to a past class: from_past_gwen" in printed.out
    assert "not compared: broken_zip: unreadable" in printed.out
    assert printed.err == ""  # no bar off a terminal


def test_a_bad_class_path_is_one_line_and_status_2(findings, tmp_path, capsys):
    """A class that does not exist, or the class given again as a past class: one line on stderr, status 2"""
    assert main(["similarity", str(tmp_path / "nowhere"), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no such file or folder" in err and "Traceback" not in err
    klass = findings[3]
    assert main(["similarity", str(klass), "--out", str(tmp_path / "out"), "--past", f"{klass}/"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "that is the class being compared" in err
    assert not (tmp_path / "out").exists()


def test_a_submission_is_read_only_up_to_its_byte_cap(tmp_path, monkeypatch):
    """A hostile submission's megabytes cost no more than MAX_BYTES: its files are read in path order up to there"""
    monkeypatch.setattr(run, "MAX_BYTES", 2000)
    package = tmp_path / "class" / "big" / "war"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("\n", encoding="utf-8")
    for name in ("game.py", "structures.py"):
        (package / name).write_text(similarity_class.HONEST["amara"][name], encoding="utf-8")
    similarity_class.write_student(tmp_path / "class" / "other", similarity_class.HONEST["chiara"])
    report = compare_class(paths=[tmp_path / "class"])
    files = report.code["big"].files
    assert sum(len(text.encode()) for text in files.values()) == 2000
    assert list(files) == ["war/__init__.py", "war/game.py"]


def test_at_and_latest_read_each_clone_at_the_commit_grade_would_grade(tmp_path):
    """ann's clone held her own work at the deadline and ben's copied after it: --at pairs them low, --latest high"""
    from test_submission_times import AFTER, BEFORE, DEADLINE, commit, git

    for name in ("ann", "ben"):
        folder = tmp_path / "class" / name
        folder.mkdir(parents=True)
        git(folder, "init", "-q", "-b", "main")
        similarity_class.write_student(folder, similarity_class.HONEST["amara" if name == "ann" else "chiara"])
        commit(folder, "my own work", BEFORE)
    shutil.rmtree(tmp_path / "class" / "ann" / "starter")
    similarity_class.write_student(tmp_path / "class" / "ann", similarity_class.HONEST["chiara"])
    commit(tmp_path / "class" / "ann", "copied", AFTER)
    at = compare_class(paths=[tmp_path / "class"], at=parse_deadline(DEADLINE))
    latest = compare_class(paths=[tmp_path / "class"], latest=True)
    assert at.students == latest.students == ["ann", "ben"]
    assert (at.pairs[0].score if at.pairs else 0.0) < 0.2 and latest.pairs[0].score == 1.0
