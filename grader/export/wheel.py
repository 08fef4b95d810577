"""The grader as a wheel, built from the installed packages themselves: offline, and the same bytes every time.

It needs no build backend and no network, and works from a checkout or from an installed war-grader alike;
every file of the three packages goes in (templates, grading.toml, the suites' pytest.ini).
"""

from __future__ import annotations

import base64
import hashlib
import zipfile
from importlib import metadata
from pathlib import Path

from .. import __version__

PACKAGES = ("grader", "reference", "starter")
"""What war-grader installs: the grader needs the reference (expected values) and the starter (check)."""

DISTRIBUTION = "war-grader"
FALLBACK_REQUIREMENTS = ("pytest>=8", "pytest-timeout>=2.3", "jinja2>=3.1", "coverage>=7.4", "pyseccomp>=0.1.2")
"""Used only when the installed metadata cannot be read (it should always be there)."""

FIXED_TIME = (1980, 1, 1, 0, 0, 0)
"""Every entry's timestamp, so the same sources always give the same wheel."""


def wheel_name() -> str:
    """The wheel's file name, as pip expects it."""
    return f"war_grader-{__version__}-py3-none-any.whl"


def build_wheel(folder: Path) -> Path:
    """Write war-grader's wheel into folder and return its path."""
    root = Path(__file__).resolve().parents[2]
    files: dict[str, bytes] = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                files[path.relative_to(root).as_posix()] = path.read_bytes()
    info = f"war_grader-{__version__}.dist-info"
    files[f"{info}/METADATA"] = _metadata().encode()
    files[f"{info}/WHEEL"] = b"Wheel-Version: 1.0\nGenerator: war-grader export\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    files[f"{info}/entry_points.txt"] = b"[console_scripts]\nwar-grader = grader.cli:main\n"
    record = [f"{name},sha256={_digest(data)},{len(data)}" for name, data in files.items()]
    files[f"{info}/RECORD"] = ("\n".join([*record, f"{info}/RECORD,,"]) + "\n").encode()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / wheel_name()
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as wheel:
        for name, data in files.items():
            entry = zipfile.ZipInfo(name, FIXED_TIME)
            entry.external_attr = 0o644 << 16
            entry.compress_type = zipfile.ZIP_DEFLATED
            wheel.writestr(entry, data)
    return path


def _metadata() -> str:
    """The METADATA file: name, version, Python and the dependencies of the installed war-grader."""
    try:
        requirements = [r for r in metadata.requires(DISTRIBUTION) or [] if "extra ==" not in r]
    except metadata.PackageNotFoundError:
        requirements = list(FALLBACK_REQUIREMENTS)
    lines = ["Metadata-Version: 2.1", f"Name: {DISTRIBUTION}", f"Version: {__version__}",
             "Summary: An auto-graded stacks-and-queues assignment built on the card game War: reference, "
             "starter and grader.", "Requires-Python: >=3.11", *(f"Requires-Dist: {r}" for r in requirements)]
    return "\n".join(lines) + "\n"


def _digest(data: bytes) -> str:
    """RECORD's hash: urlsafe base64 of the sha256, without padding."""
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
