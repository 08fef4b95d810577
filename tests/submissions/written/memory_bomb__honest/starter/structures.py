"""FIFO queue for a player's hand and LIFO stack for a war pile."""

from __future__ import annotations

from collections import deque
from typing import Generic, Iterator, TypeVar

T = TypeVar("T")


class Queue(Generic[T]):
    """First in, first out: a player's hand, played from the front, won hand added at the back."""

    def __init__(self) -> None:
        """Create an empty queue."""
        self.hand = deque()

    def enqueue(self, item: T) -> None:
        """Add an item at the back in O(1)."""
        self.hand.append(item)

    def dequeue(self) -> T:
        """Remove and return the front item in O(1); IndexError if the queue is empty."""
        if not self.hand:
            raise IndexError("the queue is empty")
        return self.hand.popleft()

    def peek(self) -> T:
        """Return the front item without removing it; IndexError if the queue is empty."""
        if not self.hand:
            raise IndexError("the queue is empty")
        return self.hand[0]

    def is_empty(self) -> bool:
        """True when the queue holds no item."""
        return len(self.hand) == 0

    def size(self) -> int:
        """How many items the queue holds."""
        return len(self.hand)

    def __len__(self) -> int:
        """How many items the queue holds."""
        return len(self.hand)

    def __iter__(self) -> Iterator[T]:
        """Iterate from front to back without removing anything."""
        return iter(self.hand)

    def __repr__(self) -> str:
        """Show the items front first."""
        return f"Queue({list(self.hand)!r})"


class Stack(Generic[T]):
    """Last in, first out: a war pile, whose most recent card comes off first."""

    def __init__(self) -> None:
        """Create an empty stack."""
        self.hand = []

    def push(self, item: T) -> None:
        """Put an item on top in O(1)."""
        self.hand.append(item)

    def pop(self) -> T:
        """Remove and return the top item in O(1); IndexError if the stack is empty."""
        if not self.hand:
            raise IndexError("the stack is empty")
        return self.hand.pop()

    def peek(self) -> T:
        """Return the top item without removing it; IndexError if the stack is empty."""
        if not self.hand:
            raise IndexError("the stack is empty")
        return self.hand[-1]

    def is_empty(self) -> bool:
        """True when the stack holds no item."""
        return len(self.hand) == 0

    def size(self) -> int:
        """How many items the stack holds."""
        return len(self.hand)

    def __len__(self) -> int:
        """How many items the stack holds."""
        return len(self.hand)

    def __iter__(self) -> Iterator[T]:
        """Iterate from bottom to top without removing anything."""
        return iter(self.hand)

    def __repr__(self) -> str:
        """Show the items bottom first."""
        return f"Stack({self.hand!r})"
