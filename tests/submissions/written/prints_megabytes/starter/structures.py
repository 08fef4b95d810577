"""FIFO queue for a player's hand and LIFO stack for a war pile."""

from __future__ import annotations

from collections import deque
from typing import Generic, Iterator, TypeVar

T = TypeVar("T")


class Queue(Generic[T]):
    """First in, first out: a player's hand, played from the front, won cards added at the back."""

    def __init__(self) -> None:
        """Create an empty queue."""
        self._cards = deque()

    def enqueue(self, item: T) -> None:
        """Add an item at the back in O(1)."""
        self._cards.append(item)

    def dequeue(self) -> T:
        """Remove and return the front item in O(1); IndexError if the queue is empty."""
        if not self._cards:
            raise IndexError("the queue is empty")
        return self._cards.popleft()

    def peek(self) -> T:
        """Return the front item without removing it; IndexError if the queue is empty."""
        if not self._cards:
            raise IndexError("the queue is empty")
        return self._cards[0]

    def is_empty(self) -> bool:
        """True when the queue holds no item."""
        return len(self._cards) == 0

    def size(self) -> int:
        """How many items the queue holds."""
        return len(self._cards)

    def __len__(self) -> int:
        """How many items the queue holds."""
        return len(self._cards)

    def __iter__(self) -> Iterator[T]:
        """Iterate from front to back without removing anything."""
        return iter(self._cards)

    def __repr__(self) -> str:
        """Show the items front first."""
        return f"Queue({list(self._cards)!r})"


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
        if not self._cards:
            raise IndexError("the stack is empty")
        return self._cards.pop()

    def peek(self) -> T:
        """Return the top item without removing it; IndexError if the stack is empty."""
        if not self._cards:
            raise IndexError("the stack is empty")
        return self._cards[-1]

    def is_empty(self) -> bool:
        """True when the stack holds no item."""
        return len(self._cards) == 0

    def size(self) -> int:
        """How many items the stack holds."""
        return len(self._cards)

    def __len__(self) -> int:
        """How many items the stack holds."""
        return len(self._cards)

    def __iter__(self) -> Iterator[T]:
        """Iterate from bottom to top without removing anything."""
        return iter(self._cards)

    def __repr__(self) -> str:
        """Show the items bottom first."""
        return f"Stack({self._cards!r})"
