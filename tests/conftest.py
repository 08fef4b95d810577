"""Project-wide pytest setup: the --impl option that picks the implementation the contract tests run against.

    pytest tests/contract                         # the instructor's reference (the default)
    pytest tests/contract --impl starter          # the starter: every test fails with NotImplementedError
    pytest tests/contract --impl path/to/copy     # a student's copy: the package folder, or a folder holding it

A value that names an importable package ("reference", "starter") is imported by name; anything else is a
path, imported under a unique module name so it never clashes with `reference` or `starter`.
pytest_addoption only works in conftests pytest reads at startup, which is why this lives here and not in
tests/contract/.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import importlib.util
import os
import re
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType

import pytest

pytest_plugins = ["pytester"]

TEST_FOLDERS = sorted(str(folder) for folder in Path(__file__).resolve().parent.iterdir()
                      if folder.is_dir() and any(folder.glob("test_*.py")) and not (folder / "__init__.py").exists())
"""The folders of tests laid out like the packages (tests/sandbox for grader/sandbox, tests/reference for
reference/, ...): on sys.path beside tests/ itself, as pytest puts a test file's folder there when it imports it,
so a test module imports a helper of another by name (`from test_export_gradescope import unpack`) whichever
was collected first."""
sys.path[1:1] = [folder for folder in TEST_FOLDERS if folder not in sys.path]  # after tests/, which pytest put first

CONTRACT_DIR = Path(__file__).resolve().parent / "contract"
"""The public contract tests; only they use the `impl` fixture and get the short time limit."""

CONTRACT_FILES: tuple[str, ...] = ("__init__.py", "structures.py", "cards.py", "rules.py", "game.py")
"""The files a folder must hold to count as an implementation of the contract."""

CONTRACT_TIMEOUT = 10
"""Seconds one contract test may take: the reference needs milliseconds, a loop that never ends gets cut off."""

SLOW_FIXTURES: frozenset[str] = frozenset({"sandbox", "fresh_venv"})
"""The fixtures that make a test slow: the real sandbox, and fresh Python environments to run programs in. A test
that asks for one, directly or through a fixture of its own (its fixture closure), is marked `slow`;
`pytest -m "not slow"` leaves those tests out, CI runs them."""

_IMPL_KEY = pytest.StashKey["str | Path"]()


def pytest_addoption(parser: pytest.Parser) -> None:
    """Add --impl: which implementation the contract tests in tests/contract run against."""
    parser.addoption(
        "--impl",
        default="reference",
        metavar="NAME_OR_PATH",
        help='implementation for tests/contract: "reference" (default), "starter", or the path of a copy '
        "(its package folder, or a folder holding exactly one such package)",
    )


def pytest_configure(config: pytest.Config) -> None:
    """Check --impl at startup, so a wrong name or path is a one-line usage error, not an error per test."""
    config.stash[_IMPL_KEY] = resolve_impl(config.getoption("impl"), config.rootpath)


def pytest_report_header(config: pytest.Config) -> str:
    """Say which implementation the contract tests use, so every run's output shows it."""
    target = config.stash[_IMPL_KEY]
    where = f"package {target}" if isinstance(target, str) else f"folder {target}"
    return f"war contract: --impl {config.getoption('impl')} ({where})"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Give every contract test a short time limit, unless it sets its own; mark slow each test that uses a
    fixture of SLOW_FIXTURES (as pytest's own testing/conftest.py marks the tests that use pytester)."""
    for item in items:
        if SLOW_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)
        if CONTRACT_DIR in item.path.parents and item.get_closest_marker("timeout") is None:
            item.add_marker(pytest.mark.timeout(CONTRACT_TIMEOUT))
        if "graded_corpus" in getattr(item, "fixturenames", ()) and item.get_closest_marker("timeout") is None:
            item.add_marker(pytest.mark.timeout(CORPUS_TIMEOUT))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Iterator[None]:
    """Set a fast test up (its fixtures too) with the sandbox refused: see _sandbox_refused."""
    with _sandbox_refused(item):
        return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    """Run a fast test with the sandbox refused: see _sandbox_refused."""
    with _sandbox_refused(item):
        return (yield)


@contextlib.contextmanager
def _sandbox_refused(item: pytest.Item) -> Iterator[None]:
    """For a test not marked slow, starting the real sandbox in this process fails the test, saying to ask for the
    `sandbox` fixture, even where the grader turned the refusal into a grader fault: the fast tier stays free of
    the sandbox by construction. Refused: building the command of a sandboxed worker or of Part E's zygote, and
    starting the suite server, whose forked runs start the workers that grade. A slow test runs untouched; a
    `war-grader` run in a child process is not seen here."""
    if item.get_closest_marker("slow") is not None:
        yield
        return
    from grader.grading.runner import SuiteServer  # noqa: PLC0415 - the grader is imported once tests run
    from grader.part_e import runner  # noqa: PLC0415
    from grader.sandbox import channel  # noqa: PLC0415

    message = (f"{item.nodeid} starts the real sandbox: ask for the `sandbox` fixture (tests/conftest.py), which "
               "marks the test slow")
    refused: list[str] = []

    def refuse(*_args: object, **_kwargs: object) -> list[str]:
        refused.append(message)
        pytest.fail(message, pytrace=False)

    saved = channel.worker_command, runner.worker_command, SuiteServer.start
    channel.worker_command = runner.worker_command = SuiteServer.start = refuse  # type: ignore[method-assign]
    try:
        yield
    finally:
        channel.worker_command, runner.worker_command, SuiteServer.start = saved  # type: ignore[method-assign]
    if refused:
        pytest.fail(message, pytrace=False)


def resolve_impl(value: str, base: Path) -> str | Path:
    """What --impl names: an importable package name as is, else the package folder (relative paths from the
    current folder, then from base)."""
    if re.fullmatch(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*", value) and _importable(value):
        return value
    path = Path(value).expanduser()
    if not path.is_absolute():
        path = (Path.cwd() / path) if (Path.cwd() / path).exists() else (base / path)
    return _find_package(path)


def load_impl(target: str | Path) -> ModuleType:
    """Import what resolve_impl found: by name, or from its folder under a unique module name."""
    if isinstance(target, str):
        return importlib.import_module(target)
    return _import_package(target)


def _importable(name: str) -> bool:
    """True when `name` imports as a regular package or module (a namespace package has no __init__.py, so
    it cannot be an implementation: an out-of-date editable install can map a name to one)."""
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return False
    return spec is not None and spec.origin not in (None, "namespace")


def _find_package(path: Path) -> Path:
    """The package folder at path: path itself, or the one folder inside it that holds the contract files."""
    if not path.is_dir():
        raise pytest.UsageError(f"--impl {path}: no such folder, and not an importable package name")
    if (path / "__init__.py").is_file():
        return path.resolve()
    found = [
        child
        for child in sorted(path.iterdir())
        if child.is_dir() and all((child / name).is_file() for name in CONTRACT_FILES)
    ]
    if len(found) != 1:
        what = "no folder" if not found else f"{len(found)} folders ({', '.join(f.name for f in found)})"
        raise pytest.UsageError(
            f"--impl {path}: expected one package folder holding {', '.join(CONTRACT_FILES)}, found {what}"
        )
    return found[0].resolve()


def _import_package(package: Path) -> ModuleType:
    """Import the package folder under a name of its own, so relative imports work and nothing clashes."""
    digest = hashlib.sha1(str(package).encode()).hexdigest()[:10]
    name = f"war_impl_{re.sub(r'[^0-9A-Za-z_]', '_', package.name)}_{digest}"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(
        name, package / "__init__.py", submodule_search_locations=[str(package)]
    )
    if spec is None or spec.loader is None:
        raise pytest.UsageError(f"--impl {package}: cannot import it as a package")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        for loaded in [key for key in sys.modules if key == name or key.startswith(name + ".")]:
            del sys.modules[loaded]
        raise
    return module


@pytest.fixture(scope="session")
def sandbox() -> str:
    """The strongest sandbox level this machine offers. A test that asks for this fixture, directly or through a
    fixture of its own, starts the real sandbox (it grades submissions, or starts sandboxed workers): it is
    marked slow (SLOW_FIXTURES), and only such a test may start one (_sandbox_refused)."""
    from grader.sandbox.isolation import LEVELS, level_works  # noqa: PLC0415

    return next(level for level in LEVELS if level_works(level))


@pytest.fixture(scope="session")
def fresh_venv() -> Callable[..., Path]:
    """tests/isolated_venv.py's make_venv: a fresh virtual environment that sees only chosen packages. A test that
    asks for this fixture, directly or through a fixture of its own, builds environments and runs programs in them
    (pytest on a template, an exported autograder, another Python): it is marked slow (SLOW_FIXTURES)."""
    from isolated_venv import make_venv  # noqa: PLC0415 - tests/ is on sys.path once pytest has read this file

    return make_venv


@pytest.fixture(scope="session")
def impl(pytestconfig: pytest.Config) -> ModuleType:
    """The implementation under test (the imported package), as chosen by --impl."""
    return load_impl(pytestconfig.stash[_IMPL_KEY])


SHARED_ATTACK_KEY = "war-count-shared"
"""The kernel key the corpus's keeps_kernel_key attack leaves, readable by every uid, for an hour after its last use."""


@pytest.fixture(scope="session")
def forget_shared_attack_key() -> None:
    """Invalidate the key keeps_kernel_key left by an earlier grading (it lets anyone do so), so the attack starts
    from nothing and can be seen to fail; left in place, it would make the attack lose by accident."""
    import ctypes  # noqa: PLC0415
    import platform  # noqa: PLC0415

    if platform.machine() != "x86_64" or not Path("/proc/keys").is_file():  # the attack's system calls are x86-64's
        return
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    with open("/proc/keys", encoding="ascii") as handle:
        keys = [int(line.split()[0], 16) for line in handle if f" {SHARED_ATTACK_KEY}: " in line]
    for key in keys:
        libc.syscall(250, 21, ctypes.c_long(key))  # keyctl(KEYCTL_INVALIDATE, key), x86-64


CORPUS_TIMEOUT = 1800
"""pytest-timeout's limit on a test that reads graded_corpus: the first one's setup grades the whole corpus (85 s on
a quiet two-core machine, 288 s under load 13-19, past the default 300 s of pyproject.toml with a little more)."""

TEST_SETTINGS = Path(__file__).resolve().parent / "data" / "grading-test.toml"
"""The tighter limits the tests grade under, so hanging and hostile submissions cost seconds, not minutes."""


@pytest.fixture(scope="session")
def graded_corpus(sandbox: str, forget_shared_attack_key: None) -> Iterator[Path]:
    """The whole corpus graded once a session, two at a time, under the test limits: the out folder (each
    submission's results.json and report.html, grades.csv). tests/test_corpus.py and tests/part_e/test_part_e_integrity.py
    read it; neither writes into it. With WAR_GRADER_UPDATE_PINS=1 it first rewrites corpus.json's pins from this
    grading (tests/corpus.py's update_pins), so the tests compare against the new ones."""
    from corpus import PINNED, UPDATE_PINS, corpus, update_pins  # noqa: PLC0415 - tests/ is on sys.path by now
    from grader.batch import grade  # noqa: PLC0415

    out = Path(tempfile.mkdtemp(prefix="war-grader-corpus-"))
    results = grade(paths=[corpus()], out=out, jobs=2, config_path=TEST_SETTINGS)
    assert sorted(result.student for result in results) == sorted(PINNED)
    if os.environ.get(UPDATE_PINS) == "1":  # the pins follow this grading (docs/development.md)
        moved = update_pins(out)
        print(f"\n{UPDATE_PINS}: {len(moved)} pins moved in tests/submissions/corpus.json", *moved, sep="\n")
    yield out
    shutil.rmtree(out, ignore_errors=True)
