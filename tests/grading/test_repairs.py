"""The smallest repairs of a counterfactual run (grader/sandbox/trusted_units.py), made in process on the wheat
with one bug: a Queue.dequeue or Stack.pop repaired on the student's own storage, so game code that reads that
storage itself still runs (issue 27 item 2), and the Joker put above every rank in a helper of the student's that
orders cards, where repairing card_value does not reach (issue 27 item 8). Each repair gives the reference's game
only where the bug is the one it names."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest

import reference
from grader.chaffs import wheat_sources, write_package
from grader.grading.checks import decode
from grader.sandbox.operations import Session
from grader.sandbox.plain_values import StudentFault

_names = itertools.count()

LIFO_QUEUE = ("structures.py", """class Queue(Generic[T]):""", """class Queue(Generic[T]):
    \"\"\"A hand kept in a list, which the game reads itself; dequeue takes the wrong end.\"\"\"

    def __init__(self) -> None:
        self.cards: list[T] = []

    def enqueue(self, item: T) -> None:
        self.cards.append(item)

    def dequeue(self) -> T:
        if not self.cards:
            raise IndexError("dequeue from an empty Queue")
        return self.cards.pop()

    def peek(self) -> T:
        if not self.cards:
            raise IndexError("peek at an empty Queue")
        return self.cards[-1]

    def is_empty(self) -> bool:
        return not self.cards

    def size(self) -> int:
        return len(self.cards)

    def __len__(self) -> int:
        return len(self.cards)


class _LinkedQueue(Generic[T]):""")
"""The wheat's Queue renamed out of the way, and a list-backed Queue whose dequeue pops the back."""

READS_ITS_LIST = ("game.py", "        history.append((p1.size(), p2.size()))",
                  "        history.append((len(p1.cards), len(p2.cards)))")
"""play_game reads each hand's list itself, as much real code does."""

BEATS_AS_TEXT = ("game.py", "from .structures import Queue, Stack\n", """from .structures import Queue, Stack


def _beats(a, b):
    \"\"\"True when card a beats card b (a Joker is compared by its name).\"\"\"
    if a == "Jo" or b == "Jo":
        return a > b
    return card_value(a) > card_value(b)
""")

STRENGTH_WITHOUT_JOKER = ("game.py", "from .structures import Queue, Stack\n", """from .structures import Queue, Stack

_ORDER = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def _strength(card):
    \"\"\"The card's place in our order (the Joker was forgotten).\"\"\"
    return _ORDER.index(card)
""")

ACE_HIGH_STRENGTH = ("game.py", "from .structures import Queue, Stack\n", """from .structures import Queue, Stack

_ORDER = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "1"]


def _strength(card):
    \"\"\"The card's place in our order: the Ace high, and the Joker forgotten.\"\"\"
    return _ORDER.index(card)
""")


INLINE_RANKS = ("game.py", "from .cards import card_value, deal, make_deck, shuffle",
                "from .cards import RANKS, card_value, deal, make_deck, shuffle")
"""game.py reads the cards' own RANKS (the 13 ranks, lowest first, no Joker) to compare cards inline."""

VALUES_TABLE = ("game.py", "from .structures import Queue, Stack\n", """from .structures import Queue, Stack

_VALUES = {rank: strength for strength, rank in enumerate(("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q",
                                                          "K"), start=2)}
""")
"""A dict from each rank to its strength, without the Joker, for play_round and the war to look cards up in."""

ACE_HIGH_RANKS = ("game.py", "from .structures import Queue, Stack\n", """from .structures import Queue, Stack

_ACE_HIGH = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "1")
""")
"""A tuple of the ranks with the Ace on top: an order wrong on the ranks too."""


def _compared_inline(left: str, right: str) -> list[tuple[str, str, str]]:
    """play_round and the war compare left + card + right inline (`RANKS.index(c1)`), with no helper and no
    card_value."""
    return [("game.py", f"card_value({card})", f"{left}{card}{right}") for card in ("c1", "c2", "up1", "up2")]


def _compared_with(helper: str) -> list[tuple[str, str, str]]:
    """play_round and the war compare cards with helper(a, b) (True when a beats b) instead of card_value."""
    return [("game.py", "    if card_value(c1) > card_value(c2):", f"    if {helper}(c1, c2):"),
            ("game.py", "    elif card_value(c2) > card_value(c1):", f"    elif {helper}(c2, c1):"),
            ("game.py", "        if card_value(up1) > card_value(up2):", f"        if {helper}(up1, up2):"),
            ("game.py", "        if card_value(up2) > card_value(up1):", f"        if {helper}(up2, up1):")]


def _keyed_with(helper: str) -> list[tuple[str, str, str]]:
    """play_round and the war compare helper(card) instead of card_value(card)."""
    return [("game.py", f"card_value({card})", f"{helper}({card})") for card in ("c1", "c2", "up1", "up2")]


def _session(tmp_path: Path, *edits: tuple[str, str, str]) -> Session:
    """The wheat with the edits, imported in this process under a name of its own, holding the stand-ins."""
    sources = wheat_sources()
    for file, old, new in edits:
        assert old in sources[file], (file, old)
        sources[file] = sources[file].replace(old, new)
    package = f"repairs_case_{next(_names)}"
    write_package(sources, tmp_path, package)
    return Session(str(tmp_path), package)


DECKS = [reference.shuffle(reference.make_deck(), seed) for seed in (11, 15, 18)]
"""Whole decks with Jokers on which the Joker-as-text helper plays a wrong game that no single handout function's repair
mends (its Joker meets a Queen or a King both in a round and in a war)."""

FIELDS = ("winner", "rounds", "wars", "longest_war_chain", "p1_cards", "p2_cards")


def _reference_game(deck: list[str]) -> dict[str, Any]:
    game = reference.play_game(deck=deck, max_rounds=1000)
    return {field: getattr(game, field) for field in FIELDS} | {"history": game.history}


def _game(session: Session, deck: list[str], trusted: Any) -> dict[str, Any]:
    game = session.op_play_game({"deck": deck, "max_rounds": 1000}, trusted=trusted)
    return {field: decode(game[field]) for field in (*FIELDS, "history")}


@pytest.mark.parametrize("deck", DECKS)
def test_a_lifo_dequeue_is_repaired_on_the_students_own_list(tmp_path, deck):
    """A Queue whose dequeue pops the back of its list, under a play_game that reads that list itself: replacing
    the whole class cannot run the game, repairing dequeue alone gives the reference's game"""
    session = _session(tmp_path, LIFO_QUEUE, READS_ITS_LIST)
    want = _reference_game(deck)
    assert _game(session, deck, False) != want
    with pytest.raises(AttributeError):
        _game(session, deck, "structures")
    assert _game(session, deck, "Queue.dequeue") == want
    assert _game(session, deck, False) != want  # the student's own dequeue is back after the repaired call


def test_a_fifo_stack_pop_is_repaired_alone(tmp_path):
    """A Stack whose pop takes the bottom of its list: repairing pop alone gives the reference's game"""
    session = _session(tmp_path, ("structures.py", "        return self._data.pop()", "        return self._data.pop(0)"))
    for deck in DECKS:
        assert _game(session, deck, "Stack.pop") == _reference_game(deck)
    assert any(_game(session, deck, False) != _reference_game(deck) for deck in DECKS)


def test_a_queue_kept_in_linked_nodes_cannot_have_its_dequeue_repaired(tmp_path):
    """The wheat's linked Queue holds no list or deque to repair dequeue on: the repair refuses, proving nothing"""
    session = _session(tmp_path)
    with pytest.raises(StudentFault, match="not in one list or deque"):
        _game(session, DECKS[0], "Queue.dequeue")


def test_a_repaired_dequeue_that_still_breaks_the_order_is_refused(tmp_path):
    """A Queue that also enqueues at a place no end of the list fixes (the middle) fails the hidden order with
    dequeue repaired: the repair refuses rather than excuse anything"""
    middle = ("structures.py", "        self.cards.append(item)", "        self.cards.insert(len(self.cards) // 2, item)")
    session = _session(tmp_path, LIFO_QUEUE, middle)
    with pytest.raises(StudentFault):
        _game(session, DECKS[0], "Queue.dequeue")


@pytest.mark.parametrize("deck", DECKS)
def test_a_joker_compared_as_text_in_a_helper_is_repaired_in_that_helper(tmp_path, deck):
    """play_round and the war compare cards with a helper that orders the Joker by its name: no repair of a handout
    function gives the reference's game, putting the Joker on top in that helper does"""
    session = _session(tmp_path, BEATS_AS_TEXT, *_compared_with("_beats"))
    want = _reference_game(deck)
    for unit in (False, "card_value", "play_round", "resolve_war"):
        assert _game(session, deck, unit) != want, unit
    assert _game(session, deck, "card_order") == want


def test_a_helper_key_that_raises_on_the_joker_is_repaired(tmp_path):
    """A helper key that forgets the Joker (ValueError on "Jo"): repaired, the games are the reference's"""
    session = _session(tmp_path, STRENGTH_WITHOUT_JOKER, *_keyed_with("_strength"))
    with pytest.raises(ValueError):
        _game(session, DECKS[0], False)
    for deck in DECKS:
        assert _game(session, deck, "card_order") == _reference_game(deck)


def test_a_helper_wrong_on_the_ranks_too_is_not_a_card_order_to_repair(tmp_path):
    """A helper that ranks the Ace high is not repaired for the Joker: its order of the ranks is a bug of its own"""
    session = _session(tmp_path, ACE_HIGH_STRENGTH, *_keyed_with("_strength"))
    with pytest.raises(StudentFault, match="no helper"):
        _game(session, DECKS[0], "card_order")


def test_card_order_finds_nothing_to_repair_where_card_value_compares(tmp_path):
    """The wheat compares with card_value itself: card_order has no helper to repair and refuses"""
    session = _session(tmp_path)
    with pytest.raises(StudentFault, match="no helper"):
        _game(session, DECKS[0], "card_order")


@pytest.mark.parametrize("deck", DECKS)
@pytest.mark.parametrize("table", ["RANKS.index(", "_VALUES["])
def test_an_inline_comparison_by_a_table_without_the_joker_is_repaired_in_that_table(tmp_path, deck, table):
    """play_round and the war compare cards inline by a table that has no Joker (`RANKS.index(card)`, a dict
    lookup), reaching no helper: no repair of a handout function gives the reference's game, putting the Joker
    above "K" in that table does (issue 27: one charge for a missing Joker)"""
    edit = INLINE_RANKS if table == "RANKS.index(" else VALUES_TABLE
    session = _session(tmp_path, edit, *_compared_inline(table, ")" if table.endswith("(") else "]"))
    want = _reference_game(deck)
    for unit in ("card_value", "play_round", "resolve_war"):
        with pytest.raises((ValueError, KeyError)):
            _game(session, deck, unit)
    assert _game(session, deck, "card_order") == want
    with pytest.raises((ValueError, KeyError)):
        _game(session, deck, False)  # the student's own table is back after the repaired call


def test_a_repaired_table_is_the_students_own_for_everything_but_a_lookup_of_the_joker(tmp_path):
    """The repaired RANKS gives no fourteenth rank to what iterates it: make_deck, which builds its deck from
    RANKS, still builds the student's own 54 cards (4 of each rank, 2 Jokers) during a repaired game"""
    count = ("game.py", "    return GameResult(winner, rounds, wars, longest_chain, p1.size(), p2.size(), tuple(history))",
             "    return GameResult(winner, rounds, wars, longest_chain, len(make_deck()) + len(RANKS) + "
             "RANKS.index('Jo'), p2.size(), tuple(history))")
    session = _session(tmp_path, INLINE_RANKS, *_compared_inline("RANKS.index(", ")"), count)
    game = session.op_play_game({"deck": DECKS[0], "max_rounds": 1000}, trusted="card_order")
    assert decode(game["p1_cards"]) == 54 + 13 + 13


def test_a_table_wrong_on_the_ranks_too_is_not_a_card_order_to_repair(tmp_path):
    """A tuple with the Ace on top is not repaired for the Joker: its order of the ranks is a bug of its own"""
    session = _session(tmp_path, ACE_HIGH_RANKS, *_compared_inline("_ACE_HIGH.index(", ")"))
    with pytest.raises(StudentFault, match="no helper or table"):
        _game(session, DECKS[0], "card_order")
