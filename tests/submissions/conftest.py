"""Keep pytest out of this folder: its written/ holds files of student submissions (some hostile) that are data
for the grader's tests, never tests themselves. Without this, collecting tests/ would import
written/conftest_forces_pass/conftest.py."""

collect_ignore_glob = ["*"]
