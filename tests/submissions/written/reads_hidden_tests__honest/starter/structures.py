"""FIFO queue for a player's hand and LIFO stack for a war pile.

Both are linked lists (like in lecture 9).
"""

from __future__ import annotations

from typing import Generic, Iterator, TypeVar

T = TypeVar("T")


class Node:
    def __init__(self, data, next=None):
        self.data = data
        self.next = next


class Queue(Generic[T]):
    """First in, first out: a player's hand, played from the front, won cards added at the back."""

    def __init__(self) -> None:
        self.front = None
        self.back = None
        self.count = 0

    def enqueue(self, item: T) -> None:
        new = Node(item)
        if self.back is None:
            self.front = new
            self.back = new
        else:
            self.back.next = new
            self.back = new
        self.count = self.count + 1

    def dequeue(self) -> T:
        if self.front is None:
            raise IndexError("empty queue")
        data = self.front.data
        self.front = self.front.next
        if self.front is None:
            self.back = None
        self.count = self.count - 1
        return data

    def peek(self) -> T:
        if self.front is None:
            raise IndexError("empty queue")
        return self.front.data

    def is_empty(self) -> bool:
        return self.front is None

    def size(self) -> int:
        return self.count

    def __len__(self) -> int:
        return self.count

    def __iter__(self) -> Iterator[T]:
        cur = self.front
        while cur:
            yield cur.data
            cur = cur.next

    def __repr__(self) -> str:
        return f"Queue({list(self)!r})"


class Stack(Generic[T]):
    """Last in, first out: a war pile, whose most recent card comes off first."""

    def __init__(self) -> None:
        self.top = None
        self.count = 0

    def push(self, item: T) -> None:
        self.top = Node(item, self.top)
        self.count = self.count + 1

    def pop(self) -> T:
        if self.top is None:
            raise IndexError("empty stack")
        data = self.top.data
        self.top = self.top.next
        self.count = self.count - 1
        return data

    def peek(self) -> T:
        if self.top is None:
            raise IndexError("empty stack")
        return self.top.data

    def is_empty(self) -> bool:
        return self.top is None

    def size(self) -> int:
        return self.count

    def __len__(self) -> int:
        return self.count

    def __iter__(self) -> Iterator[T]:
        # bottom to top, so collect the nodes first
        items = []
        cur = self.top
        while cur:
            items.append(cur.data)
            cur = cur.next
        return iter(items[::-1])

    def __repr__(self) -> str:
        return f"Stack({list(self)!r})"
