"""FIFO queue for a player's hand and LIFO stack for a war pile."""

from __future__ import annotations

from typing import Generic, Iterator, TypeVar

T = TypeVar("T")


class Queue(Generic[T]):
    """First in, first out: a player's hand, played from the front, won cards added at the back."""

    def __init__(self) -> None:
        """Create an empty queue."""
        self.stuff = []

    def enqueue(self, item: T) -> None:
        """Add an item at the back in O(1)."""
        self.stuff.append(item)

    def dequeue(self) -> T:
        """Remove and return the front item in O(1); IndexError if the queue is empty."""
        if len(self.stuff) == 0:
            raise IndexError("dequeue from empty queue")
        return self.stuff.pop(0)

    def peek(self) -> T:
        """Return the front item without removing it; IndexError if the queue is empty."""
        if len(self.stuff) == 0:
            raise IndexError("peek at empty queue")
        return self.stuff[0]

    def is_empty(self) -> bool:
        """True when the queue holds no item."""
        return len(self.stuff) == 0

    def size(self) -> int:
        """How many stuff the queue holds."""
        return len(self.stuff)

    def __len__(self) -> int:
        """How many stuff the queue holds."""
        return len(self.stuff)

    def __iter__(self) -> Iterator[T]:
        """Iterate from front to back without removing anything."""
        return iter(self.stuff)

    def __repr__(self) -> str:
        """Show the stuff front first."""
        return "Queue(" + repr(self.stuff) + ")"


class Stack(Generic[T]):
    """Last in, first out: a war pile, whose most recent card comes off first."""

    def __init__(self) -> None:
        """Create an empty stack."""
        self.stuff = []

    def push(self, item: T) -> None:
        """Put an item on top in O(1)."""
        self.stuff.append(item)

    def pop(self) -> T:
        """Remove and return the top item in O(1); IndexError if the stack is empty."""
        if len(self.stuff) == 0:
            raise IndexError("pop from empty stack")
        return self.stuff.pop()

    def peek(self) -> T:
        """Return the top item without removing it; IndexError if the stack is empty."""
        if len(self.stuff) == 0:
            raise IndexError("peek at empty stack")
        return self.stuff[-1]

    def is_empty(self) -> bool:
        """True when the stack holds no item."""
        return len(self.stuff) == 0

    def size(self) -> int:
        """How many stuff the stack holds."""
        return len(self.stuff)

    def __len__(self) -> int:
        """How many stuff the stack holds."""
        return len(self.stuff)

    def __iter__(self) -> Iterator[T]:
        """Iterate from bottom to top without removing anything."""
        return iter(self.stuff)

    def __repr__(self) -> str:
        """Show the stuff bottom first."""
        return "Stack(" + repr(self.stuff) + ")"
