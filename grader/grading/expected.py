"""What the reference does with the same inputs the hidden tests give the student: the expected side."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import reference

from ..sandbox import worker
from .harness import RoundOutcome


def _queue(cards: list[str]) -> reference.Queue[str]:
    queue: reference.Queue[str] = reference.Queue()
    for card in cards:
        queue.enqueue(card)
    return queue


def _rules(spec: dict[str, Any] | None) -> reference.Rules:
    return reference.Rules(**spec) if spec else reference.DEFAULT_RULES


def play_round(p1: list[str], p2: list[str], rules: dict[str, Any] | None = None) -> RoundOutcome:
    """The reference's play_round on the same queues."""
    q1, q2 = _queue(p1), _queue(p2)
    result = reference.play_round(q1, q2, _rules(rules))
    return RoundOutcome(result, list(q1), list(q2))


def resolve_war(p1: list[str], p2: list[str], c1: str, c2: str, rules: dict[str, Any] | None = None) -> RoundOutcome:
    """The reference's resolve_war on the same queues."""
    q1, q2 = _queue(p1), _queue(p2)
    result = reference.resolve_war(q1, q2, c1, c2, _rules(rules))
    return RoundOutcome(result, list(q1), list(q2))


@functools.lru_cache(maxsize=1)
def _reference_session() -> worker.Session:
    """The worker's own operations, run in this process on the reference (trusted code)."""
    return worker.Session(str(Path(str(reference.__file__)).parent.parent), "reference")


def replay(decks: list[list[str]], max_rounds: int, detail: bool = False) -> list[dict[str, Any]]:
    """Each deck played by the reference through the very loop the worker plays the student's with."""
    return _reference_session().op_replay(decks, max_rounds, detail)


def fixed_decks(count: int, first_seed: int = 1000) -> list[list[str]]:
    """count shuffled 54-card decks from fixed seeds: the same for every student and every run."""
    return [reference.shuffle(reference.make_deck(), seed) for seed in range(first_seed, first_seed + count)]


COUNTER_SEEDS = (2253, 2364)
"""Seeds of the decks the extension counters (wars, longest_war_chain, history) are observed on:
make_deck(jokers=False) shuffled with each, so a Joker that is wrong or missing is charged in Joker dominance
alone and the counters are still seen. With the reference: seed 2253, 68 rounds, 3 wars, the longest chain 3;
2364, 240 rounds, 14 wars, the longest chain 2. In neither game is a player ever short in a war, so a bug of
Exhaustion leaves them alone (tests/grading/test_differential_deals.py checks all of it)."""


def counter_decks() -> dict[int, list[str]]:
    """The extension counters' 52-card decks without Jokers, by seed: the same for every student and every run."""
    return {seed: reference.shuffle(reference.make_deck(jokers=False), seed) for seed in COUNTER_SEEDS}


DIFFERENTIAL_DEALS = 40
"""How many fixed deals the differential test plays: between them they hold every situation the handout's
rules name (wars of one, two and three cycles, a Joker tie, a player short in a war, a game reaching the
round limit; tests/grading/test_differential_deals.py checks it). 200 deals caught no chaff and no corpus
submission that these 40 miss, at five times the cost."""

DIFFERENTIAL_ROUNDS = 1000
"""Round limit of each of those deals."""


@functools.lru_cache(maxsize=1)
def differential() -> tuple[list[list[str]], list[dict[str, Any]]]:
    """The differential test's decks and the reference's replay of them, computed once per process."""
    decks = fixed_decks(DIFFERENTIAL_DEALS)
    return decks, replay(decks, DIFFERENTIAL_ROUNDS)


def warm() -> None:
    """Compute the shared expectations now (before forking runs that inherit them)."""
    differential()
