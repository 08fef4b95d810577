"""FIFO queue for a player's hand and LIFO stack for a war pile, both as linked lists of nodes."""

from __future__ import annotations

from typing import Generic, TypeVar

T = TypeVar("T")


class _Node:
    """One item plus a link to the next node."""

    def __init__(self, data, link=None):
        self.data = data
        self.link = link


class Queue(Generic[T]):
    """First in, first out: a player's hand, played from the front, won cards added at the back."""

    def __init__(self) -> None:
        """Create an empty queue."""
        self._first = None  # dequeue from here
        self._last = None   # enqueue here
        self._n = 0

    def enqueue(self, item: T) -> None:
        """Add an item at the back in O(1)."""
        node = _Node(item)
        if self._last is None:
            self._first = self._last = node
        else:
            self._last.link = node
            self._last = node
        self._n += 1

    def dequeue(self) -> T:
        """Remove and return the front item in O(1); IndexError if the queue is empty."""
        if self._first is None:
            raise IndexError("Queue is empty")
        node = self._first
        self._first = node.link
        if self._first is None:
            self._last = None
        self._n -= 1
        return node.data

    def peek(self) -> T:
        """Return the front item without removing it; IndexError if the queue is empty."""
        if self._first is None:
            raise IndexError("Queue is empty")
        return self._first.data

    def is_empty(self) -> bool:
        """True when the queue holds no item."""
        return self._n == 0

    def size(self) -> int:
        """How many items the queue holds."""
        return self._n

    def __len__(self) -> int:
        """How many items the queue holds."""
        return self._n


class Stack(Generic[T]):
    """Last in, first out: a war pile, whose most recent card comes off first."""

    def __init__(self) -> None:
        """Create an empty stack."""
        self._top = None
        self._n = 0

    def push(self, item: T) -> None:
        """Put an item on top in O(1)."""
        self._top = _Node(item, self._top)
        self._n += 1

    def pop(self) -> T:
        """Remove and return the top item in O(1); IndexError if the stack is empty."""
        if self._top is None:
            raise IndexError("Stack is empty")
        node = self._top
        self._top = node.link
        self._n -= 1
        return node.data

    def peek(self) -> T:
        """Return the top item without removing it; IndexError if the stack is empty."""
        if self._top is None:
            raise IndexError("Stack is empty")
        return self._top.data

    def is_empty(self) -> bool:
        """True when the stack holds no item."""
        return self._top is None

    def size(self) -> int:
        """How many items the stack holds."""
        return self._n

    def __len__(self) -> int:
        """How many items the stack holds."""
        return self._n
