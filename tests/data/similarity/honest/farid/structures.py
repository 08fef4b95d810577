from __future__ import annotations

from typing import Generic, TypeVar

T = TypeVar("T")


class Queue(Generic[T]):
    def __init__(self) -> None:
        self.incoming: list[T] = []
        self.position = 0

    def enqueue(self, item: T) -> None:
        self.incoming += [item]

    def dequeue(self) -> T:
        item = self.peek()
        self.position = self.position + 1
        if self.position == len(self.incoming):
            self.incoming, self.position = [], 0
        return item

    def peek(self) -> T:
        if self.position == len(self.incoming):
            raise IndexError("nothing queued")
        return self.incoming[self.position]

    def is_empty(self) -> bool:
        return not self.size()

    def size(self) -> int:
        return len(self.incoming) - self.position

    def __len__(self) -> int:
        return self.size()


class Stack(Generic[T]):
    def __init__(self) -> None:
        self.stored: list[T] = []

    def push(self, item: T) -> None:
        self.stored.insert(len(self.stored), item)

    def pop(self) -> T:
        item = self.peek()
        del self.stored[-1]
        return item

    def peek(self) -> T:
        if not self.stored:
            raise IndexError("nothing stacked")
        return self.stored[-1]

    def is_empty(self) -> bool:
        return len(self.stored) < 1

    def size(self) -> int:
        return len(self.stored)

    def __len__(self) -> int:
        return len(self.stored)
