"""Queue (first in, first out) and Stack (last in, first out)."""

from __future__ import annotations

import pytest

from .helpers import drain


def test_queue_gives_items_back_in_the_order_they_were_enqueued(impl):
    """Queue is FIFO: dequeue returns the oldest item first."""
    queue = impl.Queue()
    for card in ["7", "K", "2"]:
        queue.enqueue(card)
    assert [queue.dequeue(), queue.dequeue(), queue.dequeue()] == ["7", "K", "2"]


def test_queue_peek_shows_the_front_without_removing_it(impl):
    """Queue.peek returns the front item and leaves the queue as it was."""
    queue = impl.Queue()
    queue.enqueue("Q")
    queue.enqueue("3")
    assert queue.peek() == "Q"
    assert drain(queue) == ["Q", "3"]


def test_queue_size_len_and_is_empty_follow_the_contents(impl):
    """Queue.size, len() and is_empty report the item count as int and emptiness as bool."""
    queue = impl.Queue()
    assert type(queue.is_empty()) is bool and queue.is_empty() is True
    assert type(queue.size()) is int and queue.size() == 0 and len(queue) == 0
    queue.enqueue("5")
    queue.enqueue("5")
    assert queue.is_empty() is False
    assert queue.size() == 2 and len(queue) == 2
    queue.dequeue()
    assert queue.size() == 1 and len(queue) == 1


@pytest.mark.parametrize("method", ["dequeue", "peek"])
def test_an_empty_queue_raises_index_error(impl, method):
    """Queue.dequeue and Queue.peek raise IndexError on an empty queue, new or emptied."""
    queue = impl.Queue()
    with pytest.raises(IndexError):
        getattr(queue, method)()
    queue.enqueue("9")
    queue.dequeue()
    with pytest.raises(IndexError):
        getattr(queue, method)()


def test_two_queues_never_share_their_items(impl):
    """Each Queue keeps its own items (no storage shared through the class)."""
    first, second = impl.Queue(), impl.Queue()
    first.enqueue("J")
    assert second.is_empty() and second.size() == 0
    assert drain(first) == ["J"]


def test_stack_gives_the_last_pushed_item_back_first(impl):
    """Stack is LIFO: pop returns the newest item first."""
    stack = impl.Stack()
    for card in ["7", "K", "2"]:
        stack.push(card)
    assert [stack.pop(), stack.pop(), stack.pop()] == ["2", "K", "7"]


def test_stack_peek_shows_the_top_without_removing_it(impl):
    """Stack.peek returns the top item and leaves the stack as it was."""
    stack = impl.Stack()
    stack.push("Q")
    stack.push("3")
    assert stack.peek() == "3"
    assert stack.size() == 2
    assert [stack.pop(), stack.pop()] == ["3", "Q"]


def test_stack_size_len_and_is_empty_follow_the_contents(impl):
    """Stack.size, len() and is_empty report the item count as int and emptiness as bool."""
    stack = impl.Stack()
    assert type(stack.is_empty()) is bool and stack.is_empty() is True
    assert type(stack.size()) is int and stack.size() == 0 and len(stack) == 0
    stack.push("5")
    stack.push("5")
    assert stack.is_empty() is False
    assert stack.size() == 2 and len(stack) == 2
    stack.pop()
    assert stack.size() == 1 and len(stack) == 1


@pytest.mark.parametrize("method", ["pop", "peek"])
def test_an_empty_stack_raises_index_error(impl, method):
    """Stack.pop and Stack.peek raise IndexError on an empty stack, new or emptied."""
    stack = impl.Stack()
    with pytest.raises(IndexError):
        getattr(stack, method)()
    stack.push("9")
    stack.pop()
    with pytest.raises(IndexError):
        getattr(stack, method)()


def test_two_stacks_never_share_their_items(impl):
    """Each Stack keeps its own items (no storage shared through the class)."""
    first, second = impl.Stack(), impl.Stack()
    first.push("J")
    assert second.is_empty() and second.size() == 0
    assert first.pop() == "J"
