"""Keep pytest out of this folder: it holds student submissions (some hostile) that are data for the grader's
tests, never tests themselves. Without this, collecting tests/ would import conftest_forces_pass's conftest.py."""

collect_ignore_glob = ["*"]
