from __future__ import annotations

from typing import Generic, Optional, TypeVar

T = TypeVar("T")


class _Node(Generic[T]):
    __slots__ = ("value", "next")

    def __init__(self, value, next=None):
        self.value = value
        self.next = next


class Queue(Generic[T]):
    # linked list with a tail pointer
    def __init__(self) -> None:
        self.front: Optional[_Node] = None
        self.back: Optional[_Node] = None
        self.count = 0

    def enqueue(self, item: T) -> None:
        node = _Node(item)
        if self.back is None:
            self.front = self.back = node
        else:
            self.back.next = node
            self.back = node
        self.count += 1

    def dequeue(self) -> T:
        if self.front is None:
            raise IndexError("queue is empty")
        node = self.front
        self.front = node.next
        if self.front is None:
            self.back = None
        self.count -= 1
        return node.value

    def peek(self) -> T:
        if self.front is None:
            raise IndexError("queue is empty")
        return self.front.value

    def is_empty(self) -> bool:
        return self.count == 0

    def size(self) -> int:
        return self.count

    def __len__(self) -> int:
        return self.count


class Stack(Generic[T]):
    def __init__(self) -> None:
        self.top: Optional[_Node] = None
        self.count = 0

    def push(self, item: T) -> None:
        self.top = _Node(item, self.top)
        self.count += 1

    def pop(self) -> T:
        if self.top is None:
            raise IndexError("stack is empty")
        value = self.top.value
        self.top = self.top.next
        self.count -= 1
        return value

    def peek(self) -> T:
        if self.top is None:
            raise IndexError("stack is empty")
        return self.top.value

    def is_empty(self) -> bool:
        return self.top is None

    def size(self) -> int:
        return self.count

    def __len__(self) -> int:
        return self.count
