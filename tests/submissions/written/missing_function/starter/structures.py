"""FIFO queue for a player's hand and LIFO stack for a war pile."""

from __future__ import annotations

from collections import deque
from typing import Generic, Iterator, TypeVar

T = TypeVar("T")


class Queue(Generic[T]):
    """First in, first out: a player's hand, played from the front, won cards added at the back."""

    def __init__(self) -> None:
        """Create an empty queue."""
        self._d = deque()

    def enqueue(self, item: T) -> None:
        """Add an item at the back in O(1)."""
        self._d.append(item)

    def dequeue(self) -> T:
        """Remove and return the front item in O(1); IndexError if the queue is empty."""
        if not self._d:
            raise IndexError("dequeue from an empty Queue")
        return self._d.popleft()

    def peek(self) -> T:
        """Return the front item without removing it; IndexError if the queue is empty."""
        if not self._d:
            raise IndexError("peek at an empty Queue")
        return self._d[0]

    def is_empty(self) -> bool:
        """True when the queue holds no item."""
        return not self._d

    def size(self) -> int:
        """How many items the queue holds."""
        return len(self._d)

    def __len__(self) -> int:
        """How many items the queue holds."""
        return len(self._d)

    def __iter__(self) -> Iterator[T]:
        """Iterate from front to back without removing anything."""
        return iter(self._d)

    def __repr__(self) -> str:
        """Show the items front first."""
        return f"Queue({list(self._d)!r})"


class Stack(Generic[T]):
    """Last in, first out: a war pile, whose most recent card comes off first."""

    def __init__(self) -> None:
        """Create an empty stack."""
        self._l = []

    def push(self, item: T) -> None:
        """Put an item on top in O(1)."""
        self._l.append(item)

    def pop(self) -> T:
        """Remove and return the top item in O(1); IndexError if the stack is empty."""
        if not self._l:
            raise IndexError("pop from an empty Stack")
        return self._l.pop()

    def peek(self) -> T:
        """Return the top item without removing it; IndexError if the stack is empty."""
        if not self._l:
            raise IndexError("peek at an empty Stack")
        return self._l[-1]

    def is_empty(self) -> bool:
        """True when the stack holds no item."""
        return not self._l

    def size(self) -> int:
        """How many items the stack holds."""
        return len(self._l)

    def __len__(self) -> int:
        """How many items the stack holds."""
        return len(self._l)

    def __iter__(self) -> Iterator[T]:
        """Iterate from bottom to top without removing anything."""
        return iter(self._l)

    def __repr__(self) -> str:
        """Show the items bottom first."""
        return f"Stack({self._l!r})"
