"""`war-grader classroom50 publish`: against a loopback fake of GitHub's REST API (http.server in a thread).

The fake holds four student repositories: alice (a Feedback pull request), bob (no repository: 404), carol (no
Feedback pull request) and dave (whose comments answer 500 when told to). Every request is recorded, so the
tests can say which calls wrote, and that the token went only in the Authorization header.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import urlsplit

import pytest

from grader.cli import main

TOKEN = "ghp_s3cr3t-token-never-shown"
ORG, CLASSROOM, ASSIGNMENT = "my-org", "cs2-fall", "war"
MARKER = f"<!-- war-grader classroom50 {CLASSROOM}/{ASSIGNMENT} -->"


class FakeGitHub:
    """The state of the fake API: repositories, pull requests, comments, and every request seen."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.comments: dict[str, list[dict[str, Any]]] = {"alice": [
            {"id": 7, "body": "Nice work!", "user": {"login": "a-teacher"}, "html_url": "https://x/c7"}]}
        self.broken: set[str] = set()
        self.throttled: dict[str, list[str]] = {}
        """Per login, the Retry-After values its pulls call answers 429 with first, one a call."""
        self.next_id = 100

    def answer(self, method: str, path: str, body: Any) -> tuple[int, Any]:
        """The status and JSON for one request."""
        parts = urlsplit(path).path.strip("/").split("/")
        if parts == ["user"]:
            return 200, {"login": "grader-bot"}
        if parts[:2] != ["repos", ORG] or len(parts) < 3:
            return 404, {"message": "Not Found"}
        login = parts[2].removeprefix(f"{CLASSROOM}-{ASSIGNMENT}-")
        if login not in ("alice", "carol", "dave"):
            return 404, {"message": "Not Found"}
        rest = parts[3:]
        if not rest:
            return 200, {"default_branch": "main"}
        if rest == ["pulls"]:
            if self.throttled.get(login):
                return 429, {"retry-after": self.throttled[login].pop(0)}
            if login == "carol":
                return 200, [{"number": 3, "head": {"ref": "other"}, "html_url": "https://x/pr3"}]
            return 200, [{"number": 1, "head": {"ref": "main"}, "html_url": f"https://x/{login}/pull/1"}]
        if rest[:1] == ["issues"] and rest[-1] == "comments" and method == "GET":
            if login in self.broken:
                return 500, {"message": "boom"}
            return 200, self.comments.get(login, [])
        if rest[:1] == ["issues"] and rest[-1] == "comments" and method == "POST":
            self.next_id += 1
            made = {"id": self.next_id, "body": body["body"], "user": {"login": "grader-bot"},
                    "html_url": f"https://x/{login}/pull/1#issuecomment-{self.next_id}"}
            self.comments.setdefault(login, []).append(made)
            return 201, made
        if rest[:2] == ["issues", "comments"] and method == "PATCH":
            for comment in self.comments.get(login, []):
                if comment["id"] == int(rest[2]):
                    comment["body"] = body["body"]
                    return 200, comment
        return 404, {"message": "Not Found"}


@pytest.fixture
def github() -> Iterator[tuple[FakeGitHub, str]]:
    """The fake, served on 127.0.0.1; its state and base URL."""
    state = FakeGitHub()

    class Handler(BaseHTTPRequestHandler):
        def _serve(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = json.loads(self.rfile.read(length)) if length else None
            state.requests.append({"method": self.command, "path": self.path, "headers": dict(self.headers),
                                   "body": body})
            status, answer = state.answer(self.command, self.path, body)
            data = json.dumps(answer).encode()
            self.send_response(status)
            if status == 429:
                self.send_header("Retry-After", answer["retry-after"])
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST = do_PATCH = _serve

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield state, f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def results_folder(tmp_path: Path, logins: tuple[str, ...] = ("alice", "bob", "carol")) -> Path:
    """DIR as classroom50 results leaves it: result.json and comment.md per login."""
    folder = tmp_path / "c50"
    for login in logins:
        (folder / login).mkdir(parents=True)
        data = {"release": f"https://github.com/{ORG}/{CLASSROOM}-{ASSIGNMENT}-{login}/commit/abc", "score": 80}
        (folder / login / "result.json").write_text(json.dumps(data, indent=2))
        (folder / login / "comment.md").write_text(f"{MARKER}\n\n## War: final grade 80 / 100\n\n```json\n"
                                                   f"{json.dumps(data, indent=2)}\n```\n")
    return folder


def publish(folder: Path, url: str, *extra: str) -> int:
    """The publish command against the fake."""
    return main(["classroom50", "publish", str(folder), "--org", ORG, "--classroom", CLASSROOM, "--assignment",
                 ASSIGNMENT, "--api-url", url, *extra])


def test_the_first_run_posts_and_the_second_edits_the_same_comment(tmp_path, github, monkeypatch, capsys):
    """alice gets one new comment (the teacher's own is left alone), then the same comment is edited; bob (no
    repository) and carol (no Feedback PR) are skipped and counted; the token never shows."""
    state, url = github
    monkeypatch.setenv("GH_TOKEN", TOKEN)
    folder = results_folder(tmp_path)
    assert publish(folder, url) == 0
    first = capsys.readouterr()
    assert first.out.strip().splitlines()[-1] == ("posted 1, updated 0, skipped 2 (no repository 1, no Feedback PR 1), "
                                                  "failed 0")
    ours = [comment for comment in state.comments["alice"] if comment["user"]["login"] == "grader-bot"]
    assert len(ours) == 1 and ours[0]["body"].startswith(MARKER)
    assert '"release": "https://x/alice/pull/1"' in ours[0]["body"]
    assert json.loads((folder / "alice" / "result.json").read_text())["release"] == ours[0]["html_url"]
    assert publish(folder, url) == 0
    second = capsys.readouterr()
    assert "posted 0, updated 1, skipped 2" in second.out
    assert [comment["id"] for comment in state.comments["alice"]] == [7, ours[0]["id"]]
    writes = [(request["method"], request["path"]) for request in state.requests if request["method"] != "GET"]
    assert writes == [("POST", f"/repos/{ORG}/{CLASSROOM}-{ASSIGNMENT}-alice/issues/1/comments"),
                      ("PATCH", f"/repos/{ORG}/{CLASSROOM}-{ASSIGNMENT}-alice/issues/comments/{ours[0]['id']}")]
    assert all(request["headers"].get("Authorization") == f"Bearer {TOKEN}" for request in state.requests)
    assert all(TOKEN not in json.dumps(request["body"]) for request in state.requests)
    assert TOKEN not in first.out + first.err + second.out + second.err
    assert not any(TOKEN in path.read_text() for path in folder.rglob("*") if path.is_file())
    assert all(len(request["body"]["body"]) <= 65536 for request in state.requests if request["body"])


def test_a_server_error_is_a_failure_and_exit_1(tmp_path, github, monkeypatch, capsys):
    """dave's comments answer 500: counted as failed, one line on stderr, exit 1; alice is still posted."""
    state, url = github
    state.broken.add("dave")
    monkeypatch.setenv("GITHUB_TOKEN", TOKEN)
    monkeypatch.delenv("GH_TOKEN", raising=False)
    assert publish(results_folder(tmp_path, ("alice", "dave")), url) == 1
    said = capsys.readouterr()
    assert "posted 1, updated 0, skipped 0 (no repository 0, no Feedback PR 0), failed 1" in said.out
    assert "failed dave: GET" in said.err and "HTTP 500" in said.err and TOKEN not in said.err + said.out


def test_a_dry_run_only_reads(tmp_path, github, monkeypatch, capsys):
    """--dry-run prints what it would post and makes no write call; result.json is untouched."""
    state, url = github
    monkeypatch.setenv("GH_TOKEN", TOKEN)
    folder = results_folder(tmp_path)
    before = (folder / "alice" / "result.json").read_text()
    assert publish(folder, url, "--dry-run") == 0
    out = capsys.readouterr().out
    assert f"would post a comment on {ORG}/{CLASSROOM}-{ASSIGNMENT}-alice#1" in out
    assert {request["method"] for request in state.requests} == {"GET"}
    assert (folder / "alice" / "result.json").read_text() == before


def test_without_a_token_it_is_a_usage_error(tmp_path, github, monkeypatch, capsys):
    """No GH_TOKEN nor GITHUB_TOKEN: one line, exit 2, no request made."""
    state, url = github
    monkeypatch.delenv("GH_TOKEN", raising=False)
    monkeypatch.delenv("GITHUB_TOKEN", raising=False)
    assert publish(results_folder(tmp_path), url) == 2
    assert "no token" in capsys.readouterr().err and state.requests == []


def test_retry_after_is_honoured_within_a_minute_per_student(tmp_path, github, monkeypatch, capsys):
    """A 429 asking to wait 0 s is retried and alice is posted; dave's asking for 61 s is not waited for: failed."""
    state, url = github
    state.throttled = {"alice": ["0", "0"], "dave": ["61"]}
    monkeypatch.setenv("GH_TOKEN", TOKEN)
    assert publish(results_folder(tmp_path, ("alice", "dave")), url) == 1
    said = capsys.readouterr()
    assert "posted 1, updated 0, skipped 0 (no repository 0, no Feedback PR 0), failed 1" in said.out
    assert "failed dave: GET" in said.err and "HTTP 429" in said.err
