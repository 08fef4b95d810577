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

import hashlib
import importlib
import importlib.util
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

pytest_plugins = ["pytester"]

CONTRACT_DIR = Path(__file__).resolve().parent / "contract"
"""The public contract tests; only they use the `impl` fixture and get the short time limit."""

CONTRACT_FILES: tuple[str, ...] = ("__init__.py", "structures.py", "cards.py", "rules.py", "game.py")
"""The files a folder must hold to count as an implementation of the contract."""

CONTRACT_TIMEOUT = 10
"""Seconds one contract test may take: the reference needs milliseconds, a loop that never ends gets cut off."""

SLOW_FILES: frozenset[str] = frozenset({
    "test_batch.py", "test_changes.py", "test_channel_census.py", "test_corpus.py", "test_export_classroom.py",
    "test_export_gradescope.py", "test_isolation.py", "test_landlock_levels.py", "test_late_grading.py",
    "test_part_e_fingerprints.py", "test_part_e_integrity.py", "test_part_e_runs_alike.py", "test_pythons.py",
    "test_readme_walk.py",
    "test_rubric.py", "test_sandbox.py", "test_shards.py", "test_student_tests.py", "test_uid_level.py",
})
"""The test files marked `slow`: they grade submissions through the real sandbox (at every level, or as a whole
class), or run an export end to end; `pytest -m "not slow"` leaves them out, CI runs them."""

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
    """Give every contract test a short time limit, unless it sets its own; mark the tests of SLOW_FILES slow."""
    for item in items:
        if item.path.name in SLOW_FILES and item.path.parent == CONTRACT_DIR.parent:
            item.add_marker(pytest.mark.slow)
        if CONTRACT_DIR in item.path.parents and item.get_closest_marker("timeout") is None:
            item.add_marker(pytest.mark.timeout(CONTRACT_TIMEOUT))


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
def impl(pytestconfig: pytest.Config) -> ModuleType:
    """The implementation under test (the imported package), as chosen by --impl."""
    return load_impl(pytestconfig.stash[_IMPL_KEY])


SHARED_ATTACK_KEY = "war-count-shared"
"""The kernel key the corpus's keeps_kernel_key attack leaves, readable by every uid, for an hour after its last use."""


@pytest.fixture(scope="module")
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
