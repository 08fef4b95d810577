"""FIFO queue for a player's hand and LIFO stack for a war pile."""

from __future__ import annotations

import collections
from typing import Generic, Iterator, TypeVar

T = TypeVar("T")


class Queue(Generic[T]):
    """First in, first out: a player's hand, played from the front, won cards added at the back."""

    def __init__(self) -> None:
        """Create an empty queue."""
        self._cards = collections.deque()

    def enqueue(self, item: T) -> None:
        """Add an item at the back in O(1)."""
        self._cards.append(item)

    def dequeue(self) -> T:
        """Remove and return the front item in O(1); IndexError if the queue is empty."""
        try:
            return self._cards.popleft()
        except IndexError:
            raise IndexError("dequeue from an empty Queue") from None

    def peek(self) -> T:
        """Return the front item without removing it; IndexError if the queue is empty."""
        try:
            return self._cards[0]
        except IndexError:
            raise IndexError("peek at an empty Queue") from None

    def is_empty(self) -> bool:
        """True when the queue holds no item."""
        return not self._cards

    def size(self) -> int:
        """How many items the queue holds."""
        return len(self._cards)

    __len__ = size

    def __iter__(self) -> Iterator[T]:
        """Iterate from front to back without removing anything."""
        yield from self._cards

    def __repr__(self) -> str:
        """Show the items front first."""
        return "Queue(%r)" % list(self._cards)


class Stack(Generic[T]):
    """Last in, first out: a war pile, whose most recent card comes off first."""

    def __init__(self) -> None:
        """Create an empty stack."""
        self._cards = []

    def push(self, item: T) -> None:
        """Put an item on top in O(1)."""
        self._cards.append(item)

    def pop(self) -> T:
        """Remove and return the top item in O(1); IndexError if the stack is empty."""
        try:
            return self._cards.pop()
        except IndexError:
            raise IndexError("pop from an empty Stack") from None

    def peek(self) -> T:
        """Return the top item without removing it; IndexError if the stack is empty."""
        try:
            return self._cards[-1]
        except IndexError:
            raise IndexError("peek at an empty Stack") from None

    def is_empty(self) -> bool:
        """True when the stack holds no item."""
        return not self._cards

    def size(self) -> int:
        """How many items the stack holds."""
        return len(self._cards)

    __len__ = size

    def __iter__(self) -> Iterator[T]:
        """Iterate from bottom to top without removing anything."""
        yield from self._cards

    def __repr__(self) -> str:
        """Show the items bottom first."""
        return "Stack(%r)" % self._cards
