"""Every war-grader and `python -m reference` command that README.md and docs/ show parses with today's options.

The commands that grade or export are also run for real elsewhere (tests/test_readme_walk.py, the docs'
gradebook page in tests/export/test_export_grades.py, CI's README lines); here each one, synopses included (their
[optional] parts removed), goes through the real argument parser, so a renamed or removed option fails here.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from grader import cli
from reference import __main__ as reference_cli

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def documented() -> list[tuple[str, int, str]]:
    """(page, line number, command) of each indented war-grader or `python -m reference` command."""
    found = []
    for page in PAGES:
        lines = page.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines, start=1):
            text = line[4:].lstrip("$ ") if line.startswith("    ") and not line.startswith("     ") else ""
            for going_on in lines[number:]:  # a synopsis's continuation lines, indented deeper
                if not going_on.startswith("     ") or not going_on.strip().startswith(("[", "-")):
                    break
                text += " " + going_on.strip()
            for command in text.split("&&"):
                command = command.strip()
                if command.startswith(("war-grader ", ".venv/bin/war-grader ", "python -m reference")):
                    found.append((page.relative_to(ROOT).as_posix(), number, command))
    return found


PLACEHOLDERS = {"N": "2", "K": "2", "J": "1", "S": "7", "M": "50", "SECONDS": "5", "LEVEL": "auto",
                "NAME": "cps506", "PRESET...": "cps506", "FILE": "settings.toml", "FILE.svg": "plot.svg",
                "PATH...": "class/", "OUT": "reports", "DEADLINE": "2026-12-01T23:59-05:00", "I/N": "1/2"}
"""A synopsis's placeholders, each replaced by a value its option accepts."""


def arguments(command: str) -> list[str]:
    """The command's arguments: its comment and redirections cut off; a synopsis's [optional] parts kept, each
    `a|b` choice as its first, each placeholder as a value."""
    command = command.split("  #", 1)[0]
    while re.search(r"\[[^\[\]]*\]", command):
        command = re.sub(r"\[([^\[\]]*)\]", lambda part: part.group(1).split(" | ")[0], command)
    command = re.split(r"\s[<>]\s?|\s\|\s", command, maxsplit=1)[0]
    words = [PLACEHOLDERS.get(word, word.split("|")[0]) for word in shlex.split(command)]
    return words[3:] if words[:3] == ["python", "-m", "reference"] else words[1:]


COMMANDS = documented()


def test_the_pages_show_commands_of_both_programs():
    """The collection itself works: both programs' commands are found, on the README and on docs pages"""
    pages = {page for page, _, _ in COMMANDS}
    assert "README.md" in pages and "docs/presets.md" in pages and "docs/grading.md" in pages
    assert any(command.startswith("python -m reference") for _, _, command in COMMANDS)
    assert len(COMMANDS) >= 25


@pytest.mark.parametrize("page,line,command", COMMANDS, ids=[f"{page}:{line}" for page, line, _ in COMMANDS])
def test_each_documented_command_parses(page, line, command):
    """The documented arguments are accepted by the program's own parser (nothing runs)"""
    words = arguments(command)
    if command.startswith("python -m reference"):
        parsers = {"cps506": reference_cli.build_cps506_parser, "skiena": reference_cli.build_skiena_parser,
                   "simulate": reference_cli.build_simulate_parser}
        if words and words[0] in parsers:
            parsers[words[0]]().parse_args(words[1:])
        else:
            reference_cli.build_parser().parse_args(words)
        return
    try:
        cli.build_parser().parse_args(words)
    except SystemExit as stop:
        pytest.fail(f"{page} line {line}: `{command}` does not parse (exit {stop.code})")
