"""The process that runs student code: JSON requests in, plain JSON values out, nothing trusted.

This module runs inside the sandbox (stdlib only; `python -c "import worker; worker.main()"`, so the
interpreter reads its compiled .pyc from the runtime). The trusted side imports it only to run the same
operations on the reference in its own process (expected answers, deadlines), never on student code. It
reads one JSON request per line on standard input and writes one JSON reply per line on the file
descriptor it was handed. Every value it sends back
is plain data with the student's types spelled out, so the trusted side can compare strictly; the
trusted side never believes anything this process says beyond "these are the values".
"""

from __future__ import annotations

import sys

STARTUP_MODULES = frozenset(sys.modules) - {__name__}
"""Modules every Python program has loaded before its own code: a student module cannot take their names."""

import ast  # noqa: E402 - after STARTUP_MODULES, which must see only what the interpreter loaded
import builtins  # noqa: E402
import importlib  # noqa: E402
import importlib.machinery  # noqa: E402
import io  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import random  # noqa: E402
import traceback  # noqa: E402

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any  # annotations only: importing typing cost every worker 4 ms

try:  # hashlib loads OpenSSL (5 ms at every worker's start) for the one hash the worker needs
    from _sha256 import sha256 as _sha256  # type: ignore[import-not-found]  # noqa: E402
except ImportError:  # an interpreter built without it (or 3.12's _sha2)
    from hashlib import sha256 as _sha256  # noqa: E402

# Keep our own references: student code may replace builtins after it is imported.
_type, _len, _str, _int, _isinstance, _repr, _getattr = type, len, str, int, isinstance, repr, getattr
_list, _range, _enumerate = list, range, enumerate
_json_dumps, _json_loads = json.dumps, json.loads
_random = random
"""The standard library's random, kept even when a student module takes its name."""

ALWAYS_LOADED = frozenset({"os", "stat", "posixpath", "genericpath", "_collections_abc", "_sitebuiltins", "site",
                           "io", "abc", "codecs", "sys", "builtins"})
"""Modules a normal interpreter (with site) has loaded before any program, although this one (-S) may not."""

CALL_SEED = 0
"""The seed of the random generators at the start of every call, so unseeded randomness repeats exactly."""

MAX_INT_BITS = 4096
"""An int larger than this is sent as an opaque value (JSON and the trusted side cap digits anyway)."""

MAX_ITEMS = 10_000
"""A queue or list longer than this is cut: no honest answer in this assignment comes near it."""

MAX_TEXT = 300
"""Characters kept of a repr or message."""

OUTPUT_CAP = 64 * 1024
"""Characters of printed output kept per call."""


COVERAGE: LineRecorder | None = None
"""The record of which statements ran, once started."""


class StudentFault(Exception):
    """Student code did something the call cannot go on from (a missing name, a bad size)."""


class CappedText(io.TextIOBase):
    """A text stream that keeps the first OUTPUT_CAP characters and counts the rest."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.kept = 0
        self.dropped = 0

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if _type(text) is not str:
            text = _str(text)
        room = OUTPUT_CAP - self.kept
        if room > 0:
            piece = text[:room]
            self.parts.append(piece)
            self.kept += _len(piece)
        self.dropped += max(0, _len(text) - max(room, 0))
        return _len(text)

    def take(self) -> tuple[str, bool]:
        text, truncated = "".join(self.parts), self.dropped > 0
        self.parts, self.kept, self.dropped = [], 0, 0
        return text, truncated


def encode(value: Any, depth: int = 0) -> Any:
    """A JSON value saying exactly what value is: str, int, bool, None as themselves, the rest tagged."""
    kind = _type(value)
    if kind is str:
        return value if _len(value) <= MAX_TEXT * 10 else value[: MAX_TEXT * 10]
    if kind is bool or value is None:
        return value
    if kind is int:
        if value.bit_length() <= MAX_INT_BITS:
            return value
        return {"object": "int", "repr": f"an int of {value.bit_length()} bits"}
    if kind is float:
        return {"float": value}  # inf and nan included: the trusted side's JSON reader takes them
    if (kind is tuple or kind is list) and depth < 4:
        items = [encode(item, depth + 1) for item in value[:MAX_ITEMS]]
        return {"tuple" if kind is tuple else "list": items}
    return {"object": _safe(lambda: kind.__qualname__), "repr": _safe(lambda: _repr(value))}


def _safe(produce: Any) -> str:
    """Text from student-defined code, or a placeholder if that code misbehaves."""
    try:
        text = produce()
        return text[:MAX_TEXT] if _type(text) is str else "<not text>"
    except BaseException:  # noqa: BLE001 - anything the student's __repr__ does is contained here
        return "<unprintable>"


class TrustedQueue:
    """A correct first-in, first-out queue: stands in for the student's to tell a structure bug from a game bug."""

    def __init__(self) -> None:
        self._items: list[Any] = []
        self._head = 0

    def enqueue(self, item: Any) -> None:
        self._items.append(item)

    def dequeue(self) -> Any:
        if self._head >= _len(self._items):
            raise IndexError("dequeue from an empty queue")
        item = self._items[self._head]
        self._head += 1
        if self._head > 64 and self._head * 2 > _len(self._items):
            self._items, self._head = self._items[self._head:], 0
        return item

    def peek(self) -> Any:
        if self._head >= _len(self._items):
            raise IndexError("peek at an empty queue")
        return self._items[self._head]

    def is_empty(self) -> bool:
        return self._head >= _len(self._items)

    def size(self) -> int:
        return _len(self._items) - self._head

    def __len__(self) -> int:
        return self.size()

    def __iter__(self):
        return iter(self._items[self._head:])


class TrustedStack:
    """A correct last-in, first-out stack, the partner of TrustedQueue."""

    def __init__(self) -> None:
        self._items: list[Any] = []

    def push(self, item: Any) -> None:
        self._items.append(item)

    def pop(self) -> Any:
        if not self._items:
            raise IndexError("pop from an empty stack")
        return self._items.pop()

    def peek(self) -> Any:
        if not self._items:
            raise IndexError("peek at an empty stack")
        return self._items[-1]

    def is_empty(self) -> bool:
        return not self._items

    def size(self) -> int:
        return _len(self._items)

    def __len__(self) -> int:
        return _len(self._items)

    def __iter__(self):
        return iter(self._items)


class TrustedStructures:
    """While active, the student's modules see TrustedQueue and TrustedStack in place of their own classes."""

    def __init__(self, session: Session, active: bool) -> None:
        self.session = session
        self.active = active
        self.patched: list[tuple[Any, str, Any]] = []

    def __enter__(self) -> TrustedStructures:
        if not self.active:
            return self
        for kind, trusted in (("Queue", TrustedQueue), ("Stack", TrustedStack)):
            student_class = self.session.name(kind)
            for module in self.session.modules:
                for attribute, value in _list(vars(module).items()):
                    if value is student_class:
                        self.patched.append((module, attribute, value))
                        setattr(module, attribute, trusted)
        self.session.queue_class = TrustedQueue
        return self

    def __exit__(self, *exc: object) -> None:
        for module, attribute, value in reversed(self.patched):
            setattr(module, attribute, value)
        self.session.queue_class = None


TRUSTED_VALUES = {rank: value for value, rank in _enumerate(
    ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "Jo"), start=1)}
"""The handout's card strengths, for the worker's own card_value."""


def trusted_card_value(card: Any) -> int:
    """The handout's card_value: 1 for the Ace up to 13 for the King, 14 for the Joker; ValueError otherwise."""
    if _type(card) is not str or card not in TRUSTED_VALUES:
        raise ValueError(f"not a card: {_safe(lambda: _repr(card))}")
    return TRUSTED_VALUES[card]


def _rule(rules: Any, name: str, default: Any) -> Any:
    """A field of the student's Rules value (the handout's default without one)."""
    return default if rules is None else _getattr(rules, name, default)


class TrustedUnits:
    """The handout's play_round, resolve_war and deal, written as the reference writes them, on the student's
    own Queue and Stack: each stands in for the student's function of that name in a counterfactual run."""

    def __init__(self, session: Session) -> None:
        self.session = session

    def play_round(self, p1: Any, p2: Any, rules: Any = None) -> Any:
        if p1.is_empty() or p2.is_empty():
            return "draw" if p1.is_empty() and p2.is_empty() else "P2" if p1.is_empty() else "P1"
        c1, c2 = p1.dequeue(), p2.dequeue()
        v1, v2 = trusted_card_value(c1), trusted_card_value(c2)
        if v1 == v2:
            return ("war", c1, c2)
        winner, name, first, second = (p1, "P1", c1, c2) if v1 > v2 else (p2, "P2", c2, c1)
        winner.enqueue(first)
        winner.enqueue(second)
        return name

    def resolve_war(self, p1: Any, p2: Any, c1: Any, c2: Any, rules: Any = None) -> Any:
        return self.war(p1, p2, c1, c2, rules)[0]

    def war(self, p1: Any, p2: Any, c1: Any, c2: Any, rules: Any = None) -> tuple[str, int]:
        """resolve_war's winner, and how many cycles the war took (1, plus 1 for every face-up tie)."""
        chain = 1
        face_down = _rule(rules, "face_down", 3)
        loser_first = _rule(rules, "collect", "winner_first") == "loser_first"
        try:
            stack = self.session.name("Stack")
        except StudentFault:
            stack = TrustedStack
        pile1, pile2 = stack(), stack()
        pile1.push(c1)
        pile2.push(c2)

        def collect(winner: Any, own: Any, other: Any) -> None:
            for pile in ((other, own) if loser_first else (own, other)):
                while not pile.is_empty():
                    winner.enqueue(pile.pop())

        while True:
            short1, short2 = queue_size(p1, bounded=False) < face_down + 1, queue_size(p2, bounded=False) < face_down + 1
            if short1 and short2:
                collect(p1, pile1, _EMPTY_PILE)
                collect(p2, pile2, _EMPTY_PILE)
                return "draw", chain
            if short1 or short2:
                winner, loser, own, other, name = (p2, p1, pile2, pile1, "P2") if short1 else (p1, p2, pile1, pile2, "P1")
                collect(winner, own, other)
                while not loser.is_empty():
                    winner.enqueue(loser.dequeue())
                return name, chain
            for _ in _range(face_down + 1):
                pile1.push(p1.dequeue())
                pile2.push(p2.dequeue())
            v1, v2 = trusted_card_value(pile1.peek()), trusted_card_value(pile2.peek())
            if v1 != v2:
                winner, own, other, name = (p1, pile1, pile2, "P1") if v1 > v2 else (p2, pile2, pile1, "P2")
                collect(winner, own, other)
                return name, chain
            chain += 1

    def deal(self, deck: list[Any]) -> tuple[Any, Any]:
        return self.session.queue(deck[0::2]), self.session.queue(deck[1::2])


class _EmptyPile:
    """A war pile with nothing on it (the other side of a drawn war's collect)."""

    def is_empty(self) -> bool:
        return True


_EMPTY_PILE = _EmptyPile()

REPAIRABLE = ("structures", "card_value", "play_round", "resolve_war", "deal")
"""The units a counterfactual run may take from the reference: the student's Queue and Stack together, or one
function. Everything else stays the student's own."""


class TrustedUnit:
    """While active, the student's modules see the worker's own version of one function in place of theirs."""

    def __init__(self, session: Session, unit: str) -> None:
        self.session = session
        self.unit = unit
        self.patched: list[tuple[Any, str, Any]] = []

    def __enter__(self) -> TrustedUnit:
        student_function = self.session.name(self.unit)  # a missing function cannot be repaired: StudentFault
        units = TrustedUnits(self.session)
        trusted = trusted_card_value if self.unit == "card_value" else _getattr(units, self.unit)
        for module in self.session.modules:
            for attribute, value in _list(vars(module).items()):
                if value is student_function:
                    self.patched.append((module, attribute, value))
                    setattr(module, attribute, trusted)
                elif self.unit == "resolve_war" and _is_student_function(value, module):
                    # A helper of the student's that fights the war (play_game often calls one that also
                    # counts cycles): the reference's war, answered in the helper's own shape.
                    self.patched.append((module, attribute, value))
                    setattr(module, attribute, _war_helper(self.session, units, value))
        return self

    def __exit__(self, *exc: object) -> None:
        for module, attribute, value in reversed(self.patched):
            setattr(module, attribute, value)


def _is_student_function(value: Any, module: Any) -> bool:
    """A plain function defined in this student module (not a class, not an import from elsewhere)."""
    code = _getattr(value, "__code__", None)
    return _type(value).__name__ == "function" and code is not None and \
        _getattr(value, "__module__", None) == _getattr(module, "__name__", "")


def _war_helper(session: Session, units: TrustedUnits, helper: Any) -> Any:
    """helper, except when called as a war is, (queue, queue, card, card, ...): then the reference's war on
    those queues, returned in the shape the helper itself returns (a winner, or a winner and a count of
    cycles), learnt once by running the helper on a plain war of its own (3 down and 1 up, P1's K wins)."""
    queue_types = (session.queue_class or session.name("Queue"), TrustedQueue)
    shapes: list[bool] = []

    def pairs(rest: tuple, kwargs: dict) -> bool:
        if not shapes:
            try:
                shape = helper(session.queue(["2", "3", "4", "K", "6"]), session.queue(["5", "6", "7", "8", "9"]),
                               "7", "7", *rest, **kwargs)
            except Exception:  # noqa: BLE001 - the helper's own bug: it answers with a winner, as resolve_war
                shape = None
            shapes.append(_type(shape) is tuple and _len(shape) == 2)
        return shapes[0]

    def stand_in(*args: Any, **kwargs: Any) -> Any:
        if _len(args) < 4 or not all(_isinstance(queue, queue_types) for queue in args[:2]) \
                or not all(_type(card) is str for card in args[2:4]):
            return helper(*args, **kwargs)
        p1, p2, c1, c2 = args[:4]
        rules = args[4] if _len(args) > 4 else kwargs.get("rules")
        winner, chain = units.war(p1, p2, c1, c2, rules)
        return (winner, chain) if pairs(args[4:], kwargs) else winner

    return stand_in


def repaired(session: Session, trusted: Any) -> Any:
    """The context of a call: the student's code as it is (trusted false), or with one unit repaired (True or
    "structures": the Queue and Stack; "card_value", "play_round", "resolve_war", "deal": that function)."""
    if trusted is True or trusted == "structures":
        return TrustedStructures(session, True)
    if not trusted:
        return TrustedStructures(session, False)
    if _type(trusted) is str and trusted in REPAIRABLE:
        return TrustedUnit(session, trusted)
    raise StudentFault(f"no unit called {_safe(lambda: _str(trusted))} can be repaired")


class Session:
    """The imported submission and the operations the trusted side may ask of it."""

    def __init__(self, root: str, package: str) -> None:
        self.root = os.path.realpath(root)
        self.package_name = package
        sys.path.insert(0, self.root)
        self.package = import_student(package, self.root)
        self.modules = [
            module for name, module in _list(sys.modules.items())
            if name == package or name.startswith(package + ".")
        ]
        self.queue_class: Any = None
        """TrustedQueue while TrustedStructures is active, else None (the student's Queue)."""

    # -- finding the student's names ------------------------------------------------------------

    def name(self, name: str) -> Any:
        """The student's object called name: from the package, else from any of its modules."""
        found = _getattr(self.package, name, None)
        if found is None:
            for module in self.modules:
                found = _getattr(module, name, None)
                if found is not None:
                    break
        if found is None:
            raise StudentFault(f"your code has no {name}")
        return found

    def queue(self, cards: list[Any]) -> Any:
        """A new student Queue holding cards, front first, filled with its own enqueue."""
        queue = (self.queue_class or self.name("Queue"))()
        for card in cards:
            queue.enqueue(card)
        return queue

    def drain(self, queue: Any) -> list[Any]:
        """Empty a student queue with its own size() and dequeue(), front first, encoded."""
        return [encode(queue.dequeue()) for _ in _range(queue_size(queue, bounded=True))]

    def sizes(self, p1: Any, p2: Any) -> list[int]:
        """Both queue sizes, as whole numbers."""
        return [queue_size(p1, bounded=False), queue_size(p2, bounded=False)]

    def rules(self, spec: dict | None) -> tuple:
        """Extra positional arguments carrying a Rules value, or none for the default rules."""
        if not spec:
            return ()
        return (self.name("Rules")(**spec),)

    # -- operations -------------------------------------------------------------------------------

    def op_structure_ops(self, kind: str, ops: list[list[Any]]) -> list[dict]:
        """Apply (method, *args) steps to a new student Queue or Stack; each step's value or exception."""
        if kind not in ("Queue", "Stack"):
            raise StudentFault(f"unknown structure {kind}")
        target = self.name(kind)()
        results = []
        for step in ops:
            method, args = step[0], step[1:]
            try:
                if method == "len":
                    value = _len(target)
                else:
                    value = _getattr(target, method)(*args)
                results.append({"value": encode(value)})
            except Exception as error:  # a student exception is an answer here, e.g. IndexError
                results.append({"raised": describe(error, self.root)})
        return results

    def op_card_values(self, cards: list[Any]) -> list[dict]:
        """card_value of each card: its value or the exception raised."""
        card_value = self.name("card_value")
        results = []
        for card in cards:
            try:
                results.append({"value": encode(card_value(card))})
            except Exception as error:
                results.append({"raised": describe(error, self.root)})
        return results

    def op_call(self, function: str, kwargs: dict) -> Any:
        """A function taking and returning plain values: make_deck, shuffle."""
        if function not in ("make_deck", "shuffle"):
            raise StudentFault(f"{function} cannot be called directly")
        return encode(self.name(function)(**kwargs))

    def op_deal(self, deck: list[str], trusted: Any = False) -> dict:
        """Deal with the student's deal; both queues drained (trusted: with correct Queue and Stack classes)."""
        with repaired(self, trusted):
            p1, p2 = self.name("deal")(_list(deck))
            return {"p1": self.drain(p1), "p2": self.drain(p2)}

    def op_play_round(self, p1: list[str], p2: list[str], rules: dict | None = None, trusted: Any = False) -> dict:
        """One play_round on fresh student queues; its return value and both queues after."""
        with repaired(self, trusted):
            q1, q2 = self.queue(p1), self.queue(p2)
            result = self.name("play_round")(q1, q2, *self.rules(rules))
            return {"result": encode(result), "p1": self.drain(q1), "p2": self.drain(q2)}

    def op_resolve_war(self, p1: list[str], p2: list[str], c1: str, c2: str, rules: dict | None = None,
                       trusted: Any = False) -> dict:
        """One resolve_war on fresh student queues, watching the student's Stack; queues and piles after."""
        with repaired(self, trusted):
            q1, q2 = self.queue(p1), self.queue(p2)
            with WatchedStacks(self) as watched:
                result = self.name("resolve_war")(q1, q2, c1, c2, *self.rules(rules))
            return {"result": encode(result), "p1": self.drain(q1), "p2": self.drain(q2), "stacks": watched.log}

    def op_play_game(self, kwargs: dict, rules: dict | None = None, trusted: Any = False) -> dict:
        """A whole play_game; the fields of the GameResult it returns."""
        with repaired(self, trusted):
            if rules:
                kwargs = dict(kwargs, rules=self.rules(rules)[0])
            result = self.name("play_game")(**kwargs)
            fields = ("winner", "rounds", "wars", "longest_war_chain", "p1_cards", "p2_cards", "history")
            return {field: encode(_getattr(result, field, None)) for field in fields}

    def op_replay(self, decks: list[list[str]], max_rounds: int, detail: bool = False,
                  trusted: Any = False) -> list[dict]:
        """op_replay_games, with correct Queue and Stack classes in place of the student's when trusted."""
        with repaired(self, trusted):
            return self.replay_games(decks, max_rounds, detail)

    def replay_games(self, decks: list[list[str]], max_rounds: int, detail: bool = False) -> list[dict]:
        """Play each deck with the student's play_round/resolve_war on its own Queue.

        Returns per deck a digest of the queue sizes after every round and of both final queues (the
        first deck also sends the sizes themselves, for the report's plot); with detail, each deck's
        sizes, final queues and both whole queues after every round (to pinpoint a divergence).
        """
        play_round, resolve_war = self.name("play_round"), self.name("resolve_war")
        games = []
        for index, deck in _enumerate(decks):
            p1 = self.queue(deck[0::2])
            p2 = self.queue(deck[1::2])
            sizes, snapshots, kinds, error = [], [], [], None
            try:
                for _ in _range(max_rounds):
                    if p1.is_empty() or p2.is_empty():
                        break
                    outcome = play_round(p1, p2)
                    kind = "round"
                    if _type(outcome) is tuple and _len(outcome) == 3 and outcome[0] == "war":
                        kind = "war"
                        outcome = resolve_war(p1, p2, outcome[1], outcome[2])
                    sizes.append(self.sizes(p1, p2))
                    kinds.append(kind)
                    if detail:
                        snapshots.append([self.drain_keep(p1), self.drain_keep(p2)])
                    if _type(outcome) is str and outcome == "draw":
                        break
                final = [self.drain(p1), self.drain(p2)]
            except Exception as error_:
                error = describe(error_, self.root)
                final = None
            game = {"digest": game_digest(sizes, final), "rounds": _len(sizes), "raised": error}
            if detail or index == 0:
                game.update(sizes=sizes, kinds=kinds, final=final, snapshots=snapshots)
            games.append(game)
        return games

    def drain_keep(self, queue: Any) -> list[Any]:
        """A queue's cards front first, left as they were (dequeued and enqueued back)."""
        cards = []
        for _ in _range(queue_size(queue, bounded=True)):
            card = queue.dequeue()
            cards.append(card)
            queue.enqueue(card)
        return [encode(card) for card in cards]


SHADOWED: list[Any] = []
"""Modules of the worker's that a student module took the name of (kept alive: the worker still uses them)."""


def import_student(package: str, root: str) -> Any:
    """Import the student's top-level module even when the worker has a module of that name loaded.

    A name Python itself loads before any program (os, io, sys...) stays Python's, as in any interpreter:
    the student is told to rename the module.
    """
    top = package.partition(".")[0]
    loaded = sys.modules.get(top)
    if loaded is not None and not _from_root(loaded, root):
        if top in STARTUP_MODULES or top in ALWAYS_LOADED or top in sys.builtin_module_names:
            raise StudentFault(_taken(top))
        for name in _list(sys.modules):
            if name == top or name.startswith(top + "."):
                SHADOWED.append(sys.modules.pop(name))
    module = importlib.import_module(package)
    if not _from_root(module, root):
        raise StudentFault(_taken(top))
    return module


def _from_root(module: Any, root: str) -> bool:
    path: Any = _getattr(module, "__file__", None)
    return _type(path) is str and os.path.realpath(path).startswith(root + os.sep)


def _taken(name: str) -> str:
    return (f"your module is named {name}, like a module of Python's own that every program has loaded "
            f"before yours, so Python never imports yours: rename it (for example to my_{name})")


def queue_size(queue: Any, *, bounded: bool) -> int:
    """The student queue's size(), which must be a whole number (and, bounded, 0..MAX_ITEMS to drain it)."""
    size = queue.size()
    if _type(size) is not int or (bounded and not 0 <= size <= MAX_ITEMS):
        what = "a small whole number" if bounded else "a whole number"
        raise StudentFault(f"Queue.size() returned {_safe(lambda: _repr(size))}, not {what}")
    return size


def game_digest(sizes: list, final: list | None) -> str:
    """A short fingerprint of a game: the sizes after every round and both final queues."""
    text = _json_dumps([sizes, final], separators=(",", ":"), ensure_ascii=True)
    return _sha256(text.encode()).hexdigest()[:24]


class WatchedStacks:
    """While active, every Stack the student's modules create is a subclass that logs its pushes."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.log: list[list[Any]] = []
        self.patched: list[tuple[Any, str, Any]] = []

    def __enter__(self) -> WatchedStacks:
        student_stack = self.session.name("Stack")
        log = self.log

        class WatchedStack(student_stack):  # type: ignore[misc, valid-type]
            def __init__(self, *args, **kwargs):
                super().__init__(*args, **kwargs)
                self._war_grader_index = _len(log)
                log.append([])

            def push(self, item):
                log[self._war_grader_index].append(encode(item))
                return super().push(item)

        WatchedStack.__name__ = WatchedStack.__qualname__ = _getattr(student_stack, "__name__", "Stack")
        for module in self.session.modules:
            for attribute, value in _list(vars(module).items()):
                if value is student_stack:
                    self.patched.append((module, attribute, value))
                    setattr(module, attribute, WatchedStack)
        return self

    def __exit__(self, *exc: object) -> None:
        for module, attribute, value in self.patched:
            setattr(module, attribute, value)


def describe(error: BaseException, root: str) -> dict:
    """An exception as plain data, its traceback cut to frames in the student's own files."""
    if "null bytes" in _safe(lambda: _str(error)):
        found = find_nul_byte(root)
        if found:
            return {"type": "SyntaxError", "message": f"{found[0]} line {found[1]} holds a NUL byte (\\x00), "
                                                      "which Python source cannot contain", "traceback": ""}
    frames = [
        frame for frame in traceback.extract_tb(error.__traceback__)
        if os.path.realpath(frame.filename).startswith(root + os.sep)
    ]
    for frame in frames:
        frame.filename = os.path.relpath(os.path.realpath(frame.filename), root)
    lines = traceback.format_list(frames)
    return {
        "type": _safe(lambda: _type(error).__name__),
        "message": _safe(lambda: _str(error)),
        "traceback": "".join(lines)[-4000:],
    }


def find_nul_byte(root: str) -> tuple[str, int] | None:
    """The first student .py file (relative path) and line holding a NUL byte, if any."""
    for folder, folders, files in os.walk(root):
        folders.sort()
        for name in sorted(files):
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                try:
                    with open(path, "rb") as handle:
                        data = handle.read()
                except OSError:
                    continue
                if b"\0" in data:
                    return os.path.relpath(path, root), data[: data.index(b"\0")].count(b"\n") + 1
    return None


class Quitter:
    """quit() and exit() as a normal interpreter's site module offers them: they raise SystemExit."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"Use {self.name}() or Ctrl-D (i.e. EOF) to exit"

    def __call__(self, code: Any = None) -> None:
        raise SystemExit(code)


def seed_randomness() -> None:
    """Reset the random generators to CALL_SEED: a call that uses unseeded randomness gives the same answer on
    every run (random.seed() and random.Random() without a seed get CALL_SEED too)."""
    _random.seed(CALL_SEED)


def _seed_unseeded() -> None:
    """Make random.Random's seed(None) (what random.seed() and random.Random() do) use CALL_SEED, not urandom."""
    original = _random.Random.seed

    def seed(self, a=None, version=2):  # noqa: ANN001 - random.Random.seed's own signature
        return original(self, CALL_SEED if a is None else a, version)

    _random.Random.seed = seed  # type: ignore[method-assign]
    _random.seed = _random._inst.seed  # the module's own seed() was bound to the old method


def serve(requests, reply) -> None:
    """Answer requests until standard input closes."""
    global COVERAGE
    session: Session | None = None
    capture = CappedText()
    sys.stdout = sys.stderr = capture
    send(reply, {"boot": True, "pid": os.getpid()})
    for line in requests:
        try:
            request = _json_loads(line)
            ident, op, args = request["id"], request["op"], request.get("args", {})
        except (ValueError, KeyError, TypeError):
            send(reply, {"id": None, "ok": False, "fault": "bad request"})
            continue
        answer: dict = {"id": ident}
        seed_randomness()
        try:
            if op == "hello":
                if args.get("coverage") and COVERAGE is None:
                    COVERAGE = LineRecorder(args["root"])
                    COVERAGE.start()
                session = Session(args["root"], args["package"])
                answer.update(ok=True, value={"python": sys.version.split()[0]})
            elif session is None:
                answer.update(ok=False, fault="hello first")
            else:
                answer.update(ok=True, value=_getattr(session, "op_" + op)(**args))
        except StudentFault as fault:
            answer.update(ok=False, missing=_str(fault))
        except SystemExit as error:
            answer.update(ok=False, raised={"type": "SystemExit", "message": f"exit({error.code!r})"[:MAX_TEXT],
                                            "traceback": describe(error, session.root if session else args.get("root", "/"))["traceback"]})
        except BaseException as error:  # noqa: BLE001 - the student's exception is the answer
            root = session.root if session else os.path.realpath(args.get("root", "/"))
            answer.update(ok=False, raised=describe(error, root))
        sys.stdout = sys.stderr = capture
        output, truncated = capture.take()
        answer["output"], answer["output_truncated"] = output, truncated
        if COVERAGE is not None and session is not None:
            lines = COVERAGE.new_lines()
            if lines is not None:
                answer["lines"] = lines
        send(reply, answer)


def send(reply, message: dict) -> None:
    """Write one reply line; a value that cannot be sent is the student's (encode makes every value sendable,
    so only student code that changed the worker's objects gets here)."""
    try:
        text = _json_dumps(message, ensure_ascii=True)
    except (TypeError, ValueError, RecursionError):
        text = _json_dumps({"id": message.get("id"), "ok": False,
                            "missing": "your code returned a value the grader cannot carry"})
    reply.write(text + "\n")
    reply.flush()


class LineRecorder:
    """Which statements of the student's files ran: the student's modules are compiled with a mark before each
    statement, as pytest rewrites assertions.

    (A line tracer made every line of every call run about twelve times slower: under `sys.settrace` the
    interpreter takes its slow path for every frame, traced or not.) A mark is `__war_grader_ran__[i] = 1`, a
    store into a list: about 11 ns, against 29 for calling a set's add. Only statements are marked, never
    expressions, and each mark sits at its statement's own line, so tracebacks, line numbers and the source the
    student sees are unchanged. The line numbers go to the trusted side, which maps them onto the statements of
    the source (scoring). The record agrees with a line tracer's (tests/test_line_recorder.py) but for two
    cases: an `except` clause counts as run when it caught the exception (a tracer also counts one that was only
    tested and let it pass), and code the student runs without importing it (exec of a string, a module loaded
    from a spec by hand) is not marked.
    """

    def __init__(self, root: str) -> None:
        self.prefix = os.path.realpath(root) + os.sep
        self.paths: list[str] = []
        """The student files compiled so far, relative to root."""
        self.ran: list[Any] = []
        """Per mark, 1 once its statement ran (the list student code sees as __war_grader_ran__)."""
        self.places: list[tuple[int, int]] = []
        """Per mark, the file (a place in paths) and line it stands for."""
        self.unseen = 0
        """How many marks had not run at the last reply that carried lines."""
        self.sent: set[int] = set()
        """The marks whose lines a reply already carried: each reply carries only new ones."""

    def start(self) -> None:
        """Mark every student module imported from now on."""
        setattr(builtins, MARK_NAME, self.ran)
        finders = sys.meta_path
        place = next((index for index, finder in _enumerate(finders)
                      if finder is importlib.machinery.PathFinder), _len(finders))
        finders.insert(place, StudentFinder(self))

    def owns(self, path: str) -> bool:
        """Whether path is one of the student's source files."""
        return path.endswith(".py") and os.path.realpath(path).startswith(self.prefix)

    def compile(self, data: bytes, path: str) -> Any:
        """The code of one student file, each statement marked; unmarked when it does not parse (so the
        student sees Python's own error) or is too deep to mark."""
        file = _len(self.paths)
        marks: dict[int, int] = {}

        def mark_for(line: int) -> int:
            if line not in marks:
                marks[line] = _len(self.places)
                self.places.append((file, line))
                self.ran.append(0)
                self.unseen += 1
            return marks[line]

        try:
            tree = ast.parse(data, path)
            mark_statements(tree, mark_for)
            code = compile(tree, path, "exec", dont_inherit=True)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return compile(data, path, "exec", dont_inherit=True)
        self.paths.append(os.path.realpath(path)[_len(self.prefix):])
        return code

    def new_lines(self) -> list[dict] | None:
        """The lines that ran since the last reply that carried some, or None if none did.

        Sent with the replies themselves, so a worker killed by a later call loses none of them and the
        grader never asks for them.
        """
        try:
            unseen = self.ran.count(0)
        except BaseException:  # noqa: BLE001 - student code may have put anything in the list
            return None
        if unseen == self.unseen:
            return None
        self.unseen = unseen
        lines: dict[str, set[int]] = {}
        for mark, ((file, line), value) in _enumerate(zip(self.places, self.ran)):
            if _type(value) is int and value == 1 and file < _len(self.paths) and mark not in self.sent:
                self.sent.add(mark)
                lines.setdefault(self.paths[file], set()).add(line)
        return [{"path": path, "executed": sorted(executed)} for path, executed in sorted(lines.items())]


MARK_NAME = "__war_grader_ran__"
"""The builtin list each mark stores into."""

STATEMENT_LISTS = ("body", "orelse", "finalbody")
"""The fields of an AST node that hold a list of statements."""


def mark_statements(tree: Any, mark_for: Any) -> None:
    """Put a mark before every statement of tree that runs (not docstrings, `global`, `nonlocal`, nor before a
    `from __future__` import, which must come first), and one at the top of every except clause.

    Only statement lists are followed (an expression never holds a statement): walking every node of the
    tree cost more than parsing it."""
    pending: list[Any] = [tree]
    while pending:
        node = pending.pop()
        for field in STATEMENT_LISTS:
            statements = _getattr(node, field, None)
            if _type(statements) is not list or not statements or not _isinstance(statements[0], ast.stmt):
                continue
            for statement in statements:
                pending.extend(_getattr(statement, "handlers", None) or ())
                pending.extend(_getattr(statement, "cases", None) or ())
            pending.extend(statements)
            marked: list[Any] = []
            first = 0
            if field == "body" and _isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef,
                                                       ast.AsyncFunctionDef)) and _is_docstring(statements[0]):
                marked.append(statements[0])
                first = 1
            if _isinstance(node, ast.Module):
                futures = first
                while futures < _len(statements) and _is_future_import(statements[futures]):
                    futures += 1
                marked.extend(statements[first:futures])
                marked.extend(_mark(statement, mark_for(statement.lineno)) for statement in statements[first:futures])
                first = futures
            for statement in statements[first:]:
                if not _isinstance(statement, (ast.Global, ast.Nonlocal)):
                    marked.append(_mark(statement, mark_for(statement.lineno)))
                marked.append(statement)
            if _isinstance(node, ast.ExceptHandler) and field == "body":
                marked.insert(0, _mark(node, mark_for(node.lineno)))
            setattr(node, field, marked)


def _is_future_import(statement: Any) -> bool:
    return _isinstance(statement, ast.ImportFrom) and statement.module == "__future__"


def _is_docstring(statement: Any) -> bool:
    return _isinstance(statement, ast.Expr) and _isinstance(statement.value, ast.Constant) \
        and _type(statement.value.value) is str


def _mark(where: Any, mark: int) -> Any:
    """`__war_grader_ran__[mark] = 1`, placed at where's line."""
    at = {"lineno": where.lineno, "col_offset": where.col_offset, "end_lineno": where.end_lineno,
          "end_col_offset": where.end_col_offset}
    target = ast.Subscript(ast.Name(MARK_NAME, ast.Load(), **at), ast.Constant(mark, **at), ast.Store(), **at)
    return ast.Assign([target], ast.Constant(1, **at), **at)


class StudentFinder:
    """Finds modules as Python's own path finder does, and loads the student's source files marked."""

    def __init__(self, recorder: LineRecorder) -> None:
        self.recorder = recorder

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        spec: Any = importlib.machinery.PathFinder.find_spec(name, path, target)
        loader: Any = spec.loader if spec is not None else None
        if _type(loader) is importlib.machinery.SourceFileLoader and self.recorder.owns(loader.path):
            spec.loader = MarkedLoader(loader.name, loader.path, self.recorder)
        return spec

    def invalidate_caches(self) -> None:
        importlib.machinery.PathFinder.invalidate_caches()


class MarkedLoader(importlib.machinery.SourceFileLoader):
    """A student's source file, compiled from its source with its statements marked."""

    def __init__(self, name: str, path: str, recorder: LineRecorder) -> None:
        super().__init__(name, path)
        self.recorder = recorder

    def get_code(self, fullname: str) -> Any:
        path = self.get_filename(fullname)
        return self.recorder.compile(self.get_data(path), path)


def _deny_keyring() -> None:
    """No kernel key for student code: keys outlive the worker and belong to its uid, which a later student or
    batch reuses (seccomp_bpf.py, beside this module in the runtime; absent when this module is run
    elsewhere, as in the trusted side's own process)."""
    try:
        import seccomp_bpf  # type: ignore[import-not-found]  # noqa: PLC0415
    except ImportError:
        return
    seccomp_bpf.deny_keyring()
    sys.modules.pop("seccomp_bpf", None)


def main() -> None:
    """Take over the reply descriptor, silence the real stdout/stderr, and serve."""
    reply_fd = int(sys.argv[1]) if _len(sys.argv) > 1 else os.dup(1)
    reply = os.fdopen(reply_fd, "w", encoding="utf-8", buffering=1)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    sys.setrecursionlimit(5000)
    _deny_keyring()
    builtins.quit, builtins.exit = Quitter("quit"), Quitter("exit")  # type: ignore[assignment]
    _seed_unseeded()
    # Student code that imports __main__ (or worker) finds an empty module (or its own), not the worker's objects.
    sys.modules["__main__"] = _type(sys)("__main__")
    if __name__ != "__main__":
        del sys.modules[__name__]
    serve(sys.stdin, reply)


if __name__ == "__main__":
    main()
