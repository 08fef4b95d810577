"""The trusted units: correct stand-ins for one unit of a submission (its Queue and Stack together, card_value,
play_round, resolve_war or deal), put in place of the student's for a counterfactual call.

Not a module of the worker's runtime: its source goes to a worker with each repaired call and runs only in the
child process that makes that call (worker.py's _repaired_call), so student code can never import, read or keep
these correct units for its own calls (stdlib only; see worker.py's docstring). An
excuse is a proven counterfactual (docs/rubric.md): the trusted side asks for a call with `trusted` set, and
`repaired` gives the context that swaps one unit in for that call and puts the student's back after it. The
stand-ins are written here from the handout's rules, not imported from the reference: no module of the sandbox
imports War's code (tests/test_sandbox_imports.py).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any  # annotations only: importing typing cost every worker 4 ms

    from .operations import Session

if TYPE_CHECKING or __package__:  # the trusted side's grader.sandbox.trusted_units
    from .plain_values import StudentFault, queue_size, safe_text
# In a worker, this source is run in the child of one repaired call, given those three names (worker.py's
# _repaired_call): it imports nothing there, so no module of the student's can stand in for plain_values.

# Keep our own references: student code may replace builtins after it is imported.
_type, _len, _str, _isinstance, _repr, _getattr = type, len, str, isinstance, repr, getattr
_list, _tuple, _range, _enumerate = list, tuple, range, enumerate


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
        raise ValueError(f"not a card: {safe_text(lambda: _repr(card))}")
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
                collect(p1, pile1, TrustedStack())
                collect(p2, pile2, TrustedStack())
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


REPAIRABLE = ("Queue.dequeue", "Stack.pop", "structures", "card_value", "play_round", "resolve_war", "deal",
              "card_order")
"""The units a counterfactual run may take from the reference: one method of the student's Queue or Stack (on
the student's own storage), the two classes together, one function, or the Joker's place in the student's own
helpers or tables that order cards. Everything else stays the student's own."""

METHODS = {"Queue.dequeue": ("Queue", "enqueue", "dequeue", 0), "Stack.pop": ("Stack", "push", "pop", -1)}
"""The methods repaired alone: (class, the method that adds, the one that takes, which probe item it should take:
the first added for a queue, the last for a stack)."""

ORDER_CHECKS = {"Queue": ((("add", "7"), ("add", "Jo"), ("add", "2"), ("add", "K"), ("add", "10"), ("take", "7"),
                           ("take", "Jo"), ("take", "2"), ("take", "K"), ("take", "10"), ("empty",)),
                          (("add", "1"), ("add", "2"), ("take", "1"), ("add", "3"), ("take", "2"), ("add", "4"),
                           ("take", "3"), ("take", "4"), ("empty",))),
                "Stack": ((("add", "7"), ("add", "Jo"), ("add", "2"), ("add", "K"), ("add", "10"), ("take", "10"),
                           ("take", "K"), ("take", "2"), ("take", "Jo"), ("take", "7"), ("empty",)),)}
"""The order the hidden Data-structures tests ask of each class (test_data_structures.py): a repaired method must
give it on a fresh instance of the student's class before any repaired call runs with it."""


def _storage_kind(value: Any) -> str:
    """ "list" or "deque" for storage a repaired method can work on (exactly those types), else ""."""
    kind = _type(value)
    if kind is _list:
        return "list"
    if _getattr(kind, "__module__", "") == "collections" and _getattr(kind, "__qualname__", "") == "deque":
        return "deque"
    return ""


class TrustedMethod:
    """While active, one method of the student's Queue or Stack (METHODS) takes the right end of the student's own
    storage: the list or deque, held in one attribute of each instance, that the student's adding method fills.
    Game code that reads that storage itself (`hand.items`) sees the student's own structure, with only that
    method repaired. The student's method is still called first, for whatever it keeps beside the storage (a
    count of items), and the storage is then set to what the right method leaves; its answer is the right item.
    A class whose storage cannot be found, or that does not then pass the order of the hidden Data-structures
    tests, cannot be repaired this way (StudentFault: the repair proves nothing)."""

    def __init__(self, session: Session, unit: str) -> None:
        self.session = session
        self.kind, self.add, self.take, self.wanted = METHODS[unit]
        self.target: Any = None
        self.had: Any = None

    def __enter__(self) -> TrustedMethod:
        target = self.session.name(self.kind)
        attribute, end = self._storage(target)
        original = _getattr(target, self.take)
        kind, take = self.kind, self.take

        def stand_in(instance: Any) -> Any:
            storage = _getattr(instance, attribute, None)
            if not _storage_kind(storage):
                raise StudentFault(f"your {kind} no longer keeps its items in .{attribute}")
            before = _list(storage)
            if not before:
                raise IndexError(f"{take} from an empty {kind}")
            item, rest = (before[0], before[1:]) if end == 0 else (before[-1], before[:-1])
            original(instance)  # the student's own bookkeeping; its answer is replaced
            storage = _getattr(instance, attribute, None)
            kind_now = _storage_kind(storage)
            if kind_now == "list":
                storage[:] = rest
            elif kind_now == "deque":
                storage.clear()
                storage.extend(rest)
            else:
                raise StudentFault(f"your {kind}.{take} replaced .{attribute} with something else")
            return item

        self.had = vars(target).get(self.take, None)
        self.target = target
        setattr(target, self.take, stand_in)
        try:
            self._check(target)
        except BaseException:
            self.__exit__()
            raise
        return self

    def _storage(self, target: Any) -> tuple[str, int]:
        """The attribute holding the items, and the end (0 or -1) of it the repaired method takes from."""
        try:
            probe = target()
            _getattr(probe, self.add)("2")
            _getattr(probe, self.add)("3")
            found = [(name, _list(value)) for name, value in _list(vars(probe).items())
                     if _storage_kind(value) and _list(value) in (["2", "3"], ["3", "2"])]
        except Exception:  # noqa: BLE001 - the student's class could not be probed: nothing to repair on
            found = []
        if _len(found) != 1:
            raise StudentFault(f"your {self.kind}'s items are not in one list or deque the grader can repair it on")
        name, items = found[0]
        wanted = ("2", "3")[self.wanted]
        return name, 0 if items[0] == wanted else -1

    def _check(self, target: Any) -> None:
        """The repaired class gives the order the hidden tests ask for, or StudentFault."""
        for steps in ORDER_CHECKS[self.kind]:
            instance = target()
            for step in steps:
                try:
                    if step[0] == "add":
                        _getattr(instance, self.add)(step[1])
                        continue
                    got = _getattr(instance, self.take)()
                except IndexError:
                    if step[0] == "empty":
                        continue
                    got = IndexError
                except Exception:  # noqa: BLE001 - the repaired class fails on its own
                    got = None
                if step[0] == "empty" or got != step[1]:
                    raise StudentFault(f"your {self.kind} does not follow the order even with "
                                       f"{self.kind}.{self.take} repaired")

    def __exit__(self, *exc: object) -> None:
        if self.target is None:
            return
        if self.had is None:
            delattr(self.target, self.take)
        else:
            setattr(self.target, self.take, self.had)
        self.target = None



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


RANKS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
"""The handout's ranks, lowest first, without the Joker."""

CONTRACT_FUNCTIONS = frozenset({"card_value", "play_round", "resolve_war", "play_game", "deal", "make_deck",
                                "shuffle"})
"""The handout's functions: repaired (or not) as units of their own, never as a helper."""


class TrustedCardOrder:
    """While active, the student's own orders of the cards that play_round or resolve_war reach (by name, at most
    two calls deep, other than through the handout's functions) put the Joker above every rank, and answer exactly
    as the student's do for every other card: the comparison of cards repaired where the student makes it, when
    card_value is not what compares them. An order is a helper function that orders the 13 ranks as the handout
    does and misplaces the Joker (a key: one card in, a number out, strictly rising from "1" to "K"; or a
    comparison of two cards: True when the first beats the second, or a number whose sign says which wins), or a
    module-level table without the Joker that an inline comparison reads (the 13 ranks lowest first in a tuple or
    list, as `RANKS.index(card)` reads them; or a dict from each rank to a number rising from "1" to "K"). None
    found: StudentFault (the repair proves nothing).

    A table is never given a fourteenth label in place of the Joker (no relabelling of the cards can make a
    comparison of 13 ranks put the Joker above the King): its stand-in answers a lookup of "Jo" (index, `in`, a
    key) with the place above "K" and is, for everything else (iteration, length, equality), the student's own
    table, so a make_deck that iterates it builds the same deck."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.patched: list[tuple[Any, str, Any]] = []

    def __enter__(self) -> TrustedCardOrder:
        repairs = []
        for order in self._reached():
            stand_in = _joker_placed(order) if _type(order).__name__ == "function" else _table_placed(order)
            if stand_in is not None:
                repairs.append((order, stand_in))
        if not repairs:
            raise StudentFault("no helper or table of yours orders the cards the handout's way but for the Joker")
        for module in self.session.modules:
            for attribute, value in _list(vars(module).items()):
                for helper, stand_in in repairs:
                    if value is helper:
                        self.patched.append((module, attribute, value))
                        setattr(module, attribute, stand_in)
        return self

    def _reached(self) -> list[Any]:
        """The student's plain functions (not the handout's) that play_round or resolve_war calls by name, at most
        two calls deep, and the tuples, lists and dicts that those functions, or play_round and resolve_war
        themselves, read by a global name."""
        names = {_getattr(module, "__name__", "") for module in self.session.modules}
        found: list[Any] = []
        frontier = []
        for unit in ("play_round", "resolve_war"):
            try:
                frontier.append(self.session.name(unit))
            except StudentFault:
                continue
        for depth in _range(3):
            following = []
            for function in frontier:
                space = _getattr(function, "__globals__", None)
                code = _getattr(function, "__code__", None)
                if _type(space) is not dict or code is None:
                    continue
                for name in _code_names(code):
                    value = space.get(name)
                    if any(value is f for f in found):
                        continue
                    if _type(value) in (_tuple, _list, dict):
                        found.append(value)  # a table read by name: repaired only where it orders the ranks
                    elif depth < 2 and name not in CONTRACT_FUNCTIONS and _type(value).__name__ == "function" \
                            and _getattr(value, "__module__", None) in names:
                        found.append(value)
                        following.append(value)
            frontier = following
        return found

    def __exit__(self, *exc: object) -> None:
        for module, attribute, value in reversed(self.patched):
            setattr(module, attribute, value)


def _code_names(code: Any) -> list[str]:
    """The global names a code object and the code nested in it (comprehensions, lambdas) use."""
    names: list[str] = []
    pending = [code]
    while pending:
        current = pending.pop()
        names.extend(name for name in current.co_names if _type(name) is str)
        pending.extend(const for const in current.co_consts if _type(const).__name__ == "code")
    return names


def _answer(function: Any, *cards: str) -> Any:
    """function(*cards), or None where it raises."""
    try:
        return function(*cards)
    except Exception:  # noqa: BLE001 - a helper that raises on a card answers nothing for it
        return None


def _number(value: Any) -> bool:
    return _type(value) is int or _type(value) is float


def _sign(value: Any) -> int:
    return (value > 0) - (value < 0)


def _joker_placed(helper: Any) -> Any:
    """helper with the Joker put above every rank, if it is a key or a comparison of cards that orders the 13 ranks
    the handout's way and misplaces the Joker; else None."""
    code = _getattr(helper, "__code__", None)
    defaults = _getattr(helper, "__defaults__", None) or ()
    if code is None or code.co_kwonlyargcount:
        return None
    required = code.co_argcount - _len(defaults)
    if required == 1:
        keys = [_answer(helper, rank) for rank in RANKS]
        if not all(_number(key) for key in keys) or any(a >= b for a, b in zip(keys, keys[1:])):
            return None
        joker = _answer(helper, "Jo")
        if _number(joker) and joker > keys[-1]:
            return None  # the Joker is already on top: nothing to repair
        top = keys[-1] + 1

        def key_stand_in(*args: Any, **kwargs: Any) -> Any:
            if _len(args) == 1 and not kwargs and _type(args[0]) is str and args[0] == "Jo":
                return top
            return helper(*args, **kwargs)

        return key_stand_in
    if required != 2:
        return None
    answers = [(a, b, _answer(helper, a, b)) for a in RANKS for b in RANKS]
    if all(_type(got) is bool and got == (TRUSTED_VALUES[a] > TRUSTED_VALUES[b]) for a, b, got in answers):
        def right(a: str, b: str) -> Any:
            return TRUSTED_VALUES[a] > TRUSTED_VALUES[b]
    elif all(_type(got) is int and _sign(got) == _sign(TRUSTED_VALUES[a] - TRUSTED_VALUES[b]) for a, b, got in answers):
        def right(a: str, b: str) -> Any:
            return _sign(TRUSTED_VALUES[a] - TRUSTED_VALUES[b])
    else:
        return None
    with_joker = [(a, b) for a in (*RANKS, "Jo") for b in (*RANKS, "Jo") if "Jo" in (a, b)]
    if all(_answer(helper, a, b) == right(a, b) and _type(_answer(helper, a, b)) is _type(right(a, b))
           for a, b in with_joker):
        return None  # the Joker is already ordered right: nothing to repair

    def pair_stand_in(*args: Any, **kwargs: Any) -> Any:
        if _len(args) == 2 and not kwargs and all(_type(card) is str and card in TRUSTED_VALUES for card in args) \
                and "Jo" in args:
            return right(args[0], args[1])
        return helper(*args, **kwargs)

    return pair_stand_in


def _ranks_with_joker(base: Any) -> Any:
    """A subclass of tuple or list for the 13 ranks, lowest first, in which a lookup of the Joker finds it above
    "K"."""

    class RanksWithJoker(base):
        def index(self, value: Any, *bounds: Any) -> int:
            if not bounds and _type(value) is str and value == "Jo":
                return _len(self)
            return base.index(self, value, *bounds)

        def __contains__(self, value: Any) -> bool:
            return (_type(value) is str and value == "Jo") or base.__contains__(self, value)

    return RanksWithJoker


class _ValuesWithJoker(dict):
    """A dict from the 13 ranks to rising numbers, in which the Joker's key finds a number above "K"'s."""

    top: Any = None

    def __getitem__(self, key: Any) -> Any:
        if _type(key) is str and key == "Jo":
            return self.top
        return dict.__getitem__(self, key)

    def get(self, key: Any, default: Any = None) -> Any:
        if _type(key) is str and key == "Jo":
            return self.top
        return dict.get(self, key, default)

    def __contains__(self, key: Any) -> bool:
        return (_type(key) is str and key == "Jo") or dict.__contains__(self, key)


def _table_placed(table: Any) -> Any:
    """A stand-in for table with the Joker above every rank for lookups, if it is a table without the Joker that
    orders the 13 ranks the handout's way (the ranks lowest first in a tuple or list, or a dict from each rank to
    a number strictly rising from "1" to "K"); else None."""
    kind = _type(table)
    if kind is _tuple or kind is _list:
        if _len(table) != _len(RANKS) or any(_type(item) is not str or item != rank
                                             for item, rank in zip(table, RANKS)):
            return None
        return _ranks_with_joker(kind)(table)
    if kind is not dict or _len(table) != _len(RANKS) or any(_type(key) is not str for key in table) \
            or "Jo" in table or any(rank not in table for rank in RANKS):
        return None
    values = [table[rank] for rank in RANKS]
    if not all(_number(value) for value in values) or any(a >= b for a, b in zip(values, values[1:])):
        return None
    stand_in = _ValuesWithJoker(table)
    stand_in.top = values[-1] + 1
    return stand_in


def repaired(session: Session, trusted: Any) -> Any:
    """The context of a call: the student's code as it is (trusted false), or with one unit repaired (True or
    "structures": the Queue and Stack; "Queue.dequeue", "Stack.pop": that method alone, on the student's own
    storage; "card_value", "play_round", "resolve_war", "deal": that function; "card_order": the Joker's place in
    the student's own helpers and tables that order cards)."""
    if trusted is True or trusted == "structures":
        return TrustedStructures(session, True)
    if not trusted:
        return TrustedStructures(session, False)
    if _type(trusted) is str and trusted in METHODS:
        return TrustedMethod(session, trusted)
    if trusted == "card_order":
        return TrustedCardOrder(session)
    if _type(trusted) is str and trusted in REPAIRABLE:
        return TrustedUnit(session, trusted)
    raise StudentFault(f"no unit called {safe_text(lambda: _str(trusted))} can be repaired")
