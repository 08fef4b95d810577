"""FIFO queue for a player's hand and LIFO stack for a war pile."""

from __future__ import annotations

from collections import deque
from typing import Generic, Iterator, TypeVar

T = TypeVar("T")


class Queue(Generic[T]):
    """First in, first out: a player's hand, played from the front, won cards added at the back."""

    def __init__(self) -> None:
        self.elems = deque()

    def enqueue(self, item: T) -> None:
        self.elems.append(item)

    def dequeue(self) -> T:
        if len(self.elems) == 0:
            raise IndexError("Queue is empty")
        return self.elems.popleft()

    def peek(self) -> T:
        if len(self.elems) == 0:
            raise IndexError("Queue is empty")
        return self.elems[0]

    def is_empty(self) -> bool:
        return len(self.elems) == 0

    def size(self) -> int:
        return len(self.elems)

    def __len__(self) -> int:
        return len(self.elems)

    def __iter__(self) -> Iterator[T]:
        return iter(self.elems)

    def __repr__(self) -> str:
        return f"Queue({list(self.elems)!r})"


class Stack(Generic[T]):
    """Last in, first out: a war pile, whose most recent card comes off first."""

    def __init__(self) -> None:
        self.elems = []

    def push(self, item: T) -> None:
        self.elems.append(item)

    def pop(self) -> T:
        if len(self.elems) == 0:
            raise IndexError("Stack is empty")
        return self.elems.pop()

    def peek(self) -> T:
        if len(self.elems) == 0:
            raise IndexError("Stack is empty")
        return self.elems[-1]

    def is_empty(self) -> bool:
        return len(self.elems) == 0

    def size(self) -> int:
        return len(self.elems)

    def __len__(self) -> int:
        return len(self.elems)

    def __iter__(self) -> Iterator[T]:
        return iter(self.elems)

    def __repr__(self) -> str:
        return f"Stack({self.elems!r})"
