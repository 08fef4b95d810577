from __future__ import annotations

from collections import deque
from typing import Generic, TypeVar

T = TypeVar("T")


class Queue(Generic[T]):
    def __init__(self) -> None:
        self.line = deque()

    def enqueue(self, item: T) -> None:
        self.line.append(item)

    def dequeue(self) -> T:
        if not self.line:
            raise IndexError("Queue is empty, nothing to dequeue")
        return self.line.popleft()

    def peek(self) -> T:
        if not self.line:
            raise IndexError("Queue is empty, nothing to peek")
        return self.line[0]

    def is_empty(self) -> bool:
        return not self.line

    def size(self) -> int:
        return len(self.line)

    def __len__(self) -> int:
        return len(self.line)


class Stack(Generic[T]):
    def __init__(self) -> None:
        self.heap = list()

    def push(self, item: T) -> None:
        self.heap.append(item)

    def pop(self) -> T:
        if not self.heap:
            raise IndexError("Stack is empty, nothing to pop")
        return self.heap.pop(-1)

    def peek(self) -> T:
        if not self.heap:
            raise IndexError("Stack is empty, nothing to peek")
        return self.heap[len(self.heap) - 1]

    def is_empty(self) -> bool:
        return not self.heap

    def size(self) -> int:
        return len(self.heap)

    def __len__(self) -> int:
        return len(self.heap)
