"""The worked examples of ASSIGNMENT.md, run as written: the handout and the tests cannot drift apart.

Each fenced block whose info string is `war-example` holds `key: value` lines (a `#` starts a comment):
`rules: Rules(...)`, `P1 before:` / `P2 before:` (queues front first), `play_round:` (its return value as a
Python literal), `resolve_war:` (only when play_round returns a war) and `P1 after:` / `P2 after:`
(`(empty)` for an empty queue).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from .helpers import cards, drain, plain, queue_from

ROOT = Path(__file__).resolve().parents[2]
HANDOUT = next(
    (path for path in [ROOT / "starter" / "ASSIGNMENT.md", *sorted(ROOT.glob("*/ASSIGNMENT.md"))] if path.is_file()),
    ROOT / "starter" / "ASSIGNMENT.md",
)
"""The handout, beside the starter package it describes (or beside a renamed copy of that package)."""

BLOCK = re.compile(r"^```war-example[ \t]*\n(.*?)^```", re.MULTILINE | re.DOTALL)
KEYS = ("rules", "P1 before", "P2 before", "play_round", "resolve_war", "P1 after", "P2 after")


def parse_examples(text: str) -> list[dict[str, str]]:
    """Every war-example block of the markdown text, as a dict of its keys plus "heading" (the heading above it,
    made unique) and "line" (where the block starts)."""
    examples = []
    headings: list[str] = []
    for match in BLOCK.finditer(text):
        before = text[: match.start()]
        heading = next(
            (line.lstrip("#").strip() for line in reversed(before.splitlines()) if re.match(r"#+ ", line)),
            "before any heading",
        )
        headings.append(heading)
        example: dict[str, str] = {}
        for line in match.group(1).splitlines():
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            key, sep, value = line.partition(":")
            assert sep and key.strip() in KEYS and key.strip() not in example, f"bad example line: {line!r}"
            example[key.strip()] = value.strip()
        missing = set(KEYS) - {"resolve_war"} - set(example)
        assert not missing, f"example without {sorted(missing)}: {match.group(1)!r}"
        repeats = headings.count(heading)
        example["heading"] = heading if repeats == 1 else f"{heading} ({repeats})"
        example["line"] = str(before.count("\n") + 1)
        examples.append(example)
    return examples


def queue_cards(text: str) -> list[str]:
    """A queue as the examples write it: cards front first, or "(empty)"."""
    return [] if text == "(empty)" else cards(text)


def make_rules(impl, text: str):
    """impl.Rules built from a call written as `Rules(name=literal, ...)`."""
    call = ast.parse(text, mode="eval").body
    assert isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "Rules"
    assert not call.args, "write Rules(...) with keyword arguments only"
    return impl.Rules(**{keyword.arg: ast.literal_eval(keyword.value) for keyword in call.keywords})


EXAMPLES = parse_examples(HANDOUT.read_text(encoding="utf-8")) if HANDOUT.is_file() else []


@pytest.mark.parametrize(
    "example",
    EXAMPLES or [None],
    ids=[example["heading"] for example in EXAMPLES] or ["no-example"],
)
def test_a_worked_example_of_the_handout_plays_as_shown(impl, example):
    """play_round, then resolve_war on a tie, leave exactly the queues ASSIGNMENT.md shows."""
    assert example is not None, f"no war-example block found in {HANDOUT}"
    where = f"the example \"{example['heading']}\" ({HANDOUT.name}, line {example['line']})"
    rules = make_rules(impl, example["rules"])
    p1 = queue_from(impl, queue_cards(example["P1 before"]))
    p2 = queue_from(impl, queue_cards(example["P2 before"]))
    round_shown = ast.literal_eval(example["play_round"])
    outcome = plain(impl.play_round(p1, p2))
    assert outcome == round_shown, f"play_round in {where}"
    if type(outcome) is tuple:
        war_shown = ast.literal_eval(example["resolve_war"])
        assert plain(impl.resolve_war(p1, p2, outcome[1], outcome[2], rules)) == war_shown, f"resolve_war in {where}"
    else:
        assert "resolve_war" not in example, "resolve_war is only shown after a war"
    assert drain(p1) == queue_cards(example["P1 after"]), f"P1's queue after {where}"
    assert drain(p2) == queue_cards(example["P2 after"]), f"P2's queue after {where}"
