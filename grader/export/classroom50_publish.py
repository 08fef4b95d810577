"""`war-grader classroom50 publish DIR`: each student's comment.md as one comment on their Feedback pull request.

GitHub's REST API, called one request at a time with the token from GH_TOKEN (else GITHUB_TOKEN), which is
sent only in the Authorization header and never printed or written. A comment war-grader posted before (by the
token's login, starting with the marker line) is edited in place, so a rerun never adds a second one. It never
pushes a tag and never makes a Release: either would count in Classroom 50 as the student's own submission.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from .classroom import ExportError
from .classroom50 import NAME
from .classroom50_results import LOGIN, MARKER
from ..errors import WarGraderError

DEFAULT_API = "https://api.github.com"
"""The API base without --api-url or GITHUB_API_URL."""

RETRY_BUDGET = 60.0
"""Most seconds spent waiting on Retry-After (HTTP 403 or 429) for one student."""

REQUEST_SECONDS = 30.0
"""Most seconds one request may take."""

BODY_LIMIT = 65_536
"""GitHub's largest comment body."""

PAGE = 100
"""Items asked for per page."""


class ApiError(WarGraderError):
    """A call to the API failed: its status and what was asked (never the token)."""

    def __init__(self, status: int, what: str) -> None:
        super().__init__(f"{what}: HTTP {status}")
        self.status = status


@dataclass
class PublishSummary:
    """What publish did, counted; failures one line each."""

    posted: int = 0
    updated: int = 0
    no_repository: int = 0
    no_feedback_pr: int = 0
    failed: list[str] = field(default_factory=list)

    def line(self) -> str:
        """The one-line summary."""
        skipped = self.no_repository + self.no_feedback_pr
        return (f"posted {self.posted}, updated {self.updated}, skipped {skipped} (no repository "
                f"{self.no_repository}, no Feedback PR {self.no_feedback_pr}), failed {len(self.failed)}")


class GitHub:
    """The few REST calls publish makes, sequential, with Retry-After honoured within a budget."""

    def __init__(self, api: str, token: str, *, sleep: Callable[[float], None] = time.sleep) -> None:
        self.api, self._token, self.sleep = api.rstrip("/"), token, sleep
        self.budget = RETRY_BUDGET

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        """The JSON the API answers to method path (with body as JSON); ApiError on a failure."""
        while True:
            request = urllib.request.Request(self.api + path, method=method,
                                             data=None if body is None else json.dumps(body).encode("utf-8"))
            request.add_header("Accept", "application/vnd.github+json")
            request.add_header("Authorization", f"Bearer {self._token}")
            request.add_header("X-GitHub-Api-Version", "2022-11-28")
            request.add_header("User-Agent", "war-grader")
            if body is not None:
                request.add_header("Content-Type", "application/json")
            try:
                with urllib.request.urlopen(request, timeout=REQUEST_SECONDS) as response:  # noqa: S310 - https API
                    text = response.read()
                return json.loads(text) if text else None
            except urllib.error.HTTPError as error:
                wait = _retry_after(error)
                if error.code in (403, 429) and wait is not None and wait <= self.budget:
                    self.budget -= wait
                    self.sleep(wait)
                    continue
                raise ApiError(error.code, f"{method} {path}") from None
            except (urllib.error.URLError, OSError, ValueError) as error:
                raise ApiError(0, f"{method} {path} ({type(error).__name__})") from None


def publish(folder: Path, *, org: str, classroom_name: str, assignment: str, token: str, api: str = DEFAULT_API,
            dry_run: bool = False, say: Callable[[str], None] = print,
            sleep: Callable[[float], None] = time.sleep) -> PublishSummary:
    """Post or update each DIR/<login>/comment.md on that student's Feedback pull request."""
    for label, value in (("--classroom", classroom_name), ("--assignment", assignment)):
        if not NAME.fullmatch(value):
            raise ExportError(f"{label} {value!r}: a name of 2 to 39 lowercase letters, digits and hyphens")
    if not LOGIN.fullmatch(org):
        raise ExportError(f"--org {org!r}: not a GitHub organization name")
    if not token:
        raise ExportError("no token: set GH_TOKEN (or GITHUB_TOKEN) to a token that can write pull requests")
    students = sorted(path for path in folder.iterdir() if (path / "comment.md").is_file()
                      and (path / "result.json").is_file() and LOGIN.fullmatch(path.name)) if folder.is_dir() else []
    if not students:
        raise ExportError(f"{folder}: no <login>/comment.md in it; run `war-grader classroom50 results` first")
    github = GitHub(api, token, sleep=sleep)
    summary = PublishSummary()
    marker = MARKER.format(classroom=classroom_name, assignment=assignment)
    try:
        me = github.call("GET", "/user")["login"]
    except (ApiError, KeyError, TypeError) as error:
        summary.failed.append(f"the token's own login: {error}")
        return summary
    for student in students:
        github.budget = RETRY_BUDGET
        repository = f"{classroom_name}-{assignment}-{student.name}".lower()
        try:
            outcome = _publish_one(github, student, f"/repos/{org}/{repository}", me, marker, dry_run, say)
        except ApiError as error:
            summary.failed.append(f"{student.name}: {error}")
            continue
        if outcome == "posted":
            summary.posted += 1
        elif outcome == "updated":
            summary.updated += 1
        elif outcome == "no repository":
            summary.no_repository += 1
        else:
            summary.no_feedback_pr += 1
    return summary


def _publish_one(github: GitHub, student: Path, repo: str, me: str, marker: str, dry_run: bool,
                 say: Callable[[str], None]) -> str:
    """One student: "posted", "updated", "no repository" or "no Feedback PR"."""
    try:
        default = github.call("GET", repo)["default_branch"]
    except ApiError as error:
        if error.status == 404:
            return "no repository"
        raise
    pulls = github.call("GET", f"{repo}/pulls?state=all&base=feedback&per_page={PAGE}") or []
    pull = next((pr for pr in pulls if pr.get("head", {}).get("ref") == default), None)
    if pull is None:
        return "no Feedback PR"
    number = int(pull["number"])
    ours = None
    for page in range(1, 1000):
        comments = github.call("GET", f"{repo}/issues/{number}/comments?per_page={PAGE}&page={page}") or []
        ours = ours or next((comment for comment in comments if comment.get("user", {}).get("login") == me
                             and str(comment.get("body", "")).startswith(marker)), None)
        if len(comments) < PAGE:
            break
    data = json.loads((student / "result.json").read_text(encoding="utf-8"))
    body = _with_release((student / "comment.md").read_text(encoding="utf-8"), data["release"], pull["html_url"])
    body = body if len(body) <= BODY_LIMIT else body[:BODY_LIMIT - 100] + "\n\n(cut: too long for a comment)\n"
    if dry_run:
        verb = "update comment" if ours else "post a comment"
        say(f"would {verb} on {repo.removeprefix('/repos/')}#{number} ({len(body)} characters)")
        return "updated" if ours else "posted"
    if ours:
        made = github.call("PATCH", f"{repo}/issues/comments/{int(ours['id'])}", {"body": body})
    else:
        made = github.call("POST", f"{repo}/issues/{number}/comments", {"body": body})
    data["release"] = made["html_url"]
    (student / "result.json").write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return "updated" if ours else "posted"


def _with_release(comment: str, old: str, new: str) -> str:
    """comment.md with its result.json block's release set to new."""
    return comment.replace(f'"release": {json.dumps(old, ensure_ascii=False)}',
                           f'"release": {json.dumps(new, ensure_ascii=False)}', 1)


def _retry_after(error: urllib.error.HTTPError) -> float | None:
    """The seconds a 403 or 429 asks to wait (Retry-After), or None when it does not say."""
    value = error.headers.get("Retry-After") if error.headers else None
    try:
        return max(0.0, float(value)) if value is not None else None
    except ValueError:
        return None
