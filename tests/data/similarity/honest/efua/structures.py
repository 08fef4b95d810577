from __future__ import annotations

from typing import Generic, TypeVar

T = TypeVar("T")

CAPACITY = 8


class Queue(Generic[T]):
    """A ring buffer that doubles when full."""

    def __init__(self) -> None:
        self._buffer = [None] * CAPACITY
        self._start = 0
        self._length = 0

    def _grow(self) -> None:
        bigger = [None] * (2 * len(self._buffer))
        for offset in range(self._length):
            bigger[offset] = self._buffer[(self._start + offset) % len(self._buffer)]
        self._buffer, self._start = bigger, 0

    def enqueue(self, item: T) -> None:
        if self._length == len(self._buffer):
            self._grow()
        self._buffer[(self._start + self._length) % len(self._buffer)] = item
        self._length += 1

    def dequeue(self) -> T:
        if self._length == 0:
            raise IndexError("the queue is empty")
        item = self._buffer[self._start]
        self._buffer[self._start] = None
        self._start = (self._start + 1) % len(self._buffer)
        self._length -= 1
        return item

    def peek(self) -> T:
        if self._length == 0:
            raise IndexError("the queue is empty")
        return self._buffer[self._start]

    def is_empty(self) -> bool:
        return self._length == 0

    def size(self) -> int:
        return self._length

    def __len__(self) -> int:
        return self._length


class Stack(Generic[T]):
    def __init__(self) -> None:
        self._cells: list = []
        self._top = -1

    def push(self, item: T) -> None:
        self._top += 1
        if self._top == len(self._cells):
            self._cells.append(item)
        else:
            self._cells[self._top] = item

    def pop(self) -> T:
        if self._top < 0:
            raise IndexError("the stack is empty")
        item = self._cells[self._top]
        self._top -= 1
        return item

    def peek(self) -> T:
        if self._top < 0:
            raise IndexError("the stack is empty")
        return self._cells[self._top]

    def is_empty(self) -> bool:
        return self._top < 0

    def size(self) -> int:
        return self._top + 1

    def __len__(self) -> int:
        return self._top + 1
