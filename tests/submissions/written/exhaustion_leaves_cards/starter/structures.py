"""FIFO queue for a player's hand and LIFO stack for a war pile."""

from __future__ import annotations

from typing import Generic, Iterator, TypeVar

T = TypeVar("T")


class Queue(Generic[T]):
    """First in, first out: a player's hand, played from the front, won cards added at the back."""

    def __init__(self) -> None:
        """Create an empty queue."""
        self.items = []
        self.head = 0  # index of the front card

    def enqueue(self, item: T) -> None:
        """Add an item at the back in O(1)."""
        self.items.append(item)

    def dequeue(self) -> T:
        """Remove and return the front item in O(1); IndexError if the queue is empty."""
        if self.is_empty():
            raise IndexError("dequeue from empty queue")
        item = self.items[self.head]
        self.head += 1
        if self.head == len(self.items):  # everything taken, start over
            self.items = []
            self.head = 0
        return item

    def peek(self) -> T:
        """Return the front item without removing it; IndexError if the queue is empty."""
        if self.is_empty():
            raise IndexError("peek at empty queue")
        return self.items[self.head]

    def is_empty(self) -> bool:
        """True when the queue holds no item."""
        return self.head == len(self.items)

    def size(self) -> int:
        """How many items the queue holds."""
        return len(self.items) - self.head

    def __len__(self) -> int:
        """How many items the queue holds."""
        return len(self.items) - self.head

    def __iter__(self) -> Iterator[T]:
        """Iterate from front to back without removing anything."""
        return iter(self.items[self.head:])

    def __repr__(self) -> str:
        """Show the items front first."""
        return "Queue(" + repr(self.items[self.head:]) + ")"


class Stack(Generic[T]):
    """Last in, first out: a war pile, whose most recent card comes off first."""

    def __init__(self) -> None:
        """Create an empty stack."""
        self.items = []

    def push(self, item: T) -> None:
        """Put an item on top in O(1)."""
        self.items.append(item)

    def pop(self) -> T:
        """Remove and return the top item in O(1); IndexError if the stack is empty."""
        if len(self.items) == 0:
            raise IndexError("pop from empty stack")
        return self.items.pop()

    def peek(self) -> T:
        """Return the top item without removing it; IndexError if the stack is empty."""
        if len(self.items) == 0:
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

    def __iter__(self) -> Iterator[T]:
        """Iterate from bottom to top without removing anything."""
        return iter(self.items)

    def __repr__(self) -> str:
        """Show the items bottom first."""
        return "Stack(" + repr(self.items) + ")"
