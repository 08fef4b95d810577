"""FIFO queue for a player's hand and LIFO stack for a war pile.

You choose how each class stores its items (a list, collections.deque, linked nodes, ...); keep the
storage in the instance (set it up in __init__), never in the class, so two queues never share items.
"""

from __future__ import annotations

from typing import Generic, TypeVar

T = TypeVar("T")


class Queue(Generic[T]):
    """First in, first out: a player's hand, played from the front, won cards added at the back."""

    def __init__(self) -> None:
        """Create an empty queue."""
        # a python list plus the index of the front item, so dequeue doesn't shift the list (pop(0) is O(n))
        self.items = []
        self.front = 0

    def enqueue(self, item: T) -> None:
        """Add an item at the back in O(1)."""
        self.items.append(item)

    def dequeue(self) -> T:
        """Remove and return the front item in O(1); IndexError if the queue is empty."""
        if self.is_empty():
            raise IndexError("dequeue from empty queue")
        item = self.items[self.front]
        self.items[self.front] = None  # let it be garbage collected
        self.front += 1
        # once half the list is dead space, throw it away (amortised O(1))
        if self.front > 16 and self.front * 2 > len(self.items):
            self.items = self.items[self.front:]
            self.front = 0
        return item

    def peek(self) -> T:
        """Return the front item without removing it; IndexError if the queue is empty."""
        if self.is_empty():
            raise IndexError("peek at empty queue")
        return self.items[self.front]

    def is_empty(self) -> bool:
        """True when the queue holds no item."""
        return self.size() == 0

    def size(self) -> int:
        """How many items the queue holds."""
        return len(self.items) - self.front

    def __len__(self) -> int:
        """How many items the queue holds."""
        return self.size()


class Stack(Generic[T]):
    """Last in, first out: a war pile, whose most recent card comes off first."""

    def __init__(self) -> None:
        """Create an empty stack."""
        self.items = []  # top of the stack = end of the list

    def push(self, item: T) -> None:
        """Put an item on top in O(1)."""
        self.items.append(item)

    def pop(self) -> T:
        """Remove and return the top item in O(1); IndexError if the stack is empty."""
        if not self.items:
            raise IndexError("pop from empty stack")
        return self.items.pop()

    def peek(self) -> T:
        """Return the top item without removing it; IndexError if the stack is empty."""
        if not self.items:
            raise IndexError("peek at empty stack")
        return self.items[-1]

    def is_empty(self) -> bool:
        """True when the stack holds no item."""
        return len(self.items) == 0

    def size(self) -> int:
        """How many items the stack holds."""
        return len(self.items)

    def __len__(self) -> int:
        """How many items the stack holds."""
        return len(self.items)
