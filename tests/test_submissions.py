"""Finding submissions and making their private copies: only .py files, nothing that configures Python."""

from __future__ import annotations

import os
import shutil
import struct
import tracemalloc
import zipfile
from pathlib import Path

import pytest

from grader.submissions import (
    OUTPUT_MARKER,
    Submission,
    SubmissionError,
    UsageError,
    ZipLimits,
    discover,
    find_submissions,
    prepare,
    submission_hash,
)


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
    """A student's folder with two loose modules and no package is its problem, said in a sentence (on its
    own, such a folder is a class of two single-file students)"""
    (tmp_path / "cls" / "frank").mkdir(parents=True)
    (tmp_path / "cls" / "frank" / "a.py").write_text("")
    (tmp_path / "cls" / "frank" / "b.py").write_text("")
    with pytest.raises(SubmissionError, match="no package found"):
        prepare(discover([tmp_path / "cls"])[0], tmp_path / "work")


def test_the_hash_depends_on_content_only(tmp_path):
    """The same files give the same sha256; a changed byte gives another"""
    first, second = package(tmp_path / "a"), package(tmp_path / "b")
    assert submission_hash(first) == submission_hash(second)
    (second / "starter" / "__init__.py").write_text("X = 2\n")
    assert submission_hash(first) != submission_hash(second)


# ----------------------------------------------------------------------------- issue 11 and class shapes


def damaged_zip(path: Path, method: int) -> Path:
    """A zip whose compressed data is corrupt while its directory is intact."""
    with zipfile.ZipFile(path, "w", compression=method) as bundle:
        bundle.writestr("starter/__init__.py", "X = 1\n" * 2000)
    data = bytearray(path.read_bytes())
    start = data.index(b"starter/__init__.py") + len("starter/__init__.py")
    for offset in range(start + 20, start + 60):  # inside the compressed stream, before the directory
        data[offset] ^= 0xFF
    path.write_bytes(bytes(data))
    return path


@pytest.mark.parametrize("method", [zipfile.ZIP_DEFLATED, zipfile.ZIP_LZMA, zipfile.ZIP_BZIP2])
def test_a_zip_with_damaged_compressed_data_is_ungradable_not_a_crash(tmp_path, method):
    """Defect 1: corrupt deflate or LZMA data is the student's SubmissionError, not zlib.error"""
    archive = damaged_zip(tmp_path / "zed.zip", method)
    with pytest.raises(SubmissionError, match="the zip cannot be read"):
        prepare(discover([archive])[0], tmp_path / "work")


def test_a_file_name_that_is_not_utf8_is_hashed_and_not_copied(tmp_path):
    """Defect 2: a non-UTF-8 name hashes without error and the copy keeps only importable files"""
    source = package(tmp_path / "alice")
    for name in (b"caf\xe9.py", b"notes-\xff.txt"):
        (source / "starter" / os.fsdecode(name)).write_text("Y = 1\n")
    digest = submission_hash(source)
    assert len(digest) == 64
    (source / "starter" / os.fsdecode(b"notes-\xff.txt")).write_text("changed\n")
    assert submission_hash(source) != digest  # the odd file still counts in the hash
    copy = prepare(discover([source])[0], tmp_path / "work")
    assert copy.files == ("starter/__init__.py",)


def test_hashing_a_huge_data_file_reads_it_in_blocks(tmp_path):
    """Defect 26: hashing a large non-.py file costs a few MiB of memory, not its size"""
    source = package(tmp_path / "alice")
    with (source / "data.bin").open("wb") as handle:
        handle.truncate(256 * 2**20)  # sparse: 256 MiB of zeros, cheap on disk
    tracemalloc.start()
    try:
        submission_hash(source)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 8 * 2**20


@pytest.mark.parametrize("stray", ["bare_package", "loose_module"])
def test_a_stray_package_or_module_among_student_folders_is_one_more_student(tmp_path, stray):
    """Defect 3: one bare package folder or loose .py among student folders does not swallow the class"""
    package(tmp_path / "alice")
    package(tmp_path / "bob")
    if stray == "bare_package":
        package(tmp_path, "carol")
    else:
        (tmp_path / "carol.py").write_text("X = 1\n")
    assert [s.student for s in discover([tmp_path])] == ["alice", "bob", "carol"]


def test_a_folder_of_bare_packages_is_a_class(tmp_path):
    """Issue 8 item 10: a folder whose children are package folders is a class, one student per child"""
    for name in ("alice", "bob", "carol"):
        package(tmp_path, name, **{"game.py": "Y = 1\n"})
    found = discover([tmp_path])
    assert [s.student for s in found] == ["alice", "bob", "carol"]
    assert prepare(found[1], tmp_path / "work").package == "starter"


def classroom_repo(folder: Path) -> Path:
    """A clone of the GitHub Classroom template: .git, the workflow, tests, the package, a loose test file."""
    (folder / ".git").mkdir(parents=True)
    (folder / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (folder / ".github" / "workflows").mkdir(parents=True)
    (folder / ".github" / "workflows" / "classroom.yml").write_text("name: Autograding\n")
    (folder / "tests").mkdir()
    (folder / "tests" / "__init__.py").write_text("")
    (folder / "tests" / "test_contract.py").write_text("def test_x():\n    pass\n")
    (folder / "test_mine.py").write_text("def test_y():\n    pass\n")
    (folder / "README.md").write_text("# War\n")
    return package(folder, **{"game.py": "Y = 1\n"})


def test_cloned_classroom_repositories_are_a_class_named_by_folder(tmp_path):
    """Issue 10 item 3: a folder of template clones is a class; each student is its repository's folder"""
    for name in ("war-alice", "war-bob"):
        classroom_repo(tmp_path / name)
    found = discover([tmp_path])
    assert [s.student for s in found] == ["war-alice", "war-bob"]
    copy = prepare(found[0], tmp_path / "work")
    assert (copy.package, sorted(copy.files)) == ("starter", ["starter/__init__.py", "starter/game.py"])


def test_one_cloned_repository_is_one_submission(tmp_path):
    """A single clone of the template (tests/, test_*.py, .github beside the package) is one student"""
    repo = classroom_repo(tmp_path / "war-alice")
    assert [s.student for s in discover([repo])] == ["war-alice"]


def test_a_package_with_a_driver_script_is_still_one_submission(tmp_path):
    """A folder with its package and a main.py beside it is one student, not a class of two"""
    source = package(tmp_path / "alice")
    (source / "main.py").write_text("import starter\n")
    assert [s.student for s in discover([source])] == ["alice"]


def test_linked_and_underscore_students_are_graded_and_odd_entries_are_reported(tmp_path):
    """Defects 6, 22: a symlinked or _-named student is found; a FIFO named .zip or a text file is one line"""
    elsewhere = package(tmp_path / "elsewhere" / "linked")
    klass = tmp_path / "class"
    package(klass / "alice")
    package(klass / "_bob")
    os.symlink(elsewhere, klass / "dave")
    os.mkfifo(klass / "eve.zip")
    (klass / "notes.txt").write_text("")
    (klass / ".DS_Store").write_text("")
    found = find_submissions([klass])
    assert [s.student for s in found.submissions] == ["_bob", "alice", "dave"]
    assert sorted(line.split(":")[0] for line in found.skipped) == [str(klass / "eve.zip"), str(klass / "notes.txt")]
    assert prepare(found.submissions[2], tmp_path / "work").files == ("starter/__init__.py",)


def test_a_fifo_given_as_a_submission_is_a_usage_error_and_never_opened(tmp_path):
    """Defect 22: a FIFO named x.zip on the command line is one sentence, and prepare refuses it too"""
    os.mkfifo(tmp_path / "x.zip")
    with pytest.raises(UsageError, match="not a regular file or folder"):
        discover([tmp_path / "x.zip"])
    with pytest.raises(SubmissionError, match="not a regular file or folder"):
        prepare(Submission("x", tmp_path / "x.zip"), tmp_path / "work")
    assert len(submission_hash(tmp_path / "x.zip")) == 64


def test_the_output_folder_inside_the_class_is_not_a_student(tmp_path):
    """Defect 21: --out inside the class folder (or any folder holding the grader's lock) is skipped, saying so"""
    package(tmp_path / "alice")
    package(tmp_path / "bob")
    (tmp_path / "reports").mkdir()
    (tmp_path / "old-reports").mkdir()
    (tmp_path / "old-reports" / OUTPUT_MARKER).write_text("")
    (tmp_path / "older").mkdir()
    for name in ("grades.csv", "index.html"):
        (tmp_path / "older" / name).write_text("")
    found = find_submissions([tmp_path], exclude=(tmp_path / "reports",))
    assert [s.student for s in found.submissions] == ["alice", "bob"]
    assert len(found.skipped) == 3 and all("war-grader output folder" in line for line in found.skipped)


def test_students_named_like_output_files_or_differing_in_case_get_distinct_names(tmp_path):
    """Defect 9: students called grades.csv or index.html, or Alice beside alice, never share an output path"""
    for name in ("grades.csv", "index.html", "Alice", "alice"):
        package(tmp_path / name)
    names = [s.student for s in discover([tmp_path])]
    assert names == ["Alice", "alice-2", "grades.csv-2", "index.html-2"]


def test_windows_backslash_paths_in_a_zip_are_folders(tmp_path):
    """Defect 13: starter\\cards.py in a zip made on Windows is the file cards.py in the package starter"""
    archive = tmp_path / "win.zip"
    with zipfile.ZipFile(archive, "w") as bundle:
        bundle.writestr("win\\starter\\__init__.py", "X = 1\n")
        bundle.writestr("win\\starter\\cards.py", "Y = 1\n")
    copy = prepare(discover([archive])[0], tmp_path / "work")
    assert (copy.package, sorted(copy.files)) == ("starter", ["starter/__init__.py", "starter/cards.py"])


def test_a_folder_named_like_a_module_inside_the_package_is_ignored(tmp_path):
    """Defect 14: a folder called x.py inside the package is not a file to copy, and not a reason to refuse"""
    source = package(tmp_path / "alice", **{"game.py": "Y = 1\n"})
    (source / "starter" / "x.py").mkdir()
    copy = prepare(discover([source])[0], tmp_path / "work")
    assert sorted(copy.files) == ["starter/__init__.py", "starter/game.py"]


def test_an_unreadable_class_folder_is_a_usage_error(tmp_path, monkeypatch):
    """A class folder that cannot be listed is one sentence naming it, not a traceback"""
    package(tmp_path / "alice")
    package(tmp_path / "bob")

    def denied(self):
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "iterdir", denied)
    with pytest.raises(UsageError, match=f"{tmp_path}: cannot read it \\(Permission denied\\)"):
        discover([tmp_path])


def test_clones_of_the_exported_classroom_template_are_a_class(tmp_path):
    """Issue 10 item 3 with the real template: `export classroom`, cloned twice, is two students named by folder"""
    from grader.export.classroom import export_classroom

    export_classroom(tmp_path / "template")
    for name in ("war-alice", "war-bob"):
        shutil.copytree(tmp_path / "template", tmp_path / "class" / name)
        (tmp_path / "class" / name / ".git").mkdir()
    found = find_submissions([tmp_path / "class"])
    assert ([s.student for s in found.submissions], found.skipped) == (["war-alice", "war-bob"], [])
    assert [s.student for s in discover([tmp_path / "class" / "war-bob"])] == ["war-bob"]
    assert prepare(found.submissions[1], tmp_path / "work").package == "starter"


def test_a_class_folder_of_single_file_students_is_a_class(tmp_path):
    """Issue 20 item 2: cls/ann.py and cls/ben.py are two students, each graded as its own module"""
    (tmp_path / "cls").mkdir()
    for name in ("ann", "ben"):
        (tmp_path / "cls" / f"{name}.py").write_text("X = 1\n")
    found = discover([tmp_path / "cls"])
    assert [s.student for s in found] == ["ann", "ben"]
    copy = prepare(found[1], tmp_path / "work")
    assert (copy.package, copy.files) == ("ben", ("ben.py",))


def test_one_module_or_one_package_with_modules_is_still_one_submission(tmp_path):
    """A single war.py, or a package beside helper modules, stays one student named by the folder"""
    (tmp_path / "solo").mkdir()
    (tmp_path / "solo" / "war.py").write_text("X = 1\n")
    package(tmp_path / "repo")
    (tmp_path / "repo" / "main.py").write_text("X = 1\n")
    (tmp_path / "repo" / "helper.py").write_text("X = 1\n")
    assert [s.student for s in discover([tmp_path / "solo"])] == ["solo"]
    assert [s.student for s in discover([tmp_path / "repo"])] == ["repo"]


def test_a_symlink_loop_in_a_class_folder_is_skipped_in_one_line(tmp_path):
    """Issue 20 item 3: loop -> loop beside a student is named as skipped; the student is still found"""
    package(tmp_path / "ann")
    (tmp_path / "loop").symlink_to("loop")
    found = find_submissions([tmp_path])
    assert [s.student for s in found.submissions] == ["ann"]
    assert found.skipped == [f"{tmp_path / 'loop'}: a broken link or a symlink loop, not a student"]


def test_255_character_names_differing_by_case_stay_within_255_characters(tmp_path):
    """Issue 20 item 4: the second of two 255-character names gets -2 in place of its last two characters"""
    long = "a" * 254
    package(tmp_path / f"{long}x")
    package(tmp_path / f"{long}X")
    names = [s.student for s in discover([tmp_path])]
    assert names == [f"{long}X", "a" * 253 + "-2"]
    for name in names:
        (tmp_path / "out" / name).mkdir(parents=True)  # each can name a folder of --out


def _bytes_read() -> int:
    """Bytes this process has read through read() calls so far (Linux's /proc/self/io rchar)."""
    for line in Path("/proc/self/io").read_text().splitlines():
        if line.startswith("rchar:"):
            return int(line.split()[1])
    raise AssertionError("no rchar in /proc/self/io")


@pytest.mark.skipif(not Path("/proc/self/io").is_file(), reason="needs Linux's /proc/self/io")
def test_a_3_gib_file_beside_a_package_is_hashed_by_size_not_read(tmp_path):
    """Issue 20 item 8: a file the grader never copies counts by name and size; its bytes are not read"""
    source = package(tmp_path / "alice")
    data = source / "data.bin"
    try:
        with data.open("wb") as handle:
            handle.truncate(3 * 2**30)  # sparse: no disk blocks
        before = _bytes_read()
        digest = submission_hash(source)
        assert _bytes_read() - before < 16 * 2**20
        with data.open("r+b") as handle:  # same size, other bytes: the grade cannot change, nor the hash
            handle.seek(2**30)
            handle.write(b"x")
        assert submission_hash(source) == digest
        with data.open("r+b") as handle:  # another size: the hash says the submission changed
            handle.truncate(3 * 2**30 + 1)
        assert submission_hash(source) != digest
    finally:
        data.unlink(missing_ok=True)


def test_a_py_file_is_hashed_by_content_and_a_too_large_one_by_size(tmp_path):
    """A same-size edit of a copied .py file changes the hash; a .py over the copy limit counts by size"""
    source = package(tmp_path / "alice")
    digest = submission_hash(source)
    (source / "starter" / "__init__.py").write_text("X = 2\n")  # same size as "X = 1\n"
    assert submission_hash(source) != digest
    big = source / "starter" / "big.py"
    big.write_bytes(b"#" * (2 * 2**20))
    digest = submission_hash(source)
    big.write_bytes(b"x" * (2 * 2**20))
    assert submission_hash(source) == digest


def gradescope_export(folder: Path) -> Path:
    """Gradescope's export unzipped: submission_metadata.yml beside one folder per submission."""
    folder.mkdir(parents=True)
    (folder / "submission_metadata.yml").write_text("submission_1001:\n  :submitters:\n  - :name: Ann Lee\n")
    package(folder / "submission_1001")
    (folder / "submission_1002").mkdir()
    (folder / "submission_1002" / "war.py").write_text("X = 1\n")
    return folder


def canvas_download(folder: Path) -> Path:
    """Canvas's bulk download: zips and a loose .py, named by Canvas."""
    folder.mkdir(parents=True)
    for name in ("smithjohn_1_2_war", "doejane_3_4_war", "leeann_5_6_war"):
        with zipfile.ZipFile(folder / f"{name}.zip", "w") as bundle:
            bundle.writestr("starter/__init__.py", "X = 1\n")
    (folder / "kimbo_7_8_war.py").write_text("X = 1\n")
    return folder


@pytest.mark.parametrize("layout", ["gradescope_one_level_down", "three_lms_folders"])
def test_a_folder_of_submissions_one_level_down_is_named_in_one_line_not_graded_as_one(tmp_path, layout):
    """Issue 28 item 3: a class folder whose child is itself a folder of submissions (Gradescope's export inside a
    folder; canvas/, gradescope/ and clones/ side by side) stops with one line naming that folder, instead of
    grading it as one student"""
    klass = tmp_path / "class"
    if layout == "gradescope_one_level_down":
        gradescope_export(klass / "assignment_77_export")
        named = klass / "assignment_77_export"
    else:
        canvas_download(klass / "canvas")
        gradescope_export(klass / "gradescope")
        for name in ("war-alice", "war-bob"):
            classroom_repo(klass / "clones" / name)
        named = klass / "canvas"
    with pytest.raises(UsageError) as raised:
        discover([klass])
    message = str(raised.value)
    assert "\n" not in message and message.startswith(f"{named}: a folder of ") and "submissions" in message
    assert f"war-grader grade {named}" in message


def test_each_lms_folder_on_its_own_is_a_class(tmp_path):
    """The same folders given themselves are classes: Gradescope's submissions, Canvas's files, the clones"""
    assert [s.student for s in discover([gradescope_export(tmp_path / "gs")])] == ["Ann_Lee", "submission_1002"]
    assert len(discover([canvas_download(tmp_path / "canvas")])) == 4


def zip_of_empties(path: Path, count: int) -> Path:
    """A zip of count empty stored members (e/0 ... e/count-1), written byte by byte: zipfile takes a minute for
    300,000 of them. Its end record says 65535 members when there are more, as zipfile reads only the sizes."""
    local, central = [], []
    offset = 0
    for index in range(count):
        name = f"e/{index}".encode()
        header = struct.pack("<IHHHHHIIIHH", 0x04034B50, 20, 0, 0, 0, 33, 0, 0, 0, len(name), 0) + name
        central.append(struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 20, 20, 0, 0, 0, 33, 0, 0, 0, len(name), 0, 0,
                                   0, 0, 0, offset) + name)
        local.append(header)
        offset += len(header)
    directory = b"".join(central)
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, min(count, 0xFFFF), min(count, 0xFFFF), len(directory),
                      offset, 0)
    path.write_bytes(b"".join(local) + directory + end)
    return path


def test_a_zip_of_300000_empty_members_is_refused_before_anything_is_extracted(tmp_path):
    """A 30 MiB zip of 300,000 empty members is the student's SubmissionError, counted before zipfile reads its
    directory and before any member is written (extracting it whole took 24 to 42 s that no budget counted)"""
    archive = zip_of_empties(tmp_path / "zip_of_empties.zip", 300_000)
    with zipfile.ZipFile(zip_of_empties(tmp_path / "few.zip", 3)) as bundle:
        assert [member.filename for member in bundle.infolist()] == ["e/0", "e/1", "e/2"]  # the builder's zips read
    with pytest.raises(SubmissionError, match="the zip holds more than 10000 files and folders"):
        prepare(discover([archive])[0], tmp_path / "work")
    assert not (tmp_path / "work" / "unzipped").exists()


def test_a_zips_members_and_declared_sizes_are_bounded_by_the_settings(tmp_path):
    """zip_members and zip_mb: one member over either limit is refused, with a sentence; at the limit it is graded"""
    archive = tmp_path / "erin.zip"
    with zipfile.ZipFile(archive, "w") as bundle:
        bundle.writestr("starter/__init__.py", "X = 1\n")
        bundle.writestr("starter/data.txt", "x" * (2**20 - 6))
    assert prepare(discover([archive])[0], tmp_path / "a", ZipLimits(members=2, bytes=2**20)).package == "starter"
    with pytest.raises(SubmissionError, match="the zip holds more than 1 files and folders"):
        prepare(discover([archive])[0], tmp_path / "b", ZipLimits(members=1, bytes=2**20))
    with zipfile.ZipFile(archive, "a") as bundle:
        bundle.writestr("starter/more.txt", "x")
    with pytest.raises(SubmissionError, match="the zip's files hold more than 1 MiB uncompressed"):
        prepare(discover([archive])[0], tmp_path / "c", ZipLimits(members=3, bytes=2**20))
    assert not (tmp_path / "b" / "unzipped").exists() and not (tmp_path / "c" / "unzipped").exists()
