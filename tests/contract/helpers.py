"""Building queues from card lists and reading them back, through the implementation's own methods only.

Results are read as plain lists of str, so an assertion never relies on an implementation's own == or repr.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

DRAIN_LIMIT = 10_000
"""More dequeues than any test queue holds: a queue still not empty after this many never will be."""


def queue_from(impl: ModuleType, cards: list[str] | str) -> Any:
    """A new impl.Queue holding cards, front first; a string is split on spaces ("7 2 K" is ["7", "2", "K"])."""
    queue = impl.Queue()
    for card in cards.split() if isinstance(cards, str) else cards:
        queue.enqueue(card)
    return queue


def drain(queue: Any) -> list[str]:
    """Dequeue until the queue is empty and return the cards front first, checking each is a plain str."""
    cards: list[str] = []
    while not queue.is_empty():
        assert len(cards) < DRAIN_LIMIT, "the queue never becomes empty"
        card = queue.dequeue()
        assert type(card) is str, f"a queue gave back {card!r} of type {type(card).__name__}, not a str"
        cards.append(card)
    return cards


def cards(text: str) -> list[str]:
    """Split "7 2 K" into ["7", "2", "K"]: how the tests write a queue's cards, front first."""
    return text.split()


def plain(outcome: Any) -> str | tuple[str, ...]:
    """Check an outcome is a plain str or a plain tuple of plain str, and return it for comparison."""
    if type(outcome) is str:
        return outcome
    assert type(outcome) is tuple, f"expected a str or a tuple, got {outcome!r} of type {type(outcome).__name__}"
    for part in outcome:
        assert type(part) is str, f"{outcome!r} holds {part!r} of type {type(part).__name__}, not a str"
    return outcome
