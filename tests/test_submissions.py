"""Finding submissions and making their private copies: only .py files, nothing that configures Python."""

from __future__ import annotations

import os
import zipfile
from pathlib import Path

import pytest

from grader.submissions import SubmissionError, UsageError, discover, prepare, submission_hash


def package(folder: Path, name: str = "starter", **extra: str) -> Path:
    """A minimal package in folder/name with the given extra files."""
    (folder / name).mkdir(parents=True)
    (folder / name / "__init__.py").write_text("X = 1\n")
    for file, text in extra.items():
        (folder / name / file).write_text(text)
    return folder


def test_a_class_folder_holds_one_submission_per_child(tmp_path):
    """Each child folder or zip of a class folder is one student, named by it"""
    package(tmp_path / "alice")
    package(tmp_path / "bob smith")
    (tmp_path / "carol").mkdir()
    (tmp_path / "carol" / "war.py").write_text("X = 1\n")
    with zipfile.ZipFile(tmp_path / "dave.zip", "w") as bundle:
        bundle.writestr("dave/starter/__init__.py", "X = 1\n")
    (tmp_path / "conftest.py").write_text("")
    (tmp_path / "notes.txt").write_text("")
    found = discover([tmp_path])
    assert [s.student for s in found] == ["alice", "bob_smith", "carol", "dave"]


def test_a_folder_with_a_package_is_one_submission(tmp_path):
    """A folder holding a package is graded as one student, not as a class"""
    package(tmp_path / "alice")
    assert [s.student for s in discover([tmp_path / "alice"])] == ["alice"]


def test_bad_paths_are_usage_errors(tmp_path):
    """A missing path, a stray file type or an empty folder is a usage error with one sentence"""
    (tmp_path / "empty").mkdir()
    (tmp_path / "notes.txt").write_text("")
    for path, message in ((tmp_path / "missing", "no such file"), (tmp_path / "notes.txt", "a submission is"),
                          (tmp_path / "empty", "holds no submission")):
        with pytest.raises(UsageError, match=message):
            discover([path])


def test_the_copy_keeps_python_files_and_drops_pytest_and_site_hooks(tmp_path):
    """conftest.py, sitecustomize.py, .pth, .ini and non-Python files never reach the copy"""
    source = package(tmp_path / "alice", **{"game.py": "Y = 2\n", "conftest.py": "", "sitecustomize.py": "",
                                             "evil.pth": "import os", "pytest.ini": "", "notes.md": ""})
    (source / "conftest.py").write_text("")
    copy = prepare(discover([source])[0], tmp_path / "work")
    assert copy.package == "starter"
    assert sorted(copy.files) == ["starter/__init__.py", "starter/game.py"]
    assert sorted(p.name for p in (copy.root / "starter").iterdir()) == ["__init__.py", "game.py"]


def test_symlinks_are_not_followed(tmp_path):
    """A symlink to a file outside the submission is not copied"""
    source = package(tmp_path / "alice")
    secret = tmp_path / "secret.py"
    secret.write_text("TOKEN = 'x'\n")
    os.symlink(secret, source / "starter" / "secret.py")
    copy = prepare(discover([source])[0], tmp_path / "work")
    assert copy.files == ("starter/__init__.py",)


def test_a_zip_is_extracted_through_its_wrapper_folder(tmp_path):
    """A zip whose files sit under a folder named after the student is found and copied"""
    archive = tmp_path / "erin.zip"
    with zipfile.ZipFile(archive, "w") as bundle:
        bundle.writestr("erin/war/__init__.py", "X = 1\n")
        bundle.writestr("erin/war/game.py", "Y = 1\n")
    copy = prepare(discover([archive])[0], tmp_path / "work")
    assert (copy.package, sorted(copy.files)) == ("war", ["war/__init__.py", "war/game.py"])


def test_a_zip_with_an_escaping_path_is_refused(tmp_path):
    """A zip entry with .. is refused before anything is written"""
    archive = tmp_path / "mallory.zip"
    with zipfile.ZipFile(archive, "w") as bundle:
        bundle.writestr("../../escaped.py", "X = 1\n")
    with pytest.raises(SubmissionError, match="unsafe path"):
        prepare(discover([archive])[0], tmp_path / "work")
    assert not (tmp_path / "escaped.py").exists()


def test_a_single_file_is_a_module(tmp_path):
    """A .py submission is imported as a module named after the file"""
    (tmp_path / "war-game.py").write_text("X = 1\n")
    copy = prepare(discover([tmp_path / "war-game.py"])[0], tmp_path / "work")
    assert (copy.package, copy.files) == ("war_game", ("war_game.py",))


def test_a_folder_without_a_package_is_ungradable(tmp_path):
    """A folder with two loose modules and no package is the student's problem, said in a sentence"""
    (tmp_path / "frank").mkdir()
    (tmp_path / "frank" / "a.py").write_text("")
    (tmp_path / "frank" / "b.py").write_text("")
    with pytest.raises(SubmissionError, match="no package found"):
        prepare(discover([tmp_path / "frank"])[0], tmp_path / "work")


def test_the_hash_depends_on_content_only(tmp_path):
    """The same files give the same sha256; a changed byte gives another"""
    first, second = package(tmp_path / "a"), package(tmp_path / "b")
    assert submission_hash(first) == submission_hash(second)
    (second / "starter" / "__init__.py").write_text("X = 2\n")
    assert submission_hash(first) != submission_hash(second)
