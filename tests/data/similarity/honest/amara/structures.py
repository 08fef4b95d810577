"""Queue and Stack on Python lists."""

from __future__ import annotations

from typing import Generic, TypeVar

T = TypeVar("T")


class Queue(Generic[T]):
    """A queue that keeps a head index so dequeue is O(1)."""

    def __init__(self) -> None:
        self._items: list[T] = []
        self._head = 0

    def enqueue(self, item: T) -> None:
        self._items.append(item)

    def dequeue(self) -> T:
        if self._head >= len(self._items):
            raise IndexError("dequeue from an empty queue")
        item = self._items[self._head]
        self._head += 1
        if self._head > 64 and self._head * 2 > len(self._items):
            self._items = self._items[self._head:]
            self._head = 0
        return item

    def peek(self) -> T:
        if self._head >= len(self._items):
            raise IndexError("peek at an empty queue")
        return self._items[self._head]

    def is_empty(self) -> bool:
        return self._head == len(self._items)

    def size(self) -> int:
        return len(self._items) - self._head

    def __len__(self) -> int:
        return self.size()


class Stack(Generic[T]):
    """A stack on the end of a list."""

    def __init__(self) -> None:
        self._data: list[T] = []

    def push(self, item: T) -> None:
        self._data.append(item)

    def pop(self) -> T:
        if not self._data:
            raise IndexError("pop from an empty stack")
        return self._data.pop()

    def peek(self) -> T:
        if not self._data:
            raise IndexError("peek at an empty stack")
        return self._data[-1]

    def is_empty(self) -> bool:
        return not self._data

    def size(self) -> int:
        return len(self._data)

    def __len__(self) -> int:
        return len(self._data)
