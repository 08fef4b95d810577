"""FIFO queue for a player's hand and LIFO stack for a war pile."""

from __future__ import annotations

from typing import Generic, Iterator, TypeVar

T = TypeVar("T")


class Queue(Generic[T]):
    """First in, first out: a player's hand, played from the front, won cards added at the back."""

    def __init__(self) -> None:
        """Create an empty queue."""
        self.cards: list[T] = []  # the hand, front of the queue first

    def enqueue(self, item: T) -> None:
        """Add an item at the back in O(1)."""
        self.cards.append(item)

    def dequeue(self) -> T:
        """Remove and return the front item; IndexError if the queue is empty."""
        if not self.cards:
            raise IndexError("dequeue from an empty Queue")
        return self.cards.pop(0)  # the front is the start of the list (O(n), fine for 54 cards)

    def peek(self) -> T:
        """Return the front item without removing it; IndexError if the queue is empty."""
        if not self.cards:
            raise IndexError("peek at an empty Queue")
        return self.cards[0]

    def is_empty(self) -> bool:
        """True when the queue holds no item."""
        return len(self.cards) == 0

    def size(self) -> int:
        """How many items the queue holds."""
        return len(self.cards)

    def __len__(self) -> int:
        """How many items the queue holds."""
        return len(self.cards)

    def __iter__(self) -> Iterator[T]:
        """Iterate from front to back without removing anything."""
        return iter(self.cards)

    def __repr__(self) -> str:
        """Show the items front first."""
        return f"Queue({self.cards!r})"


class Stack(Generic[T]):
    """Last in, first out: a war pile, whose most recent card comes off first."""

    def __init__(self) -> None:
        """Create an empty stack."""
        self._data: list[T] = []  # top of the stack = end of the list

    def push(self, item: T) -> None:
        """Put an item on top in O(1)."""
        self._data.append(item)

    def pop(self) -> T:
        """Remove and return the top item in O(1); IndexError if the stack is empty."""
        if not self._data:
            raise IndexError("pop from an empty Stack")
        return self._data.pop()

    def peek(self) -> T:
        """Return the top item without removing it; IndexError if the stack is empty."""
        if not self._data:
            raise IndexError("peek at an empty Stack")
        return self._data[-1]

    def is_empty(self) -> bool:
        """True when the stack holds no item."""
        return len(self._data) == 0

    def size(self) -> int:
        """How many items the stack holds."""
        return len(self._data)

    def __len__(self) -> int:
        """How many items the stack holds."""
        return len(self._data)

    def __iter__(self) -> Iterator[T]:
        """Iterate from bottom to top without removing anything."""
        return iter(self._data)

    def __repr__(self) -> str:
        """Show the items bottom first."""
        return f"Stack({self._data!r})"
