"""FIFO queue for a player's hand and LIFO stack for a war pile."""

from __future__ import annotations

from typing import Generic, Iterator, Optional, TypeVar

T = TypeVar("T")


class _Link(Generic[T]):
    """One link of the queue's chain."""

    __slots__ = ("value", "next")

    def __init__(self, value: T) -> None:
        self.value = value
        self.next: Optional[_Link[T]] = None


class Queue(Generic[T]):
    """First in, first out: a player's hand, played from the front, won cards added at the back."""

    def __init__(self) -> None:
        """Create an empty queue."""
        self._first: Optional[_Link[T]] = None
        self._last: Optional[_Link[T]] = None
        self._n = 0

    def enqueue(self, item: T) -> None:
        """Add an item at the back in O(1)."""
        node = _Link(item)
        if self._last is None:
            self._first = node
        else:
            self._last.next = node
        self._last = node
        self._n += 1

    def dequeue(self) -> T:
        """Remove and return the front item in O(1); IndexError if the queue is empty."""
        if self._first is None:
            raise IndexError("dequeue from an empty Queue")
        node = self._first
        self._first = node.next
        if self._first is None:  # queue is empty now
            self._last = None
        self._n -= 1
        return node.value

    def peek(self) -> T:
        """Return the front item without removing it; IndexError if the queue is empty."""
        if self._first is None:
            raise IndexError("peek at an empty Queue")
        return self._first.value

    def is_empty(self) -> bool:
        """True when the queue holds no item."""
        return self._n == 0

    def size(self) -> int:
        """How many items the queue holds."""
        return self._n

    def __len__(self) -> int:
        """How many items the queue holds."""
        return self._n

    def __iter__(self) -> Iterator[T]:
        """Iterate from front to back without removing anything."""
        node = self._first
        while node is not None:
            yield node.value
            node = node.next

    def __repr__(self) -> str:
        """Show the items front first."""
        return f"Queue({list(self)!r})"


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
