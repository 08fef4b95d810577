"""Reproductions: the few lines of Python a student pastes to replay a failing call on its own package."""

from __future__ import annotations

from typing import Any

from .checks import show

PACKAGE = "starter"
"""The package name the lines import from; the comment on the import line says to use one's own."""


def _import(*names: str) -> str:
    return f"from {PACKAGE} import {', '.join(sorted(set(names)))}  # or your package's name"


def _queues(p1: list[Any], p2: list[Any]) -> list[str]:
    return ["p1, p2 = Queue(), Queue()",
            f"for card in {show(list(p1))}: p1.enqueue(card)",
            f"for card in {show(list(p2))}: p2.enqueue(card)"]


def _rules(rules: dict[str, Any] | None) -> str:
    return ", Rules(" + ", ".join(f"{key}={value!r}" for key, value in rules.items()) + ")" if rules else ""


def _expect(line: str, expected: Any, verb: str = "returns") -> str:
    return line if expected is None else f"{line}  # the reference {verb} {show(expected)}"


def _drained(name: str, expected: list[Any] | None) -> str:
    return _expect(f"print([{name}.dequeue() for _ in range({name}.size())])", expected, "leaves")


def round_call(p1: list[Any], p2: list[Any], rules: dict[str, Any] | None = None, *,
               result: Any = None, after: tuple[list[Any], list[Any]] | None = None) -> str:
    """play_round on queues holding p1 and p2, printing what it returns and leaves (expected values in comments)."""
    names = ["Queue", "play_round"] + (["Rules"] if rules else [])
    lines = [_import(*names), *_queues(p1, p2), _expect(f"print(play_round(p1, p2{_rules(rules)}))", result)]
    lines += [_drained("p1", after[0] if after else None), _drained("p2", after[1] if after else None)]
    return "\n".join(lines)


def war_call(p1: list[Any], p2: list[Any], c1: Any, c2: Any, rules: dict[str, Any] | None = None, *,
             result: Any = None, after: tuple[list[Any], list[Any]] | None = None) -> str:
    """resolve_war on queues holding p1 and p2 after c1 and c2 tied."""
    names = ["Queue", "resolve_war"] + (["Rules"] if rules else [])
    lines = [_import(*names), *_queues(p1, p2),
             _expect(f"print(resolve_war(p1, p2, {c1!r}, {c2!r}{_rules(rules)}))", result)]
    lines += [_drained("p1", after[0] if after else None), _drained("p2", after[1] if after else None)]
    return "\n".join(lines)


def game_call(kwargs: dict[str, Any], rules: dict[str, Any] | None = None, expected: dict[str, Any] | None = None) -> str:
    """play_game with these arguments, printing the fields of its result."""
    arguments = [f"{key}={show(value)}" for key, value in kwargs.items()]
    if rules:
        arguments.append("rules=Rules(" + ", ".join(f"{key}={value!r}" for key, value in rules.items()) + ")")
    lines = [_import("play_game", *(["Rules"] if rules else [])), f"game = play_game({', '.join(arguments)})"]
    fields = list(expected) if expected else ["winner", "rounds", "p1_cards", "p2_cards"]
    for field in fields:
        lines.append(_expect(f"print(game.{field})", expected.get(field) if expected else None, "gives"))
    return "\n".join(lines)


def deal_call(deck: list[Any]) -> str:
    """deal on a deck, printing both queues front first."""
    return "\n".join([_import("deal"), f"p1, p2 = deal({show(deck)})", _drained("p1", None), _drained("p2", None)])


def plain_call(function: str, arguments: str, expected: Any = None) -> str:
    """A call of one of the package's functions on plain values."""
    return "\n".join([_import(function), _expect(f"print({function}({arguments}))", expected)])


def structure_steps(kind: str, ops: list[tuple[Any, ...]]) -> str:
    """A new Queue or Stack, then each step printed."""
    lines = [_import(kind), f"s = {kind}()"]
    for op in ops:
        method, args = op[0], op[1:]
        call = "len(s)" if method == "len" else f"s.{method}({', '.join(repr(arg) for arg in args)})"
        lines.append(f"print({call})" if method not in ("enqueue", "push") else call)
    return "\n".join(lines)
