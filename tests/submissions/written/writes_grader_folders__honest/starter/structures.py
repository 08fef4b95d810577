"""FIFO queue for a player's hand and LIFO stack for a war pile."""

from __future__ import annotations

from typing import Generic, Iterator, TypeVar

T = TypeVar("T")


class Stack(Generic[T]):
    """Last in, first out: a war pile, whose most recent card comes off first."""

    def __init__(self) -> None:
        self._items = []

    def push(self, item: T) -> None:
        self._items.append(item)

    def pop(self) -> T:
        if not self._items:
            raise IndexError("pop from empty Stack")
        return self._items.pop()

    def peek(self) -> T:
        if not self._items:
            raise IndexError("peek at empty Stack")
        return self._items[-1]

    def is_empty(self) -> bool:
        return not self._items

    def size(self) -> int:
        return len(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __iter__(self) -> Iterator[T]:
        return iter(self._items)

    def __repr__(self) -> str:
        return f"Stack({self._items!r})"


class Queue(Generic[T]):
    """First in, first out: a player's hand, played from the front, won cards added at the back.

    Made out of two stacks (inbox/outbox) like the interview question: enqueue pushes on the inbox,
    dequeue pops from the outbox and refills it from the inbox when it is empty. Amortized O(1).
    """

    def __init__(self) -> None:
        self._in = []   # newest card on top
        self._out = []  # front of the queue on top

    def _refill(self) -> None:
        if not self._out:
            while self._in:
                self._out.append(self._in.pop())

    def enqueue(self, item: T) -> None:
        self._in.append(item)

    def dequeue(self) -> T:
        self._refill()
        if not self._out:
            raise IndexError("dequeue from empty Queue")
        return self._out.pop()

    def peek(self) -> T:
        self._refill()
        if not self._out:
            raise IndexError("peek at empty Queue")
        return self._out[-1]

    def is_empty(self) -> bool:
        return not self._in and not self._out

    def size(self) -> int:
        return len(self._in) + len(self._out)

    def __len__(self) -> int:
        return self.size()

    def __iter__(self) -> Iterator[T]:
        # front of queue = top of outbox, then the inbox oldest first
        yield from reversed(self._out)
        yield from self._in

    def __repr__(self) -> str:
        return f"Queue({list(self)!r})"
