"""The trusted cards: the handout's values of the cards, and the Joker's place in a student's own orders of them
(the card_order repair), for trusted_units.py's stand-ins.

Sent with trusted_units.py to the child of a repaired call and run first, in the same namespace (channel.py's
stand_ins_source; stdlib only, never in the worker's runtime): what trusted_units.py says of itself holds here.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any  # annotations only: importing typing cost every worker 4 ms

    from .plain_values import StudentSession as Session

if TYPE_CHECKING or __package__:  # the trusted side's grader.sandbox.trusted_cards
    from .plain_values import StudentFault, safe_text
# In a worker, given those names as trusted_units.py is.

# Keep our own references: student code may replace builtins after it is imported.
_type, _len, _repr, _getattr = type, len, repr, getattr
_list, _tuple, _range, _enumerate = list, tuple, range, enumerate


TRUSTED_VALUES = {rank: value for value, rank in _enumerate(
    ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "Jo"), start=1)}
"""The handout's card strengths, for the worker's own card_value."""


def trusted_card_value(card: Any) -> int:
    """The handout's card_value: 1 for the Ace up to 13 for the King, 14 for the Joker; ValueError otherwise."""
    if _type(card) is not str or card not in TRUSTED_VALUES:
        raise ValueError(f"not a card: {safe_text(lambda: _repr(card))}")
    return TRUSTED_VALUES[card]



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
