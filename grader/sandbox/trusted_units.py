"""The trusted units: correct stand-ins for one unit of a submission (its Queue and Stack together, card_value,
play_round, resolve_war or deal), put in place of the student's for a counterfactual call.

Not a module of the worker's runtime: its source goes to a worker with each repaired call and runs only in the
child process that makes that call (worker.py's _repaired_call), so student code can never import, read or keep
these correct units for its own calls (stdlib only; see worker.py's docstring). An
excuse is a proven counterfactual (docs/rubric.md): the trusted side asks for a call with `trusted` set, and
`repaired` gives the context that swaps one unit in for that call and puts the student's back after it. The
stand-ins are written here from the handout's rules, not imported from the reference: no module of the sandbox
imports War's code (tests/sandbox/test_sandbox_imports.py).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any  # annotations only: importing typing cost every worker 4 ms

    from .plain_values import StudentSession as Session

if TYPE_CHECKING or __package__:  # the trusted side's grader.sandbox.trusted_units
    from .plain_values import StudentFault, queue_size, safe_text
    from .trusted_cards import TRUSTED_VALUES, TrustedCardOrder, trusted_card_value
# In a worker, this source is run in the child of one repaired call, given those three names (worker.py's
# _repaired_call), after trusted_cards.py's in the same namespace (channel.stand_ins_source): it imports nothing
# there, so no module of the student's can stand in for plain_values or trusted_cards.

# Keep our own references: student code may replace builtins after it is imported.
_type, _len, _str, _isinstance, _getattr = type, len, str, isinstance, getattr
_list, _range = list, range


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
