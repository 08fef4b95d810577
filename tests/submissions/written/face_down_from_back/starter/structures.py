"""FIFO queue for a player's hand and LIFO stack for a war pile.

Queue keeps its items in a dict keyed by position: `_front` is the key of the first item, `_back` the key
the next enqueued item gets. Both only ever go up, so enqueue and dequeue are O(1) and nothing shifts.
"""

from __future__ import annotations

from typing import Generic, TypeVar

T = TypeVar("T")


class Queue(Generic[T]):
    """First in, first out: a player's hand, played from the front, won cards added at the back."""

    def __init__(self) -> None:
        """Create an empty queue."""
        self._slots: dict[int, T] = {}
        self._front = 0
        self._back = 0

    def enqueue(self, item: T) -> None:
        """Add an item at the back in O(1)."""
        self._slots[self._back] = item
        self._back += 1

    def dequeue(self) -> T:
        """Remove and return the front item in O(1); IndexError if the queue is empty."""
        if self._front == self._back:
            raise IndexError("cannot dequeue: the queue is empty")
        item = self._slots.pop(self._front)
        self._front += 1
        return item

    def peek(self) -> T:
        """Return the front item without removing it; IndexError if the queue is empty."""
        if self._front == self._back:
            raise IndexError("cannot peek: the queue is empty")
        return self._slots[self._front]

    def is_empty(self) -> bool:
        """True when the queue holds no item."""
        return self._front == self._back

    def size(self) -> int:
        """How many items the queue holds."""
        return self._back - self._front

    def __len__(self) -> int:
        """How many items the queue holds."""
        return self._back - self._front


class Stack(Generic[T]):
    """Last in, first out: a war pile, whose most recent card comes off first."""

    def __init__(self) -> None:
        """Create an empty stack."""
        self._cards: list[T] = []

    def push(self, item: T) -> None:
        """Put an item on top in O(1)."""
        self._cards.append(item)

    def pop(self) -> T:
        """Remove and return the top item in O(1); IndexError if the stack is empty."""
        if len(self._cards) == 0:
            raise IndexError("cannot pop: the stack is empty")
        return self._cards.pop()

    def peek(self) -> T:
        """Return the top item without removing it; IndexError if the stack is empty."""
        if len(self._cards) == 0:
            raise IndexError("cannot peek: the stack is empty")
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
