"""War's public tests, graded in a student's repository by Classroom 50's runner (written by war-grader).

Classroom 50 runs `python BUNDLE/autograder.py` in the student's checkout after each submission. This script
runs the bundle's own copy of the public tests (public/tests/contract) against the checkout's starter/ package,
scores each category of the grade all or nothing, and leaves result.json and release-body.md in the checkout
and a status and summary line in $GITHUB_OUTPUT. It exits 0 whenever it graded; 1 only when pytest cannot be
had (an infrastructure error: no Release is made). The score is formative: the hidden tests and Part E are
graded by the teacher, after the due date. Only the standard library is used.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

BUNDLE = Path(__file__).resolve().parent
"""This script's folder: categories.json and public/ (the handout and the public tests)."""

PUBLIC = BUNDLE / "public"
"""The bundle's copy of the handout and the public tests: what the checkout's copy cannot change."""

SCHEMA = "classroom50/result/v1"
"""The result.json schema Classroom 50's runner checks."""

INSTALL_SECONDS = 180
"""Most seconds `pip install pytest` may take."""

TESTS_SECONDS = 600
"""Most seconds the public tests may take in all (each test also has the conftest's own 10-second limit)."""

FAILED_LISTED = 10
"""Most failures listed per category in result.json."""

LINE = 300
"""Most characters of a failure's message in result.json."""

BLOCK = 2000
"""Most characters of a failure's text in release-body.md."""

BODY = 60000
"""Most characters of release-body.md."""

NO_PACKAGE = "no starter/ package found"
"""The message of every category when the checkout has no starter/__init__.py."""


def main() -> int:
    """Grade the checkout in the current directory; 0 when graded, 1 on an infrastructure error."""
    workspace = Path.cwd()
    categories = json.loads((BUNDLE / "categories.json").read_text(encoding="utf-8"))
    if not pytest_importable() and not install_pytest():
        print("::error::pytest cannot be imported or installed: the public tests could not run", flush=True)
        return 1
    if not (workspace / "starter" / "__init__.py").is_file():
        print(f"::warning::{NO_PACKAGE} in this repository: every category fails", flush=True)
        results = score(categories, None, NO_PACKAGE)
    else:
        results = score(categories, run_public_tests(workspace / "starter"))
    data = result_json(results)
    write(workspace / "result.json", json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    write(workspace / "release-body.md", release_body(results))
    passed = sum(result["passed"] for result in results)
    summary = f"war public tests: {data['score']}/{data['max-score']} ({passed} of {len(results)} categories)"
    output = os.environ.get("GITHUB_OUTPUT")
    if output:
        status = "success" if passed == len(results) else "failure"
        with open(output, "a", encoding="utf-8", errors="replace") as file:
            file.write(f"status={status}\nsummary={summary[:139]}\n")
    print(summary, flush=True)
    return 0


def pytest_importable() -> bool:
    """Whether the interpreter running this script can import pytest (asked from the bundle's folder, so a
    pytest.py of the checkout's cannot answer)."""
    done = subprocess.run([sys.executable, "-c", "import pytest"], cwd=BUNDLE, capture_output=True, timeout=60)
    return done.returncode == 0


def install_pytest() -> bool:
    """pip install pytest into this interpreter (at most INSTALL_SECONDS); whether it imports afterwards."""
    try:
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                        "pytest>=8"], cwd=BUNDLE, timeout=INSTALL_SECONDS, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return pytest_importable()


def run_public_tests(package: Path) -> list[dict[str, Any]] | None:
    """Run the bundle's public tests against package in a child process group (killed after TESTS_SECONDS);
    the conftest's --war-report records, or None when it wrote none."""
    folder = Path(os.environ.get("RUNNER_TEMP") or tempfile.gettempdir())
    report = Path(tempfile.mkdtemp(prefix="war-", dir=folder)) / "war-report.json"
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-c", str(PUBLIC / "pytest.ini"),
               "--rootdir", str(PUBLIC), str(PUBLIC / "tests" / "contract"), "--impl", str(package),
               "--war-report", str(report)]
    child = subprocess.Popen(command, cwd=PUBLIC, start_new_session=True)
    try:
        child.wait(timeout=TESTS_SECONDS)
    except subprocess.TimeoutExpired:
        print(f"::warning::the public tests ran longer than {TESTS_SECONDS} s and were stopped", flush=True)
        os.killpg(child.pid, signal.SIGKILL)
        child.wait()
    try:
        records = json.loads(report.read_text(encoding="utf-8", errors="replace"))
    except (OSError, ValueError):
        return None
    return [record for record in records if isinstance(record, dict)] if isinstance(records, list) else None


def key_of(nodeid: str, public_tests: dict[str, str]) -> str | None:
    """The most specific key of public_tests naming a node id (tests/contract/file::function[example])."""
    test = nodeid.split("tests/contract/", 1)[-1]
    function = test.split("[", 1)[0]
    for key in (test, function, function.split("::", 1)[0]):
        if key in public_tests:
            return key
    return None


def score(categories: dict[str, Any], records: list[dict[str, Any]] | None,
          missing: str = "this test did not report: the run was stopped first") -> list[dict[str, Any]]:
    """Each category's public tests, passed or how they failed (a key of public_tests that no test reported is
    missing, with the message missing), and its points: all of them when every public test passed, else none."""
    public_tests: dict[str, str] = categories["public_tests"]
    outcomes: dict[str, list[dict[str, str]]] = {category["key"]: [] for category in categories["categories"]}
    seen = set()
    for record in records or []:
        nodeid = str(record.get("nodeid", ""))
        key = key_of(nodeid, public_tests)
        if key is None or public_tests[key] not in outcomes:
            continue
        seen.add(key)
        outcome, message = str(record.get("outcome", "error")), str(record.get("message", ""))
        if outcome not in ("passed", "failed", "error", "timeout"):
            outcome, message = "failed", f"{outcome}: {message}"
        outcomes[public_tests[key]].append({"test": nodeid, "outcome": outcome, "message": message})
    for key, category in public_tests.items():
        if key not in seen and category in outcomes:
            outcomes[category].append({"test": f"tests/contract/{key}", "outcome": "missing", "message": missing})
    results = []
    for category in categories["categories"]:
        tests = outcomes[category["key"]]
        failed = [test for test in tests if test["outcome"] != "passed"]
        passed = bool(tests) and not failed
        results.append({"key": category["key"], "title": category["title"], "points": category["points"],
                        "earned": category["points"] if passed else 0, "passed": passed, "tests": len(tests),
                        "failed": failed})
    return results


def first_line(text: str) -> str:
    """A failure's first non-empty line, at most LINE characters."""
    line = next((line.strip() for line in text.splitlines() if line.strip()), "")
    return line if len(line) <= LINE else line[:LINE - 1] + "…"


def result_json(results: list[dict[str, Any]]) -> dict[str, Any]:
    """The classroom50/result/v1 object, from the runner's environment and the categories' results."""
    env = os.environ
    tests = [{"test-name": f"{result['title']} (public tests)", "passed": result["passed"],
              "score": result["earned"], "max-score": result["points"], "category": result["key"],
              "public_tests": result["tests"], "public_passed": result["tests"] - len(result["failed"]),
              "failed": [{"test": test["test"], "outcome": test["outcome"], "message": first_line(test["message"])}
                         for test in result["failed"][:FAILED_LISTED]]}
             for result in results]
    return {
        "schema": SCHEMA,
        "classroom": env.get("CLASSROOM", ""),
        "assignment": env.get("ASSIGNMENT", ""),
        "assignment_type": env.get("ASSIGNMENT_TYPE") or "individual",
        "owner": env.get("OWNER") or env.get("USERNAME", ""),
        "submission": env.get("SUBMISSION_TAG", ""),
        "commit": env.get("COMMIT_URL", ""),
        "release": env.get("RELEASE_URL", ""),
        "review": env.get("REVIEW_URL") or env.get("COMMIT_URL", ""),
        "datetime": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "score": sum(test["score"] for test in tests),
        "max-score": sum(test["max-score"] for test in tests),
        "tests": tests,
    }


def fenced(text: str) -> str:
    """text in a fenced block it cannot close: its backticks and tildes runs broken, at most BLOCK characters."""
    text = text if len(text) <= BLOCK else text[:BLOCK - 1] + "…"
    text = text.replace("```", "`\u200b``").replace("~~~", "~\u200b~~")
    return f"```text\n{text}\n```\n"


def release_body(results: list[dict[str, Any]]) -> str:
    """The Release's Markdown: the public score, what it is not, the table, then each failure (as space allows)."""
    score_now = sum(result["earned"] for result in results)
    maximum = sum(result["points"] for result in results)
    head = [f"# War: public tests {score_now} / {maximum}", "",
            "These are only the public tests: your grade also counts hidden tests and your own tests (Part E), "
            "and your teacher posts that report on your Feedback pull request after the due date.", "",
            "| Category | Public tests | Points |", "|---|---|---|"]
    head += [f"| {result['title']} | {result['tests'] - len(result['failed'])}/{result['tests']} passed | "
             f"{result['earned']} / {result['points']} |" for result in results]
    body = "\n".join(head) + "\n"
    failing = [(result, test) for result in results for test in result["failed"]]
    if not failing:
        return body
    body += "\n## What failed\n"
    for index, (result, test) in enumerate(failing):
        last = index + 1 == len(failing) or failing[index + 1][0] is not result
        part = (f"\n**{result['title']}**: `{test['test'].replace('`', chr(39))}` ({test['outcome']})\n\n"
                + fenced(test["message"] or test["outcome"]))
        if last:
            part += f"\nRun them yourself: `python -m pytest tests/contract --category {result['key']}`\n"
        if len(body) + len(part) > BODY - 200:
            body += f"\n{len(failing) - index} more failures left out: this page has no room for them.\n"
            break
        body += part
    return body


def write(path: Path, text: str) -> None:
    """Write text as UTF-8, any invalid character replaced."""
    path.write_text(text, encoding="utf-8", errors="replace")


if __name__ == "__main__":
    sys.exit(main())
