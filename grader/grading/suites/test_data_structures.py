"""Data structures: the Queue is first in, first out and the Stack last in, first out (handout: Queue for
each hand, a Stack for each war pile; ASSIGNMENT.md: sizes, and IndexError when empty)."""

from __future__ import annotations

import pytest

from grader.grading.checks import expect, expect_value

pytestmark = pytest.mark.category("data_structures")

CARDS = ["7", "Jo", "2", "K", "10"]


def values(steps):
    """The values of steps that returned, or a failure naming the first step that raised."""
    out = []
    for step in steps:
        if "raised" in step:
            raise AssertionError(f"a step raised {step['raised']['type']}: {step['raised']['message']}")
        out.append(step["value"])
    return out


@pytest.mark.rule('A Queue is first in, first out: dequeue returns the item enqueued earliest')
def test_queue_is_first_in_first_out(student):
    """Queue: cards come out of dequeue in the order they were enqueued"""
    steps = student.queue_ops(*[("enqueue", card) for card in CARDS], *[("dequeue",)] * len(CARDS))
    expect_value(values(steps)[len(CARDS):], CARDS, "the cards dequeued after enqueuing " + ", ".join(CARDS))


@pytest.mark.rule('A Queue is first in, first out: dequeue returns the item enqueued earliest')
def test_queue_keeps_order_when_operations_interleave(student):
    """Queue: order is kept when enqueues and dequeues alternate"""
    ops = [("enqueue", "1"), ("enqueue", "2"), ("dequeue",), ("enqueue", "3"), ("dequeue",), ("enqueue", "4"),
           ("dequeue",), ("dequeue",)]
    got = [value for op, value in zip(ops, values(student.queue_ops(*ops))) if op[0] == "dequeue"]
    expect_value(got, ["1", "2", "3", "4"], "the cards dequeued")


@pytest.mark.rule('Queue: peek() shows the front item without removing it; is_empty(), size() and len() follow the contents')
def test_queue_peek_size_and_emptiness(student):
    """Queue: peek shows the front without removing it; size, len and is_empty follow the contents"""
    got = values(student.queue_ops(("is_empty",), ("size",), ("len",), ("enqueue", "Q"), ("enqueue", "3"),
                                   ("peek",), ("size",), ("len",), ("is_empty",), ("dequeue",), ("dequeue",),
                                   ("is_empty",), ("size",)))
    expect_value(got[0:3], [True, 0, 0], "is_empty(), size() and len() of a new Queue")
    expect_value(got[5:9], ["Q", 2, 2, False], "peek(), size(), len() and is_empty() after two enqueues")
    expect_value(got[9:], ["Q", "3", True, 0], "two dequeues, then is_empty() and size()")


@pytest.mark.rule('Queue: dequeue() and peek() raise IndexError when the queue is empty')
def test_queue_raises_index_error_when_empty(student):
    """Queue: dequeue and peek on an empty queue raise IndexError"""
    steps = student.queue_ops(("dequeue",), ("peek",))
    for step, method in zip(steps, ("dequeue", "peek")):
        raised = step.get("raised", {}).get("type")
        expect(raised == "IndexError", f"{method}() on an empty Queue should raise IndexError, "
               + (f"not {raised}" if raised else f"but returned {step.get('value')!r}"))


@pytest.mark.rule('A Stack is last in, first out: pop returns the item pushed last')
def test_stack_is_last_in_first_out(student):
    """Stack: cards come off pop in the reverse of the order they were pushed"""
    steps = student.stack_ops(*[("push", card) for card in CARDS], *[("pop",)] * len(CARDS))
    expect_value(values(steps)[len(CARDS):], CARDS[::-1], "the cards popped after pushing " + ", ".join(CARDS))


@pytest.mark.rule('Stack: peek() shows the top item without removing it; is_empty(), size() and len() follow the contents')
def test_stack_peek_size_and_emptiness(student):
    """Stack: peek shows the top without removing it; size, len and is_empty follow the contents"""
    got = values(student.stack_ops(("is_empty",), ("size",), ("len",), ("push", "4"), ("push", "J"), ("peek",),
                                   ("size",), ("len",), ("is_empty",), ("pop",), ("pop",), ("is_empty",),
                                   ("size",)))
    expect_value(got[0:3], [True, 0, 0], "is_empty(), size() and len() of a new Stack")
    expect_value(got[5:9], ["J", 2, 2, False], "peek(), size(), len() and is_empty() after two pushes")
    expect_value(got[9:], ["J", "4", True, 0], "two pops, then is_empty() and size()")


@pytest.mark.rule('Stack: pop() and peek() raise IndexError when the stack is empty')
def test_stack_raises_index_error_when_empty(student):
    """Stack: pop and peek on an empty stack raise IndexError"""
    steps = student.stack_ops(("pop",), ("peek",))
    for step, method in zip(steps, ("pop", "peek")):
        raised = step.get("raised", {}).get("type")
        expect(raised == "IndexError", f"{method}() on an empty Stack should raise IndexError, "
               + (f"not {raised}" if raised else f"but returned {step.get('value')!r}"))
