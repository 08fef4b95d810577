"""FIFO queue for a player's hand and LIFO stack for a war pile."""

from __future__ import annotations

from typing import Generic, Iterator, TypeVar

T = TypeVar("T")


class Queue(Generic[T]):
    """First in, first out: a player's hand, played from the front, won cards added at the back."""

    # list + index of the front, so dequeue doesn't have to shift the whole list.
    # when the dead part at the front gets big we throw it away.

    def __init__(self) -> None:
        self.data = []
        self.front = 0

    def enqueue(self, item: T) -> None:
        self.data.append(item)

    def dequeue(self) -> T:
        if self.is_empty():
            raise IndexError("dequeue from empty queue")
        item = self.data[self.front]
        self.data[self.front] = None
        self.front += 1
        if self.front > 32 and self.front * 2 > len(self.data):
            self.data = self.data[self.front:]
            self.front = 0
        return item

    def peek(self) -> T:
        if self.is_empty():
            raise IndexError("peek at empty queue")
        return self.data[self.front]

    def is_empty(self) -> bool:
        return self.size() == 0

    def size(self) -> int:
        return len(self.data) - self.front

    def __len__(self) -> int:
        return self.size()

    def __iter__(self) -> Iterator[T]:
        for i in range(self.front, len(self.data)):
            yield self.data[i]

    def __repr__(self) -> str:
        return "Queue(" + repr(self.data[self.front:]) + ")"


class Stack(Generic[T]):
    """Last in, first out: a war pile, whose most recent card comes off first."""

    def __init__(self) -> None:
        self.data = []

    def push(self, item: T) -> None:
        self.data.append(item)

    def pop(self) -> T:
        if self.is_empty():
            raise IndexError("pop from empty stack")
        return self.data.pop()

    def peek(self) -> T:
        if self.is_empty():
            raise IndexError("peek at empty stack")
        return self.data[-1]

    def is_empty(self) -> bool:
        return self.data == []

    def size(self) -> int:
        return len(self.data)

    def __len__(self) -> int:
        return len(self.data)

    def __iter__(self) -> Iterator[T]:
        return iter(self.data)

    def __repr__(self) -> str:
        return "Stack(" + repr(self.data) + ")"
