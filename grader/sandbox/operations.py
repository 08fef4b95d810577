"""The operations the trusted side may ask of a submission: the Session that imports it and answers each request
with plain values, and how the submission is imported under its own name.

A module of the worker's runtime (stdlib only, beside worker.py in the sandbox; see worker.py's docstring). The
worker's serve loop calls Session.op_<name> for a request of that name; the trusted side runs the same Session
on the reference in its own process (expected answers, deadlines).
"""

from __future__ import annotations

import importlib
import json
import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any  # annotations only: importing typing cost every worker 4 ms

if TYPE_CHECKING or __package__:  # the trusted side's grader.sandbox.operations
    from .plain_values import StudentFault, describe, encode, queue_size
    from .trusted_units import repaired as _stand_ins  # the trusted side times repaired calls in process
else:  # in the runtime this module is top-level, beside its neighbours
    from plain_values import StudentFault, describe, encode, queue_size
    _stand_ins = None  # the runtime holds no stand-ins: each repaired call brings them (worker.py's serve)

try:  # hashlib loads OpenSSL (5 ms at every worker's start) for the one hash the worker needs
    from _sha256 import sha256 as _sha256  # type: ignore[import-not-found]
except ImportError:  # an interpreter built without it (or 3.12's _sha2)
    from hashlib import sha256 as _sha256

# Keep our own references: student code may replace builtins after it is imported.
_type, _len, _getattr = type, len, getattr
_list, _range, _enumerate = list, range, enumerate
_json_dumps = json.dumps

ALWAYS_LOADED = frozenset({"os", "stat", "posixpath", "genericpath", "_collections_abc", "_sitebuiltins", "site",
                           "io", "abc", "codecs", "sys", "builtins"})
"""Modules a normal interpreter (with site) has loaded before any program, although this one (-S) may not."""


class _Unrepaired:
    """The context of a call on the student's own code: nothing swapped."""

    def __enter__(self) -> _Unrepaired:
        return self

    def __exit__(self, *exc: object) -> None:
        return None


_UNREPAIRED = _Unrepaired()


class Session:
    """The imported submission and the operations the trusted side may ask of it."""

    def __init__(self, root: str, package: str, startup: frozenset[str] = frozenset()) -> None:
        """Import package from root. startup: the modules the interpreter loaded before the worker (the worker's
        STARTUP_MODULES), whose names a student module cannot take; the trusted side, which only opens a package
        it has already imported from root, passes none."""
        self.root = os.path.realpath(root)
        self.package_name = package
        sys.path.insert(0, self.root)
        self.package = import_student(package, self.root, startup)
        self.modules = [
            module for name, module in _list(sys.modules.items())
            if name == package or name.startswith(package + ".")
        ]
        self.queue_class: Any = None
        """TrustedQueue while TrustedStructures is active, else None (the student's Queue)."""
        self.stand_ins: Any = _stand_ins
        """trusted_units.repaired where this process may hold the correct stand-ins (the trusted side, or a
        worker's child for one repaired call), else None."""

    def repaired(self, trusted: Any) -> Any:
        """The context of a call: the student's own code (trusted false), or one unit repaired by the stand-ins."""
        if not trusted:
            return _UNREPAIRED
        if self.stand_ins is None:
            raise StudentFault("the grader sent no stand-ins with a repaired call")
        return self.stand_ins(self, trusted)

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
        with self.repaired(trusted):
            p1, p2 = self.name("deal")(_list(deck))
            return {"p1": self.drain(p1), "p2": self.drain(p2)}

    def op_play_round(self, p1: list[str], p2: list[str], rules: dict | None = None, trusted: Any = False) -> dict:
        """One play_round on fresh student queues; its return value and both queues after."""
        with self.repaired(trusted):
            q1, q2 = self.queue(p1), self.queue(p2)
            result = self.name("play_round")(q1, q2, *self.rules(rules))
            return {"result": encode(result), "p1": self.drain(q1), "p2": self.drain(q2)}

    def op_resolve_war(self, p1: list[str], p2: list[str], c1: str, c2: str, rules: dict | None = None,
                       trusted: Any = False) -> dict:
        """One resolve_war on fresh student queues, watching the student's Stack; queues and piles after."""
        with self.repaired(trusted):
            q1, q2 = self.queue(p1), self.queue(p2)
            with WatchedStacks(self) as watched:
                result = self.name("resolve_war")(q1, q2, c1, c2, *self.rules(rules))
            return {"result": encode(result), "p1": self.drain(q1), "p2": self.drain(q2), "stacks": watched.log}

    def op_play_game(self, kwargs: dict, rules: dict | None = None, trusted: Any = False) -> dict:
        """A whole play_game; the fields of the GameResult it returns."""
        with self.repaired(trusted):
            if rules:
                kwargs = dict(kwargs, rules=self.rules(rules)[0])
            result = self.name("play_game")(**kwargs)
            fields = ("winner", "rounds", "wars", "longest_war_chain", "p1_cards", "p2_cards", "history")
            return {field: encode(_getattr(result, field, None)) for field in fields}

    def op_replay(self, decks: list[list[str]], max_rounds: int, detail: bool = False,
                  trusted: Any = False) -> list[dict]:
        """op_replay_games, with correct Queue and Stack classes in place of the student's when trusted."""
        with self.repaired(trusted):
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


def import_student(package: str, root: str, startup: frozenset[str]) -> Any:
    """Import the student's top-level module even when the worker has a module of that name loaded.

    A name Python itself loads before any program (startup, ALWAYS_LOADED: os, io, sys...) stays Python's, as in
    any interpreter: the student is told to rename the module.
    """
    top = package.partition(".")[0]
    loaded = sys.modules.get(top)
    if loaded is not None and not _from_root(loaded, root):
        if top in startup or top in ALWAYS_LOADED or top in sys.builtin_module_names:
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
