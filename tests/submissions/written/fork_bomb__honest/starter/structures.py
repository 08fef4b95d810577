"""FIFO queue for a player's hand and LIFO stack for a war pile."""

from __future__ import annotations

from collections import deque
from typing import Generic, Iterator, TypeVar

T = TypeVar("T")


class Queue(Generic[T]):
    """First in, first out: a player's hand, played from the front, won cards added at the back."""

    def __init__(self) -> None:
        """Create an empty queue."""
        self.elements = deque()

    def enqueue(self, item: T) -> None:
        """Add an item at the back in O(1)."""
        self.elements.append(item)

    def dequeue(self) -> T:
        """Remove and return the front item in O(1); IndexError if the queue is empty."""
        if self.isEmpty():
            raise IndexError("Queue underflow")
        return self.elements.popleft()

    def peek(self) -> T:
        """Return the front item without removing it; IndexError if the queue is empty."""
        if self.isEmpty():
            raise IndexError("Queue underflow")
        return self.elements[0]

    def isEmpty(self) -> bool:
        return len(self.elements) == 0

    def is_empty(self) -> bool:
        """True when the queue holds no item."""
        return self.isEmpty()

    def size(self) -> int:
        """How many items the queue holds."""
        return len(self.elements)

    def __len__(self) -> int:
        """How many items the queue holds."""
        return self.size()

    def __iter__(self) -> Iterator[T]:
        """Iterate from front to back without removing anything."""
        return iter(self.elements)

    def __repr__(self) -> str:
        """Show the items front first."""
        return "Queue(" + str(list(self.elements)) + ")"


class Stack(Generic[T]):
    """Last in, first out: a war pile, whose most recent card comes off first."""

    def __init__(self) -> None:
        """Create an empty stack."""
        self.elements = []

    def push(self, item: T) -> None:
        """Put an item on top in O(1)."""
        self.elements.append(item)

    def pop(self) -> T:
        """Remove and return the top item in O(1); IndexError if the stack is empty."""
        if self.isEmpty():
            raise IndexError("Stack underflow")
        return self.elements.pop()

    def peek(self) -> T:
        """Return the top item without removing it; IndexError if the stack is empty."""
        if self.isEmpty():
            raise IndexError("Stack underflow")
        return self.elements[len(self.elements) - 1]

    def isEmpty(self) -> bool:
        return len(self.elements) == 0

    def is_empty(self) -> bool:
        """True when the stack holds no item."""
        return self.isEmpty()

    def size(self) -> int:
        """How many items the stack holds."""
        return len(self.elements)

    def __len__(self) -> int:
        """How many items the stack holds."""
        return self.size()

    def __iter__(self) -> Iterator[T]:
        """Iterate from bottom to top without removing anything."""
        return iter(self.elements)

    def __repr__(self) -> str:
        """Show the items bottom first."""
        return "Stack(" + str(self.elements) + ")"
