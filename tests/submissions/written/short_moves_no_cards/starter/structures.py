"""FIFO queue for a player's hand and LIFO stack for a war pile.

Queue = circular buffer in a python list (grows by doubling when full).
Stack = python list, top at the end.
"""

from __future__ import annotations

from typing import Generic, TypeVar

T = TypeVar("T")


class Queue(Generic[T]):
    """First in, first out: a player's hand, played from the front, won cards added at the back."""

    def __init__(self) -> None:
        """Create an empty queue."""
        self.buf = [None] * 8
        self.head = 0   # index of the front item
        self.count = 0  # number of items stored

    def enqueue(self, item: T) -> None:
        """Add an item at the back in O(1)."""
        if self.count == len(self.buf):
            # full: copy everything into a list twice as big, front item at index 0
            bigger = [None] * (2 * len(self.buf))
            i = 0
            while i < self.count:
                bigger[i] = self.buf[(self.head + i) % len(self.buf)]
                i += 1
            self.buf = bigger
            self.head = 0
        self.buf[(self.head + self.count) % len(self.buf)] = item
        self.count += 1

    def dequeue(self) -> T:
        """Remove and return the front item in O(1); IndexError if the queue is empty."""
        if self.count == 0:
            raise IndexError("dequeue from empty queue")
        item = self.buf[self.head]
        self.buf[self.head] = None
        self.head = (self.head + 1) % len(self.buf)
        self.count -= 1
        return item

    def peek(self) -> T:
        """Return the front item without removing it; IndexError if the queue is empty."""
        if self.count == 0:
            raise IndexError("peek on empty queue")
        return self.buf[self.head]

    def is_empty(self) -> bool:
        """True when the queue holds no item."""
        return self.count == 0

    def size(self) -> int:
        """How many items the queue holds."""
        return self.count

    def __len__(self) -> int:
        """How many items the queue holds."""
        return self.count


class Stack(Generic[T]):
    """Last in, first out: a war pile, whose most recent card comes off first."""

    def __init__(self) -> None:
        """Create an empty stack."""
        self.data = []

    def push(self, item: T) -> None:
        """Put an item on top in O(1)."""
        self.data.append(item)

    def pop(self) -> T:
        """Remove and return the top item in O(1); IndexError if the stack is empty."""
        if len(self.data) == 0:
            raise IndexError("pop from empty stack")
        return self.data.pop()

    def peek(self) -> T:
        """Return the top item without removing it; IndexError if the stack is empty."""
        if len(self.data) == 0:
            raise IndexError("peek on empty stack")
        return self.data[len(self.data) - 1]

    def is_empty(self) -> bool:
        """True when the stack holds no item."""
        return len(self.data) == 0

    def size(self) -> int:
        """How many items the stack holds."""
        return len(self.data)

    def __len__(self) -> int:
        """How many items the stack holds."""
        return len(self.data)
