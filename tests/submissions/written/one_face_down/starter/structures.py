"""FIFO queue for a player's hand and LIFO stack for a war pile.

The Queue is made of two stacks (lists): new items go on `_inbox`; `dequeue` takes from `_outbox`, and
only when `_outbox` is empty is `_inbox` poured into it (reversed). Every item is moved at most twice,
so enqueue and dequeue are O(1) amortised.
"""

from __future__ import annotations

from typing import Generic, TypeVar

T = TypeVar("T")


class Queue(Generic[T]):
    """First in, first out: a player's hand, played from the front, won cards added at the back."""

    def __init__(self) -> None:
        """Create an empty queue."""
        self._inbox: list = []
        self._outbox: list = []

    def _refill(self) -> None:
        if not self._outbox:
            while self._inbox:
                self._outbox.append(self._inbox.pop())

    def enqueue(self, item: T) -> None:
        """Add an item at the back in O(1)."""
        self._inbox.append(item)

    def dequeue(self) -> T:
        """Remove and return the front item in O(1); IndexError if the queue is empty."""
        self._refill()
        if not self._outbox:
            raise IndexError("dequeue from an empty queue")
        return self._outbox.pop()

    def peek(self) -> T:
        """Return the front item without removing it; IndexError if the queue is empty."""
        self._refill()
        if not self._outbox:
            raise IndexError("peek into an empty queue")
        return self._outbox[-1]

    def is_empty(self) -> bool:
        """True when the queue holds no item."""
        return not self._inbox and not self._outbox

    def size(self) -> int:
        """How many items the queue holds."""
        return len(self._inbox) + len(self._outbox)

    def __len__(self) -> int:
        """How many items the queue holds."""
        return self.size()


class Stack(Generic[T]):
    """Last in, first out: a war pile, whose most recent card comes off first."""

    def __init__(self) -> None:
        """Create an empty stack."""
        self._items: list = []

    def push(self, item: T) -> None:
        """Put an item on top in O(1)."""
        self._items.append(item)

    def pop(self) -> T:
        """Remove and return the top item in O(1); IndexError if the stack is empty."""
        if not self._items:
            raise IndexError("pop from an empty stack")
        return self._items.pop()

    def peek(self) -> T:
        """Return the top item without removing it; IndexError if the stack is empty."""
        if not self._items:
            raise IndexError("peek into an empty stack")
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
