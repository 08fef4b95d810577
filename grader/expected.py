"""What the reference does with the same inputs the hidden tests give the student: the expected side."""

from __future__ import annotations

import functools
from typing import Any

import reference

from .harness import RoundOutcome
from .worker import game_digest


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


def replay(decks: list[list[str]], max_rounds: int, detail: bool = False) -> list[dict[str, Any]]:
    """Each deck played by the reference exactly as the worker plays the student's (see worker.op_replay)."""
    games = []
    for deck in decks:
        p1, p2 = _queue(deck[0::2]), _queue(deck[1::2])
        sizes: list[list[int]] = []
        kinds: list[str] = []
        snapshots: list[list[list[str]]] = []
        for _ in range(max_rounds):
            if p1.is_empty() or p2.is_empty():
                break
            outcome = reference.play_round(p1, p2)
            kind = "round"
            if isinstance(outcome, tuple):
                kind = "war"
                outcome = reference.resolve_war(p1, p2, outcome[1], outcome[2])
            sizes.append([p1.size(), p2.size()])
            kinds.append(kind)
            if detail:
                snapshots.append([list(p1), list(p2)])
            if outcome == "draw":
                break
        final = [list(p1), list(p2)]
        games.append({"digest": game_digest(sizes, final), "rounds": len(sizes), "sizes": sizes, "kinds": kinds,
                      "final": final, "snapshots": snapshots, "raised": None})
    return games


def fixed_decks(count: int, first_seed: int = 1000) -> list[list[str]]:
    """count shuffled 54-card decks from fixed seeds: the same for every student and every run."""
    return [reference.shuffle(reference.make_deck(), seed) for seed in range(first_seed, first_seed + count)]


DIFFERENTIAL_DEALS = 200
"""How many fixed deals the differential test plays."""

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
