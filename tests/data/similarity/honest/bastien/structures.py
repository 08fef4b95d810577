from __future__ import annotations

from collections import deque
from typing import Generic, TypeVar

T = TypeVar("T")


class Queue(Generic[T]):
    def __init__(self) -> None:
        self.q = deque()

    def enqueue(self, item: T) -> None:
        self.q.append(item)

    def dequeue(self) -> T:
        try:
            return self.q.popleft()
        except IndexError:
            raise IndexError("empty queue") from None

    def peek(self) -> T:
        if len(self.q) == 0:
            raise IndexError("empty queue")
        return self.q[0]

    def is_empty(self) -> bool:
        return len(self.q) == 0

    def size(self) -> int:
        return len(self.q)

    def __len__(self) -> int:
        return len(self.q)


class Stack(Generic[T]):
    def __init__(self) -> None:
        self.s = deque()

    def push(self, item: T) -> None:
        self.s.append(item)

    def pop(self) -> T:
        if len(self.s) == 0:
            raise IndexError("empty stack")
        return self.s.pop()

    def peek(self) -> T:
        if len(self.s) == 0:
            raise IndexError("empty stack")
        return self.s[-1]

    def is_empty(self) -> bool:
        return len(self.s) == 0

    def size(self) -> int:
        return len(self.s)

    def __len__(self) -> int:
        return len(self.s)
