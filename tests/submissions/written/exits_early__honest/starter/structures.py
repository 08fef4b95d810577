"""FIFO queue for a player's hand and LIFO stack for a war pile."""

from __future__ import annotations

from typing import Generic, Iterator, TypeVar

T = TypeVar("T")


class Queue(Generic[T]):
    """First in, first out: a player's hand, played from the start, won cards added at the back."""

    # list + index of the start, so dequeue doesn't have to shift the whole list.
    # when the dead part at the start gets big we throw it away.

    def __init__(self) -> None:
        self.arr = []
        self.start = 0

    def enqueue(self, item: T) -> None:
        self.arr.append(item)

    def dequeue(self) -> T:
        if self.is_empty():
            raise IndexError("dequeue from empty queue")
        item = self.arr[self.start]
        self.arr[self.start] = None
        self.start += 1
        if self.start > 32 and self.start * 2 > len(self.arr):
            self.arr = self.arr[self.start:]
            self.start = 0
        return item

    def peek(self) -> T:
        if self.is_empty():
            raise IndexError("peek at empty queue")
        return self.arr[self.start]

    def is_empty(self) -> bool:
        return self.size() == 0

    def size(self) -> int:
        return len(self.arr) - self.start

    def __len__(self) -> int:
        return self.size()

    def __iter__(self) -> Iterator[T]:
        for i in range(self.start, len(self.arr)):
            yield self.arr[i]

    def __repr__(self) -> str:
        return "Queue(" + repr(self.arr[self.start:]) + ")"


class Stack(Generic[T]):
    """Last in, first out: a war pile, whose most recent card comes off first."""

    def __init__(self) -> None:
        self.arr = []

    def push(self, item: T) -> None:
        self.arr.append(item)

    def pop(self) -> T:
        if self.is_empty():
            raise IndexError("pop from empty stack")
        return self.arr.pop()

    def peek(self) -> T:
        if self.is_empty():
            raise IndexError("peek at empty stack")
        return self.arr[-1]

    def is_empty(self) -> bool:
        return self.arr == []

    def size(self) -> int:
        return len(self.arr)

    def __len__(self) -> int:
        return len(self.arr)

    def __iter__(self) -> Iterator[T]:
        return iter(self.arr)

    def __repr__(self) -> str:
        return "Stack(" + repr(self.arr) + ")"
