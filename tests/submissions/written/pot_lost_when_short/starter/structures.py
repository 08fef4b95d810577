"""FIFO queue for a player's hand and LIFO stack for a war pile.

Both are built on collections.deque, which adds and removes at either end in O(1).
"""

from __future__ import annotations

from collections import deque
from typing import Generic, TypeVar

T = TypeVar("T")


class Queue(Generic[T]):
    """First in, first out: a player's hand, played from the front, won cards added at the back."""

    def __init__(self) -> None:
        """Create an empty queue."""
        self._items: deque = deque()

    def enqueue(self, item: T) -> None:
        """Add an item at the back in O(1)."""
        self._items.append(item)

    def dequeue(self) -> T:
        """Remove and return the front item in O(1); IndexError if the queue is empty."""
        if not self._items:
            raise IndexError("dequeue from an empty Queue")
        return self._items.popleft()

    def peek(self) -> T:
        """Return the front item without removing it; IndexError if the queue is empty."""
        if not self._items:
            raise IndexError("peek at an empty Queue")
        return self._items[0]

    def is_empty(self) -> bool:
        """True when the queue holds no item."""
        return not self._items

    def size(self) -> int:
        """How many items the queue holds."""
        return len(self._items)

    def __len__(self) -> int:
        """How many items the queue holds."""
        return len(self._items)

    def __repr__(self) -> str:
        return f"Queue({list(self._items)})"


class Stack(Generic[T]):
    """Last in, first out: a war pile, whose most recent card comes off first."""

    def __init__(self) -> None:
        """Create an empty stack."""
        self._items: deque = deque()

    def push(self, item: T) -> None:
        """Put an item on top in O(1)."""
        self._items.append(item)

    def pop(self) -> T:
        """Remove and return the top item in O(1); IndexError if the stack is empty."""
        if not self._items:
            raise IndexError("pop from an empty Stack")
        return self._items.pop()

    def peek(self) -> T:
        """Return the top item without removing it; IndexError if the stack is empty."""
        if not self._items:
            raise IndexError("peek at an empty Stack")
        return self._items[-1]

    def is_empty(self) -> bool:
        """True when the stack holds no item."""
        return not self._items

    def size(self) -> int:
        """How many items the stack holds."""
        return len(self._items)

    def __len__(self) -> int:
        """How many items the stack holds."""
        return len(self._items)

    def __repr__(self) -> str:
        return f"Stack({list(self._items)})"
