"""War: stacks & queues project, everything in one file (Queue, Stack, cards, rules, rounds, wars, games)."""

from __future__ import annotations

import collections
import random
from dataclasses import dataclass
from types import MappingProxyType
from typing import Generic, Iterator, Mapping, TypeVar


# ------------------------------ structures ------------------------------

T = TypeVar("T")


class Queue(Generic[T]):
    """First in, first out: a player's hand, played from the front, won cards added at the back."""

    def __init__(self) -> None:
        """Create an empty queue."""
        self._cards = collections.deque()

    def enqueue(self, item: T) -> None:
        """Add an item at the back in O(1)."""
        self._cards.append(item)

    def dequeue(self) -> T:
        """Remove and return the front item in O(1); IndexError if the queue is empty."""
        try:
            return self._cards.popleft()
        except IndexError:
            raise IndexError("dequeue from an empty Queue") from None

    def peek(self) -> T:
        """Return the front item without removing it; IndexError if the queue is empty."""
        try:
            return self._cards[0]
        except IndexError:
            raise IndexError("peek at an empty Queue") from None

    def is_empty(self) -> bool:
        """True when the queue holds no item."""
        return not self._cards

    def size(self) -> int:
        """How many items the queue holds."""
        return len(self._cards)

    __len__ = size

    def __iter__(self) -> Iterator[T]:
        """Iterate from front to back without removing anything."""
        yield from self._cards

    def __repr__(self) -> str:
        """Show the items front first."""
        return "Queue(%r)" % list(self._cards)


class Stack(Generic[T]):
    """Last in, first out: a war pile, whose most recent card comes off first."""

    def __init__(self) -> None:
        """Create an empty stack."""
        self._cards = []

    def push(self, item: T) -> None:
        """Put an item on top in O(1)."""
        self._cards.append(item)

    def pop(self) -> T:
        """Remove and return the top item in O(1); IndexError if the stack is empty."""
        try:
            return self._cards.pop()
        except IndexError:
            raise IndexError("pop from an empty Stack") from None

    def peek(self) -> T:
        """Return the top item without removing it; IndexError if the stack is empty."""
        try:
            return self._cards[-1]
        except IndexError:
            raise IndexError("peek at an empty Stack") from None

    def is_empty(self) -> bool:
        """True when the stack holds no item."""
        return not self._cards

    def size(self) -> int:
        """How many items the stack holds."""
        return len(self._cards)

    __len__ = size

    def __iter__(self) -> Iterator[T]:
        """Iterate from bottom to top without removing anything."""
        yield from self._cards

    def __repr__(self) -> str:
        """Show the items bottom first."""
        return "Stack(%r)" % self._cards


# ------------------------------ cards ------------------------------

RANKS: tuple[str, ...] = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
"""The thirteen ranks, lowest first; each appears four times in a deck."""

JOKER: str = "Jo"
"""The Joker, higher than every rank; a deck holds two."""

VALUES = {
    "1": 1,
    "2": 2,
    "3": 3,
    "4": 4,
    "5": 5,
    "6": 6,
    "7": 7,
    "8": 8,
    "9": 9,
    "10": 10,
    "J": 11,
    "Q": 12,
    "K": 13,
    "Jo": 14,  # joker beats everything
}


def card_value(card: str) -> int:
    """Return the card's strength: 1 for "1" up to 13 for "K", 14 for the Joker; ValueError otherwise."""
    if type(card) != str or card not in VALUES:
        raise ValueError("invalid card " + repr(card))
    return VALUES[card]


def make_deck(jokers: bool = True) -> list[str]:
    """Return a new unshuffled deck: four of each rank, plus two Jokers unless jokers is False."""
    deck = [r for r in RANKS for _ in range(4)]
    if jokers:
        deck = deck + [JOKER] * 2
    return deck


def shuffle(deck: list[str], seed: int | None = None) -> list[str]:
    """Return a shuffled copy of deck; the same seed always gives the same order."""
    result = list(deck)
    random.Random(seed).shuffle(result)
    return result


def deal(deck: list[str]) -> tuple[Queue[str], Queue[str]]:
    """Deal the deck alternately, first card to P1, into two queues (P1 gets the odd card)."""
    p1 = Queue()
    p2 = Queue()
    turn = 1
    for card in deck:
        if turn == 1:
            p1.enqueue(card)
            turn = 2
        else:
            p2.enqueue(card)
            turn = 1
    return p1, p2


# ------------------------------ rules ------------------------------

DECKS: tuple[str, ...] = ("handout", "standard")
"""The cards in play: the handout's 54 (four of each rank 1..K and two Jokers) or a standard 52 (no Jokers)."""

DEALS: tuple[str, ...] = ("alternate", "alternate_on_top", "halves")
"""How the deck is split: alternately with the first card on top of P1's queue (the handout), alternately with
each card placed on top of the receiving pile (the last card dealt is the top card), or P1 the first half."""

COLLECT_ORDERS: tuple[str, ...] = ("winner_first", "loser_first", "played", "sorted", "shuffled")
"""How the winner picks up the cards: its own war pile first (the handout), the opponent's war pile first,
in the order the cards were played, highest rank first, or shuffled."""

SHORT_WARS: tuple[str, ...] = ("forfeit", "play_out")
"""What a player short of cards in a war does: loses at once (the handout) or plays what it has."""


@dataclass(frozen=True)
class Rules:
    """How a war is fought and won; DEFAULT_RULES is the handout's."""

    face_down: int = 3
    """Cards each player places face down in every war cycle, before its one face-up card."""

    collect: str = "winner_first"
    """How the winner adds the won cards to the back of its queue. "winner_first": its own war pile, then the
    opponent's, each popped top first (the handout); "loser_first": the opponent's war pile first (a battle
    won outright is still taken winner's card first, as the handout's Part B says); "played": in the order
    the cards were played, P1's card then P2's at every step; "sorted": highest rank first; "shuffled": in an
    order drawn from play_game's seeded generator (play_round and resolve_war on their own use an unseeded one)."""

    deck: str = "handout"
    """"handout": 54 cards, four of each rank "1" (lowest) .. "K" and two Jokers; "standard": 52, no Joker."""

    high_card: str | None = None
    """The rank that beats every other card; the others keep their order 1 < 2 < ... < K < Jo. None means the
    deck's usual top card: "Jo" for the handout deck, "1" (the Ace, as in most published rules) for standard."""

    deal: str = "alternate"
    """"alternate": one card each in turn, first card to P1 and to the front of its queue (the handout);
    "alternate_on_top": in turn, first card to P1, each card placed on top of the receiving pile so the last
    card dealt is played first; "halves": P1 takes the first half (the odd card if any), P2 the rest."""

    short_war: str = "forfeit"
    """"forfeit": a player with fewer than face_down + 1 cards at a war cycle loses the pot and the game at
    once (the handout); "play_out": a player places up to face_down cards but keeps its last card to turn
    face up, and loses only when it has no card to turn face up; the winner then takes the whole pot."""

    def __post_init__(self) -> None:
        """Reject values the engine cannot play, naming the field; fill in the deck's usual high card."""
        if type(self.face_down) is not int or self.face_down < 0:
            raise ValueError(f"face_down must be a whole number >= 0, not {self.face_down!r}")
        for name, allowed in (
            ("collect", COLLECT_ORDERS),
            ("deck", DECKS),
            ("deal", DEALS),
            ("short_war", SHORT_WARS),
        ):
            if getattr(self, name) not in allowed:
                raise ValueError(f"{name} must be one of {', '.join(allowed)}, not {getattr(self, name)!r}")
        cards = RANKS + (JOKER,) if self.deck == "handout" else RANKS
        if self.high_card is None:
            object.__setattr__(self, "high_card", JOKER if self.deck == "handout" else "1")
        elif self.high_card not in cards:
            raise ValueError(
                f"high_card must be one of {', '.join(cards)} with the {self.deck} deck, not {self.high_card!r}"
            )


DEFAULT_RULES = Rules()
"""The handout's rules: 54 cards dealt alternately, 3 cards face down, the winner collects its own pile first,
a player short of cards in a war loses the game."""

CPS506_RULES = Rules(
    face_down=1,
    collect="sorted",
    deck="standard",
    high_card="1",
    deal="alternate_on_top",
    short_war="play_out",
)
"""The CPS506 permutation assignment: 52 cards, Ace high, each card dealt on top of the receiving pile, one card
face down, won cards added highest rank first, a player who cannot turn a card face up loses."""

PRESETS: Mapping[str, Rules] = MappingProxyType({"handout": DEFAULT_RULES, "cps506": CPS506_RULES})
"""Named rule sets: "handout" (the default) and "cps506"."""


# ------------------------------ game ------------------------------

@dataclass(frozen=True)
class GameResult:
    """What one game came to, and the numbers the handout's extensions ask for."""

    winner: str
    """"P1" or "P2" when one player holds every card, else "draw" (round limit, or both short in a war)."""

    rounds: int
    """Rounds played; a war belongs to the round that started it."""

    wars: int
    """Rounds that went to war."""

    longest_war_chain: int
    """Most war cycles inside one round: a single war is 1, a war that ties again is 2."""

    p1_cards: int
    """Cards in P1's queue at the end."""

    p2_cards: int
    """Cards in P2's queue at the end."""

    history: tuple[tuple[int, int], ...]
    """The sizes of P1's and P2's queues after every round (telemetry)."""


def play_round(p1: Queue[str], p2: Queue[str], rules: Rules = DEFAULT_RULES) -> str | tuple[str, str, str]:
    """Play one round: "P1"/"P2" for the winner, ("war", c1, c2) on a tie, "draw" if both queues are empty."""
    if p1.is_empty() and p2.is_empty():
        return "draw"
    elif p1.is_empty():
        return "P2"
    elif p2.is_empty():
        return "P1"

    c1 = p1.dequeue()
    c2 = p2.dequeue()

    if card_value(c1) > card_value(c2):
        p1.enqueue(c1)  # winner's card first
        p1.enqueue(c2)
        return "P1"
    elif card_value(c2) > card_value(c1):
        p2.enqueue(c2)  # winner's card first
        p2.enqueue(c1)
        return "P2"
    else:
        return ("war", c1, c2)


def resolve_war(p1: Queue[str], p2: Queue[str], c1: str, c2: str, rules: Rules = DEFAULT_RULES) -> str:
    """Fight the war started by the tied cards c1 and c2: "P1" or "P2" for the winner, "draw" if both run short."""
    winner, chain = war_and_chain(p1, p2, c1, c2, rules)
    return winner


def war_and_chain(p1, p2, c1, c2, rules):
    """Same as resolve_war but also gives back the chain length."""
    p1_pile = Stack()
    p2_pile = Stack()
    p1_pile.push(c1)
    p2_pile.push(c2)
    chain = 1

    while True:
        p1_enough = p1.size() >= rules.face_down + 1
        p2_enough = p2.size() >= rules.face_down + 1

        if not p1_enough and not p2_enough:
            while not p1_pile.is_empty():
                p1.enqueue(p1_pile.pop())
            while not p2_pile.is_empty():
                p2.enqueue(p2_pile.pop())
            return "draw", chain

        if not p1_enough:
            collect(p2, p2_pile, p1_pile, rules)
            while not p1.is_empty():
                p2.enqueue(p1.dequeue())
            return "P2", chain

        if not p2_enough:
            collect(p1, p1_pile, p2_pile, rules)
            while not p2.is_empty():
                p1.enqueue(p2.dequeue())
            return "P1", chain

        i = 0
        while i < rules.face_down:
            p1_pile.push(p1.dequeue())
            p2_pile.push(p2.dequeue())
            i += 1

        p1_up = p1.dequeue()
        p2_up = p2.dequeue()
        p1_pile.push(p1_up)
        p2_pile.push(p2_up)

        if card_value(p1_up) > card_value(p2_up):
            collect(p1, p1_pile, p2_pile, rules)
            return "P1", chain
        elif card_value(p2_up) > card_value(p1_up):
            collect(p2, p2_pile, p1_pile, rules)
            return "P2", chain
        else:
            chain += 1


def collect(winner, winner_pile, loser_pile, rules):
    if rules.collect == "winner_first":
        order = [winner_pile, loser_pile]
    else:
        order = [loser_pile, winner_pile]
    for pile in order:
        while not pile.is_empty():
            winner.enqueue(pile.pop())


def play_game(
    max_rounds: int = 1000,
    seed: int | None = None,
    deck: list[str] | None = None,
    rules: Rules = DEFAULT_RULES,
) -> GameResult:
    """Play a whole game: until one player holds every card, a war ends in a draw, or max_rounds rounds."""
    if type(max_rounds) is not int or max_rounds < 0:
        raise ValueError("max_rounds must be a whole number >= 0")

    if deck is None:
        cards = shuffle(make_deck(), seed)
    else:
        cards = list(deck)
    p1, p2 = deal(cards)

    rounds = 0
    wars = 0
    longest = 0
    history = []
    game_drawn = False

    while not p1.is_empty() and not p2.is_empty() and rounds < max_rounds:
        rounds += 1
        outcome = play_round(p1, p2, rules)
        if isinstance(outcome, tuple):
            wars += 1
            winner, chain = war_and_chain(p1, p2, outcome[1], outcome[2], rules)
            if chain > longest:
                longest = chain
            if winner == "draw":
                game_drawn = True
        history.append((p1.size(), p2.size()))
        if game_drawn:
            break

    if game_drawn:
        winner = "draw"
    elif p2.is_empty() and not p1.is_empty():
        winner = "P1"
    elif p1.is_empty() and not p2.is_empty():
        winner = "P2"
    else:
        winner = "draw"

    return GameResult(winner, rounds, wars, longest, p1.size(), p2.size(), tuple(history))
