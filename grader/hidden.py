"""The folders student code must never read: the grader and reference packages, and their checkout if any.

Handed to the sandbox (grader/sandbox/uid_level.seal, through make_spec's `hidden`), which hides what it is
given and knows nothing of War itself.
"""

from __future__ import annotations

from pathlib import Path

import reference


def secret_roots() -> tuple[str, ...]:
    """The grader and reference packages and, in a source checkout, the checkout (the hidden suites in every form:
    tests, the git history, built wheels)."""
    grader = Path(__file__).resolve().parent
    roots = [grader, Path(str(reference.__file__)).resolve().parent]
    checkout = grader.parent
    if (checkout / "pyproject.toml").is_file() and (checkout / "reference").is_dir():
        roots.append(checkout)
    return tuple(str(root) for root in roots)
