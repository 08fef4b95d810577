"""Rule variants for instructors: presets, building Rules from options, and the deck, deal and card order they imply."""

from __future__ import annotations

import random
from dataclasses import asdict, fields, replace
from typing import Any

from .game import GameResult, _deal, _new_deck, _play, _strength, _values
from .rules import DEFAULT_RULES, PRESETS, Rules
from .structures import Queue


def preset(name: str) -> Rules:
    """The named rule set ("handout", "cps506", "skiena" or "dsl"); ValueError naming the choices otherwise."""
    if name not in PRESETS:
        raise ValueError(f"unknown preset {name!r} (choose one of {', '.join(PRESETS)})")
    return PRESETS[name]


def rules_from(base: str = "handout", **overrides: Any) -> Rules:
    """The preset `base` with every override that is not None put in its place; ValueError for a bad value."""
    changes = {name: value for name, value in overrides.items() if value is not None}
    unknown = sorted(set(changes) - {field.name for field in fields(Rules)})
    if unknown:
        raise ValueError(f"Rules has no field {unknown[0]!r}")
    rules = preset(base)
    if "deck" in changes and "high_card" not in changes:
        changes["high_card"] = None  # a new deck brings its own usual high card
    return replace(rules, **changes)


def describe(rules: Rules, base: str = "handout") -> str:
    """A short name for the rules: a preset's name, else the base preset and the fields that differ from it."""
    for name, known in PRESETS.items():
        if rules == known:
            return name
    reference = preset(base)
    changed = [
        f"{field.name}={getattr(rules, field.name)}"
        for field in fields(Rules)
        if getattr(rules, field.name) != getattr(reference, field.name)
    ]
    return f"{base} + " + ", ".join(changed)


def to_plain(rules: Rules) -> dict[str, Any]:
    """The rules as a plain dict of strings and numbers, to cross a process boundary or go into JSON."""
    return asdict(rules)


def from_plain(values: dict[str, Any]) -> Rules:
    """The rules from to_plain's dict, checked again."""
    return Rules(**values)


def build_deck(rules: Rules = DEFAULT_RULES) -> list[str]:
    """A new unshuffled deck of the cards the rules play with."""
    return _new_deck(rules)


def deal_cards(deck: list[str], rules: Rules = DEFAULT_RULES) -> tuple[Queue[str], Queue[str]]:
    """Deal the deck into P1's and P2's queues (front = the card played first) the way the rules deal."""
    return _deal(list(deck), rules)


def strength(card: str, rules: Rules = DEFAULT_RULES) -> int:
    """The card's strength under the rules (1 for the weakest rank, more beats less); ValueError for a non-card."""
    return _strength(card, _values(rules))


def play_dealt(
    p1: Queue[str],
    p2: Queue[str],
    rules: Rules = DEFAULT_RULES,
    max_rounds: int = 1000,
    seed: int | None = None,
) -> GameResult:
    """Play already dealt queues as play_game would, leaving the final cards in them for inspection."""
    return _play(p1, p2, rules, max_rounds, random.Random(seed))
