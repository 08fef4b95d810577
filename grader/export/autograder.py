"""What run_autograder runs on Gradescope: grade ROOT/submission into ROOT/results/results.json.

    python -m grader.export.autograder ROOT     # ROOT is /autograder on Gradescope

The settings are ROOT/source/grading.toml. results.json is written for students to read (gradescope_results):
Markdown outputs, replay lines in each visible failure, hidden tests named by their rule. A submission that
cannot be graded still gets a results.json (score 0 and the reason, shown to the student). A fault of the
grader's writes none and exits 1, so that Gradescope marks the run as failed for the instructor instead of
recording a 0.
"""

from __future__ import annotations

import sys
from pathlib import Path

from ..batch import grade_submissions
from ..config import ConfigError, load_config
from ..grading.runner import GradingError
from ..results import GradeResult
from ..sandbox.isolation import SandboxError
from ..submissions import Submission
from .gradescope_results import write_gradescope_results

STUDENT = "submission"
"""The name results.json gives the student (Gradescope knows who it is)."""


def grade_autograder_root(root: Path) -> GradeResult:
    """Grade ROOT/submission with ROOT/source/grading.toml; write ROOT/results/results.json unless the grader failed."""
    config_path = root / "source" / "grading.toml"
    config = load_config(config_path if config_path.is_file() else None)
    [result] = grade_submissions([Submission(STUDENT, root / "submission")], config, jobs=1,
                                 secrets=(root / "source",))
    if result.outcome != "grader_fault":
        write_gradescope_results(result, root / "results" / "results.json", reveal_after=config.reveal_after)
    return result


def main(argv: list[str] | None = None) -> int:
    """Run on ROOT (default /autograder); print the score or the fault for Gradescope's stdout log."""
    args = sys.argv[1:] if argv is None else argv
    root = Path(args[0] if args else "/autograder")
    try:
        result = grade_autograder_root(root)
    except (ConfigError, SandboxError, GradingError) as error:
        print(f"war-grader autograder: {error}", file=sys.stderr)
        return 1
    if result.outcome == "grader_fault":
        print(f"war-grader autograder: grader fault: {result.reason}", file=sys.stderr)
        return 1
    print(f"{result.outcome}: {result.score:g} / {result.max_score:g}" + (f" ({result.reason})" if result.reason else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
