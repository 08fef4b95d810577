"""FIFO queue for a player's hand and LIFO stack for a war pile.

You choose how each class stores its items (a list, collections.deque, linked nodes, ...); keep the
storage in the instance (set it up in __init__), never in the class, so two queues never share items.
"""

from __future__ import annotations

from typing import Generic, TypeVar

T = TypeVar("T")


class Queue(Generic[T]):
    """First in, first out: a player's hand, played from the front, won cards added at the back."""

    def __init__(self) -> None:
        """Create an empty queue."""
        raise NotImplementedError("Queue.__init__: create the empty storage for the queue's items")

    def enqueue(self, item: T) -> None:
        """Add an item at the back in O(1)."""
        raise NotImplementedError("Queue.enqueue: add the item at the back of the queue")

    def dequeue(self) -> T:
        """Remove and return the front item in O(1); IndexError if the queue is empty."""
        raise NotImplementedError("Queue.dequeue: remove and return the front item, IndexError if empty")

    def peek(self) -> T:
        """Return the front item without removing it; IndexError if the queue is empty."""
        raise NotImplementedError("Queue.peek: return the front item without removing it, IndexError if empty")

    def is_empty(self) -> bool:
        """True when the queue holds no item."""
        raise NotImplementedError("Queue.is_empty: return True when the queue holds no item")

    def size(self) -> int:
        """How many items the queue holds."""
        raise NotImplementedError("Queue.size: return how many items the queue holds")

    def __len__(self) -> int:
        """How many items the queue holds."""
        raise NotImplementedError("Queue.__len__: return how many items the queue holds, like size()")


class Stack(Generic[T]):
    """Last in, first out: a war pile, whose most recent card comes off first."""

    def __init__(self) -> None:
        """Create an empty stack."""
        raise NotImplementedError("Stack.__init__: create the empty storage for the stack's items")

    def push(self, item: T) -> None:
        """Put an item on top in O(1)."""
        raise NotImplementedError("Stack.push: put the item on top of the stack")

    def pop(self) -> T:
        """Remove and return the top item in O(1); IndexError if the stack is empty."""
        raise NotImplementedError("Stack.pop: remove and return the top item, IndexError if empty")

    def peek(self) -> T:
        """Return the top item without removing it; IndexError if the stack is empty."""
        raise NotImplementedError("Stack.peek: return the top item without removing it, IndexError if empty")

    def is_empty(self) -> bool:
        """True when the stack holds no item."""
        raise NotImplementedError("Stack.is_empty: return True when the stack holds no item")

    def size(self) -> int:
        """How many items the stack holds."""
        raise NotImplementedError("Stack.size: return how many items the stack holds")

    def __len__(self) -> int:
        """How many items the stack holds."""
        raise NotImplementedError("Stack.__len__: return how many items the stack holds, like size()")
