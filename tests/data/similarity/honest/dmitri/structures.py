from __future__ import annotations

from typing import Generic, TypeVar

T = TypeVar("T")


class Stack(Generic[T]):
    def __init__(self) -> None:
        self.elements = []

    def push(self, item: T) -> None:
        self.elements.append(item)

    def pop(self) -> T:
        if self.is_empty():
            raise IndexError("Stack.pop: empty")
        return self.elements.pop()

    def peek(self) -> T:
        if self.is_empty():
            raise IndexError("Stack.peek: empty")
        return self.elements[len(self.elements) - 1]

    def is_empty(self) -> bool:
        return self.size() == 0

    def size(self) -> int:
        return len(self.elements)

    def __len__(self) -> int:
        return self.size()


class Queue(Generic[T]):
    """Two stacks: items come in on one and leave from the other (amortised O(1))."""

    def __init__(self) -> None:
        self.inbox = Stack()
        self.outbox = Stack()

    def _shift(self) -> None:
        if self.outbox.is_empty():
            while not self.inbox.is_empty():
                self.outbox.push(self.inbox.pop())

    def enqueue(self, item: T) -> None:
        self.inbox.push(item)

    def dequeue(self) -> T:
        self._shift()
        if self.outbox.is_empty():
            raise IndexError("Queue.dequeue: empty")
        return self.outbox.pop()

    def peek(self) -> T:
        self._shift()
        if self.outbox.is_empty():
            raise IndexError("Queue.peek: empty")
        return self.outbox.peek()

    def is_empty(self) -> bool:
        return self.inbox.is_empty() and self.outbox.is_empty()

    def size(self) -> int:
        return self.inbox.size() + self.outbox.size()

    def __len__(self) -> int:
        return self.size()
